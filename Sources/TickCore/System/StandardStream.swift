#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Standard output or standard error: whether it is a terminal, how wide the terminal is, and
/// writing bytes to it. The only place the command line's output meets the system.
public enum StandardStream: Sendable {
    case output, error

    var descriptor: Int32 {
        switch self {
        case .output: return STDOUT_FILENO
        case .error: return STDERR_FILENO
        }
    }

    /// Whether the stream is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// The terminal's width in columns, or nil when the stream is not a terminal or does not say.
    public var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// How a write ended.
    public enum WriteResult: Equatable, Sendable {
        /// Every byte was written.
        case written
        /// The reader went away (EPIPE: `tick all | head`).
        case closed
        /// Another failure, with its errno.
        case failed(Int32)
    }

    /// Writes all of `bytes`, retrying a write that was interrupted or would block.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) -> WriteResult {
        guard let base = bytes.baseAddress else { return .written }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if n >= 0 { offset += n; continue }
            let code = tick_errno()
            if code == EINTR || code == EAGAIN { continue }
            return code == EPIPE ? .closed : .failed(code)
        }
        return .written
    }
}
