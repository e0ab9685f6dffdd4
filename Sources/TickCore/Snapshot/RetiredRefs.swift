import TickFormat

// The refs tick retired: `.tick/retired` (untrusted: checked line by line on reading), and which refs a
// change of tick's own retires or forwards to the task they became.

// MARK: - Retired refs

/// Refs that no longer name the task they named, written by the write commands to `.tick/retired`.
///
/// When a change by tick removes or moves a task, changes what its ref is made of, or gives its title to a
/// second task of the list, the refs that stop naming their task are added here (the newest last, at most
/// `capacity` kept). A retired ref is never shown for a task again, and typing a prefix of one never names
/// another task: it forwards to the task tick changed (its note), or it is gone, or the text is ambiguous.
/// Reads never write this file.
///
/// The file holds one full ref (14 symbols) per line, with its note after a space when it has one. It is
/// untrusted input: it is opened without following a symbolic link, read up to a size limit, a line that
/// does not start with a ref is ignored, and so is a note that is not one.
public struct RetiredRefs: Sendable {
    /// The refs, oldest first.
    public private(set) var refs: [Ref]
    /// The same refs, for prefix lookups.
    public let index: RefIndex
    private let members: Set<UInt64>
    /// What tick knew, when it retired a ref, of the task the ref named (`RetiredNote`), by ref: for the
    /// refs retired by tick's own changes to that task.
    public let notes: [UInt64: RetiredNote]

    /// How many refs the file keeps.
    public static let capacity = 4096
    /// `.tick/retired`.
    public static let fileName = "retired"

    public init(_ refs: [Ref] = [], notes: [UInt64: RetiredNote] = [:]) {
        var seen = Set<UInt64>()
        var kept: [Ref] = []
        for ref in refs.reversed() where seen.insert(ref.hash).inserted {
            kept.append(ref)
            if kept.count == RetiredRefs.capacity { break }
        }
        self.refs = kept.reversed()
        self.members = Set(kept.map(\.hash))
        self.index = RefIndex(self.refs)
        self.notes = notes.isEmpty ? notes : notes.filter { seen.contains($0.key) }
    }

    public var isEmpty: Bool { refs.isEmpty }

    public func contains(_ hash: UInt64) -> Bool { members.contains(hash) }

    /// These refs with `added` appended (the oldest dropped beyond `capacity`) and `revived` taken out;
    /// `notes` are added to theirs.
    /// A note that forwarded to a ref now retired with a note of its own forwards where that one does,
    /// so that a chain of changes is followed in one step.
    public func updated(adding added: [Ref], removing revived: Set<UInt64> = [],
                        notes more: [UInt64: RetiredNote] = [:]) -> RetiredRefs {
        var all = notes
        if !more.isEmpty {
            for (hash, note) in all {
                if let to = note.to, let next = more[to.hash] { all[hash] = RetiredNote(to: next.to, title: note.title) }
            }
            all.merge(more) { $1 }
        }
        return RetiredRefs(refs.filter { !revived.contains($0.hash) } + added.filter { !revived.contains($0.hash) }, notes: all)
    }

    /// The file's text: one full ref per line, followed, for a ref with a note, by a space and the note
    /// (`RetiredNote.text`).
    public var text: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(refs.count * (Ref.fullLength + 1))
        for ref in refs {
            out.append(contentsOf: ref.description.utf8)
            if let note = notes[ref.hash] {
                out.append(0x20)
                out.append(contentsOf: note.text)
            }
            out.append(0x0A)
        }
        return out
    }

    /// Reads the refs of a file's text; lines that do not start with a full ref are skipped, and a note
    /// that is not one (`RetiredNote(text:)`) is left out.
    public init(text: [UInt8]) {
        var refs: [Ref] = []
        var notes: [UInt64: RetiredNote] = [:]
        for line in text.split(separator: 0x0A) {
            let head = line.prefix { $0 != 0x20 }
            guard head.count == Ref.fullLength, let ref = Ref(fullText: head) else { continue }
            refs.append(ref)
            if head.count < line.count, let note = RetiredNote(text: line.dropFirst(head.count + 1)) {
                notes[ref.hash] = note
            }
        }
        self.init(refs, notes: notes)
    }
}

