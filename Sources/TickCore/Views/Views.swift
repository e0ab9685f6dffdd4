import Synchronization
import TickFormat

// The smart views (Today, Tomorrow, Upcoming, Scheduled, Flagged, All, Completed), one list's view,
// and the home counts. Which tasks Today, Scheduled and Flagged hold is ViewRules.swift's.

// MARK: - Smart views

/// A smart view across all lists.
public enum SmartView: String, CaseIterable, Sendable {
    /// Open tasks due or scheduled today or earlier, except those whose start date is still to come.
    case today
    /// Open tasks due tomorrow.
    case tomorrow
    /// Open tasks due in the next `ViewQuery.days` days, today included.
    case upcoming
    /// Open tasks with a due date.
    case scheduled
    /// Open flagged tasks.
    case flagged
    /// Every open task, grouped by list.
    case all
    /// Done tasks, latest `done:` date first.
    case completed
}

/// A smart view with its options.
public struct ViewQuery: Sendable {
    public var view: SmartView
    /// `--all`: completed tasks too.
    public var includeCompleted: Bool
    /// `--list L`: only this list (an index into `Library.lists`).
    public var list: Int?
    /// For `upcoming`: how many days, today first.
    public var days: Int
    /// For `completed`: only tasks done on this day or later.
    public var since: Day?

    public init(view: SmartView, includeCompleted: Bool = false, list: Int? = nil, days: Int = 7,
                since: Day? = nil) {
        self.view = view
        self.includeCompleted = includeCompleted
        self.list = list
        self.days = days
        self.since = since
    }
}

extension Library {
    /// The tasks of a view in display order.
    ///
    /// Every view orders by due (earliest first, none last), then priority (high first), then list
    /// path, then line; `today` puts overdue tasks first, `all` groups by list first (each subtask
    /// under its parent when both are shown), `completed` puts the latest `done:` date first.
    /// With `includeCompleted`, a view's done tasks follow its open ones (within each list for `all`).
    public func tasks(in query: ViewQuery, now: Now) -> [TaskID] {
        var levels: [Int32]? = nil
        return tasks(in: query, now: now, levels: &levels)
    }

    /// The tasks of a view in display order, with how deep each stands under the others: 0, or one
    /// more than its parent's level when `all` shows it under its parent; 0 in every other view.
    public func tasksWithLevels(in query: ViewQuery, now: Now) -> (ids: [TaskID], levels: [Int32]) {
        // Rows of `all` show every task's short ref: the table of lengths is made first, so that
        // the memory making it takes is let go before the rows take theirs.
        if query.view == .all, taskCount >= parallelMinimum { _ = shortRefLengths }
        var levels: [Int32]? = []
        let ids = tasks(in: query, now: now, levels: &levels)
        return (ids, levels ?? [])
    }

    /// Each task's place in a view as two integers, so that sorting 80,000 rows compares numbers.
    typealias Place = (major: UInt64, minor: UInt64)

    /// Appends to `places` the place of every task of list `l` that `query`'s view shows: due and
    /// priority in the low 35 bits of `major`, what the view puts first above them; list and index
    /// in `minor` (tasks are in document order, so a task's index orders it like its line).
    private func appendPlaces(ofList l: Int, _ query: ViewQuery, now: Now, to places: inout [Place]) {
        let today = Int32(now.day.daysSinceEpoch)
        let horizon = Int64(today) + Int64(max(0, query.days))
        let since = query.since.map { Int32($0.daysSinceEpoch) } ?? .min
        let segment = lists[l].segment
        let records = hotRecords(ofList: l)
        for i in records.indices {
            let r = records[i]
            let wanted: Bool
            switch query.view {
            case .today: wanted = segment.isForToday(i, r, today: today)
            case .tomorrow: wanted = r.dueDay != .min && Int64(r.dueDay) == Int64(today) + 1
            case .upcoming: wanted = r.dueDay != .min && r.dueDay >= today && Int64(r.dueDay) < horizon
            case .scheduled: wanted = r.isForScheduled
            case .flagged: wanted = r.isForFlagged
            case .all: wanted = true
            case .completed: wanted = r.done && (since == .min || (r.doneDay != .min && r.doneDay >= since))
            }
            guard wanted, !r.done || query.includeCompleted || query.view == .completed else { continue }
            let key = ViewOrderKey(r, list: l, now: now)
            var major = key.dueAndPriority
            switch query.view {
            case .completed:
                // The latest done: date first; days since year 1 fit in 22 bits.
                let done = key.doneDay == .min ? 0 : UInt64(Int64(key.doneDay) + Day.firstDayOffset) + 1
                major |= ((1 << 22) - 1 - min(done, (1 << 22) - 1)) << 35
            case .all:
                major |= UInt64(l) << 36 | (key.done ? 1 << 35 : 0)
            case .today:
                major |= (key.done ? 1 << 62 : 0) | (key.overdue ? 0 : 1 << 61)
            case .tomorrow, .upcoming, .scheduled, .flagged:
                major |= key.done ? 1 << 62 : 0
            }
            places.append((major, UInt64(l) << 32 | UInt64(i)))
        }
    }

