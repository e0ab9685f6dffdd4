import TickCore

/// The folder as a write command sees it: loaded while holding the folder's lock, so that no
/// other tick process changes it until the command is done.
struct WriteSession {
    var loaded: LoadedFolder
    /// Nil only when the folder does not exist (and the command does not create it): then there
    /// is nothing to change, and naming any task or list fails before a write is needed.
    private var mutator: Mutator?

    init(loaded: LoadedFolder, mutator: Mutator?) {
        self.loaded = loaded
        self.mutator = mutator
    }

    /// The lists as loaded, with every change made since.
    var library: Library { mutator?.library ?? loaded.library }

    /// The writer, once the folder exists.
    func writing() throws -> Mutator {
        guard let mutator else {
            throw CommandFailure(.negative, "the task folder \(loaded.folder.path) does not exist yet")
        }
        return mutator
    }
}

extension Invocation {
    /// Opens the task folder for writing: takes its lock (creating `.tick/`), finishes changes
    /// that a crash interrupted, then reads every list. With `create`, a folder that does not
    /// exist yet (the default one, before the first write) is created with its `.tick/`.
    func openForWriting(create: Bool) throws -> WriteSession {
        var folder = try folder()
        if !folder.location.exists {
            guard create else { return WriteSession(loaded: try load(), mutator: nil) }
            try Folder.initialize(at: folder.path, fileSystem: fileSystem)
            var location = folder.location
            location.exists = true
            folder = Folder(location: location, fileSystem: fileSystem)
        }
        let writer = try FolderWriter(root: folder.path, environment: context.environment)
        for note in writer.recoveryNotes { warn(note) }
        let loaded = try load(folder)
        return WriteSession(loaded: loaded, mutator: Mutator(writer: writer, folder: folder, library: loaded.library))
    }

    /// Reads every list of `folder`, reporting what could not be read as `load()` does.
    private func load(_ folder: Folder) throws -> LoadedFolder {
        try loaded(folder.load(saveCache: false, environment: context.environment), in: folder)
    }

    /// The tasks that REF arguments name, each once, in the order given.
    func resolveTasks(_ texts: [String], in library: Library, preferring: ((TaskID) -> Bool)? = nil) throws -> [TaskID] {
        var ids: [TaskID] = []
        for text in texts {
            let id = try resolveTask(text, in: library, preferring: preferring)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    /// A DATE argument or option: a date word relative to now, or `none` (nil).
    func dueDate(_ text: String) throws -> DueDate? {
        if text.trimmingCharacters(in: " \t").lowercased() == "none" { return nil }
        return try DueDate(parsing: text, relativeTo: try now())
    }

    /// Prints what a task command changed: one line each for people, the changed tasks as an
    /// array of task objects with `--json`, nothing with `--quiet`.
    func report(_ lines: [String], tasks: [TaskID], in library: Library) {
        if global.json {
            out.jsonArray(tasks) { TaskRows.json($0, in: library) }
        } else if !global.quiet {
            for line in lines { out.line(line) }
        }
    }

    /// Prints one line, unless `--quiet` (for commands whose JSON is printed separately).
    func say(_ line: String) {
        if !global.quiet { out.line(line) }
    }
}

/// Names a task in a command's message: its ref and its title.
func describe(_ id: TaskID, in library: Library) -> String {
    "\(library.ref(id)) \"\(library.task(id).title)\""
}

/// Titles for a change's summary in the journal (what `tick undo` prints).
func summaryTitles(_ ids: [TaskID], in library: Library) -> String {
    ids.map { "\"\(library.task($0).title)\"" }.joined(separator: ", ")
}

/// The `--priority` values, in the order of `Priority`'s raw values.
let priorityNames = ["none", "low", "medium", "high"]

/// A priority name (`low`, `medium`, `high`, `none`), given as the argument `argument`.
func priority(named text: String, argument: String) throws -> Priority {
    guard let index = priorityNames.firstIndex(of: text.lowercased()) else {
        let suggestion = Suggestion.closest(to: text.lowercased(), among: priorityNames).map { "; did you mean '\($0)'?" }
        throw UsageError.invalidValue(option: argument, value: text,
                                      reason: "expected " + listing(priorityNames, conjunction: "or") + (suggestion ?? ""))
    }
    return Priority(rawValue: index)!
}

extension String {
    /// Without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
