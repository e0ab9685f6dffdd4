import Testing
import TickFormat

// FORMAT.md sections 9 and 10: what `tick check` reports, and where tick differs from cmark-gfm.

@Suite("9 What tick check reports")
struct FormatRuleCheckTests {
    static let list = """
        # Trip
        - [ ] Book due:2026-02-30
        - [x] Pack done:tomorrow
        - [ ] Plan due:2026-12-01 !! due:2026-12-08 ! #flag #Flag
          - [x] Sub done:2026-11-01 done:2026-11-02
        - [ ] Call Due:2026-12-01
        - [ ] Fine due:2026-12-01T10:00 !!! #flag

        """

    @Test("a malformed due: or done: value is reported at its line and column")
    func malformed() throws {
        let d = parsed(Self.list).diagnostics
        try #require(d.count == 7)
        #expect((d[0].line, d[0].column) == (2, 12))
        #expect(d[0].message.contains("malformed due date") && d[0].message.contains("due:2026-02-30"))
        #expect((d[1].line, d[1].column) == (3, 12))
        #expect(d[1].message.contains("malformed completion date") && d[1].message.contains("done:tomorrow"))
    }

    @Test("a second due date, priority or #flag on one task is reported")
    func secondTokens() throws {
        let d = parsed(Self.list).diagnostics
        try #require(d.count == 7)
        #expect(d[2...4].map(\.line) == [4, 4, 4])
        #expect(d[2...4].map(\.column) == [30, 45, 53])
        #expect(d[2].message.contains("second due date"))
        #expect(d[3].message.contains("second priority"))
        #expect(d[4].message.contains("second #flag"))
    }

    @Test("a second completion date is reported, on a subtask too")
    func secondDone() throws {
        let d = parsed(Self.list).diagnostics
        try #require(d.count == 7)
        #expect((d[5].line, d[5].column) == (5, 29))
        #expect(d[5].message.contains("second completion date"))
    }

    @Test("a key that is not lower case is reported")
    func upperCaseKey() throws {
        let d = parsed(Self.list).diagnostics
        try #require(d.count == 7)
        #expect((d[6].line, d[6].column) == (6, 12))
        #expect(d[6].message.contains("lower case"))
    }

    @Test("diagnostics read line:column: message, in file order")
    func format() throws {
        let d = parsed(Self.list).diagnostics
        #expect(d.map(\.line) == d.map(\.line).sorted())
        #expect(d.first?.description.hasPrefix("2:12: ") == true)
    }

    @Test("columns count bytes from 1; a byte order mark takes none")
    func columnsCountBytes() {
        let d = parsed("\u{FEFF}- [ ] Café due:soon\n- [ ] Café due:soon\n").diagnostics
        #expect(d.map(\.line) == [1, 2])
        #expect(d.map(\.column) == [13, 13])
    }

    @Test("tokens inside code spans and text outside title lines are not checked")
    func notChecked() {
        let d = parsed("- [ ] `due:soon` ok\n  due:soon !! !!\n\nText due:soon\n```\n- [ ] due:soon\n```\n").diagnostics
        #expect(d.isEmpty)
    }
}

@Suite("9 What tick check reports: dates on open tasks and colours")
struct FormatRuleCheckMoreTests {
    @Test("a done: date on an open task is reported at the date")
    func doneDateOnOpenTask() throws {
        let d = parsed("- [ ] Pack done:2026-11-28\n- [x] Done done:2026-11-28\n").diagnostics
        try #require(d.count == 1)
        #expect((d[0].line, d[0].column) == (1, 12))
        #expect(d[0].message.contains("completion date on an open task"))
    }

    @Test("an unknown front-matter colour is reported at its line; named colours and #RRGGBB are not")
    func unknownColour() throws {
        let bad = parsed("---\nsymbol: x\ncolor: pink\n---\n# L\n").diagnostics
        try #require(bad.count == 1)
        #expect(bad[0].line == 3 && bad[0].message.contains("unknown colour 'pink'"))
        #expect(parsed("---\ncolor: Green\n---\n").diagnostics.isEmpty)
        #expect(parsed("---\ncolor: \"#2a9D8f\"\n---\n").diagnostics.isEmpty)
        #expect(parsed("---\ncolor: #2a9d8\n---\n").diagnostics.count == 1)
    }
}

@Suite("10 Where tick differs from cmark-gfm")
struct FormatRuleCmarkGFMTests {
    @Test("a task inside a block quote is a task")
    func blockQuote() {
        #expect(titles("> - [ ] a\n") == ["a"])
    }

    @Test("a byte order mark before - [ ] a on line 1 still makes a task")
    func byteOrderMark() {
        #expect(titles("\u{FEFF}- [ ] a\n") == ["a"])
    }

    @Test("the box is the one at the start of the paragraph: - [ ] a [x] is open")
    func laterBox() throws {
        let task = try onlyTask("- [ ] a [x]\n")
        #expect(!task.done)
        #expect(task.title == "a [x]")
    }

    @Test("- then [ ] a on the next line is a task")
    func boxOnNextLine() {
        #expect(titles("-\n  [ ] a\n") == ["a"])
    }

    @Test("- [ ] a then an indented --- or === is a heading, not a task")
    func setextUnderline() {
        #expect(parsed("- [ ] a\n  ---\n").tasks.isEmpty)
        #expect(parsed("- [ ] a\n  ===\n").tasks.isEmpty)
    }

    @Test("a vertical tab or form feed after the box is no space: not a task")
    func verticalTabOrFormFeed() {
        #expect(parsed("- [ ]\u{0B}a\n").tasks.isEmpty)
        #expect(parsed("- [ ]\u{0C}a\n").tasks.isEmpty)
    }
}
