/// Whether `s` may be part of a tag's name (FORMAT.md 5.5): a letter of any script (Unicode's
/// Alphabetic property), a digit `0` to `9`, `_`, `-` or `/`.
public func isTagNameScalar(_ s: Unicode.Scalar) -> Bool {
    s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "-" || s == "/"
}

/// The metadata tokens of a task's title line, found by scanning its bytes.
///
/// Words are separated by spaces, tabs and Unicode space separators (category Zs). A word inside
/// an inline code span is never a token.
struct TitleLine: Sendable {
    enum Kind: Equatable, Sendable {
        case due(DueDate)
        case done(Day)
        case priority(Int)
        case flag
        /// `id:VALUE`: a stable identity chosen by the user or minted by `tick id` (FORMAT.md 5.8).
        case id(String)
        /// `rec:INTERVAL`: a repetition rule (FORMAT.md 5.10).
        case recurrence(RecurrenceRule)
        /// `until:YYYY-MM-DD`: the last day a repetition may land on.
        case until(Day)
        // The Obsidian Tasks fields (ObsidianFields.swift), written only as signifiers or Dataview fields.
        /// `⏳ DATE`, `[scheduled:: DATE]`.
        case scheduled(Day)
        /// `🛫 DATE`, `[start:: DATE]`.
        case start(Day)
        /// `➕ DATE`, `[created:: DATE]`.
        case created(Day)
        /// `❌ DATE`, `[cancelled:: DATE]`.
        case cancelled(Day)
        /// `🔁 every …` whose phrase has no `rec:` equivalent: kept, shown, never advanced.
        case repeatPhrase(String)
        /// `⛔ ID,…`, `[dependsOn:: ID,…]`.
        case dependsOn(String)
        /// `🏁 keep|delete`, `[onCompletion:: …]`.
        case onCompletion(String)
    }

    struct Malformed: Sendable {
        /// A `due:` word; else a `done:` word.
        var due: Bool
        var range: Range<Int>
        /// A `rec:` or `until:` word; nil for a `due:` or `done:` word (told apart by `due`).
        var key: RepetitionKey? = nil
    }

    /// The keys of the repetition tokens.
    enum RepetitionKey: Sendable, Equatable {
        case recurrence, until
    }

    struct Token: Sendable {
        var kind: Kind
        /// Absolute byte range of the word in the document (for a signifier, with its value).
        var range: Range<Int>
        /// How it is written: a tick token, a signifier, a Dataview field.
        var style: TaskStyle = .tick
        /// For a signifier or a Dataview field, the range of its value (nil for an emoji priority).
        var value: Range<Int>? = nil
    }

    /// Recognised metadata, first of each kind, in line order.
    var tokens: [Token] = []
    /// Later tokens of a kind already seen: title text, but removed along with the first when
    /// tick clears that kind.
    var duplicates: [Token] = []
    /// Words that look like a `due:` or `done:` token but are not one (a malformed value, a key
    /// not in lower case): title text, replaced or removed when tick sets or clears that field.
    var malformed: [Malformed] = []
    /// Tags as written, without `#`, in line order.
    var tags: [String] = []
    /// The title: the line without checkbox and metadata tokens, trimmed.
    var title: String = ""
    /// Problems worth reporting: (byte offset, message).
    var problems: [(offset: Int, message: String)] = []

