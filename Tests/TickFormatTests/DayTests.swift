import Testing
@testable import TickFormat

/// `Day` and `DueDate` keep their fields in a few bytes: what they give back must be what they
/// were made from.
@Suite("days and due dates")
struct DayTests {
    @Test("every day from 0001-01-01 to 9999-12-31 counts to its number and back, in order")
    func everyDay() {
        let first = Day(year: 1, month: 1, day: 1)!.daysSinceEpoch
        let last = Day(year: 9999, month: 12, day: 31)!.daysSinceEpoch
        #expect(first == -719_162)
        var previous: Day? = nil
        var checked = 0
        for n in first...last {
            let day = Day(daysSinceEpoch: n)
            guard day.daysSinceEpoch == n, Day(year: day.year, month: day.month, day: day.day) == day,
                  previous.map({ $0 < day }) ?? true else {
                Issue.record("day \(n) reads as \(day)")
                return
            }
            previous = day
            checked += 1
        }
        #expect(checked == 3_652_059)
        #expect(Day(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(previous?.description == "9999-12-31")
    }

    @Test("a due date without a time differs from one at midnight, and sorts before it")
    func dueTimes() {
        let day = Day(year: 2026, month: 12, day: 3)!
        let plain = DueDate(day: day), midnight = DueDate(day: day, minutes: 0), late = DueDate(day: day, minutes: 1439)
        #expect(plain.minutes == nil && midnight.minutes == 0 && late.minutes == 1439)
        #expect(plain != midnight)
        #expect(plain < midnight && midnight < late)
        #expect(late.description == "2026-12-03T23:59")
    }

    @Test("a day beyond 32-bit years is held at the bound, not a crash")
    func farDay() {
        #expect(Day(daysSinceEpoch: 1_000_000_000_000).year == Int(Int32.max))
        #expect(Day(daysSinceEpoch: -1_000_000_000_000).year == Int(Int32.min))
    }
}
