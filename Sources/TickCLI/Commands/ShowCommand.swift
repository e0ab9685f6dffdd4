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
    let task = TaskFacts(id, in: library)
    let bold = { (text: String) in Style.bold.apply(text, enabled: terminal.color) }
    let title = terminal.width.map { fit(task.info.title, to: $0 - 4) } ?? task.info.title
    out.line((task.info.done ? "[x] " : "[ ] ") + bold(title))
    for (label, value) in TaskFields.shown(task, in: library, now: now) {
        out.line("  " + padded(label, to: 10) + (value.isWarning ? Style.red.apply(value.text, enabled: terminal.color) : value.text))
    }

    let notes = task.notes
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
