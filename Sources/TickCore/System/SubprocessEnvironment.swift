#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

extension Subprocess {
    /// Starts `executable` (a path) with `arguments` (the first is its name) and exactly the
    /// environment `environment` (`NAME=value` entries), never through a shell, waits for it and says
    /// how it ended. Its standard input is /dev/null; its output and error are this process's.
    public static func run(_ executable: String, arguments: [String], environment: [String]) throws(Failure) -> Termination {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw Failure(operation: "start", code: spawned) }
        return try waitFor(pid)
    }

    /// Whether `path` names an executable regular file.
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
