import Foundation
import Testing

/// `tick undo` end to end on lists edited by hand since tick's change: it applies the inverse of
/// tick's change to the files as they are, refuses (status 1, naming the lines) only when tick's
/// very lines changed, and `--force` restores the old files and says what it discards.
@Suite("undo onto lists edited since")
struct UndoCommandTests {
    static let home = """
        # Home

        - [ ] Call the plumber !! due:2026-03-20
          The number is on the fridge.
        - [ ] Paint the fence
        - [ ] Water the plants

        """

    static func folder(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox()
        for (name, text) in files { try sandbox.write("tasks/" + name, text) }
        return sandbox
    }

    @Test("a hand edit elsewhere in the file is kept, and the task goes back as it was")
    func handEditElsewhere() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", "plumber"]), status: 0, stdout: "", stderr: "")
        let done = try sandbox.read("tasks/home.md")
        try sandbox.write("tasks/home.md", done.replacingOccurrences(of: "fridge", with: "freezer") + "- [ ] Typed by hand\n")
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0,
                  stdout: "Undid: completed \"Call the plumber\" (kept what changed since in home.md)\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md")
            == Self.home.replacingOccurrences(of: "fridge", with: "freezer") + "- [ ] Typed by hand\n")
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("a hand edit of the very task is refused, naming the line; --force restores the old file and says what it discards")
    func handEditOfTheTask() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "flag", "fence"]), status: 0)
        let edited = try sandbox.read("tasks/home.md").replacingOccurrences(of: "Paint the fence", with: "Paint the gate")
            + "- [ ] Typed by hand\n"
        try sandbox.write("tasks/home.md", edited)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "",
                  stderr: "tick: home.md changed since tick's last change on the lines undo would revert (line 5); "
                  + "use --force to restore the old file, discarding what changed since\n")
        #expect(try sandbox.read("tasks/home.md") == edited)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "undo", "--force"]), status: 0, stdout: "",
                  stderr: "tick: warning: undo --force discarded 2 lines changed since tick's last change: home.md line 5, line 7\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("undo of a move onto two edited files keeps both files' edits; an edit of the moved task refuses it in both")
    func moveOntoEditedFiles() throws {
        let sandbox = try Self.folder(["home.md": Self.home, "work.md": "# Work\n\n- [ ] Report\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "mv", "fence", "work"]), status: 0)
        try sandbox.write("tasks/work.md", try sandbox.read("tasks/work.md").replacingOccurrences(of: "Report", with: "Report !!!"))
        try sandbox.write("tasks/home.md", try sandbox.read("tasks/home.md") + "- [ ] Typed at home\n")
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0,
                  stdout: "Undid: moved \"Paint the fence\" to Work (kept what changed since in work.md and home.md)\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home + "- [ ] Typed at home\n")
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Report !!!\n")

        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "mv", "fence", "work"]), status: 0)
        let work = try sandbox.read("tasks/work.md").replacingOccurrences(of: "Paint the fence", with: "Paint the fence white")
        try sandbox.write("tasks/work.md", work)
        let home = try sandbox.read("tasks/home.md")
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "",
                  stderr: "tick: work.md changed since tick's last change on the lines undo would revert (line 4); "
                  + "use --force to restore the old file, discarding what changed since\n")
        #expect(try sandbox.read("tasks/work.md") == work)
        #expect(try sandbox.read("tasks/home.md") == home)
    }

    @Test("--force on unchanged files discards nothing and says nothing more; with --json the summary is all")
    func forceOnUnchangedFiles() throws {
        let sandbox = try Self.folder(["home.md": Self.home])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "rm", "plants"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "undo", "--force"]), status: 0,
                  stdout: "{\"undone\":\"deleted \\\"Water the plants\\\"\"}\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }
}