    private static let placeOrder: @Sendable (Place, Place) -> Bool = { a, b in
        a.major != b.major ? a.major < b.major : a.minor < b.minor
    }

    @inline(__always) private static func id(_ place: Place) -> TaskID {
        TaskID(list: Int(place.minor >> 32), index: Int(place.minor & 0xFFFF_FFFF))
    }

    private func tasks(in query: ViewQuery, now: Now, levels: inout [Int32]?) -> [TaskID] {
        let wantsLevels = levels != nil
        if query.view == .all, let rows = allRows(query, now: now, wantsLevels: wantsLevels) {
            if wantsLevels { levels = rows.levels }
            return rows.ids
        }
        let runs = inListRuns(only: query.list) { range -> (places: [Place], levels: [Int32]?) in
            var places: [Place] = []
            var runLevels: [Int32]? = wantsLevels ? [] : nil
            for l in range {
                let first = places.count
                appendPlaces(ofList: l, query, now: now, to: &places)
                guard query.view == .all, places.count > first else { continue }
                places.replaceSubrange(first..., with: allOrder(ofList: l, places[first...], levels: &runLevels))
            }
            return (places, runLevels)
        }
        var result = runs.count == 1 ? runs[0].places : runs.flatMap(\.places)
        if query.view == .all {
            if wantsLevels { levels = runs.count == 1 ? runs[0].levels : runs.flatMap { $0.levels! } }
        } else {
            result.sort(by: Library.placeOrder)
            levels?.append(contentsOf: repeatElement(0, count: result.count))
        }
        return result.map(Library.id)
    }

    /// List `l`'s rows of `all`, from their places: grouped by list, in list order, so the list's
    /// rows are sorted on their own, then each subtask put under its parent (when the parent is
    /// shown too), siblings in that order. `all` shows most of a list's rows: its records and
    /// titles are proven at once (on the calling run's thread) rather than one by one as the rows
    /// are written.
    private func allOrder(ofList l: Int, _ places: ArraySlice<Place>, levels: inout [Int32]?) -> [Place] {
        lists[l].segment.proveRecordsAndText()
        var sorted = places
        sorted.sort(by: Library.placeOrder)
        return underParents(sorted, levels: &levels)
    }

