import Testing
@testable import TickCore

/// The line arithmetic behind `undo` onto a file changed since: the difference of two versions,
/// and tick's change reverted with the later changes kept, or refused naming the lines.
@Suite("undo's line merge")
struct UndoMergeTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Reverts `after → before` onto `current`; the merged text, or the conflict's words.
    static func revert(_ after: String, _ before: String, onto current: String) -> String {
        switch UndoMerge.revert(after: bytes(after), before: bytes(before), onto: bytes(current)) {
        case .success(let merged): return String(decoding: merged, as: UTF8.self)
        case .failure(let conflict): return "conflict: " + UndoMerge.describe(conflict.spans, lastLine: UndoMerge.lineCount(bytes(current)))
        }
    }

    static func apply(_ hunks: [UndoMerge.Hunk], _ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        var position = 0
        for hunk in hunks {
            out += a[position..<hunk.old.lowerBound]
            out += b[hunk.new]
            position = hunk.old.upperBound
        }
        return out + a[position...]
    }

    @Test("the difference of two line sequences, applied to the first, gives the second, for seeded random sequences")
    func diffReproducesTheNewVersion() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<500 {
            let a = (0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: 0...5, using: &random) }
            var b = a
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                switch Int.random(in: 0...2, using: &random) {
                case 0 where !b.isEmpty: b.remove(at: Int.random(in: 0..<b.count, using: &random))
                case 1: b.insert(Int.random(in: 0...7, using: &random), at: Int.random(in: 0...b.count, using: &random))
                default: if !b.isEmpty { b[Int.random(in: 0..<b.count, using: &random)] = Int.random(in: 0...7, using: &random) }
                }
            }
            let hunks = UndoMerge.diff(a, b)
            #expect(Self.apply(hunks, a, b) == b, "\(a) → \(b): \(hunks)")
            // Hunks are in order, separate, and never empty on both sides.
            for (x, y) in zip(hunks, hunks.dropFirst()) { #expect(x.old.upperBound < y.old.lowerBound || x.new.upperBound < y.new.lowerBound) }
            #expect(hunks.allSatisfy { !$0.old.isEmpty || !$0.new.isEmpty })
            // Capped at no edits at all, the difference is still right, only one coarse hunk.
            #expect(Self.apply(UndoMerge.diff(a, b, maxDistance: 0), a, b) == b)
        }
    }

    @Test("the difference is a shortest one: one changed line is one hunk of one line each side")
    func diffIsMinimal() {
        #expect(UndoMerge.diff([1, 2, 3, 4, 5], [1, 2, 9, 4, 5]) == [.init(old: 2..<3, new: 2..<3)])
        #expect(UndoMerge.diff([1, 2, 3], [1, 2, 3]) == [])
        #expect(UndoMerge.diff([1, 2, 3], [0, 1, 2, 3, 4]) == [.init(old: 0..<0, new: 0..<1), .init(old: 3..<3, new: 4..<5)])
        #expect(UndoMerge.diff([1, 7, 2, 7, 3], [1, 2, 3]) == [.init(old: 1..<2, new: 1..<1), .init(old: 3..<4, new: 2..<2)])
    }

    @Test("an unchanged file gets the old version back exactly")
    func unchangedFileGetsTheOldVersion() {
        #expect(Self.revert("a\nb\nc\n", "a\nc\n", onto: "a\nb\nc\n") == "a\nc\n")
        #expect(Self.revert("a\r\nb", "a\r\n", onto: "a\r\nb") == "a\r\n")
    }

    @Test("a line changed elsewhere is kept, and tick's line goes back")
    func editElsewhereKept() {
        let before = "# Home\n\n- [ ] Call\n- [ ] Milk\n  oat\n"
        let after = "# Home\n\n- [x] Call done:2026-03-14\n- [ ] Milk\n  oat\n"
        let current = "# Home\n\n- [x] Call done:2026-03-14\n- [ ] Milk\n  soy\n- [ ] By hand\n"
        #expect(Self.revert(after, before, onto: current) == "# Home\n\n- [ ] Call\n- [ ] Milk\n  soy\n- [ ] By hand\n")
    }

    @Test("the lines just before and just after tick's lines may change: only those very lines clash")
    func neighboursDoNotClash() {
        let before = "a\nb\nc\n", after = "a\nB\nc\n"
        #expect(Self.revert(after, before, onto: "A\nB\nC\n") == "A\nb\nC\n")
        #expect(Self.revert(after, before, onto: "a\nx\nB\ny\nc\n") == "a\nx\nb\ny\nc\n")
    }

    @Test("a change of tick's very line is refused, naming it in the current file")
    func sameLineRefused() {
        let before = "# Home\n\n- [ ] Call\n- [ ] Milk\n", after = "# Home\n\n- [x] Call done:2026-03-14\n- [ ] Milk\n"
        #expect(Self.revert(after, before, onto: "New top\n# Home\n\n- [x] Call mum done:2026-03-14\n- [ ] Milk\n") == "conflict: line 4")
        // A line typed inside tick's lines is a change of them too.
        #expect(Self.revert("a\nB\nC\nd\n", "a\nb\nc\nd\n", onto: "a\nB\nnew\nC\nd\n") == "conflict: line 3")
        // Tick's lines deleted since.
        #expect(Self.revert("a\nB\nc\n", "a\nb\nc\n", onto: "a\nc\n") == "conflict: 1 line deleted before line 2")
        #expect(Self.revert("a\nb\nC\n", "a\nb\nc\n", onto: "a\nb\n") == "conflict: 1 line deleted at the end")
    }

    @Test("tick's lines moved elsewhere in the file since are found there, whole and once, and reverted there")
    func movedLinesFound() {
        let before = "# L\n- [ ] one\n- [ ] two\n  note\n- [ ] three\n"
        let after = "# L\n- [ ] one\n- [x] two done:2026-03-14\n  note\n- [ ] three\n"
        // The done task cut and pasted at the end, its note edited, a task typed on top.
        #expect(Self.revert(after, before, onto: "# L\n- [ ] new\n- [ ] one\n- [ ] three\n- [x] two done:2026-03-14\n  note!\n")
            == "# L\n- [ ] new\n- [ ] one\n- [ ] three\n- [ ] two\n  note!\n")
        // Pasted twice: which one is tick's? Refused.
        #expect(Self.revert(after, before, onto: "# L\n- [ ] one\n- [ ] three\n- [x] two done:2026-03-14\n- [x] two done:2026-03-14\n")
            == "conflict: 2 lines deleted before line 3")
        // Moved and edited: not tick's lines any more. Refused.
        #expect(Self.revert(after, before, onto: "# L\n- [ ] one\n- [ ] three\n- [x] two! done:2026-03-14\n")
            .hasPrefix("conflict: "))
        // The same line elsewhere in tick's own file is another task's: deleting tick's is refused,
        // never taken as a move of the other one.
        let twice = "# L\n- [x] two done:2026-03-14\n- [ ] one\n- [x] two done:2026-03-14\n"
        #expect(Self.revert(twice, "# L\n- [x] two done:2026-03-14\n- [ ] one\n- [ ] two\n", onto: "# L\n- [x] two done:2026-03-14\n- [ ] one\n")
            == "conflict: 1 line deleted at the end")
    }

    @Test("a line changed since exactly as undo would change it is no clash")
    func sameChangeTwiceIsNoClash() {
        #expect(Self.revert("a\n- [x] t\nc\n", "a\n- [ ] t\nc\n", onto: "a\n- [ ] t\nc\nd\n") == "a\n- [ ] t\nc\nd\n")
    }

    @Test("a task tick removed comes back where it was, before a task typed at the same place")
    func removedTaskComesBack() {
        let before = "# L\n- [ ] one\n- [ ] two\n", after = "# L\n- [ ] one\n"
        #expect(Self.revert(after, before, onto: "# L\n- [ ] one\n- [ ] typed\n") == "# L\n- [ ] one\n- [ ] two\n- [ ] typed\n")
        #expect(Self.revert(after, before, onto: "# L\n- [ ] uno\n") == "# L\n- [ ] uno\n- [ ] two\n")
    }

    @Test("line breaks are kept byte for byte: CRLF lines and a last line without a break")
    func lineBreaksKept() {
        let before = "# L\r\n- [ ] one\r\n- [ ] two", after = "# L\r\n- [x] one\r\n- [ ] two"
        #expect(Self.revert(after, before, onto: "# L\r\n- [x] one\r\n- [ ] two\r\n- [ ] three") == "# L\r\n- [ ] one\r\n- [ ] two\r\n- [ ] three")
        // tick's line is the same text with another break: a change of it.
        #expect(Self.revert(after, before, onto: "# L\r\n- [x] one\n- [ ] two") == "conflict: line 2")
    }

    @Test("for seeded random files, a hand edit away from tick's lines is kept and tick's change reverted, as if tick never made it")
    func randomDisjointEdits() {
        var random = SeededRandom(seed: 2026)
        for round in 0..<300 {
            let count = Int.random(in: 8...24, using: &random)
            let before = (0..<count).map { "line \(round)-\($0)\n" }
            // tick changes one line in the first half; a hand edit changes one in the second half,
            // at least two lines later, and types a line at the end.
            let t = Int.random(in: 0..<(count / 2 - 1), using: &random)
            let h = Int.random(in: (t + 2)..<count, using: &random)
            var after = before
            after[t] = "- [x] done \(round)\n"
            var current = after
            current[h] = "hand \(round)\n"
            current.append("typed \(round)\n")
            var expected = before
            expected[h] = "hand \(round)\n"
            expected.append("typed \(round)\n")
            #expect(Self.revert(after.joined(), before.joined(), onto: current.joined()) == expected.joined(), "round \(round)")
            // The same hand edit on tick's line is refused, naming it.
            var clash = after
            clash[t] = "hand \(round)\n"
            #expect(Self.revert(after.joined(), before.joined(), onto: clash.joined()) == "conflict: line \(t + 1)", "round \(round)")
        }
    }

    @Test("a long list edited by hand near both ends keeps both edits and gets tick's line back")
    func longList() {
        let before = (0..<20_000).map { "- [ ] task \($0)\n" }
        var after = before
        after[10_000] = "- [x] task 10000 done:2026-03-14\n"
        var current = after
        current[5] = "- [ ] task 5, edited\n"
        current[19_995] = "- [ ] task 19995, edited\n"
        var expected = before
        expected[5] = current[5]
        expected[19_995] = current[19_995]
        #expect(Self.revert(after.joined(), before.joined(), onto: current.joined()) == expected.joined())
    }

    @Test("what restoring the old file throws away, in words")
    func changesInWords() {
        let spans = UndoMerge.changes(from: Self.bytes("a\nb\nc\nd\n"), to: Self.bytes("a\nB\nC\nd\ne\n"))
        #expect(UndoMerge.describe(spans, lastLine: 5) == "lines 2-3, line 5")
        let deleted = UndoMerge.changes(from: Self.bytes("a\nb\nc\n"), to: Self.bytes("a\n"))
        #expect(deleted == [.init(first: 2, count: 0, deleted: 2)])
        #expect(UndoMerge.describe(deleted, lastLine: 1) == "2 lines deleted at the end")
    }
}
