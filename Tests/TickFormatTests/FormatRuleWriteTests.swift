import Testing
import TickFormat

// FORMAT.md section 8: what tick writes. Each test asserts the exact bytes written, and that the
// bytes outside the edit are the old ones.

@Suite("8.1 New tasks")
struct FormatRuleNewTaskTests {
    @Test("the canonical form: title, then priority, #flag and due date")
    func canonicalForm() throws {
        let document = parsed("- [ ] Milk\n")
        let new = NewTask(title: "Bread", due: try due("2026-12-02T08:15"), priority: .high, flagged: true)
        let result = try document.inserting(new, at: .end)
        expectEdit(result, of: document, gives: "- [ ] Milk\n- [ ] Bread !!! #flag due:2026-12-02T08:15\n")
        #expect(result.task == 1)
        let task = result.document.tasks[1]
        #expect(task.title == "Bread")
        #expect(task.priority == .high)
        #expect(task.flagged)
        #expect(task.due == DueDate(day: try day("2026-12-02"), minutes: 8 * 60 + 15))
    }

    /// A title checked once (`Document.checkedTitle`, as import does) keeps its scan for the write,
    /// which takes it only while the title holds the scanned bytes.
    @Test("a new task's kept title scan serves its own title only")
    func keptScan() throws {
        let document = parsed("- [ ] Milk\n")
        guard case .success(let checked) = Document.checkedTitle("Plan #trip") else {
            Issue.record("the title was refused")
            return
        }
        var same = NewTask(title: "Plan #trip")
        same.keepScan(checked)
        #expect(same == NewTask(title: "Plan #trip"))
        let kept = try document.inserting(same, at: .end)
        expectEdit(kept, of: document, gives: "- [ ] Milk\n- [ ] Plan #trip\n")
        #expect(kept.document.tasks[1].tags == ["trip"])
        // Another title with that scan kept: scanned again, for its own tags and its own refusal.
        var other = NewTask(title: "Plan #home")
        other.keepScan(checked)
        let scanned = try document.inserting(other, at: .end)
        #expect(scanned.document.tasks[1].tags == ["home"])
        var token = NewTask(title: "Plan due:2026-03-14")
        token.keepScan(checked)
        #expect(throws: EditError.self) { try document.inserting(token, at: .end) }
        if case .success = Document.checkedTitle("Plan due:2026-03-14") { Issue.record("a token was taken as title text") }
    }

    @Test("a new done task has x in the box and its done: date last")
    func doneForm() throws {
        let document = parsed("- [ ] Milk\n")
        let new = NewTask(title: "Bread", done: true, doneDate: try day("2026-11-30"), priority: .low)
        let result = try document.inserting(new, at: .end)
        expectEdit(result, of: document, gives: "- [ ] Milk\n- [x] Bread ! done:2026-11-30\n")
    }

    @Test("the example: a new task goes after the last top-level task")
    func example() throws {
        let document = parsed("# Inbox\n\n- [ ] Milk\n")
        let result = try document.inserting(NewTask(title: "Bread", due: try due("2026-12-02"), priority: .medium), at: .end)
        expectEdit(result, of: document, gives: "# Inbox\n\n- [ ] Milk\n- [ ] Bread !! due:2026-12-02\n")
    }

