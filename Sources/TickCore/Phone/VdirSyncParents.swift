import TickFormat

// The parents the phone gives tasks in `tick vdir sync` (`RELATED-TO;RELTYPE=PARENT`): one the phone
// set, changed or removed while tick's stayed as the base had it is taken, after the round's other
// changes, as a second change (`TaskFolder.reparent`), when the parent is a task of the same list.

extension VdirSync {
    /// A parent the phone gave a task, to take: task `task` (its `id:` value) under `parent` (one,
    /// or nil: the top level).
    struct ParentMove {
        var task: String
        var parent: String?
        var list: String
        var title: String
        var words: String
    }

    /// What the phone's `RELATED-TO` of a matched task asks: nil when nothing (it is tick's, or the
    /// base's); a move; or the words of a parent tick keeps its own against (no base, both sides
    /// changed it, a parent of another list or collection, an unknown UID).
    func parentDecision(_ id: TaskID, collection: String, phone: SyncFields, base: SyncFields?, library: Library,
                        state: VdirState, byID: [String: TaskID], found: [String: Found], list: String) -> Result<ParentMove, ParentKept>? {
        let tickParent = library.parent(of: id).flatMap { library.task($0).id }.map { value in
            state.entries.values.first { $0.id == value }?.uid ?? value
        }
        guard phone.parent != tickParent, base.map({ phone.parent != $0.parent }) ?? true else { return nil }
        let words = Self.parentWords(phone.parent, list: id.list, library: library, state: state, byID: byID)
        guard let base else { return .failure(ParentKept(words + ", and no base to merge with")) }
        guard base.parent == tickParent, let value = library.task(id).id else { return .failure(ParentKept(words + ", and tick changed it too")) }
        let move = ParentMove(task: value, parent: nil, list: list, title: phone.title, words: words)
        guard let uid = phone.parent else { return .success(move) }
        return newParent(uid, of: move, list: id.list, collection: collection, state: state, byID: byID, found: found)
    }

    /// The move of `move.task` under the task of `RELATED-TO` value `uid`, when that is a task of
    /// list `list` whose object is in `collection`; else the words of the refusal.
    func newParent(_ uid: String, of move: ParentMove, list: Int?, collection: String, state: VdirState,
                   byID: [String: TaskID], found: [String: Found]) -> Result<ParentMove, ParentKept> {
        let value = state.entries.values.first { $0.uid == uid }?.id ?? uid
        guard let parent = byID[value], parent.list == list else { return .failure(ParentKept(move.words)) }
        if found.values.contains(where: { $0.uid == uid && $0.collection != collection }) {
            return .failure(ParentKept(move.words + ", whose object is in another collection"))
        }
        var move = move
        move.parent = value
        return .success(move)
    }

    /// The moves to take, in order: those whose parent stays (not deleted in this round) and that
    /// keep each list a tree with the moves before them. The others are reported as kept.
    static func takenMoves(_ moves: [ParentMove], library: Library, removing: Set<TaskID>, byID: [String: TaskID],
                           _ report: inout VdirSyncReport) -> [ParentMove] {
        guard !moves.isEmpty else { return [] }
        var parentOf: [String: String] = [:]
        for id in library.ids {
            guard let value = library.task(id).id, let parent = library.parent(of: id).flatMap({ library.task($0).id }) else { continue }
            parentOf[value] = parent
        }
        var taken: [ParentMove] = []
        for move in moves {
            var refusal: String?
            if let parent = move.parent {
                if let id = byID[parent], removing.contains(id) {
                    refusal = move.words + ", deleted on the phone"
                } else {
                    var up: String? = parent
                    var steps = 0
                    while let value = up, steps <= parentOf.count {
                        if value == move.task { refusal = move.words + ", which is its own subtask"; break }
                        up = parentOf[value]
                        steps += 1
                    }
                }
            }
            if let refusal {
                report.events.append(VdirEvent(kind: .parentKept, list: move.list, title: move.title, field: "parent", detail: refusal))
                continue
            }
            parentOf[move.task] = move.parent
            taken.append(move)
            report.events.append(VdirEvent(kind: .edited, list: move.list, title: move.title, field: "parent", detail: move.words))
        }
        return taken
    }

    /// Takes the moves, after the round's other changes, as one change of their own.
    func applyParents(_ moves: [ParentMove]) throws {
        let library = folder.library
        let byID = Self.tasksByID(library)
        var wanted: [TaskFolder.Reparent] = []
        for move in moves {
            guard let task = byID[move.task] else { continue }
            let parent = move.parent.flatMap { byID[$0] }
            guard move.parent == nil || parent?.list == task.list else { continue }
            wanted.append(TaskFolder.Reparent(task: task, parent: parent))
        }
        let moving = wanted.filter { library.parent(of: $0.task) != $0.parent }.count
        guard moving > 0 else { return }
        try folder.reparent(wanted, summary: "vdir: moved \(moving) task\(moving == 1 ? "" : "s") under the phone's parents")
    }
}

/// The words of a parent the phone gave that tick does not take.
struct ParentKept: Error {
    var words: String
    init(_ words: String) { self.words = words }
}
