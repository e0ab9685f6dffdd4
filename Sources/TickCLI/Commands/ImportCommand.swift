import TickCore

extension Commands {
    static let importFileArgument = Argument(name: "FILE", help: "The file to read")
    static let importListOption = ValueOption(
        "list", short: "l", valueName: "LIST",
        help: "Put every task in LIST (its name, file name or path; created when no list has that name)")
    static let importDryRunOption = Flag("dry-run", help: "Print the summary and write nothing")
    static let keepIDsOption = Flag("keep-ids", help: "Keep each task's uuid as an id: token (a stable ref); "
                                    + "a record whose uuid a task has updates that task")
    static let duplicatesOption = Flag("duplicates", help: "Add every record, also those the folder has already")

    static let importDiscussion = "The tasks go after the last task outside sections of their lists, through the "
        + "same writer as tick add, in one change: one tick undo takes the whole import back. A list that does not "
        + "exist yet is created. Then it prints a summary: the tasks per list, the records skipped and the fields "
        + "that have no place in a tick task. A file that is not in the format is refused (exit status 2) with "
        + "the line or record that failed, and nothing is written. A record whose task the list has already "
        + "(same title, due date and status) is left unchanged, unless --duplicates; with --keep-ids, a "
        + "Taskwarrior record whose uuid a task has as its id: updates that task instead (title, due date, "
        + "priority, flag, notes, status), and so does a todo.txt line whose id: word a task has. The "
        + "README's mapping tables say what "
        + "happens to every field. With --json: {imported, added, updated, unchanged, lists: [{list, file, "
        + "tasks, created}], skipped, unmapped, dryRun}."

    static let importCommand: Command = Command(
        name: "import",
        effect: .write,
        summary: "Import tasks from todo.txt or Taskwarrior",
        discussion: importDiscussion,
        subcommands: [importTodoTxt, importTaskwarrior], subcommandsAreFormats: true)

    static let importTodoTxt: Command = Command(
        name: "todotxt",
        effect: .write,
        summary: "Import a todo.txt file",
        discussion: "Each line is a task: x and its dates, (A) to (Z), +project, @context, due:, rec: and other "
            + "key:value words. The first +project names the list (unless --list); a task without one goes to "
            + "the default list.\n\n" + importDiscussion,
        arguments: [importFileArgument],
        options: [importListOption, duplicatesOption, importDryRunOption],
        run: runImport(.todoTxt))

    static let importTaskwarrior: Command = Command(
        name: "taskwarrior",
        effect: .write,
        summary: "Import the JSON of Taskwarrior's task export",
        discussion: "Reads the JSON array (or one object a line) that task export writes. The project names the "
            + "list (unless --list); deleted tasks and the instances of a repeating task are skipped and "
            + "counted.\n\n" + importDiscussion,
        arguments: [importFileArgument],
        options: [importListOption, keepIDsOption, duplicatesOption, importDryRunOption],
        run: runImport(.taskwarrior))
}

enum ImportFormat { case todoTxt, taskwarrior }

/// `tick import todotxt|taskwarrior FILE`.
func runImport(_ format: ImportFormat) -> Command.Run {
    { invocation in
        let path = invocation.values(Commands.importFileArgument)[0]
        let absolute = Path.absolute(path, from: invocation.context.currentDirectory)
        let bytes: [UInt8]
        do {
            bytes = try invocation.fileSystem.readFile(absolute)
        } catch let error as FileSystemError {
            throw CommandFailure(error.kind == FileSystemError.notFound ? .usage : .io, "cannot read '\(path)': \(error.reason)")
        }
        let list = invocation.value(Commands.importListOption)
        let reading: ImportReading
        do {
            switch format {
            case .todoTxt: reading = try TodoTxt.read(bytes, list: list, now: invocation.now)
            case .taskwarrior:
                reading = try Taskwarrior.read(bytes, list: list, keepIDs: invocation.flag(Commands.keepIDsOption),
                                               now: invocation.now)
            }
        } catch {
            throw UsageError.invalidInput("'\(path)' is not a \(format == .todoTxt ? "todo.txt" : "Taskwarrior") file: \(error)")
        }
        let dryRun = invocation.flag(Commands.importDryRunOption)

        // Each task's list: an existing one, else a new one, else the default list.
        let session = dryRun ? nil : try invocation.openForWriting(create: true)
        let loaded = try session.map { $0.loaded } ?? invocation.load()
        let library = session?.folder.library ?? loaded.library
        // Each list's records, by their index in the reading: the tasks are copied once, into arrays of their size.
        var batches: [(path: String, name: String, initial: [UInt8]?, records: [Int])] = []
        var created: Set<String> = []
        // A Taskwarrior record's uuid is an id with --keep-ids; a todo.txt line's `id:` word always is.
        let byID = format == .todoTxt || invocation.flag(Commands.keepIDsOption)
        let index = invocation.flag(Commands.duplicatesOption) ? nil : ImportIndex(library)
        var counts = ImportCounts()
        var updates: [(id: TaskID, edits: [TaskEdit])] = []
        var updated: Set<TaskID> = []
        // Each list name is resolved once: 100,000 tasks of one project are one list's.
        var destinations: [String: (String, String, [UInt8]?)] = [:]
        // Read once, not for each of many records.
        let defaultName = invocation.settings.defaultList ?? defaultListName
        let today = invocation.now.day
        for (record, task) in reading.tasks.enumerated() {
            let name = task.list ?? defaultName
            let (path, display, initial): (String, String, [UInt8]?)
            if let known = destinations[name] {
                (path, display, initial) = known
            } else {
                (path, display, initial) = try destination(name, in: library, session: session, place: task.place,
                                                           invocation: invocation)
                destinations[name] = (path, display, initial)
            }
            switch index?.match(task, path: path, byID: byID, today: today) ?? .add {
            case .unchanged:
                counts.unchanged += 1
                continue
            case .update(let id, let edits):
                // A record given twice updates its task once.
                if updated.insert(id).inserted {
                    updates.append((id, edits))
                    counts.updated += 1
                } else {
                    counts.unchanged += 1
                }
                continue
            case .add:
                counts.added += 1
            }
            if let i = batches.firstIndex(where: { $0.path == path }) {
                batches[i].records.append(record)
            } else {
                // A path comes with first bytes exactly when no list has it: the same for all its records.
                if initial != nil { created.insert(path) }
                batches.append((path, display, initial, [record]))
            }
        }
        if let session, !batches.isEmpty || !updates.isEmpty {
            let tasks = batches.map { $0.records.map { (task: reading.tasks[$0].task, id: reading.tasks[$0].id) } }
            _ = try session.folder.add(zip(batches, tasks).map { ($0.path, $0.initial, $1) }, updates: updates,
                                       summary: "imported \(reading.tasks.count) tasks from \(Path.name(of: path))")
        }
        printSummary(reading, batches: batches.map { ($0.name, $0.path, $0.records.count, created.contains($0.path)) },
                     counts: counts, dryRun: dryRun, invocation: invocation)
        return loaded.status
    }
}

