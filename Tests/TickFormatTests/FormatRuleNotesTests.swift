import Testing
import TickFormat

// FORMAT.md sections 6 and 7: notes, subtasks, sections.

@Suite("6 Notes and subtasks")
struct FormatRuleNotesTests {
    @Test("the example: further paragraphs are notes, blank line kept between them")
    func example() {
        let document = parsed("- [ ] Call the plumber\n  Ask about the boiler.\n\n  Number is in the fridge.\n")
        #expect(document.tasks.map(\.title) == ["Call the plumber"])
        #expect(document.notes == ["Ask about the boiler.\n\nNumber is in the fridge."])
    }

    @Test("continuation lines of the first paragraph are notes, lazy ones too")
    func continuationLines() {
        let document = parsed("- [ ] Call the plumber\n  about the boiler\nlazy line\n")
        #expect(document.tasks.map(\.title) == ["Call the plumber"])
        #expect(document.notes == ["about the boiler\nlazy line"])
    }

    @Test("code blocks and non-task list items are notes")
    func codeAndItems() {
        let document = parsed("- [ ] a\n\n  ```\n  code\n  ```\n\n  - milk\n  - eggs\n")
        #expect(document.notes == ["```\ncode\n```\n\n- milk\n- eggs"])
    }

    @Test("indentation is removed only up to the column of the box")
    func indentation() {
        let document = parsed("1.  [ ] a\n\n        indented code\n    text\n")
        #expect(document.notes == ["    indented code\ntext"])
    }

    @Test("a tab that reaches past the box's column is removed whole")
    func tabIndentation() {
        let document = parsed("- [ ] a\n\tnote\n\n\t\tmore\n")
        #expect(document.notes == ["note\n\n\tmore"])
    }

    @Test("block-quote markers of the task are removed from note lines")
    func blockQuotes() {
        let document = parsed("> - [ ] a\n>   first\n>\n>   second\n")
        #expect(document.notes == ["first\n\nsecond"])
    }

    @Test("leading and trailing blank lines are not part of the notes")
    func blankLinesTrimmed() {
        let document = parsed("-\n  [ ] a\n  note\n\n\n- [ ] b\n\n")
        #expect(document.notes == ["note", ""])
    }

    @Test("the example: nested task items are subtasks")
    func subtasks() {
        let document = parsed("- [ ] Plan the party\n  - [ ] Invite people\n    - [x] Sam\n  - [ ] Order the cake\n")
        #expect(document.tasks.map(\.title) == ["Plan the party", "Invite people", "Sam", "Order the cake"])
        #expect(document.tasks.map(\.parent) == [nil, 0, 1, 0])
        #expect(document.tasks.map(\.depth) == [0, 1, 2, 1])
        #expect(document.notes == ["", "", "", ""])
        #expect(document.lineRange(of: 0) == 1...4)
        #expect(document.lineRange(of: 1) == 2...3)
    }

    @Test("subtask lines are not notes; the other lines around them are")
    func notesAroundSubtasks() {
        let document = parsed("- [ ] a\n  before\n  - [ ] b\n    b's note\n\n  after\n")
        #expect(document.notes == ["before\n\nafter", "b's note"])
    }

    @Test("a task under non-task items is a subtask of the nearest task above")
    func throughNonTaskItems() {
        let document = parsed("- [ ] a\n  - plain\n    1. also plain\n       - [ ] b\n")
        #expect(document.tasks.map(\.title) == ["a", "b"])
        #expect(document.tasks.map(\.parent) == [nil, 0])
        #expect(document.tasks.map(\.depth) == [0, 1])
        #expect(document.notes[0] == "- plain\n  1. also plain")
    }

    @Test("blank lines between two tasks belong to the task above")
    func blankLinesBetweenTasks() {
        let document = parsed("- [ ] a\n\n\n- [ ] b\n")
        #expect(document.lineRange(of: 0) == 1...3)
        #expect(document.lineRange(of: 1) == 4...4)
    }

    @Test("other trailing blank lines belong to no task")
    func otherTrailingBlankLines() {
        let document = parsed("- [ ] a\n\nText\n\n- [ ] b\n\n\n")
        #expect(document.lineRange(of: 0) == 1...1)
        #expect(document.lineRange(of: 1) == 5...5)
    }
}

@Suite("7 Sections")
struct FormatRuleSectionTests {
    @Test("the example: a level-2 heading is the section; a level-1 heading resets it")
    func example() {
        let document = parsed("# Home\n## Kitchen\n- [ ] Fix the tap\n# Garden\n- [ ] Mow the lawn\n")
        #expect(document.tasks.map(\.section) == ["Kitchen", nil])
    }

    @Test("the nearest heading of level 2 or deeper counts")
    func nearestHeading() {
        let document = parsed("## A\n### B\n- [ ] b\n## C\n- [ ] c\n#### D\n- [ ] d\n")
        #expect(document.tasks.map(\.section) == ["B", "C", "D"])
    }

    @Test("a setext level-2 heading starts a section, with inline markup removed")
    func setextSection() {
        let document = parsed("Kitchen *now*\n---\n- [ ] a\n")
        #expect(document.tasks.map(\.section) == ["Kitchen now"])
    }

    @Test("a task before any heading has no section")
    func beforeHeadings() {
        let document = parsed("- [ ] a\n\n## Later\n")
        #expect(document.tasks.map(\.section) == [nil])
    }

    @Test("headings inside list items do not start sections")
    func headingsInsideItems() {
        let document = parsed("## Kitchen\n- [ ] a\n  ## Inside\n- [ ] b\n")
        #expect(document.tasks.map(\.section) == ["Kitchen", "Kitchen"])
    }

    @Test("subtasks have their parent's section")
    func subtaskSection() {
        let document = parsed("## Kitchen\n- [ ] a\n  - [ ] b\n")
        #expect(document.tasks.map(\.section) == ["Kitchen", "Kitchen"])
    }
}
