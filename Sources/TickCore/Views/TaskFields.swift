import TickFormat

// A task's fields as tick shows them: the one description that the `--json` task object, the
// lines of `tick show` and the export summaries of the other formats render from. The model
// (`TaskInfo`) and the cache's records hold the values; this table says what each is called, how
// it reads, and where it goes.

/// One task with what its folder says of it (its ref, its parent, its list, its notes): what the
/// field table and the todo.txt and Taskwarrior exporters read.
public struct TaskFacts: Sendable {
    public var ref: String
    /// The enclosing task of a subtask, and its ref.
    public var parent: TaskID?
    public var parentRef: String?
    /// The list's display name and file path.
    public var listName: String
    public var listPath: String
    public var info: TaskInfo
    public var notes: String

    public init(_ id: TaskID, in library: Library) {
        let list = library.list(id)
        ref = library.ref(id)
        parent = library.parent(of: id)
        parentRef = parent.map { library.ref($0) }
        listName = list.name
        listPath = list.file.path
        info = library.task(id)
        notes = library.notes(id)
    }
}

/// The formats of other programs that tick exports a task to.
public enum InterchangeFormat: Sendable, Hashable {
    case todoTxt, taskwarrior
}

/// A line of `tick show`: its label, where it stands among the others, and its text for a task
/// (nil when the task has nothing to show there).
public struct ShowLine: Sendable {
    /// The label before the value (`due`).
    public let label: String
    /// Lines stand in this order, top to bottom.
    let place: Int
    let text: @Sendable (TaskFacts, Library, Now) -> ShownText?
}

/// A value as `tick show` writes it, and whether it is a warning (an overdue due date), which a
/// terminal shows in red.
public struct ShownText: Equatable, Sendable {
    public var text: String
    public var isWarning = false
}

/// One field of a task.
public struct TaskField: Sendable {
    /// Its key in the `--json` task object (FORMAT.md and the README's "JSON for scripts").
    public let key: String
    /// Its value in the `--json` task object.
    let json: @Sendable (TaskFacts) -> JSON
    /// The lines `tick show` gives it, if any: the title heads the page and the notes follow the
    /// lines, and a field that another line says (`line` in `file`) has none.
    let shown: [ShowLine]
    /// What the export summary of each format that cannot hold the field calls its loss.
    let lost: [InterchangeFormat: String]

    init(_ key: String, shown: [ShowLine] = [], lost: [InterchangeFormat: String] = [:],
         json: @escaping @Sendable (TaskFacts) -> JSON) {
        self.key = key
        self.json = json
        self.shown = shown
        self.lost = lost
    }
}

