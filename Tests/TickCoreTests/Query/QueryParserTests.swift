import Testing
@testable import TickCore
import TickFormat

/// Tuesday 1 December 2026, 10:00.
private let now = Now(day: Day(year: 2026, month: 12, day: 1)!, minutes: 10 * 60)

private func day(_ text: String) -> Day { Day(iso: text)! }
private func t(_ term: QueryTerm) -> QueryNode { .term(term) }
private func range(_ a: String?, _ b: String?) -> DateFilter { .range(first: a.map(day), last: b.map(day)) }

@Suite("query parser")
struct QueryParserTests {
    /// Every term, and the logic around it: text, then the tree it parses to.
    static let trees: [(String, QueryNode)] = [
        ("milk", t(.text("milk"))),
        ("\"call the plumber\"", t(.text("call the plumber"))),
        ("-milk", .not(t(.text("milk")))),
        ("-\"two words\"", .not(t(.text("two words")))),
        ("#work", t(.tag("work"))),
        ("-#work", .not(t(.tag("work")))),
        ("#flag", t(.state(.flagged))),
        ("#FLAG", t(.state(.flagged))),
        ("-#flag", .not(t(.state(.flagged)))),
        ("#flagged", t(.tag("flagged"))),
        ("#flag/x", t(.tag("flag/x"))),
        ("list:Work", t(.list("Work"))),
        ("list:\"Work Stuff\"", t(.list("Work Stuff"))),
        ("in:Errands", t(.section("Errands"))),
        ("is:open", t(.state(.open))),
        ("is:done", t(.state(.done))),
        ("is:overdue", t(.state(.overdue))),
        ("is:today", t(.state(.today))),
        ("is:flagged", t(.state(.flagged))),
        ("is:recurring", t(.state(.recurring))),
        ("is:subtask", t(.state(.subtask))),
        ("is:parent", t(.state(.parent))),
        ("has:due", t(.has(.due, true))),
        ("has:notes", t(.has(.notes, true))),
        ("has:tags", t(.has(.tags, true))),
        ("has:priority", t(.has(.priority, true))),
        ("no:due", t(.has(.due, false))),
        ("no:tags", t(.has(.tags, false))),
        ("pri:>=2", t(.priority(lowest: 2, highest: 3))),
        ("pri:high", t(.priority(lowest: 3, highest: 3))),
        ("pri:<medium", t(.priority(lowest: 0, highest: 1))),
        ("pri:>low", t(.priority(lowest: 2, highest: 3))),
        ("pri:<=1", t(.priority(lowest: 0, highest: 1))),
        ("pri:none", t(.priority(lowest: 0, highest: 0))),
        ("!!", t(.priority(lowest: 2, highest: 2))),
        ("!", t(.priority(lowest: 1, highest: 1))),
        ("!!!", t(.priority(lowest: 3, highest: 3))),
        ("due:today", t(.due(range("2026-12-01", "2026-12-01")))),
        ("due:+3d", t(.due(range("2026-12-04", "2026-12-04")))),
        ("due:tomorrow", t(.due(range("2026-12-02", "2026-12-02")))),
        ("due:2026-12-24", t(.due(range("2026-12-24", "2026-12-24")))),
        ("due:today..+7d", t(.due(range("2026-12-01", "2026-12-08")))),
        ("due:..today", t(.due(range(nil, "2026-12-01")))),
        ("due:today..", t(.due(range("2026-12-01", nil)))),
        ("due:<today", t(.due(range(nil, "2026-11-30")))),
        ("due:<=today", t(.due(range(nil, "2026-12-01")))),
        ("due:>today", t(.due(range("2026-12-02", nil)))),
        ("due:>=today", t(.due(range("2026-12-01", nil)))),
        ("due:this-week", t(.due(range("2026-11-30", "2026-12-06")))),
        ("due:next-week", t(.due(range("2026-12-07", "2026-12-13")))),
        ("due:last-week", t(.due(range("2026-11-23", "2026-11-29")))),
        ("due:this-month", t(.due(range("2026-12-01", "2026-12-31")))),
        ("due:next-month", t(.due(range("2027-01-01", "2027-01-31")))),
        ("due:2026-12", t(.due(range("2026-12-01", "2026-12-31")))),
        ("due:2028-02", t(.due(range("2028-02-01", "2028-02-29")))),
        ("due:2026-W49", t(.due(range("2026-11-30", "2026-12-06")))),
        ("due:2026-w01", t(.due(range("2025-12-29", "2026-01-04")))),
        ("due:2026-W53", t(.due(range("2026-12-28", "2027-01-03")))),
        ("due:2026", t(.due(range("2026-01-01", "2026-12-31")))),
        ("due:<2026-12", t(.due(range(nil, "2026-11-30")))),
        ("due:>2026-12", t(.due(range("2027-01-01", nil)))),
        ("due:this-week..next-month", t(.due(range("2026-11-30", "2027-01-31")))),
        ("due:none", t(.due(.none))),
        ("due:any", t(.due(.any))),
        ("done:today", t(.doneDate(range("2026-12-01", "2026-12-01")))),
        ("done:<=yesterday", t(.doneDate(range(nil, "2026-11-30")))),
        ("done:none", t(.doneDate(.none))),
        // Logic: side by side is AND; NOT > AND > OR.
        ("a b", .and([t(.text("a")), t(.text("b"))])),
        ("a OR b", .or([t(.text("a")), t(.text("b"))])),
        ("a OR b c", .or([t(.text("a")), .and([t(.text("b")), t(.text("c"))])])),
        ("a b OR c", .or([.and([t(.text("a")), t(.text("b"))]), t(.text("c"))])),
        ("NOT a b", .and([.not(t(.text("a"))), t(.text("b"))])),
        ("NOT a OR b", .or([.not(t(.text("a"))), t(.text("b"))])),
        ("NOT (a OR b)", .not(.or([t(.text("a")), t(.text("b"))]))),
        ("(a OR b) c", .and([.or([t(.text("a")), t(.text("b"))]), t(.text("c"))])),
        ("NOT NOT a", .not(.not(t(.text("a"))))),
        ("a OR b OR c", .or([t(.text("a")), t(.text("b")), t(.text("c"))])),
        ("((a))", t(.text("a"))),
        ("#work (is:overdue OR due:today)",
         .and([t(.tag("work")), .or([t(.state(.overdue)), t(.due(range("2026-12-01", "2026-12-01")))])])),
        // The word "or" and "not" in lower case, and quoted capitals, are words.
        ("tea or coffee", .and([t(.text("tea")), t(.text("or")), t(.text("coffee"))])),
        ("not milk", .and([t(.text("not")), t(.text("milk"))])),
        ("\"OR\"", t(.text("OR"))),
        ("\"NOT\" milk", .and([t(.text("NOT")), t(.text("milk"))])),
        ("Or", t(.text("Or"))),
        // Quoting: a key, # or - inside quotes is text.
        ("\"list:Work\"", t(.text("list:Work"))),
        ("\"#work\"", t(.text("#work"))),
        ("\"-milk\"", t(.text("-milk"))),
        ("\"a (b) c\"", t(.text("a (b) c"))),
        ("10:30", t(.text("10:30"))),
        ("a-b", t(.text("a-b"))),
        ("-", t(.text("-"))),
        ("  spaced   out  ", .and([t(.text("spaced")), t(.text("out"))])),
    ]

