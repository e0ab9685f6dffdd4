import Testing
@testable import TickCore

/// A task folder at `/tasks` in memory, with `files` (relative path: text) and its `.tick/`.
func memoryFolder(_ files: [String: String]) -> InMemoryFileSystem {
    let fs = InMemoryFileSystem()
    fs.mkdir("/tasks")
    fs.mkdir("/outside")
    fs.put("/outside/keep.txt", "outside the task folder\n")
    for (path, text) in files { fs.put("/tasks/" + path, text) }
    return fs
}

/// Expects `body` to throw exactly `expected`.
func expectError<E: Error & Equatable>(_ expected: E, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("no error; expected \(expected)", sourceLocation: sourceLocation)
    } catch let error as E {
        #expect(error == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

/// The writer's steps, each failed in turn on the in-memory file system: the list keeps its whole
/// old content, no temporary file stays beside it, the error is the documented one, and the failed
/// change is not undoable.
@Suite("writer steps that fail")
struct WriterStepTests {
    static let old = "- [ ] one\n"
    static let new = "- [ ] one\n- [ ] two\n"

    /// Each step of a one-file change, where it fails, and the error tick reports.
    static let steps: [(operation: InMemoryFileSystem.Operation, path: String, error: StorageError)] = [
        (.create, ".a.md.tick-", .io(FileSystemError(path: "a.md", operation: "write", code: Errno.noSpace))),
        (.write, ".a.md.tick-", .io(FileSystemError(path: "a.md", operation: "write", code: Errno.noSpace))),
        (.sync, ".a.md.tick-", .io(FileSystemError(path: "a.md", operation: "write", code: Errno.noSpace))),
        (.exchange, "/a.md", .io(FileSystemError(path: "a.md", operation: "write", code: Errno.noSpace))),
        (.create, "journal/.00000001/0.before", .io(FileSystemError(path: "/tasks/.tick/journal/.00000001/0.before",
                                                                    operation: "create", code: Errno.noSpace))),
        (.write, "journal/.00000001/meta", .io(FileSystemError(path: "/tasks/.tick/journal/.00000001/meta",
                                                               operation: "write", code: Errno.noSpace))),
        (.rename, "journal/00000001", .io(FileSystemError(path: "/tasks/.tick/journal/00000001",
                                                          operation: "rename", code: Errno.noSpace))),
    ]

    @Test("a failure at any step of a one-file change leaves the list whole and old, with the documented error",
          arguments: 0..<steps.count)
    func oneFileStep(_ k: Int) throws {
        let step = Self.steps[k]
        let fs = memoryFolder(["a.md": Self.old])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.fail(step.operation, path: step.path, with: Errno.noSpace)
        expectError(step.error) { try writer.change("add two", path: "a.md", appending("- [ ] two")) }
        #expect(fs.text("/tasks/a.md") == Self.old)
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["a.md"])
        expectError(StorageError.nothingToUndo) { _ = try writer.undo(force: false) }
        // The next writer finds nothing to recover and writes the change.
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes == [])
        try next.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(fs.text("/tasks/a.md") == Self.new)
    }

    @Test("a failure at any step of the second file of a move rolls the first back: both lists whole and old",
          arguments: [InMemoryFileSystem.Operation.create, .write, .sync, .exchange])
    func secondFileStep(_ operation: InMemoryFileSystem.Operation) throws {
        let fs = memoryFolder(["from.md": "- [ ] keep\n- [ ] move me\n", "to.md": "- [ ] there\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.fail(operation, path: operation == .exchange ? "/from.md" : ".from.md.tick-", with: Errno.io)
        expectError(StorageError.io(FileSystemError(path: "from.md", operation: "write", code: Errno.io))) {
            try writer.change("move", [("to.md", appending("- [ ] move me")),
                                       ("from.md", { _ in .write(Array("- [ ] keep\n".utf8)) })])
        }
        #expect(fs.lists("/tasks") == ["from.md": "- [ ] keep\n- [ ] move me\n", "to.md": "- [ ] there\n"])
        #expect(fs.tree("/tasks/.tick/journal") == [])
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes == [])
        #expect(fs.lists("/tasks") == ["from.md": "- [ ] keep\n- [ ] move me\n", "to.md": "- [ ] there\n"])
    }

    @Test("a file system without exchange falls back to a checked rename")
    func noExchange() throws {
        let fs = memoryFolder(["a.md": Self.old])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.fail(.exchange, with: Errno.invalid)
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(fs.text("/tasks/a.md") == Self.new)
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["a.md"])
    }

    @Test("state is private: .tick/ and the journal's folders 0700, their files 0600; a readable .tick/ is repaired")
    func privateState() throws {
        let fs = memoryFolder(["a.md": Self.old])
        fs.mkdir("/tasks/.tick", mode: 0o755)
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(fs.mode("/tasks/.tick") == 0o700)
        #expect(fs.mode("/tasks/.tick/journal") == 0o700)
        #expect(fs.mode("/tasks/.tick/journal/00000001") == 0o700)
        for name in ["meta", "0.before", "0.after"] { #expect(fs.mode("/tasks/.tick/journal/00000001/" + name) == 0o600, "\(name)") }
        #expect(fs.mode("/tasks/.tick/lock") == 0o600)
        #expect(fs.mode("/tasks/.tick/.gitignore") == 0o600)
    }
}
