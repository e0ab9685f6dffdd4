/// A repetition rule: the value of a `rec:` token (FORMAT.md 5.10).
///
/// `rec:1w` repeats a week after each completion, `rec:+1w` a week after the old due date, and
/// `rec:++1w` on the first step of a week after the old due date that lands after today.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    /// What the next due date counts from.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// `rec:1w`: the completion day.
        case completion
        /// `rec:+1w`: the old due date, one step.
        case due
        /// `rec:++1w`: the old due date, as many steps as it takes to land after today.
        case future

        /// The prefix written before the count: none, `+` or `++`.
        public var prefix: String {
            switch self {
            case .completion: return ""
            case .due: return "+"
            case .future: return "++"
            }
        }
    }

    /// The unit of a step.
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        /// `d`: calendar days.
        case day = "d"
        /// `w`: weeks of seven days.
        case week = "w"
        /// `m`: calendar months (the day of the month kept, clamped to a shorter month's length).
        case month = "m"
        /// `y`: calendar years (twelve months).
        case year = "y"
        /// `b`: business days, Monday to Friday.
        case businessDay = "b"
    }

    /// The largest count a rule may have.
    public static let maximumCount = 999

    public let count: Int
    public let unit: Unit
    public let mode: Mode

    /// A rule of `count` (1 to 999) `unit`s in `mode`.
    public init?(count: Int, unit: Unit, mode: Mode) {
        guard (1...RecurrenceRule.maximumCount).contains(count) else { return nil }
        self.count = count
        self.unit = unit
        self.mode = mode
    }

    /// Parses a `rec:` value: an optional `+` or `++`, 1 to 3 digits (not all zero), and one of
    /// `d`, `w`, `m`, `y`, `b`.
    public init?<C: Collection<UInt8>>(value bytes: C) {
        var b = Array(bytes)[...]
        var mode = Mode.completion
        if b.first == UInt8(ascii: "+") {
            b = b.dropFirst()
            mode = .due
            if b.first == UInt8(ascii: "+") { b = b.dropFirst(); mode = .future }
        }
        guard let last = b.last, let unit = Unit(rawValue: String(decoding: [last], as: UTF8.self)) else { return nil }
        let digits = b.dropLast()
        guard (1...3).contains(digits.count), let count = decimal(digits) else { return nil }
        self.init(count: count, unit: unit, mode: mode)
    }

    public init?(value text: String) { self.init(value: Array(text.utf8)) }

    /// The value as tick writes it: `+1w`, `3b`, `++2m`.
    public var description: String { mode.prefix + String(count) + unit.rawValue }

    /// The `rec:` token.
    public var token: String { "rec:" + description }
}
