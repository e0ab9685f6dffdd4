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
    /// 1-based line of the checkbox.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// Index of the enclosing task in `Document.tasks`, for a subtask.
    public var parent: Int? {
        get { storedParent < 0 ? nil : Int(storedParent) }
        set { storedParent = newValue.map { Int32(clamping: $0) } ?? -1 }
    }
    /// Section heading text, or nil.
    public var section: String?
    /// Nesting depth among tasks: 0 for a task with no enclosing task.
    public var depth: Int {
        get { Int(storedDepth) }
        set { storedDepth = Int32(clamping: newValue) }
    }

    // MARK: Source

    /// 1-based line of the list marker (before the checkbox line when the item starts with a blank line).
    var firstLine: Int {
        get { Int(storedFirstLine) }
        set { storedFirstLine = Int32(clamping: newValue) }
    }
    /// Last 1-based line the task owns: its content, and the blank lines before a following task.
    var lastLine: Int {
        get { Int(storedLastLine) }
        set { storedLastLine = Int32(clamping: newValue) }
    }
    /// Last line with content (no trailing blank lines).
    var contentEndLine: Int {
        get { Int(storedContentEndLine) }
        set { storedContentEndLine = Int32(clamping: newValue) }
    }
    /// Last line of the task's first paragraph (the title line and its continuation lines).
    var paragraphEndLine: Int {
        get { Int(storedParagraphEndLine) }
        set { storedParagraphEndLine = Int32(clamping: newValue) }
    }
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
    var quoteDepth: Int {
        get { Int(storedQuoteDepth) }
        set { storedQuoteDepth = Int32(clamping: newValue) }
    }
    var ordered: Bool
    /// Visual column (tabs to multiples of 4) of the checkbox on its line: where notes start.
    var contentColumn: Int {
        get { Int(storedContentColumn) }
        set { storedContentColumn = Int32(clamping: newValue) }
    }

    // MARK: Storage

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
    private var storedLine: Int32
    private var storedParent: Int32
    private var storedDepth: Int32
    private var storedFirstLine: Int32
    private var storedLastLine: Int32
    private var storedContentEndLine: Int32
    private var storedParagraphEndLine: Int32
    private var storedQuoteDepth: Int32
    private var storedContentColumn: Int32

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
        storedLine = Int32(clamping: line)
        storedParent = parent.map { Int32(clamping: $0) } ?? -1
        storedDepth = Int32(clamping: depth)
        storedFirstLine = Int32(clamping: firstLine)
        storedLastLine = Int32(clamping: lastLine)
        storedContentEndLine = Int32(clamping: contentEndLine)
        storedParagraphEndLine = Int32(clamping: paragraphEndLine)
        storedQuoteDepth = Int32(clamping: quoteDepth)
        storedContentColumn = Int32(clamping: contentColumn)
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