    @Test("a new task goes after the last top-level task's notes and subtasks, before text that follows")
    func afterNotesAndSubtasks() throws {
        let document = parsed("- [ ] Milk\n  note\n  - [ ] sub\n\nSome text.\n")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "- [ ] Milk\n  note\n  - [ ] sub\n- [ ] Bread\n\nSome text.\n")
        #expect(result.document.tasks.map(\.parent) == [nil, 0, nil])
    }

    @Test("a list without tasks gets the new task at the end, after a blank line")
    func noTasks() throws {
        let document = parsed("# Inbox\nSome text.\n")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "# Inbox\nSome text.\n\n- [ ] Bread\n")
    }

    @Test("an empty list gets the new task as its only line")
    func emptyList() throws {
        let document = parsed("")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: "- [ ] Bread\n")
    }

    @Test("the neighbour's block-quote prefix, indentation and bullet are copied")
    func copiesPrefixAndBullet() throws {
        let document = parsed(">   * [ ] Milk\n")
        let result = try document.inserting(NewTask(title: "Bread"), at: .end)
        expectEdit(result, of: document, gives: ">   * [ ] Milk\n>   * [ ] Bread\n")
    }

    @Test("the neighbour's number plus one, with the same delimiter")
    func incrementsNumber() throws {
        let dot = parsed("9. [ ] Milk\n")
        expectEdit(try dot.inserting(NewTask(title: "Bread"), at: .end), of: dot, gives: "9. [ ] Milk\n10. [ ] Bread\n")
        let paren = parsed("1) [ ] Milk\n")
        expectEdit(try paren.inserting(NewTask(title: "Bread"), at: .end), of: paren, gives: "1) [ ] Milk\n2) [ ] Bread\n")
    }

    @Test("notes go on the lines below, indented to the column of the box")
    func notes() throws {
        let document = parsed("1. [ ] Milk\n")
        let result = try document.inserting(NewTask(title: "Bread", notes: "wholemeal\n\nfrom the baker"), at: .end)
        expectEdit(result, of: document, gives: "1. [ ] Milk\n2. [ ] Bread\n   wholemeal\n\n   from the baker\n")
        #expect(result.document.notes == ["", "wholemeal\n\nfrom the baker"])
    }

    @Test("notes of a new task follow a neighbour with wider spacing after its marker")
    func notesUnderWideSpacing() throws {
        let document = parsed("-   [ ] Milk\n")
        let result = try document.inserting(NewTask(title: "Bread", notes: "one\n\ntwo"), at: .end)
        expectEdit(result, of: document, gives: "-   [ ] Milk\n-   [ ] Bread\n    one\n\n    two\n")
        #expect(result.document.notes == ["", "one\n\ntwo"])
    }

    @Test("a new task in a section goes after the last top-level task under that heading")
    func inSection() throws {
        let document = parsed("# Home\n## Kitchen\n- [ ] Fix the tap\n\n## Garden\n- [ ] Mow the lawn\n")
        let result = try document.inserting(NewTask(title: "Descale the kettle"), at: .section("kitchen"))
        expectEdit(result, of: document,
                   gives: "# Home\n## Kitchen\n- [ ] Fix the tap\n- [ ] Descale the kettle\n\n## Garden\n- [ ] Mow the lawn\n")
        #expect(result.task == 1)
        #expect(result.document.tasks.map(\.section) == ["Kitchen", "Kitchen", "Garden"])
    }

    @Test("tasks under a deeper heading are not under the section's own heading")
    func sectionWithSubsection() throws {
        let document = parsed("## Kitchen\n- [ ] Fix the tap\n### Cupboards\n- [ ] Paint them\n")
        let result = try document.inserting(NewTask(title: "Descale the kettle"), at: .section("Kitchen"))
        expectEdit(result, of: document,
                   gives: "## Kitchen\n- [ ] Fix the tap\n- [ ] Descale the kettle\n### Cupboards\n- [ ] Paint them\n")
        #expect(result.document.tasks.map(\.section) == ["Kitchen", "Kitchen", "Cupboards"])
    }

    @Test("a section without tasks gets the new task after its last line of text, after a blank line")
    func emptySection() throws {
        let document = parsed("## Kitchen\nAll clean.\n\n## Garden\n- [ ] Mow the lawn\n")
        let result = try document.inserting(NewTask(title: "Descale the kettle"), at: .section("Kitchen"))
        expectEdit(result, of: document,
                   gives: "## Kitchen\nAll clean.\n\n- [ ] Descale the kettle\n\n## Garden\n- [ ] Mow the lawn\n")
        #expect(result.document.tasks.map(\.section) == ["Kitchen", "Garden"])
    }

    @Test("a section with only its heading gets the new task right below, after a blank line")
    func headingOnlySection() throws {
        let document = parsed("## Kitchen\n## Garden\n")
        let result = try document.inserting(NewTask(title: "Descale the kettle"), at: .section("Kitchen"))
        expectEdit(result, of: document, gives: "## Kitchen\n\n- [ ] Descale the kettle\n## Garden\n")
    }

    @Test("a section that does not exist is refused")
    func noSuchSection() {
        let document = parsed("## Kitchen\n")
        expectRefused(.noSuchSection) { () throws(EditError) in try document.inserting(NewTask(title: "a"), at: .section("Garden")) }
    }

    @Test("a new subtask goes after the parent's last subtask, copying its form")
    func subtaskAfterSiblings() throws {
        let document = parsed("- [ ] Plan the party\n  * [ ] Invite people\n    - [x] Sam\n  * [ ] Order the cake\n- [ ] Other\n")
        let result = try document.inserting(NewTask(title: "Buy candles"), at: .subtask(of: 0))
        expectEdit(result, of: document,
                   gives: "- [ ] Plan the party\n  * [ ] Invite people\n    - [x] Sam\n  * [ ] Order the cake\n  * [ ] Buy candles\n- [ ] Other\n",
                   within: 1...4)
        #expect(result.task == 4)
        #expect(result.document.tasks.map(\.parent) == [nil, 0, 1, 0, 0, nil])
    }

    @Test("a first subtask goes after the parent's notes, at the box column, with marker - ")
    func firstSubtask() throws {
        let document = parsed("> 1. [ ] Plan the party\n>    at home\n> 2. [ ] Other\n")
        let result = try document.inserting(NewTask(title: "Invite people"), at: .subtask(of: 0))
        expectEdit(result, of: document,
                   gives: "> 1. [ ] Plan the party\n>    at home\n>    - [ ] Invite people\n> 2. [ ] Other\n",
                   within: 1...2)
        #expect(result.document.tasks.map(\.parent) == [nil, 0, nil])
        #expect(result.document.notes[0] == "at home")
    }

    @Test("a title with a line break is refused")
    func titleWithLineBreak() {
        let document = parsed("- [ ] a\n")
        expectRefused(.badValue) { () throws(EditError) in try document.inserting(NewTask(title: "a\nb"), at: .end) }
    }

    @Test("a title holding metadata tokens is refused")
    func titleWithTokens() {
        let document = parsed("- [ ] a\n")
        expectRefused(.badValue) { () throws(EditError) in
            try document.inserting(NewTask(title: "Pay due:2026-12-01"), at: .end)
        }
    }
}

