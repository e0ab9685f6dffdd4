import TickCore

/// One task as a row shows it, read from its record once.
///
/// The row reads the same without colour: `ref  [ ] title !! ⚑  due Fri  ↻ every week  ✎  · List`,
/// where `!`/`!!`/`!!!` is the priority, `⚑` the flag, `due …` or `overdue …` the due date in words
/// (`done …` the `done:` date in Completed), `↻ …` a repeating task's rule, `✎` marks notes and
/// `· List` names the list in cross-list views.
struct Row {
    var refHash: UInt64
    var refLength: Int
    var done: Bool
    /// The title's bytes as written (they live as long as the library).
    var title: UnsafeBufferPointer<UInt8>
    var priority: Int
    var flagged: Bool
    /// The due day (days since 1970-01-01), or `.min` when there is none.
    var dueDay: Int32
    /// Minutes after midnight of the due time, or -1.
    var dueMinutes: Int16
    /// Open and past its due at "now" (`DueDate.isOverdue`).
    var overdue: Bool
    /// The `done:` day (days since 1970-01-01), or `.min`.
    var doneDay: Int32
    var hasNotes: Bool
    /// The task's list (an index into `Library.lists`).
    var list: Int
    /// The `rec:` rule, shown as `↻ every week`.
    var recurrence: RecurrenceRule?
    /// Why an open task is in Today when its due date does not say (`⏳ today`), or nil.
    var scheduledWords: String? = nil

    /// The row of `id`, with "now" as today's day number and the minutes after midnight.
    init(_ id: TaskID, in library: Library, today: Int32, minutes: Int) {
        let fields = library.rowFields(id)
        refHash = fields.refHash
        refLength = fields.refLength
        done = fields.done
        title = fields.title
        priority = fields.priority
        flagged = fields.flagged
        dueDay = fields.dueDay
        dueMinutes = fields.dueMinutes
        overdue = !fields.done
            && DueDate.isOverdue(day: fields.dueDay, minutes: fields.dueMinutes, today: today, nowMinutes: minutes)
        doneDay = fields.doneDay
        hasNotes = fields.hasNotes
        list = id.list
        recurrence = library.recurrence(id)
    }

    var hasDue: Bool { dueDay != .min }
}

/// Writes rows as bytes: the one renderer of a task row, for every view, `ls`, `show` and `pick`.
///
/// Styling goes through a `Styler` that writes nothing without colour; a row is fitted to the
/// terminal only when there is a width (see `fitted` for what gives way first). A value type, so
/// that its memos are reached without the run-time exclusivity checks a class's properties need.
struct TaskRows: Sendable {
    let library: Library
    let now: Now
    let styler: Styler
    /// Columns to fit each row into, or nil.
    let width: Int?
    /// Whether rows name their list (cross-list views).
    let showList: Bool
    /// Whether rows show their `done:` date (`done yesterday`), as Completed does.
    let showDoneDate: Bool
    /// Whether a task scheduled today or earlier (`⏳`) and not due by today says so (`⏳ today`),
    /// as Today's rows do: that is why it is there.
    var showScheduled = false
    /// Width of the ref column: the longest ref among the rows shown.
    let refWidth: Int
    /// Today's day number.
    private let today: Int32

    private var bytes: [UInt8] = []
    /// Due words by due (day and minutes) and form, made once per distinct due.
    private var dueWords: [Int: [UInt8]] = [:]
    /// `done:` days in words, made once per day.
    private var doneDays: [Int32: [UInt8]] = [:]
    /// List names as bytes, made once per list.
    private var listNames: [[UInt8]?] = []

    init(library: Library, now: Now, terminal: Terminal, showList: Bool, showDoneDate: Bool = false,
         rows: [TaskID]) {
        self.library = library
        self.showDoneDate = showDoneDate
        self.now = now
        styler = Styler(enabled: terminal.color)
        width = terminal.width
        self.showList = showList
        refWidth = library.refWidth(of: rows)
        // The rows' list names, made here once: a large view renders its ranges of rows with
        // copies of this value, which then share them.
        if showList, !rows.isEmpty {
            listNames = Array(repeating: nil, count: library.lists.count)
            for id in rows where listNames[id.list] == nil { listNames[id.list] = Array(library.lists[id.list].name.utf8) }
        }
        today = now.dayNumber
        bytes.reserveCapacity(256)
    }

