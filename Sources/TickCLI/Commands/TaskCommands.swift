import TickCore

// Commands that change tasks named by REF: done, reopen, flag, unflag, due, priority, mv, rm. Each
// resolves its REFs, asks the folder for the change, and prints what changed.

/// `tick done REF...` and `tick reopen REF...`.
func runDone(_ done: Bool) -> Command.Run {
    { invocation in
        try editing(invocation, invocation.values(Commands.whereRefsArgument), done ? invocation.completion : .reopen)
    }
}

extension Invocation {
    /// The completion `done`, `pick --done` and the editor ask for: today's, keeping a completed copy
    /// of a repeating task with `--keep-history` or `recurrence.keep-history = true`.
    var completion: TaskEdit {
        let day = now.day
        if flag(Commands.keepHistoryOption) || settings.keepHistory { return .completeKeepingHistory(on: day) }
        return settings.obsidianRecurrenceInPlace ? .completeInPlace(on: day) : .complete(on: day)
    }
}

/// `tick skip REF...`: moves repeating tasks to their next occurrence without completing them.
@Sendable func runSkip(_ invocation: Invocation) throws -> ExitStatus {
    try editing(invocation, invocation.values(Commands.refsArgument), .skip(today: invocation.now.day))
}

/// `tick flag REF...` and `tick unflag REF...`.
func runFlag(_ flagged: Bool) -> Command.Run {
    { invocation in try editing(invocation, invocation.values(Commands.whereRefsArgument), .flag(flagged)) }
}

/// `tick due REF... DATE|none` and `tick due --where QUERY DATE|none`: with several REFs, DATE is the
/// longest run of words at the end that reads as a date.
@Sendable func runDue(_ invocation: Invocation) throws -> ExitStatus {
    let words = invocation.values(Commands.whereRefsArgument) + invocation.values(Commands.dateArgument)
    if invocation.given(Commands.bulkWhereOption) {
        return try editing(invocation, [], .due(try invocation.dueDate(words.joined(separator: " "))))
    }
    guard words.count >= 2 else {
        throw UsageError.missingArgument("DATE", usage: ArgumentParser.usageLine(invocation.path))
    }
    // The longest run first; no run reads as a date: the error of the last word alone.
    for refs in 1..<words.count {
        let date: DueDate?
        do {
            date = try invocation.dueDate(words[refs...].joined(separator: " "))
        } catch {
            if refs == words.count - 1 { throw error }
            continue
        }
        return try editing(invocation, Array(words[..<refs]), .due(date))
    }
    preconditionFailure("the last word's error is thrown above")
}

/// `tick priority REF... LEVEL` and `tick priority --where QUERY LEVEL`.
@Sendable func runPriority(_ invocation: Invocation) throws -> ExitStatus {
    if invocation.values(Commands.whereRefsArgument).isEmpty, !invocation.given(Commands.bulkWhereOption) {
        throw UsageError.missingArgument(Commands.levelArgument.name, usage: ArgumentParser.usageLine(invocation.path))
    }
    let level = try priority(named: invocation.value(Commands.levelArgument)!, argument: Commands.levelArgument.name)
    return try editing(invocation, invocation.values(Commands.whereRefsArgument), .priority(level),
                       missing: Commands.levelArgument.name)
}

/// A command that applies one edit to each task that `refs` name.
private func editing(_ invocation: Invocation, _ refs: [String], _ edit: TaskEdit, missing: String = "REF") throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let library = session.library
    // `done` settles an ambiguous REF by its open tasks, `reopen` by its done ones.
    let preferring: ((TaskID) -> Bool)?
    switch edit {
    case .complete, .completeKeepingHistory, .completeInPlace, .reopen, .skip: preferring = { !library.leavesAsIs(edit, $0) }
    default: preferring = nil
    }
    var twins: [TaskID: Int] = [:]
    let ids = try invocation.targets(refs, in: library, preferring: preferring, missing: missing, twins: &twins)
    if case .skip = edit, let plain = ids.first(where: { library.task($0).recurrence == nil }) {
        throw CommandFailure(.usage, "\(describe(plain, in: library)) does not repeat (it has no rec: rule tick can read; "
                             + "tick check shows a malformed one); nothing changed")
    }
    // Removing the due date of a task that repeats from it would leave one that tick check reports.
    if case .due(nil) = edit {
        for id in ids {
            let task = library.task(id)
            if let problem = Recurrence.problem(rule: task.recurrence, due: nil, until: task.until) {
                throw UsageError.invalidInput("\(describe(id, in: library)): " + problem + "; nothing changed")
            }
        }
    }
    let (after, tasks) = try session.folder.edit(ids, [edit])
    invocation.report(tasks.compactMap { task in
                          task.after.map { changeLine(edit, task, $0, in: after, now: invocation.now, twins: twins[task.before]) }
                      },
                      tasks: tasks.compactMap(\.after), changed: tasks.filter { $0.after != nil }.map { !$0.applied.isEmpty },
                      in: after, was: wasRefs(tasks, before: library))
    return session.loaded.status
}

