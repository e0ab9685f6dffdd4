#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TickCore

/// `FileSystem.readStateFile`, `replaceStateFile` and `createStateDirectory`, the one way to tick's
/// state files: on the real disk (`LocalFileSystem` with absolute paths, `ConfinedFileSystem`
/// relative to the task folder) and in memory (`InMemoryFileSystem`, and `PathConfinement` over
/// it), with the same rules. Each case builds a task folder holding `.tick/` and a folder
/// `outside` beside it, and checks that nothing outside changes.
@Suite("state files through FileSystem")
struct StateFileSystemTests {
    enum Variant: CaseIterable, CustomStringConvertible {
        case disk, diskConfined, memory, memoryConfined
        var description: String {
            switch self {
            case .disk: "on disk"
            case .diskConfined: "on disk, confined"
            case .memory: "in memory"
            case .memoryConfined: "in memory, confined"
            }
        }
        var confined: Bool { self == .diskConfined || self == .memoryConfined }
    }

    /// The file system under test, and plain calls to set up and look.
    struct Setup {
        var fileSystem: any FileSystem
        /// Unconfined, with absolute paths.
        var plain: any FileSystem
        var tasks: String
        var outside: String
        var confined: Bool
        var symlink: (_ target: String, _ path: String) -> Void
        var fifo: (_ path: String) -> Void
        var memory: InMemoryFileSystem?
        var keep: AnyObject?

        /// `relative` as the file system under test names it.
        func path(_ relative: String) -> String { confined ? relative : tasks + "/" + relative }
        func absolute(_ relative: String) -> String { tasks + "/" + relative }
        func put(_ relative: String, _ text: String, mode: UInt32 = 0o600) {
            try! plain.createFile(absolute(relative), contents: Array(text.utf8), mode: mode, sync: false)
        }
        func status(_ relative: String) -> FileStatus? { (try? plain.status(absolute(relative), followSymlinks: false)) ?? nil }
        func text(_ path: String) -> String? { (try? plain.readFile(path)).map { String(decoding: $0, as: UTF8.self) } }
        /// Whether the in-memory file system was asked to read `relative` (always false on disk).
        func wasRead(_ relative: String) -> Bool {
            memory?.log.contains { $0.operation == .read && $0.path.hasSuffix(relative) } ?? false
        }
        func temporaries() -> [String] {
            ((try? plain.contents(ofDirectory: absolute(".tick"))) ?? []).filter { $0.hasSuffix(".tmp") }
        }
    }

