import TickCore

/// `tick remind`: reports each open task whose due moment has arrived, once per due moment, and
/// `tick remind --install-timer`, which writes the systemd user units that run it every 5 minutes.
extension Commands {
    static let withinOption = ValueOption(
        "within", valueName: "DURATION",
        help: "Also report what comes due in the next DURATION: minutes, hours or days, as 15m, 2h or 1d (at most 7d)")
    static let execOption = ValueOption(
        "exec", valueName: "PROGRAM",
        help: "Run PROGRAM (a path, or a name looked up on PATH; no arguments) once per reminder, never through a "
            + "shell, with the task in TICK_* environment variables")
    static let installTimerOption = Flag(
        "install-timer",
        help: "Write a systemd user service and timer that run this tick remind every 5 minutes, and print the "
            + "command that enables them")
    static let dryRunOption = Flag("dry-run", help: "Show what would be reported or written, and change nothing")
    static let notifyOption = Flag(
        "notify",
        help: "Show each reminder as a desktop notification with notify-send (urgent for a high-priority or flagged "
            + "task); --install-timer chooses it when notify-send is on PATH and no --exec is given")

    static let remind: Command = Command(
        name: "remind",
        effect: .write,
        summary: "Report open tasks that came due since the last run",
        discussion: "Prints each open task whose due moment has arrived and that no earlier run reported for that "
            + "moment, then records it, so that a task is reported once per due moment (a new due date reports it "
            + "again). The due moment is the due date and time, or for a date-only task the remind.time setting "
            + "(default 09:00). What was reported is kept in ${XDG_STATE_HOME:-~/.local/state}/tick/ (one file per "
            + "task folder, with a lock that makes a second run at the same moment wait, and then find nothing "
            + "new); the lists are never changed. Tasks are known by their id: token, else by their ref, so a task "
            + "without an id that gets a new title or list is reported again.\n\n"
            + "A reminder whose moment passed more than \(ReminderRules.missedAfter) minutes ago was missed (the "
            + "machine was asleep); more than \(ReminderRules.digestAbove) missed ones are reported as one digest. "
            + "Lines read REF  TITLE  due today 09:00  · LIST (due in 10 min with --within; was due ... when missed).\n\n"
            + "--exec PROGRAM runs PROGRAM once per reminder, and once for a digest, with this environment plus "
            + "TICK_TITLE, TICK_DUE (the due as written), TICK_REF, TICK_LIST, TICK_PRIORITY (0 to 3), TICK_KIND "
            + "(due, upcoming, missed or digest) and TICK_URGENT=1 for a high-priority or flagged task. A digest "
            + "sets TICK_TITLE to N tasks came due while tick remind was not running, TICK_BODY to their titles, "
            + "one per line, TICK_COUNT to N, TICK_DUE to the earliest, TICK_REF and TICK_LIST empty, and "
            + "TICK_URGENT=1 when any is urgent. A value too long for a program's environment (NAME=value over "
            + "128 KiB) is cut to fit and ends with … [cut by tick]. A reminder whose PROGRAM fails is not recorded: the next run "
            + "reports it again, and this one exits 1.\n\n"
            + "--install-timer writes tick-remind.service and tick-remind.timer into "
            + "${XDG_CONFIG_HOME:-~/.config}/systemd/user/ (every 5 minutes, Persistent=true), naming this tick "
            + "binary, the task folder and any --exec program by absolute path (and any --within), and prints the systemctl "
            + "--user command that enables them; it does not run it. Without --exec, when notify-send is on PATH, "
            + "the timer runs tick remind --notify, and says so; otherwise its reminders reach only the journal "
            + "(journalctl --user -u tick-remind), and it says that.\n\n"
            + "--notify runs notify-send --app-name=tick --urgency=critical (or normal) TITLE BODY once per reminder "
            + "and digest, the body saying when it is due and in which list.\n\n"
            + "--dry-run prints what would be reported (or the unit files) and records, runs and writes nothing. "
            + "With --json: {lastRun, digest, reminders: [{kind, moment, minutes, task}]}, where moment is "
            + "YYYY-MM-DDTHH:MM, minutes the minutes from now to it and task the task object; with --install-timer, "
            + "{service, timer, written, enable}.",
        options: [withinOption, execOption, notifyOption, installTimerOption, dryRunOption],
        run: runRemind)
}

