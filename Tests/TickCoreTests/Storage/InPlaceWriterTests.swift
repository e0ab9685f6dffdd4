import Testing
@testable import TickCore

/// A program writing a list in place (`generator > list.md`: truncate, then pieces at most the
/// window W apart) while tick writes it. The in-memory clock moves only when tick pauses, and the
/// writer writes its next piece during tick's pause, so each race is pinned, with no real time.
@Suite("in-place writers and the window W")
struct InPlaceWriterTests {
    static let w = FolderWriter.quietWindow

    /// A folder whose lists were last written W ago, opened for writing, with the log cleared.
    static func quietFolder(_ files: [String: String]) throws -> (InMemoryFileSystem, FolderWriter) {
        let fs = memoryFolder(files)
        fs.pause(nanoseconds: w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.restart()
        return (fs, writer)
    }

    @Test("pieces written into the file tick just replaced are never lost: tick puts it back and re-applies its edit")
    func piecesAfterTheExchange() throws {
        let fs = memoryFolder(["gen.md": "- [ ] old output\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        // The generator truncates the list and writes its first piece; tick starts right away.
        let file = fs.open("/tasks/gen.md")
        fs.write(file, "- [ ] line 1\n", truncating: true)
        var pieces = ["- [ ] line 2\n", "- [ ] line 3\n"]
        fs.beforeCall = { call in
            // Each of tick's pauses is at most W: the generator's next piece lands within it.
            if call.operation == .pause, !pieces.isEmpty { fs.write(file, pieces.removeFirst()) }
        }
        try writer.change("add", path: "gen.md", appending("- [ ] from tick"))
        #expect(fs.text("/tasks/gen.md") == "- [ ] line 1\n- [ ] line 2\n- [ ] line 3\n- [ ] from tick\n")
        #expect(pieces.isEmpty)
    }

    @Test("a list that never goes quiet within the limit stops tick with nothing written")
    func neverQuiet() throws {
        let fs = memoryFolder(["gen.md": "- [ ] start\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let file = fs.open("/tasks/gen.md")
        var written = 0
        fs.beforeCall = { call in
            if call.operation == .pause {
                written += 1
                fs.write(file, "- [ ] piece \(written)\n")
            }
        }
        fs.write(file, "- [ ] piece 0\n")
        expectError(StorageError.changedMeanwhile(path: "gen.md")) { try writer.change("add", path: "gen.md", appending("- [ ] from tick")) }
        let text = try #require(fs.text("/tasks/gen.md"))
        #expect(!text.contains("from tick"))
        #expect(text.hasSuffix("- [ ] piece \(written)\n"), "\(text)")
    }

    @Test("tick's own last write is known by its inode and time: consecutive tick writes do not wait")
    func ownWritesDoNotWait() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        let pausesBefore = fs.log.filter { $0.operation == .pause }.count
        #expect(pausesBefore > 0, "a list written a moment ago by someone else is waited for")
        try writer.change("add three", path: "a.md", appending("- [ ] three"))
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        try next.change("add four", path: "a.md", appending("- [ ] four"))
        #expect(fs.log.filter { $0.operation == .pause }.count == pausesBefore)
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] two\n- [ ] three\n- [ ] four\n")
    }

    @Test("a list quiet for longer than W is written without waiting")
    func quietList() throws {
        let (fs, writer) = try Self.quietFolder(["a.md": "- [ ] one\n"])
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(!fs.log.contains { $0.operation == .pause })
    }

    @Test("a save in progress is waited for before tick reads it again and before anything of tick's is in place")
    func waitsBeforeTheExchange() throws {
        let fs = memoryFolder(["gen.md": "- [ ] old output\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let file = fs.open("/tasks/gen.md")
        fs.write(file, "- [ ] line 1\n", truncating: true)
        var pieces = ["- [ ] line 2\n", "- [ ] line 3\n"]
        var exchangesWhileWriting = 0
        fs.beforeCall = { call in
            if call.operation == .exchange, !pieces.isEmpty { exchangesWhileWriting += 1 }
            if call.operation == .pause, !pieces.isEmpty { fs.write(file, pieces.removeFirst()) }
        }
        try writer.change("add", path: "gen.md", appending("- [ ] from tick"))
        #expect(exchangesWhileWriting == 0, "tick's file was swapped in while the generator was still writing")
        #expect(fs.text("/tasks/gen.md") == "- [ ] line 1\n- [ ] line 2\n- [ ] line 3\n- [ ] from tick\n")
        #expect(fs.log.filter { $0.operation == .exchange }.count == 1)
    }

    @Test("a piece written after tick's quiet check is put back at once, with no wait while tick's file is in place")
    func pieceBetweenCheckAndExchange() throws {
        let (fs, writer) = try Self.quietFolder(["gen.md": "- [ ] a\n"])
        let file = fs.open("/tasks/gen.md")
        var written = false
        var calls: [InMemoryFileSystem.Operation] = []
        fs.beforeCall = { call in
            calls.append(call.operation)
            // The writer writes its next piece just before tick's exchange, after tick found the list quiet.
            if call.operation == .exchange, !written {
                written = true
                fs.write(file, "- [ ] b\n")
            }
        }
        try writer.change("add", path: "gen.md", appending("- [ ] from tick"))
        #expect(fs.text("/tasks/gen.md") == "- [ ] a\n- [ ] b\n- [ ] from tick\n")
        let first = try #require(calls.firstIndex(of: .exchange))
        let swapBack = try #require(calls[(first + 1)...].firstIndex(of: .exchange))
        #expect(!calls[first..<swapBack].contains(.pause), "tick waited with its own file in place")
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["gen.md"])
    }

    @Test("a modification time in the future (another machine's clock) costs one window, not a failure")
    func futureTime() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        fs.setModified("/tasks/a.md", to: fs.now() + 3_600_000_000_000)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.restart()
        let start = fs.now()
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] two\n")
        let waited = fs.now() - start
        #expect(waited >= Self.w && waited < 2 * Self.w, "waited \(waited) ns")
    }

    @Test("a list rewritten with the same bytes after tick's quiet check is told by its time: the piece after it is kept")
    func sameBytesRewritten() throws {
        let (fs, writer) = try Self.quietFolder(["gen.md": "- [ ] a\n"])
        let file = fs.open("/tasks/gen.md")
        var step = 0
        fs.beforeCall = { call in
            if step == 0, call.operation == .exchange {
                // The generator starts again: it truncates and writes its first piece, the same bytes as before.
                step = 1
                fs.write(file, "- [ ] a\n", truncating: true)
            } else if step == 1, call.operation == .exchange || call.operation == .remove {
                // Its next piece lands just after tick looked at the file it moved aside.
                step = 2
                fs.write(file, "- [ ] b\n")
            }
        }
        try writer.change("add", path: "gen.md", appending("- [ ] from tick"))
        #expect(step == 2)
        #expect(fs.text("/tasks/gen.md") == "- [ ] a\n- [ ] b\n- [ ] from tick\n")
    }

    @Test("a change opened while a list is half saved waits for the save before it reads the lists")
    func openingWaitsForSaves() throws {
        let fs = memoryFolder(["gen.md": "- [ ] old output\n", "other.md": "- [ ] quiet\n"])
        fs.pause(nanoseconds: Self.w)
        let file = fs.open("/tasks/gen.md")
        fs.write(file, "- [ ] line 1\n", truncating: true)
        var pieces = ["- [ ] line 2\n", "- [ ] line 3\n"]
        fs.beforeCall = { call in
            if call.operation == .pause, !pieces.isEmpty { fs.write(file, pieces.removeFirst()) }
        }
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(pieces.isEmpty, "the writer read the lists while gen.md was half saved")
        #expect(writer.scan.lists.map(\.path) == ["gen.md", "other.md"])
        let status = try #require(writer.scan.lists.first?.status)
        #expect(status.size == "- [ ] line 1\n- [ ] line 2\n- [ ] line 3\n".utf8.count)
    }

    @Test("an appender that writes into the file tick set aside and then again into tick's file loses nothing and leaves no backup")
    func appenderOnBothFiles() throws {
        let (fs, writer) = try Self.quietFolder(["log.md": "- [ ] a\n"])
        let old = fs.open("/tasks/log.md")
        var step = 0
        fs.beforeCall = { call in
            if step == 0, call.operation == .exchange {
                // The appender appends to the list tick found quiet, just before tick's exchange ...
                step = 1
                fs.write(old, "- [ ] b\n")
            } else if step == 1, call.operation == .status {
                // ... notices its file was replaced and appends again, to the list by name: tick's file.
                step = 2
                fs.append("/tasks/log.md", "- [ ] b\n")
            }
        }
        try writer.change("add", path: "log.md", appending("- [ ] from tick"))
        #expect(step == 2)
        #expect(fs.text("/tasks/log.md") == "- [ ] a\n- [ ] from tick\n- [ ] b\n")
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["log.md"])
    }

    @Test("when the list tick left holds less than the file it set aside, that file is kept as a backup and named")
    func backupWhenSomethingWouldBeLost() throws {
        let (fs, writer) = try Self.quietFolder(["log.md": "- [ ] a\n"])
        let old = fs.open("/tasks/log.md")
        var step = 0
        fs.beforeCall = { call in
            if step == 0, call.operation == .exchange {
                step = 1
                fs.write(old, "- [ ] b\n")
            } else if step == 1, call.operation == .status {
                step = 2
                fs.saveInPlace("/tasks/log.md", "- [ ] c\n")
            }
        }
        #expect(throws: StorageError.self) { try writer.change("add", path: "log.md", appending("- [ ] from tick")) }
        #expect(fs.text("/tasks/log.md") == "- [ ] c\n")
        let backups = fs.tree("/tasks").filter { $0.contains(".tick-backup-") }
        #expect(backups.count == 1)
        #expect(backups.first.flatMap { fs.text("/tasks/" + $0) } == "- [ ] a\n- [ ] b\n")
    }

    @Test("a rename editor saving just before tick's exchange and again on tick's file: both saves and tick's change are merged in")
    func renameEditorOnBothFiles() throws {
        let (fs, writer) = try Self.quietFolder(["a.md": "- [ ] one\n"])
        var step = 0
        fs.beforeCall = { call in
            if step == 0, call.operation == .exchange {
                // The editor saves its line over the list tick found quiet, just before tick's exchange ...
                step = 1
                fs.saveByRename("/tasks/a.md", "- [ ] one\n- [ ] ed 1\n")
            } else if step == 1, call.operation == .status {
                // ... then saves its next line on top of what it finds: tick's file, without its first line.
                step = 2
                fs.saveByRename("/tasks/a.md", (fs.text("/tasks/a.md") ?? "") + "- [ ] ed 2\n")
            }
        }
        try writer.change("add", path: "a.md", appending("- [ ] from tick"))
        #expect(step == 2)
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] from tick\n- [ ] ed 2\n- [ ] ed 1\n")
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["a.md"])
    }

    @Test("a list rewritten while a change reads it, after the quiet check, is read again: its tasks are never found half saved")
    func listChangedWhileRead() throws {
        let fs = memoryFolder(["gen.md": "- [ ] one\n- [ ] two\n", "other.md": "- [ ] quiet\n"])
        fs.pause(nanoseconds: Self.w)
        let file = fs.open("/tasks/gen.md")
        var step = 0
        fs.beforeCall = { call in
            // The generator starts again just as tick reads the list: tick reads only its first piece ...
            if step == 0, call.operation == .read, call.path == "/tasks/gen.md" {
                step = 1
                fs.write(file, "- [ ] one\n", truncating: true)
            } else if step == 1, call.operation == .pause {
                // ... and the rest lands while tick waits for the list to be quiet again.
                step = 2
                fs.write(file, "- [ ] two\n- [ ] three\n")
            }
        }
        let folder = Folder(location: FolderLocation(path: "/tasks", source: .option, exists: true), fileSystem: fs)
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        #expect(step == 2)
        let library = tasks.library
        let titles = library.lists.indices.flatMap { l in (0..<library.lists[l].taskCount).map { library.task(TaskID(list: l, index: $0)).title } }
        #expect(titles == ["one", "two", "three", "quiet"])
    }
}
