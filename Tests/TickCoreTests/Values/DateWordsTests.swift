import Testing
import TickCore
import TickFormat

/// Friday 17 July 2026, 10:30: the pinned "now" of most cases.
private let friday = at("2026-07-17T10:30")

private func at(_ text: String) -> Now {
    guard let now = try? Now(parsing: text) else { fatalError("bad test now \(text)") }
    return now
}

/// Asserts that `word` parsed at `now` gives the due date written `expected` (ISO).
private func expectDate(
    _ word: String, at now: Now = friday, is expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let due = try DueDate(parsing: word, relativeTo: now)
        #expect(due.description == expected, "'\(word)' at \(now)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("'\(word)' at \(now) failed: \(error)", sourceLocation: sourceLocation)
    }
}

/// Asserts that `word` parsed at `now` is refused with `expected`.
private func expectError(
    _ word: String, at now: Now = friday, is expected: DateError,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let due = try DueDate(parsing: word, relativeTo: now)
        Issue.record("'\(word)' at \(now) gave \(due), expected \(expected)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, "'\(word)' at \(now)", sourceLocation: sourceLocation)
    }
}

@Suite("now")
struct NowTests {
    @Test("a date alone is midnight of that day")
    func dateAlone() throws {
        let now = try Now(parsing: "2026-07-17")
        #expect(now.day == Day(year: 2026, month: 7, day: 17))
        #expect(now.minutes == 0)
        #expect(now.description == "2026-07-17T00:00")
    }

    @Test("a date with a time keeps the minute")
    func dateAndTime() throws {
        let now = try Now(parsing: "2026-07-17T23:59")
        #expect(now.day == Day(year: 2026, month: 7, day: 17))
        #expect(now.minutes == 23 * 60 + 59)
        #expect(now.dueDate == DueDate(day: now.day, minutes: 1439))
    }

    @Test("a malformed now names its source and quotes the value",
          arguments: ["tomorrow", "", "2026-07-17 10:30", "2026-02-30", "2026-07-17T24:00", "17/07/2026"])
    func malformed(text: String) {
        #expect(throws: DateError.notANow(text, source: "TICK_NOW")) { try Now(parsing: text, source: "TICK_NOW") }
        let message = DateError.notANow(text, source: "TICK_NOW").description
        #expect(message.hasPrefix("TICK_NOW is not a date: '\(text)'"))
    }

    @Test("the option wins over the environment, which wins over the clock")
    func precedence() throws {
        #expect(try Now.resolve(option: "2026-01-02", environment: "2027-03-04") == at("2026-01-02T00:00"))
        #expect(try Now.resolve(option: nil, environment: "2027-03-04T05:06") == at("2027-03-04T05:06"))
        #expect(throws: DateError.notANow("x", source: "--now")) { try Now.resolve(option: "x", environment: nil) }
        #expect(throws: DateError.notANow("y", source: "TICK_NOW")) { try Now.resolve(option: nil, environment: "y") }
    }

    @Test("days until counts whole days across months and years")
    func daysUntil() throws {
        #expect(friday.days(until: try #require(Day(year: 2026, month: 7, day: 17))) == 0)
        #expect(friday.days(until: try #require(Day(year: 2026, month: 8, day: 1))) == 15)
        #expect(friday.days(until: try #require(Day(year: 2025, month: 7, day: 17))) == -365)
    }
}

@Suite("date words")
struct DateWordsTests {
    @Test("today, tomorrow and yesterday, in any case and with spaces around")
    func relativeDays() {
        expectDate("today", is: "2026-07-17")
        expectDate("TODAY", is: "2026-07-17")
        expectDate("  Today\t", is: "2026-07-17")
        expectDate("tomorrow", is: "2026-07-18")
        expectDate("Tomorrow", is: "2026-07-18")
        expectDate("yesterday", is: "2026-07-16")
    }

    @Test("a weekday is the next such day strictly after today")
    func weekdays() {
        // Now is a Friday.
        let expected = [
            ("mon", "2026-07-20"), ("tue", "2026-07-21"), ("wed", "2026-07-22"), ("thu", "2026-07-23"),
            ("fri", "2026-07-24"), ("sat", "2026-07-18"), ("sun", "2026-07-19"),
        ]
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        for ((short, date), long) in zip(expected, names) {
            expectDate(short, is: date)
            expectDate(long, is: date)
            expectDate(short.uppercased(), is: date)
            expectDate(String(long.prefix(1)).uppercased() + long.dropFirst(), is: date)
        }
    }

