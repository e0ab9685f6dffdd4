import TickFormat

// Date words, "now" and relative rendering. Pure calendar arithmetic over `Day`; no Foundation.

// MARK: - Errors

/// Why a date, a time or a "now" value was refused. Each case quotes the offending text.
public enum DateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is none of the accepted date forms.
    case notADate(String)
    /// The text has the shape `YYYY-MM-DD` but names no real day (`2026-02-30`, `2026-13-01`).
    case noSuchDay(String)
    /// A numeric date of two numbers (`12/24`, `24/12`) without a `date.order` saying which is the month.
    case ambiguous(String)
    /// The time part is not `H:MM` or `HH:MM` between 0:00 and 23:59.
    case notATime(String)
    /// The date word is valid but the day it names falls outside the years 1 to 9999.
    case outOfRange(String)
    /// A "now" override that is not a date: `TICK_NOW` takes `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`,
    /// `--now` any date word as well.
    case notANow(String, source: String)

    /// The date forms a DATE argument accepts, for error messages and help.
    public static let acceptedForms =
        "today, tomorrow, yesterday, tonight, eod, a weekday (fri, friday, this friday, next friday), next week, "
        + "next month, in 3 days, +3d, -1d, +2w, +1m, +1y, eow, eom, a month and day (dec 24, 24 dec), "
        + "YYYY-MM-DD or YYYY-MM-DDTHH:MM, each optionally followed by a time such as 9:00 or 5pm, or a time alone"

    public var description: String {
        switch self {
        case .notADate(let text):
            return "not a date: '\(text)' (expected \(DateError.acceptedForms))"
        case .noSuchDay(let text):
            return "no such day: '\(text)'"
        case .ambiguous(let text):
            return "'\(text)' could be month/day or day/month: write the date as YYYY-MM-DD (ISO), or set "
                + "date.order = mdy or dmy in a configuration file"
        case .notATime(let text):
            return "not a time: '\(text)' (expected H:MM or HH:MM, from 0:00 to 23:59)"
        case .outOfRange(let text):
            return "date out of range: '\(text)' (years 1 to 9999)"
        case .notANow(let text, let source):
            let expected = source == "--now" ? "a date word, YYYY-MM-DD or YYYY-MM-DDTHH:MM" : "YYYY-MM-DD or YYYY-MM-DDTHH:MM"
            return "\(source) is not a date: '\(text)' (expected \(expected))"
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
    /// The minute `tonight` names, 0..<1440: 18:00 unless configured (`date.tonight`).
    public var tonight: Int = defaultTonight {
        didSet { precondition((0..<1440).contains(tonight), "tonight out of range") }
    }
    /// The first day of the week (`week-start`); nil when not configured, which counts as Monday
    /// for `eow` and `next week` and leaves the Scheduled view's weekday headings at six days.
    public var weekStart: WeekStart? = nil
    /// `tonight` when not configured: 18:00.
    public static let defaultTonight = 18 * 60
    /// The minute `eod` names, 0..<1440: 23:59 unless configured (`date.end-of-day`).
    public var endOfDay: Int = defaultEndOfDay {
        didSet { precondition((0..<1440).contains(endOfDay), "end of day out of range") }
    }
    /// `eod` when not configured: 23:59.
    public static let defaultEndOfDay = 23 * 60 + 59
    /// Which number of `12/24` is the month (`date.order`); nil refuses such a date as ambiguous.
    public var dateOrder: DateOrder? = nil

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
        let (local, seconds) = SystemClock.now()
        guard let local, let day = Day(year: local.year, month: local.month, day: local.day)
        else { return Now(day: Day(daysSinceEpoch: seconds / 86_400)) }
        return Now(day: day, minutes: min(local.hour, 23) * 60 + min(local.minute, 59))
    }

    /// Parses the `--now` option: `YYYY-MM-DD` (midnight), `YYYY-MM-DDTHH:MM`, or any date word of
    /// `DueDate(parsing:relativeTo:)` relative to `clock` (the system clock), at midnight of the
    /// day it names unless it carries a time (`tomorrow`, `fri 9:00`, `5pm`).
    public init(option text: String, clock: () -> Now = Now.system) throws(DateError) {
        if let due = DueDate(iso: text) {
            self.init(day: due.day, minutes: due.minutes ?? 0)
            return
        }
        guard let due = try? DueDate(parsing: text, relativeTo: clock()) else { throw .notANow(text, source: "--now") }
        self.init(day: due.day, minutes: due.minutes ?? 0)
    }

    /// The `--now` option when given (any date word), else a non-empty `TICK_NOW` (`YYYY-MM-DD` or
    /// `YYYY-MM-DDTHH:MM` only: it pins the clock), else the system clock.
    public static func resolve(option: String?, environment: String?, clock: () -> Now = Now.system) throws(DateError) -> Now {
        if let option { return try Now(option: option, clock: clock) }
        if let environment, !environment.isEmpty { return try Now(parsing: environment, source: "TICK_NOW") }
        return clock()
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
    /// Accepted, case-insensitive, surrounding whitespace ignored; a multi-word form may join its
    /// words with hyphens instead of spaces (`next-week`, `in-3-days`, `dec-24`), the spelling that
    /// fits in a `due:` token:
    /// - `today`, `tomorrow`, `yesterday`; `tonight`: today at `now.tonight` (18:00 unless configured);
    /// - a weekday name or its three-letter abbreviation (`fri`, `friday`), alone or after `next`
    ///   (`next friday`): the next such day strictly after today, so `fri` on a Friday is a week later;
    /// - `next week`: the next Monday, strictly after today; `next month`: the first day of next month;
    /// - `+Nd`, `+Nw`, `+Nm`, `+Ny` and `-Nd`, `-Nw`, `-Nm`, `-Ny`, and `in N days` (`day`, `weeks`,
    ///   `week`, `months`, `month`, `years`, `year`): N days, weeks, months or years ahead (or back);
    ///   a month or year step keeps the day of the month and clamps it to the target month's last day
    ///   (`+1m` from 31 January is 28 or 29 February);
    /// - `eow`: the coming Sunday, which is today on a Sunday; `eom`: this month's last day;
    /// - a month and a day, either way round (`dec 24`, `24 dec`, `december 24`): this year when that
    ///   day is today or still to come, else next year (the next year that has it, for 29 February);
    /// - `YYYY-MM-DD`, with or without zero padding (`2026-1-5`), and `YYYY-MM-DDTHH:MM`.
    ///
    /// Any of these may carry a time, after a space (`tomorrow 9:00`, `dec 24 5pm`) or after `T`
    /// (`friT17:30`, `dec-24T9am`). Times are `H:MM` or `HH:MM` (0:00 to 23:59) or a 12-hour time
    /// with `am` or `pm` (`9am`, `5pm`, `9:30am`, `12am` is midnight, `12pm` noon). A time alone
    /// (`17:30`, `9am`) is today when that minute is still to come, else tomorrow.
    /// `none` is not a date: the caller handles it.
    public init(parsing text: String, relativeTo now: Now) throws(DateError) {
        // `YYYY-MM-DD`, the date most often given (and every imported one), reads as the ISO day below does.
        if text.utf8.count == 10, let day = Day(iso: text.utf8) {
            self.init(day: day)
            return
        }
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
        if datePart.isEmpty, let minutes {
            let day = minutes > now.minutes ? now.day : try offsetDay(now.day, by: 1, text: text)
            self.init(day: day, minutes: minutes)
            return
        }
        let (day, defaultMinutes) = try parseDay(datePart, now: now, text: text)
        self.init(day: day, minutes: minutes ?? defaultMinutes)
    }
}

extension DueDate {
    /// Whether `word` has the shape of a time of the date words, valid or not: digits, a colon and
    /// digits (`9:00`, `25:00`), or digits, optionally with a colon and digits, then `am` or `pm`
    /// (`9am`, `5PM`, `9:30am`), so that a title's `due:fri 25:00` is refused, not half-read.
    public static func isTimeWord(_ word: String) -> Bool {
        var b = Array(word.lowercased().utf8)[...]
        if namedTime(b) != nil { return true }
        if b.count >= 3, b.last == UInt8(ascii: "m"), b[b.endIndex - 2] == UInt8(ascii: "a") || b[b.endIndex - 2] == UInt8(ascii: "p") {
            b = b.dropLast(2)
            if b.allSatisfy(isDigit), !b.isEmpty { return true }
        }
        guard let colon = b.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let hours = b[..<colon], minutes = b[(colon + 1)...]
        return !hours.isEmpty && !minutes.isEmpty && hours.allSatisfy(isDigit) && minutes.allSatisfy(isDigit)
    }
}


private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

private func trimWhitespace(_ bytes: inout [UInt8]) {
    while let last = bytes.last, isSpace(last) { bytes.removeLast() }
    let lead = bytes.prefix(while: isSpace).count
    bytes.removeFirst(lead)
}

/// Whether `b` has the shape of a time word: it holds a colon, or it is digits then `am` or `pm`.
/// Whether it is a valid time is `parseTime`'s question.
private func looksLikeTime(_ b: ArraySlice<UInt8>) -> Bool {
    if b.elementsEqual("noon".utf8) || b.elementsEqual("midnight".utf8) { return true }
    if b.contains(UInt8(ascii: ":")) { return true }
    guard let first = b.first, isDigit(first) else { return false }
    guard b.count >= 3, b.last == UInt8(ascii: "m"), b[b.endIndex - 2] == UInt8(ascii: "a") || b[b.endIndex - 2] == UInt8(ascii: "p")
    else { return false }
    return b.dropLast(2).allSatisfy(isDigit)
}

/// Splits `word[ time]` or `wordTtime` (already lower-cased) into the date part and the time part.
///
/// A time part is the last space-separated word when it looks like a time (holds a `:`, or is
/// digits then `am`/`pm`), or the text after the last `t` when that starts with a digit and looks
/// like a time, or the whole text when it starts with a digit or a colon and looks like one.
private func splitTime(_ b: [UInt8]) -> (date: [UInt8], time: [UInt8]?) {
    if let space = b.lastIndex(where: isSpace) {
        guard looksLikeTime(b[(space + 1)...]) else { return (b, nil) }
        var date = Array(b[..<space])
        trimWhitespace(&date)
        return (date, Array(b[(space + 1)...]))
    }
    if let t = b.lastIndex(of: UInt8(ascii: "t")), t + 1 < b.count, isDigit(b[t + 1]), looksLikeTime(b[(t + 1)...]) {
        return (Array(b[..<t]), Array(b[(t + 1)...]))
    }
    if let first = b.first, isDigit(first) || first == UInt8(ascii: ":") || namedTime(b[...]) != nil, looksLikeTime(b[...]) {
        return ([], b)
    }
    return (b, nil)
}

/// Minutes after midnight for `H:MM` or `HH:MM` within 0:00...23:59, or `H[:MM]am`/`pm` with the
/// hour from 1 to 12.
private func parseTime(_ b: [UInt8]) -> Int? {
    if let named = namedTime(b[...]) { return named }
    var b = b[...]
    var half: Int?
    if b.count >= 3, b.last == UInt8(ascii: "m"), b[b.endIndex - 2] == UInt8(ascii: "a") || b[b.endIndex - 2] == UInt8(ascii: "p") {
        half = b[b.endIndex - 2] == UInt8(ascii: "a") ? 0 : 12
        b = b.dropLast(2)
    }
    let h: Int, m: Int
    if let colon = b.firstIndex(of: UInt8(ascii: ":")) {
        guard b.endIndex - colon == 3, colon - b.startIndex >= 1, colon - b.startIndex <= 2,
              let hours = decimalValue(b[..<colon]), let mins = decimalValue(b[(colon + 1)...]), mins < 60
        else { return nil }
        h = hours
        m = mins
    } else {
        guard half != nil, b.count >= 1, b.count <= 2, let hours = decimalValue(b) else { return nil }
        h = hours
        m = 0
    }
    if let half {
        guard (1...12).contains(h) else { return nil }
        return ((h % 12) + half) * 60 + m
    }
    guard h < 24 else { return nil }
    return h * 60 + m
}

/// `noon` (12:00) and `midnight` (0:00, the start of a day).
private func namedTime(_ b: ArraySlice<UInt8>) -> Int? {
    if b.elementsEqual("noon".utf8) { return 12 * 60 }
    if b.elementsEqual("midnight".utf8) { return 0 }
    return nil
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

/// `day` moved by `n` days, within the years 1 to 9999.
private func offsetDay(_ day: Day, by n: Int, text: String) throws(DateError) -> Day {
    let target = day.daysSinceEpoch + n
    // Day 1 of year 1 and the last day of 9999, as days since the epoch.
    guard target >= -719_162, target <= 2_932_896 else { throw .outOfRange(text) }
    return Day(daysSinceEpoch: target)
}

/// The day a date word names, and the time it implies (`tonight`). `text` is the whole argument,
/// quoted by errors.
private func parseDay(_ b: [UInt8], now: Now, text: String) throws(DateError) -> (Day, Int?) {
    let today = now.day
    func offset(_ n: Int) throws(DateError) -> Day { try offsetDay(today, by: n, text: text) }
    if let iso = try isoDay(b, text: text) { return (iso, nil) }
    // Words, split at whitespace and at hyphens (a leading `-` is a sign).
    var words: [String] = []
    var current: [UInt8] = []
    for (i, byte) in b.enumerated() {
        if isSpace(byte) || (byte == UInt8(ascii: "-") && i > 0) {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current = []
        } else {
            current.append(byte)
        }
    }
    if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }

    func weekday(_ word: String) -> Int? {
        // Peers' longer abbreviations too: tues, weds, thur, thurs.
        let word = ["tues": "tue", "weds": "wed", "thur": "thu", "thurs": "thu"][word] ?? word
        return weekdayNames.firstIndex { $0.lowercased() == word || ($0.lowercased().prefix(3) == word && word.count == 3) }
    }
    func month(_ word: String) -> Int? {
        if word == "sept" { return 9 }
        return monthNames.firstIndex { $0.lowercased() == word || ($0.lowercased().prefix(3) == word && word.count == 3) }
            .map { $0 + 1 }
    }
    func nextWeekday(_ index: Int) throws(DateError) -> Day {
        let ahead = (index + 1 - today.weekday + 7) % 7
        return try offset(ahead == 0 ? 7 : ahead)
    }

    switch words.count {
    case 1:
        let word = words[0]
        switch word {
        case "today": return (today, nil)
        case "tonight": return (today, now.tonight)
        case "eod": return (today, now.endOfDay)
        case "tomorrow": return (try offset(1), nil)
        case "yesterday": return (try offset(-1), nil)
        case "eow": return (try offset((now.weekStart ?? .monday).daysToWeekEnd(from: today)), nil)
        case "eom": return (Day(year: today.year, month: today.month, day: Day.length(ofMonth: today.month, year: today.year))!, nil)
        default: break
        }
        if let index = weekday(word) { return (try nextWeekday(index), nil) }
        if let day = try numericDay(word, order: now.dateOrder, today: today, text: text) { return (day, nil) }
        let w = Array(word.utf8)
        if let sign = w.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), w.count >= 3 {
            let digits = w[1..<(w.count - 1)]
            guard digits.allSatisfy(isDigit) else { throw .notADate(text) }
            // More than 8 digits is far beyond 9999 years whatever the unit; don't let it overflow.
            guard digits.count <= 8, let n = decimalValue(digits) else { throw .outOfRange(text) }
            let unit = String(decoding: [w[w.count - 1]], as: UTF8.self)
            guard let day = try step(sign == UInt8(ascii: "+") ? n : -n, unit: unit, from: today, text: text) else {
                throw .notADate(text)
            }
            return (day, nil)
        }
    case 2:
        if words[0] == "next" {
            if words[1] == "week" { return (try offset((now.weekStart ?? .monday).daysToWeekEnd(from: today) + 1), nil) }
            if words[1] == "month" {
                let first = Day(year: today.year, month: today.month, day: 1)!
                return (try addingMonths(1, to: first, text: text), nil)
            }
            if let index = weekday(words[1]) { return (try nextWeekday(index), nil) }
        }
        if words[0] == "this", let index = weekday(words[1]) {
            // This week's coming one: today when today is that weekday.
            return (try offset((index + 1 - today.weekday + 7) % 7), nil)
        }
        let word = String(decoding: b, as: UTF8.self)
        if let m = month(words[0]), let d = dayOfMonth(words[1]) { return (try monthDay(m, d, today: today, word: word, text: text), nil) }
        if let m = month(words[1]), let d = dayOfMonth(words[0]) { return (try monthDay(m, d, today: today, word: word, text: text), nil) }
    case 3:
        if words[0] == "in", let n = count(words[1]) {
            let units = ["day": "d", "days": "d", "week": "w", "weeks": "w", "month": "m", "months": "m",
                         "year": "y", "years": "y"]
            if let unit = units[words[2]], let day = try step(n, unit: unit, from: today, text: text) {
                return (day, nil)
            }
        }
    default: break
    }
    throw .notADate(text)
}

