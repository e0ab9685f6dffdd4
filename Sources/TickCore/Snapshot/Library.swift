import Synchronization
import TickFormat

// MARK: - Lists and tasks

/// One list file, as the queries see it.
public struct TaskList: Sendable {
    public let file: ListFile
    let segment: Segment
    /// Position of its first task among all tasks of the folder.
    let firstTask: Int

    /// The display name: the first level-1 heading, else the file name without `.md`.
    public var name: String { segment.headName(segment.header.heading) ?? file.baseName }
    public var symbol: String? { segment.headName(segment.header.symbol) }
    public var color: String? { segment.headName(segment.header.color) }
    public var openCount: Int { Int(segment.header.openCount) }
    public var doneCount: Int { taskCount - openCount }
    public var taskCount: Int { segment.taskCount }
    /// How many problems reading the list found (`Document.readingProblemCount`): what a view reports.
    public var problemCount: Int { Int(segment.header.problemCount) }
}

/// A task's address: which list, and its index in that list (document order).
public struct TaskID: Hashable, Comparable, Sendable {
    /// Kept in 32 bits each, so that a million rows' ids take 8 MB, not 16.
    private let storedList: UInt32
    private let storedIndex: UInt32
    public var list: Int { Int(storedList) }
    public var index: Int { Int(storedIndex) }

    public init(list: Int, index: Int) {
        storedList = UInt32(list)
        storedIndex = UInt32(index)
    }

    /// Folder order: list path order, then document order.
    public static func < (a: TaskID, b: TaskID) -> Bool { (a.list, a.index) < (b.list, b.index) }
}

/// A task's fields, read from its record.
public struct TaskInfo: Sendable {
    public var done: Bool
    public var title: String
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    /// The value of its `id:` token, or nil.
    public var id: String?
    /// The rule of its `rec:` token (FORMAT.md 5.10), or nil.
    public var recurrence: RecurrenceRule?
    /// The day of its `until:` token, or nil.
    public var until: Day?
    public var tags: [String]
    /// 1-based line of the checkbox.
    public var line: Int
    /// Index of the enclosing task in the same list.
    public var parent: Int?
    public var section: String?
    public var depth: Int
    /// Its scheduled day (`⏳`, `[scheduled:: …]`, FORMAT.md 11), or nil.
    public var scheduled: Day? = nil
    /// Its start day (`🛫`, `[start:: …]`), or nil: before it, the task is hidden from Today and `pick`.
    public var start: Day? = nil
    /// Its Tasks plugin repetition phrase as written, or nil; without `recurrence`, one tick cannot follow.
    public var repeatPhrase: String? = nil
}

// MARK: - Library

/// The short-ref lengths of every task, computed when first needed: a command that shows a few
/// tasks measures those few against the others instead.
final class RefLengths: @unchecked Sendable {
    var table: [UInt8]?
    var singles = 0
    /// The lengths measured for the rows of a view without the table (`Library.measureRefs`), by
    /// position: made before the rows are rendered, and only read while they are.
    var measured: [Int: UInt8] = [:]

    init(_ table: [UInt8]?) { self.table = table }
}

/// Every list of a folder, as compact records, with the refs of all their tasks. Read-only.
public struct Library: Sendable {
    /// Sorted by path.
    public let lists: [TaskList]
    let refLengths: RefLengths
    let storage: SegmentStorage
    /// Number of tasks in all lists.
    public let taskCount: Int
    /// The refs that write commands retired (`.tick/retired`).
    public let retired: RetiredRefs
    /// The refs shown instead of a record's ref, by position (`Library.shownInstead`): a task named by its
    /// title ref whose title ref was retired is named by its content ref, and twins keep their refs.
    let shownInstead: [Int: UInt64]
    /// The refs shown instead, for prefix lookups.
    let insteadIndex: RefIndex
    /// From how many tasks whole-folder passes run on several threads (`inListRuns`).
    var parallelMinimum = 50_000

    init(lists: [TaskList], shortRefLengths: [UInt8]?, storage: SegmentStorage, retired: RetiredRefs) {
        self.lists = lists
        self.storage = storage
        self.retired = retired
        taskCount = lists.last.map { $0.firstTask + $0.taskCount } ?? 0
        let instead = Library.shownInstead(lists: lists, retired: retired)
        shownInstead = instead
        insteadIndex = RefIndex(instead.values.sorted().map { Ref(hash: $0) })
        // Known lengths are those among the records' refs; `refLength` adds the rest.
        self.refLengths = RefLengths(shortRefLengths)
    }

