import Testing
@testable import TickFormat
import TickCore

/// An edit inside title lines is read again without cmark (`Document.reading(_:splices:)`): the result
/// must be the document a full parse of the new bytes gives, field for field.
@Suite("Reading an edit of title lines without cmark")
struct OutlineReuseTests {
    /// Text put inside a title line: inline constructs that span or end lines when they can, and the
    /// bytes that start blocks elsewhere on a line.
    static let snippets: [String] = [
        "x", " ", "\t", " done:2026-11-30", " #flag", " !!!", " due:2026-12-03", "`", "``code", "\\", " \\",
        "*", "**", "_", "<!--", "-->", "<div>", "</script>", "]: /url", "[", "](", "[a]: /b", "]", "> ",
        "- ", "# ", "===", "---", "```", "~~~", "    ", "1. ", "&amp;", "<", "\u{00A0}", "é", "\u{0}", "🔁 every week",
        "✅ 2026-11-30", "[due:: 2026-12-03]", "%%", "$$", "| a | b |", "  ",
    ]

    /// Everything a parse gives, written out.
    static func model(_ document: Document) -> String {
        var out = ""
        print(document.tasks, document.notes, document.diagnostics, document.heading as Any, document.headingLine as Any,
              document.sections.map { "\($0.line) \($0.level) \($0.text)" }, document.frontMatter as Any,
              document.unrecognizedFrontMatter as Any, document.lines.count, to: &out)
        return out
    }

    @Test("a splice inside a title line reads as a full parse reads it", arguments: Array(UInt64(1)...8))
    func spliceInsideTitleLine(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 104_729)
        var compared = 0
        while compared < 400 {
            let document = Document(editing: NastyDocument.generate(&rng))
            guard !document.tasks.isEmpty else { continue }
            let task = document.tasks[Int(rng.next() % UInt64(document.tasks.count))]
            let start = task.checkbox + 1, end = document.lines.contentEnd(task.line)
            guard start <= end else { continue }
            let from = start + Int(rng.next() % UInt64(end - start + 1))
            let to = from + Int(rng.next() % UInt64(end - from + 1))
            let snippet = Array(Self.snippets[Int(rng.next() % UInt64(Self.snippets.count))].utf8)
            let splice = Document.Splice(range: from..<(rng.next() % 2 == 0 ? from : to), bytes: snippet)
            #expect(document.isInsideTitleLine(splice), "\(from) \(to) \(task.line) \(document.lines.line(containing: from)) \(document.lines.contentEnd(task.line)) \(document.tasks.map(\.line))")
            let bytes = document.splicing([splice])
            let reused = document.reading(bytes, splices: [splice])
            let parsed = Document(bytes: bytes)
            #expect(Self.model(reused) == Self.model(parsed), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            compared += 1
        }
    }

    @Test("a splice that is not inside one title line after its box is read by cmark")
    func otherSplicesAreParsed() {
        let document = Document(editing: Array("# List\n\n- [ ] one\n  note\n- [ ] two\n".utf8))
        let one = document.tasks[0]
        let outside: [Document.Splice] = [
            .init(range: one.checkbox..<(one.checkbox + 1), bytes: Array("(".utf8)),        // the box's `[`
            .init(range: one.marker, bytes: Array("#".utf8)),                                // the marker
            .init(range: (one.checkbox + 3)..<(one.checkbox + 3), bytes: Array("\n# x".utf8)),  // a line ending
            .init(range: (one.checkbox + 3)..<(document.lines.start(one.line + 1) + 2), bytes: []),  // across lines
            .init(range: document.lines.start(one.line + 1)..<document.lines.start(one.line + 1), bytes: Array("===".utf8)),
        ]
        for splice in outside {
            #expect(!document.isInsideTitleLine(splice))
            let bytes = document.splicing([splice])
            #expect(Self.model(document.reading(bytes, splices: [splice])) == Self.model(Document(bytes: bytes)))
        }
    }

    @Test("a document read for editing keeps reading its edits without cmark, a plain one parses them")
    func editedDocumentsKeepTheOutline() throws {
        let bytes = Array("# List\n\n- [ ] one\n- [ ] two\n".utf8)
        let edited = try Document(editing: bytes).settingDone(1, true, on: Day(year: 2026, month: 11, day: 30)!).document
        #expect(Self.model(edited) == Self.model(Document(bytes: edited.serialize())))
        let again = try edited.settingFlag(0, true).document
        #expect(Self.model(again) == Self.model(Document(bytes: again.serialize())))
        #expect(String(decoding: again.serialize(), as: UTF8.self) == "# List\n\n- [ ] one #flag\n- [x] two done:2026-11-30\n")
    }
}
