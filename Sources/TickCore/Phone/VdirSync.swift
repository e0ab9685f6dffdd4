import TickFormat

// `tick vdir sync`: one run takes the phone's changes from a vdir into the lists, field by field
// against the base each task's last synced object gives, then writes back every task whose object
// changed. Order, so that a run killed at any point loses nothing on the next: the state learns the
// ids of tasks made on the phone first, then the lists change (each a journalled change), then the
// vdir files, then the state's new bases.

/// What one sync did or found, for the summary and `--json`.
public struct VdirEvent: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case completed, reopened, edited, added, deleted, newList = "new-list"
        /// Both sides changed one field differently: the Markdown's value is kept.
        case kept
        /// Deleted on one side, edited on the other: the task stays.
        case cameBack = "came-back"
        /// A vdir file or folder tick would not read.
        case refused
        /// The phone's own VTODO for a repeating task's next occurrence: tick's task moved on instead.
        case nextOccurrence = "next-occurrence"
        /// A date-time of the phone's whose `TZID` names no zone tick knows, taken at its clock time.
        case unknownZone = "unknown-zone"
        /// The phone gave a task another parent (`RELATED-TO`) that tick does not take: its structure is kept.
        case parentKept = "parent-kept"
    }

    public var kind: Kind
    public var list: String
    public var title: String
    /// The field (`kept`, `edited`), the phone's value (`kept`), the reason (`refused`), or "".
    public var field = ""
    public var detail = ""
}

/// The outcome of a sync.
public struct VdirSyncReport: Sendable {
    /// Events of the phone's side, in the order found.
    public var events: [VdirEvent] = []
    /// How many tasks got an `id:` before their first sync.
    public var givenIDs = 0
    /// Vdir files written and removed (`COLLECTION/FILE`), collections created.
    public var written: [String] = []
    public var removed: [String] = []
    public var createdCollections: [String] = []
    /// The phone's changes that went into the lists.
    public var applied = 0
}

public struct VdirSync {
    public let folder: TaskFolder
    public let directory: String
    public let fileSystem: any FileSystem
    public let store: VdirStateStore
    /// Local now: the completion day of a completion without a date, the stamp of written objects.
    public let now: Now
    public let dryRun: Bool
    /// New `id:` values: `count` of them, none taken in the library.
    public let mint: (Int, Library) -> [String]
    /// The names of the lists to sync (`vdir.lists`, compared ignoring case); nil: every list.
    public var lists: [String]? = nil

    public init(folder: TaskFolder, directory: String, fileSystem: any FileSystem, store: VdirStateStore, now: Now,
                dryRun: Bool, mint: @escaping (Int, Library) -> [String]) {
        self.folder = folder
        self.directory = directory
        self.fileSystem = fileSystem
        self.store = store
        self.now = now
        self.dryRun = dryRun
        self.mint = mint
    }

    /// One vdir object as found.
    struct Found {
        var collection: String
        var file: String
        var bytes: [UInt8]
        var uid: String
        /// The parsed object; nil for a file taken from the state by its stamp, parsed when needed.
        var parsed: VdirObject?
        /// The file's status while it held `bytes`, when it held still while read.
        var stamp: VdirState.FileStamp?
        /// Whether `bytes` is the state's base, the file's stamp unchanged (the file was not read).
        var unchanged = false
        var key: String { collection + "/" + file }
        var object: VdirObject? { parsed ?? (try? VdirObject(bytes)) }
    }