    /// The content ref of task `i` of a list (see `Ref.content`), computed from its record.
    static func contentRef(of i: Int, in list: TaskList) -> Ref {
        let segment = list.segment
        let h = segment.hot(i), c = segment.coldAndRef(i).cold, p = segment.parent(ofRead: i, h)
        let parent = p < 0 || Int(p) >= segment.taskCount ? UnsafeBufferPointer(start: nil, count: 0)
            : segment.title(of: segment.cold(Int(p)))
        return Ref.content(path: Array(list.file.path.utf8), title: segment.title(of: c), due: h.due,
                           priority: Int(h.priority), flagged: h.flagged, section: segment.section(c.section),
                           parentTitle: parent, notes: c.notes.isNone ? UnsafeBufferPointer(start: nil, count: 0) : segment.bytes(c.notes))
    }

    /// The full ref that names a task now.
    public func fullRef(_ id: TaskID) -> Ref {
        fullRef(id, hash: lists[id.list].segment.coldAndRef(id.index).ref.refHash)
    }

    /// The full ref of a task whose record's ref is `hash` (from its ref record, in a pass over every task).
    func fullRef(_ id: TaskID, hash: UInt64) -> Ref {
        if !shownInstead.isEmpty, let instead = shownInstead[position(of: id)] { return Ref(hash: instead) }
        return Ref(hash: hash)
    }

    /// Length of each task's short ref among the records' refs (retired refs and refs shown instead aside),
    /// by position (list order, then document order). The cache keeps it.
    var shortRefLengths: [UInt8] {
        if let table = refLengths.table { return table }
        // The refs are read from the records where they lie (twice), not gathered: a copy of a
        // million is eight more megabytes at a cold read's peak.
        let table = RefIndex.shortRefLengths(count: taskCount) { body in
            lists.withUnsafeBufferPointer { lists in
                for k in lists.indices {
                    for record in lists[k].segment.refRecords() { body(record.refHash) }
                }
            }
        }
        refLengths.table = table
        return table
    }

    /// The prefix length a ref needs to stand apart from every retired ref (0 for a ref that is itself retired).
    private func retiredLength(_ ref: Ref) -> Int {
        guard !retired.contains(ref.hash) else { return 0 }
        return min(max(Ref.minimumLength, retired.index.sharedPrefixLength(with: ref) + 1), Ref.fullLength)
    }

    /// Builds a library from parsed documents (tests, and lists parsed in this run).
    public init(documents: [(file: ListFile, document: Document)], retired: RetiredRefs = RetiredRefs()) {
        let storage = SegmentStorage()
        let segments = documents.map { storage.adopt(Segment.built($0.document, path: $0.file.path)) }
        self = Library.assemble(files: documents.map(\.file), segments: segments, storage: storage, retired: retired)
    }

    /// The library over `segments`; `shortRefLengths` when known (an unchanged cache), else computed.
    static func assemble(files: [ListFile], segments: [Segment], storage: SegmentStorage,
                         shortRefLengths known: [UInt8]? = nil, retired: RetiredRefs) -> Library {
        var lists: [TaskList] = []
        lists.reserveCapacity(files.count)
        var first = 0
        for (file, segment) in zip(files, segments) {
            lists.append(TaskList(file: file, segment: segment, firstTask: first))
            first += segment.taskCount
        }
        return Library(lists: lists, shortRefLengths: known?.count == first ? known : nil, storage: storage, retired: retired)
    }

    /// Every task, in folder order.
    public var ids: [TaskID] {
        lists.indices.flatMap { l in (0..<lists[l].taskCount).map { TaskID(list: l, index: $0) } }
    }

    func record(_ id: TaskID) -> TaskRecord { lists[id.list].segment.record(id.index) }

    public func list(_ id: TaskID) -> TaskList { lists[id.list] }

    public func task(_ id: TaskID) -> TaskInfo {
        let segment = lists[id.list].segment
        let r = segment.record(id.index), c = segment.cold(id.index)
        return TaskInfo(done: r.done, title: segment.string(r.title) ?? "", due: r.due,
                        doneDate: r.doneDay == .min ? nil : Day(daysSinceEpoch: Int(r.doneDay)),
                        priority: Priority(rawValue: Int(r.priority)) ?? .none, flagged: r.flagged,
                        id: segment.taskID(id.index), recurrence: RecurrenceRule(packed: c.recurrence),
                        until: c.until == .min ? nil : Day(daysSinceEpoch: Int(c.until)), tags: segment.tagNames(r.tags),
                        line: Int(r.line), parent: r.parent < 0 ? nil : Int(r.parent),
                        section: segment.section(r.section), depth: Int(r.depth),
                        scheduled: c.scheduled == .min ? nil : Day(daysSinceEpoch: Int(c.scheduled)),
                        start: c.start == .min ? nil : Day(daysSinceEpoch: Int(c.start)), repeatPhrase: segment.string(c.repeatPhrase))
    }

    public func notes(_ id: TaskID) -> String { lists[id.list].segment.string(record(id).notes) ?? "" }