    /// `all`'s rows and their levels, each list's written straight to its place in arrays of their
    /// final size (its row count is in its header), so that a million rows are held once, and as
    /// places one list at a time. Nil when a list's rows are not as many as its header says (a
    /// damaged segment made harmless), for the general way.
    private func allRows(_ query: ViewQuery, now: Now, wantsLevels: Bool) -> (ids: [TaskID], levels: [Int32])? {
        var offsets = [Int](repeating: 0, count: lists.count + 1)
        for l in lists.indices {
            let header = lists[l].segment.header
            let rows = query.list.map { $0 == l } ?? true ? Int(query.includeCompleted ? header.taskCount : header.openCount) : 0
            offsets[l + 1] = offsets[l] + rows
        }
        let total = offsets[lists.count], starts = offsets
        let sound = Atomic<Bool>(true)
        var levels: [Int32] = []
        // At least one element's room: with none, both arrays would be the runtime's shared empty
        // array, whose count each initializer writes (0 over 0, but a race between two threads'
        // views that ThreadSanitizer rightly reports).
        let ids = [TaskID](unsafeUninitializedCapacity: max(total, 1)) { idBuffer, idCount in
            levels = [Int32](unsafeUninitializedCapacity: wantsLevels ? max(total, 1) : 1) { levelBuffer, levelCount in
                let out = RowWriter(ids: idBuffer.baseAddress, levels: levelBuffer.baseAddress)
                _ = inListRuns(only: query.list) { range in
                    var places: [Place] = []
                    var listLevels: [Int32]? = wantsLevels ? [] : nil
                    for l in range {
                        places.removeAll(keepingCapacity: true)
                        listLevels?.removeAll(keepingCapacity: true)
                        appendPlaces(ofList: l, query, now: now, to: &places)
                        guard places.count == starts[l + 1] - starts[l] else {
                            sound.store(false, ordering: .relaxed)
                            return
                        }
                        guard !places.isEmpty else { continue }
                        for (k, place) in allOrder(ofList: l, places[...], levels: &listLevels).enumerated() {
                            out.ids![starts[l] + k] = Library.id(place)
                        }
                        if let listLevels {
                            for (k, level) in listLevels.enumerated() { out.levels![starts[l] + k] = level }
                        }
                    }
                }
                levelCount = sound.load(ordering: .relaxed) && wantsLevels ? total : 0
            }
            idCount = sound.load(ordering: .relaxed) ? total : 0
        }
        guard sound.load(ordering: .relaxed) else { return nil }
        return (ids, levels)
    }

    /// One list's rows of a view, in that view's order, rearranged so that each task's subtasks
    /// (those in the rows) follow it, in the same order among themselves; a subtask whose parent is
    /// not in the rows stands where its order puts it. Linear: arrays indexed by row and by task.
    /// Appends each row's level (its depth under the rows above it) to `levels`, when asked.
    private func underParents(_ rows: ArraySlice<Place>, levels: inout [Int32]?) -> [Place] {
        guard let first = rows.first else { return [] }
        let segment = lists[Int(first.minor >> 32)].segment
        let rows = Array(rows)
        // Each task's row, or -1 when it is not shown.
        var rowOf = [Int32](repeating: -1, count: segment.taskCount)
        for (k, row) in rows.enumerated() { rowOf[Int(row.minor & 0xFFFF_FFFF)] = Int32(k) }
        // Children as linked lists over rows, in row order: built backwards, each put in front.
        var firstChild = [Int32](repeating: -1, count: rows.count)
        var nextSibling = [Int32](repeating: -1, count: rows.count)
        var firstRoot: Int32 = -1
        var nested = false
        for k in rows.indices.reversed() {
            let parent = Int(segment.parent(Int(rows[k].minor & 0xFFFF_FFFF)))
            if parent >= 0, case let p = rowOf[parent], p >= 0 {
                nextSibling[k] = firstChild[Int(p)]
                firstChild[Int(p)] = Int32(k)
                nested = true
            } else {
                nextSibling[k] = firstRoot
                firstRoot = Int32(k)
            }
        }
        guard nested else {
            levels?.append(contentsOf: repeatElement(0, count: rows.count))
            return rows
        }
        var result: [(major: UInt64, minor: UInt64)] = []
        result.reserveCapacity(rows.count)
        // Depth first: a row, then its children's subtrees (a level deeper), then its next sibling.
        var stack: [(row: Int32, level: Int32)] = [(firstRoot, 0)]
        while let top = stack.popLast() {
            var k = top.row, level = top.level
            while k >= 0 {
                result.append(rows[Int(k)])
                levels?.append(level)
                if nextSibling[Int(k)] >= 0 { stack.append((nextSibling[Int(k)], level)) }
                k = firstChild[Int(k)]
                level += 1
            }
        }
        return result
    }

