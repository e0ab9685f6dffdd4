import TickFormat

// The counts of `tick status`, the one-line summary for shell prompts.

/// What needs attention now: open tasks only.
public struct StatusCounts: Equatable, Sendable {
    /// Due before now (a date before today, or a time today that has passed), and not starting
    /// later: Today's overdue tasks (ViewRules.swift).
    public var overdue = 0
    /// In Today and not overdue yet.
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
    /// The status counts at `now`: the home screen's counts, with today's overdue tasks apart.
    public func statusCounts(now: Now) -> StatusCounts {
        let home = counts(now: now)
        return StatusCounts(overdue: home.overdue, today: home.today - home.overdue, flagged: home.flagged,
                            open: home.all)
    }
}
