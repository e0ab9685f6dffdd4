// Changing tasks in their files: find the task again in whatever bytes the file holds when tick
// writes it, apply an edit of the format library, and write through the folder's writer.

// MARK: - Task keys

/// A task named so that tick can find it again in bytes read later: its list file, its title
/// and how many earlier tasks of that list have the same title. (Refs are made otherwise: FORMAT.md 5.9.)
///
/// Line numbers and indexes go stale as soon as someone edits the file; a key does not, unless
/// the task's own title changes (or a same-titled task is added or removed above it).
public struct TaskKey: Hashable, Sendable, CustomStringConvertible {
    /// The list file's path relative to the folder.
    public var path: String
    public var title: String
    public var occurrence: Int

    public init(path: String, title: String, occurrence: Int) {
        self.path = path
        self.title = title
        self.occurrence = occurrence
    }

    public var description: String { "'\(title)' in \(path)" }
}

extension Document {
    /// The index of the task that `key` names (its path is not compared), or nil.
    public func index(of key: TaskKey) -> Int? {
        var seen = 0
        for (i, task) in tasks.enumerated() where task.title.utf8.elementsEqual(key.title.utf8) {
            if seen == key.occurrence { return i }
            seen += 1
        }
        return nil
    }

    /// The key of task `i` of this document, stored at `path`.
    public func key(of i: Int, path: String) -> TaskKey {
        let title = tasks[i].title
        let occurrence = tasks[..<i].reduce(0) { $0 + ($1.title.utf8.elementsEqual(title.utf8) ? 1 : 0) }
        return TaskKey(path: path, title: title, occurrence: occurrence)
    }

    /// The indexes of `i`'s subtasks, at every depth.
    func descendants(of i: Int) -> Range<Int> {
        var end = i + 1
        while end < tasks.count, tasks[end].depth > tasks[i].depth { end += 1 }
        return (i + 1)..<end
    }
}

extension Library {
    /// The key of a task of the folder.
    public func key(_ id: TaskID) -> TaskKey {
        let segment = lists[id.list].segment
        let title = segment.bytes(segment.cold(id.index).title)
        var occurrence = 0
        for i in 0..<id.index where segment.bytes(segment.cold(i).title).elementsEqual(title) { occurrence += 1 }
        return TaskKey(path: lists[id.list].file.path, title: String(decoding: title, as: UTF8.self), occurrence: occurrence)
    }

    /// The task a key names, if it is still there.
    public func id(of key: TaskKey) -> TaskID? {
        guard let l = list(at: key.path) else { return nil }
        let segment = lists[l].segment
        var seen = 0
        for i in 0..<segment.taskCount where segment.bytes(segment.cold(i).title).elementsEqual(key.title.utf8) {
            if seen == key.occurrence { return TaskID(list: l, index: i) }
            seen += 1
        }
        return nil
    }

    /// The list stored at `path`.
    public func list(at path: String) -> Int? { lists.firstIndex { $0.file.path == path } }

    /// How many subtasks, at every depth, a task has.
    public func subtaskCount(of id: TaskID) -> Int {
        let segment = lists[id.list].segment
        let depth = segment.cold(id.index).depth
        var j = id.index + 1
        while j < segment.taskCount, segment.cold(j).depth > depth { j += 1 }
        return j - id.index - 1
    }

    /// This library with the lists at these paths replaced by the documents given (nil: the file
    /// is gone), and new paths added in path order. The other lists keep their records.
    func replacing(_ documents: [String: Document?], in folder: Folder) -> Library {
        var entries: [(file: ListFile, segment: Segment?, document: Document?)] = lists.map { ($0.file, $0.segment, nil) }
        for (path, document) in documents {
            if let i = entries.firstIndex(where: { $0.file.path == path }) {
                if let document { entries[i] = (entries[i].file, nil, document) } else { entries.remove(at: i) }
            } else if let document {
                entries.append((ListFile(path: path, absolutePath: folder.absolute(path)), nil, document))
            }
        }
        entries = entries.map { (entry: $0, key: Array($0.file.path.utf8)) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry)
        // The new storage keeps the old one (and so the old segments) alive.
        let old = storage
        let storage = SegmentStorage { _ = old }
        let segments = entries.map { entry in
            entry.segment ?? storage.own(Segment.build(entry.document!, path: entry.file.path))
        }
        return Library.assemble(files: entries.map(\.file), segments: segments, storage: storage, retired: retired)
    }
}

