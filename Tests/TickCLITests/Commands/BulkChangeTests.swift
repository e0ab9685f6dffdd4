import Foundation
import Testing

/// `--where` on the write commands, several REFs for due and priority, and saved views.
@Suite("bulk changes and saved views")
struct BulkChangeTests {
    /// A folder of `lists` lists × `perList` tasks; every 7th task is tagged #errands, some have notes.
    static func bigFolder(lists: Int, perList: Int) -> [String: String] {
        var files: [String: String] = [:]
        for l in 0..<lists {
            var text = "# List \(l)\n\nSome words before the tasks.\n\n"
            for t in 0..<perList {
                text += "- [ ] Task \(l)-\(t)" + (t % 7 == 3 ? " #errands" : "") + (t % 5 == 0 ? " due:2026-03-2\(t % 10)" : "") + "\n"
                if t % 11 == 0 { text += "  A note under task \(l)-\(t).\n" }
            }
            files["list\(l).md"] = text
        }
        return files
    }

    /// The lines of every file, by file.
    static func lines(_ sandbox: Sandbox, _ files: [String]) throws -> [String: [Substring]] {
        var result: [String: [Substring]] = [:]
        for file in files { result[file] = try sandbox.read("tasks/" + file).split(separator: "\n", omittingEmptySubsequences: false) }
        return result
    }

