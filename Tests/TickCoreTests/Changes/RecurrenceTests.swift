import Testing
import TickFormat
import TickCore

// The date arithmetic of repeating tasks (FORMAT.md 5.8), table-driven. 2026-05-03 is a Sunday.

private func d(_ iso: String) -> Day {
    guard let day = Day(iso: iso) else { fatalError("bad test day \(iso)") }
    return day
}

private func dueDate(_ iso: String) -> DueDate {
    guard let due = DueDate(iso: iso) else { fatalError("bad test due date \(iso)") }
    return due
}

private func rule(_ value: String) -> RecurrenceRule {
    guard let rule = RecurrenceRule(value: value) else { fatalError("bad test rule \(value)") }
    return rule
}

/// One completion: the rule, the old due date, the until day, the completion day (also today
/// unless `today` is given), and the next due date, or nil when the repetition ends.
struct CompletionCase: CustomStringConvertible, Sendable {
    var rule: String
    var due: String?
    var until: String? = nil
    var completed: String
    var today: String? = nil
    var next: String?

    var description: String {
        "rec:\(rule) due:\(due ?? "none") until:\(until ?? "none") completed \(completed) today \(today ?? completed)"
    }
}

@Suite("Recurrence: the next due date")
struct RecurrenceTests {
    static let modes: [CompletionCase] = [
        // Completion mode: a week after the completion, early, on time and late.
        .init(rule: "1w", due: "2026-05-03", completed: "2026-05-01", next: "2026-05-08"),
        .init(rule: "1w", due: "2026-05-03", completed: "2026-05-03", next: "2026-05-10"),
        .init(rule: "1w", due: "2026-05-03", completed: "2026-05-20", next: "2026-05-27"),
        // Due mode: a week after the old due date, once; late it is still overdue.
        .init(rule: "+1w", due: "2026-05-03", completed: "2026-05-01", next: "2026-05-10"),
        .init(rule: "+1w", due: "2026-05-03", completed: "2026-05-03", next: "2026-05-10"),
        .init(rule: "+1w", due: "2026-05-03", completed: "2026-05-20", next: "2026-05-10"),
        // Future mode: the first Sunday step after today, at least one step.
        .init(rule: "++1w", due: "2026-05-03", completed: "2026-05-01", next: "2026-05-10"),
        .init(rule: "++1w", due: "2026-05-03", completed: "2026-05-03", next: "2026-05-10"),
        .init(rule: "++1w", due: "2026-05-03", completed: "2026-05-20", next: "2026-05-24"),
        // A step landing on today is not after today.
        .init(rule: "++1w", due: "2026-05-03", completed: "2026-05-17", next: "2026-05-24"),
        // Future mode counts from the due date, so a last day of the month stays the last day.
        .init(rule: "++1m", due: "2026-01-31", completed: "2026-04-15", next: "2026-04-30"),
        .init(rule: "++1m", due: "2026-01-15", completed: "2026-04-15", next: "2026-05-15"),
        .init(rule: "++2d", due: "2026-05-03", completed: "2026-05-06", next: "2026-05-07"),
        .init(rule: "++1y", due: "2024-02-29", completed: "2026-03-01", next: "2027-02-28"),
        // The completion day and today differ (a box ticked in an editor, read later): the
        // completion mode counts from the completion, the future mode from today.
        .init(rule: "1d", due: "2026-05-03", completed: "2026-05-04", today: "2026-05-10", next: "2026-05-05"),
        .init(rule: "++1d", due: "2026-05-03", completed: "2026-05-04", today: "2026-05-10", next: "2026-05-11"),
        // A time of day is kept in every mode.
        .init(rule: "+1d", due: "2026-12-01T09:00", completed: "2026-12-01", next: "2026-12-02T09:00"),
        .init(rule: "1w", due: "2026-12-01T09:00", completed: "2026-12-03", next: "2026-12-10T09:00"),
        .init(rule: "++1w", due: "2026-12-01T09:00", completed: "2026-12-20", next: "2026-12-22T09:00"),
    ]