@Suite("8.2 Edits of an existing task")
struct FormatRuleEditTests {
    @Test("the example: a changed due date is rewritten in place")
    func changeDue() throws {
        let document = parsed("- [ ] Call mum !! due:2026-12-01\n- [ ] Other\n")
        let result = try document.settingDue(0, try due("2026-12-05"))
        expectEdit(result, of: document, gives: "- [ ] Call mum !! due:2026-12-05\n- [ ] Other\n", within: 1...1)
        #expect(result.replaced.count == "due:2026-12-01".utf8.count)
        #expect(result.document.tasks[0].due == DueDate(iso: "2026-12-05"))
    }

    @Test("a token in the middle of the line is rewritten where it is")
    func tokenInMiddle() throws {
        let document = parsed("- [ ] Call due:2026-12-01 mum !!\n")
        let result = try document.settingDue(0, try due("2026-12-05T18:00"))
        expectEdit(result, of: document, gives: "- [ ] Call due:2026-12-05T18:00 mum !!\n", within: 1...1)
    }

    @Test("a new token goes at the end of the title line")
    func newTokenAtEnd() throws {
        let document = parsed("- [ ] Call mum\n  note\n")
        let result = try document.settingPriority(0, .high)
        expectEdit(result, of: document, gives: "- [ ] Call mum !!!\n  note\n", within: 1...1)
    }

    @Test("a new token goes before trailing whitespace (a two-space hard break stays last)")
    func beforeTrailingWhitespace() throws {
        let document = parsed("- [ ] Call mum  \n  ask about Sunday\n")
        let result = try document.settingDue(0, try due("2026-12-05"))
        expectEdit(result, of: document, gives: "- [ ] Call mum due:2026-12-05  \n  ask about Sunday\n", within: 1...1)
    }

    @Test("the example: a trailing backslash stays last, with the whitespace before it")
    func hardBreakBackslash() throws {
        let document = parsed("- [ ] Call mum \\\n  ask about Sunday\n")
        let result = try document.settingFlag(0, true)
        expectEdit(result, of: document, gives: "- [ ] Call mum #flag \\\n  ask about Sunday\n", within: 1...1)
        #expect(result.document.tasks[0].flagged)
        #expect(result.document.notes == ["ask about Sunday"])
    }

    @Test("a backslash glued to the last word is part of it: a new token goes after it")
    func gluedBackslash() throws {
        let document = parsed("- [ ] Call mum\\\n  ask about Sunday\n")
        let result = try document.settingFlag(0, true)
        expectEdit(result, of: document, gives: "- [ ] Call mum\\ #flag\n  ask about Sunday\n", within: 1...1)
        #expect(result.document.tasks[0].flagged)
        #expect(result.document.tasks[0].title == "Call mum\\")
    }

