#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TickCore

// The pipe's reader may leave early (`tick all | head`): see EPIPE in `Output`, not a signal.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (`ulimit -f`) makes a write fail with EFBIG, reported like a full disk, instead
// of killing tick half-way through.
signal(SIGXFSZ, SIG_IGN)

let fileSystem = LocalFileSystem()
let context = Context(
    environment: processEnvironment(),
    fileSystem: fileSystem,
    currentDirectory: (try? fileSystem.currentDirectory()) ?? "/",
    out: Output(descriptor: STDOUT_FILENO),
    err: Output(descriptor: STDERR_FILENO, capacity: 4096))
exit(Tick.main(arguments: Array(CommandLine.arguments.dropFirst()), context: context).rawValue)

/// The environment as a dictionary (the first definition of a repeated name wins, as in `getenv`).
func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let eq = text.firstIndex(of: "=") {
            let name = String(text[..<eq])
            if result[name] == nil { result[name] = String(text[text.index(after: eq)...]) }
        }
        entry += 1
    }
    return result
}
