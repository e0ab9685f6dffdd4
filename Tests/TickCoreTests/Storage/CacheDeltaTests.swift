#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// The cache is updated, never rewritten whole for a small change: a write leaves its lists'
/// segments in a delta, a read that parses a few lists does the same, and an entry whose status
/// cannot vouch for it is checked against its file's bytes instead of parsed.
@Suite("List cache: delta and checked entries")
struct CacheDeltaTests {
    typealias Damage = CacheCorruptionTests

    static func bytes(_ dir: TemporaryFolder, _ name: String) -> [UInt8]? {
        try? Disk.bytes(dir.path + "/.tick/" + name)
    }

    static func setTimes(_ path: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test("a write leaves the lists it wrote in a delta: the next read parses nothing, and the base is untouched")
    func writeUpdatesTheCache() throws {
        let dir = try Damage.makeFolder(lists: 6, tasksPerList: 5...9, seed: 11)
        let folder = Damage.folder(dir.path)
        _ = folder.load()
        let base = try #require(Self.bytes(dir, "cache"))
        #expect(Self.bytes(dir, "cache-delta") == nil)

        let tasks = try TaskFolder(folder, create: false, environment: [:])
        let id = try #require(tasks.library.ids.first { !tasks.library.task($0).done })
        _ = try tasks.edit([id], [.complete(on: Day(year: 2026, month: 11, day: 30)!)])

        #expect(Self.bytes(dir, "cache") == base)
        let delta = try #require(Self.bytes(dir, "cache-delta"))
        #expect(delta.count < base.count)
        let next = folder.load()
        #expect(next.parsedPaths.isEmpty)
        #expect(Damage.answer(next.library) == Damage.answer(folder.load(useCache: false).library))
        #expect(next.library.task(id).done)
        // Nothing was stale, so the read wrote nothing.
        #expect(Self.bytes(dir, "cache-delta") == delta)
    }

    @Test("an entry tick's write left is used only while its file holds the bytes it was built from")
    func checkedEntry() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] call the plumber\n- [ ] milk\n")
        Self.setTimes(dir.path + "/a.md", seconds: 1_700_000_000)
        let folder = Damage.folder(dir.path)
        let files = folder.scan().lists
        // A cache whose segment for a.md was built from other bytes, under a.md's own status (as when
        // someone saves right after tick's write, in the same clock tick), stamped long after the file.
        let other = Library(documents: [(files[0], Document(bytes: Array("- [ ] call the plumber\n- [ ] mild\n".utf8)))])
        let cache = try #require(ListCache(folder: folder, environment: [:]))
        let created: Int64 = 1_800_000_000 * 1_000_000_000

        cache.save(other, created: created, verify: ["a.md"])
        var loaded = folder.load(saveCache: false)
        #expect(loaded.parsedPaths == ["a.md"])
        #expect(loaded.library.task(TaskID(list: 0, index: 1)).title == "milk")

        // Without the mark, the status vouches for the entry: the proof that the mark is what checks it.
        cache.save(other, created: created)
        loaded = folder.load(saveCache: false)
        #expect(loaded.parsedPaths.isEmpty)
        #expect(loaded.library.task(TaskID(list: 0, index: 1)).title == "mild")