    /// How deep each of `ids` stands under the others: 0, or one more than its parent's level when
    /// its parent is among `ids` before it (as `all` orders them). Linear in the rows.
    public func nestingLevels(_ ids: [TaskID]) -> [Int32] {
        var levels = [Int32](repeating: 0, count: ids.count)
        var levelOf: [Int32] = []   // per task of the current list: its level + 1, or 0 when not yet shown
        var list = -1
        var start = 0
        var segment: Segment? = nil
        for (k, id) in ids.enumerated() {
            if id.list != list {
                // A new list: clear the marks of the previous one's rows.
                for j in start..<k { levelOf[ids[j].index] = 0 }
                list = id.list
                start = k
                segment = lists[list].segment
                let count = segment!.taskCount
                if levelOf.count < count { levelOf = [Int32](repeating: 0, count: count) }
            }
            let parent = Int(segment!.parent(id.index))
            let level = parent >= 0 && levelOf[parent] > 0 ? levelOf[parent] : 0
            levels[k] = level
            levelOf[id.index] = level + 1
        }
        return levels
    }

    /// The counts of the home screen's tiles: open tasks only.
    public func counts(now: Now) -> HomeCounts {
        let today = Int32(now.day.daysSinceEpoch)
        // On this thread, whatever the folder's size: a few additions a task cost less than the
        // threads that would share them.
        var counts = HomeCounts()
        for l in lists.indices {
            let segment = lists[l].segment
            let records = hotRecords(ofList: l)
            // Counted without branches on the fields, which no branch predictor guesses.
            for i in records.indices {
                let r = records[i]
                let open = Int(bit: !r.done)
                counts.all &+= open
                counts.flagged &+= open & Int(bit: r.isForFlagged)
                counts.today &+= open & Int(bit: segment.isForToday(i, r, today: today))
                counts.scheduled &+= open & Int(bit: r.isForScheduled)
                counts.overdue &+= open & Int(bit: segment.isOverdue(i, r, today: today, minutes: now.minutes))
            }
        }
        return counts
    }
}

/// What the views sort by, taken out of a record once.
struct ViewOrderKey {
    var due: Int64      // day * 1440 + minutes (a due without time sorts first on its day), or .max
    var priority: UInt8
    var list: Int
    var line: UInt32
    var done: Bool
    var overdue: Bool
    var doneDay: Int32

    init(_ r: HotRecord, list: Int, now: Now?) {
        due = r.dueDay == .min ? .max : Int64(r.dueDay) * 1441 + Int64(r.dueMinutes) + 1
        priority = r.priority
        self.list = list
        line = r.line
        done = r.done
        doneDay = r.doneDay
        overdue = now.map { r.isOverdue(today: Int32($0.day.daysSinceEpoch), minutes: $0.minutes) } ?? false
    }

    /// Due (none last) and priority (high first) as one 35-bit number that sorts like `precedes`
    /// on them: days since year 1 times 1,441 minutes-and-none fit in 33 bits.
    var dueAndPriority: UInt64 {
        let d: UInt64 = due == .max ? (1 << 33) - 1 : UInt64(due + Day.firstDayOffset * 1441)
        return d << 2 | UInt64(3 - min(priority, 3))
    }

    func precedes(_ other: ViewOrderKey) -> Bool {
        if due != other.due { return due < other.due }
        if priority != other.priority { return priority > other.priority }
        if list != other.list { return list < other.list }  // lists are sorted by path
        return line < other.line
    }
}

/// The four tiles of the home screen.
public struct HomeCounts: Equatable, Sendable {
    /// Open tasks past their due date or time, not starting later (part of `today`).
    public var overdue = 0
    public var today = 0
    public var scheduled = 0
    public var flagged = 0
    public var all = 0

    public init() {}
}

// MARK: - Scheduled groups

/// The heading a due date falls under in the Scheduled view.
public enum ScheduleGroup: Hashable, Sendable {
    /// Before today. (A task due earlier today is under Today, marked overdue.)
    case overdue
    case today
    case tomorrow
    /// 2 to 6 days ahead (with `week-start` set: only to the end of this week): the weekday's name.
    case weekday(Day)
    /// Later: the date.
    case date(Day)

