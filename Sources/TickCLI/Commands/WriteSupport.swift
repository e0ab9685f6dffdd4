import TickCore

/// The folder as a write command sees it: opened for changes (holding its lock, so that no other
/// tick process changes it until the command is done), with what loading it found reported.
struct WriteSession {
    var loaded: LoadedFolder
    let folder: TaskFolder

    /// The lists as loaded, with every change made since.
    var library: Library { folder.library }
}

extension Invocation {
    /// Opens the task folder for changes (see `TaskFolder`). With `create`, a folder that does not
    /// exist yet (the default one, before the first write) is created with its `.tick/`.
    func openForWriting(create: Bool) throws -> WriteSession {
        assert(effect != .read, "'\(ArgumentParser.commandPath(path))' is declared to read (or runs --dry-run) but opens the folder for writing")
        return try openLocked(create: create)
    }

    /// Opens the folder as `openForWriting` does, also for a `--dry-run` that must hold the lock to
    /// work out what it would change (`tick vdir sync --dry-run` plans against the lists as locked,
    /// and then writes nothing).
    func openLocked(create: Bool) throws -> WriteSession {
        let folder = try TaskFolder(try self.folder(), create: create, environment: context.environment)
        for note in folder.recoveryNotes { warn(note) }
        folder.onWriteNote = { note in warn(note) }
        return WriteSession(loaded: try loaded(folder.loaded, in: folder.folder), folder: folder)
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
        return try DueDate(parsing: text, relativeTo: now)
    }

    /// Prints what a task command changed: one line each for people, the changed tasks as an
    /// array of task objects with `--json`, nothing with `--quiet`.
    /// `changed` says, task by task, whether the command changed it (the JSON `changed` field): a
    /// task already so (`flag` on a flagged one) is `false`. `was` holds the refs the tasks were
    /// shown under before the change: each object has it as `"was"`, and a task whose ref changed gets
    /// the line `Renamed: OLD is now NEW` (the old ref leads to it still, README "Refs"). `lines` and
    /// `was` are worked out only when printed: `--quiet` needs neither, `--json` only `was`.
    func report(_ lines: @autoclosure () -> [String], tasks: [TaskID], changed: [Bool], in library: Library,
                was: @autoclosure () -> [TaskID: String] = [:]) {
        if global.json {
            let was = was()
            out.jsonArray(Array(zip(tasks, changed))) { id, changed in
                let json = TaskRows.json(id, in: library)
                guard case .object(var fields) = json else { return json }
                if let old = was[id] { fields.insert(("was", .string(old)), at: 1) }
                fields.append(("changed", .bool(changed)))
                return .object(fields)
            }
        } else if !global.quiet {
            for line in lines() { out.line(line) }
            let was = was()
            for id in tasks {
                if let old = was[id], case let new = library.ref(id), old != new { out.line("Renamed: \(old) is now \(new)") }
            }
        }
    }

    /// Prints one line, unless `--quiet` (for commands whose JSON is printed separately).
    func say(_ line: String) {
        if !global.quiet { out.line(line) }
    }
}

/// Names a task in a command's message: its ref and its title; for a task named by a REF that names
/// `twins` twins, `1 of 2 identical tasks "Buy milk" (5pr)`.
func describe(_ id: TaskID, in library: Library, twins: Int? = nil) -> String {
    guard let twins else { return "\(library.ref(id)) \"\(library.task(id).title)\"" }
    return "1 of \(twins) identical tasks \"\(library.task(id).title)\" (\(library.ref(id)))"
}

/// Titles for a change's summary in the journal (what `tick undo` prints).
func summaryTitles(_ ids: [TaskID], in library: Library) -> String {
    ids.map { "\"\(library.task($0).title)\"" }.joined(separator: ", ")
}

/// A priority name (`low`, `medium`, `high`, `none`), given as the argument `argument`.
func priority(named text: String, argument: String) throws -> Priority {
    guard let level = Priority(name: text) else {
        let suggestion = Suggestion.closest(to: text.lowercased(), among: Priority.names).map { "; did you mean '\($0)'?" }
        throw UsageError.invalidValue(option: argument, value: text,
                                      reason: "expected " + listing(Priority.names, conjunction: "or") + (suggestion ?? ""))
    }
    return level
}

extension String {
    /// Without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
