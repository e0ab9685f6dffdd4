import TickCore

/// `tick vdir sync DIR`: a two-way sync between the task folder and a vdir that vdirsyncer syncs
/// with a CalDAV server (README "Your tasks on your phone").
extension Commands {
    static let vdirDirectoryArgument = Argument(
        name: "DIR", help: "The vdir: one collection (folder) per list, one .ics file per task (created when missing); "
            + "default: the vdir.path setting", arity: .optional)
    static let vdirsyncerOption = Flag(
        "vdirsyncer", help: "Around the sync, run vdirsyncer for the pair of the vdir.pair setting: discover "
            + "(answering yes, so that calendars made on the phone come down), sync and metasync before; after, "
            + "discover again when tick made a collection, then sync and metasync")
    static let vdirDryRunOption = Flag("dry-run", help: "Report what the sync would take from the vdir, and write nothing")

    static let vdirSync: Command = Command(
        name: "sync",
        effect: .write,
        summary: "Sync the lists with a vdir both ways",
        discussion: "First gives every task without an id: token one (one change, one tick undo), since an "
            + "object's UID must survive a new title. Then, for each .ics file in DIR changed since the last "
            + "sync, takes the phone's changes field by field against the object both sides last agreed on "
            + "(kept in .tick/vdir/): completion, SUMMARY (title), CATEGORIES (tags: one added joins the title as a "
            + "#tag, one removed leaves it; the list's name is no tag), DESCRIPTION (notes), DUE (a UTC or TZID= time in local time; a TZID that names no known "
            + "zone is taken as written, with a warning), DTSTART (the start date of a task that has one; on a "
            + "task without one it stays the phone's, written back untouched), PRIORITY, RRULE (as rec: and until: "
            + "when tick can state it, else reported) and RELATED-TO (the parent: after the other changes, as a change "
            + "of its own, the task moves with its notes and subtasks to be the last subtask of a task of its list, or "
            + "to the top level right after its old top-level task; a parent tick changed too, of another list or "
            + "collection, unknown, or making a cycle is reported and tick's kept). A new VTODO with a parent of its "
            + "list becomes that task's subtask. A field "
            + "changed on one side is taken; changed on both sides to different values, the Markdown's is kept "
            + "and the phone's is reported. A new VTODO becomes a task at the end of its collection's list, a new "
            + "collection a new list named by its displayname; a deleted file deletes its task unless tick changed "
            + "it since (then it comes back). A repeating task completed on the phone, or whose DUE moved to the "
            + "rule's next occurrence, is done by tick's rule. Then writes each task whose object changed, one "
            + "private file each (0600 in 0700 folders), keeping the phone's own properties and alarms, and each "
            + "collection's displayname and color. Prints what came from the vdir, one line a list; with --json "
            + "{givenIDs, events: [{kind, list, title, field, detail}], written, removed, collections}. Files it "
            + "cannot read (no parse, several UIDs, over 1 MiB, links) are reported and skipped. The vdir.lists setting "
            + "names the lists to sync (default: every list). With --vdirsyncer, a vdirsyncer failure is reported "
            + "with its output and exit status 6, and vdirsyncer stopping at a conflict it did not resolve (no "
            + "conflict_resolution in the pair) with its output, one line and exit status 1.",
        arguments: [vdirDirectoryArgument],
        options: [vdirDryRunOption, vdirsyncerOption],
        run: runVdirSync)

    static let vdir: Command = Command(
        name: "vdir",
        effect: .write,
        summary: "Sync the tasks with a vdir, for a phone through vdirsyncer and CalDAV",
        discussion: "A vdir is a folder of calendars that vdirsyncer keeps in step with a CalDAV server, which "
            + "a phone's Reminders or tasks app shows; see the README, \"Your tasks on your phone\".",
        subcommands: [vdirSync])
}

/// `tick vdir sync [DIR]`.
@Sendable func runVdirSync(_ invocation: Invocation) throws -> ExitStatus {
    let (report, status) = try vdirRound(invocation, directory: invocation.value(Commands.vdirDirectoryArgument),
                                         driving: invocation.flag(Commands.vdirsyncerOption),
                                         dryRun: invocation.flag(Commands.vdirDryRunOption))
    printVdirReport(report, invocation, dryRun: invocation.flag(Commands.vdirDryRunOption))
    return status
}

