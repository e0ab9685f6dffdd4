#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

extension Subprocess {
    /// Starts `executable` (a path) with `arguments` (the first is its name) in `surroundings`
    /// (exactly their environment), never through a shell, waits for it and says how it ended. Its
    /// standard input is /dev/null; its output and error are this process's.
    public static func runWithoutInput(_ executable: String, arguments: [String],
                                       in surroundings: Surroundings) throws(Failure) -> Termination {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let pid = try spawn(executable, arguments: arguments, actions: &actions, in: surroundings)
        return try waitFor(pid)
    }

    /// Whether `path` names an executable regular file.
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
