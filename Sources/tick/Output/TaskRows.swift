import TickCore

/// Renders tasks: one row per task for people, one object per task for programs.
///
/// A row: `ref  [ ] title !! ⚑  due Fri  ✎  · List`. Every meaning is in words or symbols, so the
/// row reads the same without colour: `!`/`!!`/`!!!` priority, `⚑` flagged, `due …` or
/// `overdue …`, `✎` has notes, `· List` in cross-list views.
struct TaskRows {
    let library: Library
    let now: Now
    let terminal: Terminal
    /// Whether rows name their list (cross-list views).
    var showList: Bool
    /// Width of the ref column: the longest ref among the rows shown.
    var refWidth: Int

    init(library: Library, now: Now, terminal: Terminal, showList: Bool, rows: [TaskID]) {
        self.library = library
        self.now = now
        self.terminal = terminal
        self.showList = showList
        var widest = Ref.minimumLength
        for id in rows { widest = max(widest, library.refLength(id)) }
        refWidth = widest
    }

    /// Writes one row to `out`: the same text as `row`, built as bytes when there is no colour and
    /// no width to fit (output to a pipe or a file, where thousands of rows go at once).
    func write(_ id: TaskID, to out: Output, indent: Int = 2, level: Int = 0, scratch: inout RowScratch) {
        guard !terminal.color, terminal.width == nil else {
            out.line(row(id, indent: indent, level: level))
            return
        }
        var b: [UInt8] = []
        swap(&b, &scratch.bytes)
        b.removeAll(keepingCapacity: true)
        let fields = library.rowFields(id)
        b.append(contentsOf: RowScratch.spaces[0..<min(indent, RowScratch.spaces.count)])
        Library.appendRef(hash: fields.refHash, length: fields.refLength, to: &b)
        let gap = refWidth - fields.refLength + 2 + 2 * level
        if gap <= RowScratch.spaces.count {
            b.append(contentsOf: RowScratch.spaces[0..<gap])
        } else {
            b.append(contentsOf: repeatElement(0x20, count: gap))
        }
        b.append(contentsOf: fields.done ? RowScratch.doneBox : RowScratch.openBox)
        b.append(0x20)
        Library.appendText(fields.title, to: &b)
        if fields.priority > 0 {
            b.append(0x20)
            b.append(contentsOf: repeatElement(UInt8(ascii: "!"), count: fields.priority))
        }
        if fields.flagged { b.append(contentsOf: RowScratch.flag) }
        if fields.dueDay != .min {
            let overdue = fields.dueDay < scratch.today(now)
                || (fields.dueDay == scratch.today(now) && fields.dueMinutes >= 0 && Int(fields.dueMinutes) <= now.minutes)
            b.append(contentsOf: !fields.done && overdue ? RowScratch.overdue : RowScratch.due)
            scratch.appendWords(day: fields.dueDay, minutes: fields.dueMinutes, now: now, to: &b)
        }
        if fields.hasNotes { b.append(contentsOf: RowScratch.notes) }
        if showList {
            b.append(contentsOf: RowScratch.listMark)
            scratch.appendListName(id.list, library: library, to: &b)
        }
        b.append(0x0A)
        out.write(bytes: b)
        swap(&b, &scratch.bytes)
    }

    private func style(_ text: String, _ s: Style) -> String { s.apply(text, enabled: terminal.color) }

    /// One row, indented by `indent` columns before the ref and `level` nesting steps before the checkbox.
    /// With colour, the characters of the title in `highlight` (search matches) are in reverse video.
    func row(_ id: TaskID, indent: Int = 2, level: Int = 0, highlight: [Range<Int>] = []) -> String {
        let task = library.task(id)
        let ref = library.ref(id)
        let lead = String(repeating: " ", count: indent)
            + style(ref, .dim) + String(repeating: " ", count: refWidth - ref.count + 2)
            + String(repeating: "  ", count: level)
        let checkbox = task.done ? style("[x]", .green) : "[ ]"

        var tail: [(plain: String, styled: String)] = []
        if let marker = task.priority.token {
            tail.append((" " + marker, " " + style(marker, task.priority == .high ? .red : .yellow)))
        }
        if task.flagged { tail.append((" ⚑", " " + style("⚑", .magenta))) }
        if let due = task.due {
            let words = due.relativeText(to: now)
            if !task.done, due.isOverdue(at: now) {
                tail.append(("  overdue " + words, "  " + style("overdue " + words, .red)))
            } else {
                tail.append(("  due " + words, "  due " + words))
            }
        }
        if !library.notes(id).isEmpty { tail.append(("  ✎", "  " + style("✎", .dim))) }
        if showList {
            let name = library.list(id).name
            tail.append(("  · " + name, "  " + style("· " + name, .dim)))
        }

        var title = task.title
        if let width = terminal.width {
            let used = displayWidth(lead) + 4 + tail.reduce(0) { $0 + displayWidth($1.plain) }
            title = fit(title, to: max(10, width - used))
        }
        if terminal.color, !highlight.isEmpty {
            // A fitted title ends in `…`, which is not part of any match.
            let kept = title == task.title ? title.count : title.count - 1
            title = highlighted(title, highlight.compactMap { $0.clamped(to: 0..<kept) }.filter { !$0.isEmpty })
        }
        if task.done { title = style(title, .dim) }
        return lead + checkbox + " " + title + tail.map(\.styled).joined()
    }

