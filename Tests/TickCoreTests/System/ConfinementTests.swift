import Foundation
import Testing
@testable import TickCore

/// The file system tick's state goes through (`FileSystem.confined(to:)`): on disk
/// (`ConfinedFileSystem`, folder descriptors and O_NOFOLLOW at every component) and in memory
/// (`PathConfinement`), with the same rules. Each case builds a task folder holding `.tick/` and a
/// folder `outside` beside it, and checks that nothing outside changes.
@Suite("state confined to the task folder")
struct ConfinementTests {
    /// One kind of file system, with the few set-up calls the cases need.
    struct Setup: CustomStringConvertible {
        var description: String
        var fileSystem: any FileSystem
        var base: String
        var symlink: (_ target: String, _ path: String) -> Void
        var keep: AnyObject?
    }

    static func disk() -> Setup {
        let folder = TemporaryFolder()
        let fs = LocalFileSystem()
        try! fs.createDirectory(folder.path + "/tasks/.tick/journal", intermediates: true, mode: 0o700)
        try! fs.createDirectory(folder.path + "/outside", intermediates: true, mode: 0o700)
        try! fs.createFile(folder.path + "/outside/keep", contents: Array("mine".utf8))
        return Setup(description: "on disk", fileSystem: fs, base: folder.path,
                     symlink: { target, path in try! FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target) },
                     keep: folder)
    }

    static func memory() -> Setup {
        let fs = InMemoryFileSystem()
        fs.mkdir("/base/tasks/.tick/journal")
        fs.mkdir("/base/outside")
        try! fs.createFile("/base/outside/keep", contents: Array("mine".utf8))
        return Setup(description: "in memory", fileSystem: fs, base: "/base", symlink: { fs.symlink($0, at: $1) }, keep: fs)
    }

    static let setups: [@Sendable () -> Setup] = [disk, memory]

    /// What `outside` holds: names and contents.
    static func outside(_ setup: Setup) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for name in (try? setup.fileSystem.contents(ofDirectory: setup.base + "/outside")) ?? [] {
            found[name] = try? setup.fileSystem.readFile(setup.base + "/outside/" + name, followSymlinks: false)
        }
        return found
    }

    static func code(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch let error as FileSystemError {
            return error.code
        } catch {
            return -1
        }
    }

    @Test("ordinary calls work below the folder", arguments: [0, 1])
    func ordinary(which: Int) throws {
        let setup = Self.setups[which]()
        let state = try setup.fileSystem.confined(to: setup.base + "/tasks")
        try state.createDirectory(".tick/journal/.00000001", intermediates: false, mode: 0o700)
        try state.createFile(".tick/journal/.00000001/meta", contents: Array("state done\n".utf8), mode: 0o600, sync: true)
        try state.rename(".tick/journal/.00000001", to: ".tick/journal/00000001")
        #expect(try state.contents(ofDirectory: ".tick/journal") == ["00000001"])
        #expect(try state.readFile(".tick/journal/00000001/meta", followSymlinks: false) == Array("state done\n".utf8))
        #expect(try state.status(".tick/journal/00000001/meta", followSymlinks: false)?.mode == 0o600)
        #expect(try state.status(".tick/journal/missing", followSymlinks: false) == nil)
        #expect(try state.status(".tick/missing/deeper", followSymlinks: false) == nil)
        try state.removeTree(".tick/journal/00000001")
        #expect(try state.contents(ofDirectory: ".tick/journal").isEmpty)
        // Written where the folder's own path says, through the unconfined file system too.
        try state.createFile(".tick/probe", contents: [1], mode: 0o600, sync: false)
        #expect(try setup.fileSystem.readFile(setup.base + "/tasks/.tick/probe", followSymlinks: false) == [1])
    }

    @Test("a path that is absolute or climbs out is refused", arguments: [0, 1])
    func escapingPaths(which: Int) throws {
        let setup = Self.setups[which]()
        let state = try setup.fileSystem.confined(to: setup.base + "/tasks")
        let before = Self.outside(setup)
        for path in ["../outside/new", "/tmp/new", ".tick/../../outside/new", ".tick//x", ""] {
            #expect(Self.code { try state.createFile(path, contents: [1], mode: 0o600, sync: false) } == Errno.invalid, "\(path)")
            #expect(Self.code { _ = try state.readFile(path, followSymlinks: false) } == Errno.invalid, "\(path)")
            #expect(Self.code { try state.removeFile(path) } == Errno.invalid, "\(path)")
        }
        #expect(Self.outside(setup) == before)
    }

    @Test("a symbolic link at any component below the folder is refused, never followed", arguments: [0, 1])
    func linksRefused(which: Int) throws {
        let setup = Self.setups[which]()
        let outside = setup.base + "/outside"
        // A staging folder, an entry file and the journal folder itself, each a link to the outside.
        setup.symlink(outside, setup.base + "/tasks/.tick/journal/.00000001")
        setup.symlink(outside + "/keep", setup.base + "/tasks/.tick/journal/meta-link")
        let before = Self.outside(setup)
        let state = try setup.fileSystem.confined(to: setup.base + "/tasks")
        #expect(Self.code { try state.createFile(".tick/journal/.00000001/0.before", contents: [1], mode: 0o600, sync: false) } == Errno.loop)
        #expect(Self.code { _ = try state.contents(ofDirectory: ".tick/journal/.00000001") } == Errno.loop)
        #expect(Self.code { try state.removeFile(".tick/journal/.00000001/keep") } == Errno.loop)
        #expect(Self.code { try state.createDirectory(".tick/journal/.00000001/x", intermediates: false, mode: 0o700) } == Errno.loop)
        #expect(Self.code { _ = try state.readFile(".tick/journal/meta-link", followSymlinks: true) } == Errno.loop)
        #expect(Self.code { try state.setMode(".tick/journal/meta-link", 0o600) } == Errno.loop)
        #expect(Self.code { try state.rename(".tick/journal/.00000001/keep", to: ".tick/journal/stolen") } == Errno.loop)
        // The link itself is seen, and removed without touching its target.
        #expect(try state.status(".tick/journal/.00000001", followSymlinks: true)?.kind == .symlink)
        try state.removeTree(".tick/journal/.00000001")
        #expect(try state.status(".tick/journal/.00000001", followSymlinks: false) == nil)

        // `.tick` itself replaced by a link after the confined view was made.
        try setup.fileSystem.removeTree(setup.base + "/tasks/.tick")
        setup.symlink(outside, setup.base + "/tasks/.tick")
        #expect(Self.code { try state.createFile(".tick/keep2", contents: [1], mode: 0o600, sync: false) } == Errno.loop)
        #expect(Self.code { try state.removeTree(".tick/keep") } == Errno.loop)
        #expect(Self.code { _ = try state.lock(".tick/lock") } == Errno.loop)
        #expect(Self.outside(setup) == before)
        #expect(before["keep"] == Array("mine".utf8))
    }
}