    /// Scans `bytes[range]` (the title line after the checkbox's `]`). `continuation` is the rest
    /// of the paragraph, where a code span opened on the title line may close.
    init(bytes: [UInt8], range: Range<Int>, continuation: Range<Int>) {
        let code = TitleLine.codeSpans(in: bytes, range: range, continuation: continuation)
        var seenDue = false, seenDone = false, seenPriority = false, seenFlag = false, seenID = false
        var seenRecurrence = false, seenUntil = false
        var seenObsidian: [String] = []
        let obsidian = ObsidianFields.mayHold(bytes, range)

        var i = range.lowerBound
        var previousSeparator: Range<Int>? = nil  // the separators right before the current word
        var span = 0  // the first code span that does not end before the current word
        while i < range.upperBound {
            let s = separatorLength(bytes, i, range.upperBound)
            if s > 0 {
                let start = i
                while i < range.upperBound, case let n = separatorLength(bytes, i, range.upperBound), n > 0 { i += n }
                previousSeparator = start..<i
                continue
            }
            let start = i
            let field = obsidian ? ObsidianFields.match(bytes, at: start, end: range.upperBound) : nil
            if let field {
                i = field.range.upperBound
            } else {
                i = TitleLine.wordEnd(bytes, from: i, to: range.upperBound)
            }
            let word = start..<i
            // Spans and words both come in line order: skip the spans that end before this word.
            while span < code.count, code[span].upperBound <= word.lowerBound { span += 1 }
            let inCode = span < code.count && code[span].overlaps(word)
            var kind: Kind? = nil
            var style = TaskStyle.tick
            var value: Range<Int>? = nil
            if !inCode, let field {
                kind = field.kind
                style = field.style
                value = field.value
                if let problem = field.problem { problems.append((word.lowerBound, problem)) }
            }
            if !inCode {
                if field == nil { kind = classify(bytes, word, after: previousSeparator) }
                if let k = kind {
                    let (seen, what): (Bool, String)
                    switch k {
                    case .due: (seen, what) = (seenDue, "due date"); seenDue = true
                    case .done: (seen, what) = (seenDone, "completion date"); seenDone = true
                    case .priority: (seen, what) = (seenPriority, "priority"); seenPriority = true
                    case .flag: (seen, what) = (seenFlag, "#flag"); seenFlag = true
                    case .id: (seen, what) = (seenID, "id"); seenID = true
                    case .recurrence: (seen, what) = (seenRecurrence, "repetition rule"); seenRecurrence = true
                    case .until: (seen, what) = (seenUntil, "until date"); seenUntil = true
                    case .repeatPhrase: (seen, what) = (seenRecurrence, "repetition rule"); seenRecurrence = true
                    case .scheduled, .start, .created, .cancelled, .dependsOn, .onCompletion:
                        what = ObsidianFields.sortName(k)
                        seen = seenObsidian.contains(what)
                        if !seen { seenObsidian.append(what) }
                    }
                    if seen {
                        problems.append((word.lowerBound, "second \(what) ignored; the first one counts"))
                        duplicates.append(Token(kind: k, range: word, style: style, value: value))
                        kind = nil
                    }
                }
                if kind == nil, field == nil { tag(bytes, word) }
            }
            if let kind { tokens.append(Token(kind: kind, range: word, style: style, value: value)) }
            previousSeparator = nil
        }
        title = TitleLine.title(bytes, line: range, tokens: tokens)
    }

    /// Where the word at `start` ends: at the first separator, or at `end`. Every byte of a title
    /// line passes here, so the scan reads through the buffer and looks closer only at a byte
    /// beyond ASCII.
    @inline(__always)
    private static func wordEnd(_ b: [UInt8], from start: Int, to end: Int) -> Int {
        precondition(start >= 0 && end <= b.count, "word outside the bytes")
        return b.withUnsafeBufferPointer { p in
            var i = start
            while i < end {
                let c = p[i]
                if c < 0x80 {
                    if c == 0x20 || c == 0x09 { break }
                } else if separatorLength(p, i, end) > 0 {
                    break
                }
                i += 1
            }
            return i
        }
    }

