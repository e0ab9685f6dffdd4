import Testing
import TickCore
@testable import TickLSP

/// Positions in UTF-16 and UTF-8, with astral characters, combining marks and CRLF.
@Suite("LSP positions")
struct PositionTests {
    let uri = "file:///nowhere/home.md"
    /// An astral emoji (2 UTF-16 units, 4 bytes), a combining accent (1 unit, 2 bytes) and CRLF endings.
    let text = "# Home\r\n\r\n- [ ] 🎉 cafe\u{301} due:2026-13-01\r\n- [ ] ok\r\n"

    func diagnosticRange(utf8: Bool) throws -> (Int, Int, Int) {
        let harness = ServerHarness()
        harness.start(utf8: utf8)
        harness.open(uri, text)
        let diagnostic = try #require(harness.diagnostics(uri).first)
        return (try #require(diagnostic.at("range.start.line")?.int), try #require(diagnostic.at("range.start.character")?.int),
                try #require(diagnostic.at("range.end.character")?.int))
    }

    @Test("a diagnostic after an emoji and a combining mark counts UTF-16 units, or UTF-8 bytes once negotiated")
    func diagnosticColumns() throws {
        // "- [ ] " 6, "🎉" 2 units or 4 bytes, " " 1, "cafe" 4, U+0301 1 unit or 2 bytes, " " 1.
        #expect(try diagnosticRange(utf8: false) == (2, 6 + 2 + 1 + 4 + 1 + 1, 6 + 2 + 1 + 4 + 1 + 1 + 14))
        #expect(try diagnosticRange(utf8: true) == (2, 6 + 4 + 1 + 4 + 2 + 1, 6 + 4 + 1 + 4 + 2 + 1 + 14))
    }

    @Test("offsets and positions convert both ways at every character boundary, CRLF and lone CR as line ends")
    func roundTrip() {
        let doc = TextDocument(bytes: Array("a🎉b\r\nc\u{301}d\re\n\nf".utf8), version: 0)
        #expect(doc.lineCount == 5)
        for encoding in [PositionEncoding.utf16, .utf8] {
            var offset = 0
            while offset <= doc.bytes.count {
                let position = doc.position(offset, encoding)
                let line = doc.line(containing: offset)
                if offset <= doc.contentEnd(line) { #expect(doc.offset(position, encoding) == offset, "\(encoding) \(offset)") }
                offset += offset < doc.bytes.count ? TextDocument.scalarLength(doc.bytes[offset]) : 1
            }
        }
        // Past the end of a line: the line's end (before its CRLF); past the last line: the end.
        #expect(doc.offset(Position(line: 0, character: 99), .utf16) == 6)
        #expect(doc.offset(Position(line: 9, character: 0), .utf16) == doc.bytes.count)
        // Inside a surrogate pair: the start of the emoji.
        #expect(doc.offset(Position(line: 0, character: 2), .utf16) == 1)
        #expect(doc.position(5, .utf16) == Position(line: 0, character: 3))
    }

    @Test("a code action's edit lands on whole characters in either encoding, and keeps CRLF")
    func codeActionEncodings() throws {
        for utf8 in [false, true] {
            let harness = ServerHarness()
            harness.start(utf8: utf8)
            let text = "- [ ] 🎉 cafe\u{301} 😀 due:2026-12-03\r\n- [ ] next\r\n"
            harness.open(uri, text)
            let result = harness.request("textDocument/codeAction", .object(["textDocument": document(uri), "range": range((0, 3), (0, 3)),
                                                                             "context": .object(["diagnostics": .array([])])]))
            let actions = try #require(result["result"]?.array)
            let flag = try #require(actions.first { $0["title"]?.string == "Flag" })
            let out = applying(flag.at("edit.changes")?[uri]?.array ?? [], to: text, encoding: utf8 ? .utf8 : .utf16)
            #expect(out == "- [ ] 🎉 cafe\u{301} 😀 due:2026-12-03 #flag\r\n- [ ] next\r\n")
            let complete = try #require(actions.first { $0["title"]?.string == "Complete" })
            let done = applying(complete.at("edit.changes")?[uri]?.array ?? [], to: text, encoding: utf8 ? .utf8 : .utf16)
            #expect(done == "- [x] 🎉 cafe\u{301} 😀 due:2026-12-03 done:2026-12-02\r\n- [ ] next\r\n")
        }
    }
}
