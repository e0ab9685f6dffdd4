extension Document {
    /// The first line (1-based) that is a git conflict marker: seven or more `<`, or seven or more
    /// `>`, at the start of a line (git's `conflict-marker-size` may make them longer), then a space,
    /// a tab or the line's end. Lines end at LF, CRLF or a lone CR, as everywhere in the format. tick
    /// refuses to write such a file, and `tick check` reports it.
    public static func conflictMarkerLine(in bytes: [UInt8]) -> Int? {
        Document.conflictMarkerLine(in: bytes, lines: Lines(bytes))
    }

    static func conflictMarkerLine(in bytes: [UInt8], lines: Lines) -> Int? {
        let open = UInt8(ascii: "<"), close = UInt8(ascii: ">")
        for n in stride(from: 1, through: lines.count, by: 1) {
            let start = lines.start(n), end = lines.contentEnd(n)
            guard end - start >= 7, bytes[start] == open || bytes[start] == close else { continue }
            let marker = bytes[start]
            var after = start + 1
            while after < end, bytes[after] == marker { after += 1 }
            if after - start >= 7, after == end || isSpaceOrTab(bytes[after]) { return n }
        }
        return nil
    }
}
