import TickFormat

// What the import and export formats of other task managers (todo.txt, Taskwarrior) share: a task
// read from a file before it is written to a list, the summary of an import, a refused file, and
// the tasks of a folder as the exporters read them.

/// A task read from another tool's file, ready to be added to a list.
public struct ImportedTask: Sendable, Equatable {
    /// The `id:` to give it (FORMAT.md 5.8), or nil.
    public var id: String? = nil
    /// The list it goes to (a list's name or path, or a new list's name), or nil for the default list.
    public var list: String?
    public var task: NewTask
    /// Where it came from: `line 3` or `record 2`.
    public var place: String
}

/// What reading a file gave: the tasks, and what was left out or kept in another form.
public struct ImportReading: Sendable, Equatable {
    public var tasks: [ImportedTask] = []
    /// Records not imported, by reason (`deleted`), with their counts.
    public var skipped: [String: Int] = [:]
    /// Fields that have no place in a tick task, with how many records had them.
    public var unmapped: [String: Int] = [:]

    public init() {}
}

/// A file that is not in the format it was read as: nothing is imported.
public struct InterchangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `line 3`, `line 2, column 7`, or `record 2`.
    public var place: String
    public var reason: String

    public init(_ place: String, _ reason: String) {
        self.place = place
        self.reason = reason
    }

    public var description: String { "\(place): \(reason)" }
}

/// What an export leaves out or changes, counted for its summary on standard error.
public struct ExportSummary: Sendable, Equatable {
    public var tasks = 0
    /// Kinds of things the format cannot hold (`notes dropped`), with how many tasks had them.
    public var lost: [String: Int] = [:]

    public init() {}

    /// `Exported 12 tasks (notes dropped: 3, subtasks flattened: 2)`.
    public var line: String {
        var text = "Exported \(tasks) task" + (tasks == 1 ? "" : "s")
        if !lost.isEmpty {
            text += " (" + lost.keys.sorted().map { "\($0): \(lost[$0]!)" }.joined(separator: ", ") + ")"
        }
        return text
    }
}

public enum Interchange {
    /// The tasks of `lists` (every list when nil), in folder order, as exporters read them.
    public static func tasks(of library: Library, lists: [Int]? = nil) -> [TaskFacts] {
        let chosen = Set(lists ?? Array(library.lists.indices))
        return library.ids.filter { chosen.contains($0.list) }.map { TaskFacts($0, in: library) }
    }

    /// Whether `name` can be a tick tag as it is (FORMAT.md 5.5).
    public static func isTagName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isTagNameScalar)
    }

    /// Builds a task from a tick title line (`words` as they go into the file, with tokens) through
    /// the same reading as `tick add`: a word tick would refuse is refused here, naming `place`.
    static func task(fromLine all: [String], done: Bool, doneDate: Day?, notes: String, now: Now,
                     place: String) throws(InterchangeError) -> NewTask {
        try task(fromText: all.joined(separator: " "), done: done, doneDate: doneDate, notes: notes, now: now, place: place)
    }

    /// `task(fromLine:…)` of the line's text, its words joined by single spaces. `reading`, when
    /// given, is what `TitleInput(parsing: text)` reads, known without reading it.
    static func task(fromText text: String, reading: TitleInput? = nil, done: Bool, doneDate: Day?, notes: String,
                     now: Now, place: String) throws(InterchangeError) -> NewTask {
        do {
            var input = try reading ?? TitleInput(parsing: text, now: now)
            let checked = try TaskTitle.checked(input.title, besidesMetadata: !text.isEmpty)
            input.title = checked.title
            // What `tick add` refuses, import refuses: a rule that cannot repeat, an end without a rule.
            if let problem = Recurrence.problem(rule: input.recurrence, due: input.due, until: input.until) {
                throw InterchangeError(place, problem + " in '\(text.escapingNonPrinting)'")
            }
            if let control = notes.unicodeScalars.first(where: TaskTitle.isRefusedControl) {
                throw InterchangeError(place, "the notes hold the control character \(TaskTitle.named(control))")
            }
            var task = input.newTask(notes: notes)
            task.keepScan(checked)
            if done {
                task.done = true
                task.doneDate = doneDate ?? task.doneDate
            }
            return task
        } catch {
            throw InterchangeError(place, "\(error) in '\(text.escapingNonPrinting)'")
        }
    }
}
