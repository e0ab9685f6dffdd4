import Foundation
import Testing

/// `tick list new`, `rename`, `set` and `rm` end to end. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("tick list")
struct ListCommandTests {

    @Test("list new names the file from the name and writes a heading, with front matter only when asked")
    func listNew() throws {
        let sandbox = try Fixtures.folder([:])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "new", "Work Stuff"]), status: 0,
                  stdout: "Created the list Work Stuff (work-stuff.md)\n", stderr: "")
        #expect(try sandbox.read("tasks/work-stuff.md") == "# Work Stuff\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "list", "new", "Groceries", "--symbol", "🛒", "--color", "#2a9d8f"]),
                  status: 0, stdout: "{\"name\":\"Groceries\",\"file\":\"groceries.md\",\"symbol\":\"🛒\",\"color\":\"#2a9d8f\",\"open\":0,\"done\":0}\n")
        #expect(try sandbox.read("tasks/groceries.md") == "---\nsymbol: 🛒\ncolor: \"#2a9d8f\"\n---\n# Groceries\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "Milk", "--list", "groc"]), status: 0)
        #expect(try sandbox.read("tasks/groceries.md") == "---\nsymbol: 🛒\ncolor: \"#2a9d8f\"\n---\n# Groceries\n\n- [ ] Milk\n")
    }

    @Test("list new refuses bad names and names whose file exists, ignoring case, with status 2",
          arguments: [("a/b", "a name cannot hold '/'"), ("..", "a name cannot hold '..'"), ("x..y", "a name cannot hold '..'"),
                      (".hidden", "a name cannot start with '.'"), ("tab\u{7}bell", "a name cannot hold control characters"),
                      ("   ", "the name is empty"), ("HOME", "home.md exists already"), ("Home", "home.md exists already"),
                      ("Notes", "Notes.md exists already"), ("*Bold*", "it does not read back as the same heading (Markdown markup?)")])
    func listNewRefusals(name: String, message: String) throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home, "Notes.md": "plain notes\n"])
        let result = try sandbox.run(["--dir", "tasks", "list", "new", name])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasSuffix(message + "\n"), "\(result)")
        #expect(try sandbox.listFiles("tasks") == ["Notes.md", "home.md"])
    }

    @Test("list rename changes the heading and the file name; list set changes front matter in place")
    func listRenameAndSet() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home, "work.md": "---\nshared-with: sam\ncolor: red\n---\n# Work ##\n\n- [ ] Send the invoice\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "home", "House and Garden"]), status: 0,
                  stdout: "Renamed the list Home to House and Garden, now house-and-garden.md\n", stderr: "")
        #expect(try sandbox.listFiles("tasks") == ["house-and-garden.md", "work.md"])
        #expect(try sandbox.read("tasks/house-and-garden.md") == Fixtures.home.replacingOccurrences(of: "# Home\n", with: "# House and Garden\n"))
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "rename", "work", "WORK"]), status: 0, stdout: "")
        #expect(try sandbox.read("tasks/work.md") == "---\nshared-with: sam\ncolor: red\n---\n# WORK ##\n\n- [ ] Send the invoice\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work", "--color", "blue", "--symbol", "💼"]), status: 0,
                  stdout: "Updated the list WORK: symbol 💼, color blue\n", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == "---\nshared-with: sam\ncolor: blue\nsymbol: 💼\n---\n# WORK ##\n\n- [ ] Send the invoice\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "set", "house", "--symbol", "🏡"]), status: 0)
        #expect(try sandbox.read("tasks/house-and-garden.md").hasPrefix("---\nsymbol: 🏡\n---\n# House and Garden\n\nSome words"))
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "set", "house", "--symbol", ""]), status: 0)
        #expect(try sandbox.read("tasks/house-and-garden.md") == Fixtures.home.replacingOccurrences(of: "# Home\n", with: "# House and Garden\n"))
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work", "--color", "mauve"]), status: 2, stdout: "",
                  stderr: "tick: invalid colour 'mauve': expected red, orange, yellow, green, blue, purple, brown, gray (or grey), #RGB or #RRGGBB\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work"]), status: 2)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "work", "house and garden"]), status: 2, stdout: "",
                  stderr: "tick: cannot create the list 'house and garden': house-and-garden.md exists already\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "attic", "Loft"]), status: 1)
    }

    @Test("list rm refuses while the list has open tasks and says how many; --force deletes it")
    func listRemove() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home, "done.md": "# Done\n\n- [x] Old\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "home"]), status: 2, stdout: "",
                  stderr: "tick: the list 'Home' has 5 open tasks; use --force to delete it with them\n")
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "done"]), status: 0,
                  stdout: "Deleted the list Done (done.md, 1 task)\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "home", "--force"]), status: 0,
                  stdout: "Deleted the list Home (home.md, 6 tasks)\n", stderr: "")
        #expect(try sandbox.listFiles("tasks") == [])
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0, stdout: "Undid: deleted the list Home\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)
    }
}
