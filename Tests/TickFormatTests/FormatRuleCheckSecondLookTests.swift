import Testing
import TickFormat

// FORMAT.md section 9: what `tick check` reports beyond parsing (`Document.checkDiagnostics()`).

/// The check messages of `text`, as `line:column: message`.
private func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    parsed(text, sourceLocation: sourceLocation).checkDiagnostics().map(\.description)
}

@Suite("9. What tick check reports: a second look")
struct FormatRuleCheckSecondLookTests {
    @Test("git conflict markers are reported at their first line, with any line ending", arguments: [
        "- [ ] a\n<<<<<<< HEAD\n- [ ] b\n=======\n- [ ] c\n>>>>>>> other\n",
        "- [ ] a\r\n<<<<<<< HEAD\r\n- [ ] b\r\n>>>>>>> other\r\n",
        "- [ ] a\r<<<<<<< HEAD\r- [ ] b\r>>>>>>> other\r",
        "- [ ] a\n<<<<<<<\n",
        // A longer marker (git's `conflict-marker-size`), as in a Markdown file's `.gitattributes`.
        "- [ ] a\n<<<<<<<<<< HEAD\n- [ ] b\n==========\n- [ ] c\n>>>>>>>>>> other\n",
        "- [ ] a\n<<<<<<<< HEAD\r\n",
        "- [ ] a\n>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>> other\n",
        "- [ ] a\n<<<<<<<<\t\n",
    ])
    func conflictMarkers(_ text: String) {
        #expect(problems(text).contains { $0.hasPrefix("2:1: git conflict marker") }, "\(text.debugDescription)")
        #expect(Document.conflictMarkerLine(in: Array(text.utf8)) == 2)
    }

    @Test("angle brackets inside a line, fewer than seven, mixed, or followed by text are not conflict markers", arguments: [
        "- [ ] a <<<<<<< b\n", "  <<<<<<< x\n", "<<<<<<<x\n", "<<<<<<<<<<x\n", "<<<<<< x\n", "<<<<<<>> x\n",
        ">>>>>>>>-\n",
    ])
    func notConflictMarkers(_ text: String) {
        #expect(Document.conflictMarkerLine(in: Array(text.utf8)) == nil)
        #expect(!problems(text).contains { $0.contains("conflict") })
    }

    @Test("a document read for a check finds the paragraphs in its one parse, as a second parse finds them",
          arguments: SpecFile.allCases)
    func oneParseForCheck(file: SpecFile) throws {
        var withNearMisses = 0
        for example in try SpecCorpus.examples(of: file) {
            for form in ExampleForm.allCases {
                let lf = example.input(form).bytes
                // Near misses in every example, and a BOM and front matter in turn (columns and lines shift).
                let variants = [lf, Array("- [] x\n".utf8) + lf, [0xEF, 0xBB, 0xBF] + Array("-[ ] y\n".utf8) + lf,
                                Array("---\ncolor: red\n---\n- [ x] z\n".utf8) + lf]
                for bytes in variants {
                    let once = Document(bytes: bytes, forCheck: true).checkDiagnostics()
                    #expect(once == Document(bytes: bytes).checkDiagnostics(), "\(example), \(form)")
                    if once.contains(where: { $0.message.contains("is not a task") }) { withNearMisses += 1 }
                }
            }
        }
        #expect(withNearMisses > 0)
    }

    @Test("near-miss checkboxes are reported where they start", arguments: [
        ("- [] x\n", "1:3"), ("-[ ] x\n", "1:1"), ("- [ x] x\n", "1:3"), ("- [ ]x\n", "1:3"), ("[ ] x\n", "1:1"),
        ("> - [x ] x\n", "1:5"), ("1. [  ] x\n", "1:4"), ("- [ ]\n", "1:3"), ("\u{FEFF}- [] x\n", "1:3"),
    ])
    func nearMisses(text: String, at position: String) {
        let found = problems(text)
        #expect(found.count == 1 && found[0].hasPrefix(position + ": '") && found[0].contains("is not a task"),
                "\(text.debugDescription): \(found)")
    }

    @Test("tasks, links, code and prose with a box inside are not near misses", arguments: [
        "- [ ] x\n", "- [x] x\n", "- [X]\tx\n", "[x](https://example.com) a link\n", "[x]: https://example.com\n",
        "[](nothing)\n", "```\n- [] x\n```\n", "    - [] x\n",
        "Some prose with [ ] a box\n", "- [-] cancelled\n", "<div>\n- [] x\n</div>\n",
    ])
    func notNearMisses(_ text: String) {
        #expect(problems(text).isEmpty, "\(text.debugDescription)")
    }

    @Test("metadata tokens on a continuation line of the first paragraph are reported; in later paragraphs they are plain notes")
    func continuationTokens() {
        #expect(problems("- [ ] Pay rent\n  due:2026-12-01 #flag\n") == [
            "2:3: 'due:2026-12-01' is on a continuation line, so it is part of the notes, not metadata; move it to the task's first line",
            "2:18: '#flag' is on a continuation line, so it is part of the notes, not metadata; move it to the task's first line",
        ])
        #expect(problems("- [ ] Pay rent\n\n  due:2026-12-01\n").isEmpty)
        #expect(problems("- [ ] Pay rent\n  `due:2026-12-01` !!!!\n").isEmpty)
    }

    @Test("a first-line '---' block that is not front matter is reported at the line that breaks it")
    func unrecognizedFrontMatter() {
        #expect(problems("---\ntags:\n- work\n---\n# L\n").first?.hasPrefix("3:1: the '---' block at the top is not front matter") == true)
        #expect(problems("---\nSome text\n---\n").first?.hasPrefix("2:1: the '---' block") == true)
        #expect(problems("---\n# L\n").first?.contains("no closing '---'") == true)
        #expect(problems("---\nsymbol: x\n---\n# L\n").isEmpty)
        #expect(problems("# L\n\n---\n").isEmpty)
    }

    @Test("a symbol wider than 8 terminal columns is reported; 8 are fine")
    func wideSymbol() {
        #expect(problems("---\nsymbol: 🛒🛒🛒🛒🛒\n---\n") == [
            "2:1: the symbol '🛒🛒🛒🛒🛒' takes 10 columns; at most 8 are shown",
        ])
        #expect(problems("---\nsymbol: 🛒🛒🛒🛒\n---\n").isEmpty)
        #expect(problems("---\nsymbol: abcdefgh\n---\n").isEmpty)
    }
}
