import TickFormat

// One list's text as an editor holds it (unsaved, never read from disk): what `tick check` finds in
// it, its tasks, and the bytes a task edit gives, by the same edits `TaskFolder` makes. The
// language server (`tick lsp`) asks this, and nothing else, about the format.
//
// A change inside one top-level task is checked again on that task's lines alone (`replacing`),
// when those lines read the same alone as in the list (BufferSlices.swift); the whole text is
// parsed again only when a question needs it.

/// A list's text held by an editor, read as tick reads the file.
public final class ListBuffer: @unchecked Sendable {
    public let bytes: [UInt8]
    let globalFilter: GlobalFilter?
    /// Offset where each line starts (1-based line n at index n - 1), split as `Lines` splits.
    let lineStarts: [Int]
    /// The whole text parsed, made when first needed after an incremental check.
    private var parsed: Document?
    /// What `tick check` reports (its document-wide conflict marker aside), in line order.
    private(set) var found: [Problem]
    /// The top-level tasks whose lines read alone as in the list: their first and last lines.
    private(set) var slices: [ClosedRange<Int>]
    /// Each `id:` with its task's line, for duplicates.
    private(set) var ids: [(line: Int, column: Int, id: String)]
    /// The last line of a `---` block at the top (front matter or not), whose reading may depend on
    /// any line up to it: 0 without one, `Int.max` for one that is not closed.
    let frontMatterEnd: Int
    /// Whether this buffer was checked on one task's lines alone (`replacing`).
    private(set) var checkedAlone = false

    /// A buffer larger than this is parsed in parts of about this many bytes, to the same result:
    /// cmark's tree of a part, not of the whole text, is what a parse holds at its peak. An editor
    /// keeps the server for hours, so its peak is the one that counts (bench/lsp measures it).
    public static let partSize = 64 << 10

    /// `globalFilter` as the folder reads its lists (`Folder.globalFilter`).
    public convenience init(bytes: [UInt8], globalFilter: GlobalFilter? = nil) {
        self.init(bytes: bytes, globalFilter: globalFilter, partSize: ListBuffer.partSize)
    }

    /// `partSize` as `Document` takes it (tests parse the same text whole, with 0).
    init(bytes: [UInt8], globalFilter: GlobalFilter?, partSize: Int) {
        self.bytes = bytes
        self.globalFilter = globalFilter
        lineStarts = ListBuffer.lineStarts(of: bytes)
        let document = Document(bytes: bytes, globalFilter: globalFilter, forCheck: true, partSize: partSize)
        parsed = document
        found = document.checkDiagnostics().filter { !$0.message.hasPrefix(ListBuffer.conflictPrefix) }
            .map { Problem(line: $0.line, column: $0.column, message: $0.message) }
        ids = ListBuffer.ids(of: document, lineOffset: 0)
        frontMatterEnd = ListBuffer.frontMatterEnd(of: document)
        slices = []
        slices = (0..<document.tasks.count).compactMap { sliceable($0, in: document) }
    }

    init(bytes: [UInt8], globalFilter: GlobalFilter?, lineStarts: [Int], found: [Problem], slices: [ClosedRange<Int>],
         ids: [(line: Int, column: Int, id: String)], frontMatterEnd: Int) {
        self.frontMatterEnd = frontMatterEnd
        self.bytes = bytes
        self.globalFilter = globalFilter
        self.lineStarts = lineStarts
        self.found = found
        self.slices = slices
        self.ids = ids
        checkedAlone = true
    }

    /// The whole text parsed (once).
    var document: Document {
        if let parsed { return parsed }
        let document = Document(bytes: bytes, globalFilter: globalFilter, forCheck: false, partSize: ListBuffer.partSize)
        parsed = document
        return document
    }

    /// How many tasks the text holds.
    public var taskCount: Int { document.tasks.count }

    /// Task `i`'s fields, as a library gives them.
    public func task(_ i: Int) -> TaskInfo { ListBuffer.info(document.tasks[i]) }

    static func info(_ t: Task) -> TaskInfo {
        TaskInfo(done: t.done, title: t.title, due: t.due, doneDate: t.doneDate, priority: t.priority,
                 flagged: t.flagged, id: t.id, recurrence: t.recurrence, until: t.until, tags: t.tags,
                 line: t.line, parent: t.parent, section: t.section, depth: t.depth,
                 scheduled: t.scheduled, start: t.start, repeatPhrase: t.repeatPhrase)
    }

