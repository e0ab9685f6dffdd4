import TickFormat

// Twins and repeating tasks: the refs of tasks that share a title (FORMAT.md 5.9).

/// The rules that pick which tasks of a shared title are named by their title.
enum RefNaming {
    /// The task of a shared title that keeps its title ref: the one open task with a `rec:` rule, when
    /// every other task of the title is done (its history, `tick done --keep-history`). Nil otherwise.
    /// `group` holds the tasks (in document order) with whether each is done and has a rule.
    static func keepsTitle(_ group: [(done: Bool, repeats: Bool)]) -> Int? {
        var live: Int?
        for (k, task) in group.enumerated() where !task.done {
            guard task.repeats, live == nil else { return nil }
            live = k
        }
        return live
    }
}

extension Library {
    /// The refs shown instead of the records' refs, by position, once `retired` are retired.
    ///
    /// A task named by its title ref whose title ref was retired is named as if its title were shared.
    /// The tasks of a list named by one content ref (twins, FORMAT.md 5.9) take, in document order, the
    /// content ref's twin refs that are not retired (`Ref.twin`): once one twin's ref is retired (tick
    /// removed, moved or changed it), the others keep theirs instead of taking it over.
    static func shownInstead(lists: [TaskList], retired: RetiredRefs) -> [Int: UInt64] {
        var instead: [Int: UInt64] = [:]
        guard !retired.isEmpty else { return instead }
        for list in lists {
            let segment = list.segment
            // The titles of the tasks whose record's ref is retired (a task with an id has no other ref).
            var hit = Set<UInt64>()
            for i in 0..<list.taskCount where retired.contains(segment.refRecord(i).refHash) && segment.cold(i).idLength == 0 {
                hit.insert(FNV1a64.hash(segment.title(of: segment.cold(i))))
            }
            guard !hit.isEmpty else { continue }
            let path = Array(list.file.path.utf8)
            // The tasks of those titles named by a content ref, or by a retired title ref, grouped by content ref.
            var groups: [UInt64: [Int]] = [:]
            var order: [UInt64] = []
            for i in 0..<list.taskCount {
                let cold = segment.cold(i)
                let title = segment.title(of: cold)
                guard cold.idLength == 0, hit.contains(FNV1a64.hash(title)) else { continue }
                let record = segment.refRecord(i).refHash
                if record == Ref(path: path, title: title).hash, !retired.contains(record) { continue }
                let content = contentRef(of: i, in: list).hash
                if groups[content] == nil { order.append(content) }
                groups[content, default: []].append(i)
            }
            for content in order {
                var k = 0
                for i in groups[content]! {
                    while retired.contains(Ref(hash: content).twin(k).hash) { k += 1 }
                    let shown = Ref(hash: content).twin(k).hash
                    k += 1
                    if shown != segment.refRecord(i).refHash { instead[list.firstTask + i] = shown }
                }
            }
        }
        return instead
    }

    /// Whether the tasks are twins: of one list, without an `id:`, alike in everything their ref is
    /// made of and in every other field tick reads (completion and its date, tags, rule, depth), and
    /// with subtasks alike in the same way. A REF that names only twins acts on the first of them.
    public func areTwins(_ ids: [TaskID]) -> Bool {
        guard let first = ids.first, ids.count > 1 else { return false }
        func block(_ id: TaskID) -> [[String]]? {
            guard lists[id.list].segment.cold(id.index).idLength == 0 else { return nil }
            return ([id] + descendants(of: id)).map(twinFields)
        }
        guard let model = block(first) else { return false }
        let content = Library.contentRef(of: first.index, in: lists[first.list]).hash
        return ids.dropFirst().allSatisfy { id in
            id.list == first.list && Library.contentRef(of: id.index, in: lists[id.list]).hash == content && block(id) == model
        }
    }
}

extension Library {
    /// Every field tick reads of a task, as text: twins agree in all of them (`areTwins`).
    func twinFields(_ id: TaskID) -> [String] {
        let t = task(id)
        return [t.title, "\(t.done)", "\(t.doneDate.map(String.init(describing:)) ?? "")", "\(t.due.map(String.init(describing:)) ?? "")",
                "\(t.priority.rawValue)", "\(t.flagged)", t.id ?? "", "\(t.recurrence.map(String.init(describing:)) ?? "")",
                "\(t.until.map(String.init(describing:)) ?? "")", t.tags.joined(separator: " "), t.section ?? "", "\(t.depth)",
                "\(t.scheduled.map(String.init(describing:)) ?? "")", "\(t.start.map(String.init(describing:)) ?? "")",
                t.repeatPhrase ?? "", notes(id)]
    }

