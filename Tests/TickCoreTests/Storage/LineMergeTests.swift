import Testing
@testable import TickCore

@Suite("three-way line merge")
struct LineMergeTests {
    static func merge(_ base: String, _ ours: String, _ theirs: String) -> String? {
        LineMerge.merge(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("changes to different lines are combined", arguments: [
        // (base, ours, theirs, merged)
        ("a\nb\nc\nd\ne\n", "a\nB\nc\nd\ne\n", "a\nb\nc\nD\ne\n", "a\nB\nc\nD\ne\n"),
        ("a\nb\nc\n", "a\nc\n", "a\nb\nc\nd\n", "a\nc\nd\n"),
        ("a\nb\n", "x\na\nb\n", "a\nb\ny\n", "x\na\nb\ny\n"),
        ("a\nb\n", "a\nb\n", "a\nz\n", "a\nz\n"),
        ("a\nb\n", "a\nB\n", "a\nB\n", "a\nB\n"),
        ("", "a\n", "", "a\n"),
        ("a\r\nb\r\nc\r\n", "a\r\nb\r\nC\r\n", "A\r\nb\r\nc\r\n", "A\r\nb\r\nC\r\n"),
        ("a\nb\nc", "a\nb\nc\nd", "z\nb\nc", "z\nb\nc\nd"),
    ])
    func combined(_ base: String, _ ours: String, _ theirs: String, _ merged: String) {
        #expect(Self.merge(base, ours, theirs) == merged)
    }

    @Test("lines inserted at the same place on both sides are all kept, ours first")
    func bothInsert() {
        #expect(Self.merge("a\n", "a\nours\n", "a\ntheirs\n") == "a\nours\ntheirs\n")
        #expect(Self.merge("a\nb\n", "a\no1\no2\nb\n", "a\nt\nb\n") == "a\no1\no2\nt\nb\n")
        #expect(Self.merge("", "x\n", "y\n") == "x\ny\n")
        // An insertion that holds the other is taken once.
        #expect(Self.merge("a\n", "a\nt\ne\n", "a\nt\n") == "a\nt\ne\n")
        #expect(Self.merge("a\n", "a\nt\n", "a\ne\nt\nf\n") == "a\ne\nt\nf\n")
    }

    @Test("the same base lines changed differently on both sides do not merge", arguments: [
        ("a\nb\nc\n", "a\nB\nc\n", "a\nβ\nc\n"),
        ("a\nb\nc\n", "a\nc\n", "a\nB\nc\n"),
        ("a\n", "c\n", "a\nb\n"),
        // Changes on neighbouring lines touch one chunk, as in git.
        ("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n"),
    ])
    func conflicts(_ base: String, _ ours: String, _ theirs: String) {
        #expect(Self.merge(base, ours, theirs) == nil)
    }

    @Test("seeded random edits on separate halves of a file always merge to both edits")
    func randomHalves() {
        var random = SeededGenerator(seed: 0x6D65_7267)
        for _ in 0..<300 {
            let count = 4 + Int.random(in: 0..<30, using: &random)
            let base = (0..<count).map { "line \($0 % 7) \(Int.random(in: 0..<3, using: &random))\n" }
            let middle = count / 2
            func edit(_ lines: [String], in range: Range<Int>, tag: String) -> [String] {
                var lines = lines
                let at = range.lowerBound + Int.random(in: 0..<range.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: lines.insert("\(tag) new\n", at: at)
                case 1: lines[at] = "\(tag) changed\n"
                default: lines.remove(at: at)
                }
                return lines
            }
            // Ours edits the first half, theirs the second, with a line that both keep between.
            let ours = edit(base, in: 0..<middle - 1, tag: "o")
            let theirs = edit(base, in: middle + 1..<count, tag: "t")
            let merged = Self.merge(base.joined(), ours.joined(), theirs.joined())
            let expected = Array(ours[0..<(ours.count - (count - middle))]) + Array(theirs[(middle)...])
            #expect(merged == expected.joined(), "base \(base) ours \(ours) theirs \(theirs)")
        }
    }
}