    /// The kind of `FileSystemError` that `body` throws; nil when it throws none.
    static func failure(_ body: () throws -> Void) -> FileSystemError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return (error as? FileSystemError)?.kind
        }
    }

    static func setup(_ variant: Variant) throws -> Setup {
        var setup: Setup
        switch variant {
        case .disk, .diskConfined:
            let folder = TemporaryFolder()
            let fs = LocalFileSystem()
            try fs.createDirectory(folder.path + "/tasks/.tick", intermediates: true, mode: 0o700)
            try fs.createDirectory(folder.path + "/outside", intermediates: true, mode: 0o700)
            setup = Setup(fileSystem: fs, plain: fs, tasks: folder.path + "/tasks", outside: folder.path + "/outside",
                          confined: false, symlink: { target, path in #expect(Glibc.symlink(target, path) == 0) },
                          fifo: { path in #expect(mkfifo(path, 0o600) == 0) }, keep: folder)
        case .memory, .memoryConfined:
            let fs = InMemoryFileSystem()
            fs.mkdir("/base/tasks/.tick", mode: 0o700)
            fs.mkdir("/base/outside")
            setup = Setup(fileSystem: fs, plain: fs, tasks: "/base/tasks", outside: "/base/outside", confined: false,
                          symlink: { fs.symlink($0, at: $1) }, fifo: { fs.mkfifo($0) }, memory: fs)
        }
        try setup.plain.createFile(setup.outside + "/x", contents: Array("outside\n".utf8), mode: 0o644, sync: false)
        if variant.confined {
            setup.fileSystem = try setup.plain.confined(to: setup.tasks)
            setup.confined = true
        }
        return setup
    }

    @Test("a regular state file is read whole, and one more readable than 0600 is narrowed", arguments: Variant.allCases)
    func readsAndNarrows(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        s.put(".tick/x", "state\n", mode: 0o644)
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100) == Array("state\n".utf8))
        #expect(s.status(".tick/x")?.mode == 0o600)
        #expect(s.fileSystem.readStateFile(s.path(".tick/missing"), limit: 100) == nil)
    }

    @Test("a symbolic link in a state file's place is neither read nor written through", arguments: Variant.allCases)
    func linkedFile(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        s.symlink(s.outside + "/x", s.absolute(".tick/x"))
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100) == nil)
        try s.fileSystem.replaceStateFile(s.path(".tick/x"), contents: Array("new\n".utf8))
        #expect(s.text(s.outside + "/x") == "outside\n")
        #expect(s.status(".tick/x")?.kind == .file)
        #expect(s.status(".tick/x")?.mode == 0o600)
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100) == Array("new\n".utf8))
        #expect(s.temporaries().isEmpty)
    }

    @Test("a FIFO in a state file's place is never opened, and is replaced by a regular file", arguments: Variant.allCases)
    func fifo(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        s.fifo(s.absolute(".tick/x"))
        // On disk, opening the FIFO to read it would block this test for good.
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100) == nil)
        #expect(!s.wasRead(".tick/x"))
        try s.fileSystem.replaceStateFile(s.path(".tick/x"), contents: Array("new\n".utf8))
        #expect(s.status(".tick/x")?.kind == .file)
    }

    @Test("a state file larger than the limit is not read, its size looked at first", arguments: Variant.allCases)
    func oversized(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        s.put(".tick/x", String(repeating: "a", count: 100))
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 99) == nil)
        #expect(!s.wasRead(".tick/x"))
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100)?.count == 100)
    }

    @Test("a state folder that is a symbolic link is not read, written or made through", arguments: Variant.allCases)
    func linkedFolder(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        try s.plain.removeDirectory(s.absolute(".tick"))
        s.symlink(s.outside, s.absolute(".tick"))
        #expect(s.fileSystem.readStateFile(s.path(".tick/x"), limit: 100) == nil)
        #expect(Self.failure { try s.fileSystem.replaceStateFile(s.path(".tick/x"), contents: Array("new\n".utf8)) } == .symlinkLoop)
        #expect(Self.failure { try s.fileSystem.createStateDirectory(s.path(".tick"), mode: 0o700, narrowing: true) } == .symlinkLoop)
        #expect(s.text(s.outside + "/x") == "outside\n")
        #expect(try s.plain.contents(ofDirectory: s.outside) == ["x"])
    }

    @Test("new state folders are 0700; an existing one is narrowed only when asked", arguments: Variant.allCases)
    func folderModes(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        try s.fileSystem.createStateDirectory(s.path(".tick/new"), mode: 0o700, narrowing: false)
        #expect(s.status(".tick/new")?.mode == 0o700)
        try s.plain.setMode(s.absolute(".tick/new"), 0o755)
        try s.fileSystem.createStateDirectory(s.path(".tick/new"), mode: 0o700, narrowing: false)
        #expect(s.status(".tick/new")?.mode == 0o755)
        try s.fileSystem.createStateDirectory(s.path(".tick/new"), mode: 0o700, narrowing: true)
        #expect(s.status(".tick/new")?.mode == 0o700)
        s.put(".tick/file", "")
        #expect(Self.failure { try s.fileSystem.createStateDirectory(s.path(".tick/file"), mode: 0o700, narrowing: true) } == .notADirectory)
    }

    @Test("a replace that cannot rename leaves what was there and no temporary file", arguments: Variant.allCases)
    func failedReplace(_ variant: Variant) throws {
        let s = try Self.setup(variant)
        try s.plain.createDirectory(s.absolute(".tick/x"), intermediates: false, mode: 0o700)
        s.put(".tick/x/keep", "mine\n")
        #expect(throws: FileSystemError.self) {
            try s.fileSystem.replaceStateFile(s.path(".tick/x"), contents: Array("new\n".utf8))
        }
        #expect(s.status(".tick/x")?.kind == .directory)
        #expect(s.text(s.absolute(".tick/x/keep")) == "mine\n")
        #expect(s.temporaries().isEmpty)
    }
}
