import TickFormat

// The do-now pick: one open task chosen at random, weighted towards urgent work.
//
// Pure: the clock (`Now`) and the random generator are parameters. Remembering the current pick
// between runs is `PickMemory`'s job (Storage/PickMemory.swift).

// MARK: - Weights

/// How strongly each kind of urgency draws the pick to a task. A task's chance is its weight
/// divided by the sum of the weights of every candidate.
///
/// Each weight is a configuration key `pick.weights.NAME` (Values/Configuration.swift); the values
/// here are tick's defaults. The weights are documented in the README (section "The do-now pick",
/// and the configuration table); keep the three in step.
public struct PickWeights: Equatable, Sendable {
    /// Every open task.
    public var base = 1
    /// A due that has passed (a date before today, or a time today that has passed).
    public var overdue = 6
    /// Added per whole day overdue, on top of `overdue`…
    public var perDayOverdue = 1
    /// …up to this much.
    public var overdueDaysCap = 6
    /// Due today, at no time or at a time still to come.
    public var dueToday = 4
    /// Due in the next `soonDays` days (tomorrow onwards).
    public var dueSoon = 1
    public var soonDays = 3
    /// By priority: none, low (`!`), medium (`!!`), high (`!!!`).
    public var priority = [0, 1, 2, 4]
    /// Flagged (`#flag`).
    public var flagged = 3

    public init() {}

    /// The weights tick uses when no configuration file sets them.
    public static let standard = PickWeights()

    /// The largest value a configured weight may take, so that no sum of weights can overflow.
    public static let maximum = 1000

    /// The weight of an open task at `now`: at least `base`.
    public func weight(of task: Task, at now: Now) -> Int {
        weight(due: task.due, priority: task.priority, flagged: task.flagged, at: now)
    }

    /// The weight of an open task with these fields at `now`: at least `base`.
    public func weight(due: DueDate?, priority: Priority, flagged: Bool, at now: Now) -> Int {
        weight(dueDay: due.map { Int32($0.day.daysSinceEpoch) } ?? .min, dueMinutes: Int16(due?.minutes ?? -1),
               priority: priority, flagged: flagged, today: Int32(now.day.daysSinceEpoch), nowMinutes: now.minutes)
    }

    /// The weight on a record's numbers: a due day (days since 1970-01-01, `.min` for none) and
    /// minutes (-1 for none), and today's day number and the minutes after midnight now. What
    /// `weight(due:priority:flagged:at:)` gives, without making a date for each task.
    func weight(dueDay: Int32, dueMinutes: Int16, priority: Priority, flagged: Bool, today: Int32, nowMinutes: Int) -> Int {
        var weight = base + self.priority[priority.rawValue] + (flagged ? self.flagged : 0)
        if dueDay != .min {
            let days = Int(dueDay) - Int(today)
            if DueDate.isOverdue(day: dueDay, minutes: dueMinutes, today: today, nowMinutes: nowMinutes) {
                weight += overdue + min(max(-days, 0) * perDayOverdue, overdueDaysCap)
            } else if days == 0 {
                weight += dueToday
            } else if days >= 1, days <= soonDays {
                weight += dueSoon
            }
        }
        return weight
    }
}

/// How the pick weighs the candidates.
public enum PickWeighting: Sendable {
    /// By urgency, with these weights (`PickWeights.standard`, or the configured ones).
    case urgency(PickWeights)
    /// Every candidate alike (`--uniform`).
    case uniform
}

// MARK: - Scope

/// Which open tasks a pick chooses from.
public struct PickScope: Equatable, Sendable {
    /// Only the tasks of this view (today, flagged or scheduled); nil: every open task.
    public var view: SmartView?
    /// Only this list (an index into `Library.lists`).
    public var list: Int?

    public init(view: SmartView? = nil, list: Int? = nil) {
        self.view = view
        self.list = list
    }
}

extension Library {
    /// The open tasks a pick chooses from, subtasks included, in folder order (so that a seed
    /// chooses the same task whatever order the views display).
    public func pickCandidates(_ scope: PickScope, now: Now) -> [TaskID] {
        let today = Int32(now.day.daysSinceEpoch)
        guard let view = scope.view else {
            var result: [TaskID] = []
            result.reserveCapacity(taskCount)
            for l in lists.indices where scope.list == nil || l == scope.list {
                let segment = lists[l].segment
                let records = hotRecords(ofList: l)
                for i in records.indices where !records[i].done && !segment.startsLater(i, today: today) {
                    result.append(TaskID(list: l, index: i))
                }
            }
            return result
        }
        // A task with a start date still to come is not one to do now (FORMAT.md 11).
        return tasks(in: ViewQuery(view: view, includeCompleted: false, list: scope.list), now: now)
            .filter { !lists[$0.list].segment.hot($0.index).done && !lists[$0.list].segment.startsLater($0.index, today: today) }
            .sorted()
    }

