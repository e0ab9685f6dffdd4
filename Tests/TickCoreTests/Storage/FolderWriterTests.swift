#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore

/// A fresh temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/tick-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? LocalFileSystem().removeTree(path) }

    func write(_ name: String, _ text: String) throws {
        try Disk.write(path + "/" + name, Array(text.utf8))
    }

    func read(_ name: String) -> String? {
        (try? Disk.bytes(path + "/" + name)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// An edit that appends a task line, whatever the file holds.
func appending(_ line: String) -> ([UInt8]?) throws -> FileOutcome {
    { before in .write((before ?? []) + Array((line + "\n").utf8)) }
}

@Suite("Safe writes")
struct FolderWriterTests {
    @Test("a change replaces the file and keeps its permissions")
    func replacesAndKeepsMode() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        chmod(folder.path + "/a.md", 0o600)
        let writer = try FolderWriter(root: folder.path, environment: [:])
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        #expect(folder.read("a.md") == "- [ ] one\n- [ ] two\n")
        #expect(Disk.status(folder.path + "/a.md").map { $0.st_mode & 0o777 } == 0o600)
        #expect(folder.read(".tick/.gitignore") == "*\n!.gitignore\n")
    }

    @Test("a file with git conflict markers is refused for writing, unchanged")
    func refusesConflictMarkers() throws {
        let folder = TemporaryFolder()
        let text = "- [ ] one\n<<<<<<< HEAD\n- [ ] a\n=======\n- [ ] b\n>>>>>>> other\n"
        try folder.write("a.md", text)
        let writer = try FolderWriter(root: folder.path, environment: [:])
        #expect(throws: StorageError.conflictMarkers(path: "a.md", line: 2)) {
            try writer.change("add", path: "a.md", appending("- [ ] two"))
        }
        #expect(folder.read("a.md") == text)
    }

    @Test("a list that links inside the folder is written through; one that links outside is refused")
    func symbolicLinks() throws {
        let folder = TemporaryFolder()
        let outside = TemporaryFolder()
        try folder.write("real.md", "- [ ] one\n")
        try outside.write("far.md", "- [ ] far\n")
        symlink("real.md", folder.path + "/alias.md")
        symlink(outside.path + "/far.md", folder.path + "/far.md")
        let writer = try FolderWriter(root: folder.path, environment: [:])
        try writer.change("add", path: "alias.md", appending("- [ ] two"))
        #expect(folder.read("real.md") == "- [ ] one\n- [ ] two\n")
        #expect(Disk.linkStatus(folder.path + "/alias.md").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(throws: StorageError.self) { try writer.change("add", path: "far.md", appending("- [ ] two")) }
        #expect(outside.read("far.md") == "- [ ] far\n")
    }

    @Test("undo reverts the last change, then the one before; after an outside edit of tick's line it refuses unless forced")
    func undo() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        let writer = try FolderWriter(root: folder.path, environment: [:])
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        try writer.change("add three", path: "a.md", appending("- [ ] three"))
        #expect(try writer.undo(force: false) == "add three")
        #expect(folder.read("a.md") == "- [ ] one\n- [ ] two\n")
        try folder.write("a.md", "- [ ] one\n- [ ] two, edited by hand\n")
        #expect(throws: StorageError.changedLines(path: "a.md", lines: "line 2")) { try writer.undo(force: false) }
        #expect(try writer.undo(force: true) == "add two")
        #expect(folder.read("a.md") == "- [ ] one\n")
        #expect(throws: StorageError.nothingToUndo) { try writer.undo(force: false) }
    }

    @Test("creating and deleting files are changes too, and undo reverses them")
    func createAndDelete() throws {
        let folder = TemporaryFolder()
        try folder.write("old.md", "# Old\n")
        let writer = try FolderWriter(root: folder.path, environment: [:])
        try writer.change("rename", [("new.md", { _ in .write(Array("# New\n".utf8)) }), ("old.md", { _ in .delete })])
        #expect(folder.read("new.md") == "# New\n")
        #expect(folder.read("old.md") == nil)
        _ = try writer.undo(force: false)
        #expect(folder.read("new.md") == nil)
        #expect(folder.read("old.md") == "# Old\n")
    }

    @Test("a move interrupted after its destination was written is finished by the next run")
    func finishesInterruptedMove() throws {
        let folder = TemporaryFolder()
        try folder.write("from.md", "- [ ] keep\n- [ ] move me\n")
        try folder.write("to.md", "- [ ] there\n")
        do {
            let writer = try FolderWriter(root: folder.path, environment: [:])
            let changes = [Journal.FileChange(path: "to.md", before: Array("- [ ] there\n".utf8), after: Array("- [ ] there\n- [ ] move me\n".utf8)),
                           Journal.FileChange(path: "from.md", before: Array("- [ ] keep\n- [ ] move me\n".utf8), after: Array("- [ ] keep\n".utf8))]
            _ = try writer.journal.begin(summary: "move", changes: changes, finishOnRecovery: true, after: [])
            #expect(try writer.replace("to.md", expected: changes[0].before, with: changes[0].after))
            // The crash: the source is never written, the entry stays pending.
        }
        #expect(folder.read("from.md") == "- [ ] keep\n- [ ] move me\n")
        let next = try FolderWriter(root: folder.path, environment: [:])
        #expect(folder.read("from.md") == "- [ ] keep\n")
        #expect(folder.read("to.md") == "- [ ] there\n- [ ] move me\n")
        #expect(next.recoveryNotes.contains { $0.contains("finished an interrupted change") })
    }

    @Test("temporary files left by a killed tick are removed by the next run, and are never lists")
    func removesLeftovers() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        try folder.write(".a.md.tick-123-1", "- [ ] half written\n")
        try folder.write(".notes.tick-x", "not ours\n")
        #expect(!".a.md.tick-123-1".hasSuffix(".md"))
        let writer = try FolderWriter(root: folder.path, environment: [:])
        #expect(folder.read(".a.md.tick-123-1") == nil)
        #expect(folder.read(".notes.tick-x") == "not ours\n")
        #expect(writer.recoveryNotes.count == 1)
    }
}
