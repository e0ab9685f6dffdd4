import TickCore

extension Commands {
    static let configKeyArgument = Argument(name: "KEY", help: "A configuration key (every key when left out)",
                                            arity: .optional)
    static let configValueArgument = Argument(name: "VALUE", help: "The value to write for KEY in the task "
                                              + "folder's .tick/config", arity: .optional)

    static let config: Command = Command(
        name: "config",
        effect: .write,
        summary: "Show the configuration, or set a key in the task folder's file",
        discussion: "Without arguments, prints every key as KEY = VALUE, followed by # and where the value came "
            + "from: FILE:LINE of the configuration file that set it, or tick's default. With KEY, prints that "
            + "key alone. With KEY and VALUE, writes the value to the task folder's .tick/config: on the line "
            + "that sets KEY, only the value changes (spacing and a comment stay); without one, a KEY = VALUE "
            + "line is added at the end. No other byte of the file changes, and the file is replaced "
            + "atomically. An unknown key or a bad value is refused (exit status 2), naming it, with the file "
            + "unchanged.\n\n"
            + "Keys: " + keysHelp + ".\n\n"
            + "With --json: {key, value, origin} objects (origin null for tick's default); an array without KEY.",
        arguments: [configKeyArgument, configValueArgument],
        run: runConfig)

    /// Every key with its values; keys next to each other that take the same values share them.
    static var keysHelp: String {
        var groups: [(names: [String], values: String)] = []
        for key in Configuration.keys {
            if let last = groups.last, last.values == key.values {
                groups[groups.count - 1].names.append(key.name)
            } else {
                groups.append(([key.name], key.values))
            }
        }
        return groups.map { $0.names.joined(separator: ", ") + " (\($0.values))" }.joined(separator: "; ")
    }
}

/// `tick config [KEY [VALUE]]`.
@Sendable func runConfig(_ invocation: Invocation) throws -> ExitStatus {
    let keyName = invocation.value(Commands.configKeyArgument)
    let key = try keyName.map { name -> Configuration.Key in
        guard let key = Configuration.key(named: name) else {
            let suggestion = Suggestion.closest(to: name, among: Configuration.keys.map(\.name))
            throw UsageError.invalidInput("unknown configuration key '\(Configuration.shown(name))'"
                                          + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return key
    }
    if let key, let value = invocation.value(Commands.configValueArgument) {
        return try setConfiguration(key, to: value, invocation)
    }
    let shown = key.map { [$0] } ?? Configuration.keys
    let settings = invocation.settings
    if invocation.global.json {
        let objects = shown.map { key -> JSON in
            .object([("key", .string(key.name)), ("value", .string(settings.values[key.name] ?? key.fallback)),
                     ("origin", .optional(settings.origins[key.name]))])
        }
        invocation.out.json(keyName == nil ? .array(objects) : objects[0])
        return .success
    }
    for key in shown {
        let value = settings.values[key.name] ?? key.fallback
        invocation.out.line("\(key.name) = \(value)  # " + (settings.origins[key.name] ?? "tick's default"))
    }
    return .success
}

/// Writes `key = value` to the task folder's `.tick/config`, changing only that value's bytes.
private func setConfiguration(_ key: Configuration.Key, to value: String, _ invocation: Invocation) throws -> ExitStatus {
    if let problem = Configuration.problem(with: value, for: key) {
        throw UsageError.invalidInput("bad value '\(Configuration.shown(value))' for \(key.name) (expected \(problem))")
    }
    if let problem = Configuration.unwritable(value, for: key.name) {
        throw UsageError.invalidInput("bad value '\(Configuration.shown(value))' for \(key.name): \(problem)")
    }
    let fileSystem = invocation.fileSystem
    let folder = try invocation.folder()
    if !folder.location.exists { try Folder.initialize(at: folder.path, fileSystem: fileSystem) }
    try Folder.prepareState(in: folder.path, fileSystem: fileSystem)
    let state = Path.join(folder.path, FolderLocation.stateFolderName)
    let lock = try fileSystem.lock(Path.join(state, "lock"))
    defer { _ = lock }
    let file = Configuration.folderFile(in: folder.path)
    let status = try fileSystem.status(file, followSymlinks: false)
    if let status, status.kind != .file {
        throw CommandFailure(.usage, "cannot write '\(file)': "
                             + (status.kind == .symlink ? "a symbolic link, which tick does not follow" : "not a regular file"))
    }
    let old = status == nil ? nil : try fileSystem.readFile(file, followSymlinks: false)
    let new = Configuration.setting(key.name, to: value, in: old)
    // Past its limit every run would ignore the file, and every setting in it with the new one.
    if new.count > Configuration.maxSize, new.count > old?.count ?? 0 {
        throw CommandFailure(.usage, "cannot set \(key.name): \(file) would be \(new.count) bytes, over its limit of "
                             + "\(Configuration.maxSize / 1024) KiB (\(Configuration.maxSize) bytes); nothing was written")
    }
    if new == old {
        invocation.say("No change to \(file): \(key.name) is \(value) already")
    } else {
        let temporary = Path.join(state, ".config.tick-\(CurrentProcess.id)")
        try? fileSystem.removeFile(temporary)
        do {
            try fileSystem.createFile(temporary, contents: new, mode: 0o600, sync: true)
            try fileSystem.rename(temporary, to: file)
            try fileSystem.syncDirectory(state)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw error
        }
        invocation.say("Set \(key.name) = \(value) in \(file)")
    }
    if invocation.global.json {
        invocation.out.json(.object([("key", .string(key.name)), ("value", .string(value)), ("origin", .string(file))]))
    }
    return .success
}
