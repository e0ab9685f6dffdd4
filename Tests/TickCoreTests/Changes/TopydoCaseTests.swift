import Testing
import TickCore
import TickFormat

// topydo's upstream test cases for recurrence and relative dates, as a table of inputs and
// expected dates.
//
// Source: topydo (https://github.com/topydo/topydo), test/test_recurrence.py and
// test/test_relative_date.py, GPL-3.0. Only the data points are taken (a date, a rule, the date
// topydo expects): facts, not code. topydo's recurrence tests count from `date.today()`; here
// "today" is pinned to Friday 2015-11-06, the day its relative-date tests freeze. Where tick
// deliberately differs, the case is in `differences` with the reason, and FORMAT.md 5.10 lists it.

private func d(_ iso: String) -> Day {
    guard let day = Day(iso: iso) else { fatalError("bad test day \(iso)") }
    return day
}

/// Friday 2015-11-06, topydo's frozen day.
private let today = d("2015-11-06")

private func shifted(_ days: Int) -> String { today.adding(days: days).description }

/// One completion from test_recurrence.py: the rule (topydo's `p_strict=True` is tick's `+`), the
/// old due date, and the next due date topydo expects, completed today.
struct TopydoCompletion: CustomStringConvertible, Sendable {
    var name: String
    var rule: String
    var due: String?
    var next: String
    var description: String { "\(name): rec:\(rule) due:\(due ?? "none") → \(next)" }
}

/// One relative date from test_relative_date.py: tick's spelling of topydo's word, the day it
/// counts from, and the expected day (nil: refused).
struct TopydoRelative: CustomStringConvertible, Sendable {
    var name: String
    var word: String
    var from: String = "2015-11-06"
    var expected: String?
    var description: String { "\(name): '\(word)' from \(from) → \(expected ?? "refused")" }
}

@Suite("topydo's recurrence and relative-date cases")
struct TopydoCaseTests {
    static let completions: [TopydoCompletion] = [
        .init(name: "test_duedate1", rule: "1w", due: shifted(1), next: shifted(7)),
        .init(name: "test_duedate2", rule: "1w", due: shifted(0), next: shifted(7)),
        .init(name: "test_duedate3", rule: "1w", due: shifted(-8), next: shifted(7)),
        .init(name: "test_duedate4", rule: "+1w", due: shifted(-8), next: shifted(-1)),
        .init(name: "test_duedate5", rule: "+1w", due: shifted(1), next: shifted(8)),
        .init(name: "test_duedate6", rule: "+1w", due: shifted(0), next: shifted(7)),
        .init(name: "test_noduedate1", rule: "1w", due: nil, next: shifted(7)),
        .init(name: "test_strict_recurrence1", rule: "+1w", due: shifted(-8), next: shifted(-1)),
        .init(name: "test_strict_recurrence2", rule: "+1w", due: shifted(1), next: shifted(8)),
    ]

    @Test("test_recurrence.py: the next due date", arguments: completions)
    func completion(_ c: TopydoCompletion) throws {
        let rule = try #require(RecurrenceRule(value: c.rule))
        let outcome = try Recurrence.next(rule, due: c.due.map { DueDate(day: d($0)) }, until: nil,
                                          completed: today, today: today)
        #expect(outcome == .next(DueDate(day: d(c.next))), "\(c)")
    }

    @Test("test_recurrence.py: a rule topydo cannot read is refused, and no rule is no repetition")
    func invalidAndMissingRules() throws {
        // test_invalid_recurrence: `rec:1` has no unit.
        #expect(RecurrenceRule(value: "1") == nil)
        let malformed = Document("- [ ] Test rec:1 due:2015-11-06\n").tasks[0]
        #expect(throws: Recurrence.Refusal.self) { try Recurrence.next(of: malformed, completed: today, today: today) }
        // test_no_recurrence.
        let plain = Document("- [ ] Test due:2015-11-06\n").tasks[0]
        #expect(try Recurrence.next(of: plain, completed: today, today: today) == nil)
    }

    /// test_relative_date.py's month and year steps, and the clamp to a shorter month.
    static let monthSteps: [(from: String, months: Int, expected: String)] = [
        ("2015-01-10", 1, "2015-02-10"),   // test_one_month
        ("2015-01-29", 1, "2015-02-28"),   // test_one_month_ext
        ("2016-01-31", 1, "2016-02-29"),
        ("2015-12-31", 1, "2016-01-31"),
        ("2015-07-31", 1, "2015-08-31"),
        ("2015-10-31", 1, "2015-11-30"),
        ("2015-01-10", 12, "2016-01-10"),  // test_one_year
        ("2016-02-29", 12, "2017-02-28"),  // test_leap_year
        ("2016-02-29", 48, "2020-02-29"),
        ("2015-11-06", 0, "2015-11-06"),   // test_zero_months, test_zero_years
    ]

