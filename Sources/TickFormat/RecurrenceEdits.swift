// The edit a completion of a repeating task makes (FORMAT.md 5.10): its `due:` token moves to the
// next occurrence, its box stays open, and its done subtasks open again.

extension Document {
    /// Moves repeating task `i` to its next occurrence: only the bytes of its `due:` token change
    /// (a task without one gets one at the end of its title line), and each done subtask (at any
    /// depth) gets an open box and loses its `done:` token. The task's own box is not touched.
    public func advancingRecurrence(_ i: Int, to due: DueDate) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = ExpectedTasks(self)
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
    /// at its depth: its title line as written without its `rec:`, `until:`, `id:` and `done:` tokens (so with
    /// its title, priority, flag and old due date), an `x` in the box and `done:DAY` at the end; no
    /// notes, no subtasks (the record that `--keep-history` keeps). The task itself is not touched.
    public func recordingCompletion(_ i: Int, on day: Day) throws(EditError) -> EditResult {
        let task = try self.task(i)
        // Their repeats go too, or the next one would count instead (section 5.6).
        // A task in the Tasks plugin's style keeps its repetition on the completed copy, as the plugin does.
        let styled = task.style != .tick
        let dropped = (task.tokens + task.duplicates).filter { token in
            switch token.kind {
            case .id, .done: return true
            case .recurrence, .until, .repeatPhrase: return !styled
            default: return false
            }
        }.map(\.range)
        var text: [UInt8] = []
        var k = task.titleRange.lowerBound
        while k < task.titleRange.upperBound {
            if let range = dropped.first(where: { $0.lowerBound == k }) {
                // The token goes with one separator before it (the space after the box stays).
                if text.count > 1, let last = text.last, isSpaceOrTab(last) { text.removeLast() }
                k = range.upperBound
                continue
            }
            text.append(bytes[k])
            k += 1
        }
        // Trailing whitespace, and a hard line break that ended the title line, have nothing to do here.
        text = trimmedRight(text)
        if text.last == UInt8(ascii: "\\"), text.count >= 2, isSpaceOrTab(text[text.count - 2]) { text = trimmedRight(Array(text.dropLast())) }
        let completion: String
        switch task.style {
        case .tick: completion = " done:\(day)"
        case .emoji: completion = " \u{2705} \(day)"
        case .dataview: completion = "  [completion:: \(day)]"
        }
        let line = Array("- [x]".utf8) + text + Array(completion.utf8)
        // What the copy is, as the format reads it alone.
        let alone = reading(line + [0x0A])
        guard alone.tasks.count == 1, alone.tasks[0].depth == 0, alone.tasks[0].done else {
            throw EditError(reason: .structure, line: task.line, message: "the completed copy of line \(task.line) would not read as one task")
        }
        let fragment = TaskFragment(lines: [line], markerLength: 1, expected: [alone.expected(0)])
        return try inserting(fragment, at: .after(i))
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
