// The Obsidian Tasks plugin's metadata on a task's title line (FORMAT.md, "Obsidian Tasks and
// Dataview fields"): emoji signifiers (`📅 2026-12-03`, `⏫`, `🔁 every week`) and Dataview inline
// fields (`[due:: 2026-12-03]`, `(priority:: high)`), read onto tick's model and written back in
// the style the task already uses.

/// How a task's metadata is written: tick's tokens, the Tasks plugin's emoji signifiers, or
/// Dataview inline fields.
public enum TaskStyle: String, Sendable, CaseIterable, Equatable {
    case tick, emoji, dataview
}

/// The five priorities of the Tasks plugin, each with its signifier, kept so that writing back
/// restores the one the task had.
public enum ObsidianPriority: Int, Sendable, CaseIterable, Equatable {
    case lowest = 0, low, medium, high, highest

    /// `⏬`, `🔽`, `🔼`, `⏫`, `🔺`.
    public var signifier: String {
        switch self {
        case .lowest: return "\u{23EC}"
        case .low: return "\u{1F53D}"
        case .medium: return "\u{1F53C}"
        case .high: return "\u{23EB}"
        case .highest: return "\u{1F53A}"
        }
    }

    /// The Dataview value: `lowest` … `highest`.
    public var name: String {
        switch self {
        case .lowest: return "lowest"
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        case .highest: return "highest"
        }
    }

    /// tick's priority: `🔺` and `⏫` high, `🔼` medium, `🔽` and `⏬` low.
    public var priority: Priority {
        switch self {
        case .lowest, .low: return .low
        case .medium: return .medium
        case .high, .highest: return .high
        }
    }

    /// The signifier tick writes for `priority` (nil for none): `⏫`, `🔼` or `🔽`.
    public init?(_ priority: Priority) {
        switch priority {
        case .none: return nil
        case .low: self = .low
        case .medium: self = .medium
        case .high: self = .high
        }
    }
}

/// Recognition and writing of the emoji signifiers and Dataview fields.
enum ObsidianFields {
    /// What a signifier or Dataview key stands for.
    enum Field: Equatable {
        case due, scheduled, start, created, done, cancelled, recurrence, id, dependsOn, onCompletion
        case priority(ObsidianPriority)
    }

    /// A signifier or field found on a title line.
    struct Match {
        /// The token, or nil when the value is malformed (the bytes stay title text, with `problem`).
        var kind: TitleLine.Kind?
        /// The whole token: signifier and value, or the bracketed field (with a comma after it).
        var range: Range<Int>
        /// The value's bytes (nil for an emoji priority, which is only its signifier).
        var value: Range<Int>?
        var style: TaskStyle
        var problem: String? = nil
    }

    /// The signifiers, as UTF-8. Each may be followed by U+FE0F (the emoji presentation selector).
    static let signifiers: [(bytes: [UInt8], field: Field)] = ([
        ("\u{1F4C5}", Field.due), ("\u{1F4C6}", .due), ("\u{1F5D3}", .due),
        ("\u{23F3}", .scheduled), ("\u{231B}", .scheduled),
        ("\u{1F6EB}", .start), ("\u{2795}", .created), ("\u{2705}", .done), ("\u{274C}", .cancelled),
        ("\u{1F53A}", .priority(.highest)), ("\u{23EB}", .priority(.high)), ("\u{1F53C}", .priority(.medium)),
        ("\u{1F53D}", .priority(.low)), ("\u{23EC}", .priority(.lowest)),
        ("\u{1F501}", .recurrence), ("\u{1F194}", .id), ("\u{26D4}", .dependsOn), ("\u{1F3C1}", .onCompletion),
    ] as [(String, Field)]).map { (Array($0.0.utf8), $0.1) }

    /// The Dataview keys the Tasks plugin reads, and what each stands for.
    static let keys: [(name: [UInt8], field: Field)] = ([
        ("due", Field.due), ("scheduled", .scheduled), ("start", .start), ("created", .created),
        ("completion", .done), ("cancelled", .cancelled), ("priority", .priority(.medium)), ("repeat", .recurrence),
        ("id", .id), ("dependsOn", .dependsOn), ("onCompletion", .onCompletion),
    ] as [(String, Field)]).map { (Array($0.0.utf8), $0.1) }

    static let variationSelector: [UInt8] = [0xEF, 0xB8, 0x8F]

