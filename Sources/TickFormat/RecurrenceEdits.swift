// The edit a completion of a repeating task makes (FORMAT.md 5.10): its `due:` token moves to the
// next occurrence, its box stays open, and its done subtasks open again.

extension Document {
    /// Moves repeating task `i` to its next occurrence: only the bytes of its `due:` token change
    /// (a task without one gets one at the end of its title line), and each done subtask (at any
    /// depth) gets an open box and loses its `done:` token. The task's own box is not touched.
    public func advancingRecurrence(_ i: Int, to due: DueDate) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = expectedModel()
        let dueSplices = tokenSplices(task, kind: .due(due), text: "due:\(due)")
        expected[i].due = due
        (expected[i].title, expected[i].tags) = titleAfter(task, dueSplices)
        var splices = dueSplices
        for j in (i + 1)..<descendantsEnd(i) where tasks[j].done {
            let subtask = tasks[j]
            splices.append(Splice(range: (subtask.checkbox + 1)..<(subtask.checkbox + 2), bytes: [0x20]))
            let doneSplices = tokenSplices(subtask, kind: .done(Day(daysSinceEpoch: 0)), text: nil)
            splices += doneSplices
            expected[j].done = false
            expected[j].doneDate = nil
            (expected[j].title, expected[j].tags) = titleAfter(subtask, doneSplices)
        }
        return try apply(splices.sorted { $0.range.lowerBound < $1.range.lowerBound }, expecting: expected, task: i)
    }
}

extension Document {
    /// Inserts a completed copy of repeating task `i` right after it (after its notes and subtasks),
    /// at its depth: `- [x] Title … due:OLD done:DAY`, with its title, priority, flag and due date,
    /// without `rec:`, `until:`, `id:`, notes or subtasks (the record that `--keep-history` keeps).
    /// The task itself is not touched.
    public func recordingCompletion(_ i: Int, on day: Day) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let copy = NewTask(title: task.title, done: true, due: task.due, doneDate: day, priority: task.priority,
                           flagged: task.flagged)
        return try inserting(copy, at: .after(i))
    }
}

extension EditError {
    /// A value that cannot be written, about `line`: what TickCore's checks throw inside an edit.
    public static func badValue(_ message: String, line: Int) -> EditError {
        EditError(reason: .badValue, line: line, message: message)
    }
}

extension EditError {
    /// Task `i` is not in the document.
    public static func noSuchTask(_ i: Int) -> EditError {
        EditError(reason: .noSuchTask, line: 0, message: "no task number \(i) in this list")
    }
}
