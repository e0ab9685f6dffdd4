#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TickFormat

/// The local time zone (`TZ`, else the system's), for the few places that must turn floating local
/// time into UTC: the `COMPLETED` time of a calendar export.
public enum LocalTimeZone {
    /// Seconds since the epoch (UTC) of `minutes` after midnight of `day` in local time, or nil when
    /// the C library cannot convert it. A time that a clock change skips or repeats is taken as
    /// `mktime` takes it with daylight saving time unknown.
    public static func seconds(day: Day, minutes: Int = 0) -> Int? {
        tzset()
        var parts = tm()
        parts.tm_year = Int32(day.year - 1900)
        parts.tm_mon = Int32(day.month - 1)
        parts.tm_mday = Int32(day.day)
        parts.tm_hour = Int32(minutes / 60)
        parts.tm_min = Int32(minutes % 60)
        parts.tm_isdst = -1
        let result = mktime(&parts)
        return result == -1 && parts.tm_year != 69 ? nil : Int(result)
    }
}
