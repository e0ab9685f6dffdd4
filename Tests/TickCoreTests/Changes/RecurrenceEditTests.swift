import Testing
@testable import TickCore
import TickFormat

/// Repeating tasks through the task-edit vocabulary and the cache: `TaskEdit.complete`,
/// `.completeKeepingHistory`, `.skip`, `.recurrence` and `.until` applied by `TaskFolder`, and the
/// rule carried by the cache's records.
@Suite("Recurrence: task edits and the cache")
struct RecurrenceEditTests {
    static let day = Day(year: 2026, month: 12, day: 1)!

    func folder(_ files: [String: String]) throws -> (TemporaryFolder, Folder) {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        for (name, text) in files { try dir.write(name, text) }
        return (dir, Folder(location: FolderLocation(path: dir.path, source: .option, exists: true), fileSystem: LocalFileSystem()))
    }

    func id(_ title: String, in library: Library, sourceLocation: SourceLocation = #_sourceLocation) throws -> TaskID {
        let ids = (0..<library.lists.count).flatMap { l in (0..<library.lists[l].taskCount).map { TaskID(list: l, index: $0) } }
        return try #require(ids.first { library.task($0).title == title && !library.task($0).done }, sourceLocation: sourceLocation)
    }

    @Test("every rule packs into a record's 32 bits and back; other values are no rule")
    func packedRules() {
        for unit in RecurrenceRule.Unit.allCases {
            for mode in RecurrenceRule.Mode.allCases {
                for count in [1, 2, 7, 12, 99, 998, 999] {
                    let rule = RecurrenceRule(count: count, unit: unit, mode: mode)!
                    #expect(rule.packed != 0)
                    #expect(RecurrenceRule(packed: rule.packed) == rule)
                }
            }
        }
        for junk: UInt32 in [0, 1, 0x8000_0000, 0x8000_03E8, 0x8003_0001, 0x8000_5001, 0x4000_1001, 0x8004_0001] {
            #expect(RecurrenceRule(packed: junk) == nil, "\(junk)")
        }
    }

    @Test("the library carries the rule and until day, from a fresh parse and from the cache alike")
    func cacheCarriesRule() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water rec:++2w due:2026-12-07 until:2027-03-01\n- [ ] Plain\n- [ ] Bad rec:0w\n"])
        _ = dir
        let fresh = folder.load(useCache: false).library
        _ = folder.load()  // writes the cache
        let cached = folder.load().library
        for library in [fresh, cached] {
            let water = try id("Water", in: library), plain = try id("Plain", in: library)
            #expect(library.task(water).recurrence == RecurrenceRule(value: "++2w"))
            #expect(library.task(water).until == Day(year: 2027, month: 3, day: 1))
            #expect(library.recurrence(water) == RecurrenceRule(value: "++2w"))
            #expect(library.task(plain).recurrence == nil && library.task(plain).until == nil)
            #expect(library.task(try id("Bad rec:0w", in: library)).recurrence == nil)
        }
    }

    @Test("completing keeps history for several tasks of one file: each change finds its own task")
    func keepHistoryKeys() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water due:2026-11-30 rec:+1w\n  - [ ] Water\n- [ ] Water due:2026-11-29 rec:1d\n- [ ] Plain\n"])
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        let library = tasks.library
        let ids = (0..<4).map { TaskID(list: 0, index: $0) }
        let (after, edited) = try tasks.edit([ids[0], ids[2], ids[3]], [.completeKeepingHistory(on: Self.day)])
        #expect(dir.read("a.md") == "- [ ] Water due:2026-12-07 rec:+1w\n  - [ ] Water\n- [x] Water due:2026-11-30 done:2026-12-01\n"
                + "- [ ] Water due:2026-12-02 rec:1d\n- [x] Water due:2026-11-29 done:2026-12-01\n- [x] Plain done:2026-12-01\n")
        // The repeating parent did not complete its open subtask; each edited task is found again.
        #expect(edited.map(\.subtasks) == [0, 0, 0])
        #expect(edited.map { $0.after.map { after.task($0).due?.description ?? "-" } } == ["2026-12-07", "2026-12-02", "-"])
        #expect(edited.map { $0.after.map { after.task($0).done } } == [false, false, true])
        _ = library
    }

    @Test("a repeating parent whose until: day has passed completes, and takes its open subtasks with it")
    func endedParentCompletesSubtasks() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water due:2026-11-30 rec:+1w until:2026-12-06\n  - [ ] Fill\n"])
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        let (_, edited) = try tasks.edit([TaskID(list: 0, index: 0)], [.complete(on: Self.day)])
        #expect(edited.first?.subtasks == 1)
        #expect(dir.read("a.md") == "- [x] Water due:2026-11-30 rec:+1w until:2026-12-06 done:2026-12-01\n  - [x] Fill done:2026-12-01\n")
    }

    @Test("skip, rule and until edits are no-ops where they change nothing")
    func noOps() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water due:2026-11-30 rec:+1w\n- [x] Done rec:1w done:2026-11-01\n- [ ] Plain\n"])
        let library = folder.load(useCache: false).library
        #expect(library.taskCount == 3 && dir.read("a.md") != nil)
        let water = TaskID(list: 0, index: 0), done = TaskID(list: 0, index: 1), plain = TaskID(list: 0, index: 2)
        #expect(!library.leavesAsIs(.skip(today: Self.day), water))
        #expect(library.leavesAsIs(.skip(today: Self.day), done))
        #expect(library.leavesAsIs(.skip(today: Self.day), plain))
        #expect(library.leavesAsIs(.recurrence(RecurrenceRule(value: "+1w")), water))
        #expect(!library.leavesAsIs(.recurrence(nil), water))
        #expect(library.leavesAsIs(.until(nil), water))
        #expect(library.leavesAsIs(.complete(on: Self.day), done))
    }

    @Test("of two next dates from two copies, the later wins, a time counting within its day")
    func merged() {
        let a = DueDate(day: Day(year: 2026, month: 12, day: 8)!, minutes: nil)
        let b = DueDate(day: Day(year: 2026, month: 12, day: 9)!, minutes: nil)
        let c = DueDate(day: Day(year: 2026, month: 12, day: 9)!, minutes: 540)
        #expect(Recurrence.merged(a, b) == b && Recurrence.merged(b, a) == b)
        #expect(Recurrence.merged(b, c) == c && Recurrence.merged(c, b) == c)
    }

    @Test("the rule in words", arguments: [
        ("1w", "a week after done"), ("3d", "3 days after done"), ("+1w", "every week"), ("++2m", "every 2 months"),
        ("+1b", "every business day"), ("5b", "5 business days after done"), ("++1y", "every year"),
    ])
    func words(_ rule: String, _ words: String) {
        #expect(RecurrenceRule(value: rule)?.words == words)
    }

    @Test("the next occurrences: as if completed today, then each on its due date, ending at until")
    func occurrences() {
        let due = DueDate(day: Day(year: 2026, month: 1, day: 31)!, minutes: 540)
        let rule = RecurrenceRule(value: "+1m")!
        #expect(Recurrence.occurrences(rule, due: due, until: nil, today: Self.day, count: 3).map(\.description)
                == ["2026-02-28T09:00", "2026-03-28T09:00", "2026-04-28T09:00"])  // the day number is kept (issue 49)
        #expect(Recurrence.occurrences(rule, due: due, until: Day(year: 2026, month: 3, day: 31), today: Self.day, count: 3).count == 2)
        #expect(Recurrence.occurrences(RecurrenceRule(value: "+1w")!, due: nil, until: nil, today: Self.day, count: 3).isEmpty)
    }
}
