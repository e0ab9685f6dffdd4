#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TickCore

/// The current local date and time: from `--now`, else `TICK_NOW`, else the system clock.
///
/// Read once, at the top, and passed down: nothing below the command line reads the clock.
enum Clock {
    /// Whether `text` is a valid `DATE[THH:MM]`.
    static func isValid(_ text: String) -> Bool { DueDate(iso: text) != nil }

    /// The moment a command works with, as a local day and minutes after midnight.
    static func now(option: String?, environment: [String: String]) throws -> DueDate {
        if let option {
            guard let moment = DueDate(iso: option) else {
                throw UsageError.invalidValue(option: "--now", value: option,
                                              reason: "expected YYYY-MM-DD or YYYY-MM-DDTHH:MM")
            }
            return moment
        }
        if let value = environment["TICK_NOW"], !value.isEmpty {
            guard let moment = DueDate(iso: value) else {
                throw UsageError.invalidValue(option: "TICK_NOW", value: value,
                                              reason: "expected YYYY-MM-DD or YYYY-MM-DDTHH:MM")
            }
            return moment
        }
        return system()
    }

    /// The system clock in the local time zone.
    static func system() -> DueDate {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let day = Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? Day(daysSinceEpoch: Int(seconds) / 86_400)
        return DueDate(day: day, minutes: Int(parts.tm_hour) * 60 + Int(parts.tm_min))
    }
}