    @Test("a removed token before a backslash hard break leaves the backslash last")
    func removeBeforeHardBreak() throws {
        let document = parsed("- [ ] Call mum #flag \\\n  ask about Sunday\n")
        #expect(document.tasks[0].flagged)
        let result = try document.settingFlag(0, false)
        expectEdit(result, of: document, gives: "- [ ] Call mum \\\n  ask about Sunday\n", within: 1...1)
    }

    @Test("the example: a removed token takes the separator before it")
    func removeTakesSeparatorBefore() throws {
        let document = parsed("- [ ] Call !! mum\n")
        let result = try document.settingPriority(0, .none)
        expectEdit(result, of: document, gives: "- [ ] Call mum\n", within: 1...1)
    }

    @Test("the example: a token right after the box takes the separator after it; the box's space stays")
    func removeAtStart() throws {
        let document = parsed("- [ ] !! Call mum\n")
        let result = try document.settingPriority(0, .none)
        expectEdit(result, of: document, gives: "- [ ] Call mum\n", within: 1...1)
    }

    @Test("the only token removed leaves the box and its space")
    func removeOnlyToken() throws {
        let document = parsed("- [ ] #flag\n")
        let result = try document.settingFlag(0, false)
        expectEdit(result, of: document, gives: "- [ ] \n", within: 1...1)
        #expect(result.document.tasks.map(\.title) == [""])
    }

    @Test("a removed token takes one of several separators, so the title stays as it was")
    func removeAfterSeveralSeparators() throws {
        let document = parsed("- [ ] Call  !! mum\n")
        #expect(document.tasks[0].title == "Call  mum")
        let result = try document.settingPriority(0, .none)
        expectEdit(result, of: document, gives: "- [ ] Call  mum\n", within: 1...1)
        #expect(result.document.tasks[0].title == "Call  mum")
    }

    @Test("the example: clearing a kind of token removes its repeats too")
    func clearRemovesRepeats() throws {
        let document = parsed("- [ ] Call ! ! mum\n")
        #expect(document.tasks[0].title == "Call ! mum")
        let result = try document.settingPriority(0, .none)
        expectEdit(result, of: document, gives: "- [ ] Call mum\n", within: 1...1)
        #expect(result.document.tasks[0].priority == .none)
        #expect(result.document.tasks[0].title == "Call mum")
    }

    @Test("reopening and clearing the due date or flag remove repeats too")
    func clearOtherRepeats() throws {
        let document = parsed("- [x] a done:2026-11-28 done:2026-11-29 due:2026-12-01 due:2026-12-02 #flag #flag\n")
        let reopened = try document.settingDone(0, false, on: try day("2026-12-01"))
        expectEdit(reopened, of: document, gives: "- [ ] a due:2026-12-01 due:2026-12-02 #flag #flag\n", within: 1...1)
        let undue = try reopened.document.settingDue(0, nil)
        expectEdit(undue, of: reopened.document, gives: "- [ ] a #flag #flag\n", within: 1...1)
        let unflagged = try undue.document.settingFlag(0, false)
        expectEdit(unflagged, of: undue.document, gives: "- [ ] a\n", within: 1...1)
    }

    @Test("a removed token takes a no-break space before it as its separator")
    func removeAfterNoBreakSpace() throws {
        let document = parsed("- [ ] Call mum\u{00A0}due:2026-12-01\n")
        let result = try document.settingDue(0, nil)
        expectEdit(result, of: document, gives: "- [ ] Call mum\n", within: 1...1)
    }

    @Test("completing writes x in the box and appends done:today")
    func complete() throws {
        let document = parsed("- [ ] Buy stamps !\n- [ ] Other\n")
        let result = try document.settingDone(0, true, on: try day("2026-11-28"))
        expectEdit(result, of: document, gives: "- [x] Buy stamps ! done:2026-11-28\n- [ ] Other\n", within: 1...1)
        #expect(result.document.tasks[0].done)
        #expect(result.document.tasks[0].doneDate == (try day("2026-11-28")))
    }

    @Test("reopening writes a space in the box and removes done:")
    func reopen() throws {
        let document = parsed("* [x] Buy stamps done:2026-11-28 !\n")
        let result = try document.settingDone(0, false, on: try day("2026-12-01"))
        expectEdit(result, of: document, gives: "* [ ] Buy stamps !\n", within: 1...1)
        #expect(result.document.tasks[0].doneDate == nil)
    }