    @Test("fri on a Friday is a week later, mon on a Monday too")
    func sameWeekday() {
        expectDate("fri", is: "2026-07-24")
        expectDate("friday", is: "2026-07-24")
        expectDate("mon", at: at("2026-07-20T08:00"), is: "2026-07-27")
    }

    @Test("other abbreviations and partial names are not weekdays")
    func notWeekdays() {
        // tues, weds, thur and thurs are weekdays since issue 49 (PeerDateWordsTests).
        for word in ["fr", "frid", "tu", "thursd", "mo"] {
            expectError(word, is: .notADate(word))
        }
    }

    @Test("next week is the next Monday, a week later on a Monday")
    func nextWeek() {
        expectDate("next week", is: "2026-07-20")
        expectDate("Next  Week", is: "2026-07-20")
        expectDate("next-week", is: "2026-07-20")
        expectDate("next week", at: at("2026-07-19"), is: "2026-07-20")  // Sunday
        expectDate("next week", at: at("2026-07-20"), is: "2026-07-27")  // Monday
        expectDate("next week", at: at("2026-12-29"), is: "2027-01-04")
    }

    @Test("+Nd and +Nw count days and weeks")
    func daysAndWeeks() {
        expectDate("+0d", is: "2026-07-17")
        expectDate("+3d", is: "2026-07-20")
        expectDate("+3D", is: "2026-07-20")
        expectDate("+15d", is: "2026-08-01")
        expectDate("+2w", is: "2026-07-31")
        expectDate("+1d", at: at("2028-02-28"), is: "2028-02-29")
        expectDate("+1d", at: at("2027-02-28"), is: "2027-03-01")
        expectDate("+1d", at: at("2026-12-31"), is: "2027-01-01")
        expectDate("+52w", is: "2027-07-16")
        // 999,999 days is about 2,738 years: still a real day.
        expectDate("+999999d", is: "4764-06-12")
    }

    @Test("+Nm keeps the day of the month and clamps it to the month's last day")
    func months() {
        expectDate("+1m", is: "2026-08-17")
        expectDate("+12m", is: "2027-07-17")
        expectDate("+6m", is: "2027-01-17")
        expectDate("+1m", at: at("2026-01-31"), is: "2026-02-28")
        expectDate("+1m", at: at("2028-01-31"), is: "2028-02-29")  // leap year
        expectDate("+1m", at: at("2100-01-31"), is: "2100-02-28")  // not a leap year
        expectDate("+1m", at: at("2000-01-31"), is: "2000-02-29")  // leap year
        expectDate("+1m", at: at("2026-03-31"), is: "2026-04-30")
        expectDate("+2m", at: at("2026-01-31"), is: "2026-03-31")
        expectDate("+1m", at: at("2026-12-31"), is: "2027-01-31")
        expectDate("+12m", at: at("2028-02-29"), is: "2029-02-28")
        expectDate("+13m", at: at("2027-01-30"), is: "2028-02-29")
        expectDate("+0m", at: at("2026-01-31"), is: "2026-01-31")
    }

    @Test("eow is the coming Sunday, and today on a Sunday")
    func endOfWeek() {
        expectDate("eow", is: "2026-07-19")
        expectDate("EOW", at: at("2026-07-20"), is: "2026-07-26")  // Monday
        expectDate("eow", at: at("2026-07-19"), is: "2026-07-19")  // Sunday
        expectDate("eow", at: at("2026-12-28"), is: "2027-01-03")
    }

    @Test("eom is this month's last day, leap years included")
    func endOfMonth() {
        expectDate("eom", is: "2026-07-31")
        expectDate("eom", at: at("2026-07-31"), is: "2026-07-31")
        expectDate("eom", at: at("2026-04-01"), is: "2026-04-30")
        expectDate("eom", at: at("2026-02-10"), is: "2026-02-28")
        expectDate("eom", at: at("2028-02-10"), is: "2028-02-29")
        expectDate("eom", at: at("2100-02-10"), is: "2100-02-28")
        expectDate("eom", at: at("2000-02-10"), is: "2000-02-29")
        expectDate("eom", at: at("2026-12-01"), is: "2026-12-31")
    }