    @Test("every term and every precedence case parses to its tree", arguments: trees.indices)
    func parses(_ k: Int) throws {
        let (text, tree) = Self.trees[k]
        let query = try Query(parsing: text, now: now)
        #expect(query.root == tree, "\(text)")
    }

    /// Text that is not a query, the column the error names, and a part of its reason.
    static let badQueries: [(String, Int, String)] = [
        ("", 1, "empty"),
        ("(a", 1, "never closed"),
        ("a (b OR c", 3, "never closed"),
        ("a)", 2, "without an opening"),
        ("()", 1, "empty parentheses"),
        ("foo:bar", 1, "unknown key 'foo:'"),
        ("milk colour:red", 6, "unknown key 'colour:'"),
        ("is:later", 4, "unknown is:later"),
        ("has:colour", 5, "unknown has:colour"),
        ("pri:urgent", 5, "unknown priority"),
        ("due:someday", 5, "someday"),
        ("due:", 5, "needs a value"),
        ("due:<", 6, "needs a date"),
        ("due:2026-13", 5, "no month 13"),
        ("due:2026-W54", 5, "no week 54"),
        ("due:2027-W53", 5, "no week 53"),
        ("due:..", 5, "at least one end"),
        ("due:+7d..today", 5, "ends before it starts"),
        ("due:\"tomorrow 9:00\"", 5, "has a time"),
        ("due:2026-12-01T09:00", 5, "has a time"),
        ("OR a", 1, "OR needs a term before it"),
        ("a OR", 3, "OR needs a term after it"),
        ("a OR OR b", 3, "OR needs a term after it"),
        ("a NOT", 3, "NOT needs a term after it"),
        ("\"open quote", 1, "never closed"),
        ("a \"", 3, "never closed"),
        ("#", 1, "tag name"),
        ("\"\"", 1, "empty phrase"),
    ]

