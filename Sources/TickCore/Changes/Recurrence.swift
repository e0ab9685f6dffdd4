import TickFormat

/// The date arithmetic of repeating tasks (FORMAT.md 5.10). Pure: the day of completion and today
/// are parameters, never read from a clock.
public enum Recurrence {
    /// What completing or skipping a repeating task leads to.
    public enum Outcome: Equatable, Sendable {
        /// The task stays open, due on this date.
        case next(DueDate)
        /// The next occurrence would fall after the `until:` day: the repetition ends.
        case ended
    }

    /// Why a repeating task cannot be advanced.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The next due date of a task repeating by `rule`, completed on `completed`.
    ///
    /// - `rec:Nu` (completion): `completed` + N units; a task without a due date gets one.
    /// - `rec:+Nu` (due): the old due date + N units, once, so the result may still be overdue.
    /// - `rec:++Nu` (future): the old due date + k·N units for the smallest k ≥ 1 that lands after
    ///   `today`, counted from the old due date (so a weekday, or a day of the month that a short
    ///   month clamped, is kept).
    ///
    /// A due time is kept. Past `until`, the repetition ends; a next date equal to `until` is still
    /// an occurrence.
    public static func next(_ rule: RecurrenceRule, due: DueDate?, until: Day?, completed: Day, today: Day)
        throws(Refusal) -> Outcome {
        let day: Day?
        switch rule.mode {
        case .completion:
            day = step(completed, by: rule.count, rule.unit)
        case .due:
            guard let due else { throw missingDue(rule) }
            day = step(due.day, by: rule.count, rule.unit)
        case .future:
            guard let due else { throw missingDue(rule) }
            day = firstStep(after: today, from: due.day, rule)
        }
        guard let day else { throw Refusal(message: "the next occurrence would fall after the year 9999") }
        if let until, day > until { return .ended }
        return .next(DueDate(day: day, minutes: due?.minutes))
    }

    /// The occurrence after the current one, without a completion ("not this time"): for `+` and
    /// `++` from the due date as a completion would, for the completion mode from `today`.
    public static func skip(_ rule: RecurrenceRule, due: DueDate?, until: Day?, today: Day) throws(Refusal) -> Outcome {
        try next(rule, due: due, until: until, completed: today, today: today)
    }

    /// `next` for a parsed task, refusing one whose due date, rule or end date is malformed (tick
    /// never silently drops a rule). Nil for a task without a rule.
    public static func next(of task: TickFormat.Task, completed: Day, today: Day) throws(Refusal) -> Outcome? {
        guard let rule = try checkedRule(task) else { return nil }
        return try next(rule, due: task.due, until: task.until, completed: completed, today: today)
    }

    /// `skip` for a parsed task; nil for a task without a rule.
    public static func skip(of task: TickFormat.Task, today: Day) throws(Refusal) -> Outcome? {
        guard let rule = try checkedRule(task) else { return nil }
        return try skip(rule, due: task.due, until: task.until, today: today)
    }

    private static func checkedRule(_ task: TickFormat.Task) throws(Refusal) -> RecurrenceRule? {
        let keys = task.malformedKeys
        guard task.recurrence != nil || keys.contains("rec") else { return nil }
        for key in ["rec", "due", "until"] where keys.contains(key) {
            throw Refusal(message: "its \(key): value is malformed, so tick cannot tell its next occurrence; "
                          + "fix it (tick check shows it)")
        }
        return task.recurrence
    }

    private static func missingDue(_ rule: RecurrenceRule) -> Refusal {
        Refusal(message: "rec:\(rule) counts from the due date, and the task has none: give it a due date, "
                + "or use rec:\(rule.count)\(rule.unit.rawValue) to repeat from each completion")
    }

    // MARK: - Steps

    /// `day` moved by `count` units, or nil past the year 9999.
    ///
    /// Months and years keep the day of the month, clamped to the target month's length
    /// (`Day.adding(months:)`): 01-31 +1m → 02-28, then 03-28. Business days skip Saturday and Sunday, and
    /// from a weekend day the first business day is the Monday after it.
    public static func step(_ day: Day, by count: Int, _ unit: RecurrenceRule.Unit) -> Day? {
        switch unit {
        case .day: return checked(day.daysSinceEpoch + count)
        case .week: return checked(day.daysSinceEpoch + 7 * count)
        case .month: return day.adding(months: count)
        case .year: return day.adding(months: 12 * count)
        case .businessDay: return addingBusinessDays(day, count)
        }
    }

