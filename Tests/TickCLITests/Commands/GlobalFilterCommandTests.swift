import Foundation
import Testing

/// `obsidian.global-filter` end to end (README "Using tick on an Obsidian vault", FORMAT.md 11): every
/// reader sees the same tasks, refs name only them, changes write only them, the cache follows the
/// key at once, and new tasks carry the tag. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("Obsidian vault: the global filter")
struct GlobalFilterCommandTests {
    static let daily = """
        # Daily
        - [ ] #task Pay rent ⏫ 📅 2026-03-14
        - [ ] Buy milk 📅 2026-03-14
        - [ ] Plan the trip #task 📅 2026-03-20
          - [ ] Book the train 📅 2026-03-13
            - [ ] Pay the deposit #task 📅 2026-03-13
        - [ ] Call mum  [due:: 2026-03-14] #task

        """

    static let filtered: Set<String> = ["#task Pay rent", "Plan the trip #task", "Pay the deposit #task", "Call mum #task"]
    static let all: Set<String> = filtered.union(["Buy milk", "Book the train"])

    /// A vault whose list is older than the cache's racy window, so that an unchanged cache serves it.
    static func vault(filter: String?) throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["daily.md": daily])
        try sandbox.makeFolder("tasks/.tick")
        if let filter { try sandbox.write("tasks/.tick/config", "obsidian.global-filter = \(filter)\n") }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
                                              ofItemAtPath: sandbox.path("tasks/daily.md"))
        return sandbox
    }

    static func titles(_ result: TickResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
                                 "\(result)", sourceLocation: sourceLocation)
        return tasks.compactMap { $0["title"] as? String }
    }

    @Test("views, search, find, pick, status, export and remind all see the same tasks: those holding the filter",
          arguments: [true, false])
    func everyReaderAgrees(filterOn: Bool) throws {
        let sandbox = try Self.vault(filter: filterOn ? "#task" : nil)
        let expected = filterOn ? Self.filtered : Self.all
        func run(_ arguments: [String]) throws -> TickResult { try sandbox.run(["--dir", "tasks"] + arguments) }

        #expect(Set(try Self.titles(try run(["--json", "export", "json"]))) == expected)
        #expect(Set(try Self.titles(try run(["--json", "ls", "Daily"]))) == expected)
        #expect(Set(try Self.titles(try run(["--json", "find", "due:<=2026-03-20"]))) == expected)
        let today = Set(try Self.titles(try run(["--json", "today"])))
        #expect(today == expected.subtracting(["Plan the trip #task"]))
        expectRun(try run(["search", "milk"]), status: filterOn ? 1 : 0)
        expectRun(try run(["--json", "status"]), status: 0,
                  stdout: filterOn ? "{\"overdue\":1,\"today\":2,\"flagged\":0,\"open\":4}\n"
                                   : "{\"overdue\":2,\"today\":3,\"flagged\":0,\"open\":6}\n")
        let picked = try run(["pick", "--json", "--seed", "1"])
        let pick = try #require(try JSONSerialization.jsonObject(with: Data(picked.stdout.utf8)) as? [String: Any], "\(picked)")
        #expect(expected.contains(try #require(pick["title"] as? String)), "\(picked)")
        let reminded = try run(["remind"])
        #expect(reminded.stdout.contains("Pay rent"), "\(reminded)")
        #expect(reminded.stdout.contains("Buy milk") == !filterOn, "\(reminded)")
        #expect(reminded.stdout.contains("Book the train") == !filterOn, "\(reminded)")
        let todo = try run(["export", "todotxt"])
        #expect(todo.stdout.contains("Buy milk") == !filterOn, "\(todo)")
        expectRun(try run(["check"]), status: 0, stdout: "Checked 1 list: no problems\n")
    }

    @Test("a line without the filter is named by no ref or title, and no change touches it")
    func refsNameOnlyTasks() throws {
        let sandbox = try Self.vault(filter: "#task")
        let before = try sandbox.read("tasks/daily.md")
        let result = try sandbox.run(["--dir", "tasks", "done", "Buy milk"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "tick: no task matches 'Buy milk'\n")
        expectRun(try sandbox.run(["--dir", "tasks", "done", "Book the train"]), status: 1)
        #expect(try sandbox.read("tasks/daily.md") == before)
        // Without the filter the same line is a task, with a ref of its own.
        let unfiltered = try Self.vault(filter: nil)
        expectRun(try unfiltered.run(["--dir", "tasks", "done", "Buy milk"]), status: 0)
    }

    @Test("done and due on a task with the filter change only its line, in its style; the rest stays byte for byte")
    func editsTouchOnlyTheirLine() throws {
        let sandbox = try Self.vault(filter: "#task")
        expectRun(try sandbox.run(["--dir", "tasks", "done", "Pay rent"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "due", "Call mum", "2026-03-16"]), status: 0)
        // Completing the parent completes its open subtask with it, not the box without the filter.
        expectRun(try sandbox.run(["--dir", "tasks", "done", "Plan the trip"]), status: 0)
        #expect(try sandbox.read("tasks/daily.md") == """
            # Daily
            - [x] #task Pay rent ⏫ 📅 2026-03-14 ✅ 2026-03-14
            - [ ] Buy milk 📅 2026-03-14
            - [x] Plan the trip #task 📅 2026-03-20 ✅ 2026-03-14
              - [ ] Book the train 📅 2026-03-13
                - [x] Pay the deposit #task 📅 2026-03-13 ✅ 2026-03-14
            - [ ] Call mum  [due:: 2026-03-16] #task

            """)
    }

    @Test("add, import and edit --title write the filter first when the title lacks it, so that Obsidian sees the task too")
    func newTasksCarryTheTag() throws {
        let sandbox = try Self.vault(filter: "#task")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--list", "Daily", "Water the plants !! due:2026-03-16"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--list", "Daily", "Read #task/book"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Empty the bins"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "Call mum", "--title", "Call dad"]), status: 0)
        #expect(try sandbox.read("tasks/daily.md") == """
            # Daily
            - [ ] #task Pay rent ⏫ 📅 2026-03-14
            - [ ] Buy milk 📅 2026-03-14
            - [ ] Plan the trip #task 📅 2026-03-20
              - [ ] Book the train 📅 2026-03-13
                - [ ] Pay the deposit #task 📅 2026-03-13
            - [ ] #task Call dad [due:: 2026-03-14]
            - [ ] #task Water the plants 🔼 📅 2026-03-16
            - [ ] Read #task/book

            """)
        #expect(try sandbox.read("tasks/inbox.md").hasSuffix("- [ ] #task Empty the bins\n"))
        let todo = sandbox.path("in.txt")
        try "(A) Renew passport due:2026-03-20\n".write(toFile: todo, atomically: true, encoding: .utf8)
        expectRun(try sandbox.run(["--dir", "tasks", "import", "todotxt", todo]), status: 0)
        let all = Set(try Self.titles(try sandbox.run(["--dir", "tasks", "--json", "export", "json"])))
        #expect(all.contains("#task Renew passport"), "\(all)")
    }

    @Test("a change of the key shows in the next command, though the cache still holds the list unchanged")
    func cacheFollowsTheKey() throws {
        let sandbox = try Self.vault(filter: nil)
        func listed() throws -> Set<String> { Set(try Self.titles(try sandbox.run(["--dir", "tasks", "--json", "ls", "Daily"]))) }
        #expect(try listed() == Self.all)
        #expect(try listed() == Self.all)
        expectRun(try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter", "#task"]), status: 0)
        #expect(try listed() == Self.filtered)
        expectRun(try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter", "#todo"]), status: 0)
        #expect(try listed() == [])
        expectRun(try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter", ""]), status: 0)
        #expect(try listed() == Self.all)
        #expect(try sandbox.read("tasks/.tick/config") == "obsidian.global-filter = \n")
    }

    @Test("check reads each list with the filter: a line without it is no task, with no problem to report")
    func check() throws {
        let sandbox = try Fixtures.folder(["a.md": "- [ ] Party due:2026-02-30\n- [ ] Real #task id:x\n",
                                           "b.md": "- [ ] Other #task id:x\n- [ ] Plain id:x\n"])
        try sandbox.makeFolder("tasks/.tick")
        let unfiltered = try sandbox.run(["--dir", "tasks", "check"])
        #expect(unfiltered.status == 1, "\(unfiltered)")
        #expect(unfiltered.stdout.contains("a.md:1:13: malformed due date 'due:2026-02-30'"), "\(unfiltered)")
        #expect(unfiltered.stdout.contains("b.md:2:"), "\(unfiltered)")
        #expect(unfiltered.stdout.hasSuffix("Checked 2 lists: 3 problems in 2 files\n"), "\(unfiltered)")
        try sandbox.write("tasks/.tick/config", "obsidian.global-filter = #task\n")
        let filtered = try sandbox.run(["--dir", "tasks", "check"])
        #expect(filtered.status == 1, "\(filtered)")
        #expect(!filtered.stdout.contains("a.md:1:") && !filtered.stdout.contains("b.md:2:"), "\(filtered)")
        #expect(filtered.stdout.contains("b.md:1:"), "\(filtered)")
        #expect(filtered.stdout.hasSuffix("Checked 2 lists: 1 problem in 1 file\n"), "\(filtered)")
    }

    @Test("config shows and refuses the key like the others: a bad value names the file, the line and the key")
    func configuration() throws {
        let sandbox = try Self.vault(filter: nil)
        try sandbox.write("tasks/.tick/config", "obsidian.global-filter = task\n")
        let result = try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter"])
        #expect(result.stdout == "obsidian.global-filter =   # tick's default\n", "\(result)")
        #expect(result.stderr == "tick: warning: \(sandbox.path("tasks/.tick/config")):1: bad value 'task' for obsidian.global-filter "
                + "(expected a tag: '#' and letters, digits, '_', '-' or '/'); ignored\n")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter", "#flag"]), status: 2,
                  stderr: "tick: warning: \(sandbox.path("tasks/.tick/config")):1: bad value 'task' for obsidian.global-filter "
                      + "(expected a tag: '#' and letters, digits, '_', '-' or '/'); ignored\n"
                      + "tick: bad value '#flag' for obsidian.global-filter (expected a tag other than #flag, which flags a task)\n")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "obsidian.global-filter", "#task"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "config", "obsidian.global-filter"]), status: 0,
                  stdout: "{\"key\":\"obsidian.global-filter\",\"value\":\"#task\",\"origin\":\"\(sandbox.path("tasks/.tick/config")):1\"}\n",
                  stderr: "")
    }
}
