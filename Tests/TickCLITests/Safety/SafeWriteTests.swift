import Foundation
import Testing

/// The safe-write promises from the command line: a file saved by an editor between tick's read
/// and its write is never clobbered, an interrupted move is finished by the next run, writes
/// are minimal, and files tick must not write are refused.
@Suite("safe writes from the command line")
struct SafeWriteTests {
    static let list = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n"

    /// Makes the journal's newest entry pending again and puts `files` back as they were: the state
    /// a tick killed after its first file leaves (what the crash tests reach at every step on the
    /// in-memory file system), made here by hand so that the real binary's recovery is seen.
    static func interrupt(_ sandbox: Sandbox, restoring files: [String: String]) throws {
        let journal = sandbox.path("tasks/.tick/journal")
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { Int($0) != nil }.max())
        let meta = journal + "/" + newest + "/meta"
        let text = try String(contentsOfFile: meta, encoding: .utf8)
        try text.replacingOccurrences(of: "state done", with: "state pending").write(toFile: meta, atomically: true, encoding: .utf8)
        for (path, content) in files { try sandbox.write("tasks/" + path, content) }
    }

    @Test("a move interrupted between its two files leaves the task in both, and the next run finishes it")
    func interruptedMove() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Self.list, "work.md": "# Work\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "mv", "milk", "work"]), status: 0, stderr: "")
        try Self.interrupt(sandbox, restoring: ["home.md": Self.list])
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Buy milk\n")
        let next = try sandbox.run(["--dir", "tasks", "--quiet", "flag", "mum"])
        #expect(next.status == 0)
        #expect(next.stderr.contains("finished an interrupted change: moved \"Buy milk\" to Work (home.md)"), "\(next)")
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Call mum !! #flag\n")
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Buy milk\n")
    }

    @Test("a list rename interrupted between its two files leaves both files; the next run removes the old one")
    func interruptedRename() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Self.list])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "rename", "home", "House"]), status: 0, stderr: "")
        try Self.interrupt(sandbox, restoring: ["home.md": Self.list])
        #expect(try sandbox.listFiles("tasks") == ["home.md", "house.md"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "flag", "mum"]), status: 0)
        #expect(try sandbox.listFiles("tasks") == ["house.md"])
        #expect(try sandbox.read("tasks/house.md") == "# House\n\n- [ ] Call mum !! #flag\n- [ ] Buy milk\n")
    }

    @Test("a change touches only the target task's bytes: line endings, markers, indentation and prose stay")
    func minimalDiff() throws {
        let text = "---\r\ncolor: red\r\n---\r\n# Odd  list\r\n\r\nProse with `- [ ] code`.\r\n\r\n"
            + "1. [ ] First\r\n2. [X] Second done:2026-01-02\r\n3. [ ]\tTabbed  title   \r\n\r\n"
            + "> - [ ] Quoted\r\n>   a quoted note\r\n\r\n```\r\n- [ ] not a task\r\n```\r\n"
        let sandbox = try Fixtures.folder(["odd.md": text])
        // The new task goes after the list's last top-level task, here inside the block quote.
        for arguments in [["done", "first"], ["flag", "tabbed"], ["reopen", "second"], ["due", "quoted", "fri"],
                          ["add", "--list", "odd", "Fourth"], ["edit", "quoted", "--append-note", "another"]] {
            expectRun(try sandbox.run(["--dir", "tasks", "--quiet"] + arguments), status: 0, stdout: "", stderr: "")
        }
        #expect(try sandbox.read("tasks/odd.md") == "---\r\ncolor: red\r\n---\r\n# Odd  list\r\n\r\nProse with `- [ ] code`.\r\n\r\n"
            + "1. [x] First done:2026-03-14\r\n2. [ ] Second\r\n3. [ ]\tTabbed  title #flag   \r\n\r\n"
            + "> - [ ] Quoted due:2026-03-20\r\n>   a quoted note\r\n>   another\r\n> - [ ] Fourth\r\n\r\n```\r\n- [ ] not a task\r\n```\r\n")
    }

    @Test("a file's permissions are kept; a list linked inside the folder is written through its link")
    func permissionsAndLinks() throws {
        let sandbox = try Fixtures.diskFolder(["real/home.md": Self.list])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: sandbox.path("tasks/real/home.md"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("tasks/link.md"), withDestinationPath: "real/home.md")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "--list", "link", "Via the link"]), status: 0, stderr: "")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("tasks/link.md")) == "real/home.md")
        #expect(try sandbox.read("tasks/real/home.md") == Self.list + "- [ ] Via the link\n")
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("tasks/real/home.md"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a list linked to a file outside the folder is refused for writing")
    func linkOutside() throws {
        let sandbox = try Fixtures.diskFolder([:])
        try sandbox.write("outside.md", Self.list)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("tasks/out.md"), withDestinationPath: sandbox.path("outside.md"))
        let result = try sandbox.run(["--dir", "tasks", "done", "mum"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("out.md is a link to "), "\(result)")
        #expect(result.stderr.contains("outside the task folder"), "\(result)")
        #expect(try sandbox.read("outside.md") == Self.list)
    }

    @Test("a file holding git conflict markers is refused for writing, with a message saying so")
    func conflictMarkers() throws {
        let text = "# Home\n\n<<<<<<< HEAD\n- [ ] Call mum !!\n=======\n- [ ] Call mum !!!\n>>>>>>> other\n"
        let sandbox = try Fixtures.folder(["home.md": text])
        let result = try sandbox.run(["--dir", "tasks", "add", "--list", "home", "More"])
        expectRun(result, status: 1, stdout: "",
                  stderr: "tick: home.md:3: the file holds git conflict markers; resolve them before tick writes it\n")
        #expect(try sandbox.read("tasks/home.md") == text)
    }

    @Test("no temporary file is left beside the lists, and none is taken for a list")
    func noLeftovers() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Self.list])
        // What a killed tick leaves: a file it was writing (empty), one holding what the list holds.
        // (One holding bytes found nowhere else is kept as a backup: `WritePathFindingsTests`.)
        try sandbox.write("tasks/.home.md.tick-99999-1", "")
        try sandbox.write("tasks/.home.md.tick-99999-2", Self.list)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", "mum"]), status: 0)
        let all = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tasks")).sorted()
        #expect(all == [".tick", "home.md"])
    }
}
