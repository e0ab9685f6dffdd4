// The counts of `tick status`, the one-line summary for shell prompts.

/// What needs attention now: open tasks only.
public struct StatusCounts: Equatable, Sendable {
    /// Due before now (a date before today, or a time today that has passed).
    public var overdue = 0
    /// Due today and not overdue yet.
    public var today = 0
    /// Flagged, whatever their due.
    public var flagged = 0
    /// Every open task.
    public var open = 0

    public init(overdue: Int = 0, today: Int = 0, flagged: Int = 0, open: Int = 0) {
        self.overdue = overdue
        self.today = today
        self.flagged = flagged
        self.open = open
    }

    /// Whether the prompt line has anything to say.
    public var isQuiet: Bool { overdue == 0 && today == 0 && flagged == 0 }
}

extension Library {
    /// The status counts at `now`: one pass over the tasks, nothing sorted.
    public func statusCounts(now: Now) -> StatusCounts {
        var counts = StatusCounts()
        for list in lists {
            for task in list.document.tasks where !task.done {
                counts.open += 1
                if task.flagged { counts.flagged += 1 }
                guard let due = task.due, due.day <= now.day else { continue }
                if due.isOverdue(at: now) { counts.overdue += 1 } else { counts.today += 1 }
            }
        }
        return counts
    }
}
