/// The optional `---` block at the very start of a list file: `key: value` lines.
///
/// tick reads `symbol` and `color`; every other key is kept as written.
public struct FrontMatter: Sendable {
    /// Fields in file order, values trimmed.
    public var fields: [(key: String, value: String)]
    /// Lines 1...closingLine hold the block (1-based, both fences included).
    public var closingLine: Int

    public subscript(key: String) -> String? { fields.first { $0.key == key }?.value }

    /// A file whose first line is `---` but whose block is not front matter (FORMAT.md, section 2):
    /// tick reads it as Markdown, does not write front matter into it, and `tick check` reports it.
    public struct Unrecognized: Sendable, Equatable {
        /// The line that breaks the rules (the first line when the block has no closing `---`).
        public var line: Int
        public var reason: String
    }

    /// What the start of a file holds.
    enum Detection {
        case none
        case frontMatter(FrontMatter)
        case unrecognized(Unrecognized)
    }

    /// Recognises front matter: a first line `---` (after an optional BOM), then only blank lines,
    /// `key: value` lines, indented continuation lines and `#` comments, then a line `---`.
    /// Anything else means the file has no front matter, and cmark sees a thematic break.
    static func detect(in bytes: [UInt8], lines: Lines, bomLength: Int) -> Detection {
        guard lines.count >= 1 else { return .none }
        func content(_ n: Int) -> ArraySlice<UInt8> {
            var end = lines.contentEnd(n)
            while end > lines.start(n), bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return bytes[(lines.start(n) + (n == 1 ? bomLength : 0))..<end]
        }
        let fence = Array("---".utf8)
        guard content(1).elementsEqual(fence) else { return .none }
        var fields: [(String, String)] = []
        var firstBadLine: Int? = nil
        for n in stride(from: 2, through: lines.count, by: 1) {
            let line = content(n)
            if line.elementsEqual(fence) {
                if let firstBadLine {
                    return .unrecognized(Unrecognized(line: firstBadLine, reason: "line \(firstBadLine) is not 'key: value', an indented line or a comment"))
                }
                guard !fields.isEmpty else {
                    return .unrecognized(Unrecognized(line: 1, reason: "the block has no 'key: value' line"))
                }
                return .frontMatter(FrontMatter(fields: fields, closingLine: n))
            }
            guard firstBadLine == nil, let first = line.first else { continue }
            if first == 0x20 || first == 0x09 || first == UInt8(ascii: "#") { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isKeyByte),
                  colon + 1 == line.endIndex || line[colon + 1] == 0x20 || line[colon + 1] == 0x09
            else {
                firstBadLine = n
                continue
            }
            let key = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let value = String(decoding: trimmedSeparators(Array(line[(colon + 1)...])), as: UTF8.self)
            fields.append((key, unquoted(value)))
        }
        return .unrecognized(Unrecognized(line: 1, reason: "the block has no closing '---'"))
    }

    private static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
    }

    /// YAML-style quotes around a value are not part of it: `color: "#ff0000"`.
    private static func unquoted(_ value: String) -> String {
        for q in ["\"", "'"] where value.count >= 2 && value.hasPrefix(q) && value.hasSuffix(q) {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    /// A value as tick writes it: quoted when it starts with a quote or `#`.
    static func quoted(_ value: String) -> String {
        if let first = value.first, first == "\"" || first == "'" || first == "#" { return "\"\(value)\"" }
        return value
    }
}
