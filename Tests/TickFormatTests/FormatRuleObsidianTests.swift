import Testing
import TickFormat

// FORMAT.md section 11: the Obsidian Tasks plugin's emoji signifiers and Dataview fields, read onto
// tick's model and written back in the task's own style. The fixtures are written for these tests
// from the plugin's documented format (dates, priorities, recurrence, on completion, Dataview).

@Suite("FORMAT.md 11: Obsidian Tasks and Dataview fields")
struct FormatRuleObsidianTests {
    /// What a fixture line must read as.
    struct Fields: Sendable, CustomStringConvertible {
        var line: String
        var title: String
        var done = false
        var due: String? = nil
        var doneDate: String? = nil
        var scheduled: String? = nil
        var start: String? = nil
        var created: String? = nil
        var cancelled: String? = nil
        var priority: Priority = .none
        var exact: ObsidianPriority? = nil
        var rule: String? = nil
        var phrase: String? = nil
        var id: String? = nil
        var dependsOn: String? = nil
        var onCompletion: String? = nil
        var style: TaskStyle = .emoji

        var description: String { line }
    }

    static let fixtures: [Fields] = [
        // Dates
        Fields(line: "- [ ] Take out the bins 📅 2026-12-03", title: "Take out the bins", due: "2026-12-03"),
        Fields(line: "- [ ] Book the venue ⏳ 2026-12-01", title: "Book the venue", scheduled: "2026-12-01"),
        Fields(line: "- [ ] Draft the talk 🛫 2026-12-10", title: "Draft the talk", start: "2026-12-10"),
        Fields(line: "- [ ] Order paint ➕ 2026-11-20", title: "Order paint", created: "2026-11-20"),
        Fields(line: "- [x] Renew the lease ✅ 2026-11-28", title: "Renew the lease", done: true, doneDate: "2026-11-28"),
        Fields(line: "- [ ] Old plan ❌ 2026-11-02", title: "Old plan", cancelled: "2026-11-02"),
        Fields(line: "- [ ] All dates ➕ 2026-11-01 🛫 2026-11-02 ⏳ 2026-11-03 📅 2026-11-04", title: "All dates",
               due: "2026-11-04", scheduled: "2026-11-03", start: "2026-11-02", created: "2026-11-01"),
        Fields(line: "- [ ] Due by the calendar 📆 2026-12-05", title: "Due by the calendar", due: "2026-12-05"),
        Fields(line: "- [ ] Due by the spiral 🗓️ 2026-12-06", title: "Due by the spiral", due: "2026-12-06"),
        Fields(line: "- [ ] Hourglass ⌛ 2026-12-07", title: "Hourglass", scheduled: "2026-12-07"),
        Fields(line: "- [ ] Glued 📅2026-12-08", title: "Glued", due: "2026-12-08"),
        // Priorities
        Fields(line: "- [ ] Highest 🔺", title: "Highest", priority: .high, exact: .highest),
        Fields(line: "- [ ] High ⏫", title: "High", priority: .high, exact: .high),
        Fields(line: "- [ ] Medium 🔼", title: "Medium", priority: .medium, exact: .medium),
        Fields(line: "- [ ] Low 🔽", title: "Low", priority: .low, exact: .low),
        Fields(line: "- [ ] Lowest ⏬", title: "Lowest", priority: .low, exact: .lowest),
        Fields(line: "- [ ] Highest with a selector 🔺️", title: "Highest with a selector", priority: .high, exact: .highest),
        Fields(line: "- [ ] Normal", title: "Normal", style: .tick),
        // Recurrence
        Fields(line: "- [ ] Water 🔁 every day 📅 2026-12-03", title: "Water", due: "2026-12-03", rule: "+1d", phrase: "every day"),
        Fields(line: "- [ ] Report 🔁 every 3 weeks 📅 2026-12-03", title: "Report", due: "2026-12-03", rule: "+3w", phrase: "every 3 weeks"),
        Fields(line: "- [ ] Rent 🔁 every month 📅 2026-12-01", title: "Rent", due: "2026-12-01", rule: "+1m", phrase: "every month"),
        Fields(line: "- [ ] Sweep 🔁 every week when done 📅 2026-12-04", title: "Sweep", due: "2026-12-04", rule: "1w",
               phrase: "every week when done"),
        Fields(line: "- [ ] Standup 🔁 every weekday 📅 2026-12-04", title: "Standup", due: "2026-12-04", rule: "+1b", phrase: "every weekday"),
        Fields(line: "- [ ] Birthday 🔁 every year 📅 2027-03-14", title: "Birthday", due: "2027-03-14", rule: "+1y", phrase: "every year"),
        Fields(line: "- [ ] Floss 🔁 every day", title: "Floss", rule: "1d", phrase: "every day"),
        Fields(line: "- [ ] Gym 🔁 every week on Monday, Friday 📅 2026-12-07", title: "Gym", due: "2026-12-07",
               phrase: "every week on Monday, Friday"),
        Fields(line: "- [ ] Bills 🔁️ every month on the 1st ⏳ 2026-12-01", title: "Bills", scheduled: "2026-12-01",
               phrase: "every month on the 1st"),
        // On completion, dependencies
        Fields(line: "- [ ] Throwaway 🔁 every day 🏁 delete 📅 2026-12-03", title: "Throwaway", due: "2026-12-03", rule: "+1d",
               phrase: "every day", onCompletion: "delete"),
        Fields(line: "- [ ] Keeper 🏁 keep", title: "Keeper", onCompletion: "keep"),
        Fields(line: "- [ ] First 🆔 dcf64c", title: "First", id: "dcf64c"),
        Fields(line: "- [ ] After ⛔ dcf64c,0h17ye", title: "After", dependsOn: "dcf64c,0h17ye"),
        Fields(line: "- [ ] #task Tagged ⏫ 📅 2026-12-03", title: "#task Tagged", due: "2026-12-03", priority: .high, exact: .high),
        // Dataview
        Fields(line: "- [ ] Has a created date  [created:: 2026-04-13]", title: "Has a created date", created: "2026-04-13", style: .dataview),
        Fields(line: "- [ ] Has a scheduled date  [scheduled:: 2026-04-14]", title: "Has a scheduled date", scheduled: "2026-04-14",
               style: .dataview),
        Fields(line: "- [ ] Has a start date  [start:: 2026-04-15]", title: "Has a start date", start: "2026-04-15", style: .dataview),
        Fields(line: "- [ ] Has a due date  [due:: 2026-04-16]", title: "Has a due date", due: "2026-04-16", style: .dataview),
        Fields(line: "- [x] Has a done date  [completion:: 2026-04-17]", title: "Has a done date", done: true, doneDate: "2026-04-17",
               style: .dataview),
        Fields(line: "- [ ] Has a cancelled date  [cancelled:: 2026-04-18]", title: "Has a cancelled date", cancelled: "2026-04-18",
               style: .dataview),
        Fields(line: "- [ ] Lowest  [priority:: lowest]", title: "Lowest", priority: .low, exact: .lowest, style: .dataview),
        Fields(line: "- [ ] Low  [priority:: low]", title: "Low", priority: .low, exact: .low, style: .dataview),
        Fields(line: "- [ ] Medium  [priority:: medium]", title: "Medium", priority: .medium, exact: .medium, style: .dataview),
        Fields(line: "- [ ] High  [priority:: high]", title: "High", priority: .high, exact: .high, style: .dataview),
        Fields(line: "- [ ] Highest  [priority:: highest]", title: "Highest", priority: .high, exact: .highest, style: .dataview),
        Fields(line: "- [ ] Recurring  [repeat:: every day when done]", title: "Recurring", rule: "1d", phrase: "every day when done",
               style: .dataview),
        Fields(line: "- [ ] Do this first  [id:: dcf64c]", title: "Do this first", id: "dcf64c", style: .dataview),
        Fields(line: "- [ ] Do this after  [dependsOn:: dcf64c,0h17ye]", title: "Do this after", dependsOn: "dcf64c,0h17ye",
               style: .dataview),
        Fields(line: "- [ ] In parentheses (due:: 2026-05-01)", title: "In parentheses", due: "2026-05-01", style: .dataview),
        Fields(line: "- [ ] Commas [priority:: high], [start:: 2026-04-24], [due:: 2026-05-01]", title: "Commas",
               due: "2026-05-01", start: "2026-04-24", priority: .high, exact: .high, style: .dataview),
        Fields(line: "- [ ] Spaced [ due :: 2026-05-02 ]", title: "Spaced", due: "2026-05-02", style: .dataview),
    ]