    @Test("test_relative_date.py: months keep the day number, clamped", arguments: monthSteps.indices)
    func monthStep(_ k: Int) throws {
        let c = Self.monthSteps[k]
        #expect(d(c.from).adding(months: c.months) == d(c.expected), "\(c)")
        // The same step as a rule (a count of at least 1) and as a date word.
        if c.months > 0 {
            let unit: RecurrenceRule.Unit = c.months % 12 == 0 ? .year : .month
            let count = unit == .year ? c.months / 12 : c.months
            #expect(Recurrence.step(d(c.from), by: count, unit) == d(c.expected), "\(c)")
            let word = "+\(count)\(unit.rawValue)"
            let now = try Now(parsing: c.from)
            #expect(try DueDate(parsing: word, relativeTo: now) == DueDate(day: d(c.expected)), "\(c) as \(word)")
        }
    }

    /// test_relative_date.py's business days that count forward (tick's `b` rule unit).
    static let businessDays: [(count: Int, expected: String)] = [
        (0, "2015-11-06"),  // test_zero_bdays
        (1, "2015-11-09"),  // test_one_bday
        (5, "2015-11-13"),  // test_one_bweek
    ]

    @Test("test_relative_date.py: business days forward", arguments: businessDays.indices)
    func businessDay(_ k: Int) {
        let c = Self.businessDays[k]
        #expect(Recurrence.step(today, by: c.count, .businessDay) == d(c.expected), "\(c)")
    }

    static let relatives: [TopydoRelative] = [
        // topydo reads `1d`; tick's date word for a count is signed (`+1d`), its rule unsigned.
        .init(name: "test_zero_days", word: "+0d", expected: "2015-11-06"),
        .init(name: "test_one_day", word: "+1d", expected: "2015-11-07"),
        .init(name: "test_one_week", word: "+1w", expected: "2015-11-13"),
        .init(name: "test_one_month", word: "+1m", from: "2015-01-10", expected: "2015-02-10"),
        .init(name: "test_one_year", word: "+1y", from: "2015-01-10", expected: "2016-01-10"),
        .init(name: "test_leap_year", word: "+4y", from: "2016-02-29", expected: "2020-02-29"),
        .init(name: "test_zero_months", word: "+0m", expected: "2015-11-06"),
        .init(name: "test_zero_years", word: "+0y", expected: "2015-11-06"),
        .init(name: "test_garbage1", word: "+0dd", expected: nil),
        .init(name: "test_one_day_capital", word: "+1D", expected: "2015-11-07"),
        .init(name: "test_today1", word: "today", expected: "2015-11-06"),
        .init(name: "test_tomorrow1", word: "Tomorrow", expected: "2015-11-07"),
        .init(name: "test_yesterday1", word: "yesterday", expected: "2015-11-05"),
        .init(name: "test_monday1", word: "monday", expected: "2015-11-09"),
        .init(name: "test_monday3", word: "mon", expected: "2015-11-09"),
        .init(name: "test_monday4", word: "mondayy", expected: nil),
        .init(name: "test_offset1", word: "+1d", from: "2015-11-07", expected: "2015-11-08"),
        .init(name: "test_negative_period1", word: "-1d", expected: "2015-11-05"),
        .init(name: "test_negative_period2", word: "-0d", expected: "2015-11-06"),
        .init(name: "test_weekday_next_week", word: "fri", expected: "2015-11-13"),
    ]

    @Test("test_relative_date.py: date words", arguments: relatives)
    func relative(_ c: TopydoRelative) throws {
        let now = try Now(parsing: c.from)
        let result = try? DueDate(parsing: c.word, relativeTo: now)
        #expect(result == c.expected.map { DueDate(day: d($0)) }, "\(c)")
    }

    /// The cases where tick deliberately differs, each with what tick does instead (FORMAT.md 5.10
    /// "Compared with topydo").
    static let differences: [(name: String, word: String, tickRefuses: Bool)] = [
        // tick reads only whole words and three-letter weekday abbreviations: `tod`, `tom`, `yes`,
        // `mo` are titles' words too often to be dates.
        ("test_today2", "tod", true), ("test_tomorrow2", "tom", true), ("test_yesterday2", "yes", true),
        ("test_monday2", "mo", true),
        // Business days are a rule unit (`rec:1b`), not a date word: `+1b` is refused.
        ("test_one_bday", "+1b", true), ("test_negative_period3", "-1b", true), ("test_negative_period4", "-5b", true),
    ]

    @Test("the documented differences: tick refuses these words", arguments: differences.indices)
    func difference(_ k: Int) throws {
        let c = Self.differences[k]
        let now = try Now(parsing: "2015-11-06")
        #expect((try? DueDate(parsing: c.word, relativeTo: now)) == nil, "\(c)")
    }

    @Test("the documented difference: rec:+1w without a due date is refused (test_noduedate2)")
    func strictWithoutDue() throws {
        let rule = try #require(RecurrenceRule(value: "+1w"))
        #expect(throws: Recurrence.Refusal.self) {
            try Recurrence.next(rule, due: nil, until: nil, completed: today, today: today)
        }
    }
}
