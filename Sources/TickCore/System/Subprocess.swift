#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Runs another program and waits for it: the one place tick starts a process (the editor).
public enum Subprocess {
    /// How a program ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Why a program could not be run.
    public struct Failure: Error, Equatable, Sendable {
        /// "start" or "wait for".
        public var operation: String
        public var code: Int32
    }

    /// Starts `executable` (an absolute path) with `arguments` (the first is its name, by custom the
    /// executable) and this process's environment, waits for it and says how it ended.
    public static func run(_ executable: String, arguments: [String]) throws(Failure) -> Termination {
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, nil, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure(operation: "start", code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            let code = tick_errno()
            guard code == EINTR else { throw Failure(operation: "wait for", code: code) }
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
