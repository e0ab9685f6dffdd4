import TickFormat

// The text of list files that tick writes: a new list's file name and first lines, a renamed
// heading, and front matter keys set or removed in place.

/// Rules for list names and the files they name.
public enum ListNaming {
    /// The colour names a list's `color` may take (FORMAT.md, section 2), besides `#RRGGBB`.
    public static let colorNames = ["red", "orange", "yellow", "green", "blue", "purple", "brown", "gray"]

    /// The name, trimmed, if it can name a list: not empty, no `/`, no `..`, no leading dot, no
    /// control characters.
    public static func validated(_ name: String) throws(MutationError) -> String {
        let trimmed = name.trimmingSpaces()
        guard !trimmed.isEmpty else { throw .badListName(name, reason: "the name is empty") }
        if trimmed.contains("/") { throw .badListName(name, reason: "a name cannot hold '/'") }
        if trimmed.contains("..") { throw .badListName(name, reason: "a name cannot hold '..'") }
        if trimmed.hasPrefix(".") { throw .badListName(name, reason: "a name cannot start with '.'") }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            // Escaped (\u{01}, \t) so that the message stays one readable line, without Swift's quotes.
            throw .badListName(String(name.debugDescription.dropFirst().dropLast()), reason: "a name cannot hold control characters")
        }
        return trimmed
    }

    /// The file name of a list named `name`: lower case, each run of spaces a hyphen, `.md`.
    /// `Work Stuff` → `work-stuff.md`.
    public static func fileName(for name: String) throws(MutationError) -> String {
        let valid = try validated(name)
        var out = ""
        var space = false
        for c in valid.lowercased() {
            if c == " " || c == "\t" {
                space = true
                continue
            }
            if space { out += "-" }
            space = false
            out.append(c)
        }
        return out + ".md"
    }

    /// Checks a `color` value: a colour name or `#RRGGBB`; returns it as written.
    public static func validatedColor(_ value: String) throws(MutationError) -> String {
        let lower = value.lowercased()
        let hex = lower.count == 7 && lower.hasPrefix("#") && lower.dropFirst().allSatisfy(\.isHexDigit)
        guard hex || colorNames.contains(lower) else {
            throw .badValue("invalid colour '\(value)': expected \(colorNames.joined(separator: ", ")) or #RRGGBB")
        }
        return value
    }

    /// Checks a `symbol` value: one line without control characters.
    public static func validatedSymbol(_ value: String) throws(MutationError) -> String {
        let trimmed = value.trimmingSpaces()
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badValue("invalid symbol \(value.debugDescription): no control characters or line breaks")
        }
        return trimmed
    }
}

/// The bytes of list files: a new list, a new name, new front matter.
public enum ListText {
    /// A new list: front matter when a symbol or colour is given, then `# name`.
    public static func new(name: String, fields: [(key: String, value: String)]) throws(MutationError) -> [UInt8] {
        var text = ""
        if !fields.isEmpty {
            text += "---\n"
            for (key, value) in fields { text += "\(key): \(quoted(value))\n" }
            text += "---\n"
        }
        text += "# \(name)\n"
        let bytes = Array(text.utf8)
        let document = Document(bytes: bytes)
        guard document.heading == name else {
            throw .badListName(name, reason: "it does not read back as the same heading (Markdown markup?)")
        }
        for (key, value) in fields where document.frontMatter?[key] != value {
            throw .badValue("cannot write \(key) '\(value)' so that it reads back the same")
        }
        return bytes
    }

