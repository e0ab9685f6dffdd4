import TickCore

/// One run of one command: what it was given and where it runs.
struct Invocation {
    /// The commands from the root to the one that runs.
    var path: [Command]
    var arguments: ParsedArguments
    var global: GlobalOptions
    var context: Context
    var terminal: Terminal
    /// The current moment, from `--now`, `TICK_NOW` or the clock: resolved once per run, so that
    /// every date rule of the command sees the same minute.
    var now: Now
    /// The configuration files' settings; options and environment variables beat them.
    var settings: Settings

    var command: Command { path.last! }
    /// What this run does to the task folder: the command's `Effect`, except that a writing command
    /// given `--dry-run` writes nothing, and runs as a read.
    var effect: Effect {
        command.effect == .write && arguments.flag(Option.dryRun) ? .read : command.effect
    }
    var out: Output { context.out }
    var err: Output { context.err }
    var fileSystem: any FileSystem { context.fileSystem }

    /// The value given to an option of this command, or nil.
    func value(_ key: ValueOption) -> String? {
        assertDeclared(key)
        return arguments.value(key.option.name)
    }

    /// Whether a flag of this command was given.
    func flag(_ key: Flag) -> Bool {
        assertDeclared(key)
        return arguments.flag(key.option.name)
    }

    /// Whether an option of this command (a flag, or one with a value) was given.
    func given(_ key: any OptionKey) -> Bool {
        assertDeclared(key)
        return arguments.flag(key.option.name)
    }

    /// The options of this command that were given, in the table's order.
    var givenOptions: [Option] { command.options.filter { arguments.flag($0.name) } }

    /// The word given for an argument of this command that takes at most one (nil only for an
    /// optional one left out).
    func value(_ argument: Argument) -> String? {
        assertDeclared(argument)
        return arguments.value(argument.name)
    }

    /// The words given for an argument of this command.
    func values(_ argument: Argument) -> [String] {
        assertDeclared(argument)
        return arguments.values(argument.name)
    }

    /// A key is the command's own: a key of another command is a bug in tick.
    private func assertDeclared(_ key: any OptionKey) {
        assert(command.options.contains(key.option),
               "'\(ArgumentParser.commandPath(path))' declares no option '--\(key.option.name)'")
    }

    private func assertDeclared(_ argument: Argument) {
        assert(command.arguments.contains(argument),
               "'\(ArgumentParser.commandPath(path))' declares no argument '\(argument.name)'")
    }

    /// Locates the task folder (`--dir` > `TICK_DIR` > a `.tick/` above > the default location).
    func folder() throws -> Folder {
        let location = try FolderLocation.locate(
            option: global.dir, environment: context.environment,
            currentDirectory: context.currentDirectory, fileSystem: fileSystem)
        var folder = Folder(location: location, fileSystem: fileSystem)
        // Every list is read with the global filter (FORMAT.md 11): views, refs and changes alike.
        folder.globalFilter = settings.globalFilter
        return folder
    }

    /// Runs git (`Git.run`) in this run's surroundings: its environment, and its current folder
    /// unless `directory` is given.
    func git(_ arguments: [String], in directory: String? = nil, quiet: Bool = false) -> Git.Output? {
        Git.run(arguments, in: directory, quiet: quiet, surroundings: context.surroundings)
    }

    /// Writes `tick: warning: …` to standard error.
    func warn(_ message: String) {
        err.line("tick: warning: " + message)
    }
}
