import Testing
import TickFormat

// FORMAT.md section 5.10: repeating tasks, the `rec:` and `until:` tokens, and the edits that
// write them and move a repeating task to its next occurrence.

@Suite("FORMAT.md 5.10: repeating tasks")
struct FormatRuleRecurrenceTests {
    private func rule(_ value: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RecurrenceRule {
        try #require(RecurrenceRule(value: value), sourceLocation: sourceLocation)
    }

    private func messages(_ text: String) -> [String] {
        parsed(text).checkDiagnostics().map(\.message)
    }

    // MARK: The tokens

    @Test("the example: the three modes and business days", arguments: [
        ("- [ ] Water the plants rec:1w due:2026-12-05\n", "Water the plants", 1, RecurrenceRule.Unit.week, RecurrenceRule.Mode.completion, "2026-12-05"),
        ("- [ ] Pay rent rec:+1m due:2026-12-01\n", "Pay rent", 1, .month, .due, "2026-12-01"),
        ("- [ ] Team call rec:++1w due:2026-12-07\n", "Team call", 1, .week, .future, "2026-12-07"),
        ("- [ ] Standup rec:3b due:2026-12-04\n", "Standup", 3, .businessDay, .completion, "2026-12-04"),
    ])
    func modes(_ c: (String, String, Int, RecurrenceRule.Unit, RecurrenceRule.Mode, String)) throws {
        let task = try onlyTask(c.0)
        #expect(task.title == c.1)
        #expect(task.recurrence == RecurrenceRule(count: c.2, unit: c.3, mode: c.4))
        #expect(task.due == (try due(c.5)))
        #expect(task.until == nil)
        #expect(parsed(c.0).checkDiagnostics().isEmpty)
    }

    @Test("every unit and count from 1 to 999 is a rule, written back as read",
          arguments: ["1d", "7d", "2w", "6m", "1y", "5b", "999d", "+12m", "++3b", "++1y", "+1d"])
    func values(_ value: String) throws {
        let r = try rule(value)
        #expect(r.description == value)
        #expect(r.token == "rec:" + value)
        let task = try onlyTask("- [ ] Task rec:\(value)\n")
        #expect(task.recurrence == r)
        #expect(task.title == "Task")
    }

    @Test("a leading zero is read, and the file keeps it as written")
    func leadingZero() throws {
        let task = try onlyTask("- [ ] Task rec:01w\n")
        #expect(task.recurrence == (try rule("1w")))
    }

    @Test("the example: until: ends the repetition")
    func untilExample() throws {
        let text = "- [ ] Physio exercises rec:+1d due:2026-12-01 until:2026-12-14\n"
        let task = try onlyTask(text)
        #expect(task.title == "Physio exercises")
        #expect(task.recurrence == (try rule("+1d")))
        #expect(task.until == (try day("2026-12-14")))
        #expect(parsed(text).checkDiagnostics().isEmpty)
    }

    @Test("the examples: a malformed rule stays in the title and is reported", arguments: [
        ("- [ ] Water rec:1x due:2026-12-05\n", "Water rec:1x"),
        ("- [ ] Water rec:0w due:2026-12-05\n", "Water rec:0w"),
    ])
    func malformedExamples(_ c: (String, String)) throws {
        let task = try onlyTask(c.0)
        #expect(task.title == c.1)
        #expect(task.recurrence == nil)
        #expect(task.malformedKeys == ["rec"])
        let found = messages(c.0)
        #expect(found.count == 1 && found[0].hasPrefix("malformed repetition rule"), "\(found)")
    }

    @Test("other malformed rules", arguments: ["rec:1000d", "rec:+++1w", "rec:1W", "rec:w", "rec:1", "rec:-1w",
                                               "rec:1.5w", "rec:1w2", "rec:+", "rec:1ww"])
    func malformedValues(_ word: String) throws {
        let text = "- [ ] Water \(word) due:2026-12-05\n"
        let task = try onlyTask(text)
        #expect(task.recurrence == nil, "\(word)")
        #expect(task.title == "Water \(word)")
        #expect(messages(text).contains { $0.hasPrefix("malformed repetition rule '\(word)'") }, "\(word)")
    }

    @Test("a malformed until date stays in the title and is reported", arguments: ["until:2026-02-30", "until:soon",
                                                                                  "until:2026-12-14T09:00"])
    func malformedUntil(_ word: String) throws {
        let text = "- [ ] Physio rec:+1d due:2026-12-01 \(word)\n"
        let task = try onlyTask(text)
        #expect(task.until == nil)
        #expect(task.title == "Physio \(word)")
        #expect(task.malformedKeys == ["until"])
        #expect(messages(text) == ["malformed until date '\(word)': expected until:YYYY-MM-DD"])
    }

    @Test("the example: + and ++ without a due date are reported", arguments: ["+1w", "++1w", "+2b"])
    func dueModesNeedADueDate(_ value: String) throws {
        let text = "- [ ] Water rec:\(value)\n"
        let task = try onlyTask(text)
        #expect(task.recurrence == (try rule(value)))
        let found = parsed(text).checkDiagnostics()
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("'rec:\(value)' repeats from the due date, and the task has none") == true)
        #expect(found.first?.column == 13)
    }

