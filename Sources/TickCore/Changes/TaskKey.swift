import TickFormat

// Naming a task so that a change finds it again in whatever bytes its file holds when tick writes.

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
        if id.index > 0 { segment.proveRecordsAndText() }
        let title = segment.title(of: segment.cold(id.index))
        var occurrence = 0
        for i in 0..<id.index where segment.title(of: segment.cold(i)).elementsEqual(title) { occurrence += 1 }
        return TaskKey(path: lists[id.list].file.path, title: String(decoding: title, as: UTF8.self), occurrence: occurrence)
    }

    /// The task a key names, if it is still there.
    public func id(of key: TaskKey) -> TaskID? {
        guard let l = list(at: key.path) else { return nil }
        let segment = lists[l].segment
        var seen = 0
        segment.proveRecordsAndText()
        for i in 0..<segment.taskCount where segment.title(of: segment.cold(i)).elementsEqual(key.title.utf8) {
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
    /// is gone), and new paths added in path order, each with its file's status from `statuses`
    /// (as the writer left it). The other lists keep their records, and the short-ref lengths stand
    /// when every replaced list names its tasks by the same refs.
    func replacing(_ documents: [String: Document?], in folder: Folder, statuses: [String: FileStatus] = [:]) -> Library {
        // The new storage keeps the old one (and so the old segments) alive.
        let old = storage
        let storage = SegmentStorage { _ = old }
        var sameRefs = true
        var files: [ListFile] = [], segments: [Segment] = []
        files.reserveCapacity(lists.count + documents.count)
        segments.reserveCapacity(lists.count + documents.count)
        // Each list is carried over once, in its order; only new paths make the lists sorted again.
        var found: Set<String> = []
        for list in lists {
            var file = list.file
            guard let replaced = documents[file.path] else {
                files.append(file)
                segments.append(list.segment)
                continue
            }
            found.insert(file.path)
            guard let document = replaced else {
                sameRefs = false
                continue
            }
            file.status = statuses[file.path]
            let segment = storage.adopt(Segment.built(document, path: file.path))
            if !segment.hasSameRefs(as: list.segment) { sameRefs = false }
            files.append(file)
            segments.append(segment)
        }
        let added = documents.compactMap { path, document in found.contains(path) ? nil : document.map { (path, $0) } }
        if !added.isEmpty {
            sameRefs = false
            for (path, document) in added {
                files.append(ListFile(path: path, absolutePath: folder.absolute(path), status: statuses[path]))
                segments.append(storage.adopt(Segment.built(document, path: path)))
            }
            let order = Path.byteOrder(files.map(\.path))
            files = order.map { files[$0] }
            segments = order.map { segments[$0] }
        }
        return Library.assemble(files: files, segments: segments, storage: storage,
                                shortRefLengths: sameRefs ? refLengths.table : nil, retired: retired)
    }
}