    /// `done` on 10,000 tasks; the other commands on 1,000 (the machine's time is shared).
    @Test("--where on many tasks: only matched lines change, one journal entry, one undo restores every byte",
          arguments: [("done", 10), ("flag", 1), ("rm", 1), ("due", 1), ("priority", 1)])
    func bulk(command: String, thousands: Int) throws {
        let files = Self.bigFolder(lists: 10, perList: 100 * thousands)
        let sandbox = try Fixtures.folder(files)
        let names = files.keys.sorted()
        let before = try Self.lines(sandbox, names)
        var arguments = ["--dir", "tasks", command, "--where", "#errands", "--yes"]
        if command == "due" { arguments.append("tomorrow") }
        if command == "priority" { arguments.append("high") }
        let result = try sandbox.run(arguments + ["--quiet"])
        #expect(result.status == 0, "\(result)")
        let after = try Self.lines(sandbox, names)
        var changed = 0
        for name in names {
            let old = before[name]!, new = after[name]!
            if command == "rm" {
                // Exactly the tagged tasks' lines (and their notes) are gone; every other line is kept in order.
                var kept: [Substring] = []
                var inRemoved = false
                for line in old {
                    if line.hasPrefix("- [") { inRemoved = line.contains("#errands") } else if !line.hasPrefix("  ") { inRemoved = false }
                    if !inRemoved { kept.append(line) }
                }
                #expect(new == kept, "\(name)")
                changed += old.count - new.count
                continue
            }
            #expect(old.count == new.count, "\(name)")
            for (a, b) in zip(old, new) where a != b {
                #expect(a.contains("#errands"), "\(name): an unmatched line changed: \(a) → \(b)")
                changed += 1
            }
        }
        let tagged = 10 * (0..<(100 * thousands)).filter { $0 % 7 == 3 }.count
        let notes = 10 * (0..<(100 * thousands)).filter { $0 % 7 == 3 && $0 % 11 == 0 }.count
        #expect(changed == (command == "rm" ? tagged + notes : tagged))
        // One journal entry: one undo restores every file byte for byte, and a second has nothing of this to undo.
        let undo = try sandbox.run(["--dir", "tasks", "undo"])
        #expect(undo.status == 0, "\(undo)")
        for name in names { #expect(try sandbox.read("tasks/" + name) == files[name]!, "\(name)") }
        let again = try sandbox.run(["--dir", "tasks", "undo"])
        #expect(again.status == 1, "\(again)")
        for name in names { #expect(try sandbox.read("tasks/" + name) == files[name]!, "\(name)") }
    }

    @Test("more than 10 matches without a terminal and without --yes are refused, exit 2, nothing changed")
    func refusal() throws {
        let files = Self.bigFolder(lists: 1, perList: 100)
        let sandbox = try Fixtures.folder(files)
        for arguments in [["done", "--where", "#errands"], ["mv", "--where", "#errands", "list0"],
                          ["due", "--where", "#errands", "next", "week"], ["priority", "--where", "#errands", "low"],
                          ["rm", "--where", "#errands"], ["flag", "--where", "#errands"]] {
            let result = try sandbox.run(["--dir", "tasks"] + arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("matches 14 tasks; more than 10 change only with --yes"), "\(result)")
            #expect(try sandbox.read("tasks/list0.md") == files["list0.md"]!)
        }
        // 10 or fewer change without asking; none is exit 1; REFs and --where together are refused.
        let few = try sandbox.run(["--dir", "tasks", "done", "--where", "#errands task 0-1"])
        #expect(few.status == 0 && few.stdout.split(separator: "\n").count == 2, "\(few)")  // 0-10, 0-17
        expectRun(try sandbox.run(["--dir", "tasks", "done", "--where", "nothing-like-this"]), status: 1, stdout: "",
                  stderr: "tick: no task matches 'nothing-like-this'; nothing changed\n")
        let both = try sandbox.run(["--dir", "tasks", "done", "Task 0-1", "--where", "#errands"])
        #expect(both.status == 2 && both.stderr.contains("give REFs or --where, not both"), "\(both)")
    }

    @Test("mv --where moves every match in one change; due and priority take several REFs")
    func moveAndSeveralRefs() throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n- [ ] one #x\n- [ ] two\n- [ ] three #x\n", "b.md": "# B\n"])
        let moved = try sandbox.run(["--dir", "tasks", "mv", "--where", "#x", "b"])
        #expect(moved.status == 0, "\(moved)")
        #expect(try sandbox.read("tasks/a.md") == "# A\n- [ ] two\n")
        #expect(try sandbox.read("tasks/b.md").hasSuffix("- [ ] one #x\n- [ ] three #x\n"), "\(moved)")
        #expect(try sandbox.run(["--dir", "tasks", "undo"]).status == 0)
        #expect(try sandbox.read("tasks/a.md") == "# A\n- [ ] one #x\n- [ ] two\n- [ ] three #x\n")
        #expect(try sandbox.read("tasks/b.md") == "# B\n")
        // due: DATE is the longest run of words at the end that reads as a date.
        let due = try sandbox.run(["--dir", "tasks", "due", "one", "two", "next", "friday"])
        #expect(due.status == 0, "\(due)")
        #expect(try sandbox.read("tasks/a.md") == "# A\n- [ ] one #x due:2026-03-20\n- [ ] two due:2026-03-20\n- [ ] three #x\n")
        #expect(try sandbox.run(["--dir", "tasks", "due", "one", "two", "none"]).status == 0)
        #expect(try sandbox.read("tasks/a.md") == "# A\n- [ ] one #x\n- [ ] two\n- [ ] three #x\n")
        let priority = try sandbox.run(["--dir", "tasks", "priority", "one", "three", "high"])
        #expect(priority.status == 0, "\(priority)")
        #expect(try sandbox.read("tasks/a.md") == "# A\n- [ ] one #x !!!\n- [ ] two\n- [ ] three #x !!!\n")
        let badDate = try sandbox.run(["--dir", "tasks", "due", "one", "someday"])
        #expect(badDate.status == 2, "\(badDate)")
    }

    @Test("saved views: save, show, list, home tiles and JSON, names that shadow commands refused, rm")
    func savedViews() throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n- [ ] one #x due:2026-03-14\n- [ ] two\n- [ ] three #x\n"])
        try sandbox.makeFolder("tasks/.tick")
        let config = "# my settings\ndefault-list = A  # a comment\n"
        try sandbox.write("tasks/.tick/config", config)
        let saved = try sandbox.run(["--dir", "tasks", "view", "save", "tagged", "#x -due:today", "--sort", "-title"])
        expectRun(saved, status: 0, stdout: "Saved view tagged: #x -due:today\n", stderr: "")
        #expect(try sandbox.read("tasks/.tick/config") == config + "view.tagged = #x -due:today\nview.tagged.sort = -title\n")
        let shown = try sandbox.run(["--dir", "tasks", "view", "tagged"])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("tagged\n") && shown.stdout.contains("three"), "\(shown)")
        #expect(!shown.stdout.contains("one"))
        let listing = try sandbox.run(["--dir", "tasks", "view"])
        expectRun(listing, status: 0, stdout: "  tagged  1     #x -due:today\n", stderr: "")
        let home = try sandbox.run(["--dir", "tasks", "--json"])
        #expect(home.stdout.contains("\"views\":[{\"name\":\"tagged\",\"query\":\"#x -due:today\",\"count\":1}]"), "\(home)")
        let homeText = try sandbox.run(["--dir", "tasks"])
        #expect(homeText.stdout.contains("tagged     1"), "\(homeText)")
        for name in ["today", "find", "view", "save", "ls"] {
            let refused = try sandbox.run(["--dir", "tasks", "view", "save", name, "#x"])
            #expect(refused.status == 2 && refused.stderr.contains("names a command or a built-in view"), "\(refused)")
        }
        let badName = try sandbox.run(["--dir", "tasks", "view", "save", "Bad.Name", "#x"])
        #expect(badName.status == 2, "\(badName)")
        let badQuery = try sandbox.run(["--dir", "tasks", "view", "save", "broken", "(#x"])
        #expect(badQuery.status == 2 && badQuery.stderr.contains("bad query at column 1"), "\(badQuery)")
        // Saving again replaces the view's lines in place; rm takes them out and keeps every other byte.
        expectRun(try sandbox.run(["--dir", "tasks", "view", "save", "tagged", "#x", "--group", "list"]), status: 0,
                  stdout: "Replaced view tagged: #x\n")
        #expect(try sandbox.read("tasks/.tick/config") == config + "view.tagged = #x\nview.tagged.group = list\n")
        expectRun(try sandbox.run(["--dir", "tasks", "view", "rm", "tagged"]), status: 0, stdout: "Deleted view tagged\n")
        #expect(try sandbox.read("tasks/.tick/config") == config)
        expectRun(try sandbox.run(["--dir", "tasks", "view", "tagged"]), status: 1, stdout: "",
                  stderr: "tick: no saved view named 'tagged' (tick view save NAME QUERY saves one)\n")
    }
}