    @Test("the plugin's documented forms read onto tick's model", arguments: fixtures)
    func fixture(_ f: Fields) throws {
        let task = try onlyTask(f.line + "\n")
        #expect(task.title == f.title)
        #expect(task.done == f.done)
        #expect(task.due == (try f.due.map { try due($0) }))
        #expect(task.doneDate == (try f.doneDate.map { try day($0) }))
        #expect(task.scheduled == (try f.scheduled.map { try day($0) }))
        #expect(task.start == (try f.start.map { try day($0) }))
        #expect(task.created == (try f.created.map { try day($0) }))
        #expect(task.cancelled == (try f.cancelled.map { try day($0) }))
        #expect(task.priority == f.priority)
        #expect(task.obsidianPriority == f.exact)
        #expect(task.recurrence == f.rule.flatMap { RecurrenceRule(value: $0) })
        #expect(task.repeatPhrase == f.phrase)
        #expect(task.id == f.id)
        #expect(task.dependsOn == f.dependsOn)
        #expect(task.onCompletion == f.onCompletion)
        #expect(task.style == f.style)
        #expect(parsed(f.line + "\n").checkDiagnostics().isEmpty, "\(parsed(f.line + "\n").checkDiagnostics())")
    }

    @Test("signifiers with and without the variation selector U+FE0F read the same", arguments: [
        "\u{1F4C5}", "\u{1F4C5}\u{FE0F}", "\u{23F3}", "\u{23F3}\u{FE0F}", "\u{2705}", "\u{2705}\u{FE0F}", "\u{23EB}", "\u{23EB}\u{FE0F}",
    ])
    func variationSelector(_ signifier: String) throws {
        let isPriority = signifier.unicodeScalars.first == "\u{23EB}"
        let task = try onlyTask("- [x] Task \(signifier)\(isPriority ? "" : " 2026-12-03")\n")
        #expect(task.title == "Task")
        #expect(task.style == .emoji)
        #expect(task.due != nil || task.scheduled != nil || task.doneDate != nil || task.priority == .high)
    }

