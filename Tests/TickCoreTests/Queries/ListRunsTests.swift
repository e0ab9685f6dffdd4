import Synchronization
import Testing
import TickFormat
@testable import TickCore

/// Whole-folder passes over a large folder run on several threads (`Library.inListRuns`): the same
/// answers as on one thread, from the files, from a sound cache and from damaged ones.
@Suite("Views, search and counts in runs of lists")
struct ListRunsTests {
    typealias Corruption = CacheCorruptionTests

    /// The library with its whole-folder passes on several threads, however few its tasks.
    static func inRuns(_ library: Library) -> Library {
        var library = library
        library.parallelMinimum = 0
        return library
    }

    /// Every view (with and without done tasks, and of one list), the home counts and searches.
    static func answer(_ library: Library) -> [String] {
        let now = Corruption.now
        var out: [String] = []
        for view in [SmartView.today, .tomorrow, .upcoming, .scheduled, .flagged, .all, .completed] {
            for includeCompleted in [false, true] {
                let viewed = library.tasksWithLevels(in: ViewQuery(view: view, includeCompleted: includeCompleted), now: now)
                out.append("\(view) \(includeCompleted): \(viewed.ids) \(viewed.levels)")
            }
            out.append("\(view) list 1: \(library.tasks(in: ViewQuery(view: view, list: 1), now: now))")
        }
        out.append("home: \(library.counts(now: now))")
        for words in [["plumber"], ["café", "call"], ["note"], ["nothing-like-this"]] {
            for includeCompleted in [false, true] {
                let hits = library.search(words, includeCompleted: includeCompleted)
                out.append("search \(words) \(includeCompleted): \(hits.map(\.id)) \(hits.map { $0.noteLine?.text })")
            }
        }
        return out
    }

    @Test("the runs cover every list once, in order, each run holding a share of the tasks")
    func runBounds() throws {
        let dir = try Corruption.makeFolder(lists: 30, tasksPerList: 1...40, seed: 5)
        let library = Self.inRuns(Corruption.folder(dir.path).load(useCache: false).library)
        let runs = library.inListRuns { $0 }
        #expect(runs.count > 1 && runs.count <= Library.runCount)
        #expect(runs.flatMap { Array($0) } == Array(library.lists.indices))
        #expect(runs.allSatisfy { !$0.isEmpty })
        // A folder below the minimum, and a single list, are one run on this thread.
        var serial = library
        serial.parallelMinimum = library.taskCount + 1
        #expect(serial.inListRuns { $0 } == [library.lists.indices])
        #expect(library.inListRuns(only: 3) { $0 } == [3..<4])
    }

    @Test("views, counts and search give the same answers in runs as on one thread")
    func sameAnswers() throws {
        let dir = try Corruption.makeFolder(lists: 24, tasksPerList: 2...40, seed: 17)
        let folder = Corruption.folder(dir.path)
        let uncached = folder.load(useCache: false).library
        #expect(uncached.taskCount < uncached.parallelMinimum)
        let expected = Self.answer(uncached)
        #expect(expected.contains { $0.hasPrefix("all false: [") && $0.count > 200 })
        #expect(Self.answer(Self.inRuns(uncached)) == expected)
        _ = folder.load()
        #expect(Self.answer(Self.inRuns(folder.load().library)) == expected)
    }