    /// Whether the title line may hold a signifier or a Dataview field: a byte 0xE2 or above (every
    /// signifier starts with 0xE2 or 0xF0), or `::`. Lines without either skip all the work below.
    @inline(__always)
    static func mayHold(_ b: [UInt8], _ range: Range<Int>) -> Bool {
        precondition(range.lowerBound >= 0 && range.upperBound <= b.count, "line outside the bytes")
        // Every title line is scanned: through the buffer, without a bounds check per byte.
        return b.withUnsafeBufferPointer { p in
            var previous: UInt8 = 0
            for i in range {
                let c = p[i]
                if c >= 0xE2 || c == UInt8(ascii: ":") && previous == UInt8(ascii: ":") { return true }
                previous = c
            }
            return false
        }
    }

    /// The signifier or field that starts at `i` (the start of a word), or nil.
    static func match(_ b: [UInt8], at i: Int, end: Int) -> Match? {
        let c = b[i]
        if c == 0xE2 || c == 0xF0 { return emoji(b, at: i, end: end) }
        if c == UInt8(ascii: "[") || c == UInt8(ascii: "(") { return dataview(b, at: i, end: end) }
        return nil
    }

    // MARK: - Emoji

    private static func emoji(_ b: [UInt8], at i: Int, end: Int) -> Match? {
        guard let (length, field) = signifier(b, at: i, end: end) else { return nil }
        var j = i + length
        if TitleLine.starts(b, j, with: variationSelector, ignoringCase: false), j + 3 <= end { j += 3 }
        if case .priority(let level) = field {
            // A priority is its signifier alone, a whole word.
            guard j == end || separatorLength(b, j, end) > 0 else { return nil }
            return Match(kind: .priority(level.priority.rawValue), range: i..<j, value: nil, style: .emoji)
        }
        let signifierText = text(b, i..<j)
        while j < end, isSpaceOrTab(b[j]) { j += 1 }
        guard j < end else { return nil }
        switch field {
        case .recurrence:
            // The phrase: the words after it made of ASCII letters, digits and commas.
            var k = j, last = j
            while k < end {
                var w = k
                while w < end, isPhraseByte(b[w]) { w += 1 }
                guard w > k, w == end || separatorLength(b, w, end) > 0 else { break }
                last = w
                k = w
                while k < end, isSpaceOrTab(b[k]) { k += 1 }
            }
            guard last > j else { return nil }
            return Match(kind: recurrenceKind(b[j..<last]), range: i..<last, value: j..<last, style: .emoji)
        default:
            var w = j
            while w < end, separatorLength(b, w, end) == 0 { w += 1 }
            let value = j..<w
            guard let kind = valueKind(field, b[value]) else {
                // Only a value that starts like one is reported; other text after a signifier is just text.
                guard isDigit(b[j]) || field == .id else { return nil }
                return Match(kind: nil, range: i..<w, value: value, style: .emoji,
                             problem: "malformed \(name(field)) '\(text(b, i..<w))': expected \(signifierText) \(expected(field))")
            }
            return Match(kind: kind, range: i..<w, value: value, style: .emoji)
        }
    }

    private static func signifier(_ b: [UInt8], at i: Int, end: Int) -> (Int, Field)? {
        for (bytes, field) in signifiers where i + bytes.count <= end && b[i + 1] == bytes[1] {
            if TitleLine.starts(b, i, with: bytes, ignoringCase: false) { return (bytes.count, field) }
        }
        return nil
    }

    // MARK: - Dataview

