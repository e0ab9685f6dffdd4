import TickFormat

// The value types of the format library that TickCore's API hands to its callers. The command line
// names them through TickCore only: it never imports the format library, and never sees a document.

/// A calendar day.
public typealias Day = TickFormat.Day
/// A due date: a day, and optionally a time of day.
public typealias DueDate = TickFormat.DueDate
/// A task's priority: none, low, medium or high.
public typealias Priority = TickFormat.Priority
/// A format problem at a line and column of a list file.
public typealias Diagnostic = TickFormat.Diagnostic
/// The fields of a task to add.
public typealias NewTask = TickFormat.NewTask
/// The colours a list may take.
public typealias ListColor = TickFormat.ListColor
/// A repetition rule: the value of a `rec:` token.
public typealias RecurrenceRule = TickFormat.RecurrenceRule
/// The Obsidian Tasks plugin's global filter (`obsidian.global-filter`, FORMAT.md 11).
public typealias GlobalFilter = TickFormat.GlobalFilter

// MARK: - What the command line asks of them
//
// The `tick` target builds with MemberImportVisibility: a member that TickFormat declares is
// not visible there, only the types above and what TickCore declares on them here (or elsewhere,
// such as `Day.weekdayName` and `DueDate.relativeText(to:)` in Dates.swift).

extension Day {
    /// `Mar 20`.
    public var monthAndDay: String { monthAbbreviation + " " + String(day) }

    /// `Saturday Mar 14`, with the year (`Saturday Mar 14 2026`) when asked.
    public func longText(withYear: Bool = false) -> String {
        weekdayName + " " + monthAndDay + (withYear ? " " + String(year) : "")
    }

    /// The day that a date word names (`DueDate(parsing:relativeTo:)`), whatever time it carries.
    public init(parsing text: String, relativeTo now: Now) throws(DateError) {
        self = try DueDate(parsing: text, relativeTo: now).day
    }
}

extension Now {
    /// Today as days since 1970-01-01, as a task record stores its due day.
    public var dayNumber: Int32 { Int32(day.daysSinceEpoch) }

    /// The day after today.
    public var tomorrow: Day { day.adding(days: 1) }

    /// A record's due (`day` days since 1970-01-01, `minutes` after midnight or -1 for none) in
    /// words relative to now (`DueDate.relativeText(to:)`), or in its `short` form the month and day.
    public func words(dueDay day: Int32, minutes: Int16, short: Bool = false) -> String {
        let due = Day(daysSinceEpoch: Int(day))
        return short ? due.monthAndDay : DueDate(day: due, minutes: minutes < 0 ? nil : Int(minutes)).relativeText(to: self)
    }
}

extension DueDate {
    /// The day, when no time is given with it (as an `until:` date must be); nil otherwise.
    public var wholeDay: Day? { minutes == nil ? day : nil }

    /// A next due date as a completion's line says it: `Mon Dec 7`, with the year when it is not
    /// now's and the time when there is one (`Tue Jan 5 2027 09:00`).
    public func nextDueText(now: Now) -> String {
        var text = day.weekdayAbbreviation + " " + day.monthAndDay
        if day.year != now.day.year { text += " " + String(day.year) }
        if let minutes {
            text += " " + (minutes / 60 < 10 ? "0" : "") + String(minutes / 60) + ":"
                + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
        }
        return text
    }
}

extension RecurrenceRule {
    /// A rule as written after `rec:` (`1w`, `+1m`, `++2w`), with or without `rec:` before it; nil
    /// when tick cannot read it.
    public init?(parsing text: String) {
        self.init(value: text.hasPrefix("rec:") ? String(text.dropFirst(4)) : text)
    }
}

extension Priority {
    /// Whether the task has no priority.
    public var isNone: Bool { self == .none }

    /// 0 (none) to 3 (high), as `--json` writes it.
    public var number: Int { rawValue }

    /// `!`, `!!` or `!!!`, as written in a title line; nil for none.
    public var marks: String? { token }
}

extension String {
    /// Whether the text holds nothing but invisible space (`isInvisibleSpace`).
    public var isBlank: Bool { trimmingInvisibleSpace().isEmpty }
}

/// Columns `text` takes on a terminal: the format library's one width rule (`terminalWidth`),
/// which also measures a list's symbol.
public func displayWidth(_ text: String) -> Int { terminalWidth(text) }

/// Columns one character takes on a terminal (see `displayWidth(_:)`).
public func displayWidth(of character: Character) -> Int { terminalWidth(of: character) }
