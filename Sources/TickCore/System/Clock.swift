#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system clock: the one place tick asks the operating system what time it is.
///
/// A run reads it once (`Now.resolve`, and `FileSystem.now()` for file times) and passes the
/// value down; nothing deeper reads the clock.
enum SystemClock {
    /// The date and time on the wall, in the local time zone (`TZ`, else the system's).
    struct LocalTime {
        var year: Int
        /// 1 to 12.
        var month: Int
        /// 1 to 31.
        var day: Int
        /// 0 to 23.
        var hour: Int
        /// 0 to 59.
        var minute: Int
    }

    /// The local date and time now, and the seconds since the epoch (UTC) it was read from;
    /// `local` is nil when the C library cannot convert them.
    static func now() -> (local: LocalTime?, seconds: Int) {
        tzset()
        var seconds = time(nil)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return (nil, Int(seconds)) }
        let local = LocalTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                              hour: Int(parts.tm_hour), minute: Int(parts.tm_min))
        return (local, Int(seconds))
    }

    /// Nanoseconds since 1970 by the real-time clock: the clock that file times are in.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