    @Test("each mode completed early, on time and late", arguments: modes)
    func mode(_ c: CompletionCase) throws {
        try expectNext(c)
    }

    static let monthEnds: [CompletionCase] = [
        .init(rule: "+1m", due: "2026-01-31", completed: "2026-01-31", next: "2026-02-28"),
        .init(rule: "+1m", due: "2028-01-31", completed: "2028-01-31", next: "2028-02-29"),
        // The day number is kept, not "the last day": 02-28 + 1 month is 03-28 (issue 49).
        .init(rule: "+1m", due: "2026-02-28", completed: "2026-02-28", next: "2026-03-28"),
        .init(rule: "+1m", due: "2028-02-29", completed: "2028-02-29", next: "2028-03-29"),
        .init(rule: "1m", due: "2026-02-20", completed: "2026-02-28", next: "2026-03-28"),
        .init(rule: "+1m", due: "2026-11-30", completed: "2026-11-30", next: "2026-12-30"),
        .init(rule: "1y", due: nil, completed: "2027-02-28", next: "2028-02-28"),
        .init(rule: "+1m", due: "2026-01-30", completed: "2026-01-30", next: "2026-02-28"),
        .init(rule: "+1m", due: "2028-01-30", completed: "2028-01-30", next: "2028-02-29"),
        .init(rule: "+1m", due: "2026-03-30", completed: "2026-03-30", next: "2026-04-30"),
        .init(rule: "+1y", due: "2028-02-29", completed: "2028-02-29", next: "2029-02-28"),
        .init(rule: "+1y", due: "2027-02-28", completed: "2027-02-28", next: "2028-02-28"),
        .init(rule: "+1y", due: "2026-03-15", completed: "2026-03-15", next: "2027-03-15"),
        .init(rule: "+3m", due: "2026-11-30", completed: "2026-11-30", next: "2027-02-28"),
        .init(rule: "+12m", due: "2026-06-10", completed: "2026-06-10", next: "2027-06-10"),
        .init(rule: "1m", due: nil, completed: "2026-01-31", next: "2026-02-28"),
    ]

    @Test("month and year steps keep the day number, clamped to a shorter month", arguments: monthEnds)
    func monthEnd(_ c: CompletionCase) throws {
        try expectNext(c)
    }

    @Test("10-31 stepped four times by a month drifts with the clamp: 11-30, 12-30, 01-30, 02-28")
    func octoberThirtyFirstStepped() throws {
        var due = dueDate("2026-10-31")
        var seen: [String] = []
        for _ in 0..<4 {
            guard case .next(let next) = try Recurrence.next(rule("+1m"), due: due, until: nil, completed: due.day, today: due.day)
            else { Issue.record("the repetition ended"); return }
            seen.append(next.description)
            due = next
        }
        #expect(seen == ["2026-11-30", "2026-12-30", "2027-01-30", "2027-02-28"])
    }

    static let businessDays: [CompletionCase] = [
        // 2026-05-01 is a Friday, 05-02 a Saturday, 05-03 a Sunday.
        .init(rule: "+1b", due: "2026-05-01", completed: "2026-05-01", next: "2026-05-04"),
        .init(rule: "+3b", due: "2026-05-01", completed: "2026-05-01", next: "2026-05-06"),
        .init(rule: "+2b", due: "2026-04-30", completed: "2026-04-30", next: "2026-05-04"),
        .init(rule: "+5b", due: "2026-05-04", completed: "2026-05-04", next: "2026-05-11"),
        .init(rule: "+1b", due: "2026-04-27", completed: "2026-04-27", next: "2026-04-28"),
        // From a Saturday or a Sunday the first business day is the Monday after.
        .init(rule: "+1b", due: "2026-05-02", completed: "2026-05-02", next: "2026-05-04"),
        .init(rule: "+1b", due: "2026-05-03", completed: "2026-05-03", next: "2026-05-04"),
        .init(rule: "+5b", due: "2026-05-02", completed: "2026-05-02", next: "2026-05-08"),
        .init(rule: "+6b", due: "2026-05-02", completed: "2026-05-02", next: "2026-05-11"),
        // Completed on a Saturday in the completion mode.
        .init(rule: "1b", due: "2026-04-29", completed: "2026-05-02", next: "2026-05-04"),
        // The future mode steps by business days until after today.
        .init(rule: "++1b", due: "2026-05-01", completed: "2026-05-05", next: "2026-05-06"),
        .init(rule: "++2b", due: "2026-05-01", completed: "2026-05-02", next: "2026-05-05"),
    ]

