import TickCore

/// `tick edit REF... [--title T] [--note TEXT] [--append-note TEXT] [--due DATE] [--priority P] [--rec RULE] [--until DATE]`,
/// or, with one REF and no option, the task's title line and notes in `$VISUAL` / `$EDITOR` (else `vi`).
/// With several REFs the options apply to each task, as one change; without options they are refused.
@Sendable func runEdit(_ invocation: Invocation) throws -> ExitStatus {
    let refs = invocation.values(Commands.refsArgument)
    // --keep-history says how a completion in the editor is written: alone, it still opens the editor.
    guard invocation.givenOptions.contains(where: { $0 != Commands.keepHistoryOption.option }) else {
        guard refs.count == 1 else {
            throw UsageError.invalidInput("edit opens the editor on one task; with several REFs give the changes as "
                                          + "options (--title, --note, --append-note, --due, --priority, --rec, --until); "
                                          + "nothing changed")
        }
        return try runEditor(invocation)
    }

    var edits: [TaskEdit] = []
    if let title = invocation.value(Commands.titleOption) {
        edits.append(.retitle(try TaskTitle.validated(title)))
    }
    if let due = invocation.value(Commands.editDueOption) { edits.append(.due(try invocation.dueDate(due))) }
    if let level = invocation.value(Commands.priorityOption) { edits.append(.priority(try priority(named: level, argument: "--priority"))) }
    if let notes = invocation.value(Commands.editNoteOption) { edits.append(.replaceNotes(notes)) }
    if let note = invocation.value(Commands.appendNoteOption) { edits.append(.appendNote(note)) }
    if let rule = invocation.value(Commands.editRecOption) { edits.append(.recurrence(try recurrenceRule(rule, orNone: true))) }
    if let until = invocation.value(Commands.editUntilOption) { edits.append(.until(try invocation.untilDay(until, orNone: true))) }

    let session = try invocation.openForWriting(create: false)
    let ids = try invocation.resolveTasks(refs, in: session.library)
    // Every task is checked before any is written: one refused task changes none.
    let plan = try ids.map { id in (id: id, edits: try refusingBadRepetition(edits, of: session.library.task(id), id: id,
                                                                             in: session.library, named: ids.count > 1)) }
    return try applyEdits(plan, invocation: invocation, session: session)
}

/// `edits`, unless they would leave the task one that `tick check` reports for its rule (a `+` rule
/// without a due date, an `until:` without a rule). Removing the rule removes its `until:` too.
/// `named`: the refusal names the task (when several are edited).
private func refusingBadRepetition(_ edits: [TaskEdit], of task: TaskInfo, id: TaskID, in library: Library,
                                   named: Bool) throws -> [TaskEdit] {
    var rule = task.recurrence, due = task.due, until = task.until
    var edits = edits
    for edit in edits {
        switch edit {
        case .recurrence(let new): rule = new
        case .until(let new): until = new
        case .due(let new): due = new
        default: break
        }
    }
    if rule == nil, until != nil, edits.contains(.recurrence(nil)), !edits.contains(where: { if case .until = $0 { return true } else { return false } }) {
        edits.append(.until(nil))
        until = nil
    }
    let changesRule = edits.contains { edit in
        switch edit {
        case .recurrence, .until, .due: return true
        default: return false
        }
    }
    if changesRule, let problem = Recurrence.problem(rule: rule, due: due, until: until) {
        throw UsageError.invalidInput((named ? describe(id, in: library) + ": " : "") + problem + "; nothing changed")
    }
    return edits
}

/// A `--rec` value: a rule (`1w`, `+1m`, `++2w`, `rec:` before it allowed), or `none` (nil) when allowed.
func recurrenceRule(_ text: String, orNone: Bool = false) throws -> RecurrenceRule? {
    let trimmed = text.trimmingCharacters(in: " \t")
    if orNone, trimmed.lowercased() == "none" { return nil }
    guard let rule = RecurrenceRule(parsing: trimmed) else {
        throw UsageError.invalidValue(option: "--rec", value: text,
                                      reason: "expected a count from 1 to 999 and d, w, m, y or b (days, weeks, months, "
                                          + "years, business days), after + or ++ to count from the due date (1w, +1m, ++1w)"
                                          + (orNone ? ", or none" : ""))
    }
    return rule
}

extension Invocation {
    /// An `--until` value: a date word as for `due` (a day, without a time), or `none` (nil) when allowed.
    func untilDay(_ text: String, orNone: Bool = false) throws -> Day? {
        if orNone, text.trimmingCharacters(in: " \t").lowercased() == "none" { return nil }
        guard let date = try dueDate(text) else {
            throw UsageError.invalidValue(option: "--until", value: text, reason: "expected a date")
        }
        guard let day = date.wholeDay else {
            throw UsageError.invalidValue(option: "--until", value: text, reason: "expected a day, without a time")
        }
        return day
    }
}