    private mutating func classify(_ b: [UInt8], _ w: Range<Int>, after separator: Range<Int>?) -> Kind? {
        // Most words are plain text: decide on the first byte before looking further.
        switch b[w.lowerBound] {
        case UInt8(ascii: "d"), UInt8(ascii: "D"):
            // Both keys, without making an array of them for every word that starts with a d.
            for isDue in [true, false] {
                let key = isDue ? TitleLine.dueKey : TitleLine.doneKey
                guard w.count > key.count, TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: true) else { continue }
                guard TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: false) else {
                    let name = String(decoding: key, as: UTF8.self)
                    problems.append((w.lowerBound, "'\(text(b, w))' is not metadata: keys are lower case ('\(name)')"))
                    malformed.append(Malformed(due: isDue, range: w))
                    return nil
                }
                let value = b[(w.lowerBound + key.count)..<w.upperBound]
                if isDue {
                    if let due = DueDate(iso: value) { return .due(due) }
                    problems.append((w.lowerBound, "malformed due date '\(text(b, w))': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM"))
                } else {
                    if let day = Day(iso: value) { return .done(day) }
                    problems.append((w.lowerBound, "malformed completion date '\(text(b, w))': expected done:YYYY-MM-DD"))
                }
                malformed.append(Malformed(due: isDue, range: w))
                return nil
            }
            return nil
        case UInt8(ascii: "i"), UInt8(ascii: "I"):
            let key = TitleLine.idKey
            // A bare `id:` is a malformed id too: an empty value.
            guard w.count >= key.count, TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: true) else { return nil }
            guard TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: false) else {
                problems.append((w.lowerBound, "'\(text(b, w))' is not metadata: keys are lower case ('id:')"))
                return nil
            }
            let value = b[(w.lowerBound + key.count)..<w.upperBound]
            if let id = TitleLine.idValue(value) { return .id(id) }
            problems.append((w.lowerBound, "malformed id '\(text(b, w))': expected id: and 1 to \(TitleLine.idMaximumLength) "
                             + "letters, digits, '-', '_' or '.'"))
            return nil
        case UInt8(ascii: "r"), UInt8(ascii: "R"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            return classifyRepetition(b, w)
        case UInt8(ascii: "!"):
            guard w.count <= 3, b[w].allSatisfy({ $0 == UInt8(ascii: "!") }) else { return nil }
            // French typography puts a no-break space before "!": that "!" is punctuation.
            if let separator, isNoBreakSpace(b, separator) { return nil }
            return .priority(w.count)
        case UInt8(ascii: "#"):
            if w.count == 5, TitleLine.starts(b, w.lowerBound + 1, with: TitleLine.flagName, ignoringCase: true) { return .flag }
            return nil
        default:
            return nil
        }
    }

    /// A `rec:` or `until:` word: the token, or nil with a problem and a malformed word.
    private mutating func classifyRepetition(_ b: [UInt8], _ w: Range<Int>) -> Kind? {
        let isRecurrence = b[w.lowerBound] | 0x20 == UInt8(ascii: "r")
        let key = isRecurrence ? TitleLine.recurrenceKey : TitleLine.untilKey
        guard w.count > key.count, TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: true) else { return nil }
        let malformed = Malformed(due: false, range: w, key: isRecurrence ? .recurrence : .until)
        guard TitleLine.starts(b, w.lowerBound, with: key, ignoringCase: false) else {
            let name = String(decoding: key, as: UTF8.self)
            problems.append((w.lowerBound, "'\(text(b, w))' is not metadata: keys are lower case ('\(name)')"))
            self.malformed.append(malformed)
            return nil
        }
        let value = b[(w.lowerBound + key.count)..<w.upperBound]
        if isRecurrence {
            if let rule = RecurrenceRule(value: value) { return .recurrence(rule) }
            problems.append((w.lowerBound, "malformed repetition rule '\(text(b, w))': expected rec:N, rec:+N or rec:++N, "
                             + "N a count from 1 to \(RecurrenceRule.maximumCount) followed by d, w, m, y or b"))
        } else {
            if let day = Day(iso: value) { return .until(day) }
            problems.append((w.lowerBound, "malformed until date '\(text(b, w))': expected until:YYYY-MM-DD"))
        }
        self.malformed.append(malformed)
        return nil
    }

    static let recurrenceKey = Array("rec:".utf8)
    static let untilKey = Array("until:".utf8)
    static let dueKey = Array("due:".utf8)
    static let doneKey = Array("done:".utf8)
    static let flagName = Array("flag".utf8)
    static let idKey = Array("id:".utf8)
    /// The longest `id:` value, in bytes.
    static let idMaximumLength = 64

    /// An `id:` value: 1 to 64 ASCII letters, digits, `-`, `_` or `.`; nil for anything else.
    static func idValue(_ value: some Collection<UInt8>) -> String? {
        guard !value.isEmpty, value.count <= idMaximumLength, value.allSatisfy(isIDByte) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    private static func isIDByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
    }

    /// Whether `b` holds `key` at `at` (ASCII letters compared without case when asked).
    static func starts(_ b: [UInt8], _ at: Int, with key: [UInt8], ignoringCase: Bool) -> Bool {
        guard at + key.count <= b.count else { return false }
        for k in 0..<key.count {
            let c = b[at + k]
            if c == key[k] { continue }
            guard ignoringCase, c >= 0x41, c <= 0x5A, c | 0x20 == key[k] else { return false }
        }
        return true
    }

    private mutating func tag(_ b: [UInt8], _ w: Range<Int>) {
        guard b[w.lowerBound] == UInt8(ascii: "#") else { return }
        // Most tags are ASCII: take the name's bytes while they are ASCII name characters, and go
        // by Unicode properties only from the first byte that is not ASCII.
        var end = w.lowerBound + 1
        while end < w.upperBound, b[end] < 0x80, TitleLine.asciiTagBytes[Int(b[end])] { end += 1 }
        guard end < w.upperBound, b[end] >= 0x80 else {
            if end > w.lowerBound + 1 { tags.append(String(decoding: b[(w.lowerBound + 1)..<end], as: UTF8.self)) }
            return
        }
        let rest = String(decoding: b[(w.lowerBound + 1)..<w.upperBound], as: UTF8.self)
        let name = rest.unicodeScalars.prefix(while: isTagNameScalar)
        if !name.isEmpty { tags.append(String(String.UnicodeScalarView(name))) }
    }

    /// `isTagNameScalar` of each ASCII byte, looked up by the scan of a tag.
    static let asciiTagBytes: [Bool] = (0..<128).map { isTagNameScalar(Unicode.Scalar(UInt8($0))) }

    /// The byte ranges that removing `tokens` takes away: each token with one adjacent
    /// separator, the one before it unless that one is right after the checkbox (at
    /// `line.lowerBound`) or already taken, else the one after it.
    static func removalRanges(of tokens: [Token], in b: [UInt8], line: Range<Int>) -> [Range<Int>] {
        var removed: [Range<Int>] = []
        for token in tokens.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            removed.append(removal(of: token, in: b, line: line, after: removed.last?.upperBound))
        }
        return removed
    }

    /// The range that removing `token` takes away, when the removals before it end at `previous`.
    private static func removal(of token: Token, in b: [UInt8], line: Range<Int>, after previous: Int?) -> Range<Int> {
        let limit = max(line.lowerBound + 1, previous ?? 0)
        if var before = separatorStart(b, endingAt: token.range.lowerBound, notBefore: limit) {
            // A Dataview field takes the whole run before it (the plugin writes two spaces there).
            if token.style == .dataview {
                while let earlier = separatorStart(b, endingAt: before, notBefore: limit) { before = earlier }
            }
            return before..<token.range.upperBound
        }
        if token.range.upperBound < line.upperBound,
           case let n = separatorLength(b, token.range.upperBound, line.upperBound), n > 0 {
            return token.range.lowerBound..<(token.range.upperBound + n)
        }
        return token.range
    }

    /// The title: the line without its tokens (each with one separator), trimmed. `tokens` are in
    /// line order, as the scan meets them.
    private static func title(_ b: [UInt8], line: Range<Int>, tokens: [Token]) -> String {
        if tokens.isEmpty { return String(decoding: b[trimmedSeparators(b, line)], as: UTF8.self) }
        return b.withUnsafeBufferPointer { source in
            String(unsafeUninitializedCapacity: line.count) { out in
                let from = UnsafeRawPointer(source.baseAddress!), to = UnsafeMutableRawPointer(out.baseAddress!)
                var count = 0, cursor = line.lowerBound, previous: Int? = nil
                for token in tokens {
                    let r = removal(of: token, in: b, line: line, after: previous)
                    precondition(r.lowerBound >= cursor, "title tokens out of line order")
                    previous = r.upperBound
                    to.advanced(by: count).copyMemory(from: from.advanced(by: cursor), byteCount: r.lowerBound - cursor)
                    count += r.lowerBound - cursor
                    cursor = r.upperBound
                }
                to.advanced(by: count).copyMemory(from: from.advanced(by: cursor), byteCount: line.upperBound - cursor)
                count += line.upperBound - cursor
                // Trim in place: the kept bytes move to the front.
                let kept = trimmedSeparators(UnsafeBufferPointer(rebasing: out[0..<count]), 0..<count)
                to.copyMemory(from: to.advanced(by: kept.lowerBound), byteCount: kept.count)
                return kept.count
            }
        }
    }

    /// Byte ranges inside code spans. A span opened on the title line and closed on a later line of
    /// the paragraph covers the rest of the title line.
    ///
    /// The backtick runs are found in one pass and looked up by length: searching the rest of the
    /// line again for each opener was quadratic in a line of unmatched backticks.
    static func codeSpans(in b: [UInt8], range: Range<Int>, continuation: Range<Int>) -> [Range<Int>] {
        let tick = UInt8(ascii: "`")
        /// The maximal runs of backticks in `start..<end`: each run's length, with its starts in order.
        func runs(_ start: Int, _ end: Int) -> [Int: [Int]] {
            var found: [Int: [Int]] = [:]
            var j = start
            while j < end {
                guard b[j] == tick else { j += 1; continue }
                var k = j
                while k < end, b[k] == tick { k += 1 }
                found[k - j, default: []].append(j)
                j = k
            }
            return found
        }
        func run(_ at: Int, _ end: Int) -> Int {
            var j = at
            while j < end, b[j] == tick { j += 1 }
            return j - at
        }
        // Most title lines hold no backtick, and so no span.
        precondition(range.lowerBound >= 0 && range.upperBound <= b.count, "line outside the bytes")
        guard b.withUnsafeBufferPointer({ p in range.contains { p[$0] == tick } }) else { return [] }
        var spans: [Range<Int>] = []
        var lineRuns: [Int: [Int]]? = nil
        var continuationRuns: [Int: [Int]]? = nil
        var i = range.lowerBound
        while i < range.upperBound {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                i += 2
            } else if c == tick {
                let n = run(i, range.upperBound)
                if lineRuns == nil { lineRuns = runs(range.lowerBound, range.upperBound) }
                // The closer: the first run of exactly n backticks after this one (a run ends at a
                // byte that is not a backtick, so every run after it is whole).
                let starts = lineRuns![n] ?? []
                var lo = 0, hi = starts.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if starts[mid] < i + n { lo = mid + 1 } else { hi = mid }
                }
                if lo < starts.count {
                    let j = starts[lo]
                    spans.append(i..<(j + n))
                    i = j + n
                    continue
                }
                if continuationRuns == nil { continuationRuns = runs(continuation.lowerBound, continuation.upperBound) }
                if continuationRuns![n] != nil {
                    spans.append(i..<range.upperBound)
                    break
                }
                i += n
            } else {
                i += 1
            }
        }
        return spans
    }
}

