import Foundation
import Testing

/// `tick edit` through an editor: what it shows, what it writes back, and that the user's text
/// is never lost. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("edit in an editor")
struct EditCommandTests {
    static let home = """
        # Home

        - [ ] Call the plumber !! due:2026-03-20
          The number is on the fridge.
        - [x] Check the [ ] box done:2026-03-01

        """

    /// A sandbox with `tasks/home.md` and an executable `name` (in `bin/`) running `script`.
    static func sandbox(editor script: String, name: String = "editor") throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["home.md": home])
        try sandbox.writeProgram("bin/" + name, "#!/bin/sh\n" + script + "\n")
        try sandbox.makeFolder("tmp")
        sandbox.environment["TMPDIR"] = sandbox.path("tmp")
        return sandbox
    }

    /// The files tick left in the sandbox's temporary folder.
    static func leftovers(_ sandbox: Sandbox) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tmp")).sorted()
    }

    @Test("with neither $VISUAL nor $EDITOR set, tick runs vi, as git does")
    func fallsBackToVi() throws {
        let sandbox = try Self.sandbox(editor: #"sed -i 's/plumber !!/plumber !! #flag/' "$1""#, name: "vi")
        sandbox.environment["PATH"] = sandbox.path("bin") + ":/usr/bin:/bin"
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"]), status: 0,
                  stdout: "Edited \(ref) \"Call the plumber\": flag\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md").contains("- [ ] Call the plumber !! due:2026-03-20 #flag\n"))
        #expect(try Self.leftovers(sandbox).isEmpty)
    }

    @Test("a line ending added or turned into CRLF is no change: nothing written, nothing journalled",
          arguments: [#"printf '\n\n' >> "$1""#, #"sed -i 's/$/\r/' "$1""#, #"printf '\r\n' >> "$1""#])
    func lineEndingsAreNoChange(script: String) throws {
        let sandbox = try Self.sandbox(editor: script)
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("bin/editor")]),
                  status: 0, stdout: "No change to \(ref) \"Call the plumber\"\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("when the task is gone by the time the editor exits, the text is kept in the file the message names")
    func keepsTextWhenTaskIsGone() throws {
        // The editor changes the notes while someone else deletes the task from the list.
        let sandbox = try Self.sandbox(editor: #"sed -i 's/fridge/freezer/' "$1"; sed -i '/plumber/,+1d' "$HOME/../tasks/home.md""#)
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("bin/editor")])
        let kept = try Self.leftovers(sandbox)
        try #require(kept.count == 1)
        let file = sandbox.path("tmp/" + kept[0])
        expectRun(result, status: 1, stdout: "",
                  stderr: "tick: the task 'Call the plumber' is no longer in home.md (changed meanwhile?); nothing written; "
                      + "your text is kept in \(file)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8)
                == "Call the plumber !! due:2026-03-20\n\nThe number is on the freezer.\n")
    }

    @Test("a text without a title is refused, exit 2, and nothing changes")
    func refusesTextWithoutTitle() throws {
        let sandbox = try Self.sandbox(editor: #"printf '!!! #flag\n\nNew notes\n' > "$1""#)
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("bin/editor")])
        expectRun(result, status: 2, stdout: "", stderr: "tick: a task needs a title\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("a done task whose title holds [ ] shows its title line from the parser, and is edited in place")
    func doneTaskWithBoxInTitle() throws {
        let sandbox = try Self.sandbox(editor: #"cp "$1" "$HOME/../seen.txt"; sed -i 's/box/square/' "$1""#)
        let ref = try sandbox.ref("Check the [ ] box", dir: "tasks")
        let result = try sandbox.run(["--dir", "tasks", "edit", ref], environment: ["EDITOR": sandbox.path("bin/editor")])
        #expect(try sandbox.read("seen.txt") == "Check the [ ] box done:2026-03-01\n")
        let new = try sandbox.ref("Check the [ ] square", dir: "tasks")
        // A new title makes a new ref; the old one leads to the task still.
        expectRun(result, status: 0, stdout: "Edited \(new) \"Check the [ ] square\": title\nRenamed: \(ref) is now \(new)\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home.replacingOccurrences(
            of: "- [x] Check the [ ] box done:2026-03-01", with: "- [x] Check the [ ] square done:2026-03-01"))
    }
}

/// `tick edit` with --title, --notes and --append-note. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("tick edit with options")
struct EditOptionTests {

    @Test("edit with options changes the title, notes, due date and priority of that task only")
    func editOptions() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let old = try sandbox.ref("Call the plumber", dir: "tasks")
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber", "--title", "Call the electrician",
                                      "--note", "Ask about the fuse box", "--due", "eow", "--priority", "medium"])
        let ref = try sandbox.ref("Call the electrician", dir: "tasks")
        // The priority was medium already: only what changed is named.
        expectRun(result, status: 0, stdout: "Edited \(ref) \"Call the electrician\": title, due, notes\nRenamed: \(old) is now \(ref)\n",
                  stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "electrician", "--append-note", "Before Friday"]), status: 0)
        let expected = Fixtures.home.replacingOccurrences(
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
        let sandbox = try Fixtures.diskFolder(["home.md": Fixtures.home])
        try sandbox.writeProgram("editor.sh", """
            #!/bin/sh
            cp "$1" "$(dirname "$0")/seen.txt"
            sed -i -e 's/plumber !! due:2026-03-20/plumber !!! due:tomorrow #flag/' -e 's/fridge/freezer/' "$1"

            """)
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("editor.sh")])
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(result, status: 0, stdout: "Edited \(ref) \"Call the plumber\": due, priority, flag, notes\n", stderr: "")
        #expect(try sandbox.read("seen.txt") == "Call the plumber !! due:2026-03-20\n\nThe number is on the fridge.\n")
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home.replacingOccurrences(
            of: "- [ ] Call the plumber !! due:2026-03-20\n  The number is on the fridge.\n",
            with: "- [ ] Call the plumber !!! due:2026-03-15 #flag\n  The number is on the freezer.\n"))
    }

    @Test("an editor that leaves the text unchanged, or exits non-zero, changes nothing")
    func editorNoChange() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Fixtures.home])
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["VISUAL": "true", "EDITOR": "false"]),
                  status: 0, stdout: "No change to \(ref) \"Call the plumber\"\n", stderr: "")
        try sandbox.writeProgram("failing.sh", "#!/bin/sh\necho 'Changed' > \"$1\"\nexit 3\n")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber"], environment: ["EDITOR": sandbox.path("failing.sh")]),
                  status: 1, stdout: "",
                  stderr: "tick: the editor '\(sandbox.path("failing.sh"))' exited with status 3; nothing changed\n")
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)
        #expect(try sandbox.run(["--dir", "tasks", "undo"]).status == 1)  // nothing was journalled
    }
}