/// `tick remind`.
@Sendable func runRemind(_ invocation: Invocation) throws -> ExitStatus {
    let within = try invocation.value(Commands.withinOption).map(parseWithin) ?? 0
    if invocation.flag(Commands.notifyOption), invocation.given(Commands.execOption) {
        throw UsageError.invalidInput("--exec and --notify both say where reminders go: give one")
    }
    var program = try invocation.value(Commands.execOption).map { try invocation.resolveProgram($0) }
    if invocation.flag(Commands.installTimerOption) {
        return try installTimer(invocation, program: program, notify: invocation.flag(Commands.notifyOption))
    }
    let notify = invocation.flag(Commands.notifyOption)
    if notify { program = try invocation.resolveProgram("notify-send") }
    let dryRun = invocation.flag(Commands.dryRunOption)

    let folder = try invocation.folder()
    guard let store = ReminderStore(folder: folder.path, environment: invocation.context.environment) else {
        throw UsageError.invalidInput("tick remind keeps its state under $XDG_STATE_HOME or $HOME, and neither is an absolute path")
    }
    // Held from reading the state to saving it: a second run waits, then finds everything recorded.
    let lock = dryRun ? nil : try store.lock(fileSystem: invocation.fileSystem)
    let loaded = try invocation.load()
    let library = loaded.library
    let now = invocation.now
    var run = library.reminders(now: now, within: within, time: invocation.settings.remindTime ?? ReminderRules.defaultTime,
                                state: store.load(fileSystem: invocation.fileSystem))
    var failed: [Reminder] = []
    let out = invocation.out

    if invocation.global.json {
        out.json(.object([
            ("lastRun", .optional(run.lastRun.map { "\($0)" })), ("digest", .bool(run.digest)),
            ("reminders", .array(run.reminders.map { reminder in
                .object([("kind", .string(reminder.kind.rawValue)), ("moment", .string("\(reminder.moment)")),
                         ("minutes", .int(reminder.minutesAway)), ("task", TaskRows.json(reminder.task, in: library))])
            })),
        ]))
    }
    let missed = run.reminders.filter { $0.kind == .missed }
    let single = run.digest ? run.reminders.filter { $0.kind != .missed } : run.reminders
    if run.digest, !invocation.global.json {
        let since = run.lastRun.map { " (last run \($0.relativeText(to: now)))" } ?? ""
        out.line("\(missed.count) tasks came due while tick remind was not running\(since):")
        for reminder in missed { out.line("  " + reminderLine(reminder, in: library, now: now)) }
    }
    if run.digest, let program, !dryRun,
       !deliverDigest(missed, in: library, program: program, notify: notify, invocation: invocation) {
        failed += missed
    }
    for reminder in single {
        if !invocation.global.json { out.line(reminderLine(reminder, in: library, now: now)) }
        if let program, !dryRun, !deliver(reminder, in: library, program: program, notify: notify, invocation: invocation) {
            failed.append(reminder)
        }
    }
    if !dryRun {
        for reminder in failed {
            run.state.reported.remove(ReminderState.Entry(key: library.reminderKey(reminder.task), moment: reminder.moment))
        }
        try store.save(run.state, fileSystem: invocation.fileSystem)
    }
    withExtendedLifetime(lock) {}
    if !failed.isEmpty { return .negative }
    return loaded.status
}

