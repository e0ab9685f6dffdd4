import TickFormat

/// The front door for changes: a task folder opened for writing.
///
/// While it lives it holds the folder's lock, so no other tick process changes the folder. Each
/// call resolves the tasks it is given to keys, applies the change to the bytes each file holds at
/// the moment of writing (the writer runs an edit again when an editor saves meanwhile), journals
/// it as one change for `tick undo`, and returns what changed with the folder as it is after.
public final class TaskFolder {
    public private(set) var folder: Folder
    /// The lists as loaded, with every change made since.
    public private(set) var library: Library
    /// What reading the folder found (skipped files, unreadable lists), to report.
    public let loaded: LoadResult
    /// What recovery did on opening (a finished move, a leftover removed).
    public let recoveryNotes: [String]
    /// Nil when the folder does not exist (and was not to be created): every change then fails.
    private let writer: FolderWriter?
    /// Where a change reports, as it happens, what it did besides the change (`FolderWriter.onWriteNote`).
    public var onWriteNote: ((String) -> Void)? {
        get { writer?.onWriteNote }
        set { writer?.onWriteNote = newValue }
    }
    /// The tails of the lists parsed on opening, compressed for the cache while the first change
    /// is made (`ListCache.TailBatch.ahead(of:)`).
    private var ahead: ListCache.TailBatch?
    /// The short-ref lengths of the lists parsed on opening, measured for the cache meanwhile too.
    private var refsAhead: RefLengthsAhead?
    /// The tasks the change being written removes (after: nil) or changes, with where each ends up:
    /// what `refresh` retires refs by (`Library.retiredRefs(after:changing:handEdits:following:)`).
    var following: [(before: TaskID, after: TaskKey?)] = []
    /// Tasks the change being written changes in place, each keeping its key: followed as `following`'s are.
    var followingKeepingKeys: [TaskID] = []
    /// The list the change being written renames: its old path to its new one.
    var renamedList: [String: String] = [:]

    /// Opens `folder` for changes: takes its lock (creating `.tick/`), finishes changes that a crash
    /// interrupted, then reads every list. With `create`, a folder that does not exist yet (the
    /// default one, before the first write) is created with its `.tick/`; without, it stays absent.
    public init(_ folder: Folder, create: Bool, environment: [String: String]) throws {
        var folder = folder
        guard folder.location.exists || create else {
            self.folder = folder
            loaded = folder.load(environment: environment)
            library = loaded.library
            recoveryNotes = []
            writer = nil
            return
        }
        if !folder.location.exists {
            try Folder.initialize(at: folder.path, fileSystem: folder.fileSystem)
            var location = folder.location
            location.exists = true
            let filter = folder.globalFilter
            folder = Folder(location: location, fileSystem: folder.fileSystem)
            folder.globalFilter = filter
        }
        let writer = try FolderWriter(root: folder.path, environment: environment, fileSystem: folder.fileSystem)
        self.folder = folder
        self.writer = writer
        recoveryNotes = writer.recoveryNotes
        // A list saved by another program while tick read it is read again, once it is quiet: a
        // change never resolves its tasks against half a save.
        var loaded = folder.load(saveCache: false, environment: environment, scan: writer.scan)
        var rounds = 0
        while rounds < 8, writer.rescanIfChanged(loaded.parsedPaths) {
            loaded = folder.load(saveCache: false, environment: environment, scan: writer.scan)
            rounds += 1
        }
        self.loaded = loaded
        library = loaded.library
        if loaded.cache != nil {
            ahead = ListCache.TailBatch.ahead(of: library)
            refsAhead = RefLengthsAhead(library)
        }
    }

    // MARK: - Editing tasks in place

    /// What an in-place change did to one task that was named.
    public struct Edited: Sendable {
        /// The task in the library before the change.
        public var before: TaskID
        /// The task after the change (nil: it is gone, changed by someone else meanwhile).
        public var after: TaskID?
        /// The edits that changed it, in the order given; empty when it already was so.
        public var applied: [TaskEdit]
        /// How many of its open subtasks a completion completed with it.
        public var subtasks: Int
    }

    /// Applies `edits` to each task of `ids`, in one change (one journal entry, one `undo`). An edit
    /// that would leave a task as it is, is not applied to it. Completing a task completes its open
    /// subtasks too. `summary` names the change in the journal (default: the edit's own words).
    public func edit(_ ids: [TaskID], _ edits: [TaskEdit], summary: String? = nil)
        throws -> (library: Library, tasks: [Edited]) {
        try edit(ids.map { ($0, edits) }, summary: summary ?? (edits.count == 1 ? edits[0].summary : "edited"))
    }

