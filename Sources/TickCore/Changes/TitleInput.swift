import TickFormat

// What a user types for a task's title line: title words with metadata tokens among them,
// `due:` taking date words (`due:fri`, `due:+3d`, `due:tomorrow 9:00`), as `tick add` and the
// editor of `tick edit` accept it.

/// A title line as typed, split into the title and its metadata.
public struct TitleInput: Equatable, Sendable {
    /// The title without its tokens, trimmed; may be empty.
    public var title: String
    public var due: DueDate?
    public var priority: Priority?
    public var flagged: Bool
    /// The day of a `done:` token.
    public var doneDate: Day?
    /// The rule of a `rec:` token (FORMAT.md 5.10).
    public var recurrence: RecurrenceRule?
    /// The day of an `until:` token, which takes the date words of `due:` (without a time).
    public var until: Day?

    /// The task to add: this title and metadata (its rule and end date too), with `notes` (done when it has a `done:` day).
    /// `style` is the configuration's `obsidian.new-task-style`, for a list without tasks (FORMAT.md 11).
    public func newTask(notes: String, style: TaskStyle = .tick) -> NewTask {
        var task = NewTask(title: title, done: doneDate != nil, due: due, doneDate: doneDate,
                           priority: priority ?? .none, flagged: flagged, notes: notes)
        task.style = style
        task.recurrence = recurrence
        task.until = until
        return task
    }

    /// Splits `text` into title and tokens, the way the format reads a title line, except that
    /// `due:` and `done:` take any date word of `DueDate(parsing:relativeTo:)`; a `due:` word may
    /// be followed by a time word (`due:tomorrow 9:00`). Words inside an inline code span are
    /// title text. A repeated token, a bad date or a time on `done:` is an error.
    public init(parsing text: String, now: Now) throws(TitleInputError) {
        title = ""
        flagged = false
        var words = TitleInput.words(text)
        var k = 0
        var seenFlag = false
        func once(_ seen: Bool, _ what: String) throws(TitleInputError) {
            if seen { throw .repeated(what) }
        }
        while k < words.count {
            let word = words[k]
            defer { k += 1 }
            // Every token below starts with one of these bytes: other words are title words.
            guard !word.inCode, let head = word.text.utf8.first,
                  head == UInt8(ascii: "d") || head == UInt8(ascii: "r") || head == UInt8(ascii: "u")
                    || head == UInt8(ascii: "!") || head == UInt8(ascii: "#") else { continue }
            let token = word.text
            if token.hasPrefix("due:") || token.hasPrefix("done:") {
                let isDue = token.hasPrefix("due:")
                var value = String(token.dropFirst(isDue ? 4 : 5))
                guard !value.isEmpty else { throw .date(.notADate(token)) }
                var consumed = [k]
                if isDue, k + 1 < words.count, !words[k + 1].inCode, TitleInput.isTime(words[k + 1].text) {
                    value += " " + words[k + 1].text
                    consumed.append(k + 1)
                }
                let date: DueDate
                do { date = try DueDate(parsing: value, relativeTo: now) } catch { throw .date(error) }
                if isDue {
                    try once(due != nil, "due date")
                    due = date
                } else {
                    try once(doneDate != nil, "completion date")
                    guard date.minutes == nil else { throw .date(.notADate(token)) }
                    doneDate = date.day
                }
                for c in consumed { words[c].removed = true }
                k = consumed.last!
            } else if token.hasPrefix("rec:") {
                guard let rule = RecurrenceRule(value: token.dropFirst(4).utf8) else { throw .rule(token) }
                try once(recurrence != nil, "rule")
                recurrence = rule
                words[k].removed = true
            } else if token.hasPrefix("until:") {
                let date: DueDate
                do { date = try DueDate(parsing: String(token.dropFirst(6)), relativeTo: now) } catch { throw .date(error) }
                guard date.minutes == nil else { throw .date(.notADate(token)) }
                try once(until != nil, "end date")
                until = date.day
                words[k].removed = true
            } else if token.utf8.count <= 3, token.utf8.allSatisfy({ $0 == UInt8(ascii: "!") }) {
                try once(priority != nil, "priority")
                priority = Priority(rawValue: token.utf8.count)
                words[k].removed = true
            } else if token.utf8.count == 5, token.lowercased() == "#flag" {
                try once(seenFlag, "#flag")
                seenFlag = true
                flagged = true
                words[k].removed = true
            }
        }
        // The title: the text without the removed words, each with the separators before it
        // (after it, for a first word), so that the rest keeps its spacing.
        guard words.contains(where: \.removed) else {
            title = text.trimmingInvisibleSpace()
            return
        }
        // Words start and end on character boundaries: the kept pieces are joined as bytes.
        var kept: [UInt8] = []
        kept.reserveCapacity(text.utf8.count)
        var cursor = text.startIndex
        for (k, word) in words.enumerated() where word.removed {
            let from = k > 0 ? words[k - 1].range.upperBound : text.startIndex
            let to = k > 0 ? word.range.upperBound : (k + 1 < words.count ? words[k + 1].range.lowerBound : text.endIndex)
            if from >= cursor {
                kept += text.utf8[cursor..<from]
                cursor = to
            } else {
                cursor = max(cursor, to)
            }
        }
        kept += text.utf8[cursor...]
        title = String(decoding: kept, as: UTF8.self).trimmingInvisibleSpace()
    }

    public init(title: String, due: DueDate? = nil, priority: Priority? = nil, flagged: Bool = false, doneDate: Day? = nil) {
        self.title = title
        self.due = due
        self.priority = priority
        self.flagged = flagged
        self.doneDate = doneDate
    }