    @Test("the completion mode needs no due date")
    func completionModeWithoutDue() {
        #expect(messages("- [ ] Water rec:1w\n").isEmpty)
    }

    @Test("the example: until: without a rule is reported")
    func untilWithoutRule() throws {
        let text = "- [ ] Water until:2026-12-31\n"
        let task = try onlyTask(text)
        #expect(task.until == (try day("2026-12-31")))
        #expect(task.title == "Water")
        #expect(messages(text) == ["'until:2026-12-31' ends a repetition, and the task has no rec: rule"])
    }

    @Test("keys are lower case: Rec: and UNTIL: are title text and reported")
    func keysLowerCase() throws {
        let text = "- [ ] Water Rec:1w UNTIL:2026-12-31\n"
        let task = try onlyTask(text)
        #expect(task.recurrence == nil && task.until == nil)
        #expect(task.title == "Water Rec:1w UNTIL:2026-12-31")
        #expect(task.malformedKeys == ["rec", "until"])
        #expect(messages(text) == ["'Rec:1w' is not metadata: keys are lower case ('rec:')",
                                   "'UNTIL:2026-12-31' is not metadata: keys are lower case ('until:')"])
    }

    @Test("the first rule and until date count; the later ones are title text and reported")
    func repeated() throws {
        let text = "- [ ] Water rec:1w rec:2w until:2026-12-31 until:2027-01-31\n"
        let task = try onlyTask(text)
        #expect(task.recurrence == (try rule("1w")))
        #expect(task.until == (try day("2026-12-31")))
        #expect(task.title == "Water rec:2w until:2027-01-31")
        #expect(messages(text) == ["second repetition rule ignored; the first one counts",
                                   "second until date ignored; the first one counts"])
    }

    @Test("rec: inside a code span is not a token, and words that only start alike are text")
    func notTokens() throws {
        let task = try onlyTask("- [ ] Read `rec:1w` recipe until recorded: rec: until:\n")
        #expect(task.recurrence == nil && task.until == nil)
        #expect(task.title == "Read `rec:1w` recipe until recorded: rec: until:")
        #expect(task.malformedKeys.isEmpty)
    }

    @Test("rec: on a continuation line is a note, and reported")
    func continuationLine() throws {
        let text = "- [ ] Water\n  rec:1w\n"
        #expect(try onlyTask(text).recurrence == nil)
        #expect(messages(text).first?.contains("is on a continuation line") == true)
    }

    @Test("every file with the tokens round-trips byte for byte", arguments: [
        "- [ ] A rec:1w\n", "- [ ] A rec:++1y due:2026-12-01 until:2027-12-01\r\n- [x] B rec:2b done:2026-11-30",
        "- [ ] A\u{A0}rec:+1m\u{3000}until:2026-12-31 \\\n  more\n", "> - [ ] A Rec:1x rec:1w rec:\n",
    ])
    func roundTrip(_ text: String) {
        _ = parsed(text)
    }

    // MARK: Setting and clearing the tokens

    @Test("setting a rule adds a rec: token at the end of the title line, before a hard break")
    func setRule() throws {
        let original = parsed("# L\n\n- [ ] Water due:2026-12-05 \\\n  more\n- [ ] Other\n")
        let result = try original.settingRecurrence(0, try rule("+1w"))
        expectEdit(result, of: original, gives: "# L\n\n- [ ] Water due:2026-12-05 rec:+1w \\\n  more\n- [ ] Other\n", within: 3...3)
        #expect(result.document.tasks[0].recurrence == (try rule("+1w")))
    }

    @Test("setting a rule replaces the token's bytes only; clearing removes it with one separator")
    func replaceAndClearRule() throws {
        let original = parsed("- [ ] Water rec:1w due:2026-12-05\r\n- [ ] Other\r\n")
        expectEdit(try original.settingRecurrence(0, try rule("++2m")), of: original,
                   gives: "- [ ] Water rec:++2m due:2026-12-05\r\n- [ ] Other\r\n", within: 1...1)
        expectEdit(try original.settingRecurrence(0, nil), of: original,
                   gives: "- [ ] Water due:2026-12-05\r\n- [ ] Other\r\n", within: 1...1)
    }

    @Test("setting a rule replaces a malformed one; clearing removes the repeats and the malformed words")
    func malformedRuleReplaced() throws {
        let original = parsed("- [ ] Water rec:1x due:2026-12-05")
        expectEdit(try original.settingRecurrence(0, try rule("1w")), of: original, gives: "- [ ] Water rec:1w due:2026-12-05")
        let repeated = parsed("- [ ] Water rec:1w rec:2w Rec:3w due:2026-12-05\n")
        expectEdit(try repeated.settingRecurrence(0, nil), of: repeated, gives: "- [ ] Water due:2026-12-05\n")
    }

    @Test("until: is set, replaced and cleared as a token")
    func setUntil() throws {
        let original = parsed("- [ ] Physio rec:+1d due:2026-12-01\n")
        let set = try original.settingUntil(0, try day("2026-12-14"))
        expectEdit(set, of: original, gives: "- [ ] Physio rec:+1d due:2026-12-01 until:2026-12-14\n")
        let replaced = try set.document.settingUntil(0, try day("2027-01-04"))
        expectEdit(replaced, of: set.document, gives: "- [ ] Physio rec:+1d due:2026-12-01 until:2027-01-04\n")
        expectEdit(try replaced.document.settingUntil(0, nil), of: replaced.document, gives: "- [ ] Physio rec:+1d due:2026-12-01\n")
        let malformed = parsed("- [ ] Physio until:2026-02-30 rec:+1d due:2026-12-01")
        expectEdit(try malformed.settingUntil(0, try day("2026-12-14")), of: malformed,
                   gives: "- [ ] Physio until:2026-12-14 rec:+1d due:2026-12-01")
    }

    // MARK: Moving to the next occurrence

    /// The files of the byte-for-byte checks: LF, CRLF and no final newline.
    static let endings: [(name: String, eol: String, last: String)] = [("LF", "\n", "\n"), ("CRLF", "\r\n", "\r\n"),
                                                                      ("no final newline", "\n", "")]

    @Test("advancing rewrites only the bytes of the due: token", arguments: endings.indices)
    func advanceDueOnly(_ k: Int) throws {
        let (_, eol, last) = Self.endings[k]
        let original = parsed("# Home\(eol)\(eol)- [ ] Water the plants due:2026-12-05 rec:+1w #home !!\(eol)  keep them wet\(eol)- [ ] Other due:2026-12-05\(last)")
        let result = try original.advancingRecurrence(0, to: try due("2026-12-12"))
        expectEdit(result, of: original,
                   gives: "# Home\(eol)\(eol)- [ ] Water the plants due:2026-12-12 rec:+1w #home !!\(eol)  keep them wet\(eol)- [ ] Other due:2026-12-05\(last)",
                   within: 3...3)
        // The spliced range is the token itself: nothing around it was rewritten.
        #expect(result.replaced.count == "due:2026-12-05".utf8.count && result.replacement.count == "due:2026-12-12".utf8.count)
        #expect(result.document.tasks[0].done == false)
        #expect(result.document.tasks[0].due == (try due("2026-12-12")))
    }

    @Test("advancing the last task of a file without a final newline")
    func advanceLastLine() throws {
        let original = parsed("- [ ] A\n- [ ] Water due:2026-12-01T09:00 rec:+1d")
        expectEdit(try original.advancingRecurrence(1, to: try due("2026-12-02T09:00")), of: original,
                   gives: "- [ ] A\n- [ ] Water due:2026-12-02T09:00 rec:+1d", within: 2...2)
    }

    @Test("a task without a due date gets one at the end of its title line", arguments: endings.indices)
    func advanceWithoutDue(_ k: Int) throws {
        let (_, eol, last) = Self.endings[k]
        let original = parsed("- [ ] Water rec:1w #home\(eol)- [ ] Other\(last)")
        expectEdit(try original.advancingRecurrence(0, to: try due("2026-12-08")), of: original,
                   gives: "- [ ] Water rec:1w #home due:2026-12-08\(eol)- [ ] Other\(last)", within: 1...1)
    }

    @Test("advancing opens the done subtasks at any depth and removes their done: tokens", arguments: endings.indices)
    func advanceResetsSubtasks(_ k: Int) throws {
        let (_, eol, last) = Self.endings[k]
        let original = parsed([
            "- [ ] Clean the house due:2026-12-05 rec:1w",
            "  - [x] Kitchen done:2026-11-30",
            "  - [ ] Hall",
            "  - [X] Bathroom done:2026-11-29 !",
            "    - [x] Mirror done:2026-11-29",
            "- [x] Other done:2026-11-30",
        ].joined(separator: eol) + last)
        let result = try original.advancingRecurrence(0, to: try due("2026-12-12"))
        expectEdit(result, of: original, gives: [
            "- [ ] Clean the house due:2026-12-12 rec:1w",
            "  - [ ] Kitchen",
            "  - [ ] Hall",
            "  - [ ] Bathroom !",
            "    - [ ] Mirror",
            "- [x] Other done:2026-11-30",
        ].joined(separator: eol) + last, within: 1...5)
        let tasks = result.document.tasks
        #expect(tasks[1...4].allSatisfy { !$0.done && $0.doneDate == nil })
        #expect(tasks[3].priority == .low)
        #expect(tasks[5].done)
    }

    @Test("advancing leaves an open subtask's bytes alone, and a done parent box alone")
    func advanceLeavesOtherBytes() throws {
        let original = parsed("- [ ] Water due:2026-12-05 rec:+1w\n  - [ ] Fill the can done:2026-11-30\n")
        expectEdit(try original.advancingRecurrence(0, to: try due("2026-12-12")), of: original,
                   gives: "- [ ] Water due:2026-12-12 rec:+1w\n  - [ ] Fill the can done:2026-11-30\n", within: 1...1)
    }
}
