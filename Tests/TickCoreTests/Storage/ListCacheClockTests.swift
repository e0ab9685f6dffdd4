#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// The cache reads no clock of its own: its time stamp, which decides which entries are racy,
/// is the caller's.
@Suite("List cache clock")
struct ListCacheClockTests {
    func folder(_ path: String) -> Folder { CacheCorruptionTests.folder(path) }

    @Test("an entry is racy or not by the time stamp the caller gives, not by when the cache was written")
    func stampFromTheCaller() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n")
        let library = folder(dir.path).load(useCache: false).library
        let modified = try #require(library.lists.first?.file.status?.modified)
        let cache = try #require(ListCache(folder: folder(dir.path), environment: [:]))

        cache.save(library, created: modified + ListCache.racyWindow + 1)
        let later = try #require(cache.load())
        #expect(later.created == modified + ListCache.racyWindow + 1)
        let file = try #require(folder(dir.path).scan().lists.first)
        #expect(later.lookup(file).hit?.taskCount == 1)

        cache.save(library, created: modified + ListCache.racyWindow)
        let racy = try #require(cache.load())
        #expect(racy.lookup(file).needsCheck)
    }
}