    /// The row value of `id`.
    func row(_ id: TaskID) -> Row {
        var row = Row(id, in: library, today: today, minutes: now.minutes)
        if showScheduled, !row.done, !(row.hasDue && row.dueDay <= today), let scheduled = library.task(id).scheduled,
           scheduled <= now.day {
            row.scheduledWords = "⏳ " + (scheduled == now.day ? "today" : scheduled.monthAndDay)
        }
        return row
    }

    /// Writes the row of `id` and a line feed, indented by `indent` columns before the ref and
    /// `level` nesting steps before the checkbox. With colour, the title's characters in `highlight`
    /// (a search's matches) are in reverse video.
    mutating func write(_ id: TaskID, to out: Output, indent: Int = 2, level: Int = 0, highlight: [Range<Int>] = []) {
        var b: [UInt8] = []
        swap(&b, &bytes)
        b.removeAll(keepingCapacity: true)
        appendLine(id, indent: indent, level: level, highlight: highlight, to: &b)
        out.write(bytes: b)
        swap(&b, &bytes)
    }

    /// Appends the row of `id` and a line feed to `b`, as `write` writes it.
    mutating func appendLine(_ id: TaskID, indent: Int = 2, level: Int = 0, highlight: [Range<Int>] = [],
                             to b: inout [UInt8]) {
        append(row(id), indent: indent, level: level, highlight: highlight, to: &b)
        b.append(0x0A)
    }

