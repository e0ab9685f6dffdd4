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
            let splice: Document.Splice
            if rng.next() % 4 == 0 {
                // The box's mark.
                let mark = Array(" xX".utf8)[Int(rng.next() % 3)]
                splice = Document.Splice(range: (task.checkbox + 1)..<(task.checkbox + 2), bytes: [mark])
            } else {
                // Bytes after the space or tab that follows the box.
                let start = task.checkbox + 4, end = document.lines.contentEnd(task.line)
                guard start <= end else { continue }
                let from = start + Int(rng.next() % UInt64(end - start + 1))
                let to = from + Int(rng.next() % UInt64(end - from + 1))
                let snippet = Array(Self.snippets[Int(rng.next() % UInt64(Self.snippets.count))].utf8)
                splice = Document.Splice(range: from..<(rng.next() % 2 == 0 ? from : to), bytes: snippet)
            }
            #expect(document.isInsideTitleLine(splice), "\(splice.range) on line \(task.line)")
            let bytes = document.splicing([splice])
            let reused = document.reading(bytes, splices: [splice])
            let parsed = Document(bytes: bytes)
            #expect(Self.model(reused) == Self.model(parsed), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            compared += 1
        }
    }

    @Test("a splice that is not inside one title line, or that touches the box's brackets or the space after it, is read by cmark")
    func otherSplicesAreParsed() {
        let document = Document(editing: Array("# List\n\n- [ ] one\n  note\n- [ ] two\n".utf8))
        let one = document.tasks[0]
        let outside: [Document.Splice] = [
            .init(range: one.checkbox..<(one.checkbox + 1), bytes: Array("(".utf8)),        // the box's `[`
            .init(range: one.marker, bytes: Array("#".utf8)),                                // the marker
            .init(range: (one.checkbox + 3)..<(one.checkbox + 3), bytes: Array("\n# x".utf8)),  // a line ending
            .init(range: (one.checkbox + 3)..<(document.lines.start(one.line + 1) + 2), bytes: []),  // across lines
            .init(range: document.lines.start(one.line + 1)..<document.lines.start(one.line + 1), bytes: Array("===".utf8)),
            .init(range: (one.checkbox + 1)..<(one.checkbox + 2), bytes: Array("]".utf8)),                 // not a mark
            .init(range: (one.checkbox + 3)..<(one.checkbox + 4), bytes: Array(":".utf8)),                 // the space
        ]
        for splice in outside {
            #expect(!document.isInsideTitleLine(splice))
            let bytes = document.splicing([splice])
            #expect(Self.model(document.reading(bytes, splices: [splice])) == Self.model(Document(bytes: bytes)))
        }
    }

    /// Why the space after the box must stay: `[ ]: one` is a link reference definition, not a paragraph.
    @Test("a box followed by a colon starts a link reference definition, and no task")
    func boxAndColon() {
        let document = Document(editing: Array("- [ ] one\n- [ ] two\n".utf8))
        let splice = Document.Splice(range: (document.tasks[0].checkbox + 3)..<(document.tasks[0].checkbox + 4), bytes: Array(":".utf8))
        #expect(!document.isInsideTitleLine(splice))
        let bytes = document.splicing([splice])
        #expect(Document(bytes: bytes).tasks.count == 1)
        #expect(document.reading(bytes, splices: [splice]).tasks.count == 1)
    }

    /// Lines appended after the list that ends a document are read without cmark when each is an
    /// item of that list holding a box (`outlineAppending`): the result must be a full parse's.
    @Test("task lines appended to the list that ends a document read as a full parse reads them", arguments: Array(UInt64(1)...6))
    func appendedTaskLines(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 7_907)
        var compared = 0, known = 0
        let titles = ["x", "call mum due:2026-12-03 !!", "`code", "<!--", "]: /url", "[a]: /b", "# h", "---", "\\", "*a*",
                      "\u{0}", "é #tag", "1. one", "> q", "    four", "<div>", "```", "==="]
        while compared < 400 {
            var bytes = NastyDocument.generate(&rng)
            // Most documents end with a task line of their own, as a list does after tick added to it.
            if rng.next() % 4 != 0 {
                if bytes.last != 0x0A { bytes.append(0x0A) }
                bytes += Array((rng.next() % 2 == 0 ? "\n- [ ] last\n" : "* [x] last\n").utf8)
            }
            let document = Document(editing: bytes)
            // The marker of the document's last line, mostly; now and then a line cmark must read.
            let start = bytes.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let own = start < bytes.count ? String(decoding: [bytes[start]], as: UTF8.self) : "-"
            var text: [UInt8] = []
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let odd = rng.next() % 6 == 0
                let marker = odd ? ["-", "*", "+", "1.", " -"][Int(rng.next() % 5)] : own
                let box = odd ? ["[ ]", "[x]", "[]", "[ ]:", "[x]\t"][Int(rng.next() % 5)] : ["[ ]", "[x]", "[X]"][Int(rng.next() % 3)]
                let title = titles[Int(rng.next() % UInt64(titles.count))]
                let ending = odd && rng.next() % 2 == 0 ? "\r\n" : "\n"
                text += Array("\(marker) \(box) \(title)\(ending)".utf8)
            }
            let appended = bytes + text
            if document.outlineAppending(text) != nil { known += 1 }
            let read = document.reading(appended, appending: text)
            #expect(Self.model(read) == Self.model(Document(bytes: appended)), "\(String(decoding: appended, as: UTF8.self).debugDescription)")
            compared += 1
        }
        // Both ways are well represented.
        #expect(known > 60 && known < compared - 60, "\(known) of \(compared) read without cmark")
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