extension Ref {
    /// The ref written as its 14 symbols (lower case), or nil when the text is not one.
    init?(fullText symbols: some Collection<UInt8>) {
        guard symbols.count == Ref.fullLength else { return nil }
        var value: UInt64 = 0
        var multiplier: UInt64 = 1
        for (i, s) in symbols.enumerated() {
            guard let d = Ref.digit(s) else { return nil }
            let (part, overflow1) = UInt64(d).multipliedReportingOverflow(by: multiplier)
            let (sum, overflow2) = value.addingReportingOverflow(part)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            if i + 1 < Ref.fullLength { multiplier = multiplier &* 27 }
        }
        self.init(hash: value)
    }
}

// MARK: - The retired file

extension RetiredRefs {
    /// The longest file read: a full file, each ref with its longest note, and a little slack.
    static let maximumFileSize = capacity * (Ref.fullLength + 2 + RetiredNote.maximumLength) + 4096

    /// `.tick/retired`, relative to the task folder.
    static var relativePath: String { FolderLocation.stateFolderName + "/" + fileName }

    /// The retired refs of the task folder at `root`: none when the file is missing, is not a regular file
    /// (a symbolic link is not followed) or is larger than a full one.
    public static func load(root: String, fileSystem: any FileSystem) -> RetiredRefs {
        // Every read loads them: one descriptor, of `.tick/` opened without following a link.
        guard let bytes = fileSystem.readStateFile(Path.join(root, relativePath), limit: maximumFileSize)
        else { return RetiredRefs() }
        return RetiredRefs(text: bytes)
    }

    /// Writes the refs to `.tick/retired` of the folder at `root` (0600, through a temporary file and a
    /// rename, so a reader sees the old file or the new one). The folder's writer holds its lock.
    /// Without a `.tick/` folder (or with a link in its place) nothing is written.
    func save(root: String, fileSystem: any FileSystem) throws {
        let state = try fileSystem.confined(to: root)
        guard try state.status(FolderLocation.stateFolderName, followSymlinks: false)?.kind == .directory else { return }
        try state.replaceStateFile(RetiredRefs.relativePath, contents: text)
    }
}

// MARK: - Retiring refs when tick changes lists

/// A list as tick last wrote it: the refs shown for its tasks, and the blocks of those of shared titles
/// by their full refs (`Library.twinBlocks`).
struct WrittenRefs {
    var refs: [Ref]
    var twins: [UInt64: UInt64]
}

extension Library {
    /// This library with other retired refs (which change the refs shown instead of title refs).
    func with(retired: RetiredRefs) -> Library {
        // Retired refs do not change the lengths among the records' refs.
        Library.assemble(files: lists.map(\.file), segments: lists.map(\.segment), storage: storage,
                         shortRefLengths: refLengths.table, retired: retired)
    }

    /// The refs shown for the tasks of the lists at `paths`, in folder order.
    func shownRefs(inListsAt paths: Set<String>) -> [Ref] {
        var refs: [Ref] = []
        for (l, list) in lists.enumerated() where paths.contains(list.file.path) {
            for i in 0..<list.taskCount {
                refs.append(fullRef(TaskID(list: l, index: i), hash: list.segment.refRecord(i).refHash))
            }
        }
        return refs
    }

