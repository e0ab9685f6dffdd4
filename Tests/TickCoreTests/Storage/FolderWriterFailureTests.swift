#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TickCore

/// Writes that fail half-way: the temporary file cannot be created, or the exchange that puts it
/// in place is refused. The list must stay whole, no temporary file may stay behind, and the
/// failed change must not be undoable.
///
/// The tests run as root too, which ignores permissions, so they use failures that root meets as
/// well: a folder that disappears between tick's read and its write, and the immutable attribute
/// (`chattr +i`), which stops even root from replacing or creating a file. Where the file system
/// or the user cannot set that attribute, the tests that need it are skipped, and say so.
@Suite("Failed writes")
struct FolderWriterFailureTests {
    /// The names in a folder, sorted.
    static func names(_ path: String) -> [String] { Disk.names(path) }

    /// Expects a storage error from `operation` with this errno.
    static func expectIOFailure(code: Int32, sourceLocation: SourceLocation = #_sourceLocation,
                                _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("the change succeeded", sourceLocation: sourceLocation)
        } catch StorageError.io(let failure) {
            #expect(failure.code == code, "\(failure)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("a temporary file that cannot be created (the folder removed after the read) leaves the list whole")
    func folderRemovedAfterRead() throws {
        let folder = TemporaryFolder()
        mkdir(folder.path + "/work", 0o755)
        try folder.write("work/a.md", "- [ ] one\n")
        let writer = try FolderWriter(root: folder.path, environment: [:])
        Self.expectIOFailure(code: ENOENT) {
            try writer.change("add two", path: "work/a.md") { before in
                // Between tick's read and its write, the list's folder moves away.
                rename(folder.path + "/work", folder.path + "/moved")
                return .write((before ?? []) + Array("- [ ] two\n".utf8))
            }
        }
        #expect(folder.read("moved/a.md") == "- [ ] one\n")
        #expect(Self.names(folder.path + "/moved") == ["a.md"])
        #expect(Self.names(folder.path) == [".tick", "moved"])
        #expect(throws: StorageError.nothingToUndo) { try writer.undo(force: false) }
    }

    @Test("a list replaced by a folder after the read is not written into; the folder stays as it is")
    func listReplacedByFolder() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        let writer = try FolderWriter(root: folder.path, environment: [:])
        Self.expectIOFailure(code: EISDIR) {
            try writer.change("add two", path: "a.md") { before in
                unlink(folder.path + "/a.md")
                mkdir(folder.path + "/a.md", 0o755)
                mkdir(folder.path + "/a.md/inside", 0o755)
                return .write((before ?? []) + Array("- [ ] two\n".utf8))
            }
        }
        #expect(Disk.linkStatus(folder.path + "/a.md").map { $0.st_mode & S_IFMT } == S_IFDIR)
        #expect(Self.names(folder.path + "/a.md") == ["inside"])
        #expect(Self.names(folder.path) == [".tick", "a.md"])
    }

    @Test("an exchange refused by the file system (an immutable list) leaves the list whole and no temporary file",
          .enabled(if: Immutable.supported, "needs chattr +i: root on a file system with the immutable attribute"))
    func exchangeRefused() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        defer { Immutable.set(false, folder.path + "/a.md") }
        let writer = try FolderWriter(root: folder.path, environment: [:])
        Self.expectIOFailure(code: EPERM) {
            try writer.change("add two", path: "a.md") { before in
                Immutable.set(true, folder.path + "/a.md")
                return .write((before ?? []) + Array("- [ ] two\n".utf8))
            }
        }
        #expect(folder.read("a.md") == "- [ ] one\n")
        #expect(Self.names(folder.path) == [".tick", "a.md"])
        #expect(throws: StorageError.nothingToUndo) { try writer.undo(force: false) }
        // Deleting it fails the same way.
        Self.expectIOFailure(code: EPERM) { try writer.change("delete", path: "a.md") { _ in .delete } }
        #expect(folder.read("a.md") == "- [ ] one\n")
        #expect(Self.names(folder.path) == [".tick", "a.md"])
    }

    @Test("a temporary file refused by the file system (an immutable folder) leaves the list whole",
          .enabled(if: Immutable.supported, "needs chattr +i: root on a file system with the immutable attribute"))
    func temporaryFileRefused() throws {
        let folder = TemporaryFolder()
        mkdir(folder.path + "/work", 0o755)
        try folder.write("work/a.md", "- [ ] one\n")
        defer { Immutable.set(false, folder.path + "/work") }
        let writer = try FolderWriter(root: folder.path, environment: [:])
        Self.expectIOFailure(code: EPERM) {
            try writer.change("add two", path: "work/a.md") { before in
                Immutable.set(true, folder.path + "/work")
                return .write((before ?? []) + Array("- [ ] two\n".utf8))
            }
        }
        #expect(folder.read("work/a.md") == "- [ ] one\n")
        #expect(Self.names(folder.path + "/work") == ["a.md"])
    }

    @Test("after a failed write, the next writer opens cleanly and writes the list")
    func recoversAfterFailure() throws {
        let folder = TemporaryFolder()
        mkdir(folder.path + "/work", 0o755)
        try folder.write("work/a.md", "- [ ] one\n")
        do {
            let writer = try FolderWriter(root: folder.path, environment: [:])
            Self.expectIOFailure(code: ENOENT) {
                try writer.change("add two", path: "work/a.md") { before in
                    rename(folder.path + "/work", folder.path + "/moved")
                    return .write((before ?? []) + Array("- [ ] two\n".utf8))
                }
            }
        }
        rename(folder.path + "/moved", folder.path + "/work")
        let next = try FolderWriter(root: folder.path, environment: [:])
        #expect(next.recoveryNotes.isEmpty)
        try next.change("add three", path: "work/a.md", appending("- [ ] three"))
        #expect(folder.read("work/a.md") == "- [ ] one\n- [ ] three\n")
        #expect(try next.undo(force: false) == "add three")
        #expect(folder.read("work/a.md") == "- [ ] one\n")
    }
}

/// The immutable attribute (`chattr +i`), which even root cannot write past.
enum Immutable {
    /// Whether this process can set it on a file in the temporary folder, and it then stops root.
    static let supported: Bool = {
        let folder = TemporaryFolder()
        let probe = folder.path + "/probe"
        guard (try? folder.write("probe", "x")) != nil, set(true, probe) else { return false }
        defer { set(false, probe) }
        return unlink(probe) != 0 && errno == EPERM
    }()

    /// Runs `chattr +i` or `chattr -i`; true when it succeeded.
    @discardableResult
    static func set(_ on: Bool, _ path: String) -> Bool {
        let candidates: [String] = ["/usr/bin/chattr", "/bin/chattr"]
        guard let chattr = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chattr)
        process.arguments = [on ? "+i" : "-i", path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
