import TickFormat

// Giving a task another parent within its list: the one structural change that stays inside one
// file. Kept apart from TaskFolder's moves between lists.

extension TaskFolder {
    /// Where a task goes by `reparent`: under another task of its list, or out to the top level.
    public struct Reparent: Sendable, Equatable {
        public var task: TaskID
        /// The new parent, a task of the same list; nil: the top level.
        public var parent: TaskID?

        public init(task: TaskID, parent: TaskID?) {
            self.task = task
            self.parent = parent
        }
    }

    /// Moves each task, with its notes and subtasks, within its own list: to be the last subtask of
    /// its new parent (copying the form of that parent's subtasks), or, without a parent, to the top
    /// level right after its old top-level ancestor (it stays next to where it was). All the moves
    /// are one change: one journal entry, which one `undo` reverts whole. A task already where it is
    /// asked to go is left as it is. A parent in another list, the task itself or one of its
    /// subtasks is refused. Returns the library after, and where each task of `moves` is now.
    @discardableResult
    public func reparent(_ moves: [Reparent], summary: String) throws -> (library: Library, tasks: [TaskID?]) {
        let before = library
        for move in moves {
            if let parent = move.parent {
                guard parent.list == move.task.list else {
                    throw MutationError.refused("\"\(before.title(move.task))\" and \"\(before.title(parent))\" are in different lists")
                }
                var up: TaskID? = parent
                while let id = up {
                    if id == move.task {
                        throw MutationError.refused("\"\(before.title(parent))\" is \"\(before.title(move.task))\" or one of its subtasks")
                    }
                    up = before.parent(of: id)
                }
            }
        }
        let wanted = moves.filter { before.parent(of: $0.task) != $0.parent }
        guard !wanted.isEmpty else { return (before, moves.map { $0.task }) }
        var paths: [String] = []
        for move in wanted where !paths.contains(before.lists[move.task.list].file.path) {
            paths.append(before.lists[move.task.list].file.path)
        }
        let results = Box<[String: Document]>([:])
        let placed = Box<[Int: TaskKey]>([:])
        var changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        for path in paths {
            let mine = wanted.indices.filter { before.lists[wanted[$0].task.list].file.path == path }
            let keys = mine.map { (task: before.key(wanted[$0].task), parent: wanted[$0].parent.map(before.key)) }
            changes.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = self.folder.document(bytes)
                // Every task named, by index now; kept in step with each move.
                let named = keys.flatMap { [$0.task] + ($0.parent.map { [$0] } ?? []) }
                var indexes = try document.indexes(of: named)
                var landed: [Int: Int] = [:]
                var slot = 0
                for (n, key) in keys.enumerated() {
                    let i = indexes[slot]
                    let p = key.parent == nil ? nil : indexes[slot + 1]
                    slot += key.parent == nil ? 1 : 2
                    let end = document.descendants(of: i).upperBound
                    if let p, (i..<end).contains(p) { throw MutationError.refused("\"\(key.parent!.title)\" is a subtask of \"\(key.task.title)\"") }
                    if document.tasks[i].parent == p { landed[mine[n]] = i; continue }
                    let fragment = try self.refusing { try document.extracting(i) }
                    var top = i
                    while let up = document.tasks[top].parent { top = up }
                    if p == nil && top == i { landed[mine[n]] = i; continue }
                    let count = end - i
                    let removed = try self.refusing { try document.removing(i).document }
                    let point: InsertionPoint = p.map { .subtask(of: $0 >= end ? $0 - count : $0) } ?? .after(top)
                    let result = try self.refusing { try removed.inserting(fragment, at: point) }
                    document = result.document
                    let r = result.task!
                    // Indexes after the removal, then after the insertion at `r`.
                    func follow(_ k: Int) -> Int {
                        if (i..<end).contains(k) { return r + (k - i) }
                        let gone = k >= end ? k - count : k
                        return gone >= r ? gone + count : gone
                    }
                    indexes = indexes.map(follow)
                    for (m, at) in landed { landed[m] = follow(at) }
                    landed[mine[n]] = r
                }
                placed.value = placed.value.filter { before.lists[wanted[$0.key].task.list].file.path != path }
                for (m, at) in landed { placed.value[m] = document.key(of: at, path: path) }
                results.value[path] = document
                return .write(document.serialize())
            }))
        }
        try write(summary, changes)
        let after = placed.value
        let documents = results.value
        results.value = [:]
        // Subtasks went along: matched by their parent, they forward too.
        following = wanted.indices.compactMap { m in after[m].map { (wanted[m].task, $0) } }
        refresh(consume documents)
        let now = library
        let tasks: [TaskID?] = moves.map { move in
            guard let m = wanted.firstIndex(where: { $0.task == move.task }) else { return move.task }
            return after[m].flatMap { now.id(of: $0) }
        }
        return (now, tasks)
    }
}
