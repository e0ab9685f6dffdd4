import TickFormat

// Which tasks the smart views hold, each rule written once, on a task's records. The views
// (Views.swift), the home and status counts, and the query terms that name the same sets
// (`is:today`, `is:overdue`, `is:flagged`, `has:due`) all call these, so that `tick today` and
// `tick find is:today` cannot drift apart. A rule leaves completion to its caller: a view's
// `--all`, a query's completion rule.
//
//   Today      due or scheduled today or earlier, and not starting after today    is:today
//   Overdue    past its due day or time, and not starting after today (Today's    is:overdue
//              first tasks, and status's overdue count)
//   Scheduled  a due date                                                          has:due
//   Flagged    flagged                                                             is:flagged
//   All        every task                                                          is:open

extension Segment {
    /// Today: task `i` (its hot record `r`) is due or scheduled today or earlier, and does not
    /// start after today (FORMAT.md 11). The cold record is read only for a task with such days.
    @inline(__always)
    func isForToday(_ i: Int, _ r: HotRecord, today: Int32) -> Bool {
        let due = Int(bit: r.dueDay != .min) & Int(bit: r.dueDay <= today) != 0
        guard r.hasPlannedDays else { return due }
        return isPlannedForToday(i, due: due, today: today)
    }

    /// `isForToday` for a task with scheduled or start days: apart, so that a pass over many
    /// records keeps its own work in registers.
    @inline(never)
    private func isPlannedForToday(_ i: Int, due: Bool, today: Int32) -> Bool {
        let c = cold(i)
        if c.start != .min, c.start > today { return false }
        return due || (c.scheduled != .min && c.scheduled <= today)
    }

    /// Overdue: task `i` is past its due day or time (`DueDate.isOverdue`) and does not start after
    /// today, so that an overdue task is always one of Today's.
    /// Branches only for a late task with scheduled or start days, so that a count over many
    /// records does not guess on each.
    @inline(__always)
    func isOverdue(_ i: Int, _ r: HotRecord, today: Int32, minutes: Int) -> Bool {
        let late = r.isOverdue(today: today, minutes: minutes)
        if Int(bit: late) & Int(bit: r.hasPlannedDays) != 0 { return !startsLater(i, today: today) }
        return late
    }

    /// Whether task `i` has a start date after `today`: hidden from Today and `pick` until then.
    func startsLater(_ i: Int, today: Int32) -> Bool {
        guard hot(i).hasPlannedDays else { return false }
        let start = cold(i).start
        return start != .min && start > today
    }
}

extension HotRecord {
    /// Scheduled: the task has a due date (the view is named for its days, not for `⏳`).
    var isForScheduled: Bool { dueDay != .min }
    /// Flagged.
    var isForFlagged: Bool { flagged }
}
