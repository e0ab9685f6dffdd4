/// The optional `---` block at the very start of a list file: `key: value` lines.
///
/// tick reads `symbol` and `color`; every other key is kept as written.
public struct FrontMatter: Sendable {
    /// Fields in file order, values trimmed.
    public var fields: [(key: String, value: String)]
    /// Lines 1...closingLine hold the block (1-based, both fences included).
    public var closingLine: Int

    public subscript(key: String) -> String? { fields.first { $0.key == key }?.value }

    /// Recognises front matter: a first line `---` (after an optional BOM), then only blank lines,
    /// `key: value` lines, indented continuation lines and `#` comments, then a line `---`.
    /// Anything else means the file has no front matter, and cmark sees a thematic break.
    static func detect(in bytes: [UInt8], lines: Lines, bomLength: Int) -> FrontMatter? {
        guard lines.count >= 2 else { return nil }
        func content(_ n: Int) -> ArraySlice<UInt8> {
            var end = lines.contentEnd(n)
            while end > lines.start(n), bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return bytes[(lines.start(n) + (n == 1 ? bomLength : 0))..<end]
        }
        let fence = Array("---".utf8)
        guard content(1).elementsEqual(fence) else { return nil }
        var fields: [(String, String)] = []
        for n in 2...lines.count {
            let line = content(n)
            if line.elementsEqual(fence) {
                return fields.isEmpty ? nil : FrontMatter(fields: fields, closingLine: n)
            }
            guard let first = line.first else { continue }
            if first == 0x20 || first == 0x09 || first == UInt8(ascii: "#") { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isKeyByte),
                  colon + 1 == line.endIndex || line[colon + 1] == 0x20 || line[colon + 1] == 0x09
            else { return nil }
            let key = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let value = String(decoding: trimmedSeparators(Array(line[(colon + 1)...])), as: UTF8.self)
            fields.append((key, unquoted(value)))
        }
        return nil
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
}