    /// The position of a task among all tasks.
    public func position(of id: TaskID) -> Int { lists[id.list].firstTask + id.index }

    /// The short ref a row shows.
    public func ref(_ id: TaskID) -> String { fullRef(id).prefix(refLength(id)) }

    /// The length of a task's short ref: the shortest prefix, at least 3 symbols, that no other
    /// task's ref (equal refs aside) nor any retired ref shares.
    public func refLength(_ id: TaskID) -> Int {
        guard !retired.isEmpty else { return lengthAmongTasks(id) }
        let ref = fullRef(id)
        var length = retiredLength(ref)
        if shownInstead.isEmpty {
            length = max(length, lengthAmongTasks(id))
        } else {
            // Apart from every record's ref (a task shown instead is measured alone) and every ref shown instead.
            let own = shownInstead[position(of: id)] == nil ? lengthAmongTasks(id) : lengthAlone(id, hash: ref.hash)
            let apart = min(max(Ref.minimumLength, insteadIndex.sharedPrefixLength(with: ref) + 1), Ref.fullLength)
            length = max(length, own, apart)
        }
        return length
    }

    /// The length that sets `hash` apart from the records' refs of every other task.
    private func lengthAlone(_ id: TaskID, hash: UInt64) -> Int {
        Int(lengthsAlone([(position(of: id), hash)])[0])
    }

    /// The length that sets each hash apart from the records' refs of every task but the one at its
    /// position (and refs equal to it), in one pass over every ref. Only a ref sharing the first
    /// `Ref.minimumLength` symbols with a hash can make its length longer than that, so the pass
    /// keeps only the refs whose first symbols are those of one of the hashes (a table of 27³
    /// marks), and each hash is measured against those alone.
    func lengthsAlone(_ hashes: [(position: Int, hash: UInt64)]) -> [UInt8] {
        var modulus: UInt64 = 1
        for _ in 0..<Ref.minimumLength { modulus *= 27 }
        var wanted = [Bool](repeating: false, count: Int(modulus))
        for (_, hash) in hashes { wanted[Int(hash % modulus)] = true }
        // The records' refs that share the first symbols with one of the hashes, by those symbols.
        var near: [UInt64: [(position: Int, hash: UInt64)]] = [:]
        var position = 0
        for list in lists {
            let segment = list.segment
            for i in 0..<list.taskCount {
                let hash = segment.refRecord(i).refHash
                let key = hash % modulus
                if wanted[Int(key)] { near[key, default: []].append((position + i, hash)) }
            }
            position += list.taskCount
        }
        return hashes.map { me in
            var longest = 0
            for other in near[me.hash % modulus] ?? [] where other.position != me.position && other.hash != me.hash {
                longest = max(longest, commonPrefixLength(me.hash, other.hash))
            }
            return UInt8(min(max(Ref.minimumLength, longest + 1), Ref.fullLength))
        }
    }

    private func lengthAmongTasks(_ id: TaskID) -> Int {
        if let table = refLengths.table { return Int(table[position(of: id)]) }
        if let length = refLengths.measured[position(of: id)] { return Int(length) }
        // A few lookups measure the task against all others; many build the whole table once.
        refLengths.singles += 1
        if refLengths.singles > Library.singleRefLookups { return Int(shortRefLengths[position(of: id)]) }
        return lengthAlone(id, hash: record(id).refHash)
    }

    /// How many refs are measured one by one, each against every task, before the whole table of
    /// lengths is made instead.
    static let singleRefLookups = 32

    /// Measures the refs of `ids` among the records' refs together, in one pass over every ref,
    /// when the folder has no table of lengths and they are at most `measuredMaximum`; else makes
    /// the table. Called before rows are rendered, so that rendering only reads.
    func measureRefs(_ ids: [TaskID]) {
        guard refLengths.table == nil, !ids.isEmpty else { return }
        guard ids.count <= measuredMaximum else {
            _ = shortRefLengths
            return
        }
        let wanted = ids.map { id in (position(of: id), lists[id.list].segment.refRecord(id.index).refHash) }
            .filter { refLengths.measured[$0.0] == nil }
        for (k, length) in lengthsAlone(wanted).enumerated() { refLengths.measured[wanted[k].0] = length }
    }

    /// How many rows are measured together rather than by the table: one in 16 of the tasks, and
    /// at most 2,048, so that the refs kept for measuring them (those sharing their first three
    /// symbols: about one in ten of the tasks for 2,048 rows) stay few.
    var measuredMaximum: Int { min(2048, taskCount / 16) }

    /// The widest shown ref among `ids` (at least `Ref.minimumLength`). For more rows than
    /// `singleRefLookups`, they are measured together (`measureRefs`) rather than one by one.
    public func refWidth(of ids: [TaskID]) -> Int {
        if ids.count > Library.singleRefLookups { measureRefs(ids) }
        var widest = Ref.minimumLength
        for id in ids { widest = max(widest, refLength(id)) }
        return widest
    }

