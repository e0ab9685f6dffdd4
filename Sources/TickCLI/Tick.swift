import TickCore

/// The top level: parse, run, and turn every outcome into output and an exit status.
public enum Tick {
    static let version = "0.1.0"

    /// Runs one command line (`arguments`, without the program's name) in `context` and returns
    /// its exit status; both outputs are flushed.
    public static func main(arguments: [String], context: Context) -> ExitStatus {
        var status: ExitStatus
        do {
            status = try execute(arguments, context: context)
        } catch {
            status = report(error, to: context.err)
        }
        context.out.flush()
        if let code = context.out.failure {
            let problem = FileSystemError(errno: code, path: "standard output", operation: "write")
            context.err.line("tick: cannot write to standard output: \(problem.reason)")
            status = .io
        }
        context.err.flush()
        return status
    }

    private static func execute(_ arguments: [String], context: Context) throws -> ExitStatus {
        // `tick __complete -- WORDS...` (which the completion scripts run) and `tick __manpage README`
        // (which make install runs) are in no help or completion.
        let root = [Commands.complete.name, Commands.manPage.name].contains(arguments.first ?? "") ? Commands.rootWithHidden : Commands.root
        let parsed = try ArgumentParser.parse(arguments, root: root, clock: context.clock)
        switch parsed {
        case .version:
            context.out.line("tick \(version)")
            return .success
        case .help(let path):
            context.out.write(HelpRenderer(width: helpWidth).text(for: path))
            return .success
        case .run(let path, let arguments, let global):
            // "Now", once per run: `--now` (a date word relative to the clock the parser read, with the
            // configured tonight), else TICK_NOW (an invalid one is bad input for every command), else the clock.
            let settings = readSettings(global, context: context)
            var now = try Now.resolve(option: global.now, environment: context.environment["TICK_NOW"], clock: {
                var clock = global.clockReading ?? context.clock()
                clock.tonight = settings.tonight ?? Now.defaultTonight
                clock.endOfDay = settings.endOfDay ?? Now.defaultEndOfDay
                clock.dateOrder = settings.dateOrder
                clock.weekStart = settings.weekStart
                return clock
            })
            now.tonight = settings.tonight ?? Now.defaultTonight
            now.endOfDay = settings.endOfDay ?? Now.defaultEndOfDay
            now.dateOrder = settings.dateOrder
            now.weekStart = settings.weekStart
            let invocation = Invocation(
                path: path, arguments: arguments, global: global, context: context,
                terminal: Terminal.detect(choice: colorChoice(global, settings, context.environment),
                                          environment: context.environment, facts: context.terminals),
                now: now, settings: settings)
            let snapshot = AutoCommit.before(invocation)
            let status = try path.last!.run!(invocation)
            if let snapshot { AutoCommit.after(snapshot, status: status, invocation: invocation) }
            return status
        }
    }

    /// The configuration files' settings (the user's, then the task folder's, which wins), read
    /// once; what tick ignored in them is a warning.
    private static func readSettings(_ global: GlobalOptions, context: Context) -> Settings {
        var files = Configuration.userFile(environment: context.environment).map { [$0] } ?? []
        if let location = try? FolderLocation.locate(option: global.dir, environment: context.environment,
                                                     currentDirectory: context.currentDirectory,
                                                     fileSystem: context.fileSystem), location.exists {
            files.append(Configuration.folderFile(in: location.path))
        }
        let (settings, warnings) = Configuration.read(files, fileSystem: context.fileSystem)
        for warning in warnings { context.err.line("tick: warning: " + warning) }
        return settings
    }

    /// `--color`, else `NO_COLOR` (through `auto`), else the `color` setting, else `auto`.
    private static func colorChoice(_ global: GlobalOptions, _ settings: Settings, _ environment: [String: String]) -> ColorChoice {
        if let color = global.color { return color }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .auto }
        return settings.color.flatMap(ColorChoice.init(rawValue:)) ?? .auto
    }

    /// Help is wrapped at a fixed width, so that it reads the same everywhere.
    static let helpWidth = 80
}