    /// Applies each task's own edits, in one change, as `edit(_:_:summary:)` does.
    public func edit(_ plan: [(id: TaskID, edits: [TaskEdit])], summary: String) throws -> (library: Library, tasks: [Edited]) {
        let before = library
        // The tasks to change, in order, with their edits, and each one's place in `work`.
        var work: [(id: TaskID, edits: [TaskEdit])] = []
        work.reserveCapacity(plan.count)
        var place: [TaskID: Int] = [:]
        place.reserveCapacity(plan.count)
        for (id, edits) in plan {
            let applied = before.applicable(edits, to: id)
            guard !applied.isEmpty, place[id] == nil else { continue }
            place[id] = work.count
            work.append((id, applied))
        }
        let named = work.map(\.id)
        // A completed parent takes its open subtasks with it (FORMAT.md §8.2); a repeating one that
        // moves to its next occurrence does not complete them (FORMAT.md 5.10). The subtasks of a
        // task inside the last one done this way (named in file order) are already taken.
        var subtasks = [Int](repeating: 0, count: work.count)
        var taken: (list: Int, tasks: Range<Int>)? = nil
        for k in named.indices {
            let id = work[k].id
            guard let complete = work[k].edits.first(where: \.isCompletion), case .complete(let day) = complete.plain,
                  !(before.repeats(id) && before.task(id).advances(completedOn: day))
            else { continue }
            if let taken, taken.list == id.list, taken.tasks.contains(id.index) { continue }
            let open = before.descendants(of: id).filter { !before.isDone($0) && place[$0] == nil }
            place.reserveCapacity(place.count + open.count)
            work.reserveCapacity(work.count + open.count)
            for sub in open {
                place[sub] = work.count
                work.append((sub, [complete.plain]))
            }
            subtasks[k] = open.count
            taken = (id.list, id.index..<(id.index + 1 + before.subtaskCount(of: id)))
        }
        // Each task of `work` afterwards; nil when nothing was written (the bytes came out the same:
        // nothing changed, nothing to report).
        var after: [TaskID?]? = nil
        if !work.isEmpty {
            after = try update(work, summary: "\(summary) " + titles(named, in: before))
        }
        let now = library
        // The tasks named, once each, with their place in `work` (nil: left as it was).
        var reported: [(id: TaskID, place: Int?)] = []
        reported.reserveCapacity(plan.count)
        var seen = [Bool](repeating: false, count: work.count)
        var seenUnchanged: Set<TaskID> = []
        for (id, _) in plan {
            if let k = place[id] {
                if !seen[k] { seen[k] = true; reported.append((id, k)) }
            } else if seenUnchanged.insert(id).inserted {
                reported.append((id, nil))
            }
        }
        func changed(_ task: (id: TaskID, place: Int?)) -> TaskID? { task.place.flatMap { after?[$0] } }
        // A task left as it was is where its key finds it now.
        let kept = reported.filter { changed($0) == nil }.map(\.id)
        var keptNow: [TaskID: TaskID] = [:]
        for (id, task) in zip(kept, now.ids(of: before.keys(kept))) { keptNow[id] = task }
        let tasks = reported.map { task in
            guard let new = changed(task), let k = task.place else {
                return Edited(before: task.id, after: keptNow[task.id], applied: [], subtasks: 0)
            }
            return Edited(before: task.id, after: new, applied: work[k].edits, subtasks: k < subtasks.count ? subtasks[k] : 0)
        }
        return (now, tasks)
    }