/// One reminder as a line: `REF  TITLE  due today 09:00  · LIST`.
private func reminderLine(_ reminder: Reminder, in library: Library, now: Now) -> String {
    let when: String
    switch reminder.kind {
    case .due: when = reminder.minutesAway == 0 ? "due now" : "due " + reminder.moment.relativeText(to: now)
    case .upcoming: when = "due in " + durationText(reminder.minutesAway)
    case .missed: when = "was due " + reminder.moment.relativeText(to: now)
    }
    return "\(library.ref(reminder.task))  \(library.task(reminder.task).title)  \(when)  · \(library.list(reminder.task).name)"
}

/// `10 min`, `2 h`, `1 h 30 min`, `2 d 3 h`.
private func durationText(_ minutes: Int) -> String {
    if minutes < 60 { return "\(minutes) min" }
    if minutes < 1440 { return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min") }
    return "\(minutes / 1440) d" + (minutes % 1440 / 60 == 0 ? "" : " \(minutes % 1440 / 60) h")
}

/// `--within`: `15m`, `2h`, `1d` (or `0`), at most a week, in minutes.
private func parseWithin(_ text: String) throws -> Int {
    let reason = "expected minutes, hours or days such as 15m, 2h or 1d, at most 7d"
    guard text == "0" || (text.count >= 2 && ["m", "h", "d"].contains(text.last!)) else {
        throw UsageError.invalidValue(option: "--within", value: text, reason: reason)
    }
    if text == "0" { return 0 }
    let digits = text.dropLast()
    guard digits.count <= 6, digits.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(digits) else {
        throw UsageError.invalidValue(option: "--within", value: text, reason: reason)
    }
    let minutes = n * ["m": 1, "h": 60, "d": 1440][String(text.last!)]!
    guard minutes <= ReminderRules.maximumWithin else {
        throw UsageError.invalidValue(option: "--within", value: text, reason: reason)
    }
    return minutes
}

// MARK: - --exec

extension Invocation {
    /// The absolute path of `--exec PROGRAM`: a path (relative to the working folder) when it holds a
    /// `/`, else the first executable of that name on PATH. Bad input (exit 2) when there is none.
    func resolveProgram(_ text: String) throws -> String {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw UsageError.invalidValue(option: "--exec", value: text, reason: "expected a program's path or name")
        }
        let path: String?
        if text.contains("/") {
            path = Path.absolute(text, from: context.currentDirectory)
        } else {
            // The first regular executable file of that name in PATH's absolute folders.
            path = (context.environment["PATH"] ?? "").split(separator: ":").lazy.filter { $0.hasPrefix("/") }
                .map { Path.absolute(String($0) + "/" + text, from: "/") }.first(where: Subprocess.isExecutableFile)
        }
        guard let path, Subprocess.isExecutableFile(path) else {
            throw UsageError.invalidValue(option: "--exec", value: text,
                                          reason: text.contains("/") ? "no executable file there" : "no executable of that name on PATH")
        }
        return path
    }
}

/// The environment PROGRAM runs with: tick's own, without the TICK_ variables of a reminder, plus `values`.
private func programEnvironment(_ invocation: Invocation, _ values: [(String, String)]) -> [String] {
    let ours: Set<String> = ["TICK_TITLE", "TICK_DUE", "TICK_REF", "TICK_LIST", "TICK_PRIORITY", "TICK_URGENT",
                             "TICK_KIND", "TICK_BODY", "TICK_COUNT"]
    var entries = invocation.context.environment.filter { !ours.contains($0.key) }.sorted { $0.key < $1.key }
        .map { $0.key + "=" + $0.value }
    entries += values.map { name, value in name + "=" + execValue(value, named: name) }
    return entries
}

/// The most bytes one `NAME=value` string of a program's environment may hold: Linux refuses a
/// longer one (E2BIG, `MAX_ARG_STRLEN`: 128 KiB with its NUL), and the program would never run.
let execEntryLimit = 128 * 1024 - 1
/// What ends a value cut to fit `execEntryLimit`.
let execCutMarker = "… [cut by tick]"