    @Test("not a field: a signifier inside code, a signifier glued to a word, text after a signifier, an unknown key", arguments: [
        ("- [ ] Write `📅 2026-12-03` parser\n", "Write `📅 2026-12-03` parser"),
        ("- [ ] Calendar📅 2026-12-03\n", "Calendar📅 2026-12-03"),
        ("- [ ] See 📅 soon\n", "See 📅 soon"),
        ("- [ ] Note [mood:: fine]\n", "Note [mood:: fine]"),
        ("- [ ] Ratio 1::2\n", "Ratio 1::2"),
        ("- [ ] Party ⏫!\n", "Party ⏫!"),
    ])
    func notFields(_ c: (String, String)) throws {
        let task = try onlyTask(c.0)
        #expect(task.title == c.1)
        #expect(task.due == nil && task.priority == .none)
        #expect(task.style == .tick)
    }

    @Test("a malformed date after a signifier stays in the title and check reports it", arguments: [
        ("- [ ] Party 📅 2026-02-30\n", "Party 📅 2026-02-30", "malformed due date"),
        ("- [ ] Party [due:: tomorrow]\n", "Party [due:: tomorrow]", "malformed due date"),
        ("- [ ] Party [priority:: urgent]\n", "Party [priority:: urgent]", "malformed priority"),
    ])
    func malformed(_ c: (String, String, String)) throws {
        let task = try onlyTask(c.0)
        #expect(task.title == c.1)
        #expect(task.due == nil)
        let messages = parsed(c.0).checkDiagnostics().map(\.message)
        #expect(messages.contains { $0.hasPrefix(c.2) }, "\(messages)")
    }

