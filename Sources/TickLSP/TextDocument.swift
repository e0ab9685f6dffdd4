import TickCore

// An open document's text as bytes, its lines as LSP counts them (split at LF, CRLF and a lone
// CR, as CommonMark and tick split them), and positions converted exactly between byte offsets
// and the negotiated encoding: UTF-16 code units (an astral character counts two), or UTF-8 bytes.

/// How a position's `character` counts.
enum PositionEncoding: String {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
}

/// A line and a character offset in it, both from 0.
struct Position: Equatable {
    var line: Int
    var character: Int

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init(_ json: JSON?) throws(ResponseError) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else {
            throw .invalidParams("a position needs a line and a character, each 0 or more")
        }
        self.init(line: line, character: character)
    }

    var json: JSON { .object(["line": .int(line), "character": .int(character)]) }
}

/// One open document.
struct TextDocument {
    private(set) var bytes: [UInt8]
    var version: Int
    /// Offset where each line starts; a final empty line after the last line ending counts.
    private(set) var lineStarts: [Int] = [0]

    init(bytes: [UInt8], version: Int) {
        self.bytes = bytes
        self.version = version
        lineStarts = TextDocument.lineStarts(of: bytes, from: 0)
    }

    static func lineStarts(of bytes: [UInt8], from offset: Int) -> [Int] {
        var starts = [offset]
        var i = offset
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == 10 {
                starts.append(i)
            } else if b == 13 {
                if i < bytes.count, bytes[i] == 10 { i += 1 }
                starts.append(i)
            }
        }
        return starts
    }

    var lineCount: Int { lineStarts.count }

    /// Offset just past line `line`'s content (before its line ending).
    func contentEnd(_ line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if end > lineStarts[line], bytes[end - 1] == 10 { end -= 1 }
        if end > lineStarts[line], bytes[end - 1] == 13 { end -= 1 }
        return end
    }

    /// The 0-based line holding `offset`.
    func line(containing offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The byte offset of `position`: a line past the end is the end of the text, a character past
    /// the end of its line is the end of the line (LSP 3.17), and one inside a character its start.
    func offset(_ position: Position, _ encoding: PositionEncoding) -> Int {
        guard position.line < lineStarts.count else { return bytes.count }
        let end = contentEnd(position.line)
        var i = lineStarts[position.line], units = 0
        while i < end {
            let length = TextDocument.scalarLength(bytes[i])
            let width = encoding == .utf8 ? length : (length == 4 ? 2 : 1)
            if units + width > position.character { break }
            units += width
            i = min(i + length, end)
        }
        return i
    }

    /// The position of byte `offset` (a scalar boundary).
    func position(_ offset: Int, _ encoding: PositionEncoding) -> Position {
        let offset = min(max(0, offset), bytes.count)
        let line = line(containing: offset)
        var i = lineStarts[line], units = 0
        while i < offset {
            let length = TextDocument.scalarLength(bytes[i])
            units += encoding == .utf8 ? min(length, offset - i) : (length == 4 ? 2 : 1)
            i += length
        }
        return Position(line: line, character: units)
    }

    /// Bytes in the UTF-8 sequence that `lead` starts (1 for a stray continuation byte).
    static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    /// Replaces the bytes between two positions with `text` (an incremental change).
    mutating func replace(from: Position, to: Position, with text: [UInt8], _ encoding: PositionEncoding) {
        var lower = offset(from, encoding), upper = offset(to, encoding)
        if upper < lower { swap(&lower, &upper) }
        bytes.replaceSubrange(lower..<upper, with: text)
        // Lines before the change keep their starts; the line holding `lower` is read again from its start.
        let line = line(containing: lower)
        let first = line > 0 && bytes.indices.contains(lineStarts[line] - 1) && bytes[lineStarts[line] - 1] == 13 ? line - 1 : line
        lineStarts.removeSubrange((first + 1)...)
        lineStarts += TextDocument.lineStarts(of: bytes, from: lineStarts[first]).dropFirst()
    }

    /// Takes `bytes`, equal to its own, as its storage: the parsed buffer's copy, so that an open
    /// document holds its text once.
    mutating func share(_ same: [UInt8]) {
        assert(same == bytes)
        guard same.count == bytes.count else { return }
        bytes = same
    }

    /// Replaces the whole text (a full change).
    mutating func replaceAll(with text: [UInt8]) {
        bytes = text
        lineStarts = TextDocument.lineStarts(of: bytes, from: 0)
    }

    /// The range JSON of two offsets.
    func range(_ lower: Int, _ upper: Int, _ encoding: PositionEncoding) -> JSON {
        .object(["start": position(lower, encoding).json, "end": position(upper, encoding).json])
    }

    /// The text of line `line` without its ending.
    func lineText(_ line: Int) -> String {
        String(decoding: bytes[lineStarts[line]..<contentEnd(line)], as: UTF8.self)
    }
}
