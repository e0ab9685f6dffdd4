#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Date words, "now" and relative rendering. Pure calendar arithmetic over `Day`; no Foundation.

// MARK: - Errors

/// Why a date, a time or a "now" value was refused. Each case quotes the offending text.
public enum DateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is none of the accepted date forms.
    case notADate(String)
    /// The text has the shape `YYYY-MM-DD` but names no real day (`2026-02-30`, `2026-13-01`).
    case noSuchDay(String)
    /// The time part is not `H:MM` or `HH:MM` between 0:00 and 23:59.
    case notATime(String)
    /// The date word is valid but the day it names falls outside the years 1 to 9999.
    case outOfRange(String)
    /// A "now" override (`--now`, `TICK_NOW`) that is not `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`.
    case notANow(String, source: String)

    /// The date forms a DATE argument accepts, for error messages and help.
    public static let acceptedForms =
        "today, tomorrow, yesterday, a weekday (fri or friday), next week, +3d, +2w, +1m, eow, eom, "
        + "YYYY-MM-DD or YYYY-MM-DDTHH:MM, each optionally followed by a time such as 9:00"

    public var description: String {
        switch self {
        case .notADate(let text):
            return "not a date: '\(text)' (expected \(DateError.acceptedForms))"
        case .noSuchDay(let text):
            return "no such day: '\(text)'"
        case .notATime(let text):
            return "not a time: '\(text)' (expected H:MM or HH:MM, from 0:00 to 23:59)"
        case .outOfRange(let text):
            return "date out of range: '\(text)' (years 1 to 9999)"
        case .notANow(let text, let source):
            return "\(source) is not a date: '\(text)' (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM)"
        }
    }
}

// MARK: - Now

/// The current local date and time of day (floating: no time zone), to the minute.
///
/// Every date rule takes a `Now` as a parameter so that tests can pin it.
public struct Now: Hashable, Sendable, CustomStringConvertible {
    public let day: Day
    /// Minutes after midnight, 0..<1440.
    public let minutes: Int

    public init(day: Day, minutes: Int = 0) {
        precondition((0..<1440).contains(minutes), "time of day out of range")
        self.day = day
        self.minutes = minutes
    }

    /// Parses `YYYY-MM-DD` (midnight, the start of that day) or `YYYY-MM-DDTHH:MM`.
    ///
    /// `source` names where the text came from (`--now`, `TICK_NOW`) in the error.
    public init(parsing text: String, source: String = "--now") throws(DateError) {
        guard let due = DueDate(iso: text) else { throw .notANow(text, source: source) }
        self.init(day: due.day, minutes: due.minutes ?? 0)
    }

    /// The system clock in local time.
    public static func system() -> Now {
        tzset()
        var seconds = time(nil)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil,
              let day = Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        else { return Now(day: Day(daysSinceEpoch: Int(seconds) / 86_400)) }
        let minutes = min(Int(parts.tm_hour), 23) * 60 + min(Int(parts.tm_min), 59)
        return Now(day: day, minutes: minutes)
    }

    /// The `--now` option when given, else a non-empty `TICK_NOW`, else the system clock.
    public static func resolve(option: String?, environment: String?) throws(DateError) -> Now {
        if let option { return try Now(parsing: option, source: "--now") }
        if let environment, !environment.isEmpty { return try Now(parsing: environment, source: "TICK_NOW") }
        return system()
    }

    /// Today as a due date with the current minute.
    public var dueDate: DueDate { DueDate(day: day, minutes: minutes) }

    /// Whole days from today to `other` (negative in the past).
    public func days(until other: Day) -> Int { other.daysSinceEpoch - day.daysSinceEpoch }

    /// `YYYY-MM-DDTHH:MM`.
    public var description: String { dueDate.description }
}

// MARK: - Date words