    public func run() throws -> VdirSyncReport {
        var report = VdirSyncReport()
        let (recorded, stateTime) = store.loadTimed()
        var state = recorded
        let loaded = state
        try giveIDs(&report)
        var library = folder.library

        // Collections: a list keeps the folder recorded for it; a new list gets one named after its file.
        let present = try scanCollections(&report)
        // Read every object of every collection.
        var found: [String: Found] = [:]
        for (collection, _) in present.sorted(by: { $0.key < $1.key }) {
            for (file, bytes, stamp, fromState) in try readCollection(collection, &report, state: state, stateTime: stateTime) {
                if fromState, let entry = state.entries[collection + "/" + file] {
                    found[entry.key] = Found(collection: collection, file: file, bytes: bytes, uid: entry.uid, stamp: stamp, unchanged: true)
                    continue
                }
                do {
                    let object = try VdirObject(bytes)
                    let item = Found(collection: collection, file: file, bytes: bytes, uid: object.uid, parsed: object, stamp: stamp)
                    found[item.key] = item
                } catch {
                    report.events.append(VdirEvent(kind: .refused, list: collection, title: file, detail: error.message))
                }
            }
        }

        var listOfCollection: [String: Int] = [:]
        var takenNames = Set(present.keys.map { $0.lowercased() })
        for (index, list) in library.lists.enumerated() where isSynced(list) {
            if let name = state.collections[list.file.path], VdirState.isName(name) {
                listOfCollection[name] = index
                takenNames.insert(name.lowercased())
                continue
            }
            // A list renamed in tick (a new file name), or a clone's list without a record: the
            // collection that holds most of its tasks (by the state, else by UID) is its.
            let paths = Set(library.lists.map { $0.file.path })
            let recorded = Set(state.collections.filter { paths.contains($0.key) }.values)
            let ids = Set(library.ids.filter { $0.list == index }.compactMap { library.task($0).id })
            func score(_ collection: String) -> Int {
                state.entries.values.filter { $0.collection == collection && ids.contains($0.id) }.count
                    + found.values.filter { $0.collection == collection && ids.contains($0.uid) }.count
            }
            let candidates = Set(state.collections.values).union(present.keys)
                .filter { !recorded.contains($0) && listOfCollection[$0] == nil }
            if let adopted = candidates.sorted().max(by: { score($0) < score($1) }), score(adopted) > 0 {
                state.collections = state.collections.filter { $0.value != adopted }
                state.collections[list.file.path] = adopted
                listOfCollection[adopted] = index
                takenNames.insert(adopted.lowercased())
                continue
            }
            // No record (a first sync, or a clone without state): a folder of the list's own name is its.
            let name = Self.folderName(for: list.file.path)
            if present[name] != nil, listOfCollection[name] == nil {
                state.collections[list.file.path] = name
                listOfCollection[name] = index
                continue
            }
            var candidate = name
            var n = 2
            while takenNames.contains(candidate.lowercased()) { candidate = name + "-" + String(n); n += 1 }
            takenNames.insert(candidate.lowercased())
            state.collections[list.file.path] = candidate
            listOfCollection[candidate] = index
        }

        // New collections from the phone become new lists.
        var newLists: [(collection: String, name: String, path: String, bytes: [UInt8])] = []
        for collection in present.keys.sorted() where listOfCollection[collection] == nil {
            let display = readDisplayName(collection) ?? collection
            guard let made = try? TaskFolder.newList(display, fields: []),
                  !library.lists.contains(where: { $0.file.path.lowercased() == made.path.lowercased() }),
                  !newLists.contains(where: { $0.path.lowercased() == made.path.lowercased() }) else {
                report.events.append(VdirEvent(kind: .refused, list: collection, title: "", detail: "no list can be made for it"))
                continue
            }
            newLists.append((collection, made.name, made.path, made.bytes))
            report.events.append(VdirEvent(kind: .newList, list: made.name, title: ""))
        }

        // Match objects to tasks, and decide the lists' side.
        let byID = Self.tasksByID(library)
        var plan: [(id: TaskID, edits: [TaskEdit])] = []
        var additions: [String: [(task: NewTask, id: String?)]] = [:]
        var removals: [TaskID] = []
        var pendingIDs: [(Found, String)] = []
        var claimed = Set<String>()
        var deleteFiles = Set<String>()
        // Parents the phone gave, taken after the round's other changes.
        var parentMoves: [ParentMove] = []
        // Repeating tasks the phone completed: a phone that also made a new VTODO for the next
        // occurrence must not give two tasks, so a new open VTODO of the same title is tick's own.
        var completedRepeating = Set<String>()
        for item in found.values where !item.unchanged && state.entries[item.key]?.base != item.bytes {
            guard let base = state.entries[item.key]?.base.flatMap({ try? VdirObject($0) })?.fields, base.rule != nil,
                  !base.done, item.object?.fields.done == true else { continue }
            completedRepeating.insert(item.collection + "\u{0}" + base.title)
        }
        for key in found.keys.sorted() {
            let item = found[key]!
            var entry = state.entries[key]
            if entry == nil, let byUID = state.entries.values.first(where: { $0.uid == item.uid && $0.collection == item.collection }) {
                entry = byUID
            }
            let idValue = entry?.id ?? (VdirState.isIDValue(item.uid) ? item.uid : nil)
            // The file is the base itself: the phone changed nothing, so there is nothing to merge.
            if let entry, entry.base == item.bytes, byID[entry.id] != nil {
                claimed.insert(entry.id)
                continue
            }
            let listName = listOfCollection[item.collection].map { library.lists[$0].name }
                ?? newLists.first { $0.collection == item.collection }?.name ?? item.collection
            guard let phone = item.object?.fields.withoutList(listName) else {
                report.events.append(VdirEvent(kind: .refused, list: item.collection, title: item.file, detail: "it no longer parses"))
                continue
            }
            if let zone = phone.unknownZone {
                report.events.append(VdirEvent(kind: .unknownZone, list: listName, title: phone.title, detail: zone))
            }
            if let idValue, let task = byID[idValue] {
                claimed.insert(idValue)
                let base = entry?.base.flatMap { try? VdirObject($0) }?.fields.withoutList(listName)
                let tick = Self.fields(of: task, in: library, base: base)
                var edits: [TaskEdit] = []
                var title = tick.title
                switch parentDecision(task, collection: item.collection, phone: phone, base: base, library: library, state: state,
                                      byID: byID, found: found, list: listName) {
                case .success(let move)?: parentMoves.append(move)
                case .failure(let kept)?:
                    report.events.append(VdirEvent(kind: .parentKept, list: listName, title: tick.title, field: "parent", detail: kept.words))
                case nil: break
                }
                for field in SyncFields.Field.allCases {
                    if field == .start, !Self.mergesStart(library.task(task), tick: tick, base: base) { continue }
                    if let base {
                        let phoneChanged = !phone.same(field, as: base)
                        let tickChanged = !tick.same(field, as: base)
                        if phoneChanged && !tickChanged && field == .tags {
                            // Tags live in the title: the phone's added categories join it, its removed ones leave it.
                            let added = phone.tags.filter { tag in !base.tags.contains(tag) }
                            let removed = base.tags.filter { tag in !phone.tags.contains(tag) }
                            for tag in added where !Interchange.isTagName(tag) {
                                report.events.append(VdirEvent(kind: .kept, list: listName, title: tick.title, field: "tags",
                                                               detail: "the category \"\(tag)\", which is no tag name"))
                            }
                            let retitled = Self.retitled(title, adding: added.filter(Interchange.isTagName), removing: removed)
                            if retitled != title {
                                edits.append(.retitle(retitled))
                                title = retitled
                                report.events.append(event(field, phone: phone, list: listName, title: phone.title))
                            }
                        } else if phoneChanged && !tickChanged {
                            guard let edit = completionOrEdit(field, phone: phone, base: base, tick: tick) else {
                                if field == .repeats {
                                    report.events.append(VdirEvent(kind: .kept, list: listName, title: tick.title, field: field.rawValue,
                                                                   detail: phone.words(field) + ", which no rec: states"))
                                }
                                continue
                            }
                            // A phone that completes a repeating task and also moves its DUE: one done.
                            if field == .due, base.rule != nil, phone.done { continue }
                            edits += edit
                            if field == .title { title = phone.title }
                            if field == .due, case .complete? = edit.first {
                                report.events.append(VdirEvent(kind: .completed, list: listName, title: phone.title))
                            } else {
                                report.events.append(event(field, phone: phone, list: listName, title: phone.title))
                            }
                        } else if phoneChanged && !phone.same(field, as: tick) {
                            report.events.append(VdirEvent(kind: .kept, list: listName, title: tick.title,
                                                           field: field.rawValue, detail: phone.words(field)))
                        }
                    } else if !phone.same(field, as: tick) {
                        report.events.append(VdirEvent(kind: .kept, list: listName, title: tick.title,
                                                       field: field.rawValue, detail: phone.words(field)))
                    }
                }
                if !edits.isEmpty { plan.append((task, edits)) }
            } else if let entry, entry.base != nil, let base = (try? VdirObject(entry.base!))?.fields.withoutList(listName) {
                // Deleted in tick: gone for good unless the phone changed it since.
                if SyncFields.Field.allCases.allSatisfy({ phone.same($0, as: base) }) {
                    deleteFiles.insert(key)
                    continue
                }
                report.events.append(VdirEvent(kind: .cameBack, list: listName, title: phone.title))
                additions[listPath(item.collection, listOfCollection, library, newLists), default: []]
                    .append((Self.newTask(phone), entry.id))
                claimed.insert(entry.id)
            } else {
                // New on the phone.
                if !phone.done, completedRepeating.contains(item.collection + "\u{0}" + phone.title) {
                    deleteFiles.insert(key)
                    report.events.append(VdirEvent(kind: .nextOccurrence, list: listName, title: phone.title))
                    continue
                }
                let taken = idValue.map { byID[$0] != nil || claimed.contains($0) } ?? true
                let value: String
                if let idValue, !taken { value = idValue } else {
                    value = mint(1, library).first!
                    pendingIDs.append((item, value))
                }
                if let idValue, !taken, entry == nil { pendingIDs.append((item, idValue)) }
                claimed.insert(value)
                report.events.append(VdirEvent(kind: .added, list: listName, title: phone.title))
                if let uid = phone.parent {
                    let words = Self.parentWords(uid, list: listOfCollection[item.collection], library: library, state: state, byID: byID)
                    switch newParent(uid, of: ParentMove(task: value, list: listName, title: phone.title, words: words),
                                     list: listOfCollection[item.collection], collection: item.collection, state: state, byID: byID, found: found) {
                    case .success(let move): parentMoves.append(move)
                    case .failure(let kept):
                        report.events.append(VdirEvent(kind: .parentKept, list: listName, title: phone.title, field: "parent", detail: kept.words))
                    }
                }
                additions[listPath(item.collection, listOfCollection, library, newLists), default: []]
                    .append((Self.newTask(phone), value))
            }
        }
        // Files gone from the vdir: the phone deleted them, unless tick changed the task since.
        for (_, entry) in state.entries.filter({ found[$0.key] == nil }).sorted(by: { $0.key < $1.key }) {
            guard let task = byID[entry.id], listOfCollection[entry.collection] == task.list,
                  let base = entry.base.flatMap({ try? VdirObject($0) })?.fields.withoutList(library.list(task).name) else { continue }
            let tick = Self.fields(of: task, in: library, base: base)
            if SyncFields.Field.allCases.allSatisfy({ tick.same($0, as: base) }) {
                removals.append(task)
                report.events.append(VdirEvent(kind: .deleted, list: library.list(task).name, title: tick.title))
            } else {
                report.events.append(VdirEvent(kind: .cameBack, list: library.list(task).name, title: tick.title))
            }
        }
        parentMoves = Self.takenMoves(parentMoves, library: library, removing: Set(removals), byID: byID, &report)
        report.applied = plan.count + additions.values.reduce(0) { $0 + $1.count } + removals.count + parentMoves.count
        if dryRun { return report }

        // 1. The state learns the ids of tasks made on the phone, so that a run killed after adding
        //    them matches them next time instead of adding them again.
        if !pendingIDs.isEmpty {
            for (item, value) in pendingIDs {
                state.entries[item.key] = VdirState.Entry(collection: item.collection, file: item.file,
                                                          uid: item.uid, id: value, base: nil)
            }
            for list in newLists { state.collections[list.path] = list.collection }
            try store.save(state)
        }
        // 2. The lists: the phone's edits, then its deletions, then its additions (which may add lists,
        //    and so come last: the plan's task addresses are the library's before any change).
        let removing = removals.compactMap { library.task($0).id }
        if !plan.isEmpty { library = try folder.edit(plan, summary: "vdir sync").library }
        if !removing.isEmpty {
            let current = Self.tasksByID(folder.library)
            try folder.remove(removing.compactMap { current[$0] })
        }
        if !additions.isEmpty || !newLists.isEmpty {
            var batches: [(path: String, initial: [UInt8]?, tasks: [(task: NewTask, id: String?)])] = []
            for list in newLists where additions[list.path] == nil { batches.append((list.path, list.bytes, [])) }
            for path in additions.keys.sorted() {
                batches.append((path, newLists.first { $0.path == path }?.bytes, additions[path]!))
            }
            _ = try folder.add(batches, summary: "vdir sync: added from the vdir")
        }
        // The phone's parents, as a change of their own: the plan's addresses are the library's before any change.
        try applyParents(parentMoves)
        library = folder.library
        for list in newLists { state.collections[list.path] = list.collection }

        // 3. The vdir: every synced task's object, written where it changed.
        try write(library, &state, found: found, deleting: deleteFiles, &report)
        // 4. The new bases (not written again when they are what was read).
        if state != loaded { try store.save(state) }
        return report
    }

