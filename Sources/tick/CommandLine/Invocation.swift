import TickCore

/// The process's surroundings, gathered once at start-up and passed down.
struct Context {
    var environment: [String: String]
    var fileSystem: any FileSystem
    var currentDirectory: String
    /// Standard output (results) and standard error (messages).
    var out: Output
    var err: Output
}

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
    var out: Output { context.out }
    var err: Output { context.err }
    var fileSystem: any FileSystem { context.fileSystem }

    /// Looks up an argument or option by name. Names must come from the command's table.
    func value(_ name: String) -> String? {
        assertDeclared(name)
        return arguments.value(name)
    }

    func values(_ name: String) -> [String] {
        assertDeclared(name)
        return arguments.values(name)
    }

    func flag(_ name: String) -> Bool {
        assertDeclared(name)
        return arguments.flag(name)
    }

    private func assertDeclared(_ name: String) {
        assert(command.arguments.contains { $0.name == name } || command.option(named: name) != nil,
               "'\(ArgumentParser.commandPath(path))' declares no argument or option '\(name)'")
    }

    /// Locates the task folder (`--dir` > `TICK_DIR` > a `.tick/` above > the default location).
    func folder() throws -> Folder {
        let location = try FolderLocation.locate(
            option: global.dir, environment: context.environment,
            currentDirectory: context.currentDirectory, fileSystem: fileSystem)
        return Folder(location: location, fileSystem: fileSystem)
    }

    /// Writes `tick: warning: …` to standard error.
    func warn(_ message: String) {
        err.line("tick: warning: " + message)
    }
}