extension DueDate {
    /// Parses a DATE argument relative to `now`.
    ///
    /// Accepted, case-insensitive, surrounding whitespace ignored:
    /// - `today`, `tomorrow`, `yesterday`;
    /// - a weekday name or its three-letter abbreviation (`fri`, `friday`): the next such day strictly
    ///   after today, so `fri` on a Friday is a week later;
    /// - `next week` (also `next-week`, usable inside a `due:` token): the next Monday, strictly after today;
    /// - `+Nd`, `+Nw`, `+Nm`: N days, weeks or months ahead; a month step keeps the day of the month
    ///   and clamps it to the target month's last day (`+1m` from 31 January is 28 or 29 February);
    /// - `eow`: the coming Sunday, which is today on a Sunday; `eom`: this month's last day;
    /// - `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM`.
    ///
    /// Any of these may carry a time, after a space (`tomorrow 9:00`, `next week 17:30`) or after `T`
    /// (`friT17:30`, the form that fits in a `due:` token). A time alone (`17:30`) means today at that time.
    /// Times are `H:MM` or `HH:MM`, 0:00 to 23:59. `none` is not a date: the caller handles it.
    public init(parsing text: String, relativeTo now: Now) throws(DateError) {
        var bytes = Array(text.utf8)
        trimWhitespace(&bytes)
        for i in bytes.indices where bytes[i] >= UInt8(ascii: "A") && bytes[i] <= UInt8(ascii: "Z") {
            bytes[i] += 32
        }
        let (datePart, timePart) = splitTime(bytes)
        var minutes: Int?
        if let timePart {
            guard let m = parseTime(timePart) else { throw .notATime(String(decoding: timePart, as: UTF8.self)) }
            minutes = m
        }
        let day: Day
        if datePart.isEmpty, timePart != nil {
            day = now.day
        } else {
            day = try parseDay(datePart, now: now, text: text)
        }
        self.init(day: day, minutes: minutes)
    }
}

private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

private func trimWhitespace(_ bytes: inout [UInt8]) {
    while let last = bytes.last, isSpace(last) { bytes.removeLast() }
    let lead = bytes.prefix(while: isSpace).count
    bytes.removeFirst(lead)
}

/// Splits `word[ time]` or `wordTtime` (already lower-cased) into the date part and the time part.
///
/// A time part is recognised by its colon: the last space-separated word when it holds a `:`, or the
/// text after the last `t` when that text starts with a digit and holds a `:`, or the whole text when it
/// is only digits and colons.
private func splitTime(_ b: [UInt8]) -> (date: [UInt8], time: [UInt8]?) {
    let colon = UInt8(ascii: ":")
    if let space = b.lastIndex(where: isSpace) {
        let last = Array(b[(space + 1)...])
        guard last.contains(colon) else { return (b, nil) }
        var date = Array(b[..<space])
        trimWhitespace(&date)
        return (date, last)
    }
    if let t = b.lastIndex(of: UInt8(ascii: "t")), t + 1 < b.count, isDigit(b[t + 1]), b[(t + 1)...].contains(colon) {
        return (Array(b[..<t]), Array(b[(t + 1)...]))
    }
    if b.contains(colon), b.allSatisfy({ isDigit($0) || $0 == colon }) {
        return ([], b)
    }
    return (b, nil)
}

/// Minutes after midnight for `H:MM` or `HH:MM` within 0:00...23:59.
private func parseTime(_ b: [UInt8]) -> Int? {
    guard b.count == 4 || b.count == 5, b[b.count - 3] == UInt8(ascii: ":") else { return nil }
    guard let h = decimalValue(b[..<(b.count - 3)]), let m = decimalValue(b[(b.count - 2)...]),
          h < 24, m < 60 else { return nil }
    return h * 60 + m
}

private func decimalValue(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard !bytes.isEmpty else { return nil }
    var n = 0
    for b in bytes {
        guard isDigit(b) else { return nil }
        n = n * 10 + Int(b - 0x30)
    }
    return n
}