// MARK: - Separators

/// The byte length of the separator at `i`: space, tab, or a Unicode space separator (Zs).
@inline(__always)
func separatorLength<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ i: Int, _ end: Int) -> Int where Bytes.Index == Int {
    let c = b[i]
    if c < 0x80 { return c == 0x20 || c == 0x09 ? 1 : 0 }
    if c == 0xC2, i + 1 < end, b[i + 1] == 0xA0 { return 2 }  // U+00A0
    guard i + 2 < end else { return 0 }
    let c1 = b[i + 1], c2 = b[i + 2]
    switch c {
    case 0xE1: return c1 == 0x9A && c2 == 0x80 ? 3 : 0  // U+1680
    case 0xE2:
        if c1 == 0x80, (0x80...0x8A).contains(c2) || c2 == 0xAF { return 3 }  // U+2000–200A, U+202F
        if c1 == 0x81, c2 == 0x9F { return 3 }  // U+205F
        return 0
    case 0xE3: return c1 == 0x80 && c2 == 0x80 ? 3 : 0  // U+3000
    default: return 0
    }
}

/// The start of the single separator that ends at `end`, if it starts at or after `limit`.
func separatorStart(_ b: [UInt8], endingAt end: Int, notBefore limit: Int) -> Int? {
    for length in [1, 2, 3] where end - length >= limit {
        if separatorLength(b, end - length, end) == length { return end - length }
    }
    return nil
}

