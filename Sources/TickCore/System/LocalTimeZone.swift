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

    /// The local day and minute of the instant `seconds` after the epoch (UTC), for the formats
    /// that store UTC (Taskwarrior); nil when the C library cannot convert it.
    public static func local(fromUTC seconds: Int) -> (day: Day, minutes: Int)? {
        tzset()
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil,
              let day = Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        else { return nil }
        return (day, Int(parts.tm_hour) * 60 + Int(parts.tm_min))
    }

    /// The UTC calendar fields of an instant: year, month, day, hour, minute, second.
    public static func utcFields(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int)? {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// A calendar date and time as the C library's broken-down time.
    private static func brokenDown(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> tm {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return parts
    }

    /// Seconds after the epoch of a UTC calendar date and time; nil when out of range.
    public static func utcSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        var parts = brokenDown(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let seconds = timegm(&parts)
        return seconds == -1 ? nil : Int(seconds)
    }

    /// Seconds after the epoch of a wall-clock date and time in the IANA time zone `zone`
    /// (`Europe/Berlin`); nil when `zone` names no zone file of the system's time zone database
    /// (the C library would take an unknown name as UTC, silently). The C library converts: `TZ`
    /// is set to the zone for the call and put back after it (tick converts on one thread).
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, zone: String) -> Int? {
        guard isZoneName(zone), Posix.stat("/usr/share/zoneinfo/" + zone).map({ $0.st_mode & S_IFMT == S_IFREG }) == true
        else { return nil }
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", ":" + zone, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        var parts = brokenDown(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        parts.tm_isdst = -1
        let result = mktime(&parts)
        return result == -1 && parts.tm_year != 69 ? nil : Int(result)
    }

    /// A name of the time zone database's form: `Area/Location` words of letters, digits, `_`, `-`
    /// and `+`, no empty, hidden or `..` part, at most 64 bytes.
    static func isZoneName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return (1...64).contains(name.utf8.count) && parts.allSatisfy { part in
            !part.isEmpty && part.first != UInt8(ascii: ".") && part.first != UInt8(ascii: "-") && part.allSatisfy { c in
                (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                    || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
            }
        }
    }
}
