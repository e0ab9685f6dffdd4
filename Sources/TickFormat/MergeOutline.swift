/// What a three-way merge of list files needs of a document: each task's lines and, on its title
/// line, where the checkbox and each metadata token are. Line numbers are 1-based; byte offsets are
/// relative to the start of the task's title line.
public struct TaskOutline: Sendable, Equatable {
    /// A metadata field of a title line.
    public enum Field: String, Sendable, CaseIterable {
        case due, done, priority, flag, id, recurrence = "rec", until
    }

    /// The index of the enclosing task in `Document.tasks`, for a subtask.
    public var parent: Int?
    /// The line of the list marker (before `line` when the item starts with a blank line).
    public var firstLine: Int
    /// The line of the checkbox.
    public var line: Int
    /// The last line of the title paragraph.
    public var paragraphEndLine: Int
    /// The last line the task owns: its notes, subtasks and the blank lines before a following task.
    public var lastLine: Int
    /// The offset of the `[` of the checkbox.
    public var checkbox: Int
    /// Each recognised token: its field and its byte range.
    public var fields: [(field: Field, range: Range<Int>)]
    /// Whether the title line holds repeated or malformed metadata words, which a field-by-field
    /// merge must not guess about.
    public var irregular: Bool

    public static func == (a: TaskOutline, b: TaskOutline) -> Bool {
        a.parent == b.parent && a.firstLine == b.firstLine && a.line == b.line
            && a.paragraphEndLine == b.paragraphEndLine && a.lastLine == b.lastLine && a.checkbox == b.checkbox
            && a.irregular == b.irregular && a.fields.map(\.field) == b.fields.map(\.field)
            && a.fields.map(\.range) == b.fields.map(\.range)
    }
}

extension Document {
    /// The outline of every task, parallel to `tasks`.
    public var taskOutlines: [TaskOutline] {
        tasks.map { task in
            let start = lines.start(task.line)
            // Signifiers and Dataview fields are not merged field by field: such a line is irregular.
            let fields: [(field: TaskOutline.Field, range: Range<Int>)] = task.tokens.compactMap { token in
                let field: TaskOutline.Field
                switch token.kind {
                case .due: field = .due
                case .done: field = .done
                case .priority: field = .priority
                case .flag: field = .flag
                case .id: field = .id
                case .recurrence: field = .recurrence
                case .until: field = .until
                case .scheduled, .start, .created, .cancelled, .repeatPhrase, .dependsOn, .onCompletion: return nil
                }
                return (field, (token.range.lowerBound - start)..<(token.range.upperBound - start))
            }
            return TaskOutline(parent: task.parent, firstLine: task.firstLine, line: task.line,
                               paragraphEndLine: task.paragraphEndLine, lastLine: task.lastLine,
                               checkbox: task.checkbox - start, fields: fields,
                               irregular: !task.duplicates.isEmpty || !task.malformed.isEmpty || task.style != .tick)
        }
    }

    /// Line `n`'s bytes without its line ending, and its line ending (empty for a last line without one).
    public func lineParts(_ n: Int) -> (content: ArraySlice<UInt8>, ending: ArraySlice<UInt8>) {
        (bytes[lines.start(n)..<lines.contentEnd(n)], bytes[lines.contentEnd(n)..<lines.end(n)])
    }
}
