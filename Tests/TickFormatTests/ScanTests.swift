import Testing
@testable import TickFormat
import TickCore

/// The scans every list passes through (lines eight bytes at a time, a title line's words through
/// its buffer) held to a byte-by-byte reading of the same rules, on random bytes whose line
/// endings and spaces fall on every offset of an eight-byte word.
@Suite("Scans of lines and title words")
struct ScanTests {
    /// The pieces random text is made of: line endings of every kind, separators of one, two and
    /// three bytes, backticks, colons and a byte that starts an emoji.
    static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("bc".utf8), Array("defghij".utf8), [0x0A], [0x0D], [0x0D, 0x0A], [0x20], [0x09],
        [0xC2, 0xA0], [0xE2, 0x80, 0xAF], [0xE3, 0x80, 0x80], Array("`".utf8), Array("::".utf8), Array(":".utf8),
        Array("é".utf8), [0xF0, 0x9F, 0x93, 0x85], Array("due:2026-12-04".utf8), Array("#tag".utf8),
    ]

    static func randomBytes(_ rng: inout SeededGenerator, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return bytes
    }

    /// Lines as CommonMark splits them, one byte at a time.
    static func referenceLines(_ b: [UInt8]) -> [(start: Int, contentEnd: Int)] {
        var found: [(Int, Int)] = [], start = 0, i = 0
        while i < b.count {
            if b[i] == 0x0A || b[i] == 0x0D {
                found.append((start, i))
                i += b[i] == 0x0D && i + 1 < b.count && b[i + 1] == 0x0A ? 2 : 1
                start = i
            } else {
                i += 1
            }
        }
        if start < b.count { found.append((start, b.count)) }
        return found
    }

    @Test("lines end where a byte-by-byte split ends them", arguments: 0..<40)
    func lines(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 6_151 &+ 1)
        let bytes = ScanTests.randomBytes(&rng, count: Int(rng.next() % 60))
        let lines = Lines(bytes)
        let expected = ScanTests.referenceLines(bytes)
        #expect(lines.count == expected.count, "\(bytes)")
        for (k, line) in expected.enumerated() where k < lines.count {
            #expect(lines.start(k + 1) == line.start && lines.contentEnd(k + 1) == line.contentEnd,
                    "line \(k + 1) of \(bytes)")
        }
    }

    @Test("a line of no line ending, and line endings only")
    func edgeLines() {
        #expect(Lines([]).count == 0)
        #expect(Lines(Array("0123456789abcdef0".utf8)).count == 1)
        let endings = Lines(Array("\r\n\r\r\n\n\n\r".utf8))
        #expect(endings.count == 6)
        #expect((1...6).map(endings.start) == [0, 2, 3, 5, 6, 7])
    }

    /// Whether a Dataview field or a signifier may be on the line, one byte at a time.
    static func referenceMayHold(_ b: [UInt8]) -> Bool {
        b.contains { $0 >= 0xE2 } || zip(b, b.dropFirst()).contains { $0 == 0x3A && $1 == 0x3A }
    }

    @Test("a title line may hold Obsidian fields exactly when it has a byte from 0xE2 or a '::'", arguments: 0..<40)
    func mayHold(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7_307 &+ 3)
        let bytes = ScanTests.randomBytes(&rng, count: Int(rng.next() % 12))
        #expect(ObsidianFields.mayHold(bytes, 0..<bytes.count) == ScanTests.referenceMayHold(bytes), "\(bytes)")
    }

    @Test("a title line without a backtick has no code span; one with a closed pair has one")
    func codeSpans() {
        let plain = Array("Call the plumber due:2026-12-03".utf8)
        #expect(TitleLine.codeSpans(in: plain, range: 0..<plain.count, continuation: plain.count..<plain.count).isEmpty)
        let code = Array("Run `make test` now".utf8)
        #expect(TitleLine.codeSpans(in: code, range: 0..<code.count, continuation: code.count..<code.count) == [4..<15])
    }

    /// A title line's words as the scan splits them: a due date placed among random words, after
    /// random separators, is found at exactly its bytes, and the title keeps every other word.
    @Test("a word ends at every kind of separator, after ASCII and non-ASCII bytes", arguments: 0..<40)
    func words(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 3_571 &+ 5)
        let separators: [[UInt8]] = [[0x20], [0x09], [0xC2, 0xA0], [0xE2, 0x80, 0xAF], [0xE3, 0x80, 0x80], [0x20, 0x20]]
        let words = ["word", "a", "longerwordthaneight", "é", "naïve", "x:y", "日本"]
        let count = 1 + Int(rng.next() % 8), dueAt = Int(rng.next() % UInt64(count + 1))
        var line: [UInt8] = [], kept: [String] = [], dueRange: Range<Int>? = nil
        for k in 0...count {
            if !line.isEmpty { line += separators[Int(rng.next() % UInt64(separators.count))] }
            if k == dueAt {
                dueRange = line.count..<(line.count + 14)
                line += Array("due:2026-12-04".utf8)
            } else {
                let word = words[Int(rng.next() % UInt64(words.count))]
                line += Array(word.utf8)
                kept.append(word)
            }
        }
        let scan = TitleLine(bytes: line, range: 0..<line.count, continuation: line.count..<line.count)
        #expect(scan.tokens.map(\.range) == [dueRange!], "\(line)")
        let separatorCharacters: Set<Character> = [" ", "\t", "\u{A0}", "\u{202F}", "\u{3000}"]
        let split = scan.title.split(whereSeparator: separatorCharacters.contains)
        #expect(split.map(String.init) == kept, "\(line)")
    }
}
