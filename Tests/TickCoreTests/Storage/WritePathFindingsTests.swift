import Testing
import TickFormat
@testable import TickCore

/// The write path's findings of issue 44, each pinned on the in-memory file system: an in-place
/// writer that starts right after tick's exchange, an appender whose write lands in the file tick
/// set aside after its last check, and a failed `unlink` after a successful exchange.
@Suite("write path: stamps, set-aside files, failures after the exchange")
struct WritePathFindingsTests {
    static let w = FolderWriter.quietWindow

    @Test("a list written in place right after tick's exchange is not taken for tick's own write: the next change waits for the writer")
    func stampIsTicksBytes() throws {
        let fs = memoryFolder(["gen.md": "- [ ] old\n"])
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        var file: InMemoryFileSystem.Node?
        var sawExchange = false
        fs.beforeCall = { call in
            // Just after tick's exchange, the generator opens the list by name (tick's file),
            // truncates it and writes its first piece.
            if call.operation == .exchange { sawExchange = true } else if sawExchange, file == nil {
                let opened = fs.open("/tasks/gen.md")
                fs.write(opened, "- [ ] line 1\n", truncating: true)
                file = opened
            }
        }
        try writer.change("first", path: "gen.md", appending("- [ ] from tick 1"))
        let generator = try #require(file)
        // Its later pieces come at most W apart: during tick's waits, and after.
        var pieces = ["- [ ] line 2\n", "- [ ] line 3\n"]
        fs.beforeCall = { call in
            if call.operation == .pause, !pieces.isEmpty { fs.write(generator, pieces.removeFirst()) }
        }
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        try next.change("second", path: "gen.md", appending("- [ ] from tick 2"))
        for piece in pieces { fs.write(generator, piece) }
        #expect(fs.text("/tasks/gen.md") == "- [ ] line 1\n- [ ] line 2\n- [ ] line 3\n- [ ] from tick 2\n")
    }

