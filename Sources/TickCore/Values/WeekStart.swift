import TickFormat

/// The first day of the week (`week-start` in a configuration file): it decides the day `eow`
/// and `next week` name, and where the Scheduled view's weekday headings stop.
public enum WeekStart: String, CaseIterable, Sendable, Hashable {
    case monday
    case sunday

    /// The weekday (1 Monday … 7 Sunday) that starts the week.
    public var firstWeekday: Int { self == .monday ? 1 : 7 }

    /// The weekday (1 Monday … 7 Sunday) that ends the week.
    public var lastWeekday: Int { self == .monday ? 7 : 6 }

    /// Days from `day` to the last day of its week: 0 on that day itself.
    public func daysToWeekEnd(from day: Day) -> Int { (lastWeekday - day.weekday + 7) % 7 }
}
