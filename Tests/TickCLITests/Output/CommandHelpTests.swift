import Foundation
import Testing

/// Help for the write commands, rendered from the command table. After an intended change,
/// regenerate a snapshot with `tick help COMMAND > Fixtures/help/COMMAND.txt` (for the list
/// commands, `tick help list new > Fixtures/help-list/new.txt`) and review the diff.
@Suite("command help")
struct CommandHelpTests {
    @Test("help COMMAND and COMMAND --help print the same snapshot", arguments: [
        "add", "done", "reopen", "flag", "unflag", "due", "priority", "edit", "mv", "rm", "list", "undo",
    ])
    func commandHelp(command: String) throws {
        let sandbox = try Sandbox()
        let snapshot = try Fixtures.text("help/\(command).txt")
        expectRun(try sandbox.run(["help", command]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run([command, "--help"]), status: 0, stdout: snapshot, stderr: "")
    }

    @Test("help list SUBCOMMAND and list SUBCOMMAND --help print the same snapshot", arguments: ["new", "rename", "set", "rm"])
    func listHelp(command: String) throws {
        let sandbox = try Sandbox()
        let snapshot = try Fixtures.text("help-list/\(command).txt")
        #expect(snapshot.hasPrefix("tick list \(command): "))
        expectRun(try sandbox.run(["help", "list", command]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run(["list", command, "--help"]), status: 0, stdout: snapshot, stderr: "")
        for line in snapshot.split(separator: "\n") { #expect(line.count <= 80, "\(command): '\(line)'") }
    }

    @Test("a write command with missing arguments or an unknown subcommand is a usage error")
    func usage() throws {
        let sandbox = try Sandbox()
        for (arguments, message) in [
            (["add"], "tick: missing TITLE (usage: tick add TITLE... [OPTIONS])\n"),
            (["done"], "tick: missing REF (usage: tick done [REF...] [OPTIONS])\n"),
            (["due"], "tick: missing DATE (usage: tick due [REF...] DATE... [OPTIONS])\n"),
            (["mv"], "tick: missing LIST (usage: tick mv [REF...] LIST [OPTIONS])\n"),
            (["list"], "tick: 'tick list' needs a command: new, rename, set or rm\n"),
            (["list", "delete", "x"], "tick: unknown command 'delete'; did you mean 'rm'? (see 'tick list --help')\n"),
            (["edit", "x", "--priority", "urgent"],
             "tick: invalid value 'urgent' for '--priority' (expected low, medium, high or none)\n"),
        ] {
            expectRun(try sandbox.run(arguments), status: 2, stdout: "", stderr: message)
        }
        // With one word given, the argument missing is the one after it.
        for (arguments, missing) in [(["due", "x"], "DATE"), (["mv", "x"], "LIST"), (["priority", "x"], "LEVEL"),
                                     (["list", "rename", "x"], "NEW")] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("tick: missing \(missing) "), "\(result)")
        }
        #expect(!sandbox.exists("data/tick"))
    }
}