    /// The shown refs, with their titles, of the open tasks (or the done ones) whose shown ref
    /// starts with `typed`: what Tab completes. The refs are first matched as numbers, so that
    /// lengths are measured and strings made only for the few that can match.
    public func refs(startingWith typed: String, done: Bool) -> [(ref: String, title: String)] {
        let typed = Array(typed.utf8)
        var candidates: [TaskID] = []
        for l in lists.indices {
            let segment = lists[l].segment
            for i in 0..<lists[l].taskCount where segment.hot(i).done == done {
                let id = TaskID(list: l, index: i)
                if fullRef(id, hash: segment.refRecord(i).refHash).starts(with: typed) { candidates.append(id) }
            }
        }
        measureRefs(candidates)
        return candidates.compactMap { id in
            let fields = rowFields(id)
            let ref = Ref(hash: fields.refHash).prefix(fields.refLength)
            guard ref.utf8.starts(with: typed) else { return nil }
            return (ref, String(decoding: fields.title, as: UTF8.self))
        }
    }

    /// Whether every byte is below 0x80: eight at a time.
    @inline(__always) static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        var seen: UInt64 = 0
        while i + 8 <= bytes.count {
            seen |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            seen |= UInt64(base[i])
            i += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// Appends a task's title (UTF-8 as written; invalid sequences become U+FFFD) to `out`.
    public func appendTitle(_ id: TaskID, to out: inout [UInt8]) {
        let segment = lists[id.list].segment
        Library.appendText(segment.title(of: segment.cold(id.index)), to: &out)
    }

    /// Appends title bytes to `out` (UTF-8 as written; invalid sequences become U+FFFD).
    public static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isASCII(bytes) {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: String(decoding: bytes, as: UTF8.self).utf8)
        }
    }

    /// Starts loading the records of the row `ids[k + 16]` and the title of `ids[k + 8]`: a renderer
    /// of rows in order calls it before row `k`, so that a row finds what it reads loaded.
    public func prefetchRows(_ ids: [TaskID], at k: Int) {
        if k + 16 < ids.count {
            let id = ids[k + 16]
            lists[id.list].segment.prefetchRecords(id.index)
        }
        if k + 8 < ids.count {
            let id = ids[k + 8]
            lists[id.list].segment.prefetchTitle(id.index)
        }
    }

    /// List `l`'s hot records, proven, for a pass over every task of the lists in order: the next
    /// list's start loading meanwhile.
    func hotRecords(ofList l: Int) -> UnsafeBufferPointer<HotRecord> {
        if l + 1 < lists.count { lists[l + 1].segment.prefetchHotRecords() }
        return lists[l].segment.hotRecords()
    }

    /// What a row shows, read from the record once, without making dates or strings.
    public func rowFields(_ id: TaskID) -> (refHash: UInt64, refLength: Int, done: Bool, priority: Int, flagged: Bool,
                                           dueDay: Int32, dueMinutes: Int16, doneDay: Int32, hasNotes: Bool,
                                           title: UnsafeBufferPointer<UInt8>) {
        let segment = lists[id.list].segment
        let h = segment.hot(id.index), (c, r) = segment.coldAndRef(id.index)
        return (fullRef(id, hash: r.refHash).hash, refLength(id), h.done, Int(h.priority), h.flagged, h.dueDay,
                h.dueMinutes, h.doneDay, h.hasNotes, segment.title(of: c))
    }

    /// A task's due date, from its hot record alone.
    public func due(_ id: TaskID) -> DueDate? { lists[id.list].segment.hot(id.index).due }

    /// The rule of a task's `rec:` token (FORMAT.md 5.10), or nil: what a row's `↻` shows.
    public func recurrence(_ id: TaskID) -> RecurrenceRule? {
        let segment = lists[id.list].segment
        guard segment.hot(id.index).hasRule else { return nil }
        return RecurrenceRule(packed: segment.cold(id.index).recurrence)
    }

    /// The enclosing task of a subtask.
    public func parent(of id: TaskID) -> TaskID? {
        let p = record(id).parent
        return p < 0 ? nil : TaskID(list: id.list, index: Int(p))
    }

    /// The direct subtasks of a task, in document order.
    public func children(of id: TaskID) -> [TaskID] {
        let segment = lists[id.list].segment
        let depth = segment.cold(id.index).depth
        var result: [TaskID] = []
        var j = id.index + 1
        while j < segment.taskCount, segment.cold(j).depth > depth {
            if segment.parent(j) == Int32(id.index) { result.append(TaskID(list: id.list, index: j)) }
            j += 1
        }
        return result
    }
}