    // MARK: - Steps

    /// Gives an `id:` to every task without one, in one change (one `undo`).
    func giveIDs(_ report: inout VdirSyncReport) throws {
        let library = folder.library
        let minting = library.ids.filter { library.task($0).id == nil && isSynced(library.list($0)) }
        guard !minting.isEmpty, !dryRun else {
            report.givenIDs = dryRun ? minting.count : 0
            return
        }
        let values = mint(minting.count, library)
        _ = try folder.edit(minting.indices.map { (minting[$0], [TaskEdit.giveID(values[$0])]) },
                            summary: "vdir sync: gave ids")
        report.givenIDs = minting.count
    }

    /// Writes each synced task's object where it differs from the file, removes the files of tasks
    /// gone, and records the new bases.
    func write(_ library: Library, _ state: inout VdirState, found: [String: Found], deleting: Set<String>,
               _ report: inout VdirSyncReport) throws {
        let uids = Dictionary(state.entries.values.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let todos = library.calendarTodos(CalendarScope(), stamp: { _ in 0 })
        let ids = library.ids
        var keep = Set<String>()
        var newEntries: [String: VdirState.Entry] = [:]
        let stamp = LocalTimeZone.seconds(day: now.day, minutes: now.minutes) ?? 0
        for (index, id) in ids.enumerated() {
            guard let idValue = library.task(id).id else { continue }
            let list = library.list(id)
            guard let collection = state.collections[list.file.path], VdirState.isName(collection) else { continue }
            let known = uids[idValue].flatMap { $0.collection == collection ? $0 : nil }
            let uid = known?.uid ?? idValue
            let file = known?.file ?? VdirExport.fileName(uid: uid)
            guard VdirState.isName(file) else { continue }
            let key = collection + "/" + file
            guard !keep.contains(key) else { continue }
            keep.insert(key)
            var todo = todos[index]
            todo.uid = uid
            todo.stamp = stamp
            if let parent = library.parent(of: id).flatMap({ library.task($0).id }) { todo.parent = uids[parent]?.uid ?? parent }
            let rendered = Self.tickHash(todo)
            var current = found[key]
            // The file as the state recorded it, and the task's side as it was then: nothing to do.
            if let current, current.unchanged, let known, known.key == key, known.rendered == rendered {
                newEntries[key] = known
                continue
            }
            // A file taken from the state whose base no longer parses: read it again.
            if let item = current, item.unchanged, item.object == nil {
                current = reread(item)
                guard current != nil else { continue }
            }
            let currentObject = current?.object
            let keepStart = Self.keepsPhoneStart(library.task(id), phone: currentObject ?? known?.base.flatMap { try? VdirObject($0) },
                                                 base: known?.base)
            let previous = current.map { VdirStamps($0.bytes)?.sequence ?? 0 } ?? known?.base.flatMap { VdirStamps($0)?.sequence } ?? -1
            todo.sequence = previous
            if let current, let stamp = VdirStamps.stamp(current.bytes) {
                // Most files are tick's own, unchanged: with their stamp, the object is byte for byte the file.
                var probe = todo
                probe.stamp = stamp
                if VdirObject.render(probe, keeping: currentObject, keepingStart: keepStart) == current.bytes {
                    newEntries[key] = VdirState.Entry(collection: collection, file: file, uid: uid, id: idValue, base: current.bytes,
                                                      stamp: current.stamp, rendered: rendered)
                    continue
                }
            }
            var object = VdirObject.render(todo, keeping: currentObject ?? known?.base.flatMap { try? VdirObject($0) }, keepingStart: keepStart)
            if let current, VdirStamps.withoutStamps(VdirObject.crlf(current.bytes)) == VdirStamps.withoutStamps(object) {
                newEntries[key] = VdirState.Entry(collection: collection, file: file, uid: uid, id: idValue, base: current.bytes,
                                                  stamp: current.stamp, rendered: rendered)
                continue
            }
            todo.sequence = previous + 1
            object = VdirObject.render(todo, keeping: currentObject ?? known?.base.flatMap { try? VdirObject($0) }, keepingStart: keepStart)
            try ensureCollection(collection, list: list, &report)
            let directoryPath = Path.join(directory, collection)
            try VdirExport.replace(Path.join(directoryPath, file), in: directoryPath, name: file, with: object,
                                   fileSystem: fileSystem)
            report.written.append(key)
            let stamp = try? fileSystem.status(Path.join(directoryPath, file), followSymlinks: false)
            newEntries[key] = VdirState.Entry(collection: collection, file: file, uid: uid, id: idValue, base: object,
                                              stamp: stamp.flatMap { $0.size == object.count ? VdirState.FileStamp($0) : nil },
                                              rendered: rendered)
        }
        // Files of tasks deleted in tick (and unchanged on the phone), and of tasks now in another
        // collection: removed. Every other file is left as it is.
        let written = Set(newEntries.values.map(\.id))
        for key in found.keys.sorted() where !keep.contains(key) {
            let item = found[key]!
            let movedAway = state.entries[key].map { written.contains($0.id) } ?? false
            guard deleting.contains(key) || movedAway else { continue }
            try fileSystem.removeFile(Path.join(Path.join(directory, item.collection), item.file))
            report.removed.append(key)
        }
        // Entries of files tick left alone (refused, or a task it could not write) stay as they were.
        for (key, entry) in state.entries where newEntries[key] == nil && found[key] != nil && !deleting.contains(key)
            && !written.contains(entry.id) {
            newEntries[key] = entry
        }
        // Names and colours of every synced list's collection.
        for list in library.lists {
            guard let collection = state.collections[list.file.path], VdirState.isName(collection) else { continue }
            try ensureCollection(collection, list: list, &report)
        }
        state.entries = newEntries
        state.collections = state.collections.filter { path, _ in library.lists.contains { $0.file.path == path } }
    }

    /// A hash of the task's side of its object: its VTODO as tick renders it before the stamps,
    /// `SEQUENCE` and the phone's own properties are added. Equal hashes and an unchanged file mean
    /// an unchanged object.
    static func tickHash(_ todo: CalendarTodo) -> UInt64 {
        var todo = todo
        todo.stamp = 0
        todo.sequence = 0
        var hash = FNV1a64()
        hash.add(ICalendar.single(todo))
        return hash.value
    }

    /// `item` read from its file again, parsed, or nil when it no longer reads or parses.
    func reread(_ item: Found) -> Found? {
        let path = Path.join(Path.join(directory, item.collection), item.file)
        guard let bytes = try? fileSystem.readFile(path, followSymlinks: false), bytes.count <= VObject.sizeLimit,
              let object = try? VdirObject(bytes) else { return nil }
        return Found(collection: item.collection, file: item.file, bytes: bytes, uid: object.uid, parsed: object)
    }

    /// Creates the collection folder (0700) when missing, and writes its `displayname` and `color`
    /// where they differ from the list's.
    func ensureCollection(_ collection: String, list: TaskList, _ report: inout VdirSyncReport) throws {
        let path = Path.join(directory, collection)
        if try fileSystem.status(path, followSymlinks: false) == nil {
            try fileSystem.createDirectory(path, intermediates: false, mode: 0o700)
            report.createdCollections.append(collection)
        }
        try writeMeta(path, "displayname", Array(list.name.utf8))
        if let color = list.color.flatMap(Self.hexColor) { try writeMeta(path, "color", Array(color.utf8)) }
    }

    private func writeMeta(_ directory: String, _ name: String, _ content: [UInt8]) throws {
        let path = Path.join(directory, name)
        if let existing = try? fileSystem.readIfPresent(path, followSymlinks: false), existing == content { return }
        try VdirExport.replace(path, in: directory, name: name, with: content, fileSystem: fileSystem)
    }

    /// The vdir's collections: its visible folders (not links). A link or a file in their place is refused.
    func scanCollections(_ report: inout VdirSyncReport) throws -> [String: Bool] {
        if try fileSystem.status(directory, followSymlinks: false) == nil {
            if dryRun { return [:] }
            try VdirExport.createPrivateDirectory(directory, fileSystem: fileSystem)
        }
        var result: [String: Bool] = [:]
        for name in try fileSystem.contents(ofDirectory: directory) where !name.hasPrefix(".") {
            let status = try fileSystem.status(Path.join(directory, name), followSymlinks: false)
            guard status?.kind == .directory else {
                if status?.kind == .symlink {
                    report.events.append(VdirEvent(kind: .refused, list: name, title: "", detail: "a symbolic link"))
                }
                continue
            }
            guard VdirState.isName(name) else {
                report.events.append(VdirEvent(kind: .refused, list: name, title: "", detail: "a name tick does not use"))
                continue
            }
            result[name] = true
        }
        return result
    }

    /// The `.ics` files of a collection that are regular files within the size limit: each name, its
    /// bytes, its stamp when it held still while read, and whether the bytes are the state's base
    /// (the file's stamp as recorded, and older than the state file), not read.
    func readCollection(_ collection: String, _ report: inout VdirSyncReport, state: VdirState, stateTime: Int64?) throws
        -> [(String, [UInt8], VdirState.FileStamp?, Bool)] {
        let path = Path.join(directory, collection)
        var result: [(String, [UInt8], VdirState.FileStamp?, Bool)] = []
        for name in try fileSystem.contents(ofDirectory: path).sorted() where name.hasSuffix(".ics") && !name.hasPrefix(".") {
            let file = Path.join(path, name)
            guard let status = try fileSystem.status(file, followSymlinks: false) else { continue }
            guard status.kind == .file else {
                report.events.append(VdirEvent(kind: .refused, list: collection, title: name, detail: "not a regular file"))
                continue
            }
            guard status.size <= VObject.sizeLimit, VdirState.isName(name) else {
                report.events.append(VdirEvent(kind: .refused, list: collection, title: name,
                                               detail: status.size > VObject.sizeLimit ? "larger than 1 MiB" : "a name tick does not use"))
                continue
            }
            let stamp = VdirState.FileStamp(status)
            if let stateTime, let stamp, let entry = state.entries[collection + "/" + name], let base = entry.base,
               entry.stamp == stamp, stamp.modified < stateTime, base.count == stamp.size {
                result.append((name, base, stamp, true))
                continue
            }
            guard let bytes = try? fileSystem.readFile(file, followSymlinks: false), bytes.count <= VObject.sizeLimit else { continue }
            let after = try? fileSystem.status(file, followSymlinks: false)
            result.append((name, bytes, after.flatMap(VdirState.FileStamp.init) == stamp && bytes.count == status.size ? stamp : nil, false))
        }
        return result
    }

    func readDisplayName(_ collection: String) -> String? {
        let path = Path.join(Path.join(directory, collection), "displayname")
        guard let status = try? fileSystem.status(path, followSymlinks: false), status.kind == .file, status.size <= 4096,
              let bytes = try? fileSystem.readFile(path, followSymlinks: false),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let name = text.split(whereSeparator: { $0.isNewline }).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    // MARK: - Helpers

    /// Whether `list` is one to sync: named in `lists` (ignoring case), or every list without it.
    func isSynced(_ list: TaskList) -> Bool {
        guard let lists else { return true }
        return lists.contains { $0.lowercased() == list.name.lowercased() || $0.lowercased() == list.file.baseName.lowercased() }
    }

    func listPath(_ collection: String, _ lists: [String: Int], _ library: Library,
                  _ newLists: [(collection: String, name: String, path: String, bytes: [UInt8])]) -> String {
        if let index = lists[collection] { return library.lists[index].file.path }
        return newLists.first { $0.collection == collection }!.path
    }
}