    /// The title refs of the titles that several tasks share in the lists at `paths`.
    ///
    /// In the order of each title's second task. No title is copied to find them: the tasks whose
    /// title's hash another task has too are sorted by it, so that equal titles lie side by side, and
    /// the titles of one hash are then told apart by their bytes.
    /// `hashing` is the title hash (tests give a weak one, so that different titles share hashes).
    func sharedTitleRefs(inListsAt paths: Set<String>,
                         hashing: (UnsafeBufferPointer<UInt8>) -> UInt64 = { FNV1a64.hash($0) }) -> [Ref] {
        var refs: [Ref] = []
        for list in lists where paths.contains(list.file.path) {
            let segment = list.segment
            segment.proveRecordsAndText()
            func title(_ task: UInt32) -> UnsafeBufferPointer<UInt8> { segment.title(of: segment.cold(Int(task))) }
            let hashes = (0..<list.taskCount).map { hashing(title(UInt32($0))) }
            // Only the tasks whose title's hash another task has can share a title: found with one
            // table of the hashes (open addressing; a slot holds a hash, 0 for 1), then sorted.
            var size = 16
            while size < hashes.count * 2 { size <<= 1 }
            var slots = [UInt64](repeating: 0, count: size)
            var repeated = Set<UInt64>()
            for hash in hashes {
                let held = hash == 0 ? 1 : hash
                var k = Int(truncatingIfNeeded: held) & (slots.count - 1)
                while slots[k] != 0 && slots[k] != held { k = (k + 1) & (slots.count - 1) }
                if slots[k] == held { repeated.insert(held) } else { slots[k] = held }
            }
            guard !repeated.isEmpty else { continue }
            var keyed: [(hash: UInt64, task: UInt32)] = []
            for (i, hash) in hashes.enumerated() where repeated.contains(hash == 0 ? 1 : hash) { keyed.append((hash, UInt32(i))) }
            keyed.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.task < $1.task }
            var shared: [(second: UInt32, title: [UInt8])] = []
            var start = 0
            while start < keyed.count {
                var end = start + 1
                while end < keyed.count, keyed[end].hash == keyed[start].hash { end += 1 }
                // Tasks of one hash, in document order: the first one's title with every task that
                // holds it, then the same among the rest.
                var rest = keyed[start..<end].map(\.task)
                while rest.count > 1 {
                    let text = title(rest[0])
                    var same: [UInt32] = [], other: [UInt32] = []
                    for task in rest { if title(task).elementsEqual(text) { same.append(task) } else { other.append(task) } }
                    if same.count > 1, RefNaming.keepsTitle(same.map { (segment.hot(Int($0)).done, segment.hot(Int($0)).hasRule) }) == nil {
                        shared.append((same[1], Array(text)))
                    }
                    rest = other
                }
                start = end
            }
            shared.sort { $0.second < $1.second }
            let path = Array(list.file.path.utf8)
            refs += shared.map { Ref(path: path, title: $0.title) }
        }
        return refs
    }

    /// The refs shown for the tasks of `document`, the list at `path` as tick last wrote it, with
    /// this library's retired refs, and the blocks of its tasks of shared titles (`twinBlocks`). The
    /// document is let go once its records are built (when nothing else holds it), so that a huge list
    /// is not held twice.
    func shownRefs(ofWritten document: consuming Document, path: String) -> WrittenRefs {
        let file = ListFile(path: path, absolutePath: path)
        let written = Library(documents: [(file, document)], retired: retired)
        return WrittenRefs(refs: written.shownRefs(inListsAt: [path]), twins: written.twinBlocks(inList: 0))
    }

    /// The refs that a hand edit of same-titled tasks (reordered, deleted or added, FORMAT.md 5.9) moved to
    /// another task of their list: the task shown under one now differs from the one it was shown for when
    /// tick last wrote the list (`handEdits`), and that one is still in the list, or the one shown now was
    /// then shown under another ref. A task edited in place, unlike the others, keeps its ref.
    func refsMovedAmongTwins(_ handEdits: [(path: String, shown: WrittenRefs)]) -> [Ref] {
        var moved: [Ref] = []
        for edit in handEdits where !edit.shown.twins.isEmpty {
            guard let l = list(at: edit.path) else { continue }
            let now = twinBlocks(inList: l)
            let blocksNow = Set(now.values)
            var blocksThen: [UInt64: Int] = [:]
            for block in edit.shown.twins.values { blocksThen[block, default: 0] += 1 }
            for (ref, then) in edit.shown.twins.sorted(by: { $0.key < $1.key }) {
                guard let block = now[ref], block != then else { continue }
                if blocksNow.contains(then) || blocksThen[block, default: 0] > 0 { moved.append(Ref(hash: ref)) }
            }
        }
        return moved
    }

    /// The retired refs once tick has changed the lists at `paths` from `before` to this library:
    /// the title refs of titles that several tasks of those lists share (before or after: such a ref could
    /// have been shown for one of them while it was alone), then every ref shown before the change in
    /// those lists that no task of them is shown under after it.
    ///
    /// `handEdits` holds the lists edited by hand since tick last wrote them, with the refs shown in
    /// them as tick left them (`shownRefs(ofWritten:path:)`): those that no task of `before` (the
    /// folder as the change found it) is shown under are retired first (a task deleted by hand).
    ///
    /// `following` holds the tasks tick itself removed or changed, with where each is after the change
    /// (nil: removed), and `renamed` the lists it renamed (old path to new); the other tasks of the lists
    /// are matched by their fields (`matchedTasks`). The ref of a task that is not shown under it
    /// afterwards is retired before the other refs are compared, so that no other task (a twin) is shown
    /// under it, with a note that forwards it to the task's new ref (`RetiredNote`). `keepingKeys` holds
    /// tasks followed too, each changed in place with the key it had (its key is worked out only when
    /// the full comparison needs it).
    func retiredRefs(after before: Library, changing paths: Set<String>,
                     handEdits: [(path: String, shown: WrittenRefs)] = [],
                     following: [(before: TaskID, after: TaskKey?)] = [], keepingKeys: [TaskID] = [],
                     renamed: [String: String] = [:]) -> RetiredRefs {
        if handEdits.isEmpty, renamed.isEmpty,
           let same = retiredRefsKeepingEveryRef(after: before, changing: paths, following: following,
                                                 titlesKept: following.isEmpty && !keepingKeys.isEmpty) {
            return same
        }
        let following = following + zip(keepingKeys, before.keys(keepingKeys)).map { ($0, Optional($1)) }
        var vanished: [Ref] = []
        if !handEdits.isEmpty {
            // The refs tick's last write showed there that no task of the folder as the change found
            // it is shown under (a task moved by hand keeps an id ref): one pass over the folder's
            // refs, looking only for those few.
            let shownThen = handEdits.flatMap(\.shown.refs)
            // Most are still shown in the same lists, edited by hand around them: those are looked at
            // first, and the rest of the folder only for the refs not found there.
            let wanted = Array(Set(shownThen.map(\.hash))).sorted()
            var found = [Bool](repeating: false, count: wanted.count)
            var missing = wanted.count
            func look(inLists edited: Bool) {
                let editedPaths = Set(handEdits.map(\.path))
                for (l, list) in before.lists.enumerated() where editedPaths.contains(list.file.path) == edited {
                    for i in 0..<list.taskCount {
                        let id = TaskID(list: l, index: i)
                        let hash = before.fullRef(id, hash: list.segment.refRecord(i).refHash).hash
                        if let k = wanted.sortedIndex(of: hash), !found[k] {
                            found[k] = true
                            missing -= 1
                            if missing == 0 { return }
                        }
                    }
                }
            }
            look(inLists: true)
            if missing > 0 { look(inLists: false) }
            vanished = shownThen.filter { hash in wanted.sortedIndex(of: hash.hash).map { !found[$0] } ?? true }
            vanished += before.refsMovedAmongTwins(handEdits)
        }
        let shared = before.sharedTitleRefs(inListsAt: paths) + sharedTitleRefs(inListsAt: paths)
        var first = before.retired.updated(adding: vanished + shared)
        var trial = with(retired: first)
        // Each task tick kept, with what it is after the change: one shown under another ref than before
        // gives its ref up (retired, forwarding to the new one) before any other task can be shown under
        // it. A ref given up changes the refs of its twins only: a few rounds settle it.
        let pairs = matchedTasks(before: before, changing: paths, following: following, renamed: renamed)
        let refsBefore = pairs.map { before.fullRef($0.before) }
        // The tasks tick removed: their refs go first. Others that no pair keeps are removed too when
        // their refs are not shown afterwards (below).
        let kept = Set(pairs.map(\.before))
        var removed: [(ref: Ref, title: String)] = []
        for task in following where !kept.contains(task.before) {
            removed.append((before.fullRef(task.before), before.task(task.before).title))
        }
        if !removed.isEmpty {
            first = first.updated(adding: removed.map(\.ref))
            trial = with(retired: first)
        }
        for (l, list) in before.lists.enumerated() where paths.contains(list.file.path) {
            for i in 0..<list.taskCount where !kept.contains(TaskID(list: l, index: i)) {
                let id = TaskID(list: l, index: i)
                removed.append((before.fullRef(id), before.task(id).title))
            }
        }
        for _ in 0..<4 {
            var more: [Ref] = []
            for (k, pair) in pairs.enumerated() where !first.contains(refsBefore[k].hash) {
                if trial.fullRef(pair.after) != refsBefore[k] { more.append(refsBefore[k]) }
            }
            if more.isEmpty { break }
            first = first.updated(adding: more)
            trial = with(retired: first)
        }
        // A ref a hand edit moved to another task is not followed: the task shown under it now is not the
        // one it was shown for.
        let handMoved = Set(vanished.map(\.hash))
        var notes: [UInt64: RetiredNote] = [:]
        for (k, pair) in pairs.enumerated() where !before.retired.contains(refsBefore[k].hash) && !handMoved.contains(refsBefore[k].hash) {
            let now = trial.fullRef(pair.after)
            if now != refsBefore[k] { notes[refsBefore[k].hash] = RetiredNote(to: now, title: task(pair.after).title) }
        }
        for (ref, title) in removed where notes[ref.hash] == nil && !before.retired.contains(ref.hash) && !handMoved.contains(ref.hash) {
            notes[ref.hash] = RetiredNote(to: nil, title: title)
        }
        // The refs shown before that are not shown after (none when the lists are new: their refs
        // afterwards are not worked out).
        let shownBefore = before.shownRefs(inListsAt: paths)
        var gone: [Ref] = []
        if !shownBefore.isEmpty {
            let shownAfter = Set(trial.shownRefs(inListsAt: paths).map(\.hash))
            var seen = Set<UInt64>()
            for ref in shownBefore where !shownAfter.contains(ref.hash) && seen.insert(ref.hash).inserted {
                gone.append(ref)
            }
        }
        let retired = first.updated(adding: gone)
        return retired.updated(adding: [], notes: notes.filter { retired.contains($0.key) })
    }
}