    @Test("an X stays X when a done task is completed again")
    func upperXStays() throws {
        let document = parsed("1. [X] Renew passport done:2026-11-01\n")
        let result = try document.settingDone(0, true, on: try day("2026-11-28"))
        expectEdit(result, of: document, gives: "1. [X] Renew passport done:2026-11-28\n", within: 1...1)
    }

    @Test("completing a parent leaves its subtasks as they are")
    func completeParent() throws {
        let document = parsed("- [ ] Plan the party\n  - [ ] Invite people\n")
        let result = try document.settingDone(0, true, on: try day("2026-11-28"))
        expectEdit(result, of: document, gives: "- [x] Plan the party done:2026-11-28\n  - [ ] Invite people\n", within: 1...1)
        #expect(result.document.tasks.map(\.done) == [true, false])
    }

    @Test("a new title replaces the title text; the tokens stay after it, in their order")
    func retitle() throws {
        let document = parsed("- [ ] !! Call #home mum due:2026-12-01 #flag\n  note\n")
        let result = try document.retitling(0, "Phone #family mum")
        expectEdit(result, of: document, gives: "- [ ] Phone #family mum !! due:2026-12-01 #flag\n  note\n", within: 1...1)
        let task = result.document.tasks[0]
        #expect(task.title == "Phone #family mum")
        #expect(task.tags == ["family"])
        #expect(task.priority == .medium)
        #expect(task.flagged)
    }

    @Test("a new title keeps a trailing hard line break last")
    func retitleKeepsHardBreak() throws {
        let spaces = parsed("- [ ] Call mum !!  \n  ask about Sunday\n")
        expectEdit(try spaces.retitling(0, "Phone mum"), of: spaces,
                   gives: "- [ ] Phone mum !!  \n  ask about Sunday\n", within: 1...1)
        let backslash = parsed("- [ ] Call mum !! \\\n  ask about Sunday\n")
        let result = try backslash.retitling(0, "Phone mum")
        expectEdit(result, of: backslash, gives: "- [ ] Phone mum !! \\\n  ask about Sunday\n", within: 1...1)
        // The backslash is a word of the title line, so it is read as part of the title.
        #expect(result.document.tasks[0].title == "Phone mum \\")
    }

    @Test("a new title with a line break or metadata tokens is refused")
    func retitleRefused() {
        let document = parsed("- [ ] Call mum\n")
        expectRefused(.badValue) { () throws(EditError) in try document.retitling(0, "Call\nmum") }
        expectRefused(.badValue) { () throws(EditError) in try document.retitling(0, "Call mum !!") }
    }

    @Test("new notes replace every note line and go right below the title line")
    func replaceNotes() throws {
        let document = parsed("- [ ] Call the plumber\n  Ask about the boiler.\n  - [ ] Find the number\n\n  Number is in the fridge.\n- [ ] Other\n")
        let result = try document.replacingNotes(0, "Boiler is fixed.\nPay the bill.")
        expectEdit(result, of: document,
                   gives: "- [ ] Call the plumber\n  Boiler is fixed.\n  Pay the bill.\n  - [ ] Find the number\n- [ ] Other\n",
                   within: 1...5)
        #expect(result.document.notes == ["Boiler is fixed.\nPay the bill.", "", ""])
    }

    @Test("an added note goes after the last non-blank note line")
    func appendNote() throws {
        let document = parsed("> - [ ] Call the plumber\n>   Ask about the boiler.\n>\n> - [ ] Other\n")
        let result = try document.appendingNote(0, "Number is in the fridge.")
        expectEdit(result, of: document,
                   gives: "> - [ ] Call the plumber\n>   Ask about the boiler.\n>   Number is in the fridge.\n>\n> - [ ] Other\n",
                   within: 1...3)
        #expect(result.document.notes[0] == "Ask about the boiler.\nNumber is in the fridge.")
    }

    @Test("an edit of a task that does not exist is refused")
    func noSuchTask() throws {
        let document = parsed("- [ ] a\n")
        expectRefused(.noSuchTask) { () throws(EditError) in try document.settingFlag(1, true) }
        expectRefused(.noSuchTask) { () throws(EditError) in try document.removing(-1) }
    }
}