    /// Applies each task's edits to it (`work`, tasks of the library now) in one change: each file
    /// once, its tasks in document order. Returns the tasks afterwards, in the order given.
    ///
    /// A file whose tasks have the titles of the list as read, in the same order, holds each task
    /// at its index in the list: no key is worked out. When the edits leave every title where it
    /// was too, each task keeps its key, and its refs follow it without one.
    private func update(_ work: [(id: TaskID, edits: [TaskEdit])], summary: String) throws -> [TaskID?]? {
        let before = library
        let ids = work.map(\.id)
        let results = Box<[String: (document: Document, indexes: [Int], keepsKeys: Bool)]>([:])
        let keys = Box<[TaskKey]?>(nil)
        var byPath: [String: [Int]] = [:]
        var paths: [String] = []
        for (k, id) in ids.enumerated() {
            let path = before.lists[id.list].file.path
            if byPath[path] == nil { paths.append(path) }
            byPath[path, default: []].append(k)
        }
        var changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        for path in paths {
            let mine = byPath[path]!
            changes.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                let document = self.folder.editableDocument(bytes)
                let edits = mine.map { work[$0].edits }
                let result: (document: Document, indexes: [Int])
                var keepsKeys = false
                if before.hasTitles(ofList: ids[mine[0]].list, in: document) {
                    let at = mine.map { ids[$0].index }
                    result = try document.applying(at: at, edits)
                    keepsKeys = result.indexes == at && result.document.hasTitles(of: document)
                } else {
                    // Edited by hand since it was read: each task is found by its key.
                    if keys.value == nil { keys.value = before.keys(ids) }
                    result = try document.applying(at: document.indexes(of: mine.map { keys.value![$0] }), edits)
                }
                results.value[path] = (result.document, result.indexes, keepsKeys)
                return .write(result.document.serialize())
            }))
        }
        guard try write(summary, changes) else { return nil }
        let indexes = results.value.mapValues(\.indexes)
        let documents = results.value.mapValues(\.document)
        let keptKeys = results.value.values.allSatisfy(\.keepsKeys)
        results.value = [:]
        if keptKeys {
            followingKeepingKeys = ids
        } else {
            // Each task's key afterwards, which the refs it had before forward to.
            var keysAfter = [TaskKey?](repeating: nil, count: ids.count)
            for (path, found) in indexes {
                guard let document = documents[path] else { continue }
                for (k, key) in zip(byPath[path]!, document.keys(of: found, path: path)) { keysAfter[k] = key }
            }
            following = Array(zip(ids, keysAfter))
        }
        refresh(consume documents)
        // A list's tasks are the library's, in the same order.
        var after = [TaskID?](repeating: nil, count: ids.count)
        for (path, found) in indexes {
            guard let l = library.list(at: path) else { continue }
            for (k, i) in zip(byPath[path]!, found) { after[k] = TaskID(list: l, index: i) }
        }
        return after
    }

    // MARK: - Adding

    /// Adds `task` to the list stored at `path`. A missing file is created holding the heading
    /// `# createWithHeading` when that is given, else the list is gone. Returns the new task.
    public func add(_ task: NewTask, toListAt path: String, at placement: Placement,
                    createWithHeading heading: String? = nil) throws -> (library: Library, task: TaskID) {
        let parent = placement.parent.map(library.key)
        let results = Box<(document: Document, index: Int)?>(nil)
        let edit: ([UInt8]?) throws -> FileOutcome = { bytes in
            let document: Document
            if let bytes {
                document = self.folder.document(bytes)
            } else if let heading {
                document = self.folder.document(Array("# \(heading)\n".utf8))
            } else {
                throw MutationError.listGone(path: path)
            }
            let point: InsertionPoint
            switch placement {
            case .end: point = .unsectioned
            case .section(let name): point = .section(name)
            case .subtask:
                guard let parent, let p = document.index(of: parent) else { throw MutationError.taskGone(parent!) }
                point = .subtask(of: p)
            }
            let result: EditResult
            do {
                result = try document.inserting(task.styled(like: document), at: point)
            } catch let error as EditError where error.reason == .noSuchSection {
                if case .section(let name) = placement {
                    throw MutationError.noSuchSection(name, list: document.heading ?? String(Path.name(of: path).dropLast(3)))
                }
                throw error
            }
            results.value = (result.document, result.task!)
            return .write(result.document.serialize())
        }
        try write("added \"\(task.title)\"", [(path, edit)])
        let (document, index) = results.value!
        results.value = nil
        let key = document.key(of: index, path: path)
        refresh([path: consume document])
        return (library, library.id(of: key)!)
    }

    /// The path of the list a task goes to by default: a list named `name` exactly (ignoring case)
    /// or its file `name.md` (lower case), the file preferred; else that file, to create.
    public func defaultListPath(named name: String) -> String {
        let file = name.lowercased() + ".md"
        let named = library.lists.filter { $0.file.path.lowercased() == file || $0.name.lowercased() == name.lowercased() }
        return named.first { $0.file.path.lowercased() == file }?.file.path ?? named.first?.file.path ?? file
    }

    /// Adds tasks to several lists in one change (one journal entry, one `undo`): each list's tasks
    /// go in the order given into its part outside sections, as `add` puts one. A list whose file is
    /// missing is created from `initial` when that is given (a new list's first bytes), else it is gone.
    /// `updates` edit tasks of the folder in the same change, before the new tasks go in (an import's
    /// records that the folder has already).
    public func add(_ batches: [(path: String, initial: [UInt8]?, tasks: [(task: NewTask, id: String?)])],
                    updates: [(id: TaskID, edits: [TaskEdit])] = [], summary: String) throws -> Library {
        let keyed = updates.map { (key: library.key($0.id), edits: $0.edits) }
        var batches = batches
        for path in Set(keyed.map(\.key.path)).sorted() where !batches.contains(where: { $0.path == path }) {
            batches.append((path, nil, []))
        }
        let results = Box<[String: Document]>([:]) // as written: checked by the insertion, not parsed again
        let changes = batches.map { batch in
            (batch.path, { (bytes: [UInt8]?) throws -> FileOutcome in
                // Read for editing: tasks added at the end of the list are checked without cmark
                // (`Document.outlineAppending`).
                guard var document = (bytes ?? batch.initial).map({ self.folder.editableDocument($0) }) else {
                    throw MutationError.listGone(path: batch.path)
                }
                // Keys are found before any edit: a retitle changes what a key finds.
                let mine = try keyed.filter { $0.key.path == batch.path }.map { update in
                    guard let i = document.index(of: update.key) else { throw MutationError.taskGone(update.key) }
                    return (i, update.edits)
                }
                for (i, edits) in mine { for edit in edits { document = try document.applying(edit, to: i) } }
                results.value[batch.path] = try document.insertingUnsectioned(batch.tasks)
                return .write(results.value[batch.path]!.serialize())
            })
        }
        try write(summary, changes)
        refresh(results.value)
        return library
    }

    // MARK: - Removing

    /// Removes the tasks, with their notes and subtasks, in one change. Returns each task's count
    /// of subtasks that went with it, in the order of `ids`.
    @discardableResult
    public func remove(_ ids: [TaskID]) throws -> [Int] {
        let before = library
        let keys = ids.map(before.key)
        let results = Box<[String: Document]>([:])
        var changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        for path in orderedPaths(keys) {
            let mine = keys.filter { $0.path == path }
            changes.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = self.folder.document(bytes)
                for i in try TaskFolder.outermost(mine, in: document).reversed() {
                    document = try document.removing(i).document
                }
                results.value[path] = document
                return .write(document.serialize())
            }))
        }
        try write("deleted " + titles(ids, in: before), changes)
        let documents = results.value
        results.value = [:]
        following = ids.flatMap { [$0] + before.descendants(of: $0) }.map { ($0, nil) }
        refresh(consume documents)
        return ids.map(before.subtaskCount)
    }

    // MARK: - Moving

    /// Where a task named to `move` ended up.
    public enum Moved: Sendable, Equatable {
        /// At the end of the destination list.
        case moved(TaskID)
        /// With its parent, which was moved too.
        case withParent
        /// It was in the destination list already: nothing changed for it.
        case alreadyThere(TaskID)
    }

    /// Moves the tasks, with their notes and subtasks, to the end of `list`, in the order given, as
    /// one change. The destination is written first, then each source: a crash in between leaves a
    /// task in both lists, which the next run finishes moving. A task already in `list` stays.
    public func move(_ ids: [TaskID], to list: Int) throws -> (library: Library, tasks: [Moved]) {
        try move(ids, toListAt: library.lists[list].file.path, named: library.lists[list].name, creating: nil)
    }

    /// Moves the tasks as `move(_:to:)` does to a new list named `name` (`tick list new`'s rules),
    /// created by the same change: one journal entry, which one `undo` reverts whole.
    public func move(_ ids: [TaskID], toNewList name: String) throws -> (library: Library, tasks: [Moved]) {
        let (name, file, content) = try TaskFolder.newList(name, fields: [])
        try refuseCollision(file, name: name, except: nil)
        return try move(ids, toListAt: file, named: name, creating: content)
    }

    private func move(_ ids: [TaskID], toListAt destination: String, named name: String,
                      creating initial: [UInt8]?) throws -> (library: Library, tasks: [Moved]) {
        let before = library
        let moving = ids.filter { before.lists[$0.list].file.path != destination }
        var placed: [TaskKey?] = []
        if !moving.isEmpty {
            placed = try move(before.keys(moving), to: destination, creating: initial.map { (name, $0) },
                              summary: (initial == nil ? "" : "created the list \(name) and ")
                                  + "moved \(titles(moving, in: before)) to \(name)")
        }
        let after = library
        // Where each task is now, every key found with one pass over each list.
        let position = Dictionary(moving.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let keys: [TaskKey?] = ids.map { id in position[id].map { placed[$0] } ?? before.key(id) }
        var found = after.ids(of: keys.compactMap { $0 }).makeIterator()
        let tasks: [Moved] = zip(ids, keys).map { id, key in
            guard key != nil, let now = found.next()! else { return .withParent }
            return position[id] == nil ? .alreadyThere(now) : .moved(now)
        }
        return (after, tasks)
    }

    /// With `creating`, the destination is a new list of those first bytes: a file there is refused.
    private func move(_ keys: [TaskKey], to destination: String, creating: (name: String, bytes: [UInt8])?,
                      summary: String) throws -> [TaskKey?] {
        // The tasks as they are now (under the lock, so only an editor can change them before the
        // writes; the sources' edits check that).
        var fragments: [TaskKey: (fragment: TaskFragment, text: [String])] = [:]
        for path in orderedPaths(keys) {
            let document = try self.document(at: path)
            let indexes = try TaskFolder.outermost(keys.filter { $0.path == path }, in: document)
            for (i, key) in zip(indexes, document.keys(of: indexes, path: path)) {
                let fragment = try refusing { try document.extracting(i) }
                fragments[key] = (fragment, TaskFolder.text(of: i, in: document))
            }
        }
        let moving = keys.filter { fragments[$0] != nil }
        let results = Box<[String: Document]>([:])
        let placed = Box<[TaskKey: Int]>([:])
        var changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = []
        changes.append((destination, { current in
            if let creating, current != nil { throw MutationError.listExists(name: creating.name, path: destination) }
            guard let bytes = current ?? creating?.bytes else { throw MutationError.listGone(path: destination) }
            let (document, at) = try self.folder.document(bytes).insertingAtEnd(moving.map { fragments[$0]!.fragment })
            placed.value = Dictionary(uniqueKeysWithValues: zip(moving, at))
            results.value[destination] = document
            return .write(document.serialize())
        }))
        for path in orderedPaths(keys) {
            let mine = keys.filter { $0.path == path && fragments[$0] != nil }
            changes.append((path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = self.folder.document(bytes)
                let indexes = try TaskFolder.outermost(mine, in: document)
                for (i, key) in zip(indexes, document.keys(of: indexes, path: path)) {
                    guard fragments[key]?.text == TaskFolder.text(of: i, in: document) else {
                        throw MutationError.changedWhileMoving(title: key.title, from: path, to: destination)
                    }
                }
                if let together = try document.removingTogether(indexes) {
                    document = together
                } else {
                    for i in indexes.reversed() { document = try document.removing(i).document }
                }
                results.value[path] = document
                return .write(document.serialize())
            }))
        }
        try write(summary, changes)
        let arrived = placed.value.sorted { $0.value < $1.value }
        let arrivedKeys = results.value[destination]?.keys(of: arrived.map(\.value), path: destination) ?? []
        let now = Dictionary(uniqueKeysWithValues: zip(arrived.map(\.key), arrivedKeys))
        let moved: [TaskKey?] = keys.map { now[$0] }
        let documents = results.value
        results.value = [:]
        // Its subtasks went along: matched by their parent (`matchedTasks`), they forward too.
        following = zip(library.ids(of: keys), moved).compactMap { id, now in id.map { ($0, now) } }
        refresh(consume documents)
        return moved
    }

    /// The lines of task `i` with its notes and subtasks, to notice a change (without the blank
    /// lines after it, which change when a task is added below it).
    private static func text(of i: Int, in document: Document) -> [String] {
        var lines = document.lineRange(of: i).map { document.lineText($0) }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" || $0 == ">" }) { lines.removeLast() }
        return lines
    }

    // MARK: - Undo

    /// Reverts the last change tick made to the folder; returns its summary.
    public func undo(force: Bool) throws -> String {
        try undoLast(force: force).summary
    }

    /// Reverts the last change tick made to the folder, onto what each file holds now (see
    /// `FolderWriter.undoLast(force:)`), and says what it kept or, with `force`, threw away.
    public func undoLast(force: Bool) throws -> Undone {
        guard let writer else { throw StorageError.nothingToUndo }
        let undone = try writer.undoLast(force: force)
        let before = library
        library = folder.load().library
        keep(library.retiredRefs(afterUndoing: before))
        return undone
    }

    // MARK: - Writing

    /// Writes one change through the folder's writer: edit errors of the format library become
    /// `MutationError`s, so that callers see one error type for a refused change.
    /// Returns whether anything was written (and so journalled).
    @discardableResult
    func write(_ summary: String, _ changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)]) throws -> Bool {
        guard let writer else { throw MutationError.noFolder(path: folder.path) }
        return try refusing { try writer.change(summary, changes) != nil }
    }

    /// `body`, with an edit the format library refused thrown as a `MutationError`.
    func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as EditError {
            throw MutationError(error)
        }
    }

    /// Writes whole files in one change, and keeps the library in step with what was written.
    func writeFiles(_ summary: String, _ changes: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)]) throws {
        let results = Box<[String: [UInt8]?]>([:])
        let recording = changes.map { path, edit in
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
        try write(summary, recording)
        refresh(results.value.mapValues { $0.map { folder.document($0) } })
    }

    /// The list at `path` as its file holds it now.
    func document(at path: String) throws -> Document {
        do {
            return folder.document(try folder.fileSystem.readFile(folder.absolute(path)))
        } catch FileSystemError.notFound {
            throw MutationError.listGone(path: path)
        }
    }

    func refresh(_ documents: consuming [String: Document]) {
        let optional = documents.mapValues { Optional($0) }
        _ = consume documents
        refresh(consume optional)
    }

    /// The library with the lists at these paths replaced (nil: the file is gone), and the refs
    /// the change retired recorded. Callers hand the documents over and keep none: a huge list's
    /// document is let go once its records are built, before anything else is parsed.
    private func refresh(_ documents: consuming [String: Document?]) {
        let before = library
        refsAhead?.install(in: before)
        refsAhead = nil
        let paths = Set(documents.keys)
        library = before.replacing(consume documents, in: folder, statuses: writer?.written ?? [:])
        // A list edited by hand since tick last wrote it: its tasks deleted by hand retire their refs
        // too. Its last written version is parsed and its refs taken; the rest is let go at once.
        var handEdits: [(path: String, shown: WrittenRefs)] = []
        if let writer {
            for path in paths.sorted() {
                guard let (written, found) = writer.lastTwoVersions(of: path), written != found else { continue }
                _ = consume found
                handEdits.append((path, before.shownRefs(ofWritten: folder.document(consume written), path: path)))
            }
        }
        keep(library.retiredRefs(after: before, changing: paths, handEdits: handEdits, following: following,
                                 keepingKeys: followingKeepingKeys, renamed: renamedList))
        following = []
        followingKeepingKeys = []
        // The next read finds the lists just written in the cache: their segments are the ones
        // built here, checked against the files' bytes before use.
        if let cache = loaded.cache {
            cache.cache.save(library, created: folder.fileSystem.now(), over: cache.cached, verify: paths, ahead: ahead)
            ahead = nil
        }
    }

    /// Records the refs that this change retired (README "Refs"), in `.tick/retired` and in `library`.
    private func keep(_ retired: RetiredRefs) {
        guard retired.refs != library.retired.refs else { return }
        library = library.with(retired: retired)
        // The lists are written already: a record that cannot be written only weakens later warnings.
        try? retired.save(root: folder.path, fileSystem: folder.fileSystem)
    }

    private func orderedPaths(_ keys: [TaskKey]) -> [String] {
        var seen: Set<String> = []
        return keys.map(\.path).filter { seen.insert($0).inserted }
    }

    /// `"A", "B"`: titles for a change's summary in the journal (what `tick undo` prints).
    /// The first ten, and how many more: a change of ten thousand tasks is not named by ten thousand titles.
    func titles(_ ids: [TaskID], in library: Library) -> String {
        let named = ids.prefix(10).map { "\"\(library.title($0))\"" }.joined(separator: ", ")
        return ids.count > 10 ? named + " and \(ids.count - 10) more" : named
    }
}

/// A mutable cell that the writer's edit closures fill (they may run more than once; the last
/// run is what was written).
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