public enum TaskFields {
    /// Every field, in the order of the `--json` task object.
    public static let all: [TaskField] = [
        TaskField("ref", shown: [line("ref", 1) { task, _ in task.ref }]) { .string($0.ref) },
        TaskField("id") { .optional($0.info.id) },
        TaskField("list", shown: [line("list", 2) { task, _ in task.listName }]) { .string($0.listName) },
        TaskField("file", shown: [line("file", 15) { task, _ in "\(task.listPath):\(task.info.line)" }]) {
            .string($0.listPath)
        },
        TaskField("line") { .int($0.info.line) },
        TaskField("title") { .string($0.info.title) },
        TaskField("done", shown: [line("status", 14) { task, _ in
            task.info.done ? "done" + (task.info.doneDate.map { " on \($0)" } ?? "") : "open"
        }]) { .bool($0.info.done) },
        TaskField("due", shown: [ShowLine(label: "due", place: 4) { task, _, now in
            guard let due = task.info.due else { return ShownText(text: "none") }
            let text = "\(due) (" + due.relativeText(to: now) + ")"
            if !task.info.done, due.isOverdue(at: now) { return ShownText(text: text + ", overdue", isWarning: true) }
            return ShownText(text: text)
        }]) { .optional($0.info.due.map { "\($0)" }) },
        TaskField("priority", shown: [line("priority", 5) { task, _ in
            task.info.priority.name + (task.info.priority.marks.map { " (\($0))" } ?? "")
        }]) { .int($0.info.priority.number) },
        TaskField("flagged", shown: [line("flagged", 6) { task, _ in task.info.flagged ? "yes ⚑" : "no" }]) {
            .bool($0.info.flagged)
        },
        TaskField("tags", shown: [line("tags", 7) { task, _ in
            task.info.tags.isEmpty ? nil : task.info.tags.map { "#" + $0 }.joined(separator: " ")
        }]) { .array($0.info.tags.map(JSON.string)) },
        TaskField("notes", lost: [.todoTxt: "notes dropped"]) { .string($0.notes) },
        TaskField("section", shown: [line("section", 3) { task, _ in task.info.section }]) { .optional($0.info.section) },
        TaskField("parent", shown: [ShowLine(label: "parent", place: 8) { task, library, _ in
            guard let parent = task.parent, let ref = task.parentRef else { return nil }
            return ShownText(text: ref + "  " + library.task(parent).title)
        }], lost: [.todoTxt: "subtasks flattened", .taskwarrior: "subtasks flattened"]) { .optional($0.parentRef) },
        TaskField("doneDate") { .optional($0.info.doneDate.map { "\($0)" }) },
        TaskField("recurrence", shown: [
            line("repeats", 9) { task, _ in
                task.info.recurrence.map { $0.words + " (rec:\($0))" + (task.info.until.map { ", until \($0)" } ?? "") }
            },
            line("next", 10) { task, now in
                guard let rule = task.info.recurrence, !task.info.done else { return nil }
                let next = Recurrence.occurrences(rule, due: task.info.due, until: task.info.until, today: now.day, count: 3)
                return next.isEmpty ? "none (the repetition ends at its until: date)"
                                    : next.map { $0.nextDueText(now: now) }.joined(separator: ", ")
            },
        ]) { task in
            task.info.recurrence.map { rule in
                .object([("interval", .string("\(rule)")), ("mode", .string(rule.modeName)),
                         ("until", .optional(task.info.until.map { "\($0)" }))])
            } ?? .null
        },
        TaskField("scheduled", shown: [line("scheduled", 12) { task, now in
            task.info.scheduled.map { "\($0) (" + $0.relativeText(to: now) + ")" }
        }]) { .optional($0.info.scheduled.map { "\($0)" }) },
        TaskField("start", shown: [line("starts", 13) { task, now in
            task.info.start.map { "\($0) (" + $0.relativeText(to: now) + ")" }
        }]) { .optional($0.info.start.map { "\($0)" }) },
        // A Tasks phrase tick cannot follow (FORMAT.md 11): shown, never advanced.
        TaskField("repeat", shown: [line("repeats", 11) { task, _ in
            guard task.info.recurrence == nil, let phrase = task.info.repeatPhrase else { return nil }
            return "\(phrase) (the Tasks plugin's phrase: tick does not advance it)"
        }]) { .optional($0.info.repeatPhrase) },
    ]

    /// A line of plain text.
    private static func line(_ label: String, _ place: Int,
                             _ text: @escaping @Sendable (TaskFacts, Now) -> String?) -> ShowLine {
        ShowLine(label: label, place: place) { task, _, now in text(task, now).map { ShownText(text: $0) } }
    }

    /// The lines of `tick show`, top to bottom, in place order.
    private static let showLines: [ShowLine] = all.flatMap(\.shown).sorted { $0.place < $1.place }

    /// The `--json` object of a task, its keys in the table's order.
    public static func json(_ task: TaskFacts) -> JSON {
        // By index: a field copied whole out of the table would retain its show lines and losses.
        .object(all.indices.map { (key: all[$0].key, value: all[$0].json(task)) })
    }

    /// The labelled lines `tick show` writes for a task of `library`, top to bottom.
    public static func shown(_ task: TaskFacts, in library: Library, now: Now) -> [(label: String, value: ShownText)] {
        showLines.compactMap { line in line.text(task, library, now).map { (line.label, $0) } }
    }

    /// Counts in `summary` each field of `task` that `format` cannot hold: one whose value is
    /// neither null nor empty.
    public static func countLosses(_ task: TaskFacts, in format: InterchangeFormat, into summary: inout ExportSummary) {
        for i in all.indices {
            guard let loss = all[i].lost[format] else { continue }
            switch all[i].json(task) {
            case .null, .string(""), .array([]): continue
            default: summary.lost[loss, default: 0] += 1
            }
        }
    }
}
