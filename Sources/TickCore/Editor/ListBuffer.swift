import TickFormat

// One list's text as an editor holds it (unsaved, never read from disk): what `tick check` finds in
// it, its tasks, and the bytes a task edit gives, by the same edits `TaskFolder` makes. The
// language server (`tick lsp`) asks this, and nothing else, about the format.

/// A list's text held by an editor, read as tick reads the file.
public struct ListBuffer: Sendable {
    public let bytes: [UInt8]
    let document: Document

    /// `globalFilter` as the folder reads its lists (`Folder.globalFilter`).
    public init(bytes: [UInt8], globalFilter: GlobalFilter? = nil) {
        self.bytes = bytes
        document = Document(bytes: bytes, globalFilter: globalFilter, forCheck: true)
    }

    /// How many tasks the text holds.
    public var taskCount: Int { document.tasks.count }

    /// Task `i`'s fields, as a library gives them.
    public func task(_ i: Int) -> TaskInfo {
        let t = document.tasks[i]
        return TaskInfo(done: t.done, title: t.title, due: t.due, doneDate: t.doneDate, priority: t.priority,
                        flagged: t.flagged, id: t.id, recurrence: t.recurrence, until: t.until, tags: t.tags,
                        line: t.line, parent: t.parent, section: t.section, depth: t.depth,
                        scheduled: t.scheduled, start: t.start, repeatPhrase: t.repeatPhrase)
    }

    /// The lines task `i` owns (1-based): from its list marker to its last line, notes and subtasks included.
    public func lines(of i: Int) -> ClosedRange<Int> { document.lineRange(of: i) }

    /// The index of the task whose checkbox is on `line` (1-based), or nil.
    public func task(onLine line: Int) -> Int? {
        var low = 0, high = document.tasks.count
        while low < high {
            let mid = (low + high) / 2
            if document.tasks[mid].line < line { low = mid + 1 } else { high = mid }
        }
        return low < document.tasks.count && document.tasks[low].line == line ? low : nil
    }

    /// The indexes of task `i`'s subtasks, at every depth.
    public func subtasks(of i: Int) -> Range<Int> { document.descendants(of: i) }

    /// The list's heading (its first `#` heading), or nil.
    public var heading: String? { document.heading }

    /// Whether task `i` is written in the Tasks plugin's style (signifiers or Dataview fields).
    public func isObsidianStyle(_ i: Int) -> Bool { document.tasks[i].style != .tick }

    // MARK: - Problems

    /// A problem at a line and a byte column (both 1-based), as `tick check` prints it.
    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Every problem `tick check` reports for this text alone (`ListFileCheck`), and an `id:` used
    /// twice in it, in line order.
    public func problems() -> [Problem] {
        var found = document.checkDiagnostics().map { Problem(line: $0.line, column: $0.column, message: $0.message) }
        var first: [String: Int] = [:]
        for task in document.tasks {
            guard let id = task.id else { continue }
            if let line = first[id] {
                let text = Array(document.lineText(task.line).utf8), token = Array("id:\(id)".utf8)
                let offset = text.indices.first { text[$0...].starts(with: token) } ?? 0
                found.append(Problem(line: task.line, column: offset + 1,
                                        message: "duplicate id 'id:\(id)': line \(line) has it too; an id names one task"))
            } else {
                first[id] = task.line
            }
        }
        return found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    // MARK: - Edits

    /// The text after `edit` is applied to tasks `indexes`, as `TaskFolder.edit` applies it to a
    /// file: a task the edit would leave as it is, is left; completing a task completes its open
    /// subtasks, unless it repeats and moves on. Nil when nothing changes.
    public func applying(_ edit: TaskEdit, to indexes: [Int]) throws -> [UInt8]? {
        // The writer refuses such a file (`FolderWriter`): so does the buffer.
        if let line = Document.conflictMarkerLine(in: bytes) {
            throw StorageError.conflictMarkers(path: "", line: line)
        }
        var applying: [Int: [TaskEdit]] = [:]
        var order: [Int] = []
        for i in indexes where document.tasks.indices.contains(i) {
            let applied = [edit].filter { !$0.leavesAsIs(task(i), notes: "") }
            guard !applied.isEmpty, applying[i] == nil else { continue }
            applying[i] = applied
            order.append(i)
        }
        for i in order {
            guard let complete = applying[i]?.first(where: \.isCompletion), case .complete(let day) = complete.plain,
                  !task(i).advances(completedOn: day)
            else { continue }
            for sub in document.descendants(of: i) where !document.tasks[sub].done && applying[sub] == nil {
                applying[sub] = [complete.plain]
                order.append(sub)
            }
        }
        guard !order.isEmpty else { return nil }
        var edited = document
        // In document order; a kept history adds a task after the task's subtasks, which moves the later ones.
        var shift: [(at: Int, by: Int)] = []
        for i in order.sorted() {
            let at = i + shift.filter { $0.at <= i }.reduce(0) { $0 + $1.by }
            let count = edited.tasks.count
            let copyAt = edited.descendants(of: at).upperBound
            for edit in applying[i]! { edited = try edited.applying(edit, to: at) }
            if edited.tasks.count > count { shift.append((copyAt - (at - i), edited.tasks.count - count)) }
        }
        let out = edited.serialize()
        return out == bytes ? nil : out
    }

    /// Why `.due(nil)` cannot be applied to task `i` (a rule that counts from the due date), or nil.
    public func dueRemovalProblem(_ i: Int) -> String? {
        let t = task(i)
        return Recurrence.problem(rule: t.recurrence, due: nil, until: t.until)
    }
}
