import TickFormat

// Setting one key in a configuration file (`tick config KEY VALUE`): only the value's bytes on the
// line that sets the key change; every other byte of the file stays as it was.

extension Configuration {
    /// Why a value cannot be written to a configuration file as it is, or nil when it can. A value of
    /// `obsidian.global-filter` (a tag) may start with `#`.
    public static func unwritable(_ value: String, for key: String = "") -> String? {
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return "a value cannot hold control characters or line breaks"
        }
        if value != value.trimmingInvisibleSpace() { return "a value cannot start or end with spaces" }
        if value.hasPrefix("#") && key != globalFilterKey || value.contains(" #") || value.contains("\t#") {
            return "a value cannot hold ' #', which starts a comment"
        }
        return nil
    }

    /// `bytes` (a configuration file, nil when missing) with `key` set to `value`: the value on the
    /// last line that sets the key (the one that counts) is replaced in place, keeping the spacing
    /// and a comment after it; without such a line, `key = value` is appended as a new line.
    public static func setting(_ key: String, to value: String, in bytes: [UInt8]?) -> [UInt8] {
        let bytes = bytes ?? []
        var target: Range<Int>? = nil
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var contentEnd = lineEnd
            if contentEnd > lineStart, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            if let range = valueRange(ofKey: key, in: bytes, lineStart..<contentEnd) { target = range }
            lineStart = lineEnd + 1
        }
        if let target {
            return Array(bytes[..<target.lowerBound]) + Array(value.utf8) + Array(bytes[target.upperBound...])
        }
        var out = bytes
        if let last = out.last, last != UInt8(ascii: "\n") {
            // The file's own line ending, when it uses CRLF.
            out += bytes.contains(UInt8(ascii: "\r")) ? Array("\r\n".utf8) : [UInt8(ascii: "\n")]
        }
        out += Array("\(key) = \(value)\n".utf8)
        return out
    }

    /// The byte range of the value on `line` when the line sets `key` (as `parse` reads it).
    private static func valueRange(ofKey key: String, in bytes: [UInt8], _ line: Range<Int>) -> Range<Int>? {
        let text = String(decoding: bytes[line], as: UTF8.self)
        guard let eq = text.firstIndex(of: "=") else { return nil }
        // A comment before the `=` makes the line no setting.
        let utf8 = Array(text.utf8)
        let eqOffset = text.utf8.distance(from: text.startIndex, to: eq)
        var commentAt = utf8.count
        // The `#` that starts a tag value (`obsidian.global-filter = #task`) is no comment (as `parse` reads it).
        var valueStart = eqOffset + 1
        while valueStart < utf8.count, utf8[valueStart] == UInt8(ascii: " ") || utf8[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        let tagStart = key == globalFilterKey && valueStart + 1 < utf8.count && utf8[valueStart] == UInt8(ascii: "#")
            && ![0x20, 0x09, 0x0D, UInt8(ascii: "#")].contains(utf8[valueStart + 1]) ? valueStart : -1
        for i in 0..<utf8.count where utf8[i] == UInt8(ascii: "#") && i != tagStart {
            let before = String(decoding: utf8[..<i], as: UTF8.self)
            if i == 0 || utf8[i - 1] == UInt8(ascii: " ") || utf8[i - 1] == UInt8(ascii: "\t") || before.trimmingInvisibleSpace().isEmpty {
                commentAt = i
                break
            }
        }
        guard commentAt > eqOffset else { return nil }
        let name = String(decoding: utf8[..<eqOffset], as: UTF8.self).trimmingInvisibleSpace()
        guard name == key else { return nil }
        // The value: what lies between `=` and the comment (or the end), without the spaces around it.
        var start = eqOffset + 1, end = commentAt
        while start < end, utf8[start] == UInt8(ascii: " ") || utf8[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, utf8[end - 1] == UInt8(ascii: " ") || utf8[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        if start == end {
            // An empty value: write it one space after the `=`, as `key = value` reads.
            let at = eqOffset + 1
            let spaced = at < utf8.count && utf8[at] == UInt8(ascii: " ")
            let offset = spaced ? at + 1 : at
            return (line.lowerBound + offset)..<(line.lowerBound + offset)
        }
        return (line.lowerBound + start)..<(line.lowerBound + end)
    }
}

extension Configuration {
    /// `text` with every character that does not print escaped, for a one-line message.
    public static func shown(_ text: String) -> String { text.escapingNonPrinting }
}