    @Test("month and year ends roll over")
    func rollOver() {
        expectDate("tomorrow", at: at("2026-12-31T23:59"), is: "2027-01-01")
        expectDate("yesterday", at: at("2027-01-01"), is: "2026-12-31")
        expectDate("tomorrow", at: at("2028-02-28"), is: "2028-02-29")
        expectDate("yesterday", at: at("2028-03-01"), is: "2028-02-29")
        expectDate("yesterday", at: at("2027-03-01"), is: "2027-02-28")
        expectDate("sat", at: at("2026-12-31"), is: "2027-01-02")
    }

    @Test("ISO dates, with or without a time")
    func iso() {
        expectDate("2026-12-03", is: "2026-12-03")
        expectDate("2026-12-03T09:00", is: "2026-12-03T09:00")
        expectDate("2026-12-03t09:00", is: "2026-12-03T09:00")
        expectDate("2028-02-29", is: "2028-02-29")
        expectDate("2020-01-01", is: "2020-01-01")  // the past is allowed
        expectDate("0001-01-01", is: "0001-01-01")
        expectDate("9999-12-31T23:59", is: "9999-12-31T23:59")
    }

    @Test("any date word takes a time after a space or after T")
    func timeSuffix() {
        expectDate("tomorrow 9:00", is: "2026-07-18T09:00")
        expectDate("tomorrow 09:00", is: "2026-07-18T09:00")
        expectDate("tomorrowT09:00", is: "2026-07-18T09:00")
        expectDate("fri 17:30", is: "2026-07-24T17:30")
        expectDate("Fri  17:30", is: "2026-07-24T17:30")
        expectDate("friT17:30", is: "2026-07-24T17:30")
        expectDate("satT8:15", is: "2026-07-18T08:15")
        expectDate("next week 8:00", is: "2026-07-20T08:00")
        expectDate("next-weekT8:00", is: "2026-07-20T08:00")
        expectDate("+3d 0:00", is: "2026-07-20T00:00")
        expectDate("eom 23:59", is: "2026-07-31T23:59")
        expectDate("2026-12-03 9:05", is: "2026-12-03T09:05")
        expectDate("today 10:30", is: "2026-07-17T10:30")
    }

    @Test("a time alone is today when still to come, else tomorrow")
    func timeAlone() {
        // Now is 10:30.
        expectDate("17:30", is: "2026-07-17T17:30")
        expectDate("10:31", is: "2026-07-17T10:31")
        expectDate("10:30", is: "2026-07-18T10:30")  // this very minute has come
        expectDate("0:00", is: "2026-07-18T00:00")
        expectDate("23:59", is: "2026-07-17T23:59")
    }

    @Test("words that are not dates are refused and quoted")
    func notDates() {
        for word in ["soon", "none", "", "   ", "next", "week", "tomorrow at 9:00", "3d", "+3", "+d", "+3x",
                     "+-3d", "+3.5d", "--3d", "2026/07/03", "20260703", "tomorrow 9", "foo 9:00",
                     "fooT9:00", "éow", "today today"] {
            expectError(word, is: .notADate(word))
        }
    }

    @Test("impossible days are refused as such")
    func noSuchDays() {
        expectError("2026-02-30", is: .noSuchDay("2026-02-30"))
        expectError("2027-02-29", is: .noSuchDay("2027-02-29"))
        expectError("2026-13-01", is: .noSuchDay("2026-13-01"))
        expectError("2026-00-10", is: .noSuchDay("2026-00-10"))
        expectError("0000-01-01", is: .noSuchDay("0000-01-01"))
        expectError("2026-02-30T09:00", is: .noSuchDay("2026-02-30"))
        expectError("2026-04-31 9:00", is: .noSuchDay("2026-04-31"))
    }

