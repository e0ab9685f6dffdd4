#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running tick process: its id, its environment, its signals and its exit.
public enum CurrentProcess {
    /// Its process id.
    public static var id: Int32 { getpid() }

    /// The environment as a dictionary (the first definition of a repeated name wins, as in `getenv`).
    public static var environment: [String: String] { environment(from: environ) }

    /// One entry of a C environment list: its bytes (`NAME=value`) and where its value starts.
    struct Entry: Sendable {
        var bytes: [UInt8]
        var valueStart: Int
        /// The value as text.
        var value: String { String(decoding: bytes[valueStart...], as: UTF8.self) }
    }

    /// This process's entries, by the name that `environment` gives them.
    static var entries: [String: Entry] { entries(from: environ) }

    /// The dictionary of a C environment list (`NAME=value` entries up to a null pointer): each
    /// entry is split at its first `=` as bytes, before any text is made of it.
    static func environment(from list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        entries(from: list).mapValues(\.value)
    }

    /// The entries of a C environment list by name, split as `environment(from:)` splits them; the
    /// first definition of a repeated name.
    static func entries(from list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: Entry] {
        var result: [String: Entry] = [:]
        var entry = list
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<eq]), as: UTF8.self)
                if result[name] == nil { result[name] = Entry(bytes: Array(bytes), valueStart: eq + 1) }
            }
            entry += 1
        }
        return result
    }

    /// Makes the signals that a write can raise into errors of that write: a reader that leaves
    /// early (`tick all | head`) is EPIPE (see `StandardStream`), and a file-size limit (`ulimit -f`)
    /// is EFBIG, reported like a full disk, instead of killing tick half-way through.
    public static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The path of the running binary (`/proc/self/exe` when it cannot be read).
    public static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return "/proc/self/exe" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