    @Test("b counts Monday to Friday, over a weekend and from a Saturday", arguments: businessDays)
    func businessDay(_ c: CompletionCase) throws {
        try expectNext(c)
    }

    static let untilBoundaries: [CompletionCase] = [
        .init(rule: "+1w", due: "2026-05-03", until: "2026-05-10", completed: "2026-05-03", next: "2026-05-10"),
        .init(rule: "+1w", due: "2026-05-03", until: "2026-05-09", completed: "2026-05-03", next: nil),
        .init(rule: "1w", due: "2026-05-03", until: "2026-05-27", completed: "2026-05-20", next: "2026-05-27"),
        .init(rule: "1w", due: "2026-05-03", until: "2026-05-26", completed: "2026-05-20", next: nil),
        .init(rule: "++1w", due: "2026-05-03", until: "2026-05-24", completed: "2026-05-20", next: "2026-05-24"),
        .init(rule: "++1w", due: "2026-05-03", until: "2026-05-23", completed: "2026-05-20", next: nil),
        // A time on the until day is still on it.
        .init(rule: "+1d", due: "2026-05-03T23:30", until: "2026-05-04", completed: "2026-05-03", next: "2026-05-04T23:30"),
    ]

    @Test("until: a next due date equal to it is an occurrence, one beyond it ends the repetition",
          arguments: untilBoundaries)
    func untilBoundary(_ c: CompletionCase) throws {
        try expectNext(c)
    }

    @Test("without a due date the completion mode counts from the completion")
    func noDueCompletionMode() throws {
        try expectNext(.init(rule: "1w", due: nil, completed: "2026-05-03", next: "2026-05-10"))
        try expectNext(.init(rule: "2b", due: nil, completed: "2026-05-01", next: "2026-05-05"))
    }

