import Testing

/// Bad command lines: one line on stderr, nothing on stdout, exit status 2.
@Suite("usage errors")
struct UsageErrorTests {
    @Test("an unknown command suggests the closest one")
    func unknownCommandSuggestion() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["chek"]), status: 2, stdout: "",
                  stderr: "tick: unknown command 'chek'; did you mean 'check'? (see 'tick --help')\n")
        expectRun(try sandbox.run(["ini"]), status: 2, stdout: "",
                  stderr: "tick: unknown command 'ini'; did you mean 'init'? (see 'tick --help')\n")
    }

    @Test("an unknown command far from every name gets no suggestion")
    func unknownCommandWithoutSuggestion() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["xyzzy"]), status: 2, stdout: "",
                  stderr: "tick: unknown command 'xyzzy' (see 'tick --help')\n")
    }

    @Test("an unknown option suggests the closest one, global or the command's own")
    func unknownOption() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["check", "--jsno"]), status: 2, stdout: "",
                  stderr: "tick: unknown option '--jsno'; did you mean '--json'?\n")
        expectRun(try sandbox.run(["--qiuet", "check"]), status: 2, stdout: "",
                  stderr: "tick: unknown option '--qiuet'; did you mean '--quiet'?\n")
        expectRun(try sandbox.run(["check", "--frobnicate=3"]), status: 2, stdout: "",
                  stderr: "tick: unknown option '--frobnicate'\n")
        expectRun(try sandbox.run(["check", "-x"]), status: 2, stdout: "", stderr: "tick: unknown option '-x'\n")
    }

    @Test("an option without its value names the value")
    func missingValue() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["check", "--dir"]), status: 2, stdout: "",
                  stderr: "tick: option '--dir' needs a value DIR\n")
    }

    @Test("a flag given a value is refused")
    func flagWithValue() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["check", "--json=yes"]), status: 2, stdout: "",
                  stderr: "tick: option '--json' takes no value\n")
    }

    @Test("a value outside an option's choices lists the choices")
    func invalidChoice() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["--color", "alway", "check"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'alway' for '--color'; did you mean 'always'? (expected auto, always or never)\n")
        expectRun(try sandbox.run(["--color=blue", "check"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'blue' for '--color' (expected auto, always or never)\n")
    }

    @Test("too many arguments name the first extra one")
    func unexpectedArgument() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["init", "a", "b"]), status: 2, stdout: "",
                  stderr: "tick: unexpected argument 'b' (usage: tick init [DIR] [OPTIONS])\n")
    }

    @Test("a malformed --now or TICK_NOW is bad input")
    func badNow() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("clean")
        expectRun(try sandbox.run(["--dir", "clean", "check", "--now", "2026-02-30"]), status: 2, stdout: "",
                  stderr: "tick: --now is not a date: '2026-02-30' (expected a date word, YYYY-MM-DD or YYYY-MM-DDTHH:MM)\n")
        expectRun(try sandbox.run(["--dir", "clean", "check"], environment: ["TICK_NOW": "soon"]), status: 2,
                  stdout: "", stderr: "tick: TICK_NOW is not a date: 'soon' (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM)\n")
        expectRun(try sandbox.run(["--dir", "clean", "check", "--quiet", "--now", "2026-03-01T07:05"]), status: 0,
                  stdout: "", stderr: "")
    }
}