// MARK: - Errors

/// Why a change of tasks or lists was not made. Nothing is written when one is thrown.
public enum MutationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The task is no longer in its file: someone changed or removed it meanwhile.
    case taskGone(TaskKey)
    /// The list file is gone.
    case listGone(path: String)
    /// A moved task changed in its old list while tick moved it: it is now in both lists.
    case changedWhileMoving(title: String, from: String, to: String)
    /// A list name that cannot name a file in the folder.
    case badListName(String, reason: String)
    /// A list whose file name is taken, ignoring case.
    case listExists(name: String, path: String)
    /// `list rm` of a list with open tasks, without `--force`.
    case openTasks(list: String, count: Int)
    /// A value that cannot be written into a list file.
    case badValue(String)

    public var description: String {
        switch self {
        case .taskGone(let key):
            return "the task '\(key.title)' is no longer in \(key.path) (changed meanwhile?); nothing written"
        case .listGone(let path):
            return "the list \(path) is gone; nothing written"
        case .changedWhileMoving(let title, let from, let to):
            return "'\(title)' changed in \(from) while tick moved it to \(to); it is now in both lists"
        case .badListName(let name, let reason):
            return "cannot name a list '\(name)': \(reason)"
        case .listExists(let name, let path):
            return "cannot create the list '\(name)': \(path) exists already"
        case .openTasks(let list, let count):
            return "the list '\(list)' has \(count) open task\(count == 1 ? "" : "s"); "
                + "use --force to delete it with \(count == 1 ? "it" : "them")"
        case .badValue(let message):
            return message
        }
    }
}

// MARK: - Mutator

/// Where a new task goes.
public enum Placement: Sendable, Equatable {
    /// In the list's part outside sections: after its last task there, else before the first
    /// section heading (FORMAT.md, section 8.1).
    case end
    /// After the last task of the section under this heading.
    case section(String)
    /// As the last subtask of this task (which must be in the same list).
    case subtask(of: TaskKey)
}

/// Makes changes to a folder's tasks and lists while holding its writer (and so its lock), and
/// keeps a `Library` that reflects what it wrote.
///
/// Every edit is a function of a file's bytes that finds its tasks by key: the writer runs it on
/// what the file holds at the moment of writing, and again if an editor saves the file meanwhile.
public final class Mutator {
    public let writer: FolderWriter
    public let folder: Folder
    /// The folder as loaded, with every change made since.
    public private(set) var library: Library

    public init(writer: FolderWriter, folder: Folder, library: Library) {
        self.writer = writer
        self.folder = folder
        self.library = library
    }

    // MARK: Editing tasks in place