    @Test("tick's token and a signifier for the same field: the first wins, check reports the second", arguments: [
        ("- [ ] Both due:2026-12-01 📅 2026-12-08\n", "2026-12-01", "Both 📅 2026-12-08"),
        ("- [ ] Both 📅 2026-12-08 due:2026-12-01\n", "2026-12-08", "Both due:2026-12-01"),
        ("- [ ] Both [due:: 2026-12-09] due:2026-12-01\n", "2026-12-09", "Both due:2026-12-01"),
    ])
    func conflict(_ c: (String, String, String)) throws {
        let task = try onlyTask(c.0)
        #expect(task.due == (try due(c.1)))
        #expect(task.title == c.2)
        let messages = parsed(c.0).checkDiagnostics().map(\.message)
        #expect(messages.contains("second due date ignored; the first one counts"), "\(messages)")
    }

    @Test("priority conflict: !!! and 🔽 on one line, the first counts")
    func priorityConflict() throws {
        let text = "- [ ] Loud !!! 🔽\n"
        let task = try onlyTask(text)
        #expect(task.priority == .high)
        #expect(parsed(text).checkDiagnostics().map(\.message).contains("second priority ignored; the first one counts"))
    }

    @Test("other statuses of the plugin are not tasks, and check leaves them alone", arguments: [
        "- [-] Cancelled ❌ 2026-11-02\n", "- [/] In progress 📅 2026-12-03\n", "- [>] Deferred\n", "- [!] Important\n",
    ])
    func otherStatuses(_ line: String) {
        let document = parsed(line)
        #expect(document.tasks.isEmpty)
        #expect(document.checkDiagnostics().isEmpty, "\(document.checkDiagnostics())")
    }

    // MARK: - Writing in the task's own style

    /// Applies `edit` to the only task of `line` and checks the result, and that the replaced
    /// bytes are only those of the signifier or its value.
    private func expectStyled(_ line: String, _ expected: String, changed: String,
                              sourceLocation: SourceLocation = #_sourceLocation,
                              _ edit: (Document) throws -> EditResult) throws {
        let document = parsed(line)
        let result = try edit(document)
        expectEdit(result, of: document, gives: expected, within: 1...1, sourceLocation: sourceLocation)
        let new = result.document.serialize()
        #expect(String(decoding: new[result.replacement], as: UTF8.self) == changed, sourceLocation: sourceLocation)
    }

    @Test("completing an emoji task appends ✅ DATE; reopening removes it, giving the original bytes")
    func emojiDone() throws {
        let line = "- [ ] Pay rent ⏫ 📅 2026-12-01\n"
        let doneLine = "- [x] Pay rent ⏫ 📅 2026-12-01 ✅ 2026-11-30\n"
        let document = parsed(line)
        let done = try document.settingDone(0, true, on: try day("2026-11-30"))
        expectEdit(done, of: document, gives: doneLine, within: 1...1)
        let reopened = try done.document.settingDone(0, false, on: try day("2026-11-30"))
        expectEdit(reopened, of: done.document, gives: line, within: 1...1)
        #expect(reopened.document.tasks[0].doneDate == nil)
    }

    @Test("completing a Dataview task appends two spaces and [completion:: DATE]; reopening restores the bytes")
    func dataviewDone() throws {
        let line = "- [ ] Pay rent  [due:: 2026-12-01]\n"
        let doneLine = "- [x] Pay rent  [due:: 2026-12-01]  [completion:: 2026-11-30]\n"
        let document = parsed(line)
        let done = try document.settingDone(0, true, on: try day("2026-11-30"))
        expectEdit(done, of: document, gives: doneLine, within: 1...1)
        let reopened = try done.document.settingDone(0, false, on: try day("2026-11-30"))
        expectEdit(reopened, of: done.document, gives: line, within: 1...1)
    }

    @Test("a new due date rewrites only the date after 📅 or inside the field")
    func dueInPlace() throws {
        try expectStyled("- [ ] Pay rent 📅 2026-12-01 ⏫\n", "- [ ] Pay rent 📅 2026-12-05 ⏫\n", changed: "2026-12-05") {
            try $0.settingDue(0, DueDate(iso: "2026-12-05"))
        }
        try expectStyled("- [ ] Pay rent 📅️2026-12-01\n", "- [ ] Pay rent 📅️2026-12-05\n", changed: "2026-12-05") {
            try $0.settingDue(0, DueDate(iso: "2026-12-05"))
        }
        try expectStyled("- [ ] Pay rent (due:: 2026-12-01) more\n", "- [ ] Pay rent (due:: 2026-12-05) more\n", changed: "2026-12-05") {
            try $0.settingDue(0, DueDate(iso: "2026-12-05"))
        }
    }

