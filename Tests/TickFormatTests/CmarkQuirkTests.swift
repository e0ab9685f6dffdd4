import Testing
import TickFormat

/// cmark's source positions are only partly trustworthy (NUL bytes shift later columns, line-1
/// columns ignore a BOM, list items swallow trailing blank lines, …). Each test here feeds the
/// parser one such case and checks the round trip and the tasks found: title, state and line.
@Suite("cmark position quirks")
struct CmarkQuirkTests {
    // MARK: - NUL bytes

    @Test("a NUL byte inside a title survives and does not move the checkbox")
    func nulInsideTitle() {
        expectTasks(in: "- [ ] a\u{0}b\n- [x] c\u{0}\n", [.open("a\u{0}b", line: 1), .done("c\u{0}", line: 2)])
    }

    @Test("NUL bytes on earlier lines do not shift the lines or columns of later tasks")
    func nulBeforeTaskLine() {
        expectTasks(in: "\u{0}\u{0}\u{0}\n- [ ] a\n", [.open("a", line: 2)])
        expectTasks(in: "- x\u{0}\u{0}\u{0}y\n  - [x] b\n", [.done("b", line: 2)])
        expectTasks(in: "> \u{0}\u{0}\n> - [ ] c\n", [.open("c", line: 2)])
    }

    @Test("NUL bytes before the checkbox on its line make it paragraph text, not a task")
    func nulBeforeCheckbox() {
        expectTasks(in: "- \u{0}[ ] a\n", [])
        expectTasks(in: "\u{0}- [ ] a\n", [])
    }

    @Test("a task after a NUL in its own title line keeps its metadata")
    func nulBeforeMetadata() {
        let document = expectTasks(in: "- [ ] a\u{0}\u{0} due:2026-03-04 !!\n", [.open("a\u{0}\u{0}", line: 1)])
        #expect(document.tasks.first?.due == DueDate(iso: "2026-03-04"))
        #expect(document.tasks.first?.priority == .medium)
    }

    // MARK: - Byte order mark

    @Test("a BOM before a task on line 1 is not part of its title")
    func bomThenTask() {
        expectTasks(in: "\u{FEFF}- [ ] a\n- [x] b\n", [.open("a", line: 1), .done("b", line: 2)])
        expectTasks(in: "\u{FEFF}1. [X] a\n", [.done("a", line: 1)])
        expectTasks(in: "\u{FEFF}   * [ ] a", [.open("a", line: 1)])
        expectTasks(in: "\u{FEFF}> - [ ] a\n", [.open("a", line: 1)])
    }

    @Test("a BOM takes no column: notes of a task on line 1 keep their indentation")
    func bomTakesNoColumn() {
        var document = expectTasks(in: "\u{FEFF}- [ ] a\n\n      code\n  - [x] b\n", [.open("a", line: 1), .done("b", line: 4)])
        #expect(document.notes == ["    code", ""])
        document = expectTasks(in: "\u{FEFF}-\t[ ] a\n\tnote\n", [.open("a", line: 1)])
        #expect(document.notes == ["note"])
    }

    @Test("a BOM before text that is not a task finds no task")
    func bomThenParagraph() {
        expectTasks(in: "\u{FEFF}[ ] a\n", [])
        expectTasks(in: "\u{FEFF}    - [ ] code\n", [])
    }

    @Test("a BOM before front matter")
    func bomThenFrontMatter() {
        let document = expectTasks(in: "\u{FEFF}---\nsymbol: 🏠\n---\n- [ ] a\n", [.open("a", line: 4)])
        #expect(document.frontMatter?["symbol"] == "🏠")
    }

    // MARK: - Line ends

    @Test("CRLF line ends are not part of titles or notes")
    func crlf() {
        let document = expectTasks(
            in: "# Home\r\n\r\n- [ ] a !\r\n  note\r\n- [x] b\r\n",
            [.open("a", line: 3), .done("b", line: 5)])
        #expect(document.heading == "Home")
        #expect(document.notes == ["note", ""])
        #expect(document.tasks.first?.priority == .low)
        #expect(document.lineEnding == .crlf)
    }

    @Test("lone CR line ends count as line ends")
    func loneCR() {
        let document = expectTasks(in: "- [ ] a\r  note\r- [x] b\r\r- [ ] c", [
            .open("a", line: 1), .done("b", line: 3), .open("c", line: 5),
        ])
        #expect(document.notes == ["note", "", ""])
        #expect(document.lineEnding == .cr)
    }

    @Test("mixed line ends")
    func mixedLineEnds() {
        expectTasks(in: "- [ ] a\r\n- [ ] b\r- [ ] c\n\r\n- [x] d\n", [
            .open("a", line: 1), .open("b", line: 2), .open("c", line: 3), .done("d", line: 5),
        ])
    }

