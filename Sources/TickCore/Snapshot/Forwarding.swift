import TickFormat

// Refs that follow tick's own changes: a ref retired because tick changed its task forwards to the ref
// the task is shown under afterwards (FORMAT.md 5.9, README "Refs").

/// What tick knew of the task a ref named when its own change retired the ref.
public struct RetiredNote: Sendable, Equatable {
    /// The full ref the task was shown under right after the change; nil when tick removed it.
    public var to: Ref?
    /// The task's title then, without control characters, cut to `maximumLength` bytes.
    public var title: String

    /// The longest note kept: the ref, a space and a title of at most 200 bytes.
    public static let maximumLength = Ref.fullLength + 1 + 200

    public init(to: Ref?, title: String) {
        self.to = to
        var bytes = Array(title.utf8).map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }
        if bytes.count > 200 {
            // Cut on a character's first byte.
            var end = 200
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            bytes = Array(bytes[..<end])
        }
        self.title = String(decoding: bytes, as: UTF8.self)
    }

    /// `TO TITLE`, where TO is the full ref, or `-` for a removed task.
    var text: [UInt8] { Array((to?.description ?? "-").utf8) + [0x20] + Array(title.utf8) }

    /// A note as `text` writes it, or nil for anything else: the file is untrusted, so the ref must be a
    /// full ref, and the title valid UTF-8 of at most 200 bytes without control characters.
    init?(text: some Collection<UInt8>) {
        let bytes = Array(text)
        guard bytes.count <= RetiredNote.maximumLength, let space = bytes.firstIndex(of: 0x20) else { return nil }
        let head = bytes[..<space], title = bytes[(space + 1)...]
        guard !title.contains(where: { $0 < 0x20 || $0 == 0x7F }), let string = String(validating: title, as: UTF8.self)
        else { return nil }
        if head.elementsEqual("-".utf8) {
            self.to = nil
        } else {
            guard let ref = Ref(fullText: head) else { return nil }
            self.to = ref
        }
        self.title = string
    }
}

extension Library {
    /// Where a retired ref leads: the task its notes forward to (following a chain of at most 16 changes),
    /// or why it cannot be reached, with the title of the task it last named.
    func forward(_ ref: Ref) -> (task: TaskID?, title: String, reason: String)? {
        guard var note = retired.notes[ref.hash] else { return nil }
        var seen: Set<UInt64> = [ref.hash]
        for _ in 0..<16 {
            guard let to = note.to else { return (nil, note.title, "which tick has since removed") }
            if retired.contains(to.hash) {
                guard seen.insert(to.hash).inserted, let next = retired.notes[to.hash] else {
                    return (nil, note.title, "which tick has since changed, and its ref then (\(to.prefix(Ref.minimumLength))) is retired")
                }
                note = next
                continue
            }
            var found: [TaskID] = []
            for (l, list) in lists.enumerated() {
                for i in 0..<list.taskCount where fullRef(TaskID(list: l, index: i), hash: list.segment.refRecord(i).refHash) == to {
                    found.append(TaskID(list: l, index: i))
                }
            }
            if found.count == 1 { return (found[0], note.title, "") }
            return (nil, note.title, found.isEmpty
                    ? "which tick has since changed; its ref then (\(to.prefix(Ref.minimumLength))) names no task now, changed by hand"
                    : "which tick has since changed; its ref then (\(to.prefix(Ref.minimumLength))) names several tasks now")
        }
        return (nil, note.title, "which tick has changed too many times since")
    }

    /// A task's fields that tell it apart from others wherever it is: the hash its content ref would have
    /// in a list at no path, with its completion.
    func fingerprint(_ id: TaskID) -> UInt64 {
        let list = lists[id.list]
        let segment = list.segment
        let h = segment.hot(id.index), c = segment.cold(id.index), p = segment.parent(ofRead: id.index, h)
        let parent = p < 0 || Int(p) >= segment.taskCount ? UnsafeBufferPointer(start: nil, count: 0)
            : segment.title(of: segment.cold(Int(p)))
        let notes = c.notes.isNone ? UnsafeBufferPointer(start: nil, count: 0) : segment.bytes(c.notes)
        let content = Ref.content(path: [], title: segment.title(of: c), due: h.due, priority: Int(h.priority),
                                  flagged: h.flagged, section: segment.section(c.section), parentTitle: parent, notes: notes)
        return content.hash ^ (h.done ? 1 : 0)
    }

