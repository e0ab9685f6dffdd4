/// Whether `text` is a well-formed `id:` value (FORMAT.md 5.8): 1 to 64 ASCII letters, digits, `-`, `_`
/// or `.`.
public func isValidTaskID(_ text: String) -> Bool { TitleLine.idValue(text.utf8) != nil }

/// A task priority: `!` low, `!!` medium, `!!!` high.
public enum Priority: Int, Comparable, Sendable, CaseIterable {
    case none = 0, low, medium, high

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

    /// The token written in a title line, or nil for `.none`.
    public var token: String? { self == .none ? nil : String(repeating: "!", count: rawValue) }
}

/// One task of a document, with the byte ranges it came from.
///
/// The public fields are the model; the ranges let edits rewrite exactly the bytes they change.
public struct Task: Sendable {
    public var done: Bool
    public var title: String
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    /// The value of its `id:` token (FORMAT.md 5.8), or nil.
    public var id: String? = nil
    /// The repetition rule of its `rec:` token (FORMAT.md 5.10), or nil.
    public var recurrence: RecurrenceRule? = nil
    /// The day of its `until:` token, or nil.
    public var until: Day? = nil
    // The Obsidian Tasks fields (FORMAT.md, "Obsidian Tasks and Dataview fields").
    /// `⏳ DATE` or `[scheduled:: DATE]`: the day it is planned for (Today shows it from then on).
    public var scheduled: Day? = nil
    /// `🛫 DATE` or `[start:: DATE]`: before this day it is hidden from Today and `pick`.
    public var start: Day? = nil
    /// `➕ DATE` or `[created:: DATE]`.
    public var created: Day? = nil
    /// `❌ DATE` or `[cancelled:: DATE]`.
    public var cancelled: Day? = nil
    /// The phrase of `🔁 every …` or `[repeat:: …]` as written, whether or not it maps onto `recurrence`.
    public var repeatPhrase: String? = nil
    /// `⛔ ID,…` or `[dependsOn:: …]`, as written.
    public var dependsOn: String? = nil
    /// `🏁 keep|delete` or `[onCompletion:: …]`, as written.
    public var onCompletion: String? = nil
    /// The exact Tasks priority of a signifier or Dataview priority (tick's `priority` is its mapping).
    public var obsidianPriority: ObsidianPriority? = nil
    /// The style its metadata is written in: that of its first signifier or Dataview field, else tick's.
    public var style: TaskStyle = .tick
    /// Tags as written, without `#`.
    public var tags: [String]
    /// 1-based line of the checkbox.
    public var line: Int
    /// Index of the enclosing task in `Document.tasks`, for a subtask.
    public var parent: Int?
    /// Section heading text, or nil.
    public var section: String?
    /// Nesting depth among tasks: 0 for a task with no enclosing task.
    public var depth: Int

    // MARK: Source

    /// 1-based line of the list marker (before the checkbox line when the item starts with a blank line).
    var firstLine: Int
    /// Last 1-based line the task owns: its content, and the blank lines before a following task.
    var lastLine: Int
    /// Last line with content (no trailing blank lines).
    var contentEndLine: Int
    /// Last line of the task's first paragraph (the title line and its continuation lines).
    var paragraphEndLine: Int
    /// Offset of the `[` of the checkbox.
    var checkbox: Int
    /// Offset where the list marker starts, and where it ends.
    var marker: Range<Int>
    /// Byte range of the title line after the checkbox's `]`, up to the line ending.
    var titleRange: Range<Int>
    var tokens: [TitleLine.Token]
    /// Repeated tokens (title text, removed when tick clears their kind).
    var duplicates: [TitleLine.Token]
    /// Malformed `due:` and `done:` words (title text, replaced when tick sets their field).
    var malformed: [TitleLine.Malformed]
    var quoteDepth: Int
    var ordered: Bool
    /// Visual column (tabs to multiples of 4) of the checkbox on its line: where notes start.
    var contentColumn: Int

    /// The keys of the malformed metadata words on its title line (`due`, `done`, `rec`, `until`),
    /// in line order: a repeating task with a malformed `due:`, `rec:` or `until:` word is not
    /// advanced (tick never silently drops a rule).
    public var malformedKeys: [String] {
        malformed.map { word in
            switch word.key {
            case .recurrence: return "rec"
            case .until: return "until"
            case nil: return word.due ? "due" : "done"
            }
        }
    }
}
