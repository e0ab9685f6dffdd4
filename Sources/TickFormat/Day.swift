/// A calendar day in the proleptic Gregorian calendar, with no time zone.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Eight bytes, not three integers' twenty-four: a task holds seven days (due, done, until,
    // scheduled, start, created, cancelled), and a list of a million tasks is parsed whole.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// Creates a day when the three numbers name a real date (no 30 February).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= Day.length(ofMonth: month, year: year) else { return nil }
        storedYear = Int32(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The day `n` days after 1970-01-01 (negative before it).
    public init(daysSinceEpoch n: Int) {
        // Howard Hinnant's civil-from-days algorithm.
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        // A year beyond 32 bits (a day 780 billion days away) is held at the bound: every day tick
        // reads or computes lies within the years 1 to 9999, or a cache record's 32-bit day count.
        storedYear = Int32(clamping: yoe + era * 400 + (m <= 2 ? 1 : 0))
        storedMonth = UInt8(m)
        storedDay = UInt8(d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    public var weekday: Int {
        let n = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
        return (n < 0 ? n + 7 : n) + 1
    }

    /// Days from 0001-01-01 to 1970-01-01: adding it makes every day's number non-negative.
    public static let firstDayOffset: Int64 = 719_162

    public func adding(days n: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + n) }

    /// The same day of the month `n` months later (earlier for a negative `n`), clamped to the
    /// target month's length, or nil when that month is outside the years 1 to 9999.
    ///
    /// The day number is kept, not the "last day of the month": 01-31 + 1 month is 02-28 (02-29 in
    /// a leap year), and 02-28 + 1 month is 03-28, as topydo and `dateutil.relativedelta` count.
    /// Every month step in tick (repeating tasks, date words, query month ranges) is this one.
    public func adding(months n: Int) -> Day? {
        let (shifted, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(n)
        guard !overflow, shifted >= 12, shifted < 10_000 * 12 else { return nil }
        let year = shifted / 12, month = shifted % 12 + 1
        return Day(year: year, month: month, day: Swift.min(day, Day.length(ofMonth: month, year: year)))
    }

    public static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (a: Day, b: Day) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        }
        // The common case, digit by digit: a date is written for every task a change writes.
        let digits = [year / 1000, year / 100 % 10, year / 10 % 10, year % 10, -3, month / 10, month % 10, -3, day / 10, day % 10]
        return String(decoding: digits.map { UInt8(0x30 + $0) }, as: UTF8.self)
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?<C: Collection<UInt8>>(iso bytes: C) {
        guard bytes.count == 10 else { return nil }
        // Read in place where the bytes are contiguous: every word of an imported line is tried as a date.
        guard let (y, m, d) = bytes.withContiguousStorageIfAvailable(Day.isoFields) ?? Array(bytes).withUnsafeBufferPointer(Day.isoFields)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The year, month and day of the ten bytes `YYYY-MM-DD`, not yet checked as a date.
    private static func isoFields(_ b: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = decimal(b[0..<4]), let m = decimal(b[5..<7]), let d = decimal(b[8..<10])
        else { return nil }
        return (y, m, d)
    }

    public init?(iso text: String) { self.init(iso: Array(text.utf8)) }
}

/// A due date: a day, optionally with a local time of day (floating: no time zone).
public struct DueDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let day: Day
    /// Minutes after midnight, or -1 without a time: two bytes, where an optional integer takes nine.
    private let storedMinutes: Int16

    /// Minutes after midnight, when a time was given.
    public var minutes: Int? { storedMinutes < 0 ? nil : Int(storedMinutes) }

    public init(day: Day, minutes: Int? = nil) {
        precondition(minutes.map { (0..<1440).contains($0) } ?? true, "time of day out of range")
        self.day = day
        storedMinutes = minutes.map { Int16($0) } ?? -1
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`.
    public init?<C: Collection<UInt8>>(iso bytes: C) {
        guard bytes.count == 10 || bytes.count == 16 else { return nil }
        if bytes.count == 10 {
            guard let day = Day(iso: bytes) else { return nil }
            self.init(day: day)
            return
        }
        let b = Array(bytes)
        if b.count == 16, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
                  let day = Day(iso: b[0..<10]),
                  let h = decimal(b[11..<13]), let m = decimal(b[14..<16]), h < 24, m < 60 {
            self.init(day: day, minutes: h * 60 + m)
        } else {
            return nil
        }
    }

    public init?(iso text: String) { self.init(iso: Array(text.utf8)) }

    /// A due date without a time sorts before one on the same day with a time.
    public static func < (a: DueDate, b: DueDate) -> Bool {
        if a.day != b.day { return a.day < b.day }
        return (a.minutes ?? -1) < (b.minutes ?? -1)
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`.
    public var description: String {
        guard let minutes else { return day.description }
        return day.description + "T" + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }
}

func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// The value of a run of ASCII digits, or nil when any byte is not a digit.
func decimal<C: Collection<UInt8>>(_ bytes: C) -> Int? {
    var n = 0
    for b in bytes {
        guard b >= 0x30, b <= 0x39 else { return nil }
        n = n * 10 + Int(b - 0x30)
    }
    return bytes.isEmpty ? nil : n
}