/// One round with the vdir (DIR, else `vdir.path`), with vdirsyncer around it when `driving`.
func vdirRound(_ invocation: Invocation, directory given: String?, driving: Bool, dryRun: Bool) throws
    -> (VdirSyncReport, ExitStatus) {
    let settings = invocation.settings
    guard let directory = given ?? settings.vdirPath.map({ expandHome($0, environment: invocation.context.environment) }) else {
        throw UsageError.invalidValue(option: "DIR", value: "", reason: "no DIR given and no vdir.path setting")
    }
    guard !directory.isEmpty else {
        throw UsageError.invalidValue(option: "DIR", value: directory, reason: "it is empty")
    }
    var vdirsyncer: Vdirsyncer?
    if driving {
        guard let pair = settings.vdirPair else {
            throw UsageError.invalidValue(option: "--vdirsyncer", value: "", reason: "no vdir.pair setting names the pair")
        }
        guard let program = Subprocess.find("vdirsyncer", searchPath: invocation.context.environment["PATH"]) else {
            throw CommandFailure(.network, "vdirsyncer is not on PATH")
        }
        vdirsyncer = Vdirsyncer(program: program, pair: pair, invocation: invocation)
        try vdirsyncer!.run(["discover", pair], answering: true)
        try vdirsyncer!.run(["sync", pair])
        try vdirsyncer!.run(["metasync", pair])
    }
    let session = try dryRun ? invocation.openLocked(create: false) : invocation.openForWriting(create: false)
    let path = Path.absolute(directory, from: invocation.context.currentDirectory)
    let realPath = (try? invocation.fileSystem.resolvedPath(path)) ?? path
    let realFolder = (try? invocation.fileSystem.resolvedPath(session.loaded.folder.path)) ?? session.loaded.folder.path
    if realPath == realFolder || realPath.hasPrefix(realFolder + "/") || realFolder.hasPrefix(realPath + "/") {
        throw UsageError.invalidValue(option: "DIR", value: directory,
                                      reason: "it holds or is inside the task folder; keep the vdir elsewhere")
    }
    var sync = VdirSync(
        folder: session.folder, directory: path, fileSystem: invocation.fileSystem,
        store: VdirStateStore(taskFolder: session.loaded.folder.path, vdirRealPath: realPath,
                              fileSystem: invocation.fileSystem), now: invocation.now,
        dryRun: dryRun,
        mint: { count, library in
            var generator = SystemRandomNumberGenerator()
            return mintIDs(count: count, avoiding: library, using: &generator)
        })
    sync.lists = settings.vdirLists
    let report = try sync.run()
    if let vdirsyncer, !dryRun {
        if !report.createdCollections.isEmpty { try vdirsyncer.run(["discover", vdirsyncer.pair], answering: true) }
        try vdirsyncer.run(["sync", vdirsyncer.pair])
        try vdirsyncer.run(["metasync", vdirsyncer.pair])
    }
    return (report, session.loaded.status)
}

/// The summary (or `--json`), then the conflicts and refusals on standard error.
func printVdirReport(_ report: VdirSyncReport, _ invocation: Invocation, dryRun: Bool) {
    if invocation.global.json {
        invocation.out.json(.object([
            ("givenIDs", .int(report.givenIDs)),
            ("events", .array(report.events.map { event in
                .object([("kind", .string(event.kind.rawValue)), ("list", .string(event.list)),
                         ("title", .string(event.title)), ("field", .string(event.field)),
                         ("detail", .string(event.detail))])
            })),
            ("written", .array(report.written.map(JSON.string))),
            ("removed", .array(report.removed.map(JSON.string))),
            ("collections", .array(report.createdCollections.map(JSON.string))),
        ]))
    } else {
        for line in vdirSummary(report, dryRun: dryRun) { invocation.say(line) }
    }
    for event in report.events where event.kind == .kept {
        invocation.err.line("tick: \(event.list): \"\(event.title)\": kept the Markdown's \(event.field); the phone had \(event.detail)")
    }
    for event in report.events where event.kind == .parentKept {
        invocation.err.line("tick: \(event.list): \"\(event.title)\": kept tick's parent; the phone had \(event.detail)")
    }
    for event in report.events where event.kind == .unknownZone {
        invocation.err.line("tick: warning: \(event.list): \"\(event.title)\": TZID \"\(event.detail)\" is no time zone tick knows; "
                            + "its time was taken as written, in local time")
    }
    for event in report.events where event.kind == .refused {
        invocation.err.line("tick: warning: skipped \(event.list)\(event.title.isEmpty ? "" : "/" + event.title): \(event.detail)")
    }
}

