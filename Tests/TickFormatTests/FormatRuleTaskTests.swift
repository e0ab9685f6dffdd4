import Testing
import TickFormat

// FORMAT.md section 4: which list items are tasks.

@Suite("4 Tasks")
struct FormatRuleTaskTests {
    @Test("the example: - [ ] is an open task")
    func openTask() throws {
        let task = try onlyTask("- [ ] Call the plumber\n")
        #expect(!task.done)
        #expect(task.title == "Call the plumber")
        #expect(task.line == 1)
    }

    @Test("the example: * [x] is a done task")
    func doneTask() throws {
        let task = try onlyTask("* [x] Buy stamps\n")
        #expect(task.done)
        #expect(task.title == "Buy stamps")
    }

    @Test("the example: 1. [X] is a done task")
    func orderedUpperX() throws {
        let task = try onlyTask("1. [X] Renew passport\n")
        #expect(task.done)
        #expect(task.title == "Renew passport")
    }

    @Test("every bullet and number form makes a task")
    func allMarkers() {
        #expect(titles("- [ ] a\n\n* [ ] b\n\n+ [ ] c\n\n1. [ ] d\n\n7) [ ] e\n") == ["a", "b", "c", "d", "e"])
    }

    @Test("the example: a task inside a block quote")
    func insideBlockQuote() throws {
        let task = try onlyTask("> - [ ] Quoted task\n")
        #expect(task.title == "Quoted task")
    }

    @Test("tasks nest at any depth and inside nested block quotes")
    func anyDepth() {
        let document = parsed("- [ ] a\n  - [ ] b\n    - [ ] c\n      - [ ] d\n\n> > 1. [ ] e\n")
        #expect(document.tasks.map(\.title) == ["a", "b", "c", "d", "e"])
        #expect(document.tasks.map(\.depth) == [0, 1, 2, 3, 0])
    }

    @Test("the example: a tab may follow the box")
    func tabAfterBox() throws {
        let task = try onlyTask("- [ ]\tTab after the box\n")
        #expect(task.title == "Tab after the box")
    }

    @Test("the example: a space after the box and nothing else is a task with an empty title")
    func emptyTitle() throws {
        let task = try onlyTask("- [ ] \n")
        #expect(task.title == "")
    }

    @Test("a box with nothing after it is not a task")
    func boxAlone() {
        #expect(parsed("- [ ]\n").tasks.isEmpty)
        #expect(parsed("- [x]").tasks.isEmpty)
    }

    @Test("the example: no space after the box is not a task")
    func noSpaceAfterBox() {
        #expect(parsed("- [ ]No space after the box\n").tasks.isEmpty)
    }

    @Test("the example: another mark inside the box is not a task")
    func otherMark() {
        #expect(parsed("- [-] Other mark inside the box\n").tasks.isEmpty)
        #expect(parsed("- [y] Other mark\n- [  ] two spaces\n- [] none\n").tasks.isEmpty)
    }

    @Test("the example: a box not at the start of the item is not a task")
    func boxNotAtStart() {
        #expect(parsed("- Text then [ ] a box\n").tasks.isEmpty)
    }

    @Test("the example: an item indented four spaces is an indented code block")
    func indentedFourSpaces() {
        #expect(parsed("    - [ ] Indented four spaces: an indented code block\n").tasks.isEmpty)
    }

    @Test("a box inside a fenced code block is not a task")
    func insideFencedCode() {
        #expect(parsed("```\n- [ ] code\n```\n~~~\n- [ ] code\n~~~\n").tasks.isEmpty)
    }

    @Test("a box inside an indented code block after a paragraph break is not a task")
    func insideIndentedCode() {
        #expect(parsed("Text\n\n    - [ ] code\n").tasks.isEmpty)
    }

    @Test("a box inside an HTML block is not a task")
    func insideHTMLBlock() {
        #expect(parsed("<div>\n- [ ] html\n</div>\n").tasks.isEmpty)
    }

    @Test("a box in the middle of a paragraph is not a task")
    func middleOfParagraph() {
        #expect(parsed("Some text\n[ ] not a task\n").tasks.isEmpty)
        #expect(parsed("- Some text\n  [ ] not a task\n").tasks.isEmpty)
    }

    @Test("the example: an item whose paragraph starts on the next line with a box is a task")
    func paragraphOnNextLine() throws {
        let document = parsed("-\n  [ ] Still a task (the item's first block is this paragraph)\n")
        try #require(document.tasks.count == 1)
        #expect(document.tasks[0].title == "Still a task (the item's first block is this paragraph)")
        #expect(document.tasks[0].line == 2)
        #expect(document.lineRange(of: 0) == 1...2)
    }

    @Test("the example: a box followed by a setext underline is a heading, not a task")
    func setextHeading() {
        #expect(parsed("- [ ] Not a task\n  ---\n").tasks.isEmpty)
    }

    @Test("an item whose first block is not a paragraph is not a task")
    func firstBlockNotParagraph() {
        #expect(parsed("- ```\n  [ ] code\n  ```\n").tasks.isEmpty)
        #expect(parsed("- > [ ] quoted paragraph\n").tasks.isEmpty)
    }
}