@Suite("8.3 Removing and moving")
struct FormatRuleRemoveMoveTests {
    @Test("removing a task removes its notes, subtasks and the blank lines it owns")
    func remove() throws {
        let document = parsed("# List\n- [ ] a\n  note\n  - [ ] sub\n\n- [ ] b\n")
        let result = try document.removing(0)
        expectEdit(result, of: document, gives: "# List\n- [ ] b\n", within: 2...5)
        #expect(result.task == nil)
        #expect(result.document.tasks.map(\.title) == ["b"])
    }

    @Test("removing a task keeps blank lines it does not own")
    func removeKeepsOtherBlankLines() throws {
        let document = parsed("Text\n\n- [ ] a\n\nMore text\n")
        let result = try document.removing(0)
        expectEdit(result, of: document, gives: "Text\n\n\nMore text\n", within: 3...3)
    }

    @Test("moving a task re-indents it under the destination's prefix, with the destination's marker")
    func move() throws {
        let source = parsed("1. [ ] Move me !\n   note\n   - [ ] sub\n2. [ ] Stay\n")
        let destination = parsed("# Other\n\n> * [ ] x\n")
        let fragment = try source.extracting(0)
        let inserted = try destination.inserting(fragment, at: .end)
        expectEdit(inserted, of: destination, gives: "# Other\n\n> * [ ] x\n> * [ ] Move me !\n>   note\n>   - [ ] sub\n")
        #expect(inserted.document.tasks.map(\.title) == ["x", "Move me", "sub"])
        #expect(inserted.document.tasks.map(\.parent) == [nil, nil, 1])
        #expect(inserted.document.notes == ["", "note", ""])
        let removed = try source.removing(0)
        expectEdit(removed, of: source, gives: "2. [ ] Stay\n", within: 1...3)
    }

    @Test("a task moved into a list without tasks keeps its own marker")
    func moveIntoEmptyList() throws {
        let source = parsed("- [ ] a\n  * [ ] Move me\n    note\n")
        let destination = parsed("# Empty\n")
        let inserted = try destination.inserting(try source.extracting(1), at: .end)
        expectEdit(inserted, of: destination, gives: "# Empty\n\n* [ ] Move me\n  note\n")
        #expect(inserted.document.notes == ["note"])
    }
}

@Suite("8.4 Structure is kept")
struct FormatRuleStructureTests {
    @Test("the example: removing a task adds a blank line so the next one stays a task")
    func example() throws {
        let document = parsed("Text\n1. [ ] a\n2. [ ] b\n")
        let result = try document.removing(0)
        expectEdit(result, of: document, gives: "Text\n\n2. [ ] b\n", fixes: [.blankLine(at: 2)])
        #expect(result.document.tasks.map(\.title) == ["b"])
    }

    @Test("inside block quotes the blank line is a bare >")
    func blockQuoteBlankLine() throws {
        let document = parsed("> Text\n> 1. [ ] a\n> 2. [ ] b\n")
        let result = try document.removing(0)
        expectEdit(result, of: document, gives: "> Text\n>\n> 2. [ ] b\n", fixes: [.blankLine(at: 2)])
        #expect(result.document.tasks.map(\.title) == ["b"])
    }

    @Test("inserting before text that would continue the new task adds a blank line after it")
    func insertBeforeLazyText() throws {
        let document = parsed("- [ ] a\n\n      code\nText\n")
        let result = try document.inserting(NewTask(title: "b"), at: .end)
        expectEdit(result, of: document, gives: "- [ ] a\n\n      code\n- [ ] b\n\nText\n", fixes: [.blankLine(at: 5)])
        #expect(result.document.tasks.map(\.title) == ["a", "b"])
        #expect(result.document.notes == ["    code", ""])
    }

    @Test("the example: an unclosed code fence swallowing the new task is refused")
    func unclosedFence() {
        let document = parsed("```\ncode that never ends\n")
        do {
            let result = try document.inserting(NewTask(title: "a"), at: .end)
            Issue.record("expected a refusal, got \(String(decoding: result.document.serialize(), as: UTF8.self).debugDescription)")
        } catch {
            #expect(error.reason == .structure)
            #expect(error.line == 2)
            #expect(!error.message.isEmpty)
        }
        #expect(document.serialize() == Array("```\ncode that never ends\n".utf8))
    }

    @Test("a note that would start a list item is refused")
    func noteStartingItem() {
        let document = parsed("- [ ] a\n")
        expectRefused(.structure) { () throws(EditError) in try document.replacingNotes(0, "x\n\n- [ ] sneaky") }
    }
}
