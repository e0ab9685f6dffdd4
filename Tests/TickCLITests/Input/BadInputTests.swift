import Foundation
import Testing
import TickCore

/// The bad input matrix (docs/BAD-INPUT.md): one test per row, each running the built binary on a
/// folder made for it and checking the message, the exit status and that no file changed.
@Suite("bad input")
struct BadInputTests {
    /// A sandbox with an empty list folder `lists`, and that folder's absolute path.
    static func make() throws -> (Sandbox, String) {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("lists")
        return (sandbox, sandbox.path("lists"))
    }

    /// The task objects a view prints with `--json`.
    static func tasks(_ result: TickResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(json as? [[String: Any]], "not an array of tasks: \(result.stdout.prefix(200))",
                            sourceLocation: sourceLocation)
    }

    // MARK: - The folder

    @Test("a missing folder is named, exit 2")
    func missingFolder() throws {
        let (sandbox, lists) = try Self.make()
        let before = FolderSnapshot(sandbox.root.path)
        expectRun(try sandbox.run(["--dir", "nowhere"]), status: 2, stdout: "",
                  stderr: "tick: task folder 'nowhere' (from --dir) does not exist\n")
        expectRun(try sandbox.run(["today"], environment: ["TICK_DIR": lists + "/gone"]), status: 2, stdout: "",
                  stderr: "tick: task folder '\(lists)/gone' (from TICK_DIR) does not exist\n")
        expectUnchanged(sandbox.root.path, since: before)
    }

    @Test("a folder that cannot be read is an I/O error naming it, exit 3, not an empty folder")
    func unreadableFolder() throws {
        let launcher = try #require(Unprivileged.launcher, "setpriv is needed to test permissions as root")
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        let before = FolderSnapshot(lists)
        chmod(lists, 0)
        defer { chmod(lists, 0o755) }
        for command in [[], ["today"], ["all", "--json"], ["search", "one"], ["check"]] {
            expectRun(try sandbox.run(["--dir", lists] + command, launcher: launcher), status: 3, stdout: "",
                      stderr: "tick: cannot read the task folder '\(lists)': permission denied\n")
        }
        chmod(lists, 0o755)
        expectUnchanged(lists, since: before)
    }

