import Testing
import TickFormat

// FORMAT.md sections 1 to 3: bytes, front matter, the list's name.

@Suite("1 Bytes")
struct FormatRuleBytesTests {
    @Test("every one- and two-byte sequence reads and writes back unchanged")
    func everyShortByteSequence() {
        var failures = 0
        for a in 0...255 {
            if Document(bytes: [UInt8(a)]).serialize() != [UInt8(a)] { failures += 1 }
            for b in 0...255 where Document(bytes: [UInt8(a), UInt8(b)]).serialize() != [UInt8(a), UInt8(b)] {
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    @Test("an empty file is a list with no tasks")
    func emptyFile() {
        let document = parsed("")
        #expect(document.tasks.isEmpty)
        #expect(document.lineCount == 0)
    }

    @Test("invalid UTF-8 survives and shows as U+FFFD")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("- [ ] Caf".utf8) + [0xE9] + Array(" au lait due:2026-12-01\n".utf8) + [0xFF, 0xC0, 0x0A]
        let document = parsed(bytes: bytes)
        #expect(document.tasks.map(\.title) == ["Caf\u{FFFD} au lait"])
        #expect(document.tasks.first?.due == DueDate(iso: "2026-12-01"))
    }

    @Test("NUL bytes survive and do not shift later columns")
    func nulBytes() {
        let bytes: [UInt8] = Array("- [ ] a".utf8) + [0] + Array("b due:soon\n\0\n- [ ] c\n".utf8)
        let document = parsed(bytes: bytes)
        #expect(document.tasks.map(\.title) == ["a\0b due:soon", "c"])
        #expect(document.diagnostics.map(\.line) == [1])
        #expect(document.diagnostics.map(\.column) == [11])
    }

    @Test("a byte order mark survives and is not text")
    func byteOrderMark() {
        let document = parsed("\u{FEFF}- [ ] a due:2026-12-01\n")
        #expect(document.tasks.map(\.title) == ["a"])
        #expect(document.tasks.first?.due == DueDate(iso: "2026-12-01"))
    }

    @Test("CRLF line ends survive and are not part of titles or notes")
    func crlf() {
        let document = parsed("- [ ] a\r\n  note\r\n- [ ] b\r\n")
        #expect(document.tasks.map(\.title) == ["a", "b"])
        #expect(document.notes == ["note", ""])
        #expect(document.tasks.map(\.line) == [1, 3])
    }

    @Test("lone CR line ends survive and end lines")
    func loneCR() {
        let document = parsed("- [ ] a\r  note\r- [ ] b\r")
        #expect(document.tasks.map(\.title) == ["a", "b"])
        #expect(document.notes == ["note", ""])
        #expect(document.tasks.map(\.line) == [1, 3])
    }

    @Test("mixed line ends in one file survive")
    func mixedLineEnds() {
        let document = parsed("- [ ] a\r\n- [ ] b\r- [ ] c\n- [ ] d")
        #expect(document.tasks.map(\.title) == ["a", "b", "c", "d"])
        #expect(document.tasks.map(\.line) == [1, 2, 3, 4])
    }

    @Test("tabs survive: a tab indents a subtask and separates words")
    func tabs() {
        let document = parsed("- [ ]\tStore\tdue:2026-12-01\n\t- [ ] sub\n")
        #expect(document.tasks.map(\.title) == ["Store", "sub"])
        #expect(document.tasks.map(\.parent) == [nil, 0])
        #expect(document.tasks.first?.due == DueDate(iso: "2026-12-01"))
    }

    @Test("a missing final newline survives")
    func missingFinalNewline() {
        let document = parsed("- [ ] a\n- [ ] b")
        #expect(document.tasks.map(\.title) == ["a", "b"])
    }

    @Test("lines end at LF, CRLF or a lone CR")
    func lineEnds() {
        let document = parsed("a\rb\r\nc\nd")
        #expect(document.lineCount == 4)
        #expect((1...4).map(document.lineText) == ["a", "b", "c", "d"])
    }

    @Test("a written line uses the line ending of the neighbouring task")
    func writtenLineUsesNeighboursEnding() throws {
        let document = parsed("# Groceries\n\n- [ ] Milk\r\n")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "# Groceries\n\n- [ ] Milk\r\n- [ ] Bread\r\n")
    }

    @Test("the example: tick add in a CRLF file writes CRLF")
    func crlfExample() throws {
        let document = parsed("- [ ] Milk\r\n")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "- [ ] Milk\r\n- [ ] Bread\r\n")
    }

    @Test("without a neighbour a written line uses the file's first line ending")
    func writtenLineUsesFirstEnding() throws {
        let document = parsed("# Inbox\r\nSome text\n")
        #expect(document.lineEnding == .crlf)
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "# Inbox\r\nSome text\n\r\n- [ ] Bread\r\n")
    }

    @Test("a file with no line ending gets LF")
    func noLineEndingGetsLF() throws {
        let document = parsed("# Inbox")
        #expect(document.lineEnding == .lf)
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "# Inbox\n\n- [ ] Bread")
    }

    @Test("an added note line uses the ending of the line it follows")
    func noteUsesNeighboursEnding() throws {
        let document = parsed("- [ ] a\n- [ ] b\r\n")
        let result = try document.appendingNote(1, "note")
        expectEdit(result, of: document, gives: "- [ ] a\n- [ ] b\r\n  note\r\n", within: 2...2)
    }
}

@Suite("2 Front matter")
struct FormatRuleFrontMatterTests {
    static let example = "---\nsymbol: 🛒\ncolor: \"#2a9d8f\"\nshared-with: sam\n---\n# Groceries\n"

