import Foundation
import Testing

/// Imports that do not duplicate (README "Importing"): importing the same file twice gives the folder of
/// importing it once, byte for byte; with `--keep-ids` an edited Taskwarrior record updates its task;
/// `--duplicates` adds every record.
@Suite("imports do not duplicate")
struct ImportDedupTests {
    static func fixture(_ name: String) -> String { Fixtures.root.appendingPathComponent("interchange/" + name).path }

    /// Every list file of the folder `tasks`, by name, with its text.
    static func lists(_ sandbox: Sandbox) throws -> [String: String] {
        var texts: [String: String] = [:]
        for name in try sandbox.listFiles("tasks") where name.hasSuffix(".md") { texts[name] = try sandbox.read("tasks/" + name) }
        return texts
    }

    @Test("the same Taskwarrior export (with --keep-ids and without) or todo.txt file imported twice leaves the folder as once",
          arguments: [["taskwarrior", "taskwarrior.json", "--keep-ids"], ["taskwarrior", "taskwarrior.json"], ["todotxt", "todo.txt"]])
    func twice(_ how: [String]) throws {
        let sandbox = try Fixtures.diskFolder([:])
        let command = ["--dir", "tasks", "import", how[0], Self.fixture(how[1])] + how.dropFirst(2)
        expectRun(try sandbox.run(command), status: 0)
        let once = try Self.lists(sandbox)
        #expect(once.count >= 3)
        let again = try sandbox.run(command)
        #expect(again.status == 0)
        #expect(again.stdout.contains("  0 added, 0 updated, 8 unchanged\n"), "\(again.stdout)")
        #expect(try Self.lists(sandbox) == once)
        // --duplicates adds them all again.
        expectRun(try sandbox.run(command + ["--duplicates", "--quiet"]), status: 0)
        let doubled = try Self.lists(sandbox)
        #expect(doubled.keys.sorted() == once.keys.sorted())
        for (name, text) in once { #expect(doubled[name]!.count > text.count, "\(name)") }
    }

    @Test("with --keep-ids, a re-import after editing two records updates exactly those two tasks, as one change")
    func updates() throws {
        let sandbox = try Fixtures.folder([:])
        let export = try String(contentsOfFile: Self.fixture("taskwarrior.json"), encoding: .utf8)
        try sandbox.write("tw.json", export)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "taskwarrior", sandbox.path("tw.json"), "--keep-ids"]), status: 0)
        let once = try Self.lists(sandbox)
        let edited = export.replacingOccurrences(of: "\"description\":\"Call mum\"", with: "\"description\":\"Call mum back\"")
            .replacingOccurrences(of: "\"description\":\"Fix the gate\",\"entry\":\"20260301T120000Z\",\"project\":\"Home\",\"status\":\"pending\"",
                                  with: "\"description\":\"Fix the gate\",\"entry\":\"20260301T120000Z\",\"project\":\"Home\",\"status\":\"completed\",\"end\":\"20260313T090000Z\"")
        try #require(edited != export && edited.contains("Call mum back") && edited.contains("\"end\":\"20260313T090000Z\""))
        try sandbox.write("tw.json", edited)
        let result = try sandbox.run(["--dir", "tasks", "import", "taskwarrior", sandbox.path("tw.json"), "--keep-ids"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  0 added, 2 updated, 6 unchanged\n"), "\(result.stdout)")
        let now = try Self.lists(sandbox)
        var changed: [String] = []
        for (name, text) in once {
            let before = text.split(separator: "\n", omittingEmptySubsequences: false)
            let after = now[name]!.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(before.count == after.count, "\(name)")
            for (a, b) in zip(before, after) where a != b { changed.append(String(b)) }
        }
        #expect(changed.count == 2, "\(changed)")
        #expect(changed.contains { $0.hasPrefix("- [ ] Call mum back ") }, "\(changed)")
        #expect(changed.contains { $0.hasPrefix("- [x] Fix the gate") && $0.hasSuffix("done:2026-03-13") }, "\(changed)")
        // One change: one undo takes it back.
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "undo"]), status: 0)
        #expect(try Self.lists(sandbox) == once)
    }

    @Test("a todo.txt line whose id: a task has updates that task on a re-import, never adds a second one")
    func todoTxtByID() throws {
        let sandbox = try Fixtures.folder([:])
        try sandbox.write("todo.txt", "(A) Call mum id:mum1 +Home\nBuy milk +Groceries\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "todotxt", sandbox.path("todo.txt")]), status: 0)
        let once = try Self.lists(sandbox)
        #expect(once["home.md"]?.contains("Call mum") == true, "\(once)")
        try sandbox.write("todo.txt", "(A) Call mum back id:mum1 +Home\nBuy milk +Groceries\n")
        let result = try sandbox.run(["--dir", "tasks", "import", "todotxt", sandbox.path("todo.txt")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  0 added, 1 updated, 1 unchanged\n"), "\(result.stdout)")
        let now = try Self.lists(sandbox)
        #expect(now["groceries.md"] == once["groceries.md"])
        let home = try #require(now["home.md"])
        #expect(home.components(separatedBy: "id:mum1").count == 2, "\(home)")
        #expect(home.contains("Call mum back"), "\(home)")
    }
}
