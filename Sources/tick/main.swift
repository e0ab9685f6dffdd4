import TickCLI
import TickCore

// The `tick` executable: gathers this process's surroundings into a `Context` and runs the
// command line library in it. What is process-wide is done here: signals, the exit status.
CurrentProcess.ignoreWriteSignals()

let fileSystem = LocalFileSystem()
let context = Context(
    environment: CurrentProcess.environment,
    fileSystem: fileSystem,
    currentDirectory: (try? fileSystem.currentDirectory()) ?? "/",
    out: Output(.output),
    err: Output(.error, capacity: 4096),
    input: Input.standardInput(),
    terminals: TerminalFacts.ofProcess(),
    executable: CurrentProcess.executablePath)
// The runtime finds the command line through /proc on Linux: when reading it fails (EIO), it has
// none, not even the program's name. Never run then as if no argument had been given.
if CommandLine.arguments.isEmpty {
    context.err.write("tick: cannot read the command line; nothing done\n")
    context.err.flush()
    CurrentProcess.exit(3)
}
CurrentProcess.exit(Tick.main(arguments: Array(CommandLine.arguments.dropFirst()), context: context).rawValue)