    @Test("impossible times are refused as such")
    func badTimes() {
        expectError("25:00", is: .notATime("25:00"))
        expectError("24:00", is: .notATime("24:00"))
        expectError("tomorrow 25:00", is: .notATime("25:00"))
        expectError("fri 9:60", is: .notATime("9:60"))
        expectError("fri 9:0", is: .notATime("9:0"))
        expectError("fri 123:00", is: .notATime("123:00"))
        expectError("fri 9:00:00", is: .notATime("9:00:00"))
        expectError("fri a:00", is: .notATime("a:00"))
        expectError("friT25:00", is: .notATime("25:00"))
        expectError("2026-12-03T24:00", is: .notATime("24:00"))
        expectError(":", is: .notATime(":"))
    }

    @Test("a day beyond the years 1 to 9999 is out of range, however large the number")
    func outOfRange() {
        expectError("+9999999d", is: .outOfRange("+9999999d"))
        expectError("+99999999999999999999999999d", is: .outOfRange("+99999999999999999999999999d"))
        expectError("+999999w", is: .outOfRange("+999999w"))
        expectError("+99999999m", is: .outOfRange("+99999999m"))
        expectError("+99999m", is: .outOfRange("+99999m"))
        expectError("yesterday", at: at("0001-01-01"), is: .outOfRange("yesterday"))
        expectError("tomorrow", at: at("9999-12-31"), is: .outOfRange("tomorrow"))
        expectError("fri 9:00", at: at("9999-12-31"), is: .outOfRange("fri 9:00"))
        expectError("+1m", at: at("9999-12-15"), is: .outOfRange("+1m"))
        expectError("next week", at: at("9999-12-31"), is: .outOfRange("next week"))
        expectDate("+1d", at: at("9999-12-30"), is: "9999-12-31")
        expectDate("+11m", at: at("9999-01-31"), is: "9999-12-31")
    }

    @Test("error messages quote the value and say what is accepted")
    func messages() {
        #expect(DateError.notADate("soon").description.hasPrefix("not a date: 'soon' (expected today, tomorrow"))
        #expect(DateError.notADate("soon").description.contains("next week, next month, in 3 days, +3d, -1d, +2w, +1m, +1y, eow, eom"))
        #expect(DateError.noSuchDay("2026-02-30").description == "no such day: '2026-02-30'")
        #expect(DateError.notATime("25:00").description.hasPrefix("not a time: '25:00' (expected H:MM or HH:MM"))
        #expect(DateError.outOfRange("+9999999d").description == "date out of range: '+9999999d' (years 1 to 9999)")
    }
}

@Suite("relative rendering")
struct RelativeRenderingTests {
    private func text(_ iso: String, at now: Now = friday, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard let due = DueDate(iso: iso) else {
            Issue.record("bad test date \(iso)", sourceLocation: sourceLocation)
            return ""
        }
        return due.relativeText(to: now)
    }

    @Test("today, tomorrow and yesterday in words")
    func nearDays() {
        #expect(text("2026-07-17") == "today")
        #expect(text("2026-07-18") == "tomorrow")
        #expect(text("2026-07-16") == "yesterday")
    }

    @Test("the weekday for two to six days ahead, then month and day")
    func weekAhead() {
        #expect(text("2026-07-19") == "Sun")
        #expect(text("2026-07-20") == "Mon")
        #expect(text("2026-07-23") == "Thu")
        #expect(text("2026-07-24") == "Jul 24")
        #expect(text("2027-01-02", at: at("2026-12-30")) == "Sat")
    }

    @Test("older past dates show month and day, the year only when it differs")
    func past() {
        #expect(text("2026-07-15") == "Jul 15")
        #expect(text("2026-07-11") == "Jul 11")
        #expect(text("2026-01-01") == "Jan 1")
        #expect(text("2025-11-28") == "Nov 28 2025")
        #expect(text("2026-12-31", at: at("2027-01-01")) == "yesterday")
    }

    @Test("later dates show month and day, the year only when it differs")
    func later() {
        #expect(text("2026-12-03") == "Dec 3")
        #expect(text("2027-12-03") == "Dec 3 2027")
        #expect(text("2027-01-05", at: at("2026-12-30")) == "Tue")
        #expect(text("2027-01-06", at: at("2026-12-30")) == "Jan 6 2027")
        #expect(text("2026-07-17T09:30") == "today 09:30")
    }

