import TickFormat

// Runs a query over the library's records, the ones every view reads: the tree is flattened once
// into an array of operations, the names (lists, sections) it mentions are looked up once per
// list, and then each task costs its hot record, and its cold record and text only when a term
// needs them. No allocation per task.

/// A query compiled against one library and one moment.
public struct QueryMatcher: Sendable {
    /// One operation; children are indexes into `operations` (through `children` for AND and OR).
    enum Operation: Sendable {
        /// The days `due:`, `done:`, `scheduled:` and `start:` ask about.
        enum DayField: Sendable { case due, done, scheduled, start }

        case text(Int)
        case tag(Int)
        case list(Int)
        case section(Int)
        case state(QueryState)
        case has(QueryField, Bool)
        case priority(UInt8, UInt8)
        /// A task's `day`: `none` (no date) when `noDate`, else a date from `first` through `last`.
        case day(DayField, noDate: Bool, first: Int32, last: Int32)
        case not(Int)
        case and(Range<Int>)
        case or(Range<Int>)
    }

    let library: Library
    var operations: [Operation] = []
    var children: [Int] = []
    /// Folded words and phrases.
    var needles: [[UInt8]] = []
    /// Folded tags.
    var tags: [[UInt8]] = []
    /// For each `list:` term, whether each list is named by it.
    var lists: [[Bool]] = []
    /// For each `in:` term, for each list, whether each of its sections is named by it.
    var sections: [[[Bool]]] = []
    /// For each list, whether each task has a subtask (made only when `is:parent` is asked).
    var parents: [[Bool]] = []
    var root = 0
    let today: Int32
    let minutes: Int
    /// Whether the query says nothing about completion: then it finds open tasks only.
    public let openOnly: Bool

    public init(_ query: Query, library: Library, now: Now) {
        self.library = library
        today = Int32(now.day.daysSinceEpoch)
        minutes = now.minutes
        openOnly = !query.mentionsCompletion
        root = compile(query.root)
    }

    private mutating func compile(_ node: QueryNode) -> Int {
        let operation: Operation
        switch node {
        case .not(let child): operation = .not(compile(child))
        case .and(let nodes), .or(let nodes):
            let compiled = nodes.map { compile($0) }
            let range = children.count..<(children.count + compiled.count)
            children += compiled
            if case .and = node { operation = .and(range) } else { operation = .or(range) }
        case .term(let term):
            switch term {
            case .text(let text):
                needles.append(Folding.fold(text))
                operation = .text(needles.count - 1)
            case .tag(let tag):
                tags.append(Folding.fold(tag))
                operation = .tag(tags.count - 1)
            case .list(let name):
                lists.append(listsNamed(name))
                operation = .list(lists.count - 1)
            case .section(let name):
                let wanted = Folding.fold(name)
                sections.append(library.lists.map { list in
                    let segment = list.segment
                    return (0..<Int(segment.header.sectionCount)).map { k in
                        Folding.fold(segment.section(Int32(k)) ?? "") == wanted
                    }
                })
                operation = .section(sections.count - 1)
            case .state(let state):
                if state == .parent, parents.isEmpty {
                    parents = library.lists.map { list in
                        let segment = list.segment
                        var has = [Bool](repeating: false, count: segment.taskCount)
                        for r in segment.parentRecords() { has[Int(r.parent)] = true }
                        return has
                    }
                }
                operation = .state(state)
            case .has(let field, let has): operation = .has(field, has)
            case .priority(let lowest, let highest):
                if highest < lowest { return emptyOperation() }
                operation = .priority(UInt8(lowest), UInt8(highest))
            case .due(let filter), .doneDate(let filter), .scheduled(let filter), .start(let filter):
                let day: Operation.DayField
                switch term {
                case .doneDate: day = .done
                case .scheduled: day = .scheduled
                case .start: day = .start
                default: day = .due
                }
                let (noDate, first, last) = Self.bounds(filter)
                operation = .day(day, noDate: noDate, first: first, last: last)
            }
        }
        operations.append(operation)
        return operations.count - 1
    }