    /// Chooses one of `candidates` at random, weighted by `weighting`; never `current` while
    /// another candidate exists. Nil when there is no candidate.
    public func pick<G: RandomNumberGenerator>(from candidates: [TaskID], excluding current: TaskID?,
                                               weighting: PickWeighting, now: Now,
                                               using generator: inout G) -> TaskID? {
        // The pool is the candidates without `current` (when another exists), read in place: a
        // million candidates are neither copied nor given an array of weights.
        var pool = candidates
        var skipped: Int? = nil
        if let current, pool.contains(where: { $0 != current }), let first = pool.firstIndex(of: current) {
            if pool[(first + 1)...].contains(current) { pool.removeAll { $0 == current } } else { skipped = first }
        }
        let count = pool.count - (skipped == nil ? 0 : 1)
        func member(_ k: Int) -> TaskID { pool[skipped.map { k >= $0 ? k + 1 : k } ?? k] }
        let chosen: Int?
        switch weighting {
        case .uniform: chosen = Pick.choose(count: count, weight: { _ in 1 }, using: &generator)
        case .urgency(let urgency):
            // The hot records hold all that a weight needs.
            let today = Int32(now.day.daysSinceEpoch)
            chosen = Pick.choose(count: count, weight: { k in
                let id = member(k)
                let task = lists[id.list].segment.hot(id.index)
                return urgency.weight(dueDay: task.dueDay, dueMinutes: task.dueMinutes,
                                      priority: Priority(rawValue: Int(task.priority)) ?? .none, flagged: task.flagged,
                                      today: today, nowMinutes: now.minutes)
            }, using: &generator)
        }
        return chosen.map(member)
    }
}

// MARK: - Choosing

/// Weighted random choice over a seeded generator.
public enum Pick {
    /// An index of `weights` chosen with probability `weights[i] / sum`, or nil when `weights`
    /// is empty. Weights must not be negative; when all are 0 the choice is uniform.
    ///
    /// Draws exactly one bounded number from `generator`, so a seed gives the same index for the
    /// same weights on every platform and Swift version.
    public static func choose<G: RandomNumberGenerator>(weights: [Int], using generator: inout G) -> Int? {
        choose(count: weights.count, weight: { weights[$0] }, using: &generator)
    }

    /// `choose(weights:)` over `count` weights that `weight` gives for 0, 1, 2 and so on, asked
    /// for in that order, once for the total and again up to the index chosen.
    public static func choose<G: RandomNumberGenerator>(count: Int, weight: (Int) -> Int, using generator: inout G) -> Int? {
        guard count > 0 else { return nil }
        var total: UInt64 = 0
        for i in 0..<count {
            let w = weight(i)
            precondition(w >= 0, "pick weights are never negative")
            total += UInt64(w)
        }
        guard total > 0 else { return Int(uniform(below: UInt64(count), using: &generator)) }
        var point = uniform(below: total, using: &generator)
        for i in 0..<count {
            let w = UInt64(weight(i))
            if point < w { return i }
            point -= w
        }
        preconditionFailure("the point lies below the total")
    }

    /// A uniform number in `0..<bound` (bound > 0): Lemire's multiply-shift with rejection, written
    /// out here rather than left to the standard library so that seeded choices never change.
    public static func uniform<G: RandomNumberGenerator>(below bound: UInt64, using generator: inout G) -> UInt64 {
        precondition(bound > 0, "an empty range has no member")
        var product = generator.next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = generator.next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose whole state is its seed,
/// so `--seed N` reproduces a pick exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - The picked task's identity

/// A picked task as it is remembered between runs: a `TaskKey` (list path, title, and how many
/// earlier tasks of that list have the same title), so that it is found again after other tasks, or
/// this one's metadata, changed.
public typealias PickedTask = TaskKey

extension TaskKey {
    /// The identity of a task of `library`.
    public init(_ id: TaskID, in library: Library) { self = library.key(id) }

    /// The task in `library`, if it is still there.
    public func find(in library: Library) -> TaskID? { library.id(of: self) }

    /// The task's index in `document`, the content of its list file, if it is still there.
    public func find(in document: Document) -> Int? { document.index(of: self) }
}