    private static func dataview(_ b: [UInt8], at i: Int, end: Int) -> Match? {
        let close = b[i] == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: ")")
        // The key: up to `::`, before any bracket.
        var k = i + 1
        while k + 1 < end, !(b[k] == UInt8(ascii: ":") && b[k + 1] == UInt8(ascii: ":")) {
            let c = b[k]
            if c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "(") || c == UInt8(ascii: ")") { return nil }
            k += 1
        }
        guard k + 1 < end else { return nil }
        let name = trimmed(b, (i + 1)..<k)
        guard let field = keys.first(where: { $0.name.elementsEqual(b[name]) })?.field else { return nil }
        var c = k + 2
        while c < end, b[c] != close {
            if b[c] == UInt8(ascii: "[") || b[c] == UInt8(ascii: "(") { return nil }
            c += 1
        }
        guard c < end else { return nil }
        var upper = c + 1
        if upper < end, b[upper] == UInt8(ascii: ",") { upper += 1 }
        guard upper == end || separatorLength(b, upper, end) > 0 else { return nil }
        let value = trimmed(b, (k + 2)..<c)
        let kind: TitleLine.Kind?
        switch field {
        case .recurrence: kind = value.isEmpty ? nil : recurrenceKind(b[value])
        case .priority:
            kind = ObsidianPriority.allCases.first { Array($0.name.utf8).elementsEqual(b[value]) }.map { .priority($0.priority.rawValue) }
        default: kind = valueKind(field, b[value])
        }
        guard let kind else {
            let key = String(decoding: b[name], as: UTF8.self)
            return Match(kind: nil, range: i..<upper, value: value, style: .dataview,
                         problem: "malformed \(self.name(field)) '\(text(b, i..<(c + 1)))': expected [\(key):: \(expected(field))]")
        }
        return Match(kind: kind, range: i..<upper, value: value, style: .dataview)
    }

    private static func trimmed(_ b: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi, isSpaceOrTab(b[lo]) { lo += 1 }
        while hi > lo, isSpaceOrTab(b[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    // MARK: - Values

    private static func valueKind(_ field: Field, _ value: ArraySlice<UInt8>) -> TitleLine.Kind? {
        switch field {
        case .due: return value.count == 10 ? Day(iso: value).map { .due(DueDate(day: $0)) } : nil
        case .scheduled: return value.count == 10 ? Day(iso: value).map(TitleLine.Kind.scheduled) : nil
        case .start: return value.count == 10 ? Day(iso: value).map(TitleLine.Kind.start) : nil
        case .created: return value.count == 10 ? Day(iso: value).map(TitleLine.Kind.created) : nil
        case .done: return value.count == 10 ? Day(iso: value).map(TitleLine.Kind.done) : nil
        case .cancelled: return value.count == 10 ? Day(iso: value).map(TitleLine.Kind.cancelled) : nil
        case .id: return TitleLine.idValue(value).map(TitleLine.Kind.id)
        case .dependsOn:
            return !value.isEmpty && value.allSatisfy({ isIDByte($0) || $0 == UInt8(ascii: ",") })
                ? .dependsOn(String(decoding: value, as: UTF8.self)) : nil
        case .onCompletion:
            return !value.isEmpty && value.allSatisfy(isLetter) ? .onCompletion(String(decoding: value, as: UTF8.self)) : nil
        case .recurrence, .priority: return nil
        }
    }

    private static func recurrenceKind(_ phrase: ArraySlice<UInt8>) -> TitleLine.Kind {
        if let rule = rule(phrase) { return .recurrence(rule) }
        return .repeatPhrase(String(decoding: phrase, as: UTF8.self))
    }

    private static func name(_ field: Field) -> String {
        switch field {
        case .due: return "due date"
        case .scheduled: return "scheduled date"
        case .start: return "start date"
        case .created: return "created date"
        case .done: return "completion date"
        case .cancelled: return "cancelled date"
        case .recurrence: return "recurrence"
        case .id: return "id"
        case .dependsOn: return "dependency"
        case .onCompletion: return "on-completion action"
        case .priority: return "priority"
        }
    }

    private static func expected(_ field: Field) -> String {
        switch field {
        case .id: return "and 1 to \(TitleLine.idMaximumLength) letters, digits, '-', '_' or '.'"
        case .dependsOn: return "ids separated by commas"
        case .onCompletion: return "keep or delete"
        case .priority: return "lowest, low, medium, high or highest"
        case .recurrence: return "every …"
        default: return "YYYY-MM-DD"
        }
    }

    private static func isPhraseByte(_ c: UInt8) -> Bool { isLetter(c) || isDigit(c) || c == UInt8(ascii: ",") }
    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    private static func isIDByte(_ c: UInt8) -> Bool {
        isLetter(c) || isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
    }

    // MARK: - Recurrence phrases

    /// The `rec:` rule of a Tasks phrase, when it has one: `every [N] day|week|month|year[s]`
    /// (from the due date, `rec:+N…`), `every weekday` (`rec:+1b`), each optionally followed by
    /// `when done` (from the completion, `rec:N…`). Letter case does not matter. Nil for any other phrase.
    static func rule(_ phrase: ArraySlice<UInt8>) -> RecurrenceRule? {
        let words = phrase.split(whereSeparator: isSpaceOrTab).map { String(decoding: $0, as: UTF8.self).lowercased() }
        guard words.first == "every" else { return nil }
        var rest = words.dropFirst()
        var mode = RecurrenceRule.Mode.due
        if rest.count >= 2, rest.suffix(2).elementsEqual(["when", "done"]) {
            mode = .completion
            rest = rest.dropLast(2)
        }
        var count = 1
        if let first = rest.first, first.utf8.allSatisfy(isDigit) {
            guard first.utf8.count <= 3, let n = Int(first) else { return nil }
            count = n
            rest = rest.dropFirst()
        }
        guard rest.count == 1, let word = rest.first else { return nil }
        let units: [(String, RecurrenceRule.Unit)] = [("day", .day), ("week", .week), ("month", .month), ("year", .year)]
        if word == "weekday" || word == "weekdays" {
            guard count == 1 && words.count == (mode == .completion ? 4 : 2) else { return nil }
            return RecurrenceRule(count: 1, unit: .businessDay, mode: mode)
        }
        for (name, unit) in units where word == name || word == name + "s" {
            // "every 1 days" and "every 2 week" are not the plugin's spellings; both read the same.
            return RecurrenceRule(count: count, unit: unit, mode: mode)
        }
        return nil
    }

    /// The phrase the Tasks plugin writes for `rule`, or nil when it has none (`rec:++…`, and a
    /// business-day step other than 1).
    static func phrase(_ rule: RecurrenceRule) -> String? {
        let unit: String
        switch rule.unit {
        case .day: unit = "day"
        case .week: unit = "week"
        case .month: unit = "month"
        case .year: unit = "year"
        case .businessDay:
            guard rule.count == 1 else { return nil }
            unit = "weekday"
        }
        let base = rule.count == 1 ? "every \(unit)" : "every \(rule.count) \(unit)s"
        switch rule.mode {
        case .due: return base
        case .completion: return base + " when done"
        case .future: return nil
        }
    }

    // MARK: - Writing

    /// The token tick writes for `kind` in `style` (emoji or Dataview), or nil when the style has
    /// none for it (a flag, an `until:` day), or none for this value (a due time, `rec:++…`).
    static func token(_ kind: TitleLine.Kind, style: TaskStyle) -> String? {
        guard style != .tick, let value = value(kind, style: style) else { return nil }
        let (emoji, key): (String, String)
        switch kind {
        case .due: (emoji, key) = ("\u{1F4C5}", "due")
        case .done: (emoji, key) = ("\u{2705}", "completion")
        case .scheduled: (emoji, key) = ("\u{23F3}", "scheduled")
        case .start: (emoji, key) = ("\u{1F6EB}", "start")
        case .created: (emoji, key) = ("\u{2795}", "created")
        case .cancelled: (emoji, key) = ("\u{274C}", "cancelled")
        case .recurrence, .repeatPhrase: (emoji, key) = ("\u{1F501}", "repeat")
        case .id: (emoji, key) = ("\u{1F194}", "id")
        case .dependsOn: (emoji, key) = ("\u{26D4}", "dependsOn")
        case .onCompletion: (emoji, key) = ("\u{1F3C1}", "onCompletion")
        case .priority:
            // An emoji priority is its signifier alone.
            return style == .emoji ? value : "[priority:: \(value)]"
        case .flag, .until: return nil
        }
        return style == .emoji ? "\(emoji) \(value)" : "[\(key):: \(value)]"
    }

    /// The value tick writes for `kind` in `style`: the date, the priority's signifier (emoji) or
    /// name (Dataview), the phrase, the id; nil when the style cannot hold it.
    static func value(_ kind: TitleLine.Kind, style: TaskStyle) -> String? {
        switch kind {
        case .due(let due): return due.minutes == nil ? due.day.description : nil
        case .done(let day), .scheduled(let day), .start(let day), .created(let day), .cancelled(let day):
            return day.description
        case .priority(let level):
            guard let p = Priority(rawValue: level).flatMap(ObsidianPriority.init) else { return nil }
            return style == .emoji ? p.signifier : p.name
        case .recurrence(let rule): return phrase(rule)
        case .repeatPhrase(let text), .id(let text), .dependsOn(let text), .onCompletion(let text): return text
        case .flag, .until: return nil
        }
    }

    /// The exact priority of an emoji or Dataview priority token, from its bytes.
    static func priority(of token: TitleLine.Token, in b: [UInt8]) -> ObsidianPriority? {
        switch token.style {
        case .tick: return nil
        case .emoji:
            return signifier(b, at: token.range.lowerBound, end: token.range.upperBound).flatMap { _, field in
                if case .priority(let p) = field { return p } else { return nil }
            }
        case .dataview:
            guard let value = token.value else { return nil }
            return ObsidianPriority.allCases.first { Array($0.name.utf8).elementsEqual(b[value]) }
        }
    }
}

extension ObsidianFields {
    /// The name of a kind that only the Tasks plugin writes, for messages about a second one.
    static func sortName(_ kind: TitleLine.Kind) -> String {
        switch kind {
        case .scheduled: return "scheduled date"
        case .start: return "start date"
        case .created: return "created date"
        case .cancelled: return "cancelled date"
        case .dependsOn: return "dependency"
        case .onCompletion: return "on-completion action"
        default: return "field"
        }
    }
}