    /// Applies `edit` to each task that `keys` name, in one change (one journal entry): each file
    /// once, the tasks of a file in document order. `edit` must keep the file's tasks (their
    /// number and order). Returns the keys of the edited tasks afterwards, in the order of `keys`.
    @discardableResult
    public func update(_ keys: [TaskKey], summary: String,
                       _ edit: @escaping (Document, Int) throws -> Document) throws -> [TaskKey] {
        let paths = orderedPaths(keys)
        let results = Box<[String: (document: Document, indexes: [TaskKey: Int])]>([:])
        var edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        for path in paths {
            let mine = keys.filter { $0.path == path }
            edits.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = Document(bytes: bytes)
                var indexes: [TaskKey: Int] = [:]
                for key in mine {
                    guard let i = document.index(of: key) else { throw MutationError.taskGone(key) }
                    indexes[key] = i
                }
                let count = document.tasks.count
                for i in Set(indexes.values).sorted() {
                    document = try edit(document, i)
                    precondition(document.tasks.count == count, "an in-place edit added or removed tasks")
                }
                results.value[path] = (document, indexes)
                return .write(document.serialize())
            }))
        }
        try writer.change(summary, edits)
        refresh(results.value.mapValues { $0.document })
        return keys.map { key in
            let result = results.value[key.path]!
            return result.document.key(of: result.indexes[key]!, path: key.path)
        }
    }

    // MARK: Adding

    /// Inserts `task` into the list at `path`. A missing file is created holding the heading
    /// `# createWithHeading` when that is given, else the list is gone. Returns the new task's key.
    public func insert(_ task: NewTask, into path: String, at placement: Placement,
                       createWithHeading heading: String? = nil, summary: String) throws -> TaskKey {
        let results = Box<(document: Document, index: Int)?>(nil)
        try writer.change(summary, path: path) { bytes in
            let document: Document
            if let bytes {
                document = Document(bytes: bytes)
            } else if let heading {
                document = Document("# \(heading)\n")
            } else {
                throw MutationError.listGone(path: path)
            }
            let point: InsertionPoint
            switch placement {
            case .end: point = .unsectioned
            case .section(let name): point = .section(name)
            case .subtask(of: let parent):
                guard let p = document.index(of: parent) else { throw MutationError.taskGone(parent) }
                point = .subtask(of: p)
            }
            let result = try document.inserting(task, at: point)
            results.value = (result.document, result.task!)
            return .write(result.document.serialize())
        }
        let (document, index) = results.value!
        refresh([path: document])
        return document.key(of: index, path: path)
    }

    // MARK: Removing

    /// Removes the tasks that `keys` name, with their notes and subtasks, in one change.
    public func remove(_ keys: [TaskKey], summary: String) throws {
        let results = Box<[String: Document]>([:])
        var edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        for path in orderedPaths(keys) {
            let mine = keys.filter { $0.path == path }
            edits.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = Document(bytes: bytes)
                for i in try Mutator.outermost(mine, in: document).reversed() {
                    document = try document.removing(i).document
                }
                results.value[path] = document
                return .write(document.serialize())
            }))
        }
        try writer.change(summary, edits)
        refresh(results.value)
    }

    /// The indexes of the tasks `keys` name, ascending, without those inside another one of them.
    static func outermost(_ keys: [TaskKey], in document: Document) throws -> [Int] {
        var indexes: [Int] = []
        for key in keys {
            guard let i = document.index(of: key) else { throw MutationError.taskGone(key) }
            indexes.append(i)
        }
        var result: [Int] = []
        for i in Set(indexes).sorted() where !result.contains(where: { document.descendants(of: $0).contains(i) }) {
            result.append(i)
        }
        return result
    }

    // MARK: Moving

    /// Moves the tasks that `keys` name, with their notes and subtasks, to the end of the list at
    /// `destination`, in the order of `keys`. The destination is written first, then each source:
    /// a crash in between leaves a task in both lists, which the next run finishes moving.
    /// Returns the moved tasks' keys in the destination (a subtask moved with its parent has none).
    public func move(_ keys: [TaskKey], to destination: String, summary: String) throws -> [TaskKey?] {
        // The tasks as they are now (under the lock, so only an editor can change them before the
        // writes; the sources' edits check that).
        var fragments: [TaskKey: (fragment: TaskFragment, text: [String])] = [:]
        for path in orderedPaths(keys) where path != destination {
            let document = try self.document(at: path)
            for i in try Mutator.outermost(keys.filter { $0.path == path }, in: document) {
                fragments[document.key(of: i, path: path)] = (try document.extracting(i), Mutator.text(of: i, in: document))
            }
        }
        let moving = keys.filter { $0.path == destination || fragments[$0] != nil }
        let results = Box<[String: Document]>([:])
        let placed = Box<[TaskKey: Int]>([:])
        var edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        edits.append((destination, { bytes in
            guard let bytes else { throw MutationError.listGone(path: destination) }
            var document = Document(bytes: bytes)
            // Tasks already in the destination go to its end too: take them out first.
            var own: [TaskKey: TaskFragment] = [:]
            let ownKeys = moving.filter { $0.path == destination }
            let ownIndexes = try Mutator.outermost(ownKeys, in: document)
            for i in ownIndexes { own[document.key(of: i, path: destination)] = try document.extracting(i) }
            for i in ownIndexes.reversed() { document = try document.removing(i).document }
            var indexes: [TaskKey: Int] = [:]
            for key in moving {
                guard let fragment = key.path == destination ? own[key] : fragments[key]?.fragment else { continue }
                let result = try document.inserting(fragment, at: .end)
                document = result.document
                indexes[key] = result.task!
            }
            placed.value = indexes
            results.value[destination] = document
            return .write(document.serialize())
        }))
        for path in orderedPaths(keys) where path != destination {
            let mine = keys.filter { $0.path == path && fragments[$0] != nil }
            edits.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = Document(bytes: bytes)
                let indexes = try Mutator.outermost(mine, in: document)
                for i in indexes {
                    let key = document.key(of: i, path: path)
                    guard fragments[key]?.text == Mutator.text(of: i, in: document) else {
                        throw MutationError.changedWhileMoving(title: key.title, from: path, to: destination)
                    }
                }
                for i in indexes.reversed() { document = try document.removing(i).document }
                results.value[path] = document
                return .write(document.serialize())
            }))
        }
        try writer.change(summary, edits)
        refresh(results.value)
        let document = results.value[destination]!
        return keys.map { key in placed.value[key].map { document.key(of: $0, path: destination) } }
    }

    /// The lines of task `i` with its notes and subtasks, to notice a change (without the blank
    /// lines after it, which change when a task is added below it).
    private static func text(of i: Int, in document: Document) -> [String] {
        var lines = document.lineRange(of: i).map { document.lineText($0) }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" || $0 == ">" }) { lines.removeLast() }
        return lines
    }

    // MARK: Whole files

    /// Changes whole files in one change (the first path first): each edit gets the file's
    /// current bytes (nil when absent). Returns what was written.
    @discardableResult
    public func changeFiles(summary: String,
                            _ edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)]) throws -> [String: [UInt8]?] {
        let results = Box<[String: [UInt8]?]>([:])
        let wrapped = edits.map { path, edit in
            (path, { (bytes: [UInt8]?) throws -> FileOutcome in
                let outcome = try edit(bytes)
                switch outcome {
                case .unchanged: results.value[path] = .some(bytes)
                case .write(let new): results.value[path] = .some(new)
                case .delete: results.value[path] = .some(nil)
                }
                return outcome
            })
        }
        try writer.change(summary, wrapped)
        var documents: [String: Document?] = [:]
        for (path, bytes) in results.value { documents[path] = bytes.map { Document(bytes: $0) } }
        refresh(documents)
        return results.value
    }

    /// Reverts the last change tick made to the folder; returns its summary.
    public func undo(force: Bool) throws -> String {
        let summary = try writer.undo(force: force)
        let before = library
        library = folder.load().library
        keep(library.retiredRefs(afterUndoing: before))
        return summary
    }

    // MARK: Reading and keeping the library current

    /// The list at `path` as its file holds it now.
    public func document(at path: String) throws -> Document {
        do {
            return Document(bytes: try folder.fileSystem.readFile(folder.absolute(path)))
        } catch FileSystemError.notFound {
            throw MutationError.listGone(path: path)
        }
    }

    private func refresh(_ documents: [String: Document]) {
        refresh(documents.mapValues { Optional($0) })
    }

    private func refresh(_ documents: [String: Document?]) {
        let before = library
        library = before.replacing(documents, in: folder)
        // A list edited by hand since tick last wrote it: its tasks deleted by hand retire their refs too.
        var handEdits: [(path: String, written: Document)] = []
        for path in documents.keys.sorted() {
            guard let versions = writer.journal.lastTwoVersions(of: path), versions.previousAfter != versions.before else { continue }
            handEdits.append((path, Document(bytes: versions.previousAfter)))
        }
        keep(library.retiredRefs(after: before, changing: Set(documents.keys), handEdits: handEdits))
    }

    /// Records the refs that this change retired (README "Refs"), in `.tick/retired` and in `library`.
    private func keep(_ retired: RetiredRefs) {
        guard retired.refs != library.retired.refs else { return }
        library = library.with(retired: retired)
        // The lists are written already: a record that cannot be written only weakens later warnings.
        try? retired.save(root: folder.path)
    }

    private func orderedPaths(_ keys: [TaskKey]) -> [String] {
        var paths: [String] = []
        for key in keys where !paths.contains(key.path) { paths.append(key.path) }
        return paths
    }
}

/// A mutable cell that the writer's edit closures fill (they may run more than once; the last
/// run is what was written).
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