    /// The task object of `--json`, with exactly the keys the README documents.
    func json(_ id: TaskID) -> JSON { Self.json(id, in: library) }

    static func json(_ id: TaskID, in library: Library) -> JSON {
        let task = library.task(id)
        let list = library.list(id)
        return .object([
            ("ref", .string(library.ref(id))),
            ("list", .string(list.name)),
            ("file", .string(list.file.path)),
            ("line", .int(task.line)),
            ("title", .string(task.title)),
            ("done", .bool(task.done)),
            ("due", .optional(task.due?.description)),
            ("priority", .int(task.priority.rawValue)),
            ("flagged", .bool(task.flagged)),
            ("tags", .array(task.tags.map(JSON.string))),
            ("notes", .string(library.notes(id))),
            ("section", .optional(task.section)),
            ("parent", .optional(library.parent(of: id).map(library.ref))),
            ("doneDate", .optional(task.doneDate?.description)),
        ])
    }
}

/// Buffers and memos reused across the rows of one command.
struct RowScratch {
    static let spaces = [UInt8](repeating: 0x20, count: 64)
    static let openBox = Array("[ ]".utf8)
    static let doneBox = Array("[x]".utf8)
    static let flag = Array(" ⚑".utf8)
    static let overdue = Array("  overdue ".utf8)
    static let due = Array("  due ".utf8)
    static let notes = Array("  ✎".utf8)
    static let listMark = Array("  · ".utf8)

    var bytes: [UInt8] = []
    private var dueWords: [Int: [UInt8]] = [:]
    private var listNames: [[UInt8]?] = []

    init() { bytes.reserveCapacity(256) }

    /// The relative words for a due (`tomorrow`, `Fri 09:30`), made once per distinct due.
    mutating func appendWords(day: Int32, minutes: Int16, now: Now, to out: inout [UInt8]) {
        let key = Int(day) * 1441 + Int(minutes) + 1
        if let known = dueWords[key] { out.append(contentsOf: known); return }
        let due = DueDate(day: Day(daysSinceEpoch: Int(day)), minutes: minutes < 0 ? nil : Int(minutes))
        let words = Array(due.relativeText(to: now).utf8)
        dueWords[key] = words
        out.append(contentsOf: words)
    }

    private var todayNumber: Int32?

    /// Today's day number, computed once.
    mutating func today(_ now: Now) -> Int32 {
        if let todayNumber { return todayNumber }
        let n = Int32(now.day.daysSinceEpoch)
        todayNumber = n
        return n
    }

    mutating func appendListName(_ list: Int, library: Library, to out: inout [UInt8]) {
        if list < listNames.count, let known = listNames[list] { out.append(contentsOf: known); return }
        if list >= listNames.count { listNames += repeatElement(nil, count: list - listNames.count + 1) }
        let name = Array(library.lists[list].name.utf8)
        listNames[list] = name
        out.append(contentsOf: name)
    }
}

// MARK: - Widths

/// Columns a string takes on a terminal: wide and emoji characters count two, marks none;
/// ANSI colour sequences count nothing.
func displayWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for character in text {
        if inEscape {
            if character == "m" { inEscape = false }
            continue
        }
        if character == "\u{1B}" {
            inEscape = true
            continue
        }
        width += characterWidth(character)
    }
    return width
}

func characterWidth(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
    let properties = scalar.properties
    if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { return 0 }
    if properties.isEmojiPresentation || character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
         0xFFE0...0xFFE6, 0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}

/// `text` cut to `width` columns, ending in `…` when cut.
func fit(_ text: String, to width: Int) -> String {
    guard displayWidth(text) > width else { return text }
    var out = ""
    var used = 0
    for character in text {
        let w = characterWidth(character)
        if used + w > width - 1 { break }
        out.append(character)
        used += w
    }
    return out + "…"
}

/// `text` padded with spaces to `width` columns.
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - displayWidth(text)))
}

// MARK: - List colours

extension Terminal {
    /// A list's name in its own colour: a named colour from the 16-colour palette, `#RRGGBB` only
    /// where the terminal announces true colour.
    func listColored(_ text: String, color: String?) -> String {
        guard self.color, let color = color?.lowercased() else { return text }
        if color.hasPrefix("#") {
            guard trueColor, color.count == 7, let rgb = Int(color.dropFirst(), radix: 16) else { return text }
            return "\u{1B}[38;2;\(rgb >> 16);\((rgb >> 8) & 0xFF);\(rgb & 0xFF)m\(text)\u{1B}[0m"
        }
        let named: [String: Style] = [
            "red": .red, "green": .green, "yellow": .yellow, "orange": .yellow, "blue": .blue,
            "purple": .magenta, "magenta": .magenta, "pink": .magenta, "cyan": .cyan, "teal": .cyan,
        ]
        return named[color].map { $0.apply(text, enabled: true) } ?? text
    }
}
