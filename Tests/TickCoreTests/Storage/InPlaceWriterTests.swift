import Testing
@testable import TickCore

/// A program writing a list in place (`generator > list.md`: truncate, then pieces at most the
/// window W apart) while tick writes it. The in-memory clock moves only when tick pauses, and the
/// writer writes its next piece during tick's pause, so each race is pinned, with no real time.
@Suite("in-place writers and the window W")
struct InPlaceWriterTests {
    static let w = FolderWriter.quietWindow

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
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        fs.pause(nanoseconds: Self.w)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.restart()
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(!fs.log.contains { $0.operation == .pause })
    }
}
