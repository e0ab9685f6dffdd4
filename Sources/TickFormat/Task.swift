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
/// A list of a million tasks holds a million of these, twice while an edit is checked: the
/// fields few tasks have are kept in one shared box (`Rare`), absent for most tasks, and line
/// numbers, depths and indexes in 32 bits (cmark counts lines and columns in an `int`), so that
/// a task takes about half the memory it would.
public struct Task: Sendable {
    public var done: Bool
    public var title: String
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    /// The value of its `id:` token (FORMAT.md 5.8), or nil.
    public var id: String? {
        get { rare?.fields.id }
        set { changeRare { $0.id = newValue } }
    }
    /// The repetition rule of its `rec:` token (FORMAT.md 5.10), or nil.
    public var recurrence: RecurrenceRule? {
        get { rare?.fields.recurrence }
        set { changeRare { $0.recurrence = newValue } }
    }
    /// The day of its `until:` token, or nil.
    public var until: Day? {
        get { rare?.fields.until }
        set { changeRare { $0.until = newValue } }
    }
    // The Obsidian Tasks fields (FORMAT.md, "Obsidian Tasks and Dataview fields").
    /// `⏳ DATE` or `[scheduled:: DATE]`: the day it is planned for (Today shows it from then on).
    public var scheduled: Day? {
        get { rare?.fields.scheduled }
        set { changeRare { $0.scheduled = newValue } }
    }
    /// `🛫 DATE` or `[start:: DATE]`: before this day it is hidden from Today and `pick`.
    public var start: Day? {
        get { rare?.fields.start }
        set { changeRare { $0.start = newValue } }
    }
    /// `➕ DATE` or `[created:: DATE]`.
    public var created: Day? {
        get { rare?.fields.created }
        set { changeRare { $0.created = newValue } }
    }
    /// `❌ DATE` or `[cancelled:: DATE]`.
    public var cancelled: Day? {
        get { rare?.fields.cancelled }
        set { changeRare { $0.cancelled = newValue } }
    }
    /// The phrase of `🔁 every …` or `[repeat:: …]` as written, whether or not it maps onto `recurrence`.
    public var repeatPhrase: String? {
        get { rare?.fields.repeatPhrase }
        set { changeRare { $0.repeatPhrase = newValue } }
    }
    /// `⛔ ID,…` or `[dependsOn:: …]`, as written.
    public var dependsOn: String? {
        get { rare?.fields.dependsOn }
        set { changeRare { $0.dependsOn = newValue } }
    }
    /// `🏁 keep|delete` or `[onCompletion:: …]`, as written.
    public var onCompletion: String? {
        get { rare?.fields.onCompletion }
        set { changeRare { $0.onCompletion = newValue } }
    }
    /// The exact Tasks priority of a signifier or Dataview priority (tick's `priority` is its mapping).
    public var obsidianPriority: ObsidianPriority? {
        get { rare?.fields.obsidianPriority }
        set { changeRare { $0.obsidianPriority = newValue } }
    }
    /// The style its metadata is written in: that of its first signifier or Dataview field, else tick's.
    public var style: TaskStyle = .tick
    /// Tags as written, without `#`.
    public var tags: [String]
    /// Section heading text, or nil.
    public var section: String?
    /// 1-based line of the checkbox.
    @Narrow public var line: Int
    /// Index of the enclosing task in `Document.tasks`, for a subtask.
    public var parent: Int? {
        get { storedParent < 0 ? nil : Int(storedParent) }
        set { storedParent = newValue.map { Int32(clamping: $0) } ?? -1 }
    }
    /// Nesting depth among tasks: 0 for a task with no enclosing task.
    @Narrow public var depth: Int

    // MARK: Source

