import TickFormat

// A change of many tasks in time linear in the tasks and the lists: their keys found in one pass
// over each list, and their line edits applied together (one splice, one parse, one check per
// list) rather than one after another.

extension Document {
    /// Applies each key's edits to its task, in document order. Tasks whose one edit is a line
    /// edit (`lineEdit(_:at:)`) are edited together; the others (a repeating task that moves on,
    /// new notes), and the tasks inside them, one at a time, as before. When the edits together do
    /// not read as intended, every task is edited alone, which tries the structure fixes and names
    /// the task that fails. Returns the document and each key's task index in it, in the order given.
    func applying(_ work: [(key: TaskKey, edits: [TaskEdit])]) throws -> (document: Document, indexes: [Int]) {
        try applying(at: indexes(of: work.map(\.key)), work.map(\.edits))
    }

    /// `applying(_:)` with each task's index in this document known (`edits[k]` for task `indexes[k]`).
    func applying(at indexes: [Int], _ edits: [[TaskEdit]]) throws -> (document: Document, indexes: [Int]) {
        var indexes = indexes
        let order = indexes.indices.sorted { indexes[$0] < indexes[$1] }
        var together: [(task: Int, edit: LineEdit)] = []
        var alone: [Int] = []
        // A repeating task that moves on opens its done subtasks again, so the tasks under one edited
        // alone are edited after it, in order, as they always were.
        var aloneUntil = 0
        for k in order {
            let i = indexes[k], mine = edits[k]
            if i >= aloneUntil, mine.count == 1, let edit = lineEdit(mine[0], at: i) {
                together.append((i, edit))
            } else {
                alone.append(k)
                aloneUntil = max(aloneUntil, descendants(of: i).upperBound)
            }
        }
        var document = self
        if together.count > 1, let edited = try? applyingTogether(together) {
            document = edited
        } else {
            alone = order
        }
        for k in alone {
            let i = indexes[k], count = document.tasks.count
            // Only a kept history adds a task: a completed copy right after the task's subtasks.
            let copyAt = document.descendants(of: i).upperBound
            for edit in edits[k] { document = try document.applying(edit, to: i) }
            // A completion can also keep one by the Tasks plugin's convention (FORMAT.md 11).
            let keepsHistory = edits[k].contains(where: \.isCompletion)
            precondition(document.tasks.count == count || (keepsHistory && document.tasks.count == count + 1),
                         "an in-place edit added or removed tasks")
            if document.tasks.count > count {
                for j in indexes.indices where indexes[j] >= copyAt { indexes[j] += 1 }
            }
        }
        return (document, indexes)
    }

    /// The index of each task that `keys` name (their paths are not compared), in the order
    /// given, found in one pass; throws for the first key whose task is not there.
    func indexes(of keys: [TaskKey]) throws -> [Int] {
        var counter = TitleCounter(keys.map(\.title))
        var wanted: [TitleOccurrence: Int] = [:]
        wanted.reserveCapacity(keys.count)
        for key in keys { wanted[TitleOccurrence(title: TitleBytes(key.title), occurrence: key.occurrence)] = -1 }
        for (i, task) in tasks.enumerated() {
            let title = TitleBytes(task.title)
            guard let k = counter.next(title) else { continue }
            let occurrence = TitleOccurrence(title: title, occurrence: k)
            if let slot = wanted.index(forKey: occurrence) { wanted.values[slot] = i }
        }
        return try keys.map { key in
            let i = wanted[TitleOccurrence(title: TitleBytes(key.title), occurrence: key.occurrence)]!
            guard i >= 0 else { throw MutationError.taskGone(key) }
            return i
        }
    }
}

extension Document {
    /// Whether this document's tasks have the titles of `other`'s, byte for byte, in the same
    /// order: then a key finds task i in one where it finds task i in the other.
    func hasTitles(of other: Document) -> Bool {
        tasks.count == other.tasks.count && tasks.indices.allSatisfy { sameBytes(tasks[$0].title, other.tasks[$0].title) }
    }

    /// The keys of tasks `indexes` of this document, stored at `path`, in the order given:
    /// `key(of:path:)` of each, with one pass over the tasks up to the last one.
    func keys(of indexes: [Int], path: String) -> [TaskKey] {
        guard let last = indexes.max() else { return [] }
        var counter = TitleCounter(indexes.map { tasks[$0].title })
        var occurrence = [Int](repeating: 0, count: last + 1)
        for i in 0...last {
            if let k = counter.next(TitleBytes(tasks[i].title)) { occurrence[i] = k }
        }
        return indexes.map { TaskKey(path: path, title: tasks[$0].title, occurrence: occurrence[$0]) }
    }
}

/// Whether two strings have the same UTF-8 bytes (as keys compare titles).
func sameBytes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && x.elementsEqual(y) } }
}

/// Whether `a` has the UTF-8 bytes `b`.
func sameBytes(_ a: String, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    var a = a
    return a.withUTF8 { x in x.count == b.count && x.elementsEqual(b) }
}

/// A title that compares and hashes as its UTF-8 bytes, as keys compare titles (two canonically
/// equal spellings are two titles).
struct TitleBytes: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: TitleBytes, b: TitleBytes) -> Bool { sameBytes(a.text, b.text) }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
    }
}

/// The `occurrence`-th task (from 0) with this title in its list.
struct TitleOccurrence: Hashable {
    var title: TitleBytes
    var occurrence: Int
}

/// Counts the tasks of a list with each of some titles, in file order.
struct TitleCounter {
    private var seen: [TitleBytes: Int] = [:]