    private struct Word {
        var text: String
        var range: Range<String.Index>
        var inCode: Bool
        /// Read as a token, so not part of the title.
        var removed = false
    }

    /// The words of `text` (split at whitespace), each marked when it lies in an inline code span:
    /// after an odd number of backticks, or holding one.
    private static func words(_ text: String) -> [Word] {
        var backticks = 0
        var result: [Word] = []
        // ASCII text splits at separator bytes, each a character of its own (or half of `\r\n`,
        // both halves separators), so the words and their backticks are the same.
        if let words = asciiWords(text) { return words }
        for part in text.split(whereSeparator: isSeparator) {
            let ticks = part.filter { $0 == "`" }.count
            result.append(Word(text: String(part), range: part.startIndex..<part.endIndex,
                               inCode: backticks % 2 == 1 || ticks > 0))
            backticks += ticks
        }
        return result
    }

    /// `words(text)` of an ASCII text, read byte by byte; nil for text that is not ASCII.
    private static func asciiWords(_ text: String) -> [Word]? {
        let utf8 = text.utf8
        let found = utf8.withContiguousStorageIfAvailable { b -> [Word]? in
            var result: [Word] = []
            result.reserveCapacity(min(b.count / 2 + 1, 16))
            var backticks = 0
            var k = 0
            while k < b.count {
                let c = b[k]
                if c >= 0x80 { return nil }
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { k += 1; continue }
                let from = k
                var ticks = 0
                while k < b.count, b[k] != 0x20, b[k] != 0x09, b[k] != 0x0A, b[k] != 0x0D {
                    if b[k] >= 0x80 { return nil }
                    if b[k] == UInt8(ascii: "`") { ticks += 1 }
                    k += 1
                }
                let range = utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: k)
                result.append(Word(text: String(decoding: UnsafeBufferPointer(rebasing: b[from..<k]), as: UTF8.self),
                                   range: range, inCode: backticks % 2 == 1 || ticks > 0))
                backticks += ticks
            }
            return result
        }
        // Without contiguous UTF-8 (a bridged string), the general path: the same words.
        return found ?? nil
    }

    /// A time word of the date words (`9:00`, `17:30`, `9am`, `5pm`).
    private static func isTime(_ word: String) -> Bool { DueDate.isTimeWord(word) }
}

/// The one check of a task's title, for every path that writes one (`add`, `edit --title`, the
/// editor): trimmed of invisible space at both ends (`isInvisibleSpace`: every Unicode space,
/// zero-width characters, the byte order mark, …), not empty, and nothing `tick check` would
/// report or read as metadata (FORMAT.md, sections 5 and 8.1).
public enum TaskTitle {
    /// The title to write. `besidesMetadata` words the refusal of an empty title for a typed line
    /// that held only metadata tokens.
    public static func validated(_ title: String, besidesMetadata: Bool = false) throws(TitleInputError) -> String {
        try checked(title, besidesMetadata: besidesMetadata).title
    }

    /// `validated(title)` with the scan of the check, for a new task to keep (`NewTask.keepScan`).
    public static func checked(_ title: String, besidesMetadata: Bool = false) throws(TitleInputError) -> CheckedTitle {
        let trimmed = title.trimmingInvisibleSpace()
        guard !trimmed.isEmpty else { throw .emptyTitle(besidesMetadata: besidesMetadata) }
        if let control = trimmed.unicodeScalars.first(where: isRefusedControl) {
            throw .unwritable("it holds the control character \(named(control))")
        }
        switch Document.checkedTitle(trimmed) {
        case .success(let checked): return checked
        case .failure(let problem): throw .unwritable(problem.message)
        }
    }

    /// A control character that no title or note may hold: U+0000 to U+001F but the tab, and
    /// U+007F (a NUL byte in a list, a terminal escape in a view).
    public static func isRefusedControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || scalar.value == 0x7F
    }

    /// `U+0000`.
    public static func named(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Why a typed title line was refused.
public enum TitleInputError: Error, Equatable, Sendable, CustomStringConvertible {
    case date(DateError)
    /// Two tokens of one kind.
    case repeated(String)
    /// Nothing but invisible space (or, besides metadata tokens, nothing at all).
    case emptyTitle(besidesMetadata: Bool)
    /// A `rec:` word that is not a rule.
    case rule(String)
    /// Text that tick cannot write as a title, or that `tick check` would report.
    case unwritable(String)

    public var description: String {
        switch self {
        case .date(let error): return error.description
        case .repeated(let what): return "the title gives its \(what) twice"
        case .emptyTitle(let besidesMetadata): return "a task needs a title" + (besidesMetadata ? " besides its metadata" : "")
        case .unwritable(let problem): return "cannot write this title: \(problem)"
        case .rule(let word):
            return "'\(word)' is not a rule: a count from 1 to 999 and d, w, m, y or b (days, weeks, months, years, "
                + "business days), after + or ++ to count from the due date (rec:1w, rec:+1m, rec:++1w)"
        }
    }
}

/// Word separators of a typed title line: spaces, tabs, line breaks and the Unicode space
/// separators that separate words in a title line (FORMAT.md, section 5).
private func isSeparator(_ c: Character) -> Bool {
    // Of the ASCII characters (`\r\n` among them), only these; the space is the one space separator.
    if let ascii = c.asciiValue { return ascii == 0x20 || ascii == 0x09 || ascii == 0x0A || ascii == 0x0D }
    return c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
}
