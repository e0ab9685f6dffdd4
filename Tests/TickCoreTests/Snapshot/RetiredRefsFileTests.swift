#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// `.tick/retired` is a state file like `.tick/pick`: reached only through a real `.tick` folder.
@Suite("retired refs file")
struct RetiredRefsFileTests {
    @Test("a .tick that is a link to another folder: the retired refs are neither read nor written through it")
    func linkedStateFolder() throws {
        let folder = TemporaryFolder()
        let elsewhere = TemporaryFolder()
        try RetiredRefs([Ref(hash: 7)]).save(root: elsewhere.path, fileSystem: LocalFileSystem())  // no .tick there: nothing written
        #expect(elsewhere.read(".tick/retired") == nil)
        try Disk.makeFolder(elsewhere.path + "/.tick")
        try RetiredRefs([Ref(hash: 7)]).save(root: elsewhere.path, fileSystem: LocalFileSystem())
        #expect(RetiredRefs.load(root: elsewhere.path, fileSystem: LocalFileSystem()).refs == [Ref(hash: 7)])

        #expect(symlink(elsewhere.path + "/.tick", folder.path + "/.tick") == 0)
        #expect(RetiredRefs.load(root: folder.path, fileSystem: LocalFileSystem()).isEmpty)
        try RetiredRefs([Ref(hash: 9)]).save(root: folder.path, fileSystem: LocalFileSystem())
        #expect(RetiredRefs.load(root: elsewhere.path, fileSystem: LocalFileSystem()).refs == [Ref(hash: 7)])
    }

    @Test("a retired file of ours readable by others is narrowed to 0600 when read")
    func narrowed() throws {
        let folder = TemporaryFolder()
        try Disk.makeFolder(folder.path + "/.tick")
        try folder.write(".tick/retired", "\(Ref(hash: 5))\n")
        #expect(chmod(folder.path + "/.tick/retired", 0o644) == 0)
        #expect(RetiredRefs.load(root: folder.path, fileSystem: LocalFileSystem()).refs == [Ref(hash: 5)])
        var info = stat()
        #expect(stat(folder.path + "/.tick/retired", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
