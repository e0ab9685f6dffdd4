import TickCore

/// `tick init [DIR]`: creates `DIR/.tick/` with its `.gitignore`.
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
    return .success
}