    /// The lines task `i` owns (1-based): from its list marker to its last line, notes and subtasks included.
    public func lines(of i: Int) -> ClosedRange<Int> { document.lineRange(of: i) }

    /// The index of the task whose checkbox is on `line` (1-based), or nil.
    public func task(onLine line: Int) -> Int? { document.task(onLine: line) }

    /// The indexes of task `i`'s subtasks, at every depth.
    public func subtasks(of i: Int) -> Range<Int> { document.descendants(of: i) }

    /// The list's heading (its first `#` heading), or nil.
    public var heading: String? { document.heading }

    // MARK: - Problems

    /// A problem at a line and a byte column (both 1-based), as `tick check` prints it.
    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    static let conflictPrefix = "git conflict marker"

    /// Every problem `tick check` reports for this text alone (`ListFileCheck`), and an `id:` used
    /// twice in it, in line order.
    public func problems() -> [Problem] {
        var all = found
        if let line = Document.conflictMarkerLine(in: bytes) {
            all.append(Problem(line: line, column: 1,
                               message: "git conflict marker: resolve the conflict; tick writes nothing to this file until then"))
        }
        var first: [String: Int] = [:]
        for entry in ids {
            if let line = first[entry.id] {
                all.append(Problem(line: entry.line, column: entry.column,
                                   message: "duplicate id 'id:\(entry.id)': line \(line) has it too; an id names one task"))
            } else {
                first[entry.id] = entry.line
            }
        }
        return all.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    static func frontMatterEnd(of document: Document) -> Int {
        if let frontMatter = document.frontMatter { return frontMatter.closingLine }
        let text = document.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(document.bytes.dropFirst(3)) : document.bytes
        return text.starts(with: Array("---".utf8)) ? Int.max : 0
    }

    static func ids(of document: Document, lineOffset: Int) -> [(line: Int, column: Int, id: String)] {
        document.tasks.compactMap { task in
            guard let id = task.id else { return nil }
            let text = Array(document.lineText(task.line).utf8), token = Array("id:\(id)".utf8)
            let offset = text.indices.first { text[$0...].starts(with: token) } ?? 0
            return (task.line + lineOffset, offset + 1, id)
        }
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
        // One top-level task that reads alone as in the list: edited on its own lines.
        if indexes.count == 1, let slice = slice(holding: indexes[0]) {
            let part = Document(bytes: Array(bytes[lineStarts[slice.lines.lowerBound - 1]..<end(ofLine: slice.lines.upperBound)]),
                                globalFilter: globalFilter)
            guard part.lineEnding == document.lineEnding else { return try ListBuffer.applying(edit, to: indexes, in: document) }
            guard let edited = try ListBuffer.applying(edit, to: [indexes[0] - slice.first], in: part) else { return nil }
            var out = bytes
            out.replaceSubrange(lineStarts[slice.lines.lowerBound - 1]..<end(ofLine: slice.lines.upperBound), with: edited)
            return out
        }
        return try ListBuffer.applying(edit, to: indexes, in: document)
    }

    static func applying(_ edit: TaskEdit, to indexes: [Int], in document: Document) throws -> [UInt8]? {
        var applying: [Int: [TaskEdit]] = [:]
        var order: [Int] = []
        for i in indexes where document.tasks.indices.contains(i) {
            let applied = [edit].filter { !$0.leavesAsIs(info(document.tasks[i]), notes: "") }
            guard !applied.isEmpty, applying[i] == nil else { continue }
            applying[i] = applied
            order.append(i)
        }
        for i in order {
            guard let complete = applying[i]?.first(where: \.isCompletion), case .complete(let day) = complete.plain,
                  !info(document.tasks[i]).advances(completedOn: day)
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
        return out == document.bytes ? nil : out
    }

    /// Why `.due(nil)` cannot be applied to task `i` (a rule that counts from the due date), or nil.
    public func dueRemovalProblem(_ i: Int) -> String? {
        let t = task(i)
        return Recurrence.problem(rule: t.recurrence, due: nil, until: t.until)
    }
}
