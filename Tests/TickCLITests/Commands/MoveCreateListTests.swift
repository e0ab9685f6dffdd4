import Foundation
import Testing

/// `tick mv REF LIST --create` (issue 49, item 15): moving into a list that does not exist yet makes
/// it in the same change, one journal entry that one `tick undo` reverts whole.
@Suite("mv --create")
struct MoveCreateListTests {
    static let home = """
        # Home

        - [ ] Rake the leaves
          Before the rain.
          - [ ] Buy a rake
        - [ ] Water plants due:2026-03-14
        - [ ] Mow the lawn

        """

    func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["home.md": Self.home])
        try sandbox.makeFolder("tasks/.tick")
        return sandbox
    }

    func tick(_ sandbox: Sandbox, _ arguments: [String]) throws -> TickResult {
        try sandbox.run(["--dir", "tasks"] + arguments)
    }

    /// Every file of the task folder with its bytes, but the cache (which any read may write) and
    /// the lock and `.gitignore` that opening `.tick/` for a write sets up.
    func files(_ sandbox: Sandbox) throws -> [String: Data] {
        let root = sandbox.path("tasks")
        var found: [String: Data] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        for case let path as String in walker 
            where !path.hasPrefix(".tick/cache") && path != ".tick/lock" && path != ".tick/.gitignore" {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
            if !isFolder.boolValue { found[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)) }
        }
        return found
    }

    /// The changes in the journal (one folder each).
    func journalEntries(_ sandbox: Sandbox) throws -> Int {
        let path = sandbox.path("tasks/.tick/journal")
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.count
    }

    @Test("mv --create makes the list and moves the task with its notes and subtasks; one undo removes the list and restores the source byte for byte")
    func createsAndUndoes() throws {
        let sandbox = try sandbox()
        let entries = try journalEntries(sandbox)
        let moved = try tick(sandbox, ["mv", "Rake the leaves", "Garden Jobs", "--create"])
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.stdout.hasPrefix("Created the list Garden Jobs (garden-jobs.md)\nMoved "), "\(moved)")
        #expect(moved.stdout.contains("\"Rake the leaves\" from Home to Garden Jobs"), "\(moved)")
        #expect(try sandbox.read("tasks/garden-jobs.md")
                == "# Garden Jobs\n\n- [ ] Rake the leaves\n  Before the rain.\n  - [ ] Buy a rake\n")
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Water plants due:2026-03-14\n- [ ] Mow the lawn\n")
        // One change: one journal entry, and one undo reverts both files.
        #expect(try journalEntries(sandbox) == entries + 1)
        let undo = try tick(sandbox, ["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(!sandbox.exists("tasks/garden-jobs.md"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("tasks/home.md"))) == Data(Self.home.utf8))
        #expect(try tick(sandbox, ["undo"]).status == 1)
    }

    @Test("bulk mv --where --create moves every match into the new list in one change")
    func bulkWhere() throws {
        let sandbox = try sandbox()
        let moved = try tick(sandbox, ["--json", "mv", "--where", "water OR mow", "Yard", "--create"])
        #expect(moved.status == 0, "\(moved)")
        let objects = try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(objects.map { $0["list"] as? String } == ["Yard", "Yard"])
        #expect(objects.map { $0["changed"] as? Bool } == [true, true])
        #expect(try sandbox.read("tasks/yard.md") == "# Yard\n\n- [ ] Water plants due:2026-03-14\n- [ ] Mow the lawn\n")
        #expect(try tick(sandbox, ["undo"]).status == 0)
        #expect(!sandbox.exists("tasks/yard.md"))
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("--create with a list that exists moves into it and creates nothing; without --create a missing list names tick list new")
    func existingAndMissing() throws {
        let sandbox = try sandbox()
        let same = try tick(sandbox, ["mv", "Mow the lawn", "home", "--create"])
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.contains("No change to"), "\(same)")
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
        expectRun(try tick(sandbox, ["mv", "Mow the lawn", "Garden"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'Garden'; tick list new Garden creates it\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("--dry-run says what it would create and move, and writes nothing")
    func dryRun() throws {
        let sandbox = try sandbox()
        let before = try files(sandbox)
        let preview = try tick(sandbox, ["mv", "Rake the leaves", "Mow the lawn", "Garden", "--create", "--dry-run"])
        #expect(preview.status == 0, "\(preview)")
        #expect(preview.stdout.hasPrefix("Would create the list Garden (garden.md)\nWould move "), "\(preview)")
        #expect(preview.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("Would move ") }.count == 2)
        #expect(try files(sandbox) == before)
        let json = try tick(sandbox, ["--json", "mv", "--where", "mow", "Garden", "--create", "--dry-run"])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.contains("\"list\":\"Home\""), "\(json)")
        #expect(try files(sandbox) == before)
        #expect(try tick(sandbox, ["undo"]).status == 1)
    }

    @Test("a bad list name is refused naming it, with nothing written, with and without --dry-run")
    func badName() throws {
        let sandbox = try sandbox()
        let before = try files(sandbox)
        for extra in [[], ["--dry-run"]] {
            let refused = try tick(sandbox, ["mv", "Mow the lawn", "../up", "--create"] + extra)
            #expect(refused.status == 2, "\(extra): \(refused)")
            #expect(refused.stderr.hasPrefix("tick: cannot name a list '../up':"), "\(extra): \(refused)")
            #expect(refused.stdout == "")
            #expect(try files(sandbox) == before)
        }
        // A name list new refuses (a leading dot) is refused by mv --create too.
        let upper = try tick(sandbox, ["mv", "Mow the lawn", ".hidden", "--create"])
        #expect(upper.status == 2, "\(upper)")
        #expect(upper.stderr.contains("'.hidden'"), "\(upper)")
    }

    @Test("an empty list name is refused, never taken as a prefix of the only list", arguments: ["", "  "])
    func emptyName(name: String) throws {
        let sandbox = try sandbox()
        let before = try files(sandbox)
        for arguments in [["mv", "Mow the lawn", name, "--create"], ["mv", "Mow the lawn", name], ["add", "New", "--list", name]] {
            let refused = try tick(sandbox, arguments)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            // One line that says why: the name is empty (`mv --create` refuses it as a new list's name).
            #expect(refused.stderr.hasPrefix("tick: ") && refused.stderr.contains("empty")
                    && refused.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(refused)")
        }
        #expect(try files(sandbox) == before)
    }
}