    // MARK: - Block quotes

    @Test("tasks inside block quotes, also nested ones")
    func blockQuote() {
        let document = expectTasks(in: "> - [ ] a\n>   note\n> - [x] b\n>\n> > 1. [ ] c\n", [
            .open("a", line: 1), .done("b", line: 3), .open("c", line: 5),
        ])
        #expect(document.notes == ["note", "", ""])
    }

    @Test("a block quote that ends before a task")
    func blockQuoteThenTask() {
        expectTasks(in: "> - [ ] a\n\n- [x] b\n", [.open("a", line: 1), .done("b", line: 3)])
    }

    // MARK: - Tabs

    @Test("a tab after the list marker")
    func tabAfterMarker() {
        expectTasks(in: "-\t[ ] a\n", [.open("a", line: 1)])
        expectTasks(in: "1.\t[x] b\n", [.done("b", line: 1)])
        expectTasks(in: "  +\t[ ] c\n", [.open("c", line: 1)])
        expectTasks(in: ">\t-\t[ ] d\n", [.open("d", line: 1)])
    }

    @Test("a tab after the checkbox")
    func tabAfterCheckbox() {
        expectTasks(in: "- [ ]\ta\n- [x]\t\tb\t\n", [.open("a", line: 1), .done("b", line: 2)])
    }

    @Test("two tabs after the marker start indented code, not a task")
    func twoTabsAfterMarker() {
        expectTasks(in: "-\t\t[ ] a\n", [])
    }

    @Test("a subtask indented with a tab")
    func tabIndentedSubtask() {
        let document = expectTasks(in: "- [ ] a\n\t- [x] b\n", [.open("a", line: 1), .done("b", line: 2)])
        #expect(document.tasks.map(\.parent) == [nil, 0])
    }

    // MARK: - Trailing blank lines

    @Test("blank lines after an item belong to it only when a task follows")
    func trailingBlankLines() {
        let document = expectTasks(in: "- [ ] a\n\n\n- [x] b\n  note\n\n\n", [.open("a", line: 1), .done("b", line: 4)])
        #expect(document.lineRange(of: 0) == 1...3)
        #expect(document.lineRange(of: 1) == 4...5)
        #expect(document.notes == ["", "note"])
    }

    @Test("blank lines before a paragraph after the list are not the last task's")
    func trailingBlankLinesBeforeParagraph() {
        let document = expectTasks(in: "- [ ] a\n  - [ ] b\n\n\nText\n", [.open("a", line: 1), .open("b", line: 2)])
        #expect(document.lineRange(of: 0) == 1...2)
        #expect(document.lineRange(of: 1) == 2...2)
    }

    @Test("blank lines between a subtask and the next task belong to the subtask")
    func trailingBlankLinesAfterSubtask() {
        let document = expectTasks(in: "- [ ] a\n  - [ ] b\n\n\n- [ ] c\n", [
            .open("a", line: 1), .open("b", line: 2), .open("c", line: 5),
        ])
        #expect(document.lineRange(of: 0) == 1...4)
        #expect(document.lineRange(of: 1) == 2...4)
    }

    @Test("blank lines inside a block quote")
    func trailingBlankLinesInBlockQuote() {
        let document = expectTasks(in: "> - [ ] a\n>\n> \n> - [ ] b\n", [.open("a", line: 1), .open("b", line: 4)])
        #expect(document.lineRange(of: 0) == 1...3)
    }

    // MARK: - Lazy continuation lines

    @Test("a lazy continuation line is a note, not part of the title")
    func lazyContinuation() {
        let document = expectTasks(in: "- [ ] a\nlazy\n- [x] b\n", [.open("a", line: 1), .done("b", line: 3)])
        #expect(document.notes == ["lazy", ""])
    }

    @Test("a lazy continuation line inside a block quote")
    func lazyContinuationInBlockQuote() {
        let document = expectTasks(in: "> - [ ] a\nlazy\n> - [ ] b\n", [.open("a", line: 1), .open("b", line: 3)])
        #expect(document.notes == ["lazy", ""])
    }

    @Test("a code span closed on a lazy line hides metadata on the title line")
    func codeSpanClosedOnLazyLine() {
        let document = expectTasks(in: "- [ ] a `due:2026-01-01\nlazy` b\n", [.open("a `due:2026-01-01", line: 1)])
        #expect(document.tasks.first?.due == nil)
    }

    // MARK: - Final newline

    @Test("a file without final newline")
    func noFinalNewline() {
        expectTasks(in: "- [ ] a", [.open("a", line: 1)])
        expectTasks(in: "- [ ] a\n- [x] b due:2026-05-06", [.open("a", line: 1), .done("b", line: 2)])
        let document = expectTasks(in: "- [ ] a\n  note", [.open("a", line: 1)])
        #expect(document.notes == ["note"])
    }