    /// The row of `id` as text, without its line feed.
    mutating func text(_ id: TaskID, indent: Int = 2, level: Int = 0) -> String {
        var b: [UInt8] = []
        append(row(id), indent: indent, level: level, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Appends one row to `b`.
    mutating func append(_ row: Row, indent: Int, level: Int, highlight: [Range<Int>] = [], to b: inout [UInt8]) {
        let lead = indent + refWidth + 2 + 2 * level
        var layout = RowLayout(showList: showList)
        if let width { layout = fitted(row, lead: lead, width: width) }

        appendSpaces(indent, to: &b)
        styler.begin(.dim, &b)
        Ref(hash: row.refHash).append(row.refLength, to: &b)
        styler.end(&b)
        appendSpaces(lead - indent - row.refLength, to: &b)
        if row.done {
            styler.wrap(Self.doneBox, .green, &b)
        } else {
            b.append(Self.openBox)
        }
        b.append(0x20)
        if row.done { styler.begin(.dim, &b) }
        if styler.enabled, !highlight.isEmpty {
            appendHighlighted(row.title, room: layout.titleRoom, highlight, &b)
        } else if let room = layout.titleRoom {
            appendCut(row.title, to: room, &b)
        } else {
            Library.appendText(row.title, to: &b)
        }
        if row.done { styler.end(&b) }
        if layout.priority, row.priority > 0 {
            b.append(0x20)
            styler.begin(row.priority >= 3 ? .red : .yellow, &b)
            b.append(contentsOf: repeatElement(UInt8(ascii: "!"), count: row.priority))
            styler.end(&b)
        }
        // Without colour, each part's lead and text go in one append (thousands of rows go to a pipe).
        if layout.flag, row.flagged {
            if styler.enabled {
                b.append(0x20)
                styler.wrap(Self.flag, .magenta, &b)
            } else {
                b.append(Self.plainFlag)
            }
        }
        if layout.due, row.hasDue {
            if row.overdue {
                if styler.enabled {
                    b.append(Self.gap)
                    styler.begin(.red, &b)
                    b.append(layout.shortDue ? Self.late : Self.overdue)
                } else {
                    b.append(layout.shortDue ? Self.plainLate : Self.plainOverdue)
                }
            } else {
                b.append(layout.shortDue ? Self.gap : Self.plainDue)
            }
            appendWords(row, short: layout.shortDue, to: &b)
            if row.overdue { styler.end(&b) }
        }
        if layout.due, let scheduled = row.scheduledWords {
            b.append(Self.gap)
            b.append(contentsOf: scheduled.utf8)
        }
        if layout.due, let rule = row.recurrence {
            b.append(Self.plainRepeat)
            if layout.recurrenceWords {
                b.append(0x20)
                b.append(contentsOf: rule.words.utf8)
            }
        }
        if layout.due, showDoneDate, row.doneDay != .min {
            b.append(Self.gap)
            b.append(Self.doneWord)
            b.append(contentsOf: doneWords(row.doneDay))
        }
        if layout.notes, row.hasNotes {
            if styler.enabled {
                b.append(Self.gap)
                styler.wrap(Self.notes, .dim, &b)
            } else {
                b.append(Self.plainNotes)
            }
        }
        if layout.list {
            if styler.enabled {
                b.append(Self.gap)
                styler.begin(.dim, &b)
                b.append(Self.listMark)
            } else {
                b.append(Self.plainListMark)
            }
            if row.list < listNames.count, let known = listNames[row.list] {
                b.append(contentsOf: known)
            } else {
                b.append(contentsOf: listName(row.list))
            }
            styler.end(&b)
        }
    }

    // MARK: - Fitting

    /// The parts of `row` that fit in `width` columns, giving way in the order the README states:
    /// the list name goes, then the due words shorten to the date, then the title is cut (to no
    /// fewer than `RowLayout.shortestTitle` columns); after that the notes mark, the due, the flag
    /// and the priority go in turn, and the title is cut to what is left.
    mutating func fitted(_ row: Row, lead: Int, width: Int) -> RowLayout {
        var layout = RowLayout(showList: showList)
        let fixed = lead + Self.openBox.utf8CodeUnitCount + 1
        let title = columns(row.title)
        func room() -> Int {
            var tail = 0
            if layout.priority, row.priority > 0 { tail += 1 + row.priority }
            if layout.flag, row.flagged { tail += 2 }
            if layout.due, row.hasDue { tail += Self.gap.utf8CodeUnitCount + dueColumns(row, short: layout.shortDue) }
            if layout.due, let scheduled = row.scheduledWords { tail += Self.gap.utf8CodeUnitCount + displayWidth(scheduled) }
            if layout.due, let rule = row.recurrence {
                tail += Self.gap.utf8CodeUnitCount + 1 + (layout.recurrenceWords ? 1 + rule.words.utf8.count : 0)
            }
            if layout.due, showDoneDate, row.doneDay != .min {
                tail += Self.gap.utf8CodeUnitCount + Self.doneWord.utf8CodeUnitCount + doneWords(row.doneDay).count
            }
            if layout.notes, row.hasNotes { tail += Self.gap.utf8CodeUnitCount + 1 }
            if layout.list { tail += Self.gap.utf8CodeUnitCount + 2 + columns(listName(row.list)) }
            return width - fixed - tail
        }
        if title <= room() { return layout }
        layout.recurrenceWords = false
        if title <= room() { return layout }
        layout.list = false
        if title <= room() { return layout }
        if row.hasDue, dueColumns(row, short: true) < dueColumns(row, short: false) {
            layout.shortDue = true
            if title <= room() { return layout }
        }
        let shortest = min(title, RowLayout.shortestTitle)
        for part in [\RowLayout.notes, \.due, \.flag, \.priority] where room() < shortest {
            layout[keyPath: part] = false
        }
        if title > room() { layout.titleRoom = max(0, room()) }
        return layout
    }

    /// Appends the title cut to `room` columns (`fit`: whole characters, no trailing space, then `…`).
    /// The layout asks for a cut only when the title is wider than `room`.
    private func appendCut(_ title: UnsafeBufferPointer<UInt8>, to room: Int, _ b: inout [UInt8]) {
        b.append(contentsOf: fit(String(decoding: title, as: UTF8.self), to: room).utf8)
    }

    /// Appends the title, cut to `room` columns when given, with the characters in `ranges` in
    /// reverse video (never the `…`).
    private func appendHighlighted(_ title: UnsafeBufferPointer<UInt8>, room: Int?, _ ranges: [Range<Int>],
                                   _ b: inout [UInt8]) {
        var cut: [UInt8] = []
        if let room { appendCut(title, to: room, &cut) } else { cut.append(contentsOf: title) }
        var text = String(decoding: cut, as: UTF8.self)
        let ellipsis = room != nil && text.hasSuffix("…")
        if ellipsis { text.removeLast() }
        let count = text.count
        b.append(contentsOf: highlighted(text, ranges.compactMap { range in
            range.lowerBound < count ? range.lowerBound..<min(range.upperBound, count) : nil
        }, enabled: true).utf8)
        if ellipsis { b.append(Self.ellipsis) }
    }

    // MARK: - Parts

    /// Appends the due in words, or its short form.
    private mutating func appendWords(_ row: Row, short: Bool, to b: inout [UInt8]) {
        let key = (Int(row.dueDay) * 1441 + Int(row.dueMinutes) + 1) * 2 + (short ? 1 : 0)
        if let known = dueWords[key] {
            b.append(contentsOf: known)
        } else {
            b.append(contentsOf: words(row, short: short))
        }
    }

    /// The due in words (`tomorrow`, `Fri 09:30`), or in its short form, the date (`Mar 20`).
    private mutating func words(_ row: Row, short: Bool) -> [UInt8] {
        let key = (Int(row.dueDay) * 1441 + Int(row.dueMinutes) + 1) * 2 + (short ? 1 : 0)
        if let known = dueWords[key] { return known }
        let made = Array(now.words(dueDay: row.dueDay, minutes: row.dueMinutes, short: short).utf8)
        dueWords[key] = made
        return made
    }

    /// The `done:` day in words: `today`, `yesterday`, `Mar 12`.
    private mutating func doneWords(_ day: Int32) -> [UInt8] {
        if let known = doneDays[day] { return known }
        let made = Array(now.words(dueDay: day, minutes: -1).utf8)
        doneDays[day] = made
        return made
    }

    /// Columns of the due part after its gap: `due tomorrow`, `overdue Mar 10`, `Mar 20`, `late Mar 10`.
    private mutating func dueColumns(_ row: Row, short: Bool) -> Int {
        let prefix = row.overdue ? (short ? Self.late : Self.overdue).utf8CodeUnitCount : (short ? 0 : Self.due.utf8CodeUnitCount)
        return prefix + words(row, short: short).count
    }

    private mutating func listName(_ list: Int) -> [UInt8] {
        if list < listNames.count, let known = listNames[list] { return known }
        if list >= listNames.count { listNames += repeatElement(nil, count: list - listNames.count + 1) }
        let name = Array(library.lists[list].name.utf8)
        listNames[list] = name
        return name
    }

    @inline(__always)
    private func appendSpaces(_ n: Int, to b: inout [UInt8]) {
        b.append(contentsOf: repeatElement(0x20, count: max(0, n)))
    }

    private static let openBox: StaticString = "[ ]"
    private static let doneBox: StaticString = "[x]"
    private static let flag: StaticString = "⚑"
    private static let gap: StaticString = "  "
    private static let overdue: StaticString = "overdue "
    private static let late: StaticString = "late "
    private static let due: StaticString = "due "
    private static let doneWord: StaticString = "done "
    private static let notes: StaticString = "✎"
    private static let listMark: StaticString = "· "
    private static let ellipsis: StaticString = "…"
    private static let plainFlag: StaticString = " ⚑"
    private static let plainDue: StaticString = "  due "
    private static let plainOverdue: StaticString = "  overdue "
    private static let plainLate: StaticString = "  late "
    private static let plainNotes: StaticString = "  ✎"
    private static let plainRepeat: StaticString = "  ↻"
    private static let plainListMark: StaticString = "  · "

    // MARK: - JSON

    /// The task object of `--json`, with exactly the keys the README documents (`TaskFields`).
    static func json(_ id: TaskID, in library: Library) -> JSON {
        TaskFields.json(TaskFacts(id, in: library))
    }
}

/// Which parts of a row are shown, and how: all of them, unless the row had to fit a width.
struct RowLayout: Equatable {
    /// The fewest columns a title is cut to before the notes mark, due, flag and priority give way.
    static let shortestTitle = 6

    var list: Bool
    var shortDue = false
    var due = true
    /// Whether a repeating task's `↻` is followed by its rule in words.
    var recurrenceWords = true
    var notes = true
    var flag = true
    var priority = true
    /// The columns the title is cut to (its `…` included), or nil when it is shown whole.
    var titleRoom: Int?

    init(showList: Bool) { list = showList }
}

extension Array where Element == UInt8 {
    /// Appends a literal's bytes: a row's fixed parts, without the reference counting that a
    /// static array's would take.
    @inline(__always) mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}

// MARK: - Widths

/// Columns of UTF-8 text (invalid sequences count as U+FFFD).
func columns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return bytes.count }
    return displayWidth(String(decoding: bytes, as: UTF8.self))
}

func columns(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { columns($0) }
}

/// `text` cut to `width` columns, ending in `…` (with no space before it) when cut.
func fit(_ text: String, to width: Int) -> String {
    guard displayWidth(text) > width else { return text }
    guard width > 0 else { return "" }
    var out = ""
    var used = 0
    for character in text {
        let w = displayWidth(of: character)
        if used + w > width - 1 { break }
        out.append(character)
        used += w
    }
    while let last = out.last, last.isWhitespace { out.removeLast() }
    return out + "…"
}

/// `text` padded with spaces to `width` columns.
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - displayWidth(text)))
}