/// The line that says what an edit did to a task, or that it was so already.
/// `twins`: the task was named by a REF that names that many twins.
func changeLine(_ edit: TaskEdit, _ task: TaskFolder.Edited, _ id: TaskID, in library: Library, now: Now,
                twins: Int? = nil) -> String {
    let name = describe(id, in: library, twins: twins)
    let info = library.task(id)
    guard !task.applied.isEmpty else {
        if edit.isCompletion, !info.done, info.recurrence != nil {
            return unchanged(name) + ": completed today already, next due " + (info.due.map { nextDueText($0, now: now) } ?? "none")
        }
        if case .reopen = edit, info.recurrence != nil {
            return unchanged(name, edit.state) + " (it repeats: tick done moved it to its next occurrence; tick undo takes that back)"
        }
        return unchanged(name, edit.state)
    }
    switch edit {
    case .complete, .completeKeepingHistory, .completeInPlace:
        if !info.done, info.recurrence != nil {
            return "Completed \(name): next due " + (info.due.map { nextDueText($0, now: now) } ?? "none")
        }
        let subtasks = task.subtasks == 0 ? "" : " and \(count(task.subtasks, "open subtask"))"
        if info.recurrence == nil, let phrase = info.repeatPhrase {
            // A Tasks phrase tick cannot follow (FORMAT.md 11): done, not advanced.
            return "Completed " + name + subtasks + " without a next occurrence: tick cannot follow '\(phrase)' "
                + "(the Tasks plugin in Obsidian can)"
        }
        return "Completed " + name + subtasks
    case .completionDate(let day): return "Completed \(name) on \(day)"
    case .reopen: return "Reopened " + name
    case .flag(let on): return (on ? "Flagged " : "Unflagged ") + name
    case .due(let due): return due.map { "Due \($0): " + name } ?? "Removed the due date of " + name
    case .priority(let level): return level.isNone ? "Removed the priority of " + name : "Priority \(level.name): " + name
    case .retitle, .replaceNotes, .appendNote: return "Edited \(name): " + edit.field
    case .giveID(let value): return "Gave id:\(value) to " + name
    case .skip: return "Skipped \(name): next due " + (info.due.map { nextDueText($0, now: now) } ?? "none")
    case .recurrence(let rule): return rule.map { "Repeats \($0.words) (rec:\($0)): " + name } ?? "Removed the rule of " + name
    case .until(let day): return day.map { "Repeats until \($0): " + name } ?? "Removed the end date of " + name
    case .start(let day): return day.map { "Starts \($0): " + name } ?? "Removed the start date of " + name
    }
}

/// A next due date as a completion's line says it (`DueDate.nextDueText(now:)`).
func nextDueText(_ due: DueDate, now: Now) -> String { due.nextDueText(now: now) }

/// The one wording of a change that changes nothing: `No change to REF "Title": already done`.
func unchanged(_ name: String, _ state: String? = nil) -> String {
    "No change to \(name)" + (state.map { ": already " + $0 } ?? "")
}

extension TaskEdit {
    /// What a task is after this edit, for the line of a no-op: `done`, `due 2026-03-20`.
    var state: String {
        switch self {
        case .complete, .completeKeepingHistory, .completeInPlace: return "done"
        case .skip: return "done"
        case .recurrence(let rule): return rule.map { "repeating rec:\($0)" } ?? "without a rule"
        case .until(let day): return day.map { "repeating until \($0)" } ?? "without an end date"
        case .start(let day): return day.map { "starting \($0)" } ?? "without a start date"
        case .reopen: return "open"
        case .flag(let on): return on ? "flagged" : "not flagged"
        case .due(let due): return due.map { "due \($0)" } ?? "without a due date"
        case .priority(let level): return level.isNone ? "without a priority" : "priority \(level.name)"
        case .completionDate(let day): return "done on \(day)"
        case .retitle(let title): return "titled \"\(title)\""
        case .replaceNotes: return "with these notes"
        case .appendNote: return "with nothing to append"
        case .giveID: return "with an id"
        }
    }
}