/// `value`, or when `NAME=value` would pass `execEntryLimit`, its start (whole characters) and
/// `execCutMarker`, the whole within the limit.
func execValue(_ value: String, named name: String) -> String {
    guard name.utf8.count + 1 + value.utf8.count > execEntryLimit else { return value }
    let room = execEntryLimit - name.utf8.count - 1 - execCutMarker.utf8.count
    var kept = 0
    var end = value.startIndex
    for index in value.indices {
        let size = value[index].utf8.count
        if kept + size > room { break }
        kept += size
        end = value.index(after: index)
    }
    return String(value[..<end]) + execCutMarker
}

/// Whether a task counts as urgent for TICK_URGENT: high priority or flagged.
private func isUrgent(_ task: TaskInfo) -> Bool { task.priority.number == 3 || task.flagged }

/// Runs PROGRAM for one reminder; false (with a warning) when it could not start or did not exit 0.
private func deliver(_ reminder: Reminder, in library: Library, program: String, notify: Bool, invocation: Invocation) -> Bool {
    let task = library.task(reminder.task)
    var values = [("TICK_TITLE", task.title), ("TICK_DUE", task.due.map { "\($0)" } ?? ""),
                  ("TICK_REF", library.ref(reminder.task)), ("TICK_LIST", library.list(reminder.task).name),
                  ("TICK_PRIORITY", String(task.priority.number)), ("TICK_KIND", reminder.kind.rawValue)]
    if isUrgent(task) { values.append(("TICK_URGENT", "1")) }
    let body = (task.due.map { "due \($0) · " } ?? "") + library.list(reminder.task).name
    return runProgram(program, values, notification: notify ? (task.title, body, isUrgent(task)) : nil,
                      about: "'\(library.ref(reminder.task))'", invocation: invocation)
}

/// Runs PROGRAM once for a digest of missed reminders.
private func deliverDigest(_ reminders: [Reminder], in library: Library, program: String, notify: Bool,
                           invocation: Invocation) -> Bool {
    let tasks = reminders.map { library.task($0.task) }
    var values = [("TICK_TITLE", "\(reminders.count) tasks came due while tick remind was not running"),
                  ("TICK_BODY", tasks.map(\.title).joined(separator: "\n")),
                  ("TICK_COUNT", String(reminders.count)),
                  ("TICK_DUE", tasks.compactMap(\.due).min().map { "\($0)" } ?? ""),
                  ("TICK_REF", ""), ("TICK_LIST", ""),
                  ("TICK_PRIORITY", String(tasks.map(\.priority.number).max() ?? 0)), ("TICK_KIND", "digest")]
    if tasks.contains(where: isUrgent) { values.append(("TICK_URGENT", "1")) }
    return runProgram(program, values, notification: notify ? (values[0].1, values[1].1, tasks.contains(where: isUrgent)) : nil,
                      about: "the digest", invocation: invocation)
}

/// Runs PROGRAM with `values` added to the environment, after flushing what tick printed so far; for
/// `--notify`, with notify-send's arguments for the `notification`'s title and body.
private func runProgram(_ program: String, _ values: [(String, String)], notification: (title: String, body: String, urgent: Bool)?,
                        about: String, invocation: Invocation) -> Bool {
    invocation.out.flush()
    invocation.err.flush()
    var arguments = [program]
    if let notification {
        arguments += ["--app-name=tick", "--urgency=" + (notification.urgent ? "critical" : "normal"), "--",
                      notification.title, notification.body]
    }
    do {
        let termination = try Subprocess.runWithoutInput(
            program, arguments: arguments,
            in: Subprocess.Surroundings(environment: programEnvironment(invocation, values),
                                        directory: invocation.context.currentDirectory))
        switch termination {
        case .exited(0): return true
        case .exited(let code): invocation.warn("'\(program)' exited with status \(code) for \(about)")
        case .signalled(let signal): invocation.warn("'\(program)' was killed by signal \(signal) for \(about)")
        }
    } catch {
        let reason = FileSystemError(errno: error.code, path: program, operation: error.operation).reason
        invocation.warn("cannot \(error.operation) '\(program)' for \(about): \(reason)")
    }
    return false
}