/// `M/D` or `D/M` (1 or 2 digits each), and `M/D/YYYY` or `D/M/YYYY`: nil for another shape; with
/// no `order`, `ambiguous`. Without a year, this year when that day is today or still to come, else
/// next year.
private func numericDay(_ word: String, order: DateOrder?, today: Day, text: String) throws(DateError) -> Day? {
    let parts = word.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, parts[0].count <= 2, parts[1].count <= 2,
          parts.count == 2 || parts[2].count == 4,
          let a = Int(parts[0]), let b = Int(parts[1]), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else { return nil }
    guard let order else { throw .ambiguous(word) }
    let (m, d) = order == .mdy ? (a, b) : (b, a)
    guard (1...12).contains(m) else { throw .noSuchDay(word) }
    if parts.count == 3 {
        guard let year = Int(parts[2]), let day = Day(year: year, month: m, day: d) else { throw .noSuchDay(word) }
        return day
    }
    return try monthDay(m, d, today: today, word: word, text: text)
}

/// Which number of a numeric date is the month: `date.order` (`mdy`: 12/24; `dmy`: 24/12).
public enum DateOrder: String, Hashable, Sendable, CaseIterable {
    case mdy, dmy
}

/// A day of the month as typed: 1 or 2 digits.
private func dayOfMonth(_ word: String) -> Int? {
    guard (1...2).contains(word.utf8.count) else { return nil }
    return decimalValue(Array(word.utf8)[...])
}