    @Test("a time is appended in 24-hour form")
    func times() {
        #expect(text("2026-07-17T09:30") == "today 09:30")
        #expect(text("2026-07-18T00:05") == "tomorrow 00:05")
        #expect(text("2026-07-21T17:00") == "Tue 17:00")
        #expect(text("2026-11-28T23:59") == "Nov 28 23:59")
    }

    @Test("every month has its abbreviation")
    func monthNames() throws {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        for (i, name) in names.enumerated() {
            #expect(try #require(Day(year: 2030, month: i + 1, day: 9)).monthAbbreviation == name)
        }
    }
}

@Suite("overdue and due today")
struct UrgencyTests {
    private func due(_ iso: String) throws -> DueDate { try #require(DueDate(iso: iso)) }

    @Test("a date-only due is overdue from the next day")
    func dateOnly() throws {
        #expect(try !due("2026-07-17").isOverdue(at: friday))
        #expect(try !due("2026-07-17").isOverdue(at: at("2026-07-17T23:59")))
        #expect(try due("2026-07-17").isOverdue(at: at("2026-07-18T00:00")))
        #expect(try due("2026-07-16").isOverdue(at: friday))
        #expect(try due("2025-12-31").isOverdue(at: friday))
        #expect(try !due("2026-07-18").isOverdue(at: friday))
    }

    @Test("a due with a time is overdue from that very minute")
    func withTime() throws {
        #expect(try due("2026-07-17T10:29").isOverdue(at: friday))
        #expect(try due("2026-07-17T10:30").isOverdue(at: friday))
        #expect(try !due("2026-07-17T10:31").isOverdue(at: friday))
        #expect(try due("2026-07-16T23:59").isOverdue(at: friday))
        #expect(try !due("2026-07-18T00:00").isOverdue(at: friday))
    }

    @Test("due today or earlier ignores the time of day")
    func todayOrEarlier() throws {
        #expect(try due("2026-07-17T23:59").isDueTodayOrEarlier(at: friday))
        #expect(try due("2026-07-17").isDueTodayOrEarlier(at: friday))
        #expect(try due("2020-01-01").isDueTodayOrEarlier(at: friday))
        #expect(try !due("2026-07-18T00:00").isDueTodayOrEarlier(at: friday))
        #expect(try !due("2026-07-18").isDueTodayOrEarlier(at: friday))
    }
}

/// The date words of a new user's first hour: `in 3 days`, `next friday`, `dec 24`, `5pm`,
/// `tonight`, `+1y`, `-1d`, unpadded ISO dates. Each row is (word, now, the due it gives), the due
/// worked out by hand from the calendar (2026-07-17 is a Friday, 2026-12-31 a Thursday).
@Suite("more date words")
struct MoreDateWordsTests {
    static let cases: [(word: String, now: String, due: String)] = [
        // in N days, weeks, months, years; the hyphenated spelling of titles.
        ("in 3 days", "2026-07-17T10:30", "2026-07-20"),
        ("in 1 day", "2026-07-17T10:30", "2026-07-18"),
        ("in-3-days", "2026-07-17T10:30", "2026-07-20"),
        ("In 2 Weeks", "2026-07-17T10:30", "2026-07-31"),
        ("in-2-weeks", "2026-12-31T23:59", "2027-01-14"),
        ("in 1 month", "2026-01-31T00:01", "2026-02-28"),
        ("in 2 years", "2028-02-29T12:00", "2030-02-28"),
        ("in 0 days", "2026-07-17T10:30", "2026-07-17"),
        ("in 3 days 9:00", "2026-07-17T10:30", "2026-07-20T09:00"),
        ("in-3-daysT9:00", "2026-07-17T10:30", "2026-07-20T09:00"),
        // next friday: the next Friday strictly after today, like fri.
        ("next friday", "2026-07-17T10:30", "2026-07-24"),
        ("next fri", "2026-07-16T23:59", "2026-07-17"),
        ("next-friday", "2026-12-31T00:01", "2027-01-01"),
        ("next monday 8:00", "2026-07-17T10:30", "2026-07-20T08:00"),
        // next month: its first day.
        ("next month", "2026-07-17T10:30", "2026-08-01"),
        ("next-month", "2026-12-31T23:59", "2027-01-01"),
        ("next month", "2026-01-31T00:01", "2026-02-01"),
        // A month and a day: this year if still to come (today counts), else next year.
        ("dec 24", "2026-07-17T10:30", "2026-12-24"),
        ("24 dec", "2026-07-17T10:30", "2026-12-24"),
        ("december 24", "2026-07-17T10:30", "2026-12-24"),
        ("December 24", "2026-12-24T23:59", "2026-12-24"),
        ("dec-24", "2026-12-25T00:01", "2027-12-24"),
        ("24-dec", "2026-12-31T23:59", "2027-12-24"),
        ("jan 1", "2026-12-31T23:59", "2027-01-01"),
        ("jan 1", "2027-01-01T00:01", "2027-01-01"),
        ("sept 5", "2026-07-17T10:30", "2026-09-05"),
        ("may 5", "2026-07-17T10:30", "2027-05-05"),
        ("feb 29", "2026-07-17T10:30", "2028-02-29"),
        ("feb 29", "2028-02-29T23:59", "2028-02-29"),
        ("feb 29", "2028-03-01T00:01", "2032-02-29"),
        ("dec 24 17:30", "2026-07-17T10:30", "2026-12-24T17:30"),
        ("dec-24T9am", "2026-07-17T10:30", "2026-12-24T09:00"),
        // Times alone: today if still to come, else tomorrow.
        ("9am", "2026-07-17T00:01", "2026-07-17T09:00"),
        ("9am", "2026-07-17T10:30", "2026-07-18T09:00"),
        ("5pm", "2026-07-17T10:30", "2026-07-17T17:00"),
        ("5PM", "2026-12-31T23:59", "2027-01-01T17:00"),
        ("17:30", "2026-07-17T17:29", "2026-07-17T17:30"),
        ("17:30", "2026-07-17T17:30", "2026-07-18T17:30"),
        ("0:00", "2026-07-17T00:01", "2026-07-18T00:00"),
        ("23:59", "2026-07-17T23:59", "2026-07-18T23:59"),
        ("00:01", "2026-07-31T23:59", "2026-08-01T00:01"),
        ("12am", "2026-07-17T10:30", "2026-07-18T00:00"),
        ("12pm", "2026-07-17T10:30", "2026-07-17T12:00"),
        ("9:30am", "2026-07-17T00:01", "2026-07-17T09:30"),
        ("11:59pm", "2026-07-17T23:58", "2026-07-17T23:59"),
        // Times after a day word.
        ("tomorrow 9am", "2026-07-17T10:30", "2026-07-18T09:00"),
        ("fri 5pm", "2026-07-17T10:30", "2026-07-24T17:00"),
        ("friT5pm", "2026-07-17T10:30", "2026-07-24T17:00"),
        ("today 5pm", "2026-07-17T23:59", "2026-07-17T17:00"),
        // tonight: today at 18:00, whatever the hour; a time given wins.
        ("tonight", "2026-07-17T00:01", "2026-07-17T18:00"),
        ("tonight", "2026-07-17T23:59", "2026-07-17T18:00"),
        ("Tonight 21:00", "2026-07-17T10:30", "2026-07-17T21:00"),
        // Years, and steps back.
        ("+1y", "2026-07-17T10:30", "2027-07-17"),
        ("+1y", "2028-02-29T10:30", "2029-02-28"),
        ("-1y", "2026-07-17T10:30", "2025-07-17"),
        ("-1d", "2026-07-17T10:30", "2026-07-16"),
        ("-1d", "2027-01-01T00:01", "2026-12-31"),
        ("-1D 9:00", "2026-03-01T23:59", "2026-02-28T09:00"),
        ("+3d", "2026-12-31T23:59", "2027-01-03"),
        ("-3d", "2026-03-01T00:01", "2026-02-26"),
        ("-2w", "2026-07-17T10:30", "2026-07-03"),
        ("-1m", "2026-03-31T10:30", "2026-02-28"),
        // ISO dates, with or without zero padding.
        ("2026-1-5", "2026-07-17T10:30", "2026-01-05"),
        ("2026-01-5", "2026-07-17T10:30", "2026-01-05"),
        ("2026-1-05T9:00", "2026-07-17T10:30", "2026-01-05T09:00"),
        ("2026-12-3 17:30", "2026-07-17T10:30", "2026-12-03T17:30"),
    ]

