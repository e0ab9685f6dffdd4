import Foundation
import Testing

@Suite("tick check")
struct CheckCommandTests {
    static let problemsText = """
        home.md:3:24: malformed due date 'due:2026-02-30': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM
        home.md:4:30: second priority ignored; the first one counts
        sub/garden.md:3:23: malformed due date 'due:soon': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM

        """

    @Test("a clean folder exits 0 and says so")
    func clean() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("clean")
        expectRun(try sandbox.run(["--dir", "clean", "check"]), status: 0,
                  stdout: "Checked 2 lists: no problems\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "clean", "check", "--quiet"]), status: 0, stdout: "", stderr: "")
    }

    @Test("problems are printed as file:line:column: message and exit 1")
    func problems() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("problems")
        expectRun(try sandbox.run(["--dir", "problems", "check"]), status: 1,
                  stdout: Self.problemsText + "Checked 3 lists: 3 problems in 2 files\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "problems", "check", "--quiet"]), status: 1,
                  stdout: Self.problemsText, stderr: "")
    }

    @Test("--json prints an array of {file, line, column, message}")
    func json() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("problems")
        try sandbox.copyFolder("clean")
        let expected = """
            [
            {"file":"home.md","line":3,"column":24,"message":"malformed due date 'due:2026-02-30': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM"},
            {"file":"home.md","line":4,"column":30,"message":"second priority ignored; the first one counts"},
            {"file":"sub/garden.md","line":3,"column":23,"message":"malformed due date 'due:soon': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM"}
            ]

            """
        expectRun(try sandbox.run(["--dir", "problems", "check", "--json"]), status: 1, stdout: expected, stderr: "")
        expectRun(try sandbox.run(["--dir", "clean", "check", "--json"]), status: 0, stdout: "[]\n", stderr: "")
    }

    @Test("global options may stand before or after the command, as --opt value or --opt=value")
    func globalOptionsAnywhere() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("problems")
        let reference = try sandbox.run(["--json", "--dir", "problems", "check"])
        #expect(reference.status == 1)
        for arguments in [["check", "--dir", "problems", "--json"], ["check", "--json", "--dir=problems"],
                          ["--dir=problems", "check", "--json"], ["--json", "check", "--dir", "problems"]] {
            expectRun(try sandbox.run(arguments), status: 1, stdout: reference.stdout, stderr: "")
        }
    }

    @Test("FILE arguments are found from the working folder or from the task folder")
    func files() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("problems")
        expectRun(try sandbox.run(["--dir", "problems", "check", "--quiet", "work.md"]), status: 0, stdout: "")
        expectRun(try sandbox.run(["check", "--quiet", "garden.md"], in: "problems/sub",
                                  environment: ["TICK_DIR": sandbox.path("problems")]), status: 1,
                  stdout: "sub/garden.md:3:23: malformed due date 'due:soon': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM\n")
        // A file outside the task folder keeps the path as given.
        try sandbox.write("elsewhere/list.md", "- [ ] Two priorities !! !!!\n")
        expectRun(try sandbox.run(["--dir", "problems", "check", "--quiet", "elsewhere/list.md"]), status: 1,
                  stdout: "elsewhere/list.md:1:25: second priority ignored; the first one counts\n")
    }

    @Test("a FILE that does not exist is bad input naming it")
    func missingFile() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("clean")
        expectRun(try sandbox.run(["--dir", "clean", "check", "nowhere.md"]), status: 2, stdout: "",
                  stderr: "tick: no such list file: 'nowhere.md'\n")
        expectRun(try sandbox.run(["--dir", "clean", "check", "work"]), status: 2, stdout: "",
                  stderr: "tick: 'work' is a folder, not a list file\n")
    }

    @Test("-- ends the options: a file named like an option")
    func doubleDash() throws {
        let sandbox = try Sandbox()
        try sandbox.write("odd/--json.md", "- [ ] Due soon due:soon\n")
        expectRun(try sandbox.run(["--dir", "odd", "check", "--quiet", "--", "--json.md"]), status: 1,
                  stdout: "--json.md:1:16: malformed due date 'due:soon': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM\n",
                  stderr: "")
    }

    @Test("symbolic links that dangle or loop are problems; a linked list file is checked")
    func symlinks() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.copyFolder("clean")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: sandbox.path("clean/gone.md"), withDestinationPath: "missing.md")
        try fm.createSymbolicLink(atPath: sandbox.path("clean/self.md"), withDestinationPath: "self.md")
        try fm.createSymbolicLink(atPath: sandbox.path("clean/work/up"), withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: sandbox.path("clean/linked.md"), withDestinationPath: "groceries.md")
        expectRun(try sandbox.run(["--dir", "clean", "check"]), status: 1, stdout: """
            gone.md: dangling symbolic link
            self.md: symbolic link loop
            work/up: symbolic link loop
            Checked 3 lists: 3 problems in 3 files

            """, stderr: "")
    }

    @Test("an unreadable list is an I/O error (exit 3) and the others are still checked",
          .enabled(if: getuid() != 0, "root reads every file"))
    func unreadable() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.copyFolder("problems")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: sandbox.path("problems/work.md"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.path("problems/work.md")) }
        let result = try sandbox.run(["--dir", "problems", "check", "--quiet"])
        expectRun(result, status: 3, stdout: Self.problemsText,
                  stderr: "tick: cannot read 'work.md': permission denied\n")
    }

    @Test("check never changes a list file")
    func readOnly() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("problems")
        let before = try sandbox.fileContents(of: folder)
        _ = try sandbox.run(["--dir", "problems", "check"])
        _ = try sandbox.run(["--dir", "problems", "check", "--json", "home.md"])
        #expect(try sandbox.fileContents(of: folder) == before)
    }
}

