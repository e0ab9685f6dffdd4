#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// The cache must never change an answer: every query over a cached folder equals an uncached scan.
@Suite("List cache")
struct ListCacheTests {
    /// Everything a query can show, for comparison.
    func answer(_ library: Library) -> [String] {
        let now = Now(day: Day(year: 2026, month: 11, day: 30)!, minutes: 600)
        return library.tasks(in: ViewQuery(view: .all, includeCompleted: true), now: now).map { id in
            let t = library.task(id)
            return "\(library.list(id).file.path)|\(library.list(id).name)|\(library.ref(id))|\(t.title)|\(t.done)|\(t.due?.description ?? "-")|\(t.priority)|\(t.flagged)|\(t.tags)|\(t.section ?? "-")|\(library.notes(id))"
        } + ["\(library.counts(now: now))"] + library.search(["plumber"]).map { library.ref($0.id) }
    }

    func folder(_ path: String) -> Folder {
        Folder(location: FolderLocation(path: path, source: .option, exists: true), fileSystem: LocalFileSystem())
    }

    func setTimes(_ path: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test("a cached load equals an uncached scan, after edits that keep size and modification time")
    func sameSizeSameTimeEdit() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "# A\n- [ ] call the plumber due:2026-12-01\n- [ ] milk\n")
        try dir.write("b.md", "- [ ] bread #flag\n  note: plumber\n")
        setTimes(dir.path + "/a.md", seconds: 1_700_000_000)
        setTimes(dir.path + "/b.md", seconds: 1_700_000_000)
        let first = folder(dir.path).load()
        #expect(Disk.status(dir.path + "/.tick/cache") != nil)
        #expect(answer(first.library) == answer(folder(dir.path).load(useCache: false).library))