/// One line per list: `Groceries: 2 completed on the phone, 1 added`, then the files.
func vdirSummary(_ report: VdirSyncReport, dryRun: Bool) -> [String] {
    var lines: [String] = []
    if report.givenIDs > 0 {
        lines.append("\(dryRun ? "would give" : "gave") an id to \(report.givenIDs) task\(report.givenIDs == 1 ? "" : "s")")
    }
    var order: [String] = []
    var phrases: [String: [String: Int]] = [:]
    for event in report.events where event.kind != .refused {
        if phrases[event.list] == nil { order.append(event.list); phrases[event.list] = [:] }
        let phrase: String
        switch event.kind {
        case .completed: phrase = "completed on the phone"
        case .reopened: phrase = "reopened on the phone"
        case .edited: phrase = "\(event.field) changed on the phone"
        case .added: phrase = "added on the phone"
        case .deleted: phrase = "deleted on the phone"
        case .newList: phrase = "new list from the phone"
        case .kept: phrase = "\(event.field) kept, the phone changed it too"
        case .cameBack: phrase = "deleted on one side and changed on the other, kept"
        case .nextOccurrence: phrase = "next occurrence made on the phone, taken as the repeating task's own"
        case .parentKept: phrase = "parent kept, the phone's not taken"
        case .refused, .unknownZone: continue
        }
        phrases[event.list]![phrase, default: 0] += 1
    }
    for list in order {
        let parts = phrases[list]!.sorted { $0.key < $1.key }.map { $0.value == 1 && $0.key.contains("kept") ? $0.key : "\($0.value) \($0.key)" }
        lines.append("\(list): " + parts.joined(separator: ", "))
    }
    if !dryRun {
        lines.append("vdir: \(report.written.count) written, \(report.removed.count) removed")
    }
    return lines
}

/// `~/…` in the home folder.
func expandHome(_ path: String, environment: [String: String]) -> String {
    guard path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
    return Path.join(home, String(path.dropFirst(2)))
}

/// vdirsyncer, run for one pair as a child process (never through a shell), its output passed on
/// to standard error.
struct Vdirsyncer {
    let program: String
    let pair: String
    let invocation: Invocation

    /// Runs `vdirsyncer ARGUMENTS`; `answering` answers its questions (creating a collection) yes.
    /// A failure is exit status 6, with vdirsyncer's output; a conflict it did not resolve (its
    /// "changed on both sides", or a metadata conflict) is exit status 1.
    func run(_ arguments: [String], answering: Bool = false) throws {
        let input = answering ? Array(String(repeating: "y\n", count: 64).utf8) : []
        guard let result = Subprocess.converse(program, arguments: ["vdirsyncer"] + arguments, input: input,
                                                   in: invocation.context.surroundings) else {
            throw CommandFailure(.network, "cannot run \(program)")
        }
        let output = String(decoding: result.output, as: UTF8.self)
        if !invocation.global.quiet, !output.isEmpty {
            for line in output.split(separator: "\n", omittingEmptySubsequences: true) { invocation.err.line("vdirsyncer: " + line) }
        }
        guard result.termination == .exited(0) else {
            let how: String
            switch result.termination {
            case .exited(let code): how = "exit status \(code)"
            case .signalled(let signal): how = "signal \(signal)"
            }
            if Self.isConflict(output) {
                throw CommandFailure(.negative, "vdirsyncer \(arguments.joined(separator: " ")) stopped at a conflict (\(how)); "
                                     + "resolve it, or set conflict_resolution in the pair (README: \"Your tasks on your phone\")")
            }
            throw CommandFailure(.network, "vdirsyncer \(arguments.joined(separator: " ")) failed (\(how))")
        }
    }

    /// Whether vdirsyncer's output reports a conflict it did not resolve: an item changed on both
    /// sides (`SyncConflict`), or a collection's metadata changed on both (`MetaSyncConflict`).
    static func isConflict(_ output: String) -> Bool {
        output.contains("One item changed on both sides") || output.contains("MetaSyncConflict")
    }
}