    /// The tasks of list `l` whose title another task of the list has (so named by content refs and told
    /// apart by their order, FORMAT.md 5.9), by their full refs, each with a hash of its block as tick reads
    /// it: the fields of the task and of its subtasks (`twinFields`), and its parent's block. Tasks with
    /// equal hashes are alike in everything but their place: which is which cannot be seen.
    func twinBlocks(inList l: Int) -> [UInt64: UInt64] {
        let list = lists[l], segment = list.segment
        segment.proveRecordsAndText()
        var titles: [UInt64: Int] = [:]
        for i in 0..<list.taskCount where segment.cold(i).idLength == 0 {
            titles[FNV1a64.hash(segment.title(of: segment.cold(i))), default: 0] += 1
        }
        let shared = (0..<list.taskCount).filter { i in
            segment.cold(i).idLength == 0 && titles[FNV1a64.hash(segment.title(of: segment.cold(i)))]! > 1
        }
        guard !shared.isEmpty else { return [:] }
        func add(_ value: UInt64, to hasher: inout FNV1a64) { withUnsafeBytes(of: value.littleEndian) { hasher.add($0) } }
        // Each task's subtree hashed in one pass from the end: its fields, then its direct subtasks' hashes
        // in order (kept last first until their parent comes).
        var subtree = [UInt64](repeating: 0, count: list.taskCount)
        var pending: [Int: [UInt64]] = [:]
        for i in stride(from: list.taskCount - 1, through: 0, by: -1) {
            var hasher = FNV1a64()
            for field in twinFields(TaskID(list: l, index: i)) {
                hasher.add(field.utf8)
                hasher.add(0)
            }
            for child in (pending.removeValue(forKey: i) ?? []).reversed() { add(child, to: &hasher) }
            subtree[i] = hasher.value
            let parent = Int(segment.parent(i))
            if parent >= 0, parent < i { pending[parent, default: []].append(hasher.value) }
        }
        // A task's block: its subtree, then its parent's block (a subtask of another parent of the same title differs).
        var known: [Int: UInt64] = [:]
        func block(_ i: Int) -> UInt64 {
            var chain = [i]
            var parent = Int(segment.parent(i))
            while known[chain.last!] == nil, parent >= 0, parent < chain.last! {
                chain.append(parent)
                parent = Int(segment.parent(parent))
            }
            var above: UInt64 = 0
            for k in chain.reversed() {
                if let hash = known[k] {
                    above = hash
                    continue
                }
                var hasher = FNV1a64()
                add(subtree[k], to: &hasher)
                add(above, to: &hasher)
                above = hasher.value
                known[k] = above
            }
            return above
        }
        var blocks: [UInt64: UInt64] = [:]
        for i in shared { blocks[fullRef(TaskID(list: l, index: i), hash: segment.refRecord(i).refHash).hash] = block(i) }
        return blocks
    }
}

extension Library {
    /// The retired refs once `undo` has turned `before` into this library: the refs that tasks are shown
    /// under again (the undone change had retired them) are no longer retired.
    ///
    /// A twin's ref is given back only when every ref shown before the undo that is shown after it stays
    /// shown (the newest retired first, those of the undone change): a ref that an earlier change retired
    /// from a removed twin stays retired.
    func retiredRefs(afterUndoing before: Library) -> RetiredRefs {
        let all = Set(lists.map(\.file.path) + before.lists.map(\.file.path))
        let shownBefore = Set(before.shownRefs(inListsAt: all).map(\.hash))
        var back = Set<UInt64>()
        var twins: [Int: [UInt64]] = [:]
        for (l, list) in lists.enumerated() {
            let segment = list.segment, path = Array(list.file.path.utf8)
            for i in 0..<list.taskCount {
                let hash = segment.refRecord(i).refHash
                guard !shownBefore.contains(hash), retired.contains(hash) else { continue }
                let cold = segment.cold(i)
                if cold.idLength > 0 || Ref(path: path, title: segment.title(of: cold)).hash == hash {
                    back.insert(hash)
                } else {
                    twins[l, default: []].append(hash)
                }
            }
        }
        var kept = retired.updated(adding: [], removing: back)
        guard !twins.isEmpty else { return kept }
        let age = Dictionary(retired.refs.enumerated().map { ($1.hash, $0) }, uniquingKeysWith: max)
        for (l, hashes) in twins.sorted(by: { $0.key < $1.key }) {
            let list = lists[l]
            func shown(_ retired: RetiredRefs) -> [UInt64] {
                let one = Library.assemble(files: [list.file], segments: [list.segment], storage: storage, retired: retired)
                return (0..<list.taskCount).map { one.fullRef(TaskID(list: 0, index: $0)).hash }
            }
            for hash in Set(hashes).sorted(by: { age[$0, default: 0] > age[$1, default: 0] }) {
                let trial = kept.updated(adding: [], removing: [hash])
                let then = Set(shown(trial))
                if shown(kept).allSatisfy({ !shownBefore.contains($0) || then.contains($0) }) { kept = trial }
            }
        }
        return kept
    }
}
