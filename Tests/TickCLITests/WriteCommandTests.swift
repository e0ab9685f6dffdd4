import Foundation
import Testing

/// The write commands end to end: what each writes into the files, what it prints, and what it
/// refuses. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("write commands")
struct WriteCommandTests {
    /// A sandbox with a task folder `tasks/` holding `files`.
    static func folder(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("tasks"), withIntermediateDirectories: true)
        for (name, text) in files { try sandbox.write("tasks/" + name, text) }
        return sandbox
    }

    static let home = """
        # Home

        Some words about the house.

        - [ ] Call the plumber !! due:2026-03-20
          The number is on the fridge.
        - [ ] Paint the fence
          - [ ] Buy paint
          - [ ] Sand the boards
        - [x] Fix the light done:2026-03-01

        ## Garden

        - [ ] Water the plants #flag

        """

    // MARK: - add

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
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/tick")))
        expectRun(try sandbox.run(["add", "--quiet", "First"]), status: 0, stdout: "", stderr: "")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("data/tick/.tick")))
        #expect(try sandbox.read("data/tick/.tick/.gitignore") == "*\n!.gitignore\n")
        expectRun(try sandbox.run(["add", "--quiet", "Second"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] First\n- [ ] Second\n")
    }

    @Test("add takes words, options, notes and a time")
    func addOptions() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "--list", "home", "Clean", "the", "gutters",
                                   "--due", "tomorrow 9:00", "--priority", "low", "--flag",
                                   "--note", "Ladder in the shed\nGloves too"]), status: 0, stdout: "", stderr: "")
        // After the last top-level task outside sections, not in the last section (FORMAT.md, 8.1).
        #expect(try sandbox.read("tasks/home.md") == Self.home.replacingOccurrences(
            of: "- [x] Fix the light done:2026-03-01\n",
            with: "- [x] Fix the light done:2026-03-01\n- [ ] Clean the gutters ! #flag due:2026-03-15T09:00\n"
                + "  Ladder in the shed\n  Gloves too\n"))
    }

    @Test("add --section goes after the section's last task; --parent after the last subtask")
    func addSectionAndParent() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "Mow the lawn", "--list", "Home",
                                   "--section", "garden"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--quiet", "Pick a colour", "--parent", "fence"]),
                  status: 0, stdout: "", stderr: "")
        let expected = Self.home
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
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/tick")))
    }

    @Test("add refuses an unknown list (status 1), an unknown section (1), a bad date (2) and writes nothing")
    func addRefusals() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--list", "work"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'work'\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--list", "home", "--section", "Attic"]), status: 1,
                  stdout: "", stderr: "tick: no section 'Attic' in the list Home\n")
        let bad = try sandbox.run(["--dir", "tasks", "add", "X due:someday"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tick: not a date: 'someday'"))
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X due:fri", "--due", "sat"]), status: 2, stdout: "",
                  stderr: "tick: the due date is given twice: in the title and with --due\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--section", "Garden", "--parent", "fence"]), status: 2)
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X", "--priority", "urgent"]), status: 2)
        #expect(try sandbox.read("tasks/home.md") == Self.home)
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
    }

    @Test("words in inline code are title text, not metadata")
    func addCodeSpan() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["add", "--quiet", "Explain `due:fri !!` to Sam !"]), status: 0)
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] Explain `due:fri !!` to Sam !\n")
    }

    // MARK: - done, reopen, flag, unflag, due, priority

    @Test("done completes several tasks, a parent with its open subtasks, in one change and one undo; reopen leaves the subtasks")
    func doneAndReopen() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let done = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "done"] + arguments) }
        let completed = Self.home
            .replacingOccurrences(of: "- [ ] Call the plumber !! due:2026-03-20", with: "- [x] Call the plumber !! due:2026-03-20 done:2026-03-14")
            .replacingOccurrences(of: "- [ ] Paint the fence", with: "- [x] Paint the fence done:2026-03-14")
            .replacingOccurrences(of: "  - [ ] Buy paint", with: "  - [x] Buy paint done:2026-03-14")
            .replacingOccurrences(of: "  - [ ] Sand the boards", with: "  - [x] Sand the boards done:2026-03-14")
        expectRun(try done([plumber, "paint the fence"]), status: 0,
                  stdout: "Completed \(plumber) \"Call the plumber\"\nCompleted \(fence) \"Paint the fence\" and 2 open subtasks\n",
                  stderr: "")
        #expect(try sandbox.read("tasks/home.md") == completed)
        // One change: one undo brings every line back.
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0,
                  stdout: "Undid: completed \"Call the plumber\", \"Paint the fence\"\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home)

        // A subtask done already stays as it is; the count names only the ones completed now.
        expectRun(try done(["buy paint"]), status: 0)
        let buyPaint = "  - [x] Buy paint done:2026-03-14"
        expectRun(try done(["fence"]), status: 0,
                  stdout: "Completed \(fence) \"Paint the fence\" and 1 open subtask\n", stderr: "")
        expectRun(try done([plumber, "fence"]), status: 0,
                  stdout: "Completed \(plumber) \"Call the plumber\"\n"
                      + "No change to \(fence) \"Paint the fence\": already done\n")
        #expect(try sandbox.read("tasks/home.md") == completed)
        expectRun(try sandbox.run(["--dir", "tasks", "reopen", "fence", "fix the light"]), status: 0)
        let expected = completed
            .replacingOccurrences(of: "- [x] Paint the fence done:2026-03-14", with: "- [ ] Paint the fence")
            .replacingOccurrences(of: "- [x] Fix the light done:2026-03-01", with: "- [ ] Fix the light")
        #expect(try sandbox.read("tasks/home.md") == expected)
        #expect(expected.contains(buyPaint))
    }

    @Test("a change that changes nothing says so in one wording, writes nothing and journals nothing")
    func noOps() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        let water = try sandbox.ref("Water the plants", dir: "tasks")
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let cases: [([String], String)] = [
            (["flag", "water"], "No change to \(water) \"Water the plants\": already flagged\n"),
            (["unflag", "fence"], "No change to \(fence) \"Paint the fence\": already not flagged\n"),
            (["due", "fence", "none"], "No change to \(fence) \"Paint the fence\": already without a due date\n"),
            (["due", "plumber", "2026-03-20"], "No change to \(plumber) \"Call the plumber\": already due 2026-03-20\n"),
            (["priority", "plumber", "medium"], "No change to \(plumber) \"Call the plumber\": already priority medium\n"),
            (["priority", "fence", "none"], "No change to \(fence) \"Paint the fence\": already without a priority\n"),
            (["reopen", "fence"], "No change to \(fence) \"Paint the fence\": already open\n"),
            (["edit", "plumber", "--append-note", ""], "No change to \(plumber) \"Call the plumber\": already with nothing to append\n"),
            (["edit", "plumber", "--priority", "medium", "--title", "Call the plumber"], "No change to \(plumber) \"Call the plumber\"\n"),
            (["mv", "water", "home"], "No change to \(water) \"Water the plants\": already in Home\n"),
        ]
        for (arguments, line) in cases {
            expectRun(try sandbox.run(["--dir", "tasks"] + arguments), status: 0, stdout: line, stderr: "")
            #expect(try sandbox.read("tasks/home.md") == Self.home, "\(arguments)")
        }
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("flag, unflag, due and priority change only their token")
    func tokens() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let run = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "--quiet"] + arguments) }
        expectRun(try run(["flag", "plumber", "fence"]), status: 0, stdout: "")
        expectRun(try run(["unflag", "water"]), status: 0, stdout: "")
        expectRun(try run(["due", "plumber", "none"]), status: 0, stdout: "")
        expectRun(try run(["due", "fence", "next", "week"]), status: 0, stdout: "")
        expectRun(try run(["priority", "plumber", "high"]), status: 0, stdout: "")
        expectRun(try run(["priority", "fence", "none"]), status: 0, stdout: "")
        let expected = Self.home
            .replacingOccurrences(of: "- [ ] Call the plumber !! due:2026-03-20", with: "- [ ] Call the plumber !!! #flag")
            .replacingOccurrences(of: "- [ ] Paint the fence", with: "- [ ] Paint the fence #flag due:2026-03-16")
            .replacingOccurrences(of: "- [ ] Water the plants #flag", with: "- [ ] Water the plants")
        #expect(try sandbox.read("tasks/home.md") == expected)
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "due", "plumber", "2026-04-01T08:15"]), status: 0,
                  stdout: "Due 2026-04-01T08:15: \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "priority", "plumber", "low"]), status: 0,
                  stdout: "Priority low: \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "unflag", "plumber"]), status: 0,
                  stdout: "Unflagged \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "priority", "plumber", "urgent"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'urgent' for LEVEL: expected none, low, medium or high\n")
    }

    @Test("--json prints the changed tasks as the read side's task objects")
    func jsonOutput() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let result = try sandbox.run(["--dir", "tasks", "--json", "done", "plumber", "fence"])
        #expect(result.status == 0)
        let changed = try decodeTasks(result.stdout)
        #expect(changed.map { $0["title"] as? String } == ["Call the plumber", "Paint the fence"])
        #expect(changed.map { $0["doneDate"] as? String } == ["2026-03-14", "2026-03-14"])
        // Object for object, the text that `tick completed --json` prints for the same tasks.
        let objects = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
        let shown = try sandbox.run(["--dir", "tasks", "--json", "completed"]).stdout.split(separator: "\n")
            .map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
        #expect(objects.count == 2)
        for object in objects { #expect(shown.contains(object), "\(object)") }
    }

    @Test("--quiet prints nothing for every write command")
    func quiet() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        for arguments in [["add", "New"], ["done", "plumber"], ["reopen", "plumber"], ["flag", "fence"], ["unflag", "fence"],
                          ["due", "fence", "eom"], ["priority", "fence", "medium"], ["edit", "fence", "--note", "Blue"],
                          ["mv", "new", "home"], ["rm", "new"], ["list", "new", "Work"], ["list", "set", "work", "--color", "red"],
                          ["list", "rename", "work", "Job"], ["list", "rm", "job"], ["undo"]] {
            expectRun(try sandbox.run(["--dir", "tasks", "--quiet"] + arguments), status: 0, stdout: "", stderr: "")
        }
    }

    // MARK: - Refs

    @Test("an unknown or ambiguous REF is refused with status 1 and a list of candidates; nothing is written")
    func badRefs() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        for command in [["done"], ["reopen"], ["flag"], ["unflag"], ["rm"], ["edit"], ["due"], ["priority"], ["mv"], ["id"]] {
            let tail: [String] = command == ["due"] ? ["today"] : command == ["priority"] ? ["low"] : command == ["mv"] ? ["home"] :
                command == ["edit"] ? ["--title", "X"] : []
            expectRun(try sandbox.run(["--dir", "tasks"] + command + ["nothing like it"] + tail), status: 1, stdout: "",
                      stderr: "tick: no task matches 'nothing like it'\n")
            // `reopen` considers only done tasks, and "Fix the light" is the one done task with "the".
            guard command != ["reopen"] else { continue }
            let ambiguous = try sandbox.run(["--dir", "tasks"] + command + ["the"] + tail)
            #expect(ambiguous.status == 1)
            #expect(ambiguous.stderr.hasPrefix("tick: 'the' matches several tasks: "))
            // Each candidate with its ref, list, status and due date.
            #expect(ambiguous.stderr.contains(#""Call the plumber" (Home, open, due 2026-03-20)"#))
            #expect(ambiguous.stderr.contains(#""Fix the light" (Home, done)"#))
        }
        // One bad REF among good ones: nothing changes.
        expectRun(try sandbox.run(["--dir", "tasks", "done", "plumber", "nothing like it"]), status: 1)
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    // MARK: - edit

    @Test("edit with options changes the title, notes, due date and priority of that task only")
    func editOptions() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber", "--title", "Call the electrician",
                                      "--note", "Ask about the fuse box", "--due", "eow", "--priority", "medium"])
        let ref = try sandbox.ref("Call the electrician", dir: "tasks")
        // The priority was medium already: only what changed is named.
        expectRun(result, status: 0, stdout: "Edited \(ref) \"Call the electrician\": title, due, notes\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "electrician", "--append-note", "Before Friday"]), status: 0)
        let expected = Self.home.replacingOccurrences(
            of: "- [ ] Call the plumber !! due:2026-03-20\n  The number is on the fridge.\n",
            with: "- [ ] Call the electrician !! due:2026-03-15\n  Ask about the fuse box\n  Before Friday\n")
        #expect(try sandbox.read("tasks/home.md") == expected)
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "electrician", "--title", "Call !! due:fri"]), status: 2,
                  stdout: "", stderr: "tick: cannot write this title: '!!' in a title would be read as metadata; set it separately\n")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "electrician", "--title", " "]), status: 2)
        #expect(try sandbox.read("tasks/home.md") == expected)
    }

    @Test("edit without options opens the editor on the title line and notes and writes back what changed")
    func editInEditor() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        try sandbox.write("editor.sh", """
            #!/bin/sh
            cp "$1" "$(dirname "$0")/seen.txt"
            sed -i -e 's/plumber !! due:2026-03-20/plumber !!! due:tomorrow #flag/' -e 's/fridge/freezer/' "$1"

            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.path("editor.sh"))
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("editor.sh")])
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(result, status: 0, stdout: "Edited \(ref) \"Call the plumber\": due, priority, flag, notes\n", stderr: "")
        #expect(try sandbox.read("seen.txt") == "Call the plumber !! due:2026-03-20\n\nThe number is on the fridge.\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home.replacingOccurrences(
            of: "- [ ] Call the plumber !! due:2026-03-20\n  The number is on the fridge.\n",
            with: "- [ ] Call the plumber !!! due:2026-03-15 #flag\n  The number is on the freezer.\n"))
    }

    @Test("an editor that leaves the text unchanged, or exits non-zero, changes nothing")
    func editorNoChange() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["VISUAL": "true", "EDITOR": "false"]),
                  status: 0, stdout: "No change to \(ref) \"Call the plumber\"\n", stderr: "")
        try sandbox.write("failing.sh", "#!/bin/sh\necho 'Changed' > \"$1\"\nexit 3\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.path("failing.sh"))
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("failing.sh")]),
                  status: 1, stdout: "",
                  stderr: "tick: the editor '\(sandbox.path("failing.sh"))' exited with status 3; nothing changed\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
        #expect(try sandbox.run(["--dir", "tasks", "undo"]).status == 1)  // nothing was journalled
    }

    // MARK: - mv and rm

    @Test("mv moves tasks with their notes and subtasks to the end of another list")
    func move() throws {
        let sandbox = try Self.folder(["home.md": Self.home, "work.md": "# Work\n\n* [ ] Send the invoice\n"])
        let result = try sandbox.run(["--dir", "tasks", "mv", "fence", "plumber", "work"])
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(result, status: 0, stdout: "Moved \(fence) \"Paint the fence\" from Home to Work\n"
                  + "Moved \(plumber) \"Call the plumber\" from Home to Work\n", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == """
            # Work

            * [ ] Send the invoice
            * [ ] Paint the fence
              - [ ] Buy paint
              - [ ] Sand the boards
            * [ ] Call the plumber !! due:2026-03-20
              The number is on the fridge.

            """)
        #expect(try sandbox.read("tasks/home.md") == Self.home.replacingOccurrences(
            of: "- [ ] Call the plumber !! due:2026-03-20\n  The number is on the fridge.\n- [ ] Paint the fence\n"
                + "  - [ ] Buy paint\n  - [ ] Sand the boards\n", with: ""))
        expectRun(try sandbox.run(["--dir", "tasks", "mv", "invoice", "attic"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'attic'\n")
    }

    @Test("rm deletes tasks with their notes and subtasks; --json prints them as they were")
    func remove() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "rm", "fence"]), status: 0,
                  stdout: "Deleted \(fence) \"Paint the fence\" with 2 subtasks\n", stderr: "")
        let json = try decodeTasks(try sandbox.run(["--dir", "tasks", "--json", "rm", "plumber"]).stdout)
        #expect(json.map { $0["ref"] as? String } == [plumber])
        #expect(json.first?["notes"] as? String == "The number is on the fridge.")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            Some words about the house.

            - [x] Fix the light done:2026-03-01

            ## Garden

            - [ ] Water the plants #flag

            """)
    }

    // MARK: - Lists

    @Test("list new names the file from the name and writes a heading, with front matter only when asked")
    func listNew() throws {
        let sandbox = try Self.folder([:])
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
        let sandbox = try Self.folder(["home.md": Self.home, "Notes.md": "plain notes\n"])
        let result = try sandbox.run(["--dir", "tasks", "list", "new", name])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasSuffix(message + "\n"), "\(result)")
        #expect(try sandbox.listFiles("tasks") == ["Notes.md", "home.md"])
    }

    @Test("list rename changes the heading and the file name; list set changes front matter in place")
    func listRenameAndSet() throws {
        let sandbox = try Self.folder(["home.md": Self.home, "work.md": "---\nshared-with: sam\ncolor: red\n---\n# Work ##\n\n- [ ] Send the invoice\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "home", "House and Garden"]), status: 0,
                  stdout: "Renamed the list Home to House and Garden, now house-and-garden.md\n", stderr: "")
        #expect(try sandbox.listFiles("tasks") == ["house-and-garden.md", "work.md"])
        #expect(try sandbox.read("tasks/house-and-garden.md") == Self.home.replacingOccurrences(of: "# Home\n", with: "# House and Garden\n"))
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "rename", "work", "WORK"]), status: 0, stdout: "")
        #expect(try sandbox.read("tasks/work.md") == "---\nshared-with: sam\ncolor: red\n---\n# WORK ##\n\n- [ ] Send the invoice\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work", "--color", "blue", "--symbol", "💼"]), status: 0,
                  stdout: "Updated the list WORK: symbol 💼, color blue\n", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == "---\nshared-with: sam\ncolor: blue\nsymbol: 💼\n---\n# WORK ##\n\n- [ ] Send the invoice\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "set", "house", "--symbol", "🏡"]), status: 0)
        #expect(try sandbox.read("tasks/house-and-garden.md").hasPrefix("---\nsymbol: 🏡\n---\n# House and Garden\n\nSome words"))
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "set", "house", "--symbol", ""]), status: 0)
        #expect(try sandbox.read("tasks/house-and-garden.md") == Self.home.replacingOccurrences(of: "# Home\n", with: "# House and Garden\n"))
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work", "--color", "mauve"]), status: 2, stdout: "",
                  stderr: "tick: invalid colour 'mauve': expected red, orange, yellow, green, blue, purple, brown, gray (or grey), #RGB or #RRGGBB\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "work"]), status: 2)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "work", "house and garden"]), status: 2, stdout: "",
                  stderr: "tick: cannot create the list 'house and garden': house-and-garden.md exists already\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "attic", "Loft"]), status: 1)
    }

    @Test("list rm refuses while the list has open tasks and says how many; --force deletes it")
    func listRemove() throws {
        let sandbox = try Self.folder(["home.md": Self.home, "done.md": "# Done\n\n- [x] Old\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "home"]), status: 2, stdout: "",
                  stderr: "tick: the list 'Home' has 5 open tasks; use --force to delete it with them\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "done"]), status: 0,
                  stdout: "Deleted the list Done (done.md, 1 task)\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rm", "home", "--force"]), status: 0,
                  stdout: "Deleted the list Home (home.md, 6 tasks)\n", stderr: "")
        #expect(try sandbox.listFiles("tasks") == [])
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0, stdout: "Undid: deleted the list Home\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    // MARK: - undo

    @Test("undo reverts the last change, then the one before; it refuses when the task's line changed since, unless --force")
    func undo() throws {
        let sandbox = try Self.folder(["home.md": Self.home, "work.md": "# Work\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", "plumber"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "mv", "fence", "work"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0,
                  stdout: "Undid: moved \"Paint the fence\" to Work\n", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == "# Work\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "undo"]), status: 0,
                  stdout: "{\"undone\":\"completed \\\"Call the plumber\\\"\"}\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")

        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "flag", "plumber"]), status: 0)
        let edited = try sandbox.read("tasks/home.md").replacingOccurrences(of: "Call the plumber", with: "Call the plumber now")
        try sandbox.write("tasks/home.md", edited)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "",
                  stderr: "tick: home.md changed since tick's last change on the lines undo would revert (line 5); "
                  + "use --force to restore the old file, discarding what changed since\n")
        #expect(try sandbox.read("tasks/home.md") == edited)
        expectRun(try sandbox.run(["--dir", "tasks", "undo", "--force"]), status: 0)
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }
}

// MARK: - Helpers

extension Sandbox {
    /// The text of a file inside the sandbox.
    func read(_ relative: String) throws -> String {
        String(decoding: try Data(contentsOf: root.appendingPathComponent(relative)), as: UTF8.self)
    }

    /// The visible file names of a folder inside the sandbox, sorted.
    func listFiles(_ relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The ref that `tick show` gives the task with this title, in the folder `dir`.
    func ref(_ title: String, dir: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(["--dir", dir, "--json", "show", title], sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["ref"] as? String, "no ref for '\(title)': \(result)", sourceLocation: sourceLocation)
    }
}
