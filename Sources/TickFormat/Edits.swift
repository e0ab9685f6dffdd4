/// Why tick refused an edit. Edits never half-apply: a refused edit leaves the document as it was.
public struct EditError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The task index does not exist.
        case noSuchTask
        /// A line break in a title, or another value that cannot be written.
        case badValue
        /// The edit would change which tasks the file holds (an unclosed code fence swallowing the new
        /// task, a note that starts a list item, …) and no blank line fixes it.
        case structure
        /// `section:` named a heading the document does not have.
        case noSuchSection
    }

    public var reason: Reason
    /// 1-based line the problem is about.
    public var line: Int
    public var message: String

    public var description: String { message }
}

/// A change tick made around an edit to keep the structure: re-parsing must find exactly the
/// intended tasks, and sometimes a plain splice would not.
public enum StructureFix: Equatable, Sendable {
    /// A blank line (or a bare `>` line inside a block quote) was inserted; the line number is in
    /// the new document.
    case blankLine(at: Int)
}

/// The outcome of an edit.
public struct EditResult: Sendable {
    /// The edited document, re-parsed.
    public var document: Document
    /// The edited, inserted or moved task's index in `document` (nil after a removal).
    public var task: Int?
    /// Fixes applied beside the edit itself.
    public var fixes: [StructureFix]
    /// The byte range of the original document that the edit replaced, and the range of the new
    /// document that replaced it. Everything before and after is byte-identical (fixes aside).
    public var replaced: Range<Int>
    public var replacement: Range<Int>
}

/// A task to insert.
public struct NewTask: Sendable, Equatable {
    public var title: String
    public var done: Bool
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    public var notes: String
    /// The `rec:` rule and the `until:` day (FORMAT.md 5.10), written after the due date.
    public var recurrence: RecurrenceRule? = nil
    public var until: Day? = nil
    /// The style its metadata is written in: tick's tokens, signifiers or Dataview fields.
    public var style: TaskStyle = .tick
    /// The scan of a title that passed `Document.checkedTitle`, which writing the task takes instead
    /// of scanning the title again while the title holds the same bytes. Not part of the task's value.
    var keptScan = KeptScan()

    /// Keeps `checked`'s scan for writing this task (used while the title is `checked.title`).
    public mutating func keepScan(_ checked: CheckedTitle) { keptScan.checked = checked }

    public init(title: String, done: Bool = false, due: DueDate? = nil, doneDate: Day? = nil,
                priority: Priority = .none, flagged: Bool = false, notes: String = "") {
        self.title = title
        self.done = done
        self.due = due
        self.doneDate = doneDate
        self.priority = priority
        self.flagged = flagged
        self.notes = notes
    }
}

/// A title that passed the title check (`Document.checkedTitle`), with the tags it reads.
public struct CheckedTitle: Sendable {
    public let title: String
    let tags: [String]

    /// Whether the title is `bytes`.
    func holds(_ bytes: [UInt8]) -> Bool {
        var title = title
        return title.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }
}

/// Why `Document.checkedTitle` refused a title: the message `tick check` words it with.
public struct TitleProblem: Error, Sendable {
    public let message: String
}

/// A `NewTask`'s kept scan: equal to any other, as it is a saving, not part of the task.
struct KeptScan: Sendable, Equatable {
    var checked: CheckedTitle?

    static func == (_: KeptScan, _: KeptScan) -> Bool { true }
}

/// Where a new task goes.
public enum InsertionPoint: Sendable, Equatable {
    /// After the last top-level task of the list (at the end of the file when it has none).
    case end
    /// In the list's part outside sections: after its last top-level task there, else before the
    /// first section heading (a heading of level 2 or deeper), else at the end of the file.
    case unsectioned
    /// After the last top-level task under the first heading with this text (case-insensitive).
    case section(String)
    /// As a subtask of the task with this index, after its last subtask.
    case subtask(of: Int)
    /// Right after the task with this index (its notes and subtasks), at its depth: its next sibling.
    case after(Int)
}

/// A task taken out of a document with its notes and subtasks, ready to go into another one.
public struct TaskFragment: Sendable {
    /// The lines, without line endings and without the container prefix before the marker.
    var lines: [[UInt8]]
    /// Byte length of the list marker at the start of `lines[0]`.
    var markerLength: Int
    /// The tasks it holds, as the expected model for verification.
    var expected: [Document.Expected]
}