    /// `bytes` with the list's level-1 heading renamed to `name` (a heading added at the top, after
    /// any front matter, when it has none). Every other byte stays.
    public static func renamed(_ bytes: [UInt8], to name: String) throws(MutationError) -> [UInt8] {
        let document = Document(bytes: bytes)
        let lines = LineTable(bytes)
        let ending = Array(document.lineEnding.rawValue.utf8)
        var out: [UInt8]
        if let n = document.headingLine {
            let line = Array(bytes[lines.content(n)])
            let bom = n == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let indent = bom + line.dropFirst(bom).prefix { $0 == 0x20 }.count
            let hashes = line.dropFirst(indent).prefix { $0 == UInt8(ascii: "#") }.count
            var replacement: [UInt8]
            if hashes == 1 {
                // ATX: keep the indentation, the marker, its spacing and a closing sequence.
                let afterMarker = line.dropFirst(indent + 1)
                let spacing = afterMarker.prefix { $0 == 0x20 || $0 == 0x09 }
                replacement = Array(line.prefix(indent + 1)) + (spacing.isEmpty ? [0x20] : Array(spacing)) + Array(name.utf8)
                var end = line.count
                while end > 0, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
                var closing = end
                while closing > indent + 1, line[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
                if closing < end, closing > indent + 1, line[closing - 1] == 0x20 || line[closing - 1] == 0x09 {
                    var start = closing
                    while start > indent + 1, line[start - 1] == 0x20 || line[start - 1] == 0x09 { start -= 1 }
                    replacement += line[start...]
                } else {
                    replacement += line[end...]
                }
            } else {
                // Setext: the text line, indentation kept; its underline stays.
                replacement = Array(line.prefix(indent)) + Array(name.utf8)
            }
            let range = lines.content(n)
            out = Array(bytes[..<range.lowerBound]) + replacement + Array(bytes[range.upperBound...])
        } else {
            let at = document.frontMatter.map { lines.end($0.closingLine) } ?? (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
            let heading = Array("# \(name)".utf8) + ending + (at < bytes.count ? ending : [])
            var lead: [UInt8] = []
            if at > 0, at == bytes.count, let last = bytes.last, last != 0x0A, last != 0x0D { lead = ending }
            out = Array(bytes[..<at]) + lead + heading + Array(bytes[at...])
        }
        let result = Document(bytes: out)
        guard result.heading == name, sameTasks(result, document) else {
            throw .badListName(name, reason: "it does not read back as the list's heading (Markdown markup?)")
        }
        return out
    }

    /// `bytes` with front matter keys set (a nil value removes the key), each line changed in
    /// place, a missing key added before the closing `---`, and the block added at the top when
    /// the file has none (or removed when its last key goes).
    public static func settingFields(_ bytes: [UInt8], _ fields: [(key: String, value: String?)]) throws(MutationError) -> [UInt8] {
        var out = bytes
        for (key, value) in fields {
            out = try setting(out, key: key, value: value)
        }
        let before = Document(bytes: bytes)
        let after = Document(bytes: out)
        for (key, value) in fields where after.frontMatter?[key] != value {
            throw .badValue("cannot write \(key) '\(value ?? "")' so that it reads back the same")
        }
        guard sameTasks(before, after), before.heading == after.heading else {
            throw .badValue("setting \(fields.map(\.key).joined(separator: " and ")) would change the list's tasks or name")
        }
        return out
    }

    private static func setting(_ bytes: [UInt8], key: String, value: String?) throws(MutationError) -> [UInt8] {
        let document = Document(bytes: bytes)
        let lines = LineTable(bytes)
        let ending = Array(document.lineEnding.rawValue.utf8)
        let line = value.map { Array("\(key): \(quoted($0))".utf8) }
        guard let front = document.frontMatter else {
            guard let line else { return bytes }
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let block = Array("---".utf8) + ending + line + ending + Array("---".utf8) + ending
            return Array(bytes[..<bom]) + block + Array(bytes[bom...])
        }
        let keyLine = (2..<front.closingLine).first { n in
            let text = bytes[lines.content(n)]
            return text.starts(with: Array((key + ":").utf8))
        }
        switch (keyLine, line) {
        case (let n?, let line?):
            let range = lines.content(n)
            return Array(bytes[..<range.lowerBound]) + line + Array(bytes[range.upperBound...])
        case (let n?, nil):
            if front.fields.count == 1 {
                // The last key: the block goes, or what remains would read as Markdown.
                let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
                return Array(bytes[..<start]) + Array(bytes[lines.end(front.closingLine)...])
            }
            return Array(bytes[..<lines.start(n)]) + Array(bytes[lines.end(n)...])
        case (nil, let line?):
            let at = lines.start(front.closingLine)
            return Array(bytes[..<at]) + line + ending + Array(bytes[at...])
        case (nil, nil):
            return bytes
        }
    }

    /// A value as a front matter value: quoted when it starts with a quote or `#`, or ends in space.
    static func quoted(_ value: String) -> String {
        if let first = value.first, first == "\"" || first == "'" || first == "#" { return "\"\(value)\"" }
        return value
    }

    private static func sameTasks(_ a: Document, _ b: Document) -> Bool {
        a.tasks.count == b.tasks.count && zip(a.tasks, b.tasks).allSatisfy { $0.title == $1.title && $0.done == $1.done }
            && a.notes == b.notes
    }
}

/// Line boundaries of a file's bytes: LF, CRLF and CR endings.
struct LineTable {
    /// Start offset of each line, plus the end of the bytes.
    private var starts: [Int] = [0]
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                starts.append(i + 1)
            } else if bytes[i] == 0x0D {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        if starts.last != bytes.count { starts.append(bytes.count) }
    }

    /// Offset where line `n` (1-based) starts.
    func start(_ n: Int) -> Int { starts[min(n - 1, starts.count - 1)] }

    /// Offset after line `n`'s ending.
    func end(_ n: Int) -> Int { starts[min(n, starts.count - 1)] }

    /// Line `n` without its ending.
    func content(_ n: Int) -> Range<Int> {
        var e = end(n)
        if e > start(n), bytes[e - 1] == 0x0A { e -= 1 }
        if e > start(n), bytes[e - 1] == 0x0D { e -= 1 }
        return start(n)..<e
    }
}