    /// Counts only `titles`.
    init(_ titles: [String]) {
        seen.reserveCapacity(titles.count)
        for title in titles { seen[TitleBytes(title)] = 0 }
    }

    /// How many tasks before this one had `title`, when it is one of the titles counted (nil otherwise).
    mutating func next(_ title: TitleBytes) -> Int? {
        guard let i = seen.index(forKey: title) else { return nil }
        let k = seen.values[i]
        seen.values[i] = k + 1
        return k
    }
}

extension TaskFolder {
    /// The indexes of the tasks `keys` name, ascending, without those inside another one of them.
    static func outermost(_ keys: [TaskKey], in document: Document) throws -> [Int] {
        let found = try document.indexes(of: keys)
        var result: [Int] = []
        // Subtasks follow their parent: a task inside an earlier one is inside the last one kept.
        var inside = 0..<0
        for i in Set(found).sorted() where !inside.contains(i) {
            result.append(i)
            inside = document.descendants(of: i)
        }
        return result
    }
}

extension Library {
    /// The edits of `edits` that would change task `id` (`leavesAsIs` of each); a completion asks
    /// only whether the task is done, without building the whole task.
    func applicable(_ edits: [TaskEdit], to id: TaskID) -> [TaskEdit] {
        if edits.allSatisfy(\.isCompletion) { return isDone(id) ? [] : edits }
        let task = task(id), notes = notes(id)
        return edits.filter { !$0.leavesAsIs(task, notes: notes) }
    }

    /// Whether a task is done, from its hot record alone.
    func isDone(_ id: TaskID) -> Bool { lists[id.list].segment.hot(id.index).done }

    /// Whether a task has a `rec:` rule (or a Tasks phrase): only then can a completion move it on.
    func repeats(_ id: TaskID) -> Bool { RecurrenceRule(packed: lists[id.list].segment.cold(id.index).recurrence) != nil }

    /// A task's title, without building the whole task.
    func title(_ id: TaskID) -> String { lists[id.list].segment.string(record(id).title) ?? "" }

    /// A task's subtasks at every depth, in file order.
    public func descendants(of id: TaskID) -> [TaskID] {
        (0..<subtaskCount(of: id)).map { TaskID(list: id.list, index: id.index + 1 + $0) }
    }

    /// Whether list `l` holds tasks with the titles of `document`'s, byte for byte, in the same order
    /// (the list as read and the file as it is now): then task i of the list is task i of the
    /// document, and a key finds the same task in both.
    func hasTitles(ofList l: Int, in document: Document) -> Bool {
        let segment = lists[l].segment
        guard segment.taskCount == document.tasks.count else { return false }
        segment.proveRecordsAndText()
        for i in 0..<segment.taskCount where !sameBytes(document.tasks[i].title, segment.title(of: segment.cold(i))) {
            return false
        }
        return true
    }

    /// The keys of the tasks `ids`, in that order: `key(_:)` of each, with one pass over each list.
    public func keys(_ ids: [TaskID]) -> [TaskKey] {
        var byList: [Int: [Int]] = [:]
        for id in ids { byList[id.list, default: []].append(id.index) }
        var found: [TaskID: TaskKey] = [:]
        found.reserveCapacity(ids.count)
        for (l, indexes) in byList {
            let segment = lists[l].segment
            segment.proveRecordsAndText()
            let last = indexes.max()!
            func title(_ i: Int) -> String { String(decoding: segment.title(of: segment.cold(i)), as: UTF8.self) }
            var counter = TitleCounter(indexes.map(title))
            var occurrence = [Int](repeating: 0, count: last + 1)
            for i in 0...last {
                if let k = counter.next(TitleBytes(title(i))) { occurrence[i] = k }
            }
            for i in indexes {
                found[TaskID(list: l, index: i)] = TaskKey(path: lists[l].file.path, title: title(i), occurrence: occurrence[i])
            }
        }
        return ids.map { found[$0]! }
    }

    /// The tasks that `keys` name where they still are, in the order given: `id(of:)` of each, with
    /// one pass over each list.
    public func ids(of keys: [TaskKey]) -> [TaskID?] {
        var byPath: [String: [Int]] = [:]
        for (k, key) in keys.enumerated() { byPath[key.path, default: []].append(k) }
        var result = [TaskID?](repeating: nil, count: keys.count)
        for (path, positions) in byPath {
            guard let l = list(at: path) else { continue }
            let segment = lists[l].segment
            segment.proveRecordsAndText()
            // Each title named: how many tasks had it so far, and the keys wanting it by occurrence,
            // in order, from `next` on. One lookup a task.
            var wanted: [TitleBytes: (seen: Int, next: Int, keys: [(occurrence: Int, k: Int)])] = [:]
            wanted.reserveCapacity(positions.count)
            for k in positions { wanted[TitleBytes(keys[k].title), default: (0, 0, [])].keys.append((keys[k].occurrence, k)) }
            for slot in wanted.indices { wanted.values[slot].keys.sort { $0.occurrence < $1.occurrence } }
            for i in 0..<segment.taskCount {
                let title = TitleBytes(String(decoding: segment.title(of: segment.cold(i)), as: UTF8.self))
                guard let slot = wanted.index(forKey: title) else { continue }
                let n = wanted.values[slot].seen
                wanted.values[slot].seen = n + 1
                while wanted.values[slot].next < wanted.values[slot].keys.count {
                    let (occurrence, k) = wanted.values[slot].keys[wanted.values[slot].next]
                    guard occurrence <= n else { break }
                    if occurrence == n { result[k] = TaskID(list: l, index: i) }
                    wanted.values[slot].next += 1
                }
            }
        }
        return result
    }
}
