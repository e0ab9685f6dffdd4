import TickFormat

// iCalendar (RFC 5545) text: content lines, escaping, folding and the date forms tick writes.
// Pure: no files, no clock. `CalendarExport.swift` turns a library into `CalendarTodo` values.

/// One task as a VTODO: everything the feed says about it, already decided.
public struct CalendarTodo: Equatable, Sendable {
    public var uid: String
    /// Seconds since the epoch (UTC): the list file's modification time.
    public var stamp: Int
    public var summary: String
    /// The notes, or "" for none (then no DESCRIPTION).
    public var description: String
    public var due: DueDate?
    public var priority: Priority
    public var done: Bool
    /// When it was completed, in seconds since the epoch (UTC), or nil.
    public var completed: Int?
    /// Tags first, then the list's name.
    public var categories: [String]
    /// The parent task's UID, for a subtask.
    public var parent: String?
    public var flagged: Bool
    /// The `rec:` rule, exported as `RRULE` (the nearest RFC 5545 can state) and `X-TICK-REC` (exact).
    public var recurrence: RecurrenceRule? = nil
    /// The `until:` day that ends the rule.
    public var until: Day? = nil
    /// The start day (`DTSTART`), when before the due date; a repeating task starts at its due date.
    public var start: Day? = nil
    /// How many times the object has changed (`SEQUENCE`, written when above 0).
    public var sequence = 0
    /// A mark naming the task folder that wrote the object (`X-TICK-FOLDER`), or nil.
    public var folder: String? = nil
    /// Whether a task with a due time gets tick's display alarm (not when the phone set its own).
    public var alarm = true

    public init(uid: String, stamp: Int, summary: String, description: String = "", due: DueDate? = nil,
                priority: Priority = .none, done: Bool = false, completed: Int? = nil, categories: [String] = [],
                parent: String? = nil, flagged: Bool = false) {
        self.uid = uid
        self.stamp = stamp
        self.summary = summary
        self.description = description
        self.due = due
        self.priority = priority
        self.done = done
        self.completed = completed
        self.categories = categories
        self.parent = parent
        self.flagged = flagged
    }
}

/// Writes iCalendar text.
public enum ICalendar {
    /// The product identifier every feed and vdir file carries; vdir export removes only files that hold it.
    public static let productID = "-//tick//tick task export//EN"

    /// A whole feed: one VCALENDAR holding `todos` in order.
    public static func calendar(_ todos: [CalendarTodo]) -> [UInt8] {
        var out: [UInt8] = []
        begin(&out)
        for todo in todos { append(todo, to: &out) }
        line("END:VCALENDAR", to: &out)
        return out
    }

    /// The VCALENDAR header lines.
    static func begin(_ out: inout [UInt8]) {
        line("BEGIN:VCALENDAR", to: &out)
        line("VERSION:2.0", to: &out)
        line("PRODID:" + productID, to: &out)
        line("CALSCALE:GREGORIAN", to: &out)
    }

    /// Appends one VTODO.
    public static func append(_ todo: CalendarTodo, to out: inout [UInt8]) {
        line("BEGIN:VTODO", to: &out)
        line("UID:" + text(todo.uid), to: &out)
        line("DTSTAMP:" + utc(todo.stamp), to: &out)
        if todo.sequence > 0 {
            line("LAST-MODIFIED:" + utc(todo.stamp), to: &out)
            line("SEQUENCE:\(todo.sequence)", to: &out)
        }
        line("SUMMARY:" + text(todo.summary), to: &out)
        if !todo.description.isEmpty { line("DESCRIPTION:" + text(todo.description), to: &out) }
        if let start = startLine(todo) { line(start, to: &out) }
        if let due = todo.due { line(dueLine(due), to: &out) }
        if let rule = todo.recurrence, let due = todo.due { line("RRULE:" + RecurrenceExport.rule(rule, until: todo.until, due: due), to: &out) }
        if let priority = priorityValue(todo.priority) { line("PRIORITY:\(priority)", to: &out) }
        if todo.done {
            line("STATUS:COMPLETED", to: &out)
            line("PERCENT-COMPLETE:100", to: &out)
            if let completed = todo.completed { line("COMPLETED:" + utc(completed), to: &out) }
        } else {
            line("STATUS:NEEDS-ACTION", to: &out)
        }
        if !todo.categories.isEmpty {
            line("CATEGORIES:" + todo.categories.map(text).joined(separator: ","), to: &out)
        }
        if let parent = todo.parent { line("RELATED-TO;RELTYPE=PARENT:" + text(parent), to: &out) }
        if todo.flagged { line("X-TICK-FLAGGED:TRUE", to: &out) }
        if let rule = todo.recurrence {
            line("X-TICK-REC:" + rule.token + (todo.until.map { " until:\($0)" } ?? ""), to: &out)
        }
        if let folder = todo.folder { line("X-TICK-FOLDER:" + text(folder), to: &out) }
        if todo.alarm, let due = todo.due, due.minutes != nil {
            line("BEGIN:VALARM", to: &out)
            line("ACTION:DISPLAY", to: &out)
            line("DESCRIPTION:" + text(todo.summary), to: &out)
            line("TRIGGER;RELATED=END:PT0S", to: &out)
            line("END:VALARM", to: &out)
        }
        line("END:VTODO", to: &out)
    }

