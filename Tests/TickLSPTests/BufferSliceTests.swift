import Testing
@testable import TickCore
@testable import TickLSP

/// A change inside one top-level task is checked on its lines alone: seeded random lists and
/// edits, each result compared with the whole text checked afresh.
@Suite("list buffer slices")
struct BufferSliceTests {
    static let blocks = ["- [ ] a due:2026-12-03\n", "- [x] b done:2026-12-01\n", "  notes here\n", "  - [ ] sub rec:+1w\n",
                         "\n", "## Section\n", "Some prose\n", "```\n", "> - [ ] quoted\n", "* [ ] star id:x1\n",
                         "- [ ] bad due:2026-13-01\n", "1. [ ] ordered\n", "<div>\n", "- [] near\n", "---\n", "\r\n", "+ [ ] plus\r\n"]
    static let pieces = ["x", "- [ ] ", "\n", "\r\n", " due:2026-02-30", "```", "  ", "# ", "- ", "", "[ ]", "id:x1 ", "> "]

    @Test("an incremental check gives the problems of a full check", arguments: [1, 2, 3, 4])
    func randomChanges(seed: UInt64) {
        var rng = SeededGenerator(seed: seed * 4_801)
        var incremental = 0
        for _ in 0..<1_500 {
            let text = Array((0..<(2 + Int(rng.next() % 14))).map { _ in rng.pick(Self.blocks) }.joined().utf8)
            var buffer = ListBuffer(bytes: text)
            for _ in 0..<4 {
                let a = Int(rng.next() % UInt64(buffer.bytes.count + 1)), b = Int(rng.next() % UInt64(buffer.bytes.count + 1))
                let range = min(a, b)..<max(a, b)
                let replacement = Array((0..<Int(rng.next() % 3)).map { _ in rng.pick(Self.pieces) }.joined().utf8)
                let before = buffer
                buffer = buffer.replacing(range, with: replacement)
                if buffer.checkedAlone { incremental += 1 }
                _ = before
                let fresh = ListBuffer(bytes: buffer.bytes)
                #expect(buffer.problems() == fresh.problems(), "\(String(decoding: buffer.bytes, as: UTF8.self))")
                #expect(buffer.slices == fresh.slices, "\(String(decoding: buffer.bytes, as: UTF8.self))")
                if buffer.problems() != fresh.problems() || buffer.slices != fresh.slices { return }
            }
        }
        #expect(incremental > 100, "\(incremental) changes checked on one task's lines")
    }

    @Test("a buffer over the part size reads, parsed in parts, as it reads parsed whole", arguments: [5, 6])
    func partedParse(seed: UInt64) {
        var rng = SeededGenerator(seed: seed * 4_801)
        var text: [UInt8] = []
        while text.count < 4 * ListBuffer.partSize { text += Array(rng.pick(Self.blocks).utf8) }
        // Without a lone CR or a link reference definition, the text is parted (CommonMarkConverter.isPartable).
        text = text.enumerated().filter { $0.element != 13 || (text.indices.contains($0.offset + 1) && text[$0.offset + 1] == 10) }.map(\.element)
        let parted = ListBuffer(bytes: text), whole = ListBuffer(bytes: text, globalFilter: nil, partSize: 0)
        #expect(parted.problems() == whole.problems())
        #expect(parted.slices == whole.slices)
        #expect(parted.taskCount == whole.taskCount)
        #expect((0..<parted.taskCount).allSatisfy { "\(parted.task($0))" == "\(whole.task($0))" && parted.lines(of: $0) == whole.lines(of: $0) })
        #expect(parted.taskCount > 1_000)
    }
}