/// Asks the folder for each task's edits, as one change, and prints what changed: for each task, the
/// fields, or the one no-op line when none did.
private func applyEdits(_ plan: [(id: TaskID, edits: [TaskEdit])], invocation: Invocation,
                        session: WriteSession) throws -> ExitStatus {
    let before = session.library
    let (after, tasks) = try session.folder.edit(plan, summary: "edited")
    var lines: [String] = [], changed: [TaskID] = [], changes: [Bool] = []
    for (task, (id, edits)) in zip(tasks, plan) {
        guard let new = task.after else { throw MutationError.taskGone(session.library.key(id)) }
        var fields: [String] = []
        for edit in task.applied where !fields.contains(edit.field) { fields.append(edit.field) }
        lines.append(fields.isEmpty ? unchanged(describe(new, in: after), edits.count == 1 ? edits[0].state : nil)
                     : "Edited \(describe(new, in: after)): " + fields.joined(separator: ", "))
        changed.append(new)
        changes.append(!fields.isEmpty)
    }
    invocation.report(lines, tasks: changed, changed: changes, in: after, was: wasRefs(tasks, before: before))
    return session.loaded.status
}

// MARK: - The editor

/// Opens the task's title line and notes in the user's editor, then writes back what changed.
///
/// The text is the title line as written (title and tokens, `due:` taking date words), a blank
/// line, then the notes. The folder is not locked while the editor runs; afterwards tick finds
/// the task again by its title and applies only the fields that changed. When that fails, the
/// text stays in its file, which the message names.
private func runEditor(_ invocation: Invocation) throws -> ExitStatus {
    let environment = invocation.context.environment
    // As git does: $VISUAL, else $EDITOR, else vi.
    let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
        .first { !$0.isBlank } ?? "vi"
    let loaded = try invocation.load()
    let id = try invocation.resolveTask(invocation.values(Commands.refsArgument)[0], in: loaded.library)
    let text = try loaded.folder.text(of: id, in: loaded.library)
    let original = text.editable

    let (edited, file) = try editInEditor(original, editor: editor, environment: environment,
                                              workingFolder: invocation.context.currentDirectory)
    var keep = false
    defer { if !keep { try? LocalFileSystem().removeFile(file) } }
    guard edited != original else {
        invocation.say(unchanged(describe(id, in: loaded.library)))
        return loaded.status
    }
    var edits = try text.edits(to: edited, now: invocation.now)
    if invocation.flag(Commands.keepHistoryOption) || invocation.settings.keepHistory {
        edits = edits.map { if case .complete(let day) = $0 { return .completeKeepingHistory(on: day) } else { return $0 } }
    }
    guard !edits.isEmpty else {
        invocation.say(unchanged(describe(id, in: loaded.library)))
        return loaded.status
    }
    do {
        let session = try invocation.openForWriting(create: false)
        guard let now = session.library.id(of: text.key) else { throw MutationError.taskGone(text.key) }
        let plan = [(id: now, edits: try refusingBadRepetition(edits, of: session.library.task(now), id: now,
                                                               in: session.library, named: false))]
        return try applyEdits(plan, invocation: invocation, session: session)
    } catch {
        keep = true
        throw KeptText(error, file: file)
    }
}

/// An error of the editor path, with the file that keeps what the user wrote.
private struct KeptText: Error, ReportableError {
    var error: any Error
    var file: String

    init(_ error: any Error, file: String) {
        self.error = error
        self.file = file
    }

    var exitStatus: ExitStatus { (error as? any ReportableError)?.exitStatus ?? .internal }
    var message: String {
        let reason = (error as? any ReportableError)?.message ?? "\(error)"
        return reason + "; your text is kept in \(file)"
    }
}

/// Writes `text` to a temporary file, runs the editor on it and returns what it holds after, with
/// the file's path (the caller removes it). An editor that cannot start or exits non-zero changes
/// nothing, and the file goes.
private func editInEditor(_ text: String, editor: String, environment: [String: String],
                          workingFolder: String) throws -> (text: String, file: String) {
    let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let local = LocalFileSystem()
    let path = try local.createTemporaryFile(in: directory, prefix: "tick-edit-", suffix: ".md", contents: Array(text.utf8))
    var done = false
    defer { if !done { try? local.removeFile(path) } }

    // Like git: the editor's value is shell text, so `EDITOR="code --wait"` works.
    let termination: Subprocess.Termination
    do {
        termination = try Subprocess.run("/bin/sh", arguments: ["/bin/sh", "-c", editor + " \"$@\"", editor, path],
                                         in: Subprocess.Surroundings(environment: environment, directory: workingFolder))
    } catch {
        throw CommandFailure(.negative, error.operation == "start" ? "cannot start the editor '\(editor)'; nothing changed"
                                 : "lost the editor '\(editor)'; nothing changed")
    }
    switch termination {
    case .exited(0): break
    case .exited(let code): throw CommandFailure(.negative, "the editor '\(editor)' exited with status \(code); nothing changed")
    case .signalled(let signal): throw CommandFailure(.negative, "the editor '\(editor)' was stopped by signal \(signal); nothing changed")
    }
    let content = try local.readFile(path)
    done = true
    return (String(decoding: content, as: UTF8.self), path)
}
