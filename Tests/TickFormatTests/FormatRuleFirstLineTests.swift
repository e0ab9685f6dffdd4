import Testing
import TickFormat

// FORMAT.md section 1: a byte order mark survives every edit, also an edit of the task on the
// first line, and section 8.1: a new task without a section goes to the list's unsectioned part.

private let bom = "\u{FEFF}"

@Suite("1. Bytes: structure edits keep the byte order mark")
struct FormatRuleByteOrderMarkEditTests {
    @Test("the example: tick rm Milk keeps the byte order mark first")
    func example() throws {
        let document = parsed(bom + "- [ ] Milk\n- [ ] Bread\n")
        expectEdit(try document.removing(0), of: document, gives: bom + "- [ ] Bread\n")
    }

    @Test("removing the first task keeps the byte order mark")
    func removeFirst() throws {
        let document = parsed(bom + "- [ ] a\n- [ ] b\n")
        expectEdit(try document.removing(0), of: document, gives: bom + "- [ ] b\n")
    }

    @Test("removing the only task keeps the byte order mark")
    func removeOnly() throws {
        let document = parsed(bom + "- [ ] a\n")
        expectEdit(try document.removing(0), of: document, gives: bom)
    }

    @Test("moving the first task out keeps the byte order mark in the source and adds none to the destination")
    func moveFirst() throws {
        let source = parsed(bom + "- [ ] a\n  note\n- [ ] b\n")
        let fragment = try source.extracting(0)
        expectEdit(try source.removing(0), of: source, gives: bom + "- [ ] b\n")
        let destination = parsed("- [ ] c\n")
        expectEdit(try destination.inserting(fragment, at: .end), of: destination, gives: "- [ ] c\n- [ ] a\n  note\n")
    }

    @Test("a task added after a first-line task copies its indentation, not the byte order mark")
    func addAfterFirst() throws {
        let document = parsed(bom + "- [ ] a\n")
        expectEdit(try document.inserting(NewTask(title: "b"), at: .end), of: document, gives: bom + "- [ ] a\n- [ ] b\n")
    }

    @Test("a subtask and notes of a first-line task are indented to its box, not past the byte order mark")
    func subtaskAndNotesOfFirst() throws {
        let document = parsed(bom + "- [ ] a\n")
        expectEdit(try document.inserting(NewTask(title: "b"), at: .subtask(of: 0)), of: document,
                   gives: bom + "- [ ] a\n  - [ ] b\n")
        expectEdit(try document.appendingNote(0, "n"), of: document, gives: bom + "- [ ] a\n  n\n")
        expectEdit(try document.replacingNotes(0, "n"), of: document, gives: bom + "- [ ] a\n  n\n")
    }

    @Test("a task inserted at the very start goes after the byte order mark")
    func insertAtStart() throws {
        let document = parsed(bom + "## Later\n- [ ] a\n")
        expectEdit(try document.inserting(NewTask(title: "b"), at: .unsectioned), of: document,
                   gives: bom + "- [ ] b\n\n## Later\n- [ ] a\n")
    }

    @Test("a file holding only a byte order mark gets the task after it, with no blank line")
    func onlyByteOrderMark() throws {
        let document = parsed(bom)
        expectEdit(try document.inserting(NewTask(title: "b"), at: .end), of: document, gives: bom + "\n- [ ] b")
    }

    @Test("token edits and a retitle of the first-line task keep the byte order mark", arguments: [
        "- [ ] a\n", "- [ ] a", "- [ ] a\r\n- [ ] b\r", "> - [ ] a\n",
    ])
    func tokenEdits(_ text: String) throws {
        let document = parsed(bom + text)
        for result in [try document.settingDone(0, true, on: try day("2026-11-30")), try document.settingFlag(0, true),
                       try document.retitling(0, "z"), try document.settingPriority(0, .high),
                       try document.removing(0)] {
            #expect(result.document.serialize().starts(with: [0xEF, 0xBB, 0xBF]), "\(text.debugDescription)")
        }
    }
}

@Suite("8.1 New tasks: the unsectioned part")
struct FormatRuleUnsectionedTests {
    @Test("the examples: after the last task outside sections; before the first section when there is none")
    func examples() throws {
        let home = parsed("# Home\n- [ ] Milk\n\n## Garden\n- [ ] Mow\n")
        expectEdit(try home.inserting(NewTask(title: "Bread"), at: .unsectioned), of: home,
                   gives: "# Home\n- [ ] Milk\n- [ ] Bread\n\n## Garden\n- [ ] Mow\n")
        let garden = parsed("# Home\n\n## Garden\n- [ ] Mow\n")
        expectEdit(try garden.inserting(NewTask(title: "Bread"), at: .unsectioned), of: garden,
                   gives: "# Home\n\n- [ ] Bread\n\n## Garden\n- [ ] Mow\n")
    }

    @Test("after the last task outside sections, not in the last section")
    func afterLastUnsectioned() throws {
        let document = parsed("# Work\n- [ ] a\n\n## Later\n- [ ] b\n")
        let result = try document.inserting(NewTask(title: "c"), at: .unsectioned)
        expectEdit(result, of: document, gives: "# Work\n- [ ] a\n- [ ] c\n\n## Later\n- [ ] b\n")
        #expect(result.document.tasks[1].section == nil)
    }

    @Test("before the first section heading when no task is outside a section")
    func beforeFirstSection() throws {
        let document = parsed("# Work\nIntro.\n\n## Later\n- [ ] b\n")
        let result = try document.inserting(NewTask(title: "c"), at: .unsectioned)
        expectEdit(result, of: document, gives: "# Work\nIntro.\n\n- [ ] c\n\n## Later\n- [ ] b\n")
        #expect(result.document.tasks.map(\.section) == [nil, "Later"])
    }

    @Test("right after the name heading when the first section follows it")
    func afterNameHeading() throws {
        let document = parsed("# Work\n## Later\n- [ ] b\n")
        expectEdit(try document.inserting(NewTask(title: "c"), at: .unsectioned), of: document,
                   gives: "# Work\n\n- [ ] c\n\n## Later\n- [ ] b\n")
    }

    @Test("a task after a level-1 heading that ends the sections counts as unsectioned")
    func afterResetHeading() throws {
        let document = parsed("# Home\n## Kitchen\n- [ ] tap\n# Garden\n- [ ] lawn\n")
        expectEdit(try document.inserting(NewTask(title: "c"), at: .unsectioned), of: document,
                   gives: "# Home\n## Kitchen\n- [ ] tap\n# Garden\n- [ ] lawn\n- [ ] c\n")
    }

    @Test("without sections it is the end of the list")
    func noSections() throws {
        let document = parsed("# Inbox\n\n- [ ] a\n\nText.\n")
        expectEdit(try document.inserting(NewTask(title: "c"), at: .unsectioned), of: document,
                   gives: "# Inbox\n\n- [ ] a\n- [ ] c\n\nText.\n")
        let empty = parsed("# Inbox\n")
        expectEdit(try empty.inserting(NewTask(title: "c"), at: .unsectioned), of: empty, gives: "# Inbox\n\n- [ ] c\n")
    }
}