    @Test("a line appended to the file tick set aside, after tick's last check, is merged in by the next run and reported")
    func lateAppendRecovered() throws {
        let fs = memoryFolder(["Work.md": "# Work\n\n- [ ] a\n"])
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let appender = fs.open("/tasks/Work.md")
        var checked = false, appended = false
        fs.beforeCall = { call in
            // The appender opened the list before the exchange; its write lands once tick has
            // checked the file it set aside (read, then status), as tick tidies that file away.
            if call.operation == .status, call.path.contains(".Work.md.tick-") { checked = true } else if checked, !appended,
               call.operation == .rename || call.operation == .remove || call.operation == .create {
                appended = true
                fs.write(appender, "- [ ] appended late\n")
            }
        }
        try writer.change("add", path: "Work.md", appending("- [ ] from tick"))
        #expect(appended)
        fs.restart()
        fs.pause(nanoseconds: Self.w)
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes == ["recovered 1 line appended to Work.md while tick wrote it"])
        #expect(fs.text("/tasks/Work.md") == "# Work\n\n- [ ] a\n- [ ] from tick\n- [ ] appended late\n")
        // Recovered once: the run after finds nothing more, and leaves nothing set aside for long.
        fs.pause(nanoseconds: FolderWriter.asideKept)
        let third = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(third.recoveryNotes == [])
        #expect(fs.tree("/tasks/.tick/aside") == [])
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["Work.md"])
    }

    @Test("a line the writer saved again on the list, after its first save landed in the set-aside file, is not recovered twice")
    func lateAppendSavedAgain() throws {
        let fs = memoryFolder(["Work.md": "# Work\n\n- [ ] a\n"])
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let appender = fs.open("/tasks/Work.md")
        var checked = false, appended = false
        fs.beforeCall = { call in
            if call.operation == .status, call.path.contains(".Work.md.tick-") { checked = true } else if checked, !appended,
               call.operation == .rename || call.operation == .remove || call.operation == .create {
                appended = true
                fs.write(appender, "- [ ] appended late\n")
            }
        }
        // tick's change rewrites a line, so the set-aside file's old line is not in the list.
        try writer.change("done", path: "Work.md") { _ in .write(Array("# Work\n\n- [x] a\n".utf8)) }
        #expect(appended)
        // The writer noticed its file was replaced and saved its line again, on the list.
        fs.append("/tasks/Work.md", "- [ ] appended late\n")
        fs.restart()
        fs.pause(nanoseconds: Self.w)
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes == [])
        #expect(fs.text("/tasks/Work.md") == "# Work\n\n- [x] a\n- [ ] appended late\n")
    }

    @Test("a set-aside file keeps the list's mode under a private folder")
    func setAsideKeepsMode() throws {
        let fs = memoryFolder([:])
        fs.put("/tasks/secret.md", "- [ ] a\n", mode: 0o600)
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add", path: "secret.md", appending("- [ ] b"))
        let kept = fs.tree("/tasks/.tick/aside").filter { !$0.contains(".") }
        #expect(kept.count == 1)
        #expect(kept.first.flatMap { fs.mode("/tasks/.tick/aside/" + $0) } == 0o600)
        #expect(fs.mode("/tasks/.tick/aside") == 0o700)
    }

    /// `mv` and `rm` with the `k`-th `unlink` failing (EIO): whatever tick reports, after the next
    /// run every task is in exactly one list (the old state or the new one), a change in effect
    /// can be undone, and no run deletes the only copy of a list.
    @Test("a failed unlink never loses or duplicates a task, nor makes a change unreachable for undo",
          arguments: ["mv", "rm"], [1, 2, 3])
    func failedUnlink(_ command: String, _ k: Int) throws {
        let fs = memoryFolder(["a.md": "- [ ] alpha\n- [ ] beta\n", "b.md": "- [ ] gamma\n"])
        let old = fs.lists("/tasks")
        let m = try openMutator(fs)
        fs.fail(.remove, with: Errno.io, occurrence: k)
        let key = TaskKey(path: "a.md", title: "beta", occurrence: 0)
        let succeeded = (try? command == "mv" ? m.move([key], to: "b.md") : m.remove([key])) != nil
        fs.restart()
        _ = try FolderWriter(root: "/tasks", fileSystem: fs)
        let after = fs.lists("/tasks")
        let new = command == "mv" ? ["a.md": "- [ ] alpha\n", "b.md": "- [ ] gamma\n- [ ] beta\n"] : ["a.md": "- [ ] alpha\n", "b.md": "- [ ] gamma\n"]
        #expect(after == old || after == new, "\(after)")
        if succeeded { #expect(after == new) }
        if after == new {
            _ = try openMutator(fs).undo(force: false)
            #expect(fs.lists("/tasks") == old)
        }
        #expect(fs.tree("/tasks").allSatisfy { $0.hasPrefix(".tick") || $0.hasSuffix(".md") }, "\(fs.tree("/tasks"))")
    }

    @Test("a .tick/aside that is a link out of the folder is replaced by a folder of tick's own; nothing is written outside")
    func asideLinkOut() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        fs.mkdir("/tasks/.tick", mode: 0o700)
        fs.symlink("/outside", at: "/tasks/.tick/aside")
        let outside = fs.fingerprint("/outside")
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add", path: "a.md", appending("- [ ] two"))
        #expect(fs.fingerprint("/outside") == outside)
        #expect(fs.mode("/tasks/.tick/aside") == 0o700)
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] two\n")
    }

    @Test("a set-aside record naming a path that is not a list inside the folder is removed with a note, never acted on")
    func asideRecordOutside() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        fs.mkdir("/tasks/.tick", mode: 0o700)
        fs.mkdir("/tasks/.tick/aside", mode: 0o700)
        fs.put("/tasks/.tick/aside/1.meta", "path ../outside/keep.md\ninode 1\nsize 0\nmodified 0\nat 0\n")
        fs.put("/tasks/.tick/aside/1", "- [ ] planted\n")
        let outside = fs.fingerprint("/outside")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(writer.recoveryNotes == ["ignored the set-aside record .tick/aside/1.meta: it makes no sense; removed"])
        #expect(fs.fingerprint("/outside") == outside)
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n")
        #expect(fs.tree("/tasks/.tick/aside") == [])
    }

    @Test("a set-aside file that is a second name of a file elsewhere is never read into a list")
    func asideHardLinkPlanted() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        fs.put("/outside/secret.txt", "- [ ] secret\n")
        fs.mkdir("/tasks/.tick", mode: 0o700)
        fs.mkdir("/tasks/.tick/aside", mode: 0o700)
        try fs.link("/outside/secret.txt", to: "/tasks/.tick/aside/1")
        let inode = try #require(try fs.status("/outside/secret.txt")).inode
        fs.put("/tasks/.tick/aside/1.meta", "path a.md\ninode \(inode)\nsize 0\nmodified 0\nat 0\n")
        fs.put("/tasks/.tick/aside/1.base", "")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(writer.recoveryNotes == [])
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n")
        #expect(fs.text("/outside/secret.txt") == "- [ ] secret\n")
        #expect(fs.tree("/tasks/.tick/aside") == [])
    }

    @Test("a leftover temporary file holding bytes that no list or journal entry holds is kept as a backup, not removed")
    func leftoverOnlyCopyKept() throws {
        let fs = memoryFolder(["a.md": "- [ ] alpha\n"])
        fs.put("/tasks/.a.md.tick-99-1", "- [ ] only here\n")
        fs.put("/tasks/.a.md.tick-99-2", "- [ ] alpha\n")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(writer.recoveryNotes.count == 2)
        let backups = fs.tree("/tasks").filter { $0.hasPrefix("a.md.tick-backup-") }
        #expect(backups.count == 1)
        #expect(backups.first.flatMap { fs.text("/tasks/" + $0) } == "- [ ] only here\n")
        #expect(!fs.exists("/tasks/.a.md.tick-99-1") && !fs.exists("/tasks/.a.md.tick-99-2"))
    }
}
