#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Standard input, for a question asked on a terminal (`tick done --where …` asking before it
/// changes many tasks).
public enum StandardInput {
    /// Whether standard input is a terminal.
    public static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// One line typed, without its line feed; nil at the end of input or on an error. At most
    /// 1,024 bytes are kept.
    public static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0, tick_errno() == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 1024 { bytes.append(byte) }
        }
    }
}
