#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

extension Subprocess {
    /// Starts `executable` (an absolute path) with `arguments` (the first is its name), gives it
    /// `input` on its standard input (small: it is written whole before the program runs), reads
    /// its standard output and error together to the end and waits for it. Nil when it could not
    /// be started or waited for. Never through a shell.
    public static func converse(_ executable: String, arguments: [String], input: [UInt8],
                                in surroundings: Surroundings) -> Captured? {
        precondition(input.count <= 4096, "input larger than a pipe's buffer")
        var inputEnds: [Int32] = [0, 0]
        var outputEnds: [Int32] = [0, 0]
        guard pipe(&inputEnds) == 0 else { return nil }
        guard pipe(&outputEnds) == 0 else {
            close(inputEnds[0])
            close(inputEnds[1])
            return nil
        }
        var offset = 0
        while offset < input.count {
            let n = input[offset...].withUnsafeBytes { write(inputEnds[1], $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else if tick_errno() != EINTR { break }
        }
        close(inputEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, inputEnds[0])
        posix_spawn_file_actions_addclose(&actions, outputEnds[0])
        posix_spawn_file_actions_addclose(&actions, outputEnds[1])
        return spawnReading(executable, arguments: arguments, actions: &actions, in: surroundings, output: outputEnds[0],
                            childEnds: [inputEnds[0], outputEnds[1]])
    }
}