    /// The first of `from` + k·N units (k ≥ 1) after `today`, or nil past the year 9999.
    static func firstStep(after today: Day, from: Day, _ rule: RecurrenceRule) -> Day? {
        // A step of N units is at least this many days, so k = gap / (N·shortest) + 1 lands after today.
        let shortest: Int
        switch rule.unit {
        case .day, .businessDay: shortest = 1
        case .week: shortest = 7
        case .month: shortest = 28
        case .year: shortest = 365
        }
        let gap = today.daysSinceEpoch - from.daysSinceEpoch
        var lo = 1, hi = max(1, gap / (rule.count * shortest) + 1)
        // The smallest k in lo...hi whose step lands after today (the step grows with k).
        while lo < hi {
            let mid = (lo + hi) / 2
            guard let d = step(from, by: mid * rule.count, rule.unit) else { return nil }
            if d > today { hi = mid } else { lo = mid + 1 }
        }
        return step(from, by: lo * rule.count, rule.unit)
    }

    private static let lastDay = Day(year: 9999, month: 12, day: 31)!

    private static func checked(_ n: Int) -> Day? {
        n <= lastDay.daysSinceEpoch ? Day(daysSinceEpoch: n) : nil
    }

    private static func addingBusinessDays(_ day: Day, _ count: Int) -> Day? {
        // From Saturday or Sunday, counting is the same as from the Friday before.
        let weekday = min(day.weekday, 5)
        let monday = day.daysSinceEpoch - (day.weekday - 1)
        let total = (weekday - 1) + count
        return checked(monday + total / 5 * 7 + total % 5)
    }
}

// MARK: - In words

extension RecurrenceRule {
    /// The rule in words for rows and `show`: `every week`, `every 2 months`, `every business day`
    /// (from the due date, `+` and `++`); `a week after done`, `3 business days after done` (from
    /// each completion).
    public var words: String {
        let names: (one: String, many: String)
        switch unit {
        case .day: names = ("day", "days")
        case .week: names = ("week", "weeks")
        case .month: names = ("month", "months")
        case .year: names = ("year", "years")
        case .businessDay: names = ("business day", "business days")
        }
        let amount = count == 1 ? names.one : "\(count) \(names.many)"
        switch mode {
        case .completion: return (count == 1 ? "a " : "") + amount + " after done"
        case .due, .future: return "every " + amount
        }
    }

    /// The mode's name in the JSON `recurrence` object: `completion`, `due` or `future`.
    public var modeName: String { mode.rawValue }
}

extension Recurrence {
    /// The due dates of the next `count` occurrences (fewer when `until` ends them): the one a
    /// completion today would give, then each one after it as if completed on its due date.
    public static func occurrences(_ rule: RecurrenceRule, due: DueDate?, until: Day?, today: Day, count: Int) -> [DueDate] {
        var result: [DueDate] = []
        var due = due, day = today
        while result.count < count {
            guard case .next(let next)? = try? Recurrence.next(rule, due: due, until: until, completed: day, today: day)
            else { break }
            result.append(next)
            due = next
            day = next.day
        }
        return result
    }
}

extension Recurrence {
    /// Why a task with these fields would be one `tick check` reports (FORMAT.md 5.10), or nil: a
    /// `+` or `++` rule without a due date, or an `until:` without a rule. `add` and `edit` refuse it.
    public static func problem(rule: RecurrenceRule?, due: DueDate?, until: Day?) -> String? {
        if let rule, rule.mode != .completion, due == nil {
            return "rec:\(rule) repeats from the due date, and the task would have none: give it a due date, "
                + "or use rec:\(rule.count)\(rule.unit.rawValue) to repeat from each completion"
        }
        if let until, rule == nil {
            return "until:\(until) ends a repetition, and the task would have no rec: rule"
        }
        return nil
    }
}

extension Recurrence {
    /// Of two next due dates that two copies of a file gave the same repeating task (each completed
    /// it, on different days), the one to keep: the later (README "Repeating tasks"). A merge of the
    /// two copies follows this rule.
    public static func merged(_ a: DueDate, _ b: DueDate) -> DueDate {
        (a.day, a.minutes ?? -1) >= (b.day, b.minutes ?? -1) ? a : b
    }
}
