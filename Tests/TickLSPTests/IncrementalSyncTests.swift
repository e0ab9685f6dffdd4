import Testing
import TickCore
@testable import TickLSP

/// Seeded random incremental edits, each sequence checked against a full re-sync of the text a
/// client holds: the server's bytes and its diagnostics must be those of the text opened afresh.
@Suite("LSP incremental sync")
struct IncrementalSyncTests {
    static let sequences = 1_200
    static let pieces = ["a", "🎉", "\u{301}", "\r\n", "\n", "\r", " due:2026-12-03", " due:2026-13-03", "- [ ] ", "- [x] ",
                         "", "é", "#tag ", "`", "  ", "[] x"]

    /// A client's copy of the text, in the units of its encoding (UTF-16 code units or UTF-8 bytes).
    struct ClientText {
        var units: [UInt32]
        let utf8: Bool

        init(_ text: String, utf8: Bool) {
            self.utf8 = utf8
            units = utf8 ? text.utf8.map(UInt32.init) : text.utf16.map(UInt32.init)
        }

        var string: String {
            utf8 ? String(decoding: units.map { UInt8($0) }, as: UTF8.self) : String(decoding: units.map { UInt16($0) }, as: UTF16.self)
        }

        /// Each line's start and content end, split at CRLF, LF and a lone CR.
        var lines: [(start: Int, end: Int)] {
            var found: [(Int, Int)] = []
            var start = 0, i = 0
            while i < units.count {
                if units[i] == 10 || units[i] == 13 {
                    let end = i
                    i += units[i] == 13 && i + 1 < units.count && units[i + 1] == 10 ? 2 : 1
                    found.append((start, end))
                    start = i
                } else {
                    i += 1
                }
            }
            found.append((start, units.count))
            return found
        }

        func isBoundary(_ i: Int) -> Bool {
            guard i < units.count else { return true }
            return utf8 ? units[i] & 0xC0 != 0x80 : !(0xDC00...0xDFFF).contains(units[i])
        }

        func randomPosition(_ rng: inout SeededGenerator) -> Position {
            let lines = self.lines
            let line = Int(rng.next() % UInt64(lines.count))
            let candidates = (lines[line].start...lines[line].end).filter(isBoundary)
            let at = candidates[Int(rng.next() % UInt64(candidates.count))]
            return Position(line: line, character: at - lines[line].start)
        }

        func index(_ p: Position) -> Int { lines[p.line].start + p.character }

        mutating func replace(_ a: Position, _ b: Position, with text: String) {
            let new = utf8 ? text.utf8.map(UInt32.init) : text.utf16.map(UInt32.init)
            units.replaceSubrange(index(a)..<index(b), with: new)
        }
    }

    @Test("random incremental edits give the text and diagnostics of a full re-sync", arguments: [false, true])
    func randomEdits(utf8: Bool) throws {
        var rng = SeededGenerator(seed: utf8 ? 48_008 : 48_016)
        let uri = "file:///nowhere/list.md"
        for sequence in 0..<Self.sequences {
            let harness = ServerHarness()
            harness.start(utf8: utf8)
            var client = ClientText((0..<(1 + Int(rng.next() % 6))).map { _ in rng.pick(Self.pieces) }.joined(), utf8: utf8)
            harness.open(uri, client.string)
            for version in 2..<(2 + Int(rng.next() % 5)) {
                var changes: [JSON] = []
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    var a = client.randomPosition(&rng), b = client.randomPosition(&rng)
                    if (b.line, b.character) < (a.line, a.character) { swap(&a, &b) }
                    let text = (0..<Int(rng.next() % 3)).map { _ in rng.pick(Self.pieces) }.joined()
                    client.replace(a, b, with: text)
                    changes.append(.object(["range": .object(["start": a.json, "end": b.json]), "text": .string(text)]))
                }
                harness.notify("textDocument/didChange", .object([
                    "textDocument": .object(["uri": .string(uri), "version": .int(version)]), "contentChanges": .array(changes)]))
            }
            let fresh = ServerHarness()
            fresh.start(utf8: utf8)
            fresh.open(uri, client.string)
            #expect(harness.text(uri) == client.string, "sequence \(sequence)")
            #expect(harness.server.documents[uri]!.text.lineStarts == fresh.server.documents[uri]!.text.lineStarts, "sequence \(sequence)")
            #expect(harness.diagnostics(uri) == fresh.diagnostics(uri), "sequence \(sequence)")
            if harness.text(uri) != client.string { return }
        }
    }

    @Test("a full-text change replaces the text")
    func fullChange() {
        let harness = ServerHarness()
        harness.start()
        harness.open("file:///nowhere/a.md", "- [ ] a due:2026-13-01\n")
        #expect(harness.diagnostics("file:///nowhere/a.md").count == 1)
        harness.notify("textDocument/didChange", .object(["textDocument": .object(["uri": .string("file:///nowhere/a.md"), "version": .int(2)]),
                                                          "contentChanges": .array([.object(["text": .string("- [ ] b\r\n")])])]))
        #expect(harness.text("file:///nowhere/a.md") == "- [ ] b\r\n")
        #expect(harness.diagnostics("file:///nowhere/a.md").isEmpty)
    }
}

extension SeededGenerator {
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
