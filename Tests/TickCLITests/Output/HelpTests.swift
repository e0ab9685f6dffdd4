import Foundation
import Testing

/// Help output is rendered from the command table; these snapshots under `Fixtures/help` show it.
/// After an intended change, regenerate them with `tick help COMMAND > Fixtures/help/COMMAND.txt`
/// and review the diff.
@Suite("help")
struct HelpTests {
    @Test("tick --help, -h and help print the overview", arguments: [["--help"], ["-h"], ["help"]])
    func overview(arguments: [String]) throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(arguments), status: 0, stdout: try Fixtures.text("help/tick.txt"), stderr: "")
    }

    @Test("help COMMAND and COMMAND --help print the same snapshot", arguments: [
        "today", "tomorrow", "upcoming", "scheduled", "flagged", "all", "completed", "lists", "ls", "show", "search",
        "pick", "status", "export", "vdir",
        "check", "lsp", "init", "help", "config", "import", "completions",
    ])
    func commandHelp(command: String) throws {
        let sandbox = try Sandbox()
        let snapshot = try Fixtures.text("help/\(command).txt")
        expectRun(try sandbox.run(["help", command]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run([command, "--help"]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run(["--help", command]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run([command, "-h"]), status: 0, stdout: snapshot, stderr: "")
    }

    @Test("the overview lists every command that has a help snapshot")
    func overviewListsCommands() throws {
        let overview = try Fixtures.text("help/tick.txt")
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("help").path)
            .filter { $0 != "tick.txt" }
            .map { String($0.dropLast(4)) }
        #expect(!snapshots.isEmpty)
        for command in snapshots {
            #expect(overview.contains("\n  \(command) "), "the overview does not list '\(command)'")
        }
    }

    @Test("--help wins over a bad option or a missing value")
    func helpWinsOverErrors() throws {
        let sandbox = try Sandbox()
        let snapshot = try Fixtures.text("help/check.txt")
        expectRun(try sandbox.run(["check", "--bogus", "--help"]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run(["check", "--help", "--dir"]), status: 0, stdout: snapshot, stderr: "")
    }

    @Test("help for an unknown command is an error with a suggestion")
    func helpUnknown() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["help", "chekc"]), status: 2, stdout: "",
                  stderr: "tick: unknown command 'chekc'; did you mean 'check'? (see 'tick --help')\n")
    }

    @Test("help lines fit in 80 columns")
    func helpWidth() throws {
        let root = Fixtures.root.appendingPathComponent("help")
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let text = try Fixtures.text("help/\(name)")
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(name): '\(line)'")
            }
        }
    }

    @Test("--version prints the version, before or after a command")
    func version() throws {
        let sandbox = try Sandbox()
        for arguments in [["--version"], ["check", "--version"], ["--version", "check"]] {
            expectRun(try sandbox.run(arguments), status: 0, stdout: "tick 0.1.0\n", stderr: "")
        }
    }
}
