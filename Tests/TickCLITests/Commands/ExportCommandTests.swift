import Foundation
import Testing

/// `tick export FORMAT`, the shape every format shares: standard output or `-o FILE` replaced
/// atomically, `--list`, and the refusals that keep an export from becoming a list.
@Suite("tick export, end to end")
struct ExportCommandTests {
    static func sandbox() throws -> Sandbox {
        try Fixtures.diskFolder(["inbox.md": "# Inbox\n\n- [ ] Buy milk !! due:2026-12-02\n- [x] Call Ann done:2026-11-30\n",
                             "work.md": "# Work\n\n- [ ] Report #flag\n"])
    }

    @Test("export json writes every task, open and done, in folder order, and changes no list")
    func json() throws {
        let sandbox = try Self.sandbox()
        let before = try sandbox.read("tasks/inbox.md")
        let result = try sandbox.run(["--dir", "tasks", "export", "json"])
        #expect(result.status == 0, "\(result)")
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["Buy milk", "Call Ann", "Report"])
        #expect(tasks.map { $0["done"] as? Bool } == [false, true, false])
        #expect(try sandbox.read("tasks/inbox.md") == before)
    }

    @Test("--list keeps one list's tasks")
    func listOption() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks", "export", "json", "--list", "work"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["Report"])
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "--list", "nope"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'nope'\n")
    }

    @Test("-o writes a new file readable by its owner alone, and a replaced file keeps its permissions")
    func outputFile() throws {
        let sandbox = try Self.sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "out.json"]), status: 0, stdout: "", stderr: "")
        let printed = try sandbox.run(["--dir", "tasks", "export", "json"]).stdout
        #expect(try sandbox.read("out.json") == printed)
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("out.json"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.path("out.json"))
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "--list", "work", "-o", "out.json"]), status: 0)
        #expect(try sandbox.read("out.json").contains("Report"))
        #expect(!(try sandbox.read("out.json").contains("Buy milk")))
        let replaced = try FileManager.default.attributesOfItem(atPath: sandbox.path("out.json"))
        #expect((replaced[.posixPermissions] as? Int) == 0o644)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(""))
        #expect(!names.contains { $0.hasSuffix(".tick-export") }, "\(names)")
    }

    @Test("-o refuses a .md file inside the task folder, a folder, and a missing folder, writing nothing")
    func refusals() throws {
        let sandbox = try Self.sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "tasks/copy.md"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'tasks/copy.md' for -o: a .md file inside the task folder is a list; "
                      + "write the export elsewhere\n")
        #expect(!sandbox.exists("tasks/copy.md"))
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "tasks"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'tasks' for -o: it is a folder\n")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "missing/out.json"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'missing/out.json' for -o: its folder does not exist\n")
    }

    @Test("export without a format names the formats")
    func noFormat() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks", "export"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("tick: 'tick export' needs a command: json"), "\(result.stderr)")
    }
}