/// `3 open subtasks`.
func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

/// `tick rm REF...`: deletes tasks with their notes and subtasks.
@Sendable func runRemove(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    var twins: [TaskID: Int] = [:]
    let ids = try invocation.targets(invocation.values(Commands.whereRefsArgument), in: before, twins: &twins)
    let subtasks = try session.folder.remove(ids)
    let lines = zip(ids, subtasks).map { id, n in
        "Deleted \(describe(id, in: before, twins: twins[id]))" + (n == 0 ? "" : " with \(count(n, "subtask"))")
    }
    invocation.report(lines, tasks: ids, changed: ids.map { _ in true }, in: before)
    return session.loaded.status
}

/// `tick mv REF... LIST`: moves tasks with their notes and subtasks to the end of another list.
@Sendable func runMove(_ invocation: Invocation) throws -> ExitStatus {
    if invocation.flag(Commands.mvDryRunOption) { return try previewMove(invocation) }
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    var twins: [TaskID: Int] = [:]
    let ids = try invocation.targets(invocation.values(Commands.whereRefsArgument), in: before,
                                     missing: Commands.destinationArgument.name, twins: &twins)
    let destination = invocation.value(Commands.destinationArgument)!
    let after: Library, moves: [TaskFolder.Moved]
    var lines: [String] = []
    if invocation.flag(Commands.createListOption), case .notFound = before.resolve(list: destination) {
        // A new list, created by the same change as the move (one undo removes it and puts the tasks back).
        (after, moves) = try session.folder.move(ids, toNewList: destination)
        if let new = moves.lazy.compactMap({ if case .moved(let id) = $0 { id } else { nil } }).first {
            lines.append("Created the list \(after.lists[new.list].name) (\(after.lists[new.list].file.path))")
        }
    } else {
        let list = try invocation.resolveList(destination, in: before, creating: true)
        (after, moves) = try session.folder.move(ids, to: list)
    }
    var tasks: [TaskID] = []
    var changed: [Bool] = []
    var was: [TaskID: String] = [:]
    // Lists named alike are told apart by their files (`from Work (a/work.md) to Work (b/work.md)`).
    let labelsBefore = before.listLabels(), labelsAfter = after.listLabels()
    for (id, moved) in zip(ids, moves) {
        switch moved {
        case .moved(let new):
            tasks.append(new)
            changed.append(true)
            was[new] = before.ref(id)
            lines.append("Moved \(describe(new, in: after, twins: twins[id])) from \(labelsBefore[id.list]) to \(labelsAfter[new.list])")
        case .alreadyThere(let same):
            tasks.append(same)
            changed.append(false)
            was[same] = before.ref(id)
            lines.append(unchanged(describe(same, in: after), "in \(labelsAfter[same.list])"))
        case .withParent:
            lines.append("Moved \(describe(id, in: before)) with its parent")
        }
    }
    invocation.report(lines, tasks: tasks, changed: changed, in: after, was: was)
    return session.loaded.status
}

/// `tick mv --dry-run`: what would move where (and the list `--create` would make), with nothing
/// written; the same checks as the move itself (the tasks, the destination, a new list's name).
private func previewMove(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    var twins: [TaskID: Int] = [:]
    let ids = try invocation.targets(invocation.values(Commands.whereRefsArgument), in: library,
                                     missing: Commands.destinationArgument.name, twins: &twins)
    let destination = invocation.value(Commands.destinationArgument)!
    let labels = library.listLabels()
    var lines: [String] = []
    let list: Int?, label: String
    if invocation.flag(Commands.createListOption), case .notFound = library.resolve(list: destination) {
        let new = try TaskFolder.newList(destination, fields: [])
        lines.append("Would create the list \(new.name) (\(new.path))")
        (list, label) = (nil, new.name)
    } else {
        let index = try invocation.resolveList(destination, in: library, creating: true)
        (list, label) = (index, labels[index])
    }
    for id in ids {
        lines.append(id.list == list ? unchanged(describe(id, in: library), "in \(label)")
                     : "Would move \(describe(id, in: library, twins: twins[id])) from \(labels[id.list]) to \(label)")
    }
    invocation.report(lines, tasks: ids, changed: ids.map { $0.list != list }, in: library)
    return loaded.status
}

/// The refs the edited tasks were shown under before the change, by what they are after it.
func wasRefs(_ tasks: [TaskFolder.Edited], before: Library) -> [TaskID: String] {
    var was: [TaskID: String] = [:]
    for task in tasks { if let after = task.after { was[after] = before.ref(task.before) } }
    return was
}