    @Test("without a due date the due and future modes are refused", arguments: ["+1w", "++1w", "+3b", "++1m"])
    func noDueRefused(_ value: String) {
        #expect(throws: Recurrence.Refusal.self) {
            try Recurrence.next(rule(value), due: nil, until: nil, completed: d("2026-05-03"), today: d("2026-05-03"))
        }
        #expect(throws: Recurrence.Refusal.self) {
            try Recurrence.skip(rule(value), due: nil, until: nil, today: d("2026-05-03"))
        }
    }

    @Test("a next date past the year 9999 is refused, not wrapped")
    func pastTheLastYear() {
        #expect(throws: Recurrence.Refusal.self) {
            try Recurrence.next(rule("+1d"), due: dueDate("9999-12-31"), until: nil, completed: d("9999-12-31"), today: d("9999-12-31"))
        }
        #expect(throws: Recurrence.Refusal.self) {
            try Recurrence.next(rule("+999y"), due: dueDate("9500-01-01"), until: nil, completed: d("9500-01-01"), today: d("9500-01-01"))
        }
    }

    @Test("the future mode finds its step across a long gap")
    func futureModeLongGap() throws {
        try expectNext(.init(rule: "++1d", due: "0001-01-01", completed: "9999-12-30", next: "9999-12-31"))
        try expectNext(.init(rule: "++7d", due: "2000-01-03", completed: "2026-05-20", next: "2026-05-25"))
    }

    // MARK: Skip

    static let skips: [(rule: String, due: String?, today: String, next: String)] = [
        // Due and future modes: from the due date, as a completion would.
        ("+1w", "2026-05-03", "2026-05-01", "2026-05-10"),
        ("+1w", "2026-05-03", "2026-05-20", "2026-05-10"),
        ("++1w", "2026-05-03", "2026-05-20", "2026-05-24"),
        // Completion mode: from today.
        ("1w", "2026-05-03", "2026-05-01", "2026-05-08"),
        ("1w", "2026-05-03", "2026-05-20", "2026-05-27"),
        ("1w", nil, "2026-05-20", "2026-05-27"),
        ("1m", "2026-01-31T08:00", "2026-01-31", "2026-02-28T08:00"),
    ]

    @Test("skip advances without a completion: from the due date, or from today in the completion mode",
          arguments: skips.indices)
    func skip(_ k: Int) throws {
        let c = Self.skips[k]
        let outcome = try Recurrence.skip(rule(c.rule), due: c.due.map(dueDate), until: nil, today: d(c.today))
        #expect(outcome == .next(dueDate(c.next)), "skip rec:\(c.rule) due:\(c.due ?? "none") today \(c.today)")
    }

    @Test("skip past until ends the repetition")
    func skipPastUntil() throws {
        #expect(try Recurrence.skip(rule("+1w"), due: dueDate("2026-05-03"), until: d("2026-05-09"), today: d("2026-05-01")) == .ended)
    }

    // MARK: Parsed tasks

    private func task(_ line: String) throws -> TickFormat.Task {
        let document = Document(line + "\n")
        try #require(document.tasks.count == 1)
        return document.tasks[0]
    }

    @Test("a parsed task: its rule, due date and until day are read from its tokens")
    func parsedTask() throws {
        let t = try task("- [ ] Water the plants due:2026-05-03 rec:++1w until:2026-05-24")
        #expect(try Recurrence.next(of: t, completed: d("2026-05-20"), today: d("2026-05-20")) == .next(dueDate("2026-05-24")))
        #expect(try Recurrence.next(of: t, completed: d("2026-05-24"), today: d("2026-05-24")) == .ended)
        #expect(try Recurrence.skip(of: t, today: d("2026-05-03")) == .next(dueDate("2026-05-10")))
        #expect(try Recurrence.next(of: try task("- [ ] Plain due:2026-05-03"), completed: d("2026-05-03"), today: d("2026-05-03")) == nil)
    }

    @Test("an invalid due date, rule or until day is refused, never dropped", arguments: [
        "- [ ] Water due:2026-02-30 rec:1w",
        "- [ ] Water due:soon rec:+1w",
        "- [ ] Water due:2026-05-03 rec:1x",
        "- [ ] Water due:2026-05-03 Rec:1w",
        "- [ ] Water due:2026-05-03 rec:+1w until:2026-13-01",
        "- [ ] Water due:2026-05-03 rec:1w rec:2w rec:0d",
    ])
    func malformedRefused(_ line: String) throws {
        let t = try task(line)
        #expect(throws: Recurrence.Refusal.self, "\(line)") {
            try Recurrence.next(of: t, completed: d("2026-05-03"), today: d("2026-05-03"))
        }
    }

    @Test("the refusal of an invalid due date says which value to fix")
    func malformedDueMessage() throws {
        let t = try task("- [ ] Water due:2026-02-30 rec:1w")
        do {
            _ = try Recurrence.next(of: t, completed: d("2026-05-03"), today: d("2026-05-03"))
            Issue.record("not refused")
        } catch {
            #expect(error.message.contains("due: value is malformed"), "\(error.message)")
        }
    }

    private func expectNext(_ c: CompletionCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try Recurrence.next(rule(c.rule), due: c.due.map(dueDate), until: c.until.map(d),
                                          completed: d(c.completed), today: d(c.today ?? c.completed))
        #expect(outcome == (c.next.map { .next(dueDate($0)) } ?? .ended), "\(c)", sourceLocation: sourceLocation)
    }
}