/// The day a date word names. `text` is the whole argument, quoted by errors.
private func parseDay(_ b: [UInt8], now: Now, text: String) throws(DateError) -> Day {
    let word = String(decoding: b, as: UTF8.self)
    let today = now.day
    func offset(_ n: Int) throws(DateError) -> Day {
        let target = today.daysSinceEpoch + n
        // Day 1 of year 1 and the last day of 9999, as days since the epoch.
        guard target >= -719_162, target <= 2_932_896 else { throw .outOfRange(text) }
        return Day(daysSinceEpoch: target)
    }
    switch word {
    case "today": return today
    case "tomorrow": return try offset(1)
    case "yesterday": return try offset(-1)
    case "eow": return try offset(7 - today.weekday)
    case "eom": return Day(year: today.year, month: today.month, day: Day.length(ofMonth: today.month, year: today.year))!
    default: break
    }
    if word == "next week" || word == "next-week" || isNextWeek(b) {
        return try offset(8 - today.weekday)
    }
    let names = weekdayNames.map { $0.lowercased() }
    if let index = names.firstIndex(where: { $0 == word || ($0.prefix(3) == word && word.count == 3) }) {
        let ahead = (index + 1 - today.weekday + 7) % 7
        return try offset(ahead == 0 ? 7 : ahead)
    }
    if b.first == UInt8(ascii: "+"), b.count >= 3 {
        let digits = b[1..<(b.count - 1)]
        guard digits.allSatisfy(isDigit) else { throw .notADate(text) }
        // More than 8 digits is far beyond 9999 years whatever the unit; don't let it overflow.
        guard digits.count <= 8, let n = decimalValue(digits) else { throw .outOfRange(text) }
        switch b[b.count - 1] {
        case UInt8(ascii: "d"): return try offset(n)
        case UInt8(ascii: "w"): return try offset(n * 7)
        case UInt8(ascii: "m"): return try addingMonths(n, to: today, text: text)
        default: throw .notADate(text)
        }
    }
    if b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
       b.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || isDigit($0.element) }) {
        guard let day = Day(iso: b) else { throw .noSuchDay(word) }
        return day
    }
    throw .notADate(text)
}

/// `next` and `week` separated by any run of whitespace.
private func isNextWeek(_ b: [UInt8]) -> Bool {
    guard b.starts(with: Array("next".utf8)), b.count > 8, b.suffix(4).elementsEqual("week".utf8) else { return false }
    return b[4..<(b.count - 4)].allSatisfy(isSpace)
}

/// The same day of the month `n` months later, clamped to that month's last day.
private func addingMonths(_ n: Int, to day: Day, text: String) throws(DateError) -> Day {
    let index = day.year * 12 + (day.month - 1) + n
    let year = index / 12, month = index % 12 + 1
    guard year <= 9999 else { throw .outOfRange(text) }
    return Day(year: year, month: month, day: min(day.day, Day.length(ofMonth: month, year: year)))!
}

// MARK: - Rendering and urgency

extension Day {
    /// `Monday` … `Sunday`.
    public var weekdayName: String { weekdayNames[weekday - 1] }

    /// `Mon` … `Sun`.
    public var weekdayAbbreviation: String { String(weekdayName.prefix(3)) }

    /// `Jan` … `Dec`.
    public var monthAbbreviation: String { monthAbbreviations[month - 1] }
}

private let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
private let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

extension DueDate {
    /// The due date in words for a row, relative to `now`.
    ///
    /// `today`, `tomorrow`, `yesterday`; the weekday abbreviation (`Fri`) for the 2 to 6 days ahead;
    /// otherwise, past or future, the month and day (`Nov 28`) with the year added when it is not
    /// this year (`Dec 3 2027`). A due with a time adds it: `today 09:30`.
    public func relativeText(to now: Now) -> String {
        let delta = now.days(until: day)
        var text: String
        switch delta {
        case 0: text = "today"
        case 1: text = "tomorrow"
        case -1: text = "yesterday"
        case 2...6: text = day.weekdayAbbreviation
        default:
            text = day.monthAbbreviation + " " + String(day.day)
            if day.year != now.day.year { text += " " + String(day.year) }
        }
        if let minutes { text += " " + timeText(minutes) }
        return text
    }

    /// Whether the due has passed at `now`: a date-only due from the next day on, a due with a time
    /// from that very minute on.
    public func isOverdue(at now: Now) -> Bool {
        DueDate.isOverdue(day: Int32(day.daysSinceEpoch), minutes: Int16(minutes ?? -1),
                          today: Int32(now.day.daysSinceEpoch), nowMinutes: now.minutes)
    }

    /// The overdue rule, the one place it is written, on a record's numbers: a due `day` (days since
    /// 1970-01-01, `.min` for none) before `today`, or today with a due time (`minutes` after
    /// midnight, -1 for none) not after `nowMinutes`.
    @inlinable
    public static func isOverdue(day: Int32, minutes: Int16, today: Int32, nowMinutes: Int) -> Bool {
        day != .min && (day < today || (day == today && minutes >= 0 && Int(minutes) <= nowMinutes))
    }

    /// Whether the due falls today or earlier (the Today view), whatever its time.
    public func isDueTodayOrEarlier(at now: Now) -> Bool { day <= now.day }
}

/// `HH:MM` for minutes after midnight.
private func timeText(_ minutes: Int) -> String {
    let h = minutes / 60, m = minutes % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
}
