import TickFormat

// A `rec:` rule as RFC 5545's `RRULE`: the nearest rule it can state. tick's exact rule travels
// beside it as `X-TICK-REC`, which wins on read-back unless the other side changed the `RRULE`.

public enum RecurrenceExport {
    /// The `RRULE` value for `rule` on a task due `due`, ended by `until`: `FREQ` and `INTERVAL` from
    /// the count and unit (`b`, business days, is every weekday for 1, whole weeks for a multiple of
    /// 5, else the nearest count of days); `UNTIL` in the form of `DUE` (a date, or the end of that
    /// day in floating time). The mode (from completion, from the due date) has no RFC 5545 form.
    public static func rule(_ rule: RecurrenceRule, until: Day?, due: DueDate) -> String {
        var parts: [String]
        switch rule.unit {
        case .day: parts = frequency("DAILY", rule.count)
        case .week: parts = frequency("WEEKLY", rule.count)
        case .month: parts = frequency("MONTHLY", rule.count)
        case .year: parts = frequency("YEARLY", rule.count)
        case .businessDay:
            if rule.count == 1 {
                parts = ["FREQ=WEEKLY", "BYDAY=MO,TU,WE,TH,FR"]
            } else if rule.count % 5 == 0 {
                parts = frequency("WEEKLY", rule.count / 5)
            } else {
                parts = frequency("DAILY", (rule.count * 7 + 2) / 5)
            }
        }
        if let until {
            parts.append("UNTIL=" + ICalendar.basic(until) + (due.minutes == nil ? "" : "T235959"))
        }
        return parts.joined(separator: ";")
    }

    private static func frequency(_ name: String, _ interval: Int) -> [String] {
        interval == 1 ? ["FREQ=" + name] : ["FREQ=" + name, "INTERVAL=\(interval)"]
    }
}
