import Testing
@testable import TickCore
import TickFormat

/// The titles of the open tasks that `text` finds at `now`, in view order.
private func found(_ library: Library, _ text: String, at now: Now, weekStart: Int = 1) throws -> [String] {
    library.titles(library.find(try Query(parsing: text, now: now, weekStart: weekStart), now: now))
}

private func at(_ iso: String, _ hours: Int, _ minutes: Int) -> Now {
    Now(day: Day(iso: iso)!, minutes: hours * 60 + minutes)
}

@Suite("query dates")
struct QueryDateTests {
    /// Tasks due on the days around a week's, a month's and a leap day's boundaries.
    let library = makeLibrary([("dates.md", """
        - [ ] sat nov 28 due:2026-11-28
        - [ ] sun nov 29 due:2026-11-29
        - [ ] mon nov 30 due:2026-11-30T00:00
        - [ ] tue dec 1 due:2026-12-01
        - [ ] tue dec 1 late due:2026-12-01T23:59
        - [ ] sat dec 5 due:2026-12-05
        - [ ] sun dec 6 due:2026-12-06T23:59
        - [ ] mon dec 7 due:2026-12-07
        - [ ] thu dec 31 due:2026-12-31T23:59
        - [ ] fri jan 1 due:2027-01-01T00:00
        - [ ] feb 28 2028 due:2028-02-28
        - [ ] feb 29 2028 due:2028-02-29T12:00
        - [ ] mar 1 2028 due:2028-03-01
        - [ ] no date

        """)])

    @Test("due:today is the whole day, whatever the time: at 00:01 and at 23:59", arguments: [(0, 1), (23, 59)])
    func wholeDay(_ time: (Int, Int)) throws {
        let now = at("2026-12-01", time.0, time.1)
        #expect(try found(library, "due:today", at: now) == ["tue dec 1", "tue dec 1 late"])
        #expect(try found(library, "due:tomorrow", at: now) == [])
        #expect(try found(library, "due:yesterday", at: now) == ["mon nov 30"])
        #expect(try found(library, "due:-1d..+1d", at: now) == ["mon nov 30", "tue dec 1", "tue dec 1 late"])
    }

    @Test("relative dates roll over at midnight: 23:59 and 00:01 of the next day differ")
    func midnight() throws {
        #expect(try found(library, "due:today", at: at("2026-12-31", 23, 59)) == ["thu dec 31"])
        #expect(try found(library, "due:today", at: at("2027-01-01", 0, 1)) == ["fri jan 1"])
        #expect(try found(library, "due:<today", at: at("2027-01-01", 0, 1)).last == "thu dec 31")
        #expect(try found(library, "due:<today", at: at("2026-12-31", 23, 59)).last == "mon dec 7")
    }

    @Test("this-week starts on Monday by default, Sunday with week-start = sunday", arguments: [(0, 1), (23, 59)])
    func weeks(_ time: (Int, Int)) throws {
        let tuesday = at("2026-12-01", time.0, time.1)
        #expect(try found(library, "due:this-week", at: tuesday)
                == ["mon nov 30", "tue dec 1", "tue dec 1 late", "sat dec 5", "sun dec 6"])
        #expect(try found(library, "due:this-week", at: tuesday, weekStart: 7)
                == ["sun nov 29", "mon nov 30", "tue dec 1", "tue dec 1 late", "sat dec 5"])
        #expect(try found(library, "due:next-week", at: tuesday, weekStart: 7) == ["sun dec 6", "mon dec 7"])
        // On the week's first and last day.
        #expect(try found(library, "due:this-week", at: at("2026-11-30", time.0, time.1)).first == "mon nov 30")
        #expect(try found(library, "due:this-week", at: at("2026-12-06", time.0, time.1)).last == "sun dec 6")
        #expect(try found(library, "due:this-week", at: at("2026-12-07", time.0, time.1)) == ["mon dec 7"])
        #expect(try found(library, "due:this-week", at: at("2026-11-29", time.0, time.1), weekStart: 7)
                == ["sun nov 29", "mon nov 30", "tue dec 1", "tue dec 1 late", "sat dec 5"])
        #expect(try found(library, "due:this-week", at: at("2026-11-28", time.0, time.1), weekStart: 7) == ["sat nov 28"])
        // ISO weeks start on Monday whatever week-start says.
        #expect(try found(library, "due:2026-W49", at: tuesday, weekStart: 7)
                == ["mon nov 30", "tue dec 1", "tue dec 1 late", "sat dec 5", "sun dec 6"])
        #expect(try found(library, "due:2026-W53", at: tuesday) == ["thu dec 31", "fri jan 1"])
    }

    @Test("month ends and leap years")
    func months() throws {
        let now = at("2026-12-01", 23, 59)
        #expect(try found(library, "due:2026-12", at: now)
                == ["tue dec 1", "tue dec 1 late", "sat dec 5", "sun dec 6", "mon dec 7", "thu dec 31"])
        #expect(try found(library, "due:2027-01", at: now) == ["fri jan 1"])
        #expect(try found(library, "due:2028-02", at: now) == ["feb 28 2028", "feb 29 2028"])
        #expect(try found(library, "due:>2028-02", at: now) == ["mar 1 2028"])
        #expect(try found(library, "due:>=2028-02-29", at: now) == ["feb 29 2028", "mar 1 2028"])
        #expect(try found(library, "due:this-month", at: at("2026-12-31", 23, 59)).last == "thu dec 31")
        #expect(try found(library, "due:next-month", at: at("2026-12-31", 23, 59)) == ["fri jan 1"])
        #expect(try found(library, "due:next-month", at: at("2028-01-31", 0, 1)) == ["feb 28 2028", "feb 29 2028"])
        // +1m from 31 January is 29 February in a leap year.
        #expect(try found(library, "due:+1m", at: at("2028-01-31", 0, 1)) == ["feb 29 2028"])
        #expect(try found(library, "due:2026-11-29..2026-11-30", at: now) == ["sun nov 29", "mon nov 30"])
    }

    @Test("due:<today leaves out tasks without a due date; NOT due:<today keeps them")
    func noDueDate() throws {
        let now = at("2026-12-01", 0, 1)
        let before = try found(library, "due:<today", at: now)
        #expect(before == ["sat nov 28", "sun nov 29", "mon nov 30"])
        let notBefore = try found(library, "NOT due:<today", at: now)
        #expect(notBefore.contains("no date"))
        #expect(Set(before).isDisjoint(with: notBefore))
        #expect(before.count + notBefore.count == 14)
        #expect(try found(library, "-due:<today", at: now) == notBefore)
        #expect(try found(library, "due:none", at: now) == ["no date"])
        #expect(try found(library, "due:any", at: now).count == 13)
    }
}

@Suite("query words")
struct QueryWordTests {
    @Test("the word or in a title matches as a word, and OR joins")
    func wordOr() throws {
        let library = makeLibrary([("a.md", "- [ ] tea or coffee\n- [ ] tea\n- [ ] coffee\n")])
        let now = Now(day: Day(year: 2026, month: 12, day: 1)!)
        #expect(library.titles(library.find(try Query(parsing: "tea or coffee", now: now), now: now)) == ["tea or coffee"])
        #expect(library.titles(library.find(try Query(parsing: "tea OR coffee", now: now), now: now))
                == ["tea or coffee", "tea", "coffee"])
        #expect(library.titles(library.find(try Query(parsing: "\"or coffee\"", now: now), now: now)) == ["tea or coffee"])
    }
}
