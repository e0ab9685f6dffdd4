import TickCore

/// `tick init [--git] [DIR]`: creates `DIR/.tick/` with its `.gitignore`; with `--git`, also keeps DIR in git.
@Sendable func runInit(_ invocation: Invocation) throws -> ExitStatus {
    let given = invocation.value(Commands.dirArgument) ?? invocation.global.dir ?? "."
    let path = Path.absolute(given, from: invocation.context.currentDirectory)
    let outcome = try Folder.initialize(at: path, fileSystem: invocation.fileSystem)
    if invocation.global.json {
        invocation.out.json(.object([("folder", .string(path)), ("created", .bool(outcome == .created))]))
    } else if !invocation.global.quiet {
        switch outcome {
        case .created: invocation.out.line("Initialized task folder \(path)")
        case .alreadyInitialized: invocation.out.line("\(path) is already a task folder")
        }
    }
    if invocation.flag(Commands.gitOption) {
        let inRepository = invocation.git(["rev-parse", "--show-toplevel"], in: path, quiet: true)?.succeeded ?? false
        if !inRepository {
            guard let made = invocation.git(["init", "--quiet", path], quiet: false), made.succeeded else {
                throw CommandFailure(.noRepository, "git init failed in '\(path)'")
            }
        }
        try setUpGit(root: path, invocation: invocation)
    }
    return .success
}