    @Test("an error names the column and the reason", arguments: badQueries.indices)
    func error(_ k: Int) {
        let (text, column, reason) = Self.badQueries[k]
        do {
            let query = try Query(parsing: text, now: now)
            Issue.record("'\(text)' parsed as \(query.root)")
        } catch {
            #expect(error.column == column, "\(text): \(error)")
            #expect(error.description.contains(reason), "\(text): \(error)")
            #expect(error.description.hasPrefix("bad query at column \(column): "))
        }
    }

    @Test("--explain prints the tree with every date resolved")
    func explanation() throws {
        let query = try Query(parsing: "#work (is:overdue OR due:this-week) -milk", now: now)
        #expect(query.explanation == """
            AND
              tag #work
              OR
                is overdue
                due 2026-11-30..2026-12-06
              NOT
                text "milk"
            """)
    }

    /// Found by `make fuzz-query`: `pri:>3` parsed to an empty range of levels, and explaining it
    /// read past the level names (a trap).
    @Test("a priority bound that leaves no level is explained as matching nothing", arguments: ["pri:>3", "pri:>high", "pri:<0", "pri:<none"])
    func emptyPriorityRange(text: String) throws {
        let query = try Query(parsing: text, now: now)
        #expect(query.explanation == "priority (no level: matches nothing)")
    }

    @Test("a query that names no completion finds open tasks only")
    func completion() throws {
        #expect(try !Query(parsing: "milk #work", now: now).mentionsCompletion)
        #expect(try Query(parsing: "milk OR is:done", now: now).mentionsCompletion)
        #expect(try Query(parsing: "done:today", now: now).mentionsCompletion)
        #expect(try Query(parsing: "-is:open", now: now).mentionsCompletion)
    }

    /// A named range at the calendar's ends: (now, query, the range, or nil for an error).
    static let calendarEnds: [(String, String, (String, String)?)] = [
        ("9999-12-30", "due:next-month", nil),
        ("0001-01-01", "due:last-month", nil),
        ("9999-12-30", "due:next-week", nil),
        ("0001-01-01", "due:last-week", nil),
        ("9999-12-30", "due:this-month", ("9999-12-01", "9999-12-31")),
        ("9999-11-30", "due:next-month", ("9999-12-01", "9999-12-31")),
        ("0001-02-28", "due:last-month", ("0001-01-01", "0001-01-31")),
        ("2026-01-31", "due:next-month", ("2026-02-01", "2026-02-28")),
    ]

    @Test("a range past the calendar's ends is an error naming the word, not a trap", arguments: calendarEnds.indices)
    func calendarEnd(_ k: Int) throws {
        let (today, text, expected) = Self.calendarEnds[k]
        let at = Now(day: day(today), minutes: 0)
        do {
            let query = try Query(parsing: text, now: at)
            #expect(expected != nil, "\(text) at \(today) parsed as \(query.root)")
            if let expected { #expect(query.root == t(.due(range(expected.0, expected.1))), "\(text) at \(today)") }
        } catch {
            #expect(expected == nil, "\(text) at \(today): \(error)")
            #expect(error.description.contains("outside the years 1 to 9999"), "\(error)")
        }
    }
}