/// A count of days, weeks, months or years as typed: up to 8 digits.
private func count(_ word: String) -> Int? {
    guard (1...8).contains(word.utf8.count) else { return nil }
    return decimalValue(Array(word.utf8)[...])
}

/// `n` days, weeks, months or years (`unit` d, w, m or y) from `day`; nil for another unit.
private func step(_ n: Int, unit: String, from day: Day, text: String) throws(DateError) -> Day? {
    switch unit {
    case "d": return try offsetDay(day, by: n, text: text)
    case "w": return try offsetDay(day, by: n * 7, text: text)
    case "m": return try addingMonths(n, to: day, text: text)
    case "y": return try addingMonths(n * 12, to: day, text: text)
    default: return nil
    }
}

/// `YYYY-M-D` (month and day of one or two digits); nil for another shape, `noSuchDay` for a
/// shape that names no real day.
private func isoDay(_ b: [UInt8], text: String) throws(DateError) -> Day? {
    let parts = b.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
          parts.allSatisfy({ $0.allSatisfy(isDigit) }),
          let year = decimalValue(parts[0]), let month = decimalValue(parts[1]), let day = decimalValue(parts[2])
    else { return nil }
    guard let result = Day(year: year, month: month, day: day) else {
        throw .noSuchDay(String(decoding: b, as: UTF8.self))
    }
    return result
}

