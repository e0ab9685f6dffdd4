import TickCore

/// `tick export ics` and `tick export vdir DIR`: the tasks as iCalendar VTODOs, for calendar apps.
extension Commands {
    static let openOnlyOption = Flag("open-only", help: "Leave completed tasks out")
    static let assignIDsOption = Flag(
        "assign-ids",
        help: "First give every exported task without an id: token one (as tick id does, in one change that "
            + "one tick undo takes back), so that its UID survives a new title and a move")

    static let calendarDiscussion = "Each task is a VTODO (RFC 5545): UID from its id: token, else tick- and its "
        + "full ref, which changes with its title or list (--assign-ids makes it stable); DTSTAMP the list file's "
        + "modification time in UTC when the task last changed: a vdir file, or a VTODO of the -o FILE being "
        + "replaced, that holds the same task apart from its stamps is kept byte for byte, so that one changed task "
        + "changes one object, and a changed one gets LAST-MODIFIED and a SEQUENCE one higher (to standard output, "
        + "every VTODO carries its list file's time); SUMMARY the title and "
        + "DESCRIPTION the notes; DUE;VALUE=DATE:YYYYMMDD for a date, DUE:YYYYMMDDTHHMMSS in floating local time "
        + "(no time zone) for a date and time; DTSTART the start date; PRIORITY 1, 5 or 9 for !!!, !! or !; STATUS NEEDS-ACTION, or "
        + "COMPLETED with PERCENT-COMPLETE:100 and COMPLETED (the done: date at 00:00 local time, in UTC); "
        + "CATEGORIES the tags and the list's name; RELATED-TO the parent of a subtask; X-TICK-FLAGGED:TRUE when "
        + "flagged; and a display alarm at the due moment of a task with a due time. A repeating task is "
        + "its current occurrence with DTSTART at its due date, RRULE the nearest rule RFC 5545 states, and "
        + "X-TICK-REC tick's exact rec: and until: tokens. Lines end in CRLF and are folded at 75 octets."

    static let exportICS: Command = Command(
        name: "ics",
        effect: .write,
        summary: "The tasks as one iCalendar feed of VTODOs",
        discussion: "Writes one VCALENDAR holding a VTODO per task, in folder order, to standard output or to "
            + "FILE. " + calendarDiscussion,
        options: [exportOutputOption, exportListOption, openOnlyOption, assignIDsOption],
        run: runExportICS)

    static let vdirArgument = Argument(name: "DIR", help: "The folder to write the .ics files into (created when missing)")

    static let exportVdir: Command = Command(
        name: "vdir",
        effect: .write,
        summary: "The tasks as a vdir folder: one .ics file per task",
        discussion: "Writes each task to DIR/UID.ics (a VCALENDAR of one VTODO), the folder that vdirsyncer "
            + "and calendar apps read. Only a file whose content changed is written, through a temporary file "
            + "renamed over it, readable by you alone (0600, in a 0700 folder when tick creates it); files this task "
            + "folder wrote (marked X-TICK-FOLDER) for tasks that are no longer exported are removed, and other "
            + "files are left alone. A UID that cannot name a file (a leading dot, over 200 bytes) is not "
            + "exported: a warning names it and the exit status is 1. Prints how many files it wrote, left and removed; with --json "
            + "{written, unchanged, removed}, the first and last as arrays of file names. "
            + calendarDiscussion,
        arguments: [vdirArgument],
        options: [exportListOption, openOnlyOption, assignIDsOption],
        run: runExportVdir)
}

/// `tick export ics`.
@Sendable func runExportICS(_ invocation: Invocation) throws -> ExitStatus {
    let (loaded, todos) = try invocation.calendarTodos()
    // A feed that replaces one tick wrote keeps each unchanged VTODO's stamps.
    var previous: [UInt8]?
    if let name = invocation.value(Commands.exportOutputOption), !name.isEmpty {
        let path = Path.absolute(name, from: invocation.context.currentDirectory)
        if let status = try? invocation.fileSystem.status(path, followSymlinks: true), status.kind == .file,
           status.size <= 64 << 20 {
            previous = try? invocation.fileSystem.readFile(path, followSymlinks: true)
        }
    }
    let feed = previous.map { ICalendar.calendar(todos, keepingStampsOf: $0) } ?? ICalendar.calendar(todos)
    try invocation.writeExport(feed, loaded: loaded)
    return loaded.status
}

/// `tick export vdir DIR`.
@Sendable func runExportVdir(_ invocation: Invocation) throws -> ExitStatus {
    let directory = invocation.value(Commands.vdirArgument)!
    guard !directory.isEmpty else {
        throw UsageError.invalidValue(option: "DIR", value: directory, reason: "it is empty")
    }
    let (loaded, todos) = try invocation.calendarTodos()
    let path = Path.absolute(directory, from: invocation.context.currentDirectory)
    let realPath = (try? invocation.fileSystem.resolvedPath(path)) ?? path
    let realFolder = (try? invocation.fileSystem.resolvedPath(loaded.folder.path)) ?? loaded.folder.path
    if realPath == realFolder {
        throw UsageError.invalidValue(option: "DIR", value: directory, reason: "it is the task folder; write the vdir elsewhere")
    }
    let result = try VdirExport.write(todos, to: path, folder: VdirExport.folderMark(realPath: realFolder),
                                      fileSystem: invocation.fileSystem)
    for uid in result.refused {
        invocation.err.line("tick: warning: not exported: UID \"\(uid)\" cannot name a file (\(VdirExport.refusal(uid: uid) ?? "")); "
                            + "give the task another id:")
    }
    if invocation.global.json {
        invocation.out.json(.object([("written", .array(result.written.map(JSON.string))),
                                     ("unchanged", .int(result.unchanged)),
                                     ("removed", .array(result.removed.map(JSON.string)))]))
    } else {
        invocation.say("\(directory): \(result.written.count) written, \(result.unchanged) unchanged, "
                       + "\(result.removed.count) removed")
    }
    return result.refused.isEmpty || loaded.status != .success ? loaded.status : .negative
}

extension Invocation {
    /// The exported tasks as VTODOs, after giving ids with `--assign-ids`.
    func calendarTodos() throws -> (LoadedFolder, [CalendarTodo]) {
        if flag(Commands.assignIDsOption) { try assignCalendarIDs() }
        let loaded = try load()
        let library = loaded.library
        let scope = CalendarScope(list: try value(Commands.exportListOption).map { try resolveList($0, in: library) },
                                  openOnly: flag(Commands.openOnlyOption))
        return (loaded, library.calendarTodos(scope, stamp: { $0.modifiedSeconds }))
    }

    /// Gives an `id:` to every task the export covers that has none, in one change; says how many on
    /// standard error (standard output is the feed).
    private func assignCalendarIDs() throws {
        let session = try openForWriting(create: false)
        let library = session.library
        let list = try value(Commands.exportListOption).map { try resolveList($0, in: library) }
        let openOnly = flag(Commands.openOnlyOption)
        let minting = library.ids.filter { id in
            let task = library.task(id)
            return task.id == nil && (list == nil || id.list == list) && !(openOnly && task.done)
        }
        guard !minting.isEmpty else { return }
        var generator = SystemRandomNumberGenerator()
        let values = mintIDs(count: minting.count, avoiding: library, using: &generator)
        let plan = minting.indices.map { (minting[$0], [TaskEdit.giveID(values[$0])]) }
        _ = try session.folder.edit(plan, summary: TaskEdit.giveID("").summary)
        if !global.quiet { err.line("tick: gave an id to \(minting.count) task\(minting.count == 1 ? "" : "s")") }
    }
}
