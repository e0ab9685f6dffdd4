import Testing
@testable import TickFormat

// FORMAT.md section 11, "The global filter": with a filter, a checkbox line is a task only when its
// title line holds the filter's text; every other checkbox line reads as a plain list item.

@Suite("FORMAT.md 11: the global filter")
struct FormatRuleGlobalFilterTests {
    static let task = GlobalFilter("#task")!

    /// Parses `text` with the filter `#task` and checks that writing it back gives exactly its bytes.
    func filtered(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Document {
        let document = Document(bytes: Array(text.utf8), globalFilter: Self.task)
        #expect(document.serialize() == Array(text.utf8), "round trip", sourceLocation: sourceLocation)
        return document
    }

    static let example = """
        - [ ] Plan the trip #task
          - [ ] Book the train
            - [ ] Pay the deposit #task
        - [ ] Buy milk
          - [ ] Oat milk #task
        - [ ] Sort #tasks
        - [ ] Fix the #Task list

        """

    @Test("the section's example: each line judged on its own; a line without the filter is a plain list item")
    func example() {
        let document = filtered(Self.example)
        #expect(document.tasks.map(\.title) == ["Plan the trip #task", "Pay the deposit #task", "Oat milk #task", "Sort #tasks"])
        #expect(document.tasks.map(\.line) == [1, 3, 5, 6])
        // "Pay the deposit" is a subtask of "Plan the trip", through the item that is not a task.
        #expect(document.tasks.map(\.parent) == [nil, 0, nil, nil])
        #expect(document.tasks.map(\.depth) == [0, 1, 0, 0])
        // "Book the train" is part of the notes of "Plan the trip"; "Buy milk" belongs to no task.
        #expect(document.notes == ["- [ ] Book the train", "", "", ""])
        // Without the filter every box is a task.
        #expect(Document(Self.example).tasks.count == 7)
    }

    @Test("the filter is found anywhere on the title line, byte for byte: in a tag that goes on, in code, among fields",
          arguments: [("- [ ] #task Pay rent", true), ("- [ ] Pay rent #task", true), ("- [ ] Pay #task/home rent", true),
                      ("- [ ] Pay rent `#task`", true), ("- [x] Pay ⏫ #task 📅 2026-12-01 ✅ 2026-11-30", true),
                      ("- [ ] Pay  [due:: 2026-12-01]#task", true), ("> - [ ] Quoted #task", true),
                      ("- [ ] Pay rent", false), ("- [ ] Pay #TASK", false), ("- [ ] Pay # task", false),
                      ("- [ ] Pay rent\n  #task on the next line", false), ("- [-] Cancelled #task", false)])
    func whereTheFilterCounts(line: String, isTask: Bool) {
        #expect(filtered(line + "\n").tasks.count == (isTask ? 1 : 0))
    }

    @Test("the filter stays in the title and is a tag; emoji and Dataview fields read as without it")
    func titleAndTags() throws {
        let document = filtered("- [ ] #task Pay rent ⏫ 🔁 every month 📅 2026-12-01\n- [ ] Book #task  [scheduled:: 2026-12-01]\n")
        try #require(document.tasks.count == 2)
        #expect(document.tasks[0].title == "#task Pay rent")
        #expect(document.tasks[0].tags == ["task"])
        #expect(document.tasks[0].due == DueDate(iso: "2026-12-01"))
        #expect(document.tasks[0].priority == .high)
        #expect(document.tasks[0].recurrence == RecurrenceRule(count: 1, unit: .month, mode: .due))
        #expect(document.tasks[0].style == .emoji)
        #expect(document.tasks[1].title == "Book #task")
        #expect(document.tasks[1].scheduled == Day(iso: "2026-12-01"))
        #expect(document.tasks[1].style == .dataview)
    }

    @Test("a line without the filter is not checked: its malformed words are no task's problems")
    func noDiagnosticsForPlainItems() {
        let text = "- [ ] Party due:2026-02-30 📅 2026-02-30\n  due:2026-12-01\n- [ ] Real #task\n"
        #expect(filtered(text).checkDiagnostics().isEmpty)
        #expect(!Document(text).checkDiagnostics().isEmpty)
    }

    @Test("round trips are byte-exact with the filter on: CRLF, a byte order mark, quotes, nesting, styles")
    func roundTrips() {
        let texts = ["\u{FEFF}- [ ] #task a\r\n- [ ] b\r\n  - [x] c #task ✅ 2026-11-30\r\n",
                     "> - [ ] quoted\n>   - [ ] #task nested\n",
                     "---\nsymbol: x\n---\n# L\n- [ ] x  [due:: 2026-12-01]\n- [ ] y #task  [due:: 2026-12-01]",
                     "1. [ ] #task\n2) [X] #task\n* [ ] #taskforce\n"]
        for text in texts { _ = filtered(text) }
    }

    @Test("done and due on a task written with the filter change only its own line, whatever the lines around",
          arguments: ["- [ ] Pay rent ⏫ 📅 2026-12-01 #task", "- [ ] Pay rent  [due:: 2026-12-01] #task",
                      "- [ ] Pay rent due:2026-12-01 #task"])
    func editsTouchOnlyTheirLine(line: String) throws {
        let text = "# Bills\n- [ ] Gas 📅 2026-12-01\n" + line + "\n  - [ ] Note-like box 📅 2026-12-02\n- [ ] Water #task\n"
        let document = filtered(text)
        try #require(document.tasks.count == 2)
        #expect(document.notes[0] == "- [ ] Note-like box 📅 2026-12-02")
        let day = try #require(Day(iso: "2026-11-30"))
        for result in [try document.settingDone(0, true, on: day), try document.settingDue(0, DueDate(iso: "2026-12-04")),
                       try document.settingPriority(0, .low), try document.settingFlag(0, true)] {
            let old = text.split(separator: "\n", omittingEmptySubsequences: false)
            let new = String(decoding: result.document.serialize(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            try #require(old.count == new.count)
            #expect(zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset) == [2], "\(new)")
            #expect(result.document.tasks.count == 2)
            #expect(result.document.globalFilter == Self.task)
        }
        let done = try document.settingDone(0, true, on: day)
        #expect(done.document.tasks[0].done)
        #expect(done.document.tasks[0].title == "Pay rent #task")
    }

    @Test("a new task without the filter gets it first; one that holds it is written as given")
    func newTasksCarryTheFilter() throws {
        let document = filtered("# Inbox\n- [ ] Milk #task 📅 2026-12-01\n- [ ] plain\n")
        let added = try document.inserting(NewTask(title: "Pay rent", due: DueDate(iso: "2026-12-03"), priority: .high), at: .end)
        // After the last task: a box without the filter is no task to go after.
        #expect(String(decoding: added.document.serialize(), as: UTF8.self)
                == "# Inbox\n- [ ] Milk #task 📅 2026-12-01\n- [ ] #task Pay rent !!! due:2026-12-03\n- [ ] plain\n")
        #expect(added.document.tasks.map(\.title) == ["Milk #task", "#task Pay rent"])
        let holding = try document.inserting(NewTask(title: "Call #task mum"), at: .end)
        #expect(holding.document.tasks.last?.title == "Call #task mum")
        // The section's example.
        let example = try filtered("").inserting(NewTask(title: "Pay rent", due: DueDate(iso: "2026-12-01")), at: .end)
        #expect(String(decoding: example.document.serialize(), as: UTF8.self) == "- [ ] #task Pay rent due:2026-12-01\n")
        // Without a filter nothing is added.
        let plain = try Document("# Inbox\n").inserting(NewTask(title: "Pay rent"), at: .end)
        #expect(plain.document.tasks.map(\.title) == ["Pay rent"])
    }

    @Test("a new title without the filter gets it first, so that the task stays a task")
    func retitleKeepsTheFilter() throws {
        let document = filtered("- [ ] Pay rent #task 📅 2026-12-01\n")
        let result = try document.retitling(0, "Pay the rent")
        #expect(String(decoding: result.document.serialize(), as: UTF8.self) == "- [ ] #task Pay the rent 📅 2026-12-01\n")
        let kept = try document.retitling(0, "Pay #task the rent")
        #expect(String(decoding: kept.document.serialize(), as: UTF8.self) == "- [ ] Pay #task the rent 📅 2026-12-01\n")
    }

    @Test("removing a task takes a box without the filter nested in it along, as part of its notes")
    func removingTakesPlainBoxes() throws {
        let document = filtered("- [ ] Trip #task\n  - [ ] pack\n- [ ] Milk #task\n")
        let result = try document.removing(0)
        #expect(String(decoding: result.document.serialize(), as: UTF8.self) == "- [ ] Milk #task\n")
    }

    @Test("the filter is a tag: '#' and letters, digits, '_', '-' or '/', and not #flag",
          arguments: [("#task", true), ("#todo/work", true), ("#Aufgabe_1", true), ("#tâche", true), ("task", false),
                      ("#", false), ("#a b", false), ("#a!", false), ("##a", false), ("#flag", false), ("#FLAG", false), ("", false)])
    func filterValues(text: String, valid: Bool) {
        #expect((GlobalFilter(text) != nil) == valid)
        #expect((GlobalFilter.problem(with: text) == nil) == valid)
    }

    @Test("the fingerprint tells filters apart and is 0 for none")
    func fingerprints() {
        #expect(GlobalFilter.fingerprint(nil) == 0)
        #expect(GlobalFilter.fingerprint(GlobalFilter("#task")) != 0)
        #expect(GlobalFilter.fingerprint(GlobalFilter("#task")) != GlobalFilter.fingerprint(GlobalFilter("#todo")))
        #expect(GlobalFilter.fingerprint(GlobalFilter("#task")) == GlobalFilter.fingerprint(GlobalFilter("#task")))
    }
}