extension Library {
    /// The refs retired after tick's change of the lists at `paths` when the change left every task of
    /// them where it was and shown under the ref it had (a completion, a new date, a flag): the
    /// shared title refs added as `retiredRefs(after:changing:…)` adds them, and nothing else, for
    /// then no task's ref moves and none is given up. Nil when that is not plain from the records
    /// (a list's tasks or their record refs differ, a ref is shown instead of a record's, a followed
    /// task's key changed, or a shared title ref is not retired yet): the full comparison decides.
    /// One pass over the lists' records instead of that comparison's several.
    /// `titlesKept`: every task of the lists changed kept its title and its place (each was changed in
    /// place, keeping its key), so lists without twins before have none after.
    fileprivate func retiredRefsKeepingEveryRef(after before: Library, changing paths: Set<String>,
                                                following: [(before: TaskID, after: TaskKey?)],
                                                titlesKept: Bool) -> RetiredRefs? {
        for path in paths {
            guard let a = before.list(at: path), let b = list(at: path) else { return nil }
            let old = before.lists[a], new = lists[b]
            guard old.taskCount == new.taskCount else { return nil }
            for i in 0..<old.taskCount {
                guard old.segment.refRecord(i).refHash == new.segment.refRecord(i).refHash,
                      before.shownInstead.isEmpty || before.shownInstead[old.firstTask + i] == nil,
                      shownInstead.isEmpty || shownInstead[new.firstTask + i] == nil
                else { return nil }
            }
        }
        let keysBefore = before.keys(following.map(\.before))
        for (task, key) in zip(following, keysBefore) where task.after != key { return nil }
        let sharedBefore = before.sharedTitleRefs(inListsAt: paths)
        let shared = sharedBefore.isEmpty && titlesKept ? [] : sharedBefore + sharedTitleRefs(inListsAt: paths)
        guard shared.allSatisfy({ before.retired.contains($0.hash) }) else { return nil }
        return before.retired.updated(adding: shared)
    }
}