    /// An operation that matches nothing (`pri:>high`).
    private mutating func emptyOperation() -> Int {
        operations.append(.priority(1, 0))
        return operations.count - 1
    }

    private static func bounds(_ filter: DateFilter) -> (Bool, Int32, Int32) {
        switch filter {
        case .none: return (true, 0, 0)
        case .any: return (false, .min + 1, .max)
        case .range(let first, let last):
            return (false, first.map { Int32($0.daysSinceEpoch) } ?? .min + 1, last.map { Int32($0.daysSinceEpoch) } ?? .max)
        }
    }

    /// The lists `name` names: those whose name or file name is `name` ignoring case and accents,
    /// or whose path it is; else those whose name or file name starts with it.
    private func listsNamed(_ name: String) -> [Bool] {
        let wanted = Folding.fold(name)
        let exact = library.lists.map {
            $0.file.path == name || Folding.fold($0.name) == wanted || Folding.fold($0.file.baseName) == wanted
        }
        if exact.contains(true) { return exact }
        return library.lists.map {
            Folding.fold($0.name).starts(with: wanted) || Folding.fold($0.file.baseName).starts(with: wanted)
        }
    }

    // MARK: - Matching

    /// Whether task `id` matches the query (whatever `openOnly` says).
    public func matches(_ id: TaskID) -> Bool {
        var probe = Probe(segment: library.lists[id.list].segment, list: id.list, index: id.index)
        var scratch: [UInt8] = []
        return evaluate(root, &probe, &scratch)
    }

    /// Whether the task `probe` stands for matches operation `k`.
    func evaluate(_ k: Int, _ probe: inout Probe, _ scratch: inout [UInt8]) -> Bool {
        switch operations[k] {
        case .and(let range):
            for c in range where !evaluate(children[c], &probe, &scratch) { return false }
            return true
        case .or(let range):
            for c in range where evaluate(children[c], &probe, &scratch) { return true }
            return false
        case .not(let child): return !evaluate(child, &probe, &scratch)
        case .priority(let lowest, let highest):
            let p = probe.hot.priority
            return p >= lowest && p <= highest
        case .day(let day, let noDate, let first, let last):
            let d: Int32
            switch day {
            case .due: d = probe.hot.dueDay
            case .done: d = probe.hot.doneDay
            // Scheduled and start days are in the cold record, read only for a task that has one.
            case .scheduled: d = probe.hot.hasPlannedDays ? probe.cold.scheduled : .min
            case .start: d = probe.hot.hasPlannedDays ? probe.cold.start : .min
            }
            return noDate ? d == .min : d != .min && d >= first && d <= last
        case .state(let state):
            let h = probe.hot
            switch state {
            case .open: return !h.done
            case .done: return h.done
            // The views' own rules (ViewRules.swift), so that `is:today` is what `tick today` shows.
            case .overdue: return !h.done && probe.segment.isOverdue(probe.index, h, today: today, minutes: minutes)
            case .today: return probe.segment.isForToday(probe.index, h, today: today)
            case .flagged: return h.isForFlagged
            case .recurring: return probe.cold.recurrence != 0
            case .subtask: return probe.hot.isSubtask
            case .parent: return parents[probe.list][probe.index]
            }
        case .has(let field, let has):
            let present: Bool
            switch field {
            case .due: present = probe.hot.isForScheduled
            case .priority: present = probe.hot.priority != 0
            case .notes: present = probe.cold.notes.length > 0
            case .tags: present = probe.cold.tags.length > 0
            }
            return present == has
        case .list(let n): return lists[n][probe.list]
        case .section(let n):
            let s = probe.cold.section
            return s >= 0 && sections[n][probe.list][Int(s)]
        case .text(let n):
            let needle = needles[n]
            let (title, notes, caseless) = probe.segment.searchText(probe.index, probe.hot)
            return contains(title, needle, caseless: caseless) || contains(notes, needle, caseless: caseless)
        case .tag(let n):
            let tagsRef = probe.cold.tags
            guard tagsRef.length > 0 else { return false }
            // Each name is folded alone: a name holds no space, but its folding might.
            for name in Segment.tagNames(in: probe.segment.bytes(tagsRef)) {
                scratch.removeAll(keepingCapacity: true)
                Folding.fold(name, into: &scratch)
                if Self.isTag(scratch, orUnder: tags[n]) { return true }
            }
            return false
        }
    }

