import TickCore

CurrentProcess.ignoreWriteSignals()

let fileSystem = LocalFileSystem()
let context = Context(
    environment: CurrentProcess.environment,
    fileSystem: fileSystem,
    currentDirectory: (try? fileSystem.currentDirectory()) ?? "/",
    out: Output(.output),
    err: Output(.error, capacity: 4096))
CurrentProcess.exit(Tick.main(arguments: Array(CommandLine.arguments.dropFirst()), context: context).rawValue)