    @Test("runs proving a damaged cache on several threads give the uncached answers")
    func damagedCacheInRuns() throws {
        let (dir, folder, files, original, expected) = try Corruption.cachedFolder(
            lists: 12, tasksPerList: 4...20, seed: 23, answer: Self.answer)
        var random = SeededRandom(seed: 41)
        for round in 0..<300 {
            var damaged = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            }
            let library = Self.inRuns(Corruption.library(folder, files, cache: damaged))
            #expect(Self.answer(library) == expected, "round \(round)")
        }
        withExtendedLifetime(dir) {}  // the lists stay for the damaged segments' parses
    }

    @Test("rows are rendered in ranges, written in order, once the areas rows read are proven in every list holding a row")
    func rowRanges() throws {
        let dir = try Corruption.makeFolder(lists: 30, tasksPerList: 200...400, seed: 29)
        let folder = Corruption.folder(dir.path)
        _ = folder.load()
        let library = Self.inRuns(folder.load().library)
        // Every task but those of one list, last list first: rows in no list order.
        let rowless = 5
        let ids = Array(library.ids.filter { $0.list != rowless }.reversed())
        #expect(ids.count >= Library.parallelRows)
        let ranges = library.rowRanges(ids.count)
        #expect(ranges.count > 1)
        #expect(ranges.flatMap { Array($0) } == Array(ids.indices))
        // Each range's bytes name its rows; written in order, they are the rows in order.
        let recorder = RangeRecorder()
        var written: [UInt8] = []
        library.renderRows(ids, render: { range in
            recorder.add(range)
            return Array(range.map { "\(ids[$0].list).\(ids[$0].index)\n" }.joined().utf8)
        }, write: { written += $0 })
        #expect(String(decoding: written, as: UTF8.self) == ids.map { "\($0.list).\($0.index)\n" }.joined())
        #expect(recorder.ranges.sorted { $0.lowerBound < $1.lowerBound } == ranges)
        let proofs = library.lists.map { $0.segment.proof }
        // The areas a row reads are proven; the folded records and folded text wait for a search.
        for l in Set(ids.map(\.list)) { #expect(proofs[l]?.unproven.pointee == SegmentArea.search) }
        #expect(proofs[rowless]?.unproven.pointee == SegmentArea.all)
        #expect(proofs.allSatisfy { $0?.rendering == false })

        // Below the minimum, one range on this thread.
        var serial = library
        serial.parallelMinimum = library.taskCount + 1
        let one = RangeRecorder()
        serial.renderRows(ids, render: { range in one.add(range); return [] }, write: { _ in })
        #expect(one.ranges == [ids.indices])
    }
}

extension ListRunsTests {
    /// Each row's ref and title, rendered by `renderRows`.
    static func rendered(_ ids: [TaskID], of library: Library) -> String {
        var out: [UInt8] = []
        library.renderRows(ids, render: { range in
            Array(range.map { k in
                let fields = library.rowFields(ids[k])
                return "\(ids[k].list).\(ids[k].index) \(fields.refHash) \(String(decoding: fields.title, as: UTF8.self))\n"
            }.joined().utf8)
        }, write: { out += $0 })
        return String(decoding: out, as: UTF8.self)
    }

    @Test("rows of a few tasks of each list prove each list holding one before they render; a damaged tail is rendered from its file")
    func rowProofs() throws {
        // A fifth of each list's tasks, and no row of the last list.
        var ids: [TaskID] = []
        let (dir, folder, files, original, expected) = try Corruption.cachedFolder(
            lists: 70, tasksPerList: 250...350, seed: 37) { uncached in
            ids = uncached.ids.filter { $0.index % 5 == 2 && $0.list < 69 }
            return Self.rendered(ids, of: Self.inRuns(uncached))
        }
        #expect(ids.count >= Library.parallelRows)
        #expect(expected.split(separator: "\n").count == ids.count)

        func load(_ bytes: [UInt8]) throws -> (library: Library, mapped: MappedFile) {
            let mapped = try #require(MappedFile(copying: bytes))
            let cached = ListCache.load(mapped, rebuild: folder.rebuilder) {}
            return (Self.inRuns(folder.assemble(files, cached: cached).library), mapped)
        }
        let sound = try load(original)
        #expect(Self.rendered(ids, of: sound.library) == expected)
        for l in Set(ids.map(\.list)) {
            let proof = try #require(sound.library.lists[l].segment.cacheProof)
            #expect(proof.unproven.pointee == SegmentArea.search)
            #expect(proof.state == .intact)
        }
        #expect(sound.library.lists[69].segment.isTailCompressed)

        // A flipped bit in one row's list's compressed tail: the rows are those of the files all the same.
        var random = SeededRandom(seed: 43)
        for round in 0..<8 {
            let id = try #require(ids.randomElement(using: &random))
            let tail = Corruption.tail(of: id.list, in: original)
            var damaged = original
            damaged[Int.random(in: tail, using: &random)] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            let repaired = try load(damaged)
            #expect(Self.rendered(ids, of: repaired.library) == expected, "round \(round)")
            let proof = try #require(repaired.library.lists[id.list].segment.cacheProof)
            #expect(proof.state == .rebuilt, "round \(round)")
        }
        withExtendedLifetime(dir) {}  // the lists stay for the damaged segments' parses
    }
}

/// Collects the ranges a render is called with, from any thread.
final class RangeRecorder: @unchecked Sendable {
    private let lock = StateLock()
    private var collected: [Range<Int>] = []

    func add(_ range: Range<Int>) { lock.withLock { collected.append(range) } }
    var ranges: [Range<Int>] { lock.withLock { collected } }
}