    /// 1-based line of the list marker (before the checkbox line when the item starts with a blank line).
    @Narrow var firstLine: Int
    /// Last 1-based line the task owns: its content, and the blank lines before a following task.
    @Narrow var lastLine: Int
    /// Last line with content (no trailing blank lines).
    @Narrow var contentEndLine: Int
    /// Last line of the task's first paragraph (the title line and its continuation lines).
    @Narrow var paragraphEndLine: Int
    @Narrow var quoteDepth: Int
    /// Visual column (tabs to multiples of 4) of the checkbox on its line: where notes start.
    @Narrow var contentColumn: Int
    /// `parent`, or -1.
    private var storedParent: Int32
    var ordered: Bool
    /// Offset of the `[` of the checkbox.
    var checkbox: Int
    /// Offset where the list marker starts, and where it ends.
    var marker: Range<Int>
    /// Byte range of the title line after the checkbox's `]`, up to the line ending.
    var titleRange: Range<Int>
    var tokens: [TitleLine.Token]
    /// Repeated tokens (title text, removed when tick clears their kind).
    var duplicates: [TitleLine.Token] {
        get { rare?.fields.duplicates ?? [] }
        set { changeRare { $0.duplicates = newValue } }
    }
    /// Malformed `due:` and `done:` words (title text, replaced when tick sets their field).
    var malformed: [TitleLine.Malformed] {
        get { rare?.fields.malformed ?? [] }
        set { changeRare { $0.malformed = newValue } }
    }

    // MARK: Storage

    /// An `Int` kept in 32 bits, clamped.
    @propertyWrapper
    public struct Narrow: Sendable {
        private var stored: Int32
        public init(wrappedValue: Int) { stored = Int32(clamping: wrappedValue) }
        public var wrappedValue: Int {
            get { Int(stored) }
            set { stored = Int32(clamping: newValue) }
        }
    }

    /// The fields few tasks have. A box is never changed once made: a change makes a new one, so
    /// that copies of a task never share a change.
    private final class Rare: Sendable {
        let fields: RareFields
        init(_ fields: RareFields) { self.fields = fields }
    }

    private struct RareFields: Sendable {
        var id: String?
        var recurrence: RecurrenceRule?
        var until: Day?
        var scheduled: Day?
        var start: Day?
        var created: Day?
        var cancelled: Day?
        var repeatPhrase: String?
        var dependsOn: String?
        var onCompletion: String?
        var obsidianPriority: ObsidianPriority?
        var duplicates: [TitleLine.Token] = []
        var malformed: [TitleLine.Malformed] = []

        var isEmpty: Bool {
            id == nil && recurrence == nil && until == nil && scheduled == nil && start == nil && created == nil
                && cancelled == nil && repeatPhrase == nil && dependsOn == nil && onCompletion == nil
                && obsidianPriority == nil && duplicates.isEmpty && malformed.isEmpty
        }
    }

    private var rare: Rare?

    /// Sets fields of the box by making a new box (none when every field is empty). Getters read
    /// the box's fields directly.
    private mutating func changeRare(_ change: (inout RareFields) -> Void) {
        var fields = rare?.fields ?? RareFields()
        change(&fields)
        rare = fields.isEmpty ? nil : Rare(fields)
    }

    init(done: Bool, title: String, due: DueDate?, doneDate: Day?, priority: Priority, flagged: Bool, tags: [String],
         line: Int, parent: Int?, section: String?, depth: Int, firstLine: Int, lastLine: Int, contentEndLine: Int,
         paragraphEndLine: Int, checkbox: Int, marker: Range<Int>, titleRange: Range<Int>, tokens: [TitleLine.Token],
         duplicates: [TitleLine.Token], malformed: [TitleLine.Malformed], quoteDepth: Int, ordered: Bool,
         contentColumn: Int) {
        self.done = done
        self.title = title
        self.due = due
        self.doneDate = doneDate
        self.priority = priority
        self.flagged = flagged
        self.tags = tags
        self.section = section
        self.checkbox = checkbox
        self.marker = marker
        self.titleRange = titleRange
        self.tokens = tokens
        self.ordered = ordered
        self.line = line
        storedParent = parent.map { Int32(clamping: $0) } ?? -1
        self.depth = depth
        self.firstLine = firstLine
        self.lastLine = lastLine
        self.contentEndLine = contentEndLine
        self.paragraphEndLine = paragraphEndLine
        self.quoteDepth = quoteDepth
        self.contentColumn = contentColumn
        if !duplicates.isEmpty || !malformed.isEmpty {
            rare = Rare(RareFields(duplicates: duplicates, malformed: malformed))
        }
    }

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
