import TickCore

/// `tick show REF`: one task in full.
@Sendable func runShow(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let id = try invocation.resolveTask(invocation.value(Commands.refArgument)!, in: library)
    let out = invocation.out
    if invocation.global.json {
        out.json(TaskRows.json(id, in: library))
        return loaded.status
    }

    let now = invocation.now
    let terminal = invocation.terminal
    let task = library.task(id)
    let list = library.list(id)
    let bold = { (text: String) in Style.bold.apply(text, enabled: terminal.color) }
    let title = terminal.width.map { fit(task.title, to: $0 - 4) } ?? task.title
    out.line((task.done ? "[x] " : "[ ] ") + bold(title))

    var fields: [(String, String)] = [("ref", library.ref(id)), ("list", list.name)]
    if let section = task.section { fields.append(("section", section)) }
    if let due = task.due {
        var text = "\(due) (" + due.relativeText(to: now) + ")"
        if !task.done, due.isOverdue(at: now) { text = Style.red.apply(text + ", overdue", enabled: terminal.color) }
        fields.append(("due", text))
    } else {
        fields.append(("due", "none"))
    }
    fields.append(("priority", task.priority.name + (task.priority.marks.map { " (\($0))" } ?? "")))
    fields.append(("flagged", task.flagged ? "yes ⚑" : "no"))
    if !task.tags.isEmpty { fields.append(("tags", task.tags.map { "#" + $0 }.joined(separator: " "))) }
    if let parent = library.parent(of: id) {
        fields.append(("parent", library.ref(parent) + "  " + library.task(parent).title))
    }
    if let rule = task.recurrence {
        fields.append(("repeats", rule.words + " (rec:\(rule))" + (task.until.map { ", until \($0)" } ?? "")))
        if !task.done {
            let next = Recurrence.occurrences(rule, due: task.due, until: task.until, today: now.day, count: 3)
            fields.append(("next", next.isEmpty ? "none (the repetition ends at its until: date)"
                                                : next.map { nextDueText($0, now: now) }.joined(separator: ", ")))
        }
    }
    if task.recurrence == nil, let phrase = task.repeatPhrase {
        // A Tasks phrase tick cannot follow (FORMAT.md 11): shown, never advanced.
        fields.append(("repeats", "\(phrase) (the Tasks plugin's phrase: tick does not advance it)"))
    }
    if let day = task.scheduled { fields.append(("scheduled", "\(day) (" + day.relativeText(to: now) + ")")) }
    if let day = task.start { fields.append(("starts", "\(day) (" + day.relativeText(to: now) + ")")) }
    fields.append(("status", task.done ? "done" + (task.doneDate.map { " on \($0)" } ?? "") : "open"))
    fields.append(("file", "\(list.file.path):\(task.line)"))
    for (name, value) in fields { out.line("  " + padded(name, to: 10) + value) }

    let notes = library.notes(id)
    if !notes.isEmpty {
        out.line()
        out.line(bold("Notes"))
        for line in notes.split(separator: "\n", omittingEmptySubsequences: false) { out.line("  " + line) }
    }
    let children = library.children(of: id)
    if !children.isEmpty {
        out.line()
        out.line(bold("Subtasks"))
        var rows = TaskRows(library: library, now: now, terminal: terminal, showList: false, rows: children)
        for child in children { rows.write(child, to: out) }
    }
    return loaded.status
}