        // Same size, same modification time: only the status-change time tells.
        try dir.write("a.md", "# A\n- [x] call the plumber due:2026-12-01\n- [ ] mild\n")
        setTimes(dir.path + "/a.md", seconds: 1_700_000_000)
        let cached = folder(dir.path).load()
        let fresh = folder(dir.path).load(useCache: false)
        #expect(answer(cached.library) == answer(fresh.library))
        #expect(cached.library.task(TaskID(list: 0, index: 0)).done)
    }

    @Test("a cache written in gathered pieces and one piece larger than them reads back as an uncached scan")
    func largeCache() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        var random = SeededRandom(seed: 21)
        func words(_ count: Int) -> String {
            (0..<count).map { _ in String((0..<6).map { _ in Character(UnicodeScalar(UInt8.random(in: 0x61...0x7A, using: &random))) }) }
                .joined(separator: " ")
        }
        // Small lists first, so that pieces are pending when the large one comes; its note of
        // random words compresses to more than a write's gathered size (`ListCache.writeChunk`).
        for l in 0..<40 {
            try dir.write("l\(l).md", (0..<30).map { "- [ ] \(words(3)) plumber \($0)\n  \(words(8))\n" }.joined())
        }
        try dir.write("zz-large.md", "- [ ] the large one\n" + (0..<30_000).map { _ in "  \(words(8))\n" }.joined())
        for name in (0..<40).map({ "l\($0).md" }) + ["zz-large.md"] { setTimes(dir.path + "/" + name, seconds: 1_700_000_000) }
        _ = folder(dir.path).load()
        let cached = folder(dir.path).load()
        let large = try #require(cached.library.lists.last?.segment)
        #expect(large.storedLength > ListCache.writeChunk)
        #expect(cached.library.lists.allSatisfy { $0.segment.cacheProof?.state == .intact })
        #expect(answer(cached.library) == answer(folder(dir.path).load(useCache: false).library))
        #expect(cached.library.lists.allSatisfy { $0.segment.cacheProof?.state == .intact })
    }

    @Test("lists added and removed behind tick's back show up at once")
    func addedAndRemoved() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n")
        _ = folder(dir.path).load()
        try dir.write("b.md", "- [ ] two\n")
        let added = folder(dir.path).load()
        #expect(added.library.lists.map(\.file.path) == ["a.md", "b.md"])
        #expect(answer(added.library) == answer(folder(dir.path).load(useCache: false).library))
        try Disk.remove(dir.path + "/a.md")
        let removed = folder(dir.path).load()
        #expect(removed.library.lists.map(\.file.path) == ["b.md"])
        #expect(answer(removed.library) == answer(folder(dir.path).load(useCache: false).library))
    }

    @Test("a list changed within the racy window of the cache's writing is parsed again, not trusted")
    func racyEntries() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n")
        _ = folder(dir.path).load()  // written now: a.md's entry is racy
        let cached = try #require(ListCache(folder: folder(dir.path), environment: [:])?.load())
        let file = try #require(folder(dir.path).scan().lists.first)
        #expect(cached.lookup(file).needsCheck)
    }

    @Test("a list unchanged for longer than the racy window is served from the cache")
    func servedFromCache() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n")
        setTimes(dir.path + "/a.md", seconds: 1_700_000_000)
        _ = folder(dir.path).load()
        let cached = try #require(ListCache(folder: folder(dir.path), environment: [:])?.load())
        let file = try #require(folder(dir.path).scan().lists.first)
        let segment = try #require(cached.lookup(file).hit)
        #expect(segment.taskCount == 1)
    }

    @Test("each list finds its own cached entry, by position while the lists are the same and by path once one is added or removed")
    func entriesByPositionAndPath() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        // Each list holds as many tasks as its place, so that an entry shows whose it is.
        for (k, name) in ["a.md", "b.md", "c.md"].enumerated() {
            try dir.write(name, String(repeating: "- [ ] task\n", count: k + 1))
            setTimes(dir.path + "/" + name, seconds: 1_700_000_000)
        }
        _ = folder(dir.path).load()
        let cached = try #require(ListCache(folder: folder(dir.path), environment: [:])?.load())
        let files = folder(dir.path).scan().lists
        let same = cached.entries(for: files)
        #expect(same.samePaths)
        #expect(same.entries.map { $0?.1.taskCount } == [1, 2, 3])

        // b.md gone and d.md new: the others found by path, d.md not at all.
        try Disk.remove(dir.path + "/b.md")
        try dir.write("d.md", "- [ ] new\n")
        let changed = cached.entries(for: folder(dir.path).scan().lists)
        #expect(!changed.samePaths)
        #expect(changed.entries.map { $0?.1.taskCount } == [1, 3, nil])
        #expect(folder(dir.path).scan().lists.map(\.path) == ["a.md", "c.md", "d.md"])
    }

    @Test("TICK_NO_CACHE turns the cache off, and a folder without .tick caches under XDG_CACHE_HOME")
    func cacheLocation() throws {
        let dir = TemporaryFolder()
        let home = TemporaryFolder()
        try dir.write("a.md", "- [ ] one\n")
        #expect(ListCache(folder: folder(dir.path), environment: ["TICK_NO_CACHE": "1"]) == nil)
        let cache = try #require(ListCache(folder: folder(dir.path), environment: ["XDG_CACHE_HOME": home.path]))
        #expect(cache.path.hasPrefix(home.path + "/tick/"))
        _ = folder(dir.path).load(environment: ["XDG_CACHE_HOME": home.path])
        #expect(Disk.status(cache.path) != nil)
        #expect(Disk.status(dir.path + "/.tick") == nil)
    }

    @Test("a cache file of another layout or garbage is ignored")
    func corruptCache() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", "- [ ] one\n")
        try dir.write(".tick/cache", String(repeating: "garbage ", count: 100))
        let loaded = folder(dir.path).load()
        #expect(answer(loaded.library) == answer(folder(dir.path).load(useCache: false).library))
    }

    /// A folder of `count` small lists, each dated back out of the racy window.
    func smallLists(_ count: Int) throws -> TemporaryFolder {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        for l in 0..<count {
            try dir.write("l\(l).md", "# List \(l)\n- [ ] call the plumber \(l)\n  a note\n- [x] milk \(l) #flag\n")
            setTimes(dir.path + "/l\(l).md", seconds: 1_700_000_000)
        }
        return dir
    }

    @Test("tails compressed ahead of a change make the cache byte for byte that compressing them at the write makes")
    func tailsAhead() throws {
        // More lists than two batches, so that the batches after the one compressed ahead are
        // compressed while the one before them is written.
        let dir = try smallLists(ListCache.compressedBatch * 2 + 40)
        let opened = folder(dir.path).load(saveCache: false)
        let ahead = ListCache.TailBatch.ahead(of: opened.library)
        #expect(ahead.segments.count == ListCache.compressedBatch)
        // The change replaces a list within the batch compressed ahead: its new segment is
        // compressed at the write, never given the tail of the segment it replaced.
        let path = "l1.md", bytes: [UInt8] = Array("# List 1\n- [x] call the plumber 1\n  a longer note now\n".utf8)
        try dir.write(path, String(decoding: bytes, as: UTF8.self))
        let status = try #require(folder(dir.path).scan().lists.first { $0.path == path }?.status)
        let changed = opened.library.replacing([path: folder(dir.path).document(bytes)], in: folder(dir.path),
                                               statuses: [path: status])
        let cache = try #require(ListCache(folder: folder(dir.path), environment: [:]))
        cache.save(changed, created: 1_700_000_100, ahead: ahead)
        let withAhead = try Disk.bytes(dir.path + "/.tick/cache")
        cache.save(changed, created: 1_700_000_100)
        let without = try Disk.bytes(dir.path + "/.tick/cache")
        // Compared as one truth, so that a failure does not print both caches.
        let same = withAhead == without
        #expect(same, "the cache differs by \(zip(withAhead, without).filter { $0 != $1 }.count) bytes")
        #expect(answer(folder(dir.path).load().library) == answer(changed))
        #expect(answer(folder(dir.path).load().library) == answer(folder(dir.path).load(useCache: false).library))
    }

    @Test("tails are compressed ahead only within their budget of bytes, and a cache written after is the same")
    func tailsAheadBudget() throws {
        let dir = try smallLists(10)
        let library = folder(dir.path).load(saveCache: false).library
        let tails = library.lists.map { $0.segment.length - $0.segment.coldOffset }
        #expect(ListCache.TailBatch.ahead(of: library, budget: tails[0] + tails[1] + tails[2] - 1).segments.count == 2)
        let none = ListCache.TailBatch.ahead(of: library, budget: tails[0] - 1)
        #expect(none.segments.isEmpty)
        let cache = try #require(ListCache(folder: folder(dir.path), environment: [:]))
        cache.save(library, created: 1_700_000_100, ahead: none)
        let withNone = try Disk.bytes(dir.path + "/.tick/cache")
        cache.save(library, created: 1_700_000_100)
        let same = withNone == (try Disk.bytes(dir.path + "/.tick/cache"))
        #expect(same)
    }

    @Test("a list whose tail is longer than LZ4 takes leaves no cache behind, and the folder reads the same")
    func tailTooLong() throws {
        let dir = try smallLists(3)
        let library = folder(dir.path).load(useCache: false).library
        var cache = try #require(ListCache(folder: folder(dir.path), environment: [:]))
        let longest = library.lists.map { $0.segment.length - $0.segment.coldOffset }.max()!
        cache.largestTail = longest - 1
        cache.save(library, created: 1_700_000_100)
        #expect(Disk.status(dir.path + "/.tick/cache") == nil)
        cache.largestTail = longest
        cache.save(library, created: 1_700_000_100)
        #expect(Disk.status(dir.path + "/.tick/cache") != nil)
        #expect(answer(folder(dir.path).load().library) == answer(library))
    }

    @Test("short-ref lengths measured ahead are the library's own, and go only to a library of the same segments")
    func refLengthsAhead() throws {
        let dir = try smallLists(40)
        let library = folder(dir.path).load(useCache: false).library
        let ahead = try #require(RefLengthsAhead(library))
        ahead.install(in: library)
        let expected = RefIndex.shortRefLengths(of: library.lists.flatMap { $0.segment.refRecords().map(\.refHash) })
        #expect(library.refLengths.table == expected)
        // Another parse of the same lists lies elsewhere: the lengths are not given to it.
        let other = folder(dir.path).load(useCache: false).library
        ahead.install(in: other)
        #expect(other.refLengths.table == nil)
        // A library that has its lengths measures none ahead, nor one holding a list larger than
        // the bound: its change parses that list again meanwhile.
        #expect(RefLengthsAhead(library) == nil)
        let longest = other.lists.map(\.segment.length).max()!
        #expect(RefLengthsAhead(other, largest: longest - 1) == nil)
        #expect(RefLengthsAhead(other, largest: longest) != nil)
    }
}

extension CacheLookup {
    /// The segment of a hit, used as it is.
    var hit: Segment? {
        if case .hit(let segment) = self { return segment }
        return nil
    }

    /// Whether the entry is used only once its file's bytes are checked.
    var needsCheck: Bool {
        if case .verify = self { return true }
        return false
    }
}
