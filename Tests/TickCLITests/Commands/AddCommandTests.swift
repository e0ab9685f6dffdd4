import Foundation
import Testing

/// `tick add` end to end: what it writes, where, what it prints and what it refuses. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("tick add")
struct AddCommandTests {

    @Test("add with inline tokens writes them normalised, in canonical order, at the end of the Inbox")
    func addInlineTokens() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["add", "Call mum due:fri !! #flag"])
        let ref = try sandbox.ref("Call mum", dir: "data/tick")
        expectRun(result, status: 0, stdout: "Added \(ref) \"Call mum\" to Inbox\n", stderr: "")
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] Call mum !! #flag due:2026-03-20\n")
    }

    @Test("the default folder is created with its .tick/ on the first write")
    func defaultFolderCreated() throws {
        let sandbox = try Sandbox()
        #expect(!sandbox.exists("data/tick"))
        expectRun(try sandbox.run(["add", "--quiet", "First"]), status: 0, stdout: "", stderr: "")
        #expect(sandbox.exists("data/tick/.tick"))
        #expect(try sandbox.read("data/tick/.tick/.gitignore") == "*\n!.gitignore\n")
        expectRun(try sandbox.run(["add", "--quiet", "Second"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] First\n- [ ] Second\n")
    }

    @Test("add takes words, options, notes and a time")
    func addOptions() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "--list", "home", "Clean", "the", "gutters",
                                   "--due", "tomorrow 9:00", "--priority", "low", "--flag",
                                   "--note", "Ladder in the shed\nGloves too"]), status: 0, stdout: "", stderr: "")
        // After the last top-level task outside sections, not in the last section (FORMAT.md, 8.1).
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home.replacingOccurrences(
            of: "- [x] Fix the light done:2026-03-01\n",
            with: "- [x] Fix the light done:2026-03-01\n- [ ] Clean the gutters ! #flag due:2026-03-15T09:00\n"
                + "  Ladder in the shed\n  Gloves too\n"))
    }

    @Test("add --section goes after the section's last task; --parent after the last subtask")
    func addSectionAndParent() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "Mow the lawn", "--list", "Home",
                                   "--section", "garden"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "Pick a colour", "--parent", "fence"]),
                  status: 0, stdout: "", stderr: "")
        let expected = Fixtures.home
            .replacingOccurrences(of: "  - [ ] Sand the boards\n", with: "  - [ ] Sand the boards\n  - [ ] Pick a colour\n")
            .replacingOccurrences(of: "- [ ] Water the plants #flag\n", with: "- [ ] Water the plants #flag\n- [ ] Mow the lawn\n")
        #expect(try sandbox.read("tasks/home.md") == expected)
        let json = try decodeTasks(try sandbox.run(["--dir", "tasks", "add", "--json", "Buy brushes", "--parent", "fence"]).stdout)
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        #expect(json.count == 1)
        #expect(json.first?["title"] as? String == "Buy brushes")
        #expect(json.first?["parent"] as? String == fence)
        #expect(json.first?["list"] as? String == "Home")
    }

    @Test("an empty or whitespace-only title is refused with status 2 and nothing is written",
          arguments: [[""], ["   "], ["\t"], ["!!", "#flag"], [" ", " "]])
    func emptyTitle(words: [String]) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["add"] + words)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("tick: a task needs a title"))
        #expect(result.stdout == "")
        #expect(!sandbox.exists("data/tick"))
    }

    @Test("add refuses an unknown list (status 1), an unknown section (1), a bad date (2) and writes nothing")
    func addRefusals() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--list", "work"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'work'; tick list new work creates it\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--list", "home", "--section", "Attic"]), status: 1,
                  stdout: "", stderr: "tick: no section 'Attic' in the list Home\n")
        let bad = try sandbox.run(["--dir", "tasks", "add", "X due:someday"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tick: not a date: 'someday'"))
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X due:fri", "--due", "sat"]), status: 2, stdout: "",
                  stderr: "tick: the due date is given twice: in the title and with --due\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--section", "Garden", "--parent", "fence"]), status: 2)
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--priority", "urgent"]), status: 2)
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
    }

    @Test("words in inline code are title text, not metadata")
    func addCodeSpan() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["add", "--quiet", "Explain `due:fri !!` to Sam !"]), status: 0)
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] Explain `due:fri !!` to Sam !\n")
    }
}