/// Month `m`, day `d`: this year when that day is today or later, else the next year that has it.
/// `word` is the date part, quoted when no month has that day.
private func monthDay(_ m: Int, _ d: Int, today: Day, word: String, text: String) throws(DateError) -> Day {
    guard d >= 1, d <= Day.length(ofMonth: m, year: 2000) else { throw .noSuchDay(word) }
    // 29 February comes back within 8 years.
    for year in today.year...(today.year + 8) {
        guard year <= 9999 else { break }
        if let day = Day(year: year, month: m, day: d), day >= today { return day }
    }
    throw .outOfRange(text)
}

/// The same day of the month `n` months later (or earlier), clamped to that month's last day.
private func addingMonths(_ n: Int, to day: Day, text: String) throws(DateError) -> Day {
    guard let result = day.adding(months: n) else { throw .outOfRange(text) }
    return result
}

// MARK: - Rendering and urgency

extension Day {
    /// `Monday` … `Sunday`.
    public var weekdayName: String { weekdayNames[weekday - 1] }

    /// `Mon` … `Sun`.
    public var weekdayAbbreviation: String { String(weekdayName.prefix(3)) }

    /// `Jan` … `Dec`.
    public var monthAbbreviation: String { String(monthNames[month - 1].prefix(3)) }
}

private let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
private let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                          "October", "November", "December"]

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
            text = day.monthAndDay
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
    /// Written on bits rather than with `&&` and `||`, so that a pass over many records does not
    /// branch (and guess wrong) on each.
    @inlinable
    public static func isOverdue(day: Int32, minutes: Int16, today: Int32, nowMinutes: Int) -> Bool {
        let timed = Int(bit: day == today) & Int(bit: minutes >= 0) & Int(bit: Int(minutes) <= nowMinutes)
        return Int(bit: day != .min) & (Int(bit: day < today) | timed) != 0
    }

    /// Whether the due falls today or earlier (the Today view), whatever its time.
    public func isDueTodayOrEarlier(at now: Now) -> Bool { day <= now.day }
}

/// `HH:MM` for minutes after midnight.
private func timeText(_ minutes: Int) -> String {
    let h = minutes / 60, m = minutes % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
}

extension Int {
    /// 1 for true, 0 for false: for sums and masks that do not branch.
    @usableFromInline @inline(__always)
    init(bit: Bool) { self = bit ? 1 : 0 }
}