    /// The tasks of the lists at `paths` in `before` matched with what they are in this library, after a
    /// change by tick: the tasks `following` names (after: nil for one removed) and their subtasks, by
    /// their order under it (when it has as many afterwards), then the others of each list
    /// (of the list it became, for a list renamed in `renamed`) in order, by their fields: a common start and
    /// end, and between them the longest common run (when that part is small).
    func matchedTasks(before: Library, changing paths: Set<String>, following: [(before: TaskID, after: TaskKey?)],
                      renamed: [String: String]) -> [(before: TaskID, after: TaskID)] {
        var pairs: [(before: TaskID, after: TaskID)] = []
        var takenBefore = Set<TaskID>(), takenAfter = Set<TaskID>()
        // The tasks found where they are now first (each key with one pass over each list), so that a
        // subtask named beside its parent (whose place its parent's names) is not taken for removed.
        var found = ids(of: following.compactMap(\.after)).makeIterator()
        var followed: [(before: TaskID, after: TaskID)] = []
        for task in following {
            let now = task.after == nil ? nil : found.next()!
            guard let now, !takenBefore.contains(task.before), takenAfter.insert(now).inserted else { continue }
            takenBefore.insert(task.before)
            pairs.append((task.before, now))
            followed.append((task.before, now))
        }
        // A followed task's subtasks are the same tasks, in order, when it has as many afterwards: a new
        // title or a move changes what their refs are made of (the parent's title, the path), not which
        // tasks they are.
        for (old, now) in followed {
            let was = before.descendants(of: old), are = descendants(of: now)
            guard was.count == are.count else { continue }
            for (a, b) in zip(was, are) where !takenBefore.contains(a) && !takenAfter.contains(b) {
                takenBefore.insert(a)
                takenAfter.insert(b)
                pairs.append((a, b))
            }
        }
        for task in following { takenBefore.insert(task.before) }
        for path in paths.sorted() {
            guard let lb = before.list(at: path), let la = list(at: renamed[path] ?? path) else { continue }
            let old = (0..<before.lists[lb].taskCount).map { TaskID(list: lb, index: $0) }.filter { !takenBefore.contains($0) }
            let new = (0..<lists[la].taskCount).map { TaskID(list: la, index: $0) }.filter { !takenAfter.contains($0) }
            // The records' refs first (equal ones are the same task here: a change keeps most refs), the
            // fields only where they differ, so that a change to a huge list hashes few tasks.
            let oldSegment = before.lists[lb].segment, newSegment = lists[la].segment
            func same(_ i: Int, _ j: Int) -> Bool {
                oldSegment.refRecord(old[i].index).refHash == newSegment.refRecord(new[j].index).refHash
                    || before.fingerprint(old[i]) == fingerprint(new[j])
            }
            var start = 0
            while start < old.count, start < new.count, same(start, start) { start += 1 }
            var end = 0
            while end < old.count - start, end < new.count - start, same(old.count - 1 - end, new.count - 1 - end) { end += 1 }
            let a = old[start..<(old.count - end)].map(before.fingerprint), b = new[start..<(new.count - end)].map(fingerprint)
            for k in 0..<start { pairs.append((old[k], new[k])) }
            for k in 0..<end { pairs.append((old[old.count - 1 - k], new[new.count - 1 - k])) }
            let m = a.count, n = b.count
            guard m > 0, n > 0, m * n <= 1 << 20 else { continue }
            // The longest common run of the middles, by dynamic programming.
            var table = [[Int32]](repeating: [Int32](repeating: 0, count: n + 1), count: m + 1)
            for i in stride(from: m - 1, through: 0, by: -1) {
                for j in stride(from: n - 1, through: 0, by: -1) {
                    table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < m, j < n {
                if a[i] == b[j] {
                    pairs.append((old[start + i], new[start + j]))
                    i += 1
                    j += 1
                } else if table[i + 1][j] >= table[i][j + 1] {
                    i += 1
                } else {
                    j += 1
                }
            }
        }
        return pairs
    }
}