        // The mark on an entry built from the very bytes: used, nothing parsed.
        let same = folder.load(useCache: false).library
        cache.save(same, created: created, verify: ["a.md"])
        loaded = folder.load(saveCache: false)
        #expect(loaded.parsedPaths.isEmpty)
        #expect(loaded.library.task(TaskID(list: 0, index: 1)).title == "milk")
    }

    @Test("a racy entry whose file still holds its bytes is read, not parsed, and the cache is not rewritten")
    func racyButSame() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n- [ ] two\n")
        let folder = Damage.folder(dir.path)
        #expect(folder.load().parsedPaths == ["a.md"])
        let written = try #require(Self.bytes(dir, "cache"))
        let cached = try #require(ListCache(folder: folder, environment: [:])?.load())
        #expect(cached.lookup(try #require(folder.scan().lists.first)).needsCheck)
        let again = folder.load()
        #expect(again.parsedPaths.isEmpty)
        #expect(Self.bytes(dir, "cache") == written)
        #expect(Self.bytes(dir, "cache-delta") == nil)
    }

    @Test("a checked entry whose change is older than the racy window is settled: later reads take it on its status",
          arguments: [false, true])
    func checkedEntrySettles(writtenByTick: Bool) throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n- [ ] two\n")
        try dir.write("b.md", "- [ ] three\n")
        Self.setTimes(dir.path + "/a.md", seconds: 1_700_000_000)
        Self.setTimes(dir.path + "/b.md", seconds: 1_700_000_000)
        let folder = Damage.folder(dir.path)
        let library = folder.load(useCache: false).library
        let modified = try #require(library.lists.first?.file.status?.modified)
        let cache = try #require(ListCache(folder: folder, environment: [:]))
        // As a copied or cloned folder leaves it (stamped within the window of its files' change),
        // or as tick's own write leaves a list (marked, stamped later).
        if writtenByTick {
            cache.save(library, created: modified + 10 * ListCache.racyWindow, verify: ["a.md"])
        } else {
            cache.save(library, created: modified + ListCache.racyWindow / 2)
        }
        let file = try #require(folder.scan().lists.first)
        #expect(try #require(cache.load()).lookup(file).needsCheck)

        let read = folder.load()
        #expect(read.parsedPaths.isEmpty)
        #expect(try #require(cache.load()).lookup(file).hit?.taskCount == 2)
        // Settled, the next read writes nothing.
        let settled = try #require(Self.bytes(dir, "cache-delta") ?? Self.bytes(dir, "cache"))
        #expect(folder.load().parsedPaths.isEmpty)
        #expect((Self.bytes(dir, "cache-delta") ?? Self.bytes(dir, "cache")) == settled)
        #expect(Damage.answer(folder.load().library) == Damage.answer(library))
    }

    @Test("a read that parses a few lists writes a delta; past an eighth of the base, the base is written whole")
    func deltaThenCompaction() throws {
        let dir = try Damage.makeFolder(lists: 3, tasksPerList: 3...5, seed: 5)
        // A list whose segment alone passes the delta's limit.
        var big = "# Big\n\n"
        for t in 0..<10_000 { big += "- [ ] task number \(t) with a longer title to fill the text area #tag\(t % 7)\n" }
        try dir.write("big.md", big)
        Self.setTimes(dir.path + "/big.md", seconds: 1_700_000_000)
        let folder = Damage.folder(dir.path)
        _ = folder.load()
        let base = try #require(Self.bytes(dir, "cache"))
        #expect(base.count > ListCache.deltaMinimum)

        try dir.write("list1.md", "# List 1\n\n- [ ] changed by hand\n")
        Self.setTimes(dir.path + "/list1.md", seconds: 1_700_000_100)
        let small = folder.load()
        #expect(small.parsedPaths == ["list1.md"])
        #expect(Self.bytes(dir, "cache") == base)
        #expect(Self.bytes(dir, "cache-delta") != nil)
        #expect(folder.load().parsedPaths.isEmpty)

        try dir.write("big.md", big + "- [ ] one more\n")
        Self.setTimes(dir.path + "/big.md", seconds: 1_700_000_200)
        #expect(folder.load().parsedPaths == ["big.md"])
        #expect(Self.bytes(dir, "cache") != base)
        #expect(Self.bytes(dir, "cache-delta") == nil)
        let last = folder.load()
        #expect(last.parsedPaths.isEmpty)
        #expect(Damage.answer(last.library) == Damage.answer(folder.load(useCache: false).library))
    }

    @Test("a delta of another base is ignored")
    func deltaOfAnotherBase() throws {
        let dir = try Damage.makeFolder(lists: 3, tasksPerList: 3...5, seed: 9)
        let folder = Damage.folder(dir.path)
        _ = folder.load()
        try dir.write("list0.md", "# List 0\n\n- [ ] first change\n")
        Self.setTimes(dir.path + "/list0.md", seconds: 1_700_000_100)
        _ = folder.load()
        let firstDelta = try #require(Self.bytes(dir, "cache-delta"))
        // A new base (written whole, as after compaction), then the old delta put back beside it.
        try Disk.remove(dir.path + "/.tick/cache")
        try dir.write("list0.md", "# List 0\n\n- [ ] second change\n")
        Self.setTimes(dir.path + "/list0.md", seconds: 1_700_000_200)
        _ = folder.load()
        #expect(Self.bytes(dir, "cache-delta") == nil)
        try Disk.write(dir.path + "/.tick/cache-delta", firstDelta)
        let loaded = folder.load(saveCache: false)
        #expect(loaded.parsedPaths.isEmpty)
        #expect(loaded.library.task(TaskID(list: 0, index: 0)).title == "second change")
        #expect(Damage.answer(loaded.library) == Damage.answer(folder.load(useCache: false).library))
    }

    @Test("every single-bit flip of a small delta: no crash, and the uncached answer")
    func everyBitFlipOfTheDelta() throws {
        let dir = try Damage.makeFolder(lists: 2, tasksPerList: 3...3, seed: 13)
        let folder = Damage.folder(dir.path)
        _ = folder.load()
        try dir.write("list1.md", "# List 1\n\n- [ ] changed #flag due:2026-11-29\n  a note about the plumber\n")
        Self.setTimes(dir.path + "/list1.md", seconds: 1_700_000_100)
        let expected = Damage.answer(folder.load(useCache: false).library)
        _ = folder.load()
        let base = try #require(Self.bytes(dir, "cache"))
        let delta = try #require(Self.bytes(dir, "cache-delta"))
        let files = folder.scan().lists
        let sound = ListCache.load(try #require(MappedFile(copying: base)), delta: MappedFile(copying: delta),
                                   rebuild: { _ in nil }, damaged: {})
        #expect(folder.assemble(files, cached: sound).unchanged)
        var flips = 0
        for bit in 0..<(delta.count * 8) {
            var damaged = delta
            damaged[bit / 8] ^= 1 << UInt8(bit % 8)
            let cached = MappedFile(copying: base).flatMap {
                ListCache.load($0, delta: MappedFile(copying: damaged), rebuild: folder.rebuilder) {}
            }
            #expect(Damage.answer(folder.assemble(files, cached: cached).library) == expected, "bit \(bit)")
            flips += 1
        }
        #expect(flips == delta.count * 8)
    }
}
