#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Runs another program and waits for it: the one place tick starts a process (the editor, git,
/// the merge driver's child).
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

    /// Where a child runs: exactly this environment (`NAME=value` entries) and this working folder.
    /// A command passes its own run's (the `Context`'s), never the process's: a run of the command
    /// line inside another program (the tests) has surroundings of its own.
    public struct Surroundings: Sendable {
        /// `NAME=value` entries, in this order, as the child gets them.
        var entries: [[UInt8]]
        /// The working folder, or nil for this process's.
        public var directory: String?

        /// The entries as text.
        public var environment: [String] { entries.map { String(decoding: $0, as: UTF8.self) } }

        public init(environment: [String], directory: String? = nil) {
            entries = environment.map { Array($0.utf8) }
            self.directory = directory
        }

        /// The surroundings of `environment` (entries sorted by name) and `directory`. A name whose
        /// value is the one this process has passes on this process's bytes, so that a value that
        /// is not UTF-8 (a path in another encoding) reaches the child as it reached tick.
        public init(environment: [String: String], directory: String? = nil) {
            self.init(environment: environment, directory: directory, own: CurrentProcess.entries)
        }

        /// As `init(environment:directory:)`, with `own` as this process's entries by name.
        init(environment: [String: String], directory: String?, own: [String: CurrentProcess.Entry]) {
            entries = environment.sorted { $0.key < $1.key }.map { name, value in
                if let entry = own[name], entry.value == value { return entry.bytes }
                return Array((name + "=" + value).utf8)
            }
            self.directory = directory
        }
    }

    /// Starts `executable` (an absolute path) with `arguments` (the first is its name, by custom the
    /// executable) in `surroundings`, waits for it and says how it ended. Its standard input, output
    /// and error are this process's.
    public static func run(_ executable: String, arguments: [String], in surroundings: Surroundings) throws(Failure) -> Termination {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let pid = try spawn(executable, arguments: arguments, actions: &actions, in: surroundings)
        return try waitFor(pid)
    }

    /// Starts `executable` with `arguments`, `actions` and `surroundings`; its process id. The
    /// child keeps standard input, output and error (as `actions` leave them) and no other
    /// descriptor: not one that another thread has open at that moment (where the C library can
    /// close them: glibc 2.34 and later).
    static func spawn(_ executable: String, arguments: [String], actions: inout posix_spawn_file_actions_t,
                      in surroundings: Surroundings) throws(Failure) -> pid_t {
        if let directory = surroundings.directory {
            let added = tick_spawn_add_chdir(&actions, directory)
            guard added == 0 else { throw Failure(operation: "start", code: added) }
        }
        let closing = tick_spawn_add_close_from(&actions, 3)
        guard closing == 0 || closing == ENOSYS else { throw Failure(operation: "start", code: closing) }
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = surroundings.entries.map { entry in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: entry.count + 1)
            entry.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: entry.count) }
            }
            copy[entry.count] = 0
            return copy
        } + [nil]
        defer { cEnvironment.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw Failure(operation: "start", code: spawned) }
        return pid
    }

    /// Waits for the child `pid` to end and says how it ended.
    static func waitFor(_ pid: pid_t) throws(Failure) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            let code = tick_errno()
            guard code == EINTR else { throw Failure(operation: "wait for", code: code) }
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// What a program printed on its standard output, and how it ended.
    public struct Captured: Sendable {
        public var termination: Termination
        public var output: [UInt8]
    }

    /// Starts `executable` (an absolute path) with `arguments` (the first is its name) in
    /// `surroundings`, reads its standard output to the end and waits for it. Its standard error goes
    /// to this process's, or to /dev/null when `quiet`. Nil when it could not be started or waited for.
    public static func capture(_ executable: String, arguments: [String], quiet: Bool,
                               in surroundings: Surroundings) -> Captured? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        return spawnReading(executable, arguments: arguments, actions: &actions, in: surroundings,
                            output: pipeEnds[0], childEnds: [pipeEnds[1]])
    }

    /// Starts `executable` with `actions`, closes `childEnds` (the pipe ends only the child uses)
    /// once it is started, reads `output` to its end and waits for it. Nil when it could not be
    /// started or waited for. `output` is closed in every case.
    static func spawnReading(_ executable: String, arguments: [String], actions: inout posix_spawn_file_actions_t,
                             in surroundings: Surroundings, output: Int32, childEnds: [Int32]) -> Captured? {
        let spawned = try? spawn(executable, arguments: arguments, actions: &actions, in: surroundings)
        for end in childEnds { close(end) }
        guard let pid = spawned else {
            close(output)
            return nil
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes += buffer[0..<n]
            } else if n == 0 || tick_errno() != EINTR {
                break
            }
        }
        close(output)
        guard let termination = try? waitFor(pid) else { return nil }
        return Captured(termination: termination, output: bytes)
    }

    /// The first executable file named `name` in the folders of `searchPath` (a `PATH` value;
    /// relative folders are skipped), or nil.
    public static func find(_ name: String, searchPath: String?) -> String? {
        guard let searchPath else { return nil }
        for dir in searchPath.split(separator: ":") where dir.hasPrefix("/") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