    @Test("each word gives its day at its pinned clock", arguments: cases)
    func word(word: String, now: String, due: String) {
        expectDate(word, at: at(now), is: due)
    }

    static let refused: [(word: String, error: DateError)] = [
        ("in 3", .notADate("in 3")),
        ("in three days", .notADate("in three days")),
        ("in 3 fortnights", .notADate("in 3 fortnights")),
        ("next", .notADate("next")),
        ("next year", .notADate("next year")),
        ("next dec", .notADate("next dec")),
        ("dec", .notADate("dec")),
        ("dec 24 2027", .notADate("dec 24 2027")),
        ("dec 024", .notADate("dec 024")),
        ("decem 24", .notADate("decem 24")),
        ("dec 32", .noSuchDay("dec 32")),
        ("feb 30", .noSuchDay("feb 30")),
        ("31 apr", .noSuchDay("31 apr")),
        ("13pm", .notATime("13pm")),
        ("0am", .notATime("0am")),
        ("17:30pm", .notATime("17:30pm")),
        ("tomorrow 9", .notADate("tomorrow 9")),
        ("9", .notADate("9")),
        ("2026-1-", .notADate("2026-1-")),
        ("2026-001-05", .notADate("2026-001-05")),
        ("2026-2-30", .noSuchDay("2026-2-30")),
        ("+1q", .notADate("+1q")),
        ("-1", .notADate("-1")),
        ("--1d", .notADate("--1d")),
        ("-99999999y", .outOfRange("-99999999y")),
        ("-1y", .outOfRange("-1y")),
    ]