/// Whether a separator run ends with a no-break space (U+00A0 or U+202F).
private func isNoBreakSpace(_ b: [UInt8], _ r: Range<Int>) -> Bool {
    if r.count >= 2, b[r.upperBound - 2] == 0xC2, b[r.upperBound - 1] == 0xA0 { return true }
    if r.count >= 3, b[r.upperBound - 3] == 0xE2, b[r.upperBound - 2] == 0x80, b[r.upperBound - 1] == 0xAF { return true }
    return false
}

/// `bytes` without leading and trailing separators.
func trimmedSeparators(_ bytes: [UInt8]) -> ArraySlice<UInt8> { bytes[trimmedSeparators(bytes, bytes.indices)] }

/// The part of `bytes[range]` without leading and trailing separators.
func trimmedSeparators<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> Range<Int>
where Bytes.Index == Int {
    var lo = range.lowerBound
    while lo < range.upperBound, case let n = separatorLength(bytes, lo, range.upperBound), n > 0 { lo += n }
    var hi = range.upperBound
    while hi > lo {
        // Walk back over one separator: try the 1-, 2- and 3-byte forms.
        if bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1; continue }
        if hi - 2 >= lo, separatorLength(bytes, hi - 2, hi) == 2 { hi -= 2; continue }
        if hi - 3 >= lo, separatorLength(bytes, hi - 3, hi) == 3 { hi -= 3; continue }
        break
    }
    return lo..<hi
}

func text(_ b: [UInt8], _ r: Range<Int>) -> String { String(decoding: b[r], as: UTF8.self) }
