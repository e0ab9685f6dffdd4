#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

extension StandardInput {
    /// The bytes that standard input has now, at most `limit`, waiting for some; empty at its end
    /// or on an error (`tick lsp` reads its messages so).
    public static func chunk(upTo limit: Int = 1 << 16) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, limit) }
            if n < 0, tick_errno() == EINTR { continue }
            guard n > 0 else { return [] }
            buffer.removeSubrange(n...)
            return buffer
        }
    }
}
