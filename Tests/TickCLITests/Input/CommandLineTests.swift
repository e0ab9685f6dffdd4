import Foundation
import Testing

/// How the command line reads words: titles and dates that start with a dash, options given
/// twice, other tools' command names, and what `--quiet` leaves out. "Now" is pinned to
/// Saturday 14 March 2026, 09:30.
@Suite("command line")
struct CommandLineTests {
    @Test("a title that starts with - is added after --; one that starts with a dash and a digit needs no --")
    func dashTitles() throws {
        let sandbox = try Fixtures.folder(["inbox.md": "# Inbox\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "--", "-x marks the spot"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "-5 degrees: check boiler"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "--", "--help"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md")
                == "# Inbox\n\n- [ ] -x marks the spot\n- [ ] -5 degrees: check boiler\n- [ ] --help\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "-x"]), status: 2, stdout: "", stderr: "tick: unknown option '-x'\n")
    }

    @Test("-1d, -2w and -1m are dates back in time, as a DATE argument or option and in a title")
    func negativeDates() throws {
        let sandbox = try Fixtures.folder(["inbox.md": "# Inbox\n\n- [ ] Pay rent\n"])
        let run = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "--quiet"] + arguments) }
        expectRun(try run(["due", "rent", "-1d"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n\n- [ ] Pay rent due:2026-03-13\n")
        expectRun(try run(["edit", "rent", "--due", "-2w"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n\n- [ ] Pay rent due:2026-02-28\n")
        expectRun(try run(["add", "Water", "--due=-1m"]), status: 0, stdout: "", stderr: "")
        expectRun(try run(["add", "Call due:-3d"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md")
                == "# Inbox\n\n- [ ] Pay rent due:2026-02-28\n- [ ] Water due:2026-02-14\n- [ ] Call due:2026-03-11\n")
        expectRun(try run(["due", "rent", "-1x"]), status: 2, stdout: "")
    }

    @Test("an option that takes a value, given twice, is a usage error, and nothing is written")
    func repeatedOption() throws {
        let sandbox = try Fixtures.folder(["inbox.md": "# Inbox\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--due", "fri", "--due", "sat"]), status: 2, stdout: "",
                  stderr: "tick: option '--due' is given more than once; give it once\n")
        expectRun(try sandbox.run(["--dir", "tasks", "today", "--dir", "tasks"]), status: 2, stdout: "",
                  stderr: "tick: option '--dir' is given more than once; give it once\n")
        expectRun(try sandbox.run(["--dir", "tasks", "ls", "inbox", "--sort", "due", "--sort=file"]), status: 2, stdout: "",
                  stderr: "tick: option '--sort' is given more than once; give it once\n")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n")
        // A flag given twice is still just that flag.
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Y", "--flag", "--flag"]), status: 0, stdout: "")
    }

    @Test("another tool's name for a command suggests tick's", arguments: [
        ("complete", "done"), ("finish", "done"), ("delete", "rm"), ("move", "mv"), ("create", "add"),
    ])
    func synonyms(word: String, command: String) throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run([word, "x"]), status: 2, stdout: "",
                  stderr: "tick: unknown command '\(word)'; did you mean '\(command)'? (see 'tick --help')\n")
    }

    @Test("--quiet leaves out the lines that report what a command did, for every command; answers still print")
    func quiet() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Paint the fence\n"])
        let quiet = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "--quiet"] + arguments) }
        // Reports of what was done: nothing.
        for arguments in [["add", "Buy milk", "--list", "home"], ["done", "milk"], ["done", "milk"], ["reopen", "milk"],
                          ["flag", "fence"], ["flag", "fence"], ["due", "fence", "fri"], ["priority", "fence", "high"],
                          ["edit", "fence", "--note", "Green"], ["list", "new", "Work"], ["mv", "milk", "work"],
                          ["mv", "milk", "work"], ["list", "set", "work", "--symbol", "W"], ["list", "rename", "work", "Job"],
                          ["rm", "milk"], ["undo"], ["list", "rm", "job", "--force"], ["pick", "--clear"], ["check"],
                          ["init", sandbox.path("tasks")]] {
            expectRun(try quiet(arguments), status: 0, stdout: "", stderr: "")
        }
        // Answers: printed as without --quiet.
        for arguments in [["ls", "home"], ["show", "fence"], ["today"], ["all"], ["search", "fence"], ["status"]] {
            let plain = try sandbox.run(["--dir", "tasks"] + arguments)
            let result = try quiet(arguments)
            expectRun(result, status: plain.status, stdout: plain.stdout, stderr: plain.stderr)
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
        // --json wins: a program asked for the answer.
        #expect(try quiet(["--json", "flag", "fence"]).stdout.contains("\"title\":\"Paint the fence\""))
    }

    @Test("a missing task or list in the default folder names that folder; one named by --dir does not need to")
    func defaultFolderNamed() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["--quiet", "add", "Buy milk"]), status: 0, stdout: "", stderr: "")
        let folder = sandbox.path("data/tick")
        expectRun(try sandbox.run(["done", "bread"]), status: 1, stdout: "",
                  stderr: "tick: no task matches 'bread' in \(folder) (the default folder)\n")
        expectRun(try sandbox.run(["ls", "groceries"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'groceries' in \(folder) (the default folder)\n")
        expectRun(try sandbox.run(["--dir", folder, "done", "bread"]), status: 1, stdout: "",
                  stderr: "tick: no task matches 'bread'\n")
    }
}
