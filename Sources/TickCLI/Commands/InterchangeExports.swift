import TickCore

/// The `todotxt` and `taskwarrior` formats of `tick export`.
extension Commands {
    static let exportTodoTxt: Command = Command(
        name: "todotxt",
        effect: .read,
        summary: "Every task as a todo.txt line",
        discussion: "One line per task, in folder order: x and the done: date, (A) to (C) for !!! to ! (a pri:D "
            + "word gives back (D)), the created: date, the title with its tags as @contexts, +LIST (the list's "
            + "path without .md), @flag for a flagged task, then due:, rec:, until:, id: and, for a subtask, "
            + "parent:REF. Notes have no todo.txt form and are left out; the count of tasks whose notes were "
            + "left out, and of subtasks flattened, goes to standard error.",
        options: [exportOutputOption, exportListOption],
        run: runExportInterchange(.todoTxt))

    static let exportTaskwarrior: Command = Command(
        name: "taskwarrior",
        effect: .read,
        summary: "Every task as JSON that Taskwarrior's task import reads",
        discussion: "A JSON array of task objects, one a line: description (the title, with id: and parent:REF "
            + "words for what Taskwarrior has no field for), status, entry (a created: date, else now), end, "
            + "project (the list's name), priority H, M or L, due (in UTC), tags (next for a flagged task), "
            + "annotations (the notes, a line each), recur and until. The uuid is the task's id: when it is "
            + "a uuid, else one made from its list and ref, the same at every export. What could not be "
            + "written is counted on standard error.",
        options: [exportOutputOption, exportListOption],
        run: runExportInterchange(.taskwarrior))
}

/// `tick export todotxt` and `tick export taskwarrior`.
func runExportInterchange(_ format: ImportFormat) -> Command.Run {
    { invocation in
        let loaded = try invocation.load()
        let tasks = Interchange.tasks(of: loaded.library, lists: try invocation.exportScope(in: loaded.library))
        let (text, summary) = format == .todoTxt ? TodoTxt.render(tasks) : Taskwarrior.render(tasks, now: invocation.now)
        try invocation.writeExport(Array(text.utf8), loaded: loaded)
        if !summary.lost.isEmpty { invocation.warn(summary.line) }
        return loaded.status
    }
}