    @Test("the example: symbol, color without quotes, and other keys kept")
    func example() throws {
        let document = parsed(Self.example)
        let frontMatter = try #require(document.frontMatter)
        #expect(frontMatter["symbol"] == "🛒")
        #expect(frontMatter["color"] == "#2a9d8f")
        #expect(frontMatter["shared-with"] == "sam")
        #expect(frontMatter.fields.map(\.key) == ["symbol", "color", "shared-with"])
        #expect(frontMatter.closingLine == 5)
        #expect(document.heading == "Groceries")
    }

    @Test("front matter may follow a byte order mark")
    func afterByteOrderMark() {
        let document = parsed("\u{FEFF}---\nsymbol: x\n---\n- [ ] a\n")
        #expect(document.frontMatter?["symbol"] == "x")
        #expect(document.tasks.map(\.line) == [4])
    }

    @Test("fence lines may end in spaces")
    func fenceTrailingSpaces() {
        let document = parsed("---  \nsymbol: x\n--- \n")
        #expect(document.frontMatter?["symbol"] == "x")
    }

    @Test("blank lines, indented continuation lines and # comments are allowed")
    func blankContinuationComment() throws {
        let document = parsed("---\n# a comment\nsymbol: x\n\nnotes: one\n  two\n---\n")
        let frontMatter = try #require(document.frontMatter)
        #expect(frontMatter.fields.map(\.key) == ["symbol", "notes"])
        #expect(frontMatter.closingLine == 7)
    }

    @Test("a key may be followed by a tab or the end of the line")
    func keyFollowedByTabOrEnd() throws {
        let document = parsed("---\nsymbol:\tx\ntags:\n---\n")
        let frontMatter = try #require(document.frontMatter)
        #expect(frontMatter["symbol"] == "x")
        #expect(frontMatter["tags"] == "")
    }

    @Test("a key is ASCII letters, digits, _ and -")
    func keyCharacters() {
        #expect(parsed("---\nA_b-9: x\n---\n").frontMatter?["A_b-9"] == "x")
        #expect(parsed("---\na.b: x\n---\n").frontMatter == nil)
        #expect(parsed("---\nclé: x\n---\n").frontMatter == nil)
    }

    @Test("a key must be followed by a colon and a space, a tab or the line end")
    func keyNeedsSeparator() {
        #expect(parsed("---\ncolor:red\n---\n").frontMatter == nil)
    }

    @Test("a key starts the line: an indented first line is no key")
    func keyStartsTheLine() {
        #expect(parsed("---\n  symbol: x\n---\n").frontMatter == nil)
    }

    @Test("at least one key line is required")
    func needsAKey() {
        let document = parsed("---\n\n# comment\n---\n")
        #expect(document.frontMatter == nil)
    }

    @Test("without a closing fence there is no front matter")
    func needsClosingFence() {
        let document = parsed("---\nsymbol: x\n- [ ] a\n")
        #expect(document.frontMatter == nil)
        #expect(document.tasks.map(\.title) == ["a"])
    }

    @Test("front matter starts on the first line")
    func startsOnFirstLine() {
        #expect(parsed("\n---\nsymbol: x\n---\n").frontMatter == nil)
    }

    @Test("the example: a line that is not key: value makes a thematic break and a heading")
    func notFrontMatterExample() {
        let document = parsed("---\nSome text\n---\n- [ ] a\n")
        #expect(document.frontMatter == nil)
        #expect(document.heading == nil)
        #expect(document.tasks.first?.section == "Some text")
    }

    @Test("color: a named colour or #RRGGBB, quotes are not part of the value",
          arguments: [("color: \"#2a9d8f\"", "#2a9d8f"), ("color: '#2a9d8f'", "#2a9d8f"), ("color: #2a9d8f", "#2a9d8f"),
                      ("color: blue", "blue"), ("color: \"purple\"", "purple"), ("color:   gray  ", "gray")])
    func color(line: String, value: String) {
        #expect(parsed("---\n\(line)\n---\n").frontMatter?["color"] == value)
    }

    @Test("front matter is not Markdown: no tasks or headings inside it")
    func notMarkdown() {
        let document = parsed("---\nsymbol: x\n# Not a heading\nlist:\n  - [ ] not a task\n---\n- [ ] a\n")
        #expect(document.frontMatter?["symbol"] == "x")
        #expect(document.heading == nil)
        #expect(document.tasks.map(\.title) == ["a"])
        #expect(document.tasks.map(\.line) == [7])
    }
}

@Suite("3 The list's name")
struct FormatRuleNameTests {
    @Test("the example: inline markup is removed from the name")
    func example() {
        #expect(parsed("# Work *stuff*\n").heading == "Work stuff")
    }

    @Test("links, code and emphasis markup are removed")
    func otherMarkup() {
        #expect(parsed("# [Work](https://example.com) `list` __now__\n").heading == "Work list now")
    }

    @Test("a setext heading with === names the list")
    func setext() {
        #expect(parsed("Work\n===\n").heading == "Work")
    }

    @Test("the first level-1 heading names the list")
    func firstHeading() {
        #expect(parsed("## Later\n# First\n# Second\n").heading == "First")
    }

    @Test("a heading inside a list item does not name the list")
    func notInsideListItem() {
        #expect(parsed("- # Inside\n\n# Outside\n").heading == "Outside")
        #expect(parsed("- # Inside\n").heading == nil)
    }

    @Test("without a level-1 heading there is no name in the file: the caller uses the file name")
    func noHeading() {
        #expect(parsed("## Errands\n- [ ] a\n").heading == nil)
        #expect(parsed("").heading == nil)
    }
}