    @Test("a due date added to an emoji task is 📅 DATE at the end; removed, the line is as before")
    func dueAddedAndRemoved() throws {
        let line = "- [ ] Call mum 🔼\n"
        let document = parsed(line)
        let added = try document.settingDue(0, DueDate(iso: "2026-12-04"))
        expectEdit(added, of: document, gives: "- [ ] Call mum 🔼 📅 2026-12-04\n", within: 1...1)
        let removed = try added.document.settingDue(0, nil)
        expectEdit(removed, of: added.document, gives: line, within: 1...1)
    }

    @Test("a due time cannot be written as a signifier: refused, nothing changed")
    func dueTimeRefused() {
        let document = parsed("- [ ] Call 📅 2026-12-01\n")
        expectRefused(.badValue) { () throws(EditError) in try document.settingDue(0, DueDate(iso: "2026-12-01T09:30")) }
    }

    @Test("priority changes the signifier; the same priority keeps 🔺 and ⏬ as written", arguments: [
        ("- [ ] A 🔺 📅 2026-12-01\n", Priority.medium, "- [ ] A 🔼 📅 2026-12-01\n"),
        ("- [ ] A 🔺 📅 2026-12-01\n", Priority.high, "- [ ] A 🔺 📅 2026-12-01\n"),
        ("- [ ] A ⏬\n", Priority.low, "- [ ] A ⏬\n"),
        ("- [ ] A ⏬\n", Priority.high, "- [ ] A ⏫\n"),
        ("- [ ] A 🔽 📅 2026-12-01\n", Priority.none, "- [ ] A 📅 2026-12-01\n"),
        ("- [ ] A 📅 2026-12-01\n", Priority.medium, "- [ ] A 📅 2026-12-01 🔼\n"),
        ("- [ ] A  [priority:: highest]  [due:: 2026-12-01]\n", Priority.low, "- [ ] A  [priority:: low]  [due:: 2026-12-01]\n"),
        ("- [ ] A  [priority:: highest]  [due:: 2026-12-01]\n", Priority.none, "- [ ] A  [due:: 2026-12-01]\n"),
        ("- [ ] A  [due:: 2026-12-01]\n", Priority.high, "- [ ] A  [due:: 2026-12-01]  [priority:: high]\n"),
    ])
    func priority(_ c: (String, Priority, String)) throws {
        let document = parsed(c.0)
        let result = try document.settingPriority(0, c.1)
        expectEdit(result, of: document, gives: c.2, within: 1...1)
        #expect(result.document.tasks[0].priority == c.1)
    }

    @Test("a repetition rule set on an emoji task rewrites the phrase; one without a phrase is refused")
    func recurrencePhrase() throws {
        try expectStyled("- [ ] Water 🔁 every week 📅 2026-12-05\n", "- [ ] Water 🔁 every 2 weeks when done 📅 2026-12-05\n",
                         changed: "every 2 weeks when done") {
            try $0.settingRecurrence(0, RecurrenceRule(value: "2w"))
        }
        try expectStyled("- [ ] Water  [repeat:: every day]  [due:: 2026-12-05]\n",
                         "- [ ] Water  [repeat:: every month]  [due:: 2026-12-05]\n", changed: "every month") {
            try $0.settingRecurrence(0, RecurrenceRule(value: "+1m"))
        }
        let document = parsed("- [ ] Water 🔁 every week 📅 2026-12-05\n")
        expectRefused(.badValue) { () throws(EditError) in try document.settingRecurrence(0, RecurrenceRule(value: "++1w")) }
        let removed = try document.settingRecurrence(0, nil)
        expectEdit(removed, of: document, gives: "- [ ] Water 📅 2026-12-05\n", within: 1...1)
    }

    @Test("advancing a repeating emoji task rewrites only the date after 📅")
    func advanceInPlace() throws {
        try expectStyled("- [ ] Water 🔁 every week 📅 2026-12-05 ⏳ 2026-12-04\n",
                         "- [ ] Water 🔁 every week 📅 2026-12-12 ⏳ 2026-12-04\n", changed: "2026-12-12") {
            try $0.advancingRecurrence(0, to: DueDate(iso: "2026-12-12")!)
        }
    }