    @Test("a checkbox at the very end of the file with no title text")
    func checkboxAtEndOfFile() {
        expectTasks(in: "- [ ]", [])
        expectTasks(in: "- [x] ", [.done("", line: 1)])
    }

    // MARK: - Invalid UTF-8

    @Test("invalid UTF-8 in a title decodes with U+FFFD and survives the round trip")
    func invalidUTF8InTitle() {
        let bytes = Array("- [ ] caf".utf8) + [0xE9] + Array(" due:2026-07-08\n- [x] ".utf8) + [0xFF, 0xFE] + [0x0A]
        let document = expectTasks(in: bytes, [.open("caf\u{FFFD}", line: 1), .done("\u{FFFD}\u{FFFD}", line: 2)])
        #expect(document.tasks.first?.due == DueDate(iso: "2026-07-08"))
    }

    @Test("a truncated UTF-8 sequence right before the line end")
    func truncatedUTF8AtLineEnd() {
        expectTasks(in: Array("- [ ] a".utf8) + [0xE2, 0x82] + Array("\n- [ ] b\n".utf8), [
            .open("a\u{FFFD}", line: 1), .open("b", line: 2),
        ])
    }

    // MARK: - Front matter and thematic breaks

    @Test("front matter followed by a heading")
    func frontMatterThenHeading() {
        let document = expectTasks(in: "---\nsymbol: 🛒\ncolor: green\n---\n# Groceries\n\n- [ ] milk\n", [
            .open("milk", line: 7),
        ])
        #expect(document.heading == "Groceries")
        #expect(document.frontMatter?["symbol"] == "🛒")
        #expect(document.frontMatter?["color"] == "green")
    }

    @Test("the closing line of front matter does not make a setext heading of the field above it")
    func frontMatterIsNotSetextHeading() {
        let document = expectTasks(in: "---\ntitle: x\n---\n- [ ] a\n", [.open("a", line: 4)])
        #expect(document.heading == nil)
        #expect(document.frontMatter?["title"] == "x")
        #expect(document.tasks.first?.section == nil)
    }

    @Test("front matter with CRLF line ends")
    func frontMatterWithCRLF() {
        let document = expectTasks(in: "---\r\ncolor: red\r\n---\r\n# Work\r\n- [ ] a\r\n", [.open("a", line: 5)])
        #expect(document.frontMatter?["color"] == "red")
        #expect(document.heading == "Work")
    }

    @Test("a thematic break at the start that is not front matter")
    func thematicBreakAtStart() {
        var document = expectTasks(in: "---\n- [ ] a\n---\n", [.open("a", line: 2)])
        #expect(document.frontMatter == nil)
        document = expectTasks(in: "---\n\n- [ ] a\n", [.open("a", line: 3)])
        #expect(document.frontMatter == nil)
    }

    @Test("a --- block without a key: value line is Markdown, not front matter")
    func dashBlockWithoutFields() {
        let document = expectTasks(in: "---\n# Title\n---\n- [ ] a\n", [.open("a", line: 4)])
        #expect(document.frontMatter == nil)
        #expect(document.heading == "Title")
    }

    @Test("text under a leading --- that is not front matter becomes a setext heading")
    func setextHeadingAfterLeadingBreak() {
        let document = expectTasks(in: "---\nNot: front matter\nbecause of this line\n---\n- [ ] a\n", [
            .open("a", line: 5),
        ])
        #expect(document.frontMatter == nil)
        #expect(document.heading == nil)
        #expect(document.tasks.first?.section == "Not: front matter because of this line")
    }

    @Test("unclosed front matter is Markdown")
    func unclosedFrontMatter() {
        let document = expectTasks(in: "---\nsymbol: x\n\n- [ ] a\n", [.open("a", line: 4)])
        #expect(document.frontMatter == nil)
    }
}

@Suite("files cmark is not asked about")
struct CmarkSkipTests {
    @Test("a file without a box or a heading byte gives the same document as one parsed with cmark")
    func skippedFilesAreEmpty() {
        // The same text with a heading byte added is parsed by cmark; without it, it is skipped.
        let plain = Document("Some notes\nwith *emphasis* and [a link](x)\n\n> quoted\n")
        #expect(plain.tasks.isEmpty && plain.heading == nil && plain.serialize() == Array("Some notes\nwith *emphasis* and [a link](x)\n\n> quoted\n".utf8))
        let withHeading = Document("Some notes\n=\n")
        #expect(withHeading.heading == "Some notes")
        let withBox = Document("1. [x] done\n")
        #expect(withBox.tasks.count == 1)
    }
}