    @Test("what is not a date word is refused, quoting the word", arguments: refused)
    func refusal(word: String, error: DateError) {
        // -1y is out of range only in year 1.
        expectError(word, at: word == "-1y" ? at("0001-06-01") : friday, is: error)
    }

    @Test("a month and day in the last year the calendar has: then out of range")
    func lastYear() {
        expectDate("dec 31", at: at("9999-12-31T23:59"), is: "9999-12-31")
        expectError("jan 1", at: at("9999-12-31T23:59"), is: .outOfRange("jan 1"))
        expectError("9am", at: at("9999-12-31T23:59"), is: .outOfRange("9am"))
    }
}

@Suite("--now in words")
struct NowWordsTests {
    /// The pretend system clock: Thursday 31 December 2026, 23:59.
    static let clock = at("2026-12-31T23:59")

    @Test("--now takes ISO dates as before, and date words relative to the clock", arguments: [
        ("2026-07-17", "2026-07-17T00:00"), ("2026-07-17T10:30", "2026-07-17T10:30"),
        ("tomorrow", "2027-01-01T00:00"), ("yesterday 9:00", "2026-12-30T09:00"), ("in 3 days", "2027-01-03T00:00"),
        ("5pm", "2027-01-01T17:00"), ("dec 24", "2027-12-24T00:00"), ("-1d", "2026-12-30T00:00"),
        ("2026-1-5", "2026-01-05T00:00"), ("tonight", "2026-12-31T18:00"),
    ])
    func words(text: String, expected: String) throws {
        #expect(try Now(option: text, clock: { Self.clock }).description == expected)
        #expect(try Now.resolve(option: text, environment: "2020-01-01", clock: { Self.clock }).description == expected)
    }

    @Test("a --now that is no date word is refused naming it; TICK_NOW stays ISO only",
          arguments: ["someday", "", "2026-02-30", "tomorrow 25:00", "+99999999d"])
    func refused(text: String) {
        #expect(throws: DateError.notANow(text, source: "--now")) { try Now(option: text, clock: { Self.clock }) }
        #expect(DateError.notANow(text, source: "--now").description
            == "--now is not a date: '\(text)' (expected a date word, YYYY-MM-DD or YYYY-MM-DDTHH:MM)")
        #expect(throws: DateError.notANow("tomorrow", source: "TICK_NOW")) {
            try Now.resolve(option: nil, environment: "tomorrow", clock: { Self.clock })
        }
    }
}