    @Test("the completed copy of an emoji task keeps its phrase and ends in ✅ DATE, as the plugin writes it")
    func completedCopy() throws {
        let document = parsed("- [ ] Water ⏫ 🔁 every week 🆔 w1 📅 2026-12-05\n")
        let copy = try document.recordingCompletion(0, on: try day("2026-12-06"))
        #expect(String(decoding: copy.document.serialize(), as: UTF8.self)
                == "- [ ] Water ⏫ 🔁 every week 🆔 w1 📅 2026-12-05\n- [x] Water ⏫ 🔁 every week 📅 2026-12-05 ✅ 2026-12-06\n")
    }

    @Test("a new task in emoji or Dataview style writes the plugin's signifiers, in its order")
    func newTask() throws {
        var new = NewTask(title: "Pay rent", due: DueDate(iso: "2026-12-01"), priority: .high, flagged: true)
        new.recurrence = RecurrenceRule(value: "+1m")
        new.style = .emoji
        let document = parsed("- [ ] Milk 📅 2026-12-01\n")
        let result = try document.inserting(new, at: .end)
        expectEdit(result, of: document, gives: "- [ ] Milk 📅 2026-12-01\n- [ ] Pay rent #flag ⏫ 🔁 every month 📅 2026-12-01\n")
        new.style = .dataview
        new.flagged = false
        let viaDataview = try document.inserting(new, at: .end)
        expectEdit(viaDataview, of: document,
                   gives: "- [ ] Milk 📅 2026-12-01\n- [ ] Pay rent  [priority:: high]  [repeat:: every month]  [due:: 2026-12-01]\n")
        #expect(viaDataview.document.tasks[1].recurrence == RecurrenceRule(value: "+1m"))
    }

    @Test("every edit on each style, undone, gives back the original bytes", arguments: [
        "- [ ] Pay rent 🔼 🔁 every month 📅 2026-12-01\n",
        "- [ ] Pay rent  [priority:: medium]  [repeat:: every month]  [due:: 2026-12-01]\n",
        "- [ ] Pay rent !! rec:+1m due:2026-12-01\n",
    ])
    func roundTrips(_ line: String) throws {
        let document = parsed(line)
        let original = document.tasks[0]
        let edits: [(Document) throws -> EditResult] = [
            { d in try d.settingDone(0, true, on: Day(iso: "2026-11-30")!) },
            { d in try d.settingDue(0, DueDate(iso: "2026-12-24")) },
            { d in try d.settingDue(0, nil) },
            { d in try d.settingPriority(0, .high) },
            { d in try d.settingPriority(0, .none) },
            { d in try d.settingRecurrence(0, RecurrenceRule(value: "2w")) },
            { d in try d.settingRecurrence(0, nil) },
        ]
        let undo: [(Document) throws -> EditResult] = [
            { d in try d.settingDone(0, false, on: Day(iso: "2026-11-30")!) },
            { d in try d.settingDue(0, original.due) },
            { d in try d.settingDue(0, original.due) },
            { d in try d.settingPriority(0, original.priority) },
            { d in try d.settingPriority(0, original.priority) },
            { d in try d.settingRecurrence(0, original.recurrence) },
            { d in try d.settingRecurrence(0, original.recurrence) },
        ]
        for (edit, back) in zip(edits, undo) {
            let changed = try edit(document)
            #expect(changed.document.serialize() != document.serialize())
            let restored = try back(changed.document)
            // Removing a token and adding it back puts it at the end: the same tokens, maybe in another order.
            let bytes = String(decoding: restored.document.serialize(), as: UTF8.self)
            if bytes != line {
                #expect(Set(bytes.split(whereSeparator: { $0 == " " || $0 == "\n" })) == Set(line.split(whereSeparator: { $0 == " " || $0 == "\n" })),
                        "\(bytes)")
            }
            #expect(restored.document.tasks[0].due == original.due)
            #expect(restored.document.tasks[0].priority == original.priority)
            #expect(restored.document.tasks[0].recurrence == original.recurrence)
            #expect(restored.document.tasks[0].title == original.title)
        }
    }
}