    public init(due: DueDate, now: Now) {
        let days = now.days(until: due.day)
        switch days {
        case ..<0: self = .overdue
        case 0: self = .today
        case 1: self = .tomorrow
        // With a configured week start, the weekday headings stop at the week's last day.
        case 2...6 where now.weekStart.map { days <= $0.daysToWeekEnd(from: now.day) } ?? true:
            self = .weekday(due.day)
        default: self = .date(due.day)
        }
    }

    /// `Overdue`, `Today`, `Tomorrow`, `Friday`, `Dec 3` (with the year when it is not this year's).
    public func title(now: Now) -> String {
        switch self {
        case .overdue: return "Overdue"
        case .today: return "Today"
        case .tomorrow: return "Tomorrow"
        case .weekday(let day):
            return day.weekdayName
        case .date(let day):
            let text = day.weekdayAbbreviation + " " + day.monthAndDay
            return day.year == now.day.year ? text : text + " " + String(day.year)
        }
    }
}

// MARK: - One list

/// How `tick ls` orders a list.
public enum ListOrder: String, CaseIterable, Sendable {
    /// The file's order: the user's.
    case file
    /// Priority, high first; then file order.
    case priority
    /// Due, earliest first, none last; then file order.
    case due
}

/// One list as `tick ls` shows it: active tasks then completed ones, each grouped by section.
public struct ListView: Sendable {
    /// A run of tasks under one section heading (nil before the first heading).
    public struct Group: Sendable {
        public var section: String?
        /// Tasks in display order, each with its indentation level in this view.
        public var rows: [(id: TaskID, level: Int)]
    }

    public var active: [Group]
    public var completed: [Group]
}

extension Library {
    /// The list at `index` as `tick ls` shows it.
    ///
    /// A subtask stays under its parent when both are in the same part (active or completed); otherwise
    /// it stands on its own in its part. Sorting reorders siblings only, so a task's subtasks follow it.
    public func listView(_ index: Int, order: ListOrder = .file) -> ListView {
        let segment = lists[index].segment
        let tasks = (0..<segment.taskCount).map { i -> (done: Bool, parent: Int?, priority: Int, due: DueDate?, section: String?) in
            let r = segment.record(i)
            return (r.done, r.parent < 0 ? nil : Int(r.parent), Int(r.priority), r.due, segment.section(r.section))
        }
        func build(done: Bool) -> [ListView.Group] {
            // Children by parent within this part; roots are tasks whose parent is not in this part.
            var children: [Int: [Int]] = [:]
            var roots: [Int] = []
            for i in tasks.indices where tasks[i].done == done {
                if let p = tasks[i].parent, tasks[p].done == done {
                    children[p, default: []].append(i)
                } else {
                    roots.append(i)
                }
            }
            func sorted(_ items: [Int]) -> [Int] {
                switch order {
                case .file: return items
                case .priority:
                    return items.sorted { (tasks[$0].priority, -$0) > (tasks[$1].priority, -$1) }
                case .due:
                    return items.sorted { a, b in
                        let x = tasks[a].due, y = tasks[b].due
                        if x != y {
                            guard let x else { return false }
                            guard let y else { return true }
                            return x < y
                        }
                        return a < b
                    }
                }
            }
            var groups: [ListView.Group] = []
            // Group roots by section in file order of first appearance.
            var sectionOrder: [String?] = []
            var bySection: [String?: [Int]] = [:]
            for r in roots {
                let s = tasks[r].section
                if bySection[s] == nil { sectionOrder.append(s) }
                bySection[s, default: []].append(r)
            }
            for section in sectionOrder {
                var rows: [(TaskID, Int)] = []
                func visit(_ i: Int, level: Int) {
                    rows.append((TaskID(list: index, index: i), level))
                    for c in sorted(children[i] ?? []) { visit(c, level: level + 1) }
                }
                for r in sorted(bySection[section]!) { visit(r, level: 0) }
                groups.append(ListView.Group(section: section, rows: rows))
            }
            return groups
        }
        return ListView(active: build(done: false), completed: build(done: true))
    }
}

/// Where `Library.allRows` writes rows from several threads, each list to its own places.
private struct RowWriter: @unchecked Sendable {
    let ids: UnsafeMutablePointer<TaskID>?
    let levels: UnsafeMutablePointer<Int32>?
}