    /// A VCALENDAR holding one VTODO: the content of one vdir file.
    public static func single(_ todo: CalendarTodo) -> [UInt8] { calendar([todo]) }

    /// `PRIORITY`: 1 for high (`!!!`), 5 for medium, 9 for low; nil for none.
    public static func priorityValue(_ priority: Priority) -> Int? {
        switch priority {
        case .none: return nil
        case .low: return 9
        case .medium: return 5
        case .high: return 1
        }
    }

    /// `DUE;VALUE=DATE:YYYYMMDD`, or `DUE:YYYYMMDDTHHMMSS` in floating local time (no `Z`, no `TZID`).
    public static func dueLine(_ due: DueDate) -> String {
        guard let minutes = due.minutes else { return "DUE;VALUE=DATE:" + basic(due.day) }
        return "DUE:" + basic(due.day) + "T" + two(minutes / 60) + two(minutes % 60) + "00"
    }

    /// `DTSTART`, in the form of `DUE`: for a repeating task its due moment (RFC 5545 requires it
    /// beside `RRULE`, and the rule counts from it); else the start day, when not after the due day.
    static func startLine(_ todo: CalendarTodo) -> String? {
        guard let start = startDay(due: todo.due, start: todo.start, repeats: todo.recurrence != nil) else { return nil }
        guard let due = todo.due else { return "DTSTART;VALUE=DATE:" + basic(start) }
        if todo.recurrence != nil { return "DTSTART" + dueLine(due).dropFirst(3) }
        return due.minutes == nil ? "DTSTART;VALUE=DATE:" + basic(start) : "DTSTART:" + basic(start) + "T000000"
    }

    /// The day of `startLine`'s `DTSTART`, or nil when it writes none.
    static func startDay(due: DueDate?, start: Day?, repeats: Bool) -> Day? {
        guard let due else { return start }
        if repeats { return due.day }
        guard let start, start <= due.day else { return nil }
        return start
    }

    /// A UTC date-time, `YYYYMMDDTHHMMSSZ`, for seconds since the epoch.
    public static func utc(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        return basic(Day(daysSinceEpoch: days)) + "T" + two(rest / 3600) + two(rest / 60 % 60) + two(rest % 60) + "Z"
    }

    /// `YYYYMMDD`.
    static func basic(_ day: Day) -> String {
        let year = String(day.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(day.month) + two(day.day)
    }

    static func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }

    /// A TEXT value: `\`, `;` and `,` escaped with a backslash, a line break (LF, CRLF or CR) as `\n`;
    /// other control characters, which TEXT may not hold, become spaces (a tab stays).
    public static func text(_ value: String) -> String {
        var out = ""
        var previousCR = false
        for c in value.unicodeScalars {
            defer { previousCR = c == "\r" }
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            case "\t": out += "\t"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    out += " "
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// Appends one content line, folded so that no line is longer than 75 octets (a continuation
    /// starts with a space), never inside a UTF-8 sequence, each ending in CRLF.
    public static func line(_ content: String, to out: inout [UInt8]) {
        let bytes = Array(content.utf8)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var end = start + limit
            // Back up to the start of a character: a continuation byte is 10xxxxxx.
            while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            out += bytes[start..<end]
            out += [0x0D, 0x0A, 0x20]
            start = end
            limit = 74
        }
        out += bytes[start...]
        out += [0x0D, 0x0A]
    }
}