/// The path, name and (for a new list) first bytes of the list a task named `name` goes to.
private func destination(_ name: String, in library: Library, session: WriteSession?, place: String,
                         invocation: Invocation) throws -> (String, String, [UInt8]?) {
    if name.lowercased() == defaultListName.lowercased() {
        let path = session?.folder.defaultListPath(named: defaultListName) ?? (defaultListName.lowercased() + ".md")
        if let index = library.lists.firstIndex(where: { $0.file.path == path }) { return (path, library.lists[index].name, nil) }
        return (path, defaultListName, Array("# \(defaultListName)\n".utf8))
    }
    switch library.resolve(list: name) {
    case .found(let index): return (library.lists[index].file.path, library.lists[index].name, nil)
    case .ambiguous: return (try library.lists[invocation.resolveList(name, in: library)].file.path, name, nil)
    case .notFound:
        let spelled = String(name.map { $0 == "/" ? "-" : $0 })
        do {
            let new = try TaskFolder.newList(spelled, fields: [])
            if let index = library.lists.firstIndex(where: { $0.file.path.lowercased() == new.path.lowercased() }) {
                return (library.lists[index].file.path, library.lists[index].name, nil)
            }
            return (new.path, new.name, new.bytes)
        } catch {
            throw UsageError.invalidInput("\(place): cannot make a list of '\(Configuration.shown(name))': \(error)")
        }
    }
}

/// How an import's records went: added, updating a task, or left as the folder has them.
struct ImportCounts {
    var added = 0, updated = 0, unchanged = 0
}

private func printSummary(_ reading: ImportReading, batches: [(name: String, path: String, count: Int, created: Bool)],
                          counts imported: ImportCounts, dryRun: Bool, invocation: Invocation) {
    if invocation.global.json {
        func counts(_ d: [String: Int]) -> JSON { .object(d.keys.sorted().map { ($0, .int(d[$0]!)) }) }
        invocation.out.json(.object([
            ("imported", .int(reading.tasks.count)),
            ("added", .int(imported.added)), ("updated", .int(imported.updated)), ("unchanged", .int(imported.unchanged)),
            ("lists", .array(batches.map { .object([("list", .string($0.name)), ("file", .string($0.path)),
                                                    ("tasks", .int($0.count)), ("created", .bool($0.created))]) })),
            ("skipped", counts(reading.skipped)), ("unmapped", counts(reading.unmapped)), ("dryRun", .bool(dryRun)),
        ]))
        return
    }
    if invocation.global.quiet && !dryRun { return }
    let n = reading.tasks.count
    invocation.out.line((dryRun ? "Would import " : "Imported ") + "\(n) task" + (n == 1 ? "" : "s")
                        + (dryRun ? " (nothing written)" : ""))
    if imported.updated + imported.unchanged > 0 {
        invocation.out.line("  \(imported.added) added, \(imported.updated) updated, \(imported.unchanged) unchanged")
    }
    for batch in batches {
        invocation.out.line("  \(batch.name) (\(batch.path)\(batch.created ? ", new list" : "")): \(batch.count)")
    }
    for reason in reading.skipped.keys.sorted() { invocation.out.line("  skipped, \(reason): \(reading.skipped[reason]!)") }
    for field in reading.unmapped.keys.sorted() { invocation.out.line("  not mapped, \(field): \(reading.unmapped[field]!)") }
}