    @Test("a file instead of a folder is named, exit 2")
    func fileInsteadOfFolder() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", "lists/a.md"]), status: 2, stdout: "",
                  stderr: "tick: 'lists/a.md' (from --dir) is not a folder\n")
        expectRun(try sandbox.run(["check"], environment: ["TICK_DIR": lists + "/a.md"]), status: 2, stdout: "",
                  stderr: "tick: '\(lists)/a.md' (from TICK_DIR) is not a folder\n")
        expectUnchanged(lists, since: before)
    }

    @Test("a subfolder that cannot be read is named; the other lists still show, exit 3")
    func unreadableSubfolder() throws {
        let launcher = try #require(Unprivileged.launcher, "setpriv is needed to test permissions as root")
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        try sandbox.write("lists/work/b.md", "- [ ] two\n")
        let before = FolderSnapshot(lists)
        chmod(lists + "/work", 0)
        defer { chmod(lists + "/work", 0o755) }
        let all = try sandbox.run(["--dir", lists, "all", "--json"], launcher: launcher)
        expectRun(all, status: 3, stderr: "tick: cannot read 'work': permission denied\n")
        #expect(try Self.tasks(all).map { $0["title"] as? String } == ["one"])
        expectRun(try sandbox.run(["--dir", lists, "check"], launcher: launcher), status: 3,
                  stdout: "Checked 1 list: no problems\n", stderr: "tick: cannot read 'work': permission denied\n")
        chmod(lists + "/work", 0o755)
        expectUnchanged(lists, since: before)
    }

    // MARK: - List files

    @Test("a list that cannot be read is named; the other lists still show, exit 3")
    func unreadableList() throws {
        let launcher = try #require(Unprivileged.launcher, "setpriv is needed to test permissions as root")
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        try sandbox.write("lists/b.md", "- [ ] two\n")
        chmod(lists + "/b.md", 0)
        defer { chmod(lists + "/b.md", 0o644) }
        let before = FolderSnapshot(lists)
        let all = try sandbox.run(["--dir", lists, "all", "--json"], launcher: launcher)
        expectRun(all, status: 3, stderr: "tick: cannot read 'b.md': permission denied\n")
        #expect(try Self.tasks(all).map { $0["title"] as? String } == ["one"])
        expectRun(try sandbox.run(["--dir", lists, "check"], launcher: launcher), status: 3,
                  stdout: "Checked 2 lists: no problems\n", stderr: "tick: cannot read 'b.md': permission denied\n")
        expectRun(try sandbox.run(["--dir", lists, "check", "b.md"], launcher: launcher), status: 3,
                  stderr: "tick: cannot read 'b.md': permission denied\n")
        expectUnchanged(lists, since: before)
    }

    @Test("a read-only list reads like any other, exit 0")
    func readOnlyListReads() throws {
        let launcher = try #require(Unprivileged.launcher, "setpriv is needed to test permissions as root")
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        chmod(lists + "/a.md", 0o444)
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "all"], launcher: launcher), status: 0,
                  stdout: "a\n  wx2  [ ] one\n", stderr: "")
        expectRun(try sandbox.run(["--dir", lists, "check"], launcher: launcher), status: 0, stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("a read-only list is refused for writing, as an editor would refuse it, exit 3")
    func readOnlyListRefusesWrites() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n- [x] two done:2026-03-01\n")
        chmod(lists + "/a.md", 0o444)
        let before = FolderSnapshot(lists)
        for command in [["add", "three", "--list", "a"], ["done", "one"], ["reopen", "two"], ["rm", "one"],
                        ["due", "one", "tomorrow"], ["list", "rename", "a", "b"], ["list", "rm", "a", "--force"]] {
            expectRun(try sandbox.run(["--dir", lists] + command), status: 3, stdout: "",
                      stderr: "tick: cannot write 'a.md': permission denied\n")
        }
        // A move writes the destination first: it is refused before that, so no duplicate appears.
        try sandbox.write("lists/b.md", "- [ ] elsewhere\n")
        let withB = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "mv", "one", "b"]), status: 3, stdout: "",
                  stderr: "tick: cannot write 'a.md': permission denied\n")
        expectUnchanged(lists, since: withB)
        try FileManager.default.removeItem(atPath: lists + "/b.md")
        expectUnchanged(lists, since: before)
    }

    @Test("a folder without write permission: the write fails naming the list, exit 3")
    func unwritableFolder() throws {
        let launcher = try #require(Unprivileged.launcher, "setpriv is needed to test permissions as root")
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        expectRun(try sandbox.run(["init", lists]), status: 0)
        let before = FolderSnapshot(lists)
        chmod(lists, 0o555)
        defer { chmod(lists, 0o755) }
        expectRun(try sandbox.run(["--dir", lists, "add", "two", "--list", "a"], launcher: launcher), status: 3,
                  stdout: "", stderr: "tick: cannot write 'a.md': permission denied\n")
        expectRun(try sandbox.run(["--dir", lists, "list", "new", "b"], launcher: launcher), status: 3,
                  stdout: "", stderr: "tick: cannot write 'b.md': permission denied\n")
        chmod(lists, 0o755)
        expectUnchanged(lists, since: before)
        // Nothing to undo: the failed changes were never made.
        expectRun(try sandbox.run(["--dir", lists, "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("a full disk (a file-size limit) fails the write before any list changes, exit 3",
          .disabled(if: ProcessInfo.processInfo.environment["TICK_TEST_SANITIZER"] == "thread",
                    "ThreadSanitizer's runtime crashes (SIGBUS) under a file-size limit, before tick runs"))
    func fullDisk() throws {
        let (sandbox, lists) = try Self.make()
        // ulimit -f counts 512-byte blocks: no file tick writes may pass 1,024 bytes, and the list
        // is larger, so the journal entry that precedes every change cannot be written.
        let text = (1...100).map { "- [ ] task \($0)\n" }.joined()
        try sandbox.write("lists/a.md", text)
        expectRun(try sandbox.run(["--dir", lists, "done", "task 1"]), status: 0)
        let before = FolderSnapshot(lists)
        let limited = ["/bin/sh", "-c", "ulimit -f 2 && exec \"$0\" \"$@\""]
        let full = try sandbox.run(["--dir", lists, "add", "more", "--list", "a"], launcher: limited)
        expectRun(full, status: 3, stdout: "")
        #expect(full.stderr.hasPrefix("tick: cannot write ") && full.stderr.hasSuffix("': file too large\n"),
                "\(full.stderr)")
        #expect(full.stderr.split(separator: "\n").count == 1)
        expectUnchanged(lists, since: before)
        // The next run works, and undo reverts the last change that was made, not the failed one.
        expectRun(try sandbox.run(["--dir", lists, "undo"]), status: 0, stdout: "Undid: completed \"task 1\"\n",
                  stderr: "")
        #expect(FileManager.default.contents(atPath: lists + "/a.md") == Data(text.utf8))
    }

    @Test("a folder named x.md is a folder: its lists are read, it is not one")
    func folderNamedLikeAList() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/x.md/inner.md", "- [ ] inside\n")
        let before = FolderSnapshot(lists)
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        #expect(try Self.tasks(all).map { $0["file"] as? String } == ["x.md/inner.md"])
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 1 list: no problems\n",
                  stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("a symbolic link loop is skipped with a warning naming it; check reports it, exit 1")
    func symlinkLoop() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        try FileManager.default.createSymbolicLink(atPath: lists + "/loop.md", withDestinationPath: "loop.md")
        try FileManager.default.createDirectory(atPath: lists + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: lists + "/sub/up", withDestinationPath: "..")
        let before = FolderSnapshot(lists)
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "tick: warning: skipped 'loop.md': symbolic link loop\n"
                  + "tick: warning: skipped 'sub/up': symbolic link loop\n")
        #expect(try Self.tasks(all).map { $0["title"] as? String } == ["one"])
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 1,
                  stdout: "loop.md: symbolic link loop\nsub/up: symbolic link loop\nChecked 1 list: 2 problems in 2 files\n",
                  stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("a dangling symbolic link is skipped with a warning naming it; check reports it, exit 1")
    func danglingSymlink() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/a.md", "- [ ] one\n")
        try FileManager.default.createSymbolicLink(atPath: lists + "/gone.md", withDestinationPath: "nowhere.md")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "today"]), status: 0,
                  stderr: "tick: warning: skipped 'gone.md': dangling symbolic link\n")
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 1,
                  stdout: "gone.md: dangling symbolic link\nChecked 1 list: 1 problem in 1 file\n", stderr: "")
        expectUnchanged(lists, since: before)
    }

    // MARK: - Content

    @Test("a binary file named .md is read as bytes: no crash, exact round trip, exit 0")
    func binaryFile() throws {
        let (sandbox, lists) = try Self.make()
        var rng = SeededGenerator(seed: 6)
        var bytes = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // A task after a NUL byte, so that the file holds one task whatever the random bytes make.
        bytes += [0, 0x0A, 0x0A] + Array("- [ ] after the binary part\n".utf8) + [0, 0xFF]
        try Data(bytes).write(to: URL(fileURLWithPath: lists + "/blob.md"))
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check", "--quiet"]), status: 0, stdout: "", stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--all", "--json"])
        expectRun(all, status: 0, stderr: "")
        #expect(try Self.tasks(all).contains { $0["title"] as? String == "after the binary part" })
        expectRun(try sandbox.run(["--dir", lists, "search", "binary"]), status: 0, stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("invalid UTF-8 is shown as U+FFFD and kept in the file, exit 0")
    func invalidUTF8() throws {
        let (sandbox, lists) = try Self.make()
        let bytes: [UInt8] = Array("- [ ] caf".utf8) + [0xE9] + Array(" latin-1\n- [ ] cut ".utf8) + [0xE2, 0x82]
            + Array("\n- [ ] overlong ".utf8) + [0xC0, 0xAF] + Array(" due:2026-03-14\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: lists + "/bad.md"))
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 1 list: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        #expect(try Self.tasks(all).byLine.map { $0["title"] as? String }
                == ["caf\u{FFFD} latin-1", "cut \u{FFFD}", "overlong \u{FFFD}\u{FFFD}"])
        expectRun(try sandbox.run(["--dir", lists, "today"]), status: 0,
                  stdout: "Today, Saturday Mar 14\n  5wd  [ ] overlong \u{FFFD}\u{FFFD}  due today  · bad\n", stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("lone CR line ends separate lines and tasks, and survive, exit 0")
    func carriageReturnOnly() throws {
        let (sandbox, lists) = try Self.make()
        try sandbox.write("lists/cr.md", "# Old Mac\r\r- [ ] one\r  a note\r- [x] two done:2026-03-01\r  - [ ] three\r")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 1 list: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--all", "--json"])
        expectRun(all, status: 0, stderr: "")
        let tasks = try Self.tasks(all).byLine
        #expect(tasks.map { $0["title"] as? String } == ["one", "two", "three"])
        #expect(tasks.map { $0["line"] as? Int } == [3, 5, 6])
        #expect(tasks.first?["notes"] as? String == "a note")
        #expect(tasks.map { $0["list"] as? String } == ["Old Mac", "Old Mac", "Old Mac"])
        expectUnchanged(lists, since: before)
    }

    /// A list of `count` tasks, each with a note, a due date and a tag: `count` × 96 bytes.
    static func largeList(tasks count: Int) -> String {
        var text = "# Large\n\n"
        text.reserveCapacity(count * 96)
        for i in 0..<count {
            text += "- [ ] task \(i) with a few words to make it long #tag due:2026-03-\(i % 18 + 10)\n  a note for it\n"
        }
        return text
    }

    @Test("a large list is read whole: every task found, exact round trip (scaled down; make slow runs 100 MB)")
    func largeList() throws {
        let (sandbox, lists) = try Self.make()
        let count = 20_000
        try sandbox.write("lists/large.md", Self.largeList(tasks: count))
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 1 list: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        let tasks = try Self.tasks(all)
        #expect(tasks.count == count)
        #expect(tasks.byLine.last?["title"] as? String == "task \(count - 1) with a few words to make it long #tag")
        #expect(tasks.allSatisfy { $0["notes"] as? String == "a note for it" })
        let home = try sandbox.run(["--dir", lists, "--json"])
        expectRun(home, status: 0, stderr: "")
        // Due on the 10th to the 27th of March in turn: the 10th to the 14th are today or earlier.
        let dueByToday = (0..<count).filter { $0 % 18 <= 4 }.count
        #expect(home.stdout.hasPrefix("{\"today\":\(dueByToday),"), "\(home.stdout.prefix(80))")
        expectUnchanged(lists, since: before)
    }

    @Test("a 1 MB single line is one task with its whole title, exact round trip")
    func megabyteLine() throws {
        let (sandbox, lists) = try Self.make()
        let word = String(repeating: "x", count: 1_000_000)
        try sandbox.write("lists/line.md", "- [ ] \(word) due:2026-03-14\n- [ ] after\n")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 1 list: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        let tasks = try Self.tasks(all)
        #expect(tasks.map { ($0["title"] as? String)?.utf8.count } == [1_000_000, 5])
        #expect(tasks.first?["due"] as? String == "2026-03-14")
        let search = try sandbox.run(["--dir", lists, "search", "after"])
        expectRun(search, status: 0, stdout: "h2t  [ ] after  · line\n", stderr: "")
        expectUnchanged(lists, since: before)
    }

    @Test("lines built to be slow (many tags, unmatched backticks, quotes, blank lines) are read whole")
    func pathologicalLines() throws {
        let (sandbox, lists) = try Self.make()
        // Each of these took time quadratic in its size before: ~1 MB each here.
        let count = 150_000
        try sandbox.write("lists/tags.md", "- [ ] tagged" + String(repeating: " #tag", count: count) + "\n")
        try sandbox.write("lists/ticks.md", "- [ ] ticks" + String(repeating: " `a", count: count) + "\n")
        try sandbox.write("lists/quotes.md", "- [ ] quoted " + String(repeating: "\"", count: count) + "\n")
        try sandbox.write("lists/blank.md", "- [ ] spaced\n" + String(repeating: "\n", count: count) + "  at last\n")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 4 lists: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        let tasks = try Self.tasks(all).byLine
        #expect(tasks.map { $0["file"] as? String } == ["blank.md", "quotes.md", "tags.md", "ticks.md"])
        #expect(tasks[0]["notes"] as? String == "at last")
        #expect((tasks[1]["title"] as? String)?.count == "quoted ".count + count)
        #expect((tasks[2]["tags"] as? [String])?.count == count)
        #expect((tasks[3]["title"] as? String)?.utf8.count == "ticks".count + 3 * count)
        expectUnchanged(lists, since: before)
    }

    /// `count` tasks, each a subtask of the one before (two more spaces per level).
    static func nestedList(levels count: Int) -> String {
        (0..<count).map { String(repeating: "  ", count: $0) + "- [ ] level \($0)\n" }.joined()
    }

    @Test("deeply nested tasks (1,000 levels here; make slow runs 10,000) are all found with their parents")
    func deepNesting() throws {
        let (sandbox, lists) = try Self.make()
        let levels = 1_000
        try sandbox.write("lists/deep.md", Self.nestedList(levels: levels))
        // 10,000 levels of block quotes and of list items on one line each: cheap to write, deep to parse.
        // The quotes are spaced: seven or more `>` then a space start a git conflict marker.
        try sandbox.write("lists/quotes.md", String(repeating: "> ", count: 10_000) + "- [ ] quoted\n"
                          + String(repeating: "- ", count: 10_000) + "[ ] listed\n")
        let before = FolderSnapshot(lists)
        expectRun(try sandbox.run(["--dir", lists, "check"]), status: 0, stdout: "Checked 2 lists: no problems\n",
                  stderr: "")
        let all = try sandbox.run(["--dir", lists, "all", "--json"])
        expectRun(all, status: 0, stderr: "")
        let tasks = try Self.tasks(all)
        #expect(tasks.count == levels + 2)
        let deep = tasks.filter { $0["file"] as? String == "deep.md" }
        #expect(deep.map { $0["title"] as? String } == (0..<levels).map { "level \($0)" })
        // Each task's parent is the task on the line above.
        let parents = deep.map { $0["parent"] as? String }
        let refs = deep.map { $0["ref"] as? String }
        #expect(parents.first! == nil)
        #expect(Array(parents.dropFirst()) == Array(refs.dropLast()))
        #expect(tasks.filter { $0["file"] as? String == "quotes.md" }.map { $0["title"] as? String } == ["quoted", "listed"])
        let last = try #require(refs.last ?? nil)
        let show = try sandbox.run(["--dir", lists, "show", last])
        expectRun(show, status: 0, stderr: "")
        #expect(show.stdout.hasPrefix("[ ] level \(levels - 1)\n"))
        expectUnchanged(lists, since: before)
    }
}

extension [[String: Any]] {
    /// Task objects in file order (views sort by due date and priority first).
    var byLine: [[String: Any]] {
        sorted { ($0["file"] as? String ?? "", $0["line"] as? Int ?? 0) < ($1["file"] as? String ?? "", $1["line"] as? Int ?? 0) }
    }
}