    /// Whether the folded tag `name` is `tag` or a tag nested under it.
    static func isTag(_ name: [UInt8], orUnder tag: [UInt8]) -> Bool {
        name.count >= tag.count && name.starts(with: tag) && (name.count == tag.count || name[tag.count] == UInt8(ascii: "/"))
    }
}

/// The task being matched: its hot record, and its cold record once a term needs it.
struct Probe {
    let segment: Segment
    let list: Int
    var index: Int
    var hot: HotRecord
    private var coldRecord: ColdFields?

    init(segment: Segment, list: Int, index: Int) {
        self.segment = segment
        self.list = list
        self.index = index
        hot = segment.hot(index)
    }

    /// Moves to task `i` of the same list.
    mutating func move(to i: Int, hot: HotRecord) {
        index = i
        self.hot = hot
        coldRecord = nil
    }

    var cold: ColdFields {
        mutating get {
            if let coldRecord { return coldRecord }
            let c = segment.cold(index)
            coldRecord = c
            return c
        }
    }
}

extension Library {
    /// The tasks matching `query`, ordered like every view (due, priority, list, line; done tasks
    /// last). Open tasks only when the query says nothing about completion, unless `includeCompleted`.
    public func find(_ query: Query, now: Now, includeCompleted: Bool = false, list: Int? = nil) -> [TaskID] {
        let matcher = QueryMatcher(query, library: self, now: now)
        let openOnly = matcher.openOnly && !includeCompleted
        var scratch: [UInt8] = []
        scratch.reserveCapacity(256)
        var result: [(major: UInt64, minor: UInt64)] = []
        for l in lists.indices {
            if let list, l != list { continue }
            let segment = lists[l].segment
            guard segment.taskCount > 0 else { continue }
            var probe = Probe(segment: segment, list: l, index: 0)
            for i in 0..<segment.taskCount {
                let h = segment.hot(i)
                if openOnly, h.done { continue }
                probe.move(to: i, hot: h)
                guard matcher.evaluate(matcher.root, &probe, &scratch) else { continue }
                let key = ViewOrderKey(h, list: l, now: nil)
                result.append((key.dueAndPriority | (h.done ? 1 << 62 : 0), UInt64(l) << 32 | UInt64(i)))
            }
        }
        result.sort { a, b in a.major != b.major ? a.major < b.major : a.minor < b.minor }
        return result.map { TaskID(list: Int($0.minor >> 32), index: Int($0.minor & 0xFFFF_FFFF)) }
    }

    /// The tasks of `ids` that match `query` (every one it matches: the caller's set decides about
    /// completion), in the same order.
    public func filter(_ ids: [TaskID], by query: Query, now: Now) -> [TaskID] {
        let matcher = QueryMatcher(query, library: self, now: now)
        var scratch: [UInt8] = []
        return ids.filter { id in
            var probe = Probe(segment: lists[id.list].segment, list: id.list, index: id.index)
            return matcher.evaluate(matcher.root, &probe, &scratch)
        }
    }
}

extension Library {
    /// Days from today to the task's due day (negative when past), or nil without a due date.
    public func daysUntilDue(_ id: TaskID, now: Now) -> Int? {
        let h = lists[id.list].segment.hot(id.index)
        return h.dueDay == .min ? nil : Int(h.dueDay) - now.day.daysSinceEpoch
    }

    /// The task's priority as a number: 0 none, 1 low, 2 medium, 3 high.
    public func priorityLevel(_ id: TaskID) -> Int { Int(lists[id.list].segment.hot(id.index).priority) }
}
