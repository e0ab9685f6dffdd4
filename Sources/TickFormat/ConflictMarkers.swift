extension Document {
    /// The first line (1-based) that is a git conflict marker: `<<<<<<<` or `>>>>>>>` at the start
    /// of a line, then a space, a tab or the line's end. Lines end at LF, CRLF or a lone CR, as
    /// everywhere in the format. tick refuses to write such a file, and `tick check` reports it.
    public static func conflictMarkerLine(in bytes: [UInt8]) -> Int? {
        Document.conflictMarkerLine(in: bytes, lines: Lines(bytes))
    }

    static func conflictMarkerLine(in bytes: [UInt8], lines: Lines) -> Int? {
        let open = Array("<<<<<<<".utf8), close = Array(">>>>>>>".utf8)
        for n in stride(from: 1, through: lines.count, by: 1) {
            let start = lines.start(n), end = lines.contentEnd(n)
            guard end - start >= 7, bytes[start] == open[0] || bytes[start] == close[0] else { continue }
            let text = bytes[start..<end]
            guard text.starts(with: open) || text.starts(with: close) else { continue }
            if end - start == 7 || isSpaceOrTab(bytes[start + 7]) { return n }
        }
        return nil
    }
}
