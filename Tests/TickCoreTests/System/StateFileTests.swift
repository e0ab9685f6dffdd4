#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore

/// What sits at `.tick/cache` or `.tick/pick` is untrusted: a FIFO, a folder or a symbolic link
/// there never hangs tick, is never followed or written through, and files tick writes are 0600.
@Suite("State files: hostile entries and modes")
struct StateFileTests {
    func folder(_ path: String) -> Folder {
        Folder(location: FolderLocation(path: path, source: .option, exists: true), fileSystem: LocalFileSystem())
    }

    func mode(_ path: String) -> mode_t? { Disk.linkStatus(path).map { $0.st_mode & 0o7777 } }
    func kind(_ path: String) -> mode_t? { Disk.linkStatus(path).map { $0.st_mode & S_IFMT } }

    /// A folder with one list, dated long ago, and its `.tick/`.
    func taskFolder() throws -> TemporaryFolder {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "# A\n- [ ] call the plumber due:2026-11-01\n- [x] milk\n")
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, dir.path + "/a.md", &times, 0)
        return dir
    }

    func leftovers(_ dir: TemporaryFolder) -> [String] {
        Disk.names(dir.path + "/.tick").filter { $0.hasSuffix(".tmp") }
    }

    @Test("a FIFO at .tick/cache does not hang a read, and is replaced by a regular cache file")
    func fifoCache() throws {
        let dir = try taskFolder()
        #expect(mkfifo(dir.path + "/.tick/cache", 0o600) == 0)
        let loaded = folder(dir.path).load()
        #expect(CacheCorruptionTests.answer(loaded.library)
                == CacheCorruptionTests.answer(folder(dir.path).load(useCache: false).library))
        #expect(kind(dir.path + "/.tick/cache") == S_IFREG)
        #expect(mode(dir.path + "/.tick/cache") == 0o600)
        #expect(leftovers(dir).isEmpty)
    }

    @Test("a symbolic link at .tick/cache is neither read nor written through")
    func linkedCache() throws {
        let dir = try taskFolder()
        let outside = TemporaryFolder()
        _ = folder(dir.path).load()
        // A sound cache of this very folder, behind a link: still not used, and never overwritten.
        let sound = try Disk.bytes(dir.path + "/.tick/cache")
        try outside.write("target", String(decoding: sound, as: UTF8.self))
        let before = try Disk.bytes(outside.path + "/target")
        try Disk.remove(dir.path + "/.tick/cache")
        #expect(symlink(outside.path + "/target", dir.path + "/.tick/cache") == 0)
        let cache = try #require(ListCache(folder: folder(dir.path), environment: [:]))
        #expect(cache.load() == nil)
        _ = folder(dir.path).load()
        #expect(try Disk.bytes(outside.path + "/target") == before)
        #expect(kind(dir.path + "/.tick/cache") == S_IFREG)
        #expect(cache.load() != nil)
    }

    @Test("a link to a device at .tick/cache is never opened")
    func deviceCache() throws {
        let dir = try taskFolder()
        #expect(symlink("/dev/zero", dir.path + "/.tick/cache") == 0)
        let loaded = folder(dir.path).load()
        #expect(loaded.library.taskCount == 2)
        #expect(kind(dir.path + "/.tick/cache") == S_IFREG)
    }

    @Test("a folder at .tick/cache is left alone, and the failed rename leaves no temporary file")
    func folderCache() throws {
        let dir = try taskFolder()
        try Disk.makeFolder(dir.path + "/.tick/cache")
        try dir.write(".tick/cache/keep", "mine\n")
        let loaded = folder(dir.path).load()
        #expect(loaded.library.taskCount == 2)
        #expect(kind(dir.path + "/.tick/cache") == S_IFDIR)
        #expect(dir.read(".tick/cache/keep") == "mine\n")
        #expect(leftovers(dir).isEmpty)
    }

    @Test("a .tick that is a symbolic link gets no cache through it")
    func linkedStateFolder() throws {
        let dir = TemporaryFolder()
        let outside = TemporaryFolder()
        try dir.write("a.md", "- [ ] one\n")
        #expect(symlink(outside.path, dir.path + "/.tick") == 0)
        _ = folder(dir.path).load(environment: ["XDG_CACHE_HOME": outside.path + "/xdg"])
        #expect(Disk.names(outside.path).isEmpty)
    }

    @Test("the cache file is 0600, and an existing cache more readable than that is narrowed on reading")
    func cacheMode() throws {
        let dir = try taskFolder()
        _ = folder(dir.path).load()
        #expect(mode(dir.path + "/.tick/cache") == 0o600)
        _ = folder(dir.path).load()  // a sound cache: served as it is, not rewritten
        chmod(dir.path + "/.tick/cache", 0o644)
        let inode = Disk.linkStatus(dir.path + "/.tick/cache")?.st_ino
        _ = folder(dir.path).load()
        #expect(Disk.linkStatus(dir.path + "/.tick/cache")?.st_ino == inode)
        #expect(mode(dir.path + "/.tick/cache") == 0o600)
    }

    @Test("a private list's text never lands in a file more readable than the list")
    func privateList() throws {
        let dir = try taskFolder()
        chmod(dir.path + "/a.md", 0o600)
        _ = folder(dir.path).load()
        #expect(mode(dir.path + "/.tick/cache").map { $0 & 0o077 } == 0)
        try PickMemory(root: dir.path, fileSystem: LocalFileSystem()).save(PickedTask(path: "a.md", title: "call the plumber", occurrence: 0))
        #expect(mode(dir.path + "/.tick/pick") == 0o600)
    }

    @Test("the cache folder under XDG_CACHE_HOME is created 0700, and an existing one is narrowed to 0700")
    func userCacheFolder() throws {
        let dir = TemporaryFolder()
        let home = TemporaryFolder()
        try dir.write("a.md", "- [ ] one\n")
        _ = folder(dir.path).load(environment: ["XDG_CACHE_HOME": home.path])
        #expect(mode(home.path + "/tick") == 0o700)
        let cache = try #require(ListCache(folder: folder(dir.path), environment: ["XDG_CACHE_HOME": home.path]))
        #expect(mode(cache.path) == 0o600)
        chmod(home.path + "/tick", 0o755)
        try Disk.remove(cache.path)
        _ = folder(dir.path).load(environment: ["XDG_CACHE_HOME": home.path])
        #expect(mode(home.path + "/tick") == 0o700)
        #expect(mode(cache.path) == 0o600)
    }

    @Test("a symbolic link in place of tick's folder under XDG_CACHE_HOME is not written through")
    func linkedUserCacheFolder() throws {
        let dir = TemporaryFolder()
        let home = TemporaryFolder()
        let outside = TemporaryFolder()
        try dir.write("a.md", "- [ ] one\n")
        #expect(symlink(outside.path, home.path + "/tick") == 0)
        let loaded = folder(dir.path).load(environment: ["XDG_CACHE_HOME": home.path])
        #expect(loaded.library.taskCount == 1)
        #expect(Disk.names(outside.path).isEmpty)
    }

    @Test("a FIFO, a folder or a link at .tick/pick is no current pick, and never hangs")
    func hostilePick() throws {
        let dir = TemporaryFolder()
        let outside = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        let memory = PickMemory(root: dir.path, fileSystem: LocalFileSystem())
        let picked = PickedTask(path: "a.md", title: "One", occurrence: 0)

        #expect(mkfifo(dir.path + "/.tick/pick", 0o600) == 0)
        #expect(memory.load() == nil)
        #expect(try !memory.clear())
        #expect(kind(dir.path + "/.tick/pick") == nil)

        try outside.write("target", "list: b.md\ntitle: Other\noccurrence: 0\n")
        #expect(symlink(outside.path + "/target", dir.path + "/.tick/pick") == 0)
        #expect(memory.load() == nil)
        #expect(try memory.save(picked))
        #expect(outside.read("target") == "list: b.md\ntitle: Other\noccurrence: 0\n")
        #expect(kind(dir.path + "/.tick/pick") == S_IFREG)
        #expect(memory.load() == picked)

        try Disk.remove(dir.path + "/.tick/pick")
        try Disk.makeFolder(dir.path + "/.tick/pick")
        #expect(memory.load() == nil)
        #expect(try !memory.save(picked))
        #expect(try !memory.clear())
        #expect(kind(dir.path + "/.tick/pick") == S_IFDIR)
        #expect(leftovers(dir).isEmpty)
    }

    @Test("a new .tick made for the pick is 0700, and the pick file 0600")
    func pickModes() throws {
        let dir = TemporaryFolder()
        try PickMemory(root: dir.path, fileSystem: LocalFileSystem()).save(PickedTask(path: "a.md", title: "One", occurrence: 0))
        #expect(mode(dir.path + "/.tick") == 0o700)
        #expect(mode(dir.path + "/.tick/pick") == 0o600)
        chmod(dir.path + "/.tick/pick", 0o644)
        #expect(PickMemory(root: dir.path, fileSystem: LocalFileSystem()).load() != nil)
        #expect(mode(dir.path + "/.tick/pick") == 0o600)
    }
}
