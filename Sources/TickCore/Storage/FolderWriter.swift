import TickFormat

/// Why a write did not happen.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    case io(FileSystemError)
    /// The file kept changing under tick (an editor saving it) and the edit could not be re-applied.
    case changedMeanwhile(path: String)
    /// The file holds git conflict markers: tick does not write it until they are resolved.
    case conflictMarkers(path: String, line: Int)
    /// A list, or a folder on its way, that is a symbolic link to somewhere outside the folder.
    case outsideFolder(path: String, target: String)
    /// A list that is a symbolic link whose target does not exist.
    case danglingLink(path: String)
    /// A file to create exists already.
    case exists(path: String)
    /// `undo` found nothing to revert.
    case nothingToUndo
    /// `undo` found a file created, deleted or brought back since tick's last change to it.
    case changedSinceLastChange(path: String)
    /// `undo` found the lines tick's last change touched changed since (`lines`: which, in words).
    case changedLines(path: String, lines: String)
    /// Two saves by others landed while tick wrote the file: the newest is in place, the other kept
    /// beside it under `backup`. Nothing of tick's change was written.
    case keptBackup(path: String, backup: String)
    /// A change of several files failed after its first file, and rolling that file back failed
    /// too: the next tick run finishes or rolls back the change.
    case incomplete(summary: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .io(let failure): return failure.description
        case .changedMeanwhile(let path): return "\(path) kept changing while tick tried to write it; nothing written"
        case .conflictMarkers(let path, let line):
            return "\(path):\(line): the file holds git conflict markers; resolve them before tick writes it"
        case .outsideFolder(let path, let target):
            return "\(path) is a link to \(target), outside the task folder; tick does not write there"
        case .danglingLink(let path):
            return "\(path) is a symbolic link to a file that does not exist; tick does not write through it"
        case .exists(let path): return "\(path) exists already"
        case .nothingToUndo: return "nothing to undo"
        case .changedSinceLastChange(let path):
            return "\(path) changed since tick's last change; use --force to undo anyway"
        case .changedLines(let path, let lines):
            return "\(path) changed since tick's last change on the lines undo would revert (\(lines)); "
                + "use --force to restore the old file, discarding what changed since"
        case .keptBackup(let path, let backup):
            return "\(path) was saved twice by another program while tick wrote it: the newest version is in place, "
                + "the other is kept as \(backup); nothing written"
        case .incomplete(let summary, let path, let reason):
            return "\(summary): \(reason); \(path) holds part of the change, which the next tick run finishes or rolls back"
        }
    }
}

/// What `undo` did.
public struct Undone: Sendable, Equatable {
    /// The summary of the change undone.
    public var summary: String
    /// The files that had changed since that change, whose later changes were kept.
    public var merged: [String] = []
    /// With `--force`: what changed since that change and was thrown away, file by file.
    public var discarded: [Discarded] = []

    /// What changed in one file since tick's change, which `undo --force` threw away.
    public struct Discarded: Sendable, Equatable {
        public var path: String
        /// How many lines changed since (written, changed or deleted).
        public var lines: Int
        /// Which, in words: `lines 7-8`, `1 line deleted before line 3`, `(deleted since)`.
        public var which: String
    }

    init(summary: String) { self.summary = summary }

    static func discarding(_ after: [UInt8]?, _ current: [UInt8]?, path: String) -> Discarded {
        switch (after, current) {
        case (let after?, let current?):
            let spans = UndoMerge.changes(from: after, to: current)
            return Discarded(path: path, lines: spans.reduce(0) { $0 + $1.count + $1.deleted },
                             which: UndoMerge.describe(spans, lastLine: UndoMerge.lineCount(current)))
        case (nil, let current?):
            return Discarded(path: path, lines: UndoMerge.lineCount(current), which: "(the whole file, made again since)")
        case (let after?, nil):
            return Discarded(path: path, lines: UndoMerge.lineCount(after), which: "(deleted since)")
        case (nil, nil):
            return Discarded(path: path, lines: 0, which: "nothing")
        }
    }
}

/// What an edit does to a file, given its current bytes.
public enum FileOutcome: Sendable, Equatable {
    case unchanged
    case write([UInt8])
    case delete
}

/// The write side of a task folder: one lock for all tick processes on it, atomic replaces that
/// never clobber a change made meanwhile, and a journal that lets `undo` revert the last change
/// and lets the next run finish or roll back a change that a crash interrupted.
///
/// Every call goes through `fileSystem`, so that tests can fail any step or run a hook between two.
public final class FolderWriter {
    public let root: String
    public let fileSystem: any FileSystem
    let stateDirectory: String
    private let lock: FileLock
    /// The root with every symbolic link resolved: what "inside the folder" means.
    private let realRoot: String
    private var temporaryCounter = 0
    let journal: Journal
    /// The journal's entries, read once on opening and kept current (tick holds the lock).
    var entries: [Journal.Entry]
    /// Messages about what recovery did on opening (a finished move, a leftover removed).
    public internal(set) var recoveryNotes: [String] = []
    /// Where a change reports what it did besides the change (a save kept beside its list), as it
    /// happens; without one, such a note joins `recoveryNotes`.
    public var onWriteNote: ((String) -> Void)?
    /// The files tick set aside after its exchanges, kept until the next run (`SetAside.swift`).
    let aside: AsideStore
    /// The record numbers in use under `.tick/aside/`.
    var asideNumbers: Set<Int> = []
    /// For each list this run replaced, the status of tick's own file just before it went in: a
    /// list found with another size or time afterwards was written by someone else since.
    var ownFiles: [String: FileStatus] = [:]
    /// The folder's lists as scanned after recovery: the one walk of the tree a write makes.
    public private(set) var scan: FolderScan
    /// The status of each list as tick's last write of it left it, by path: what the cache records
    /// for the list tick wrote (checked against the file's bytes before use, since someone may have
    /// saved it right after).
    public private(set) var written: [String: FileStatus] = [:]

    /// Opens `root` for writing: prepares `.tick/`, takes the folder lock (waiting for other tick
    /// processes), finishes or rolls back interrupted changes and removes leftover temporary
    /// files, all from one scan of the folder.
    ///
    /// `environment` is no longer read (it named test hooks); it stays for existing callers.
    public init(root: String, environment: [String: String] = [:], fileSystem: any FileSystem = LocalFileSystem()) throws {
        self.root = root
        self.fileSystem = fileSystem
        stateDirectory = root + "/" + FolderLocation.stateFolderName
        try Folder.prepareState(in: root, fileSystem: fileSystem)
        // tick's state is reached only through the folder, never through a link below it.
        let state = try fileSystem.confined(to: root)
        lock = try state.lock(FolderLocation.stateFolderName + "/lock")
        realRoot = try fileSystem.resolvedPath(root)
        journal = Journal(directory: FolderLocation.stateFolderName + "/journal", fileSystem: state)
        aside = AsideStore(directory: FolderLocation.stateFolderName + "/aside", fileSystem: state)
        let folder = Folder(location: FolderLocation(path: root, source: .option, exists: true), fileSystem: fileSystem)
        scan = folder.scan(leftovers: Self.isTemporaryName)
        var notes: [String] = []
        entries = try journal.entries(notes: &notes)
        recoveryNotes = notes
        recoveryNotes += removeLeftovers(scan.leftovers)
        let recovered = try recover()
        if recoverSetAside() || recovered { scan = folder.scan() }
        try checkUndoable()
        if awaitQuietLists() { scan = folder.scan() }
    }

    /// Makes sure the entry `undo` would revert names only lists inside the folder (every link on
    /// the way resolved): one that does not is moved aside now, so that its note is shown with the
    /// others and `undo` reverts the entry before it.
    private func checkUndoable() throws {
        while let entry = entries.last(where: { $0.state == .done }) {
            do {
                for path in entry.paths { _ = try resolve(path) }
                return
            } catch let error as StorageError {
                switch error {
                case .outsideFolder, .danglingLink:
                    recoveryNotes.append(try journal.reject(.init(entry: entry.name, reason: error.description)))
                    entries.removeAll { $0.name == entry.name }
                default:
                    return
                }
            }
        }
    }

    // MARK: - Changes

    /// Applies `edits` in order (for a move: the destination first, then the source), each to the
    /// current content of its file, and records the change in the journal. When a file changes
    /// on disk between tick's read and its write, tick re-reads it and applies the edit again.
    /// A change of several files is all or nothing: when a later file fails, the files already
    /// written are rolled back before the error is thrown.
    /// Returns the bytes written per path (nil for a deleted file), or nil when nothing changed.
    @discardableResult
    public func change(_ summary: String,
                       _ edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)]) throws -> [String: [UInt8]?]? {
        // First pass: compute every file's new content from what is there now.
        var planned: [Journal.FileChange] = []
        for (path, edit) in edits {
            let before = try read(path)
            if let before { try refuseConflictMarkers(before, path: path) }
            switch try edit(before) {
            case .unchanged: continue
            case .write(let bytes): if bytes != before { planned.append(.init(path: path, before: before, after: bytes)) }
            case .delete: if before != nil { planned.append(.init(path: path, before: before, after: nil)) }
            }
        }
        guard !planned.isEmpty else { return nil }
        for change in planned where change.before != nil { try refuseReadOnly(change.path) }
        let entry = try journaling { try journal.begin(summary: summary, changes: planned, finishOnRecovery: planned.count > 1, after: entries) }
        entries.append(entry)
        var applied: [Journal.FileChange] = []
        var unknown: String?
        do {
            for (k, change) in planned.enumerated() {
                var current = change
                var attempts = 0
                while try !replacing(current, base: "\(entry.name)/\(k).before", applied: &applied, unknown: &unknown) {
                    attempts += 1
                    guard attempts < 8 else { throw StorageError.changedMeanwhile(path: change.path) }
                    // Someone saved the file meanwhile: apply the same edit to what is there now.
                    let fresh = try read(change.path)
                    if let fresh { try refuseConflictMarkers(fresh, path: change.path) }
                    let edit = edits.first { $0.path == change.path }!.edit
                    switch try edit(fresh) {
                    case .unchanged: current = .init(path: change.path, before: fresh, after: fresh)
                    case .write(let bytes): current = .init(path: change.path, before: fresh, after: bytes)
                    case .delete: current = .init(path: change.path, before: fresh, after: nil)
                    }
                    if current.before == current.after { break }
                    try journal.update(entry, change: current)
                }
                if current.before != current.after { applied.append(current) }
            }
        } catch {
            try rollBack(applied, of: entry, after: error, unknown: unknown)
        }
        try finishing(entry, written: stamps(applied, paths: entry.paths))
        var written: [String: [UInt8]?] = [:]
        for change in applied { written[change.path] = change.after }
        return written
    }

    /// Convenience for one file edited as a document.
    @discardableResult
    public func change(_ summary: String, path: String, _ edit: @escaping ([UInt8]?) throws -> FileOutcome) throws -> [UInt8]?? {
        try change(summary, [(path, edit)])?[path]
    }

    /// One replace of a journalled change. When it throws, the file is read again: one that holds
    /// the change already (the exchange was done, a later step failed) counts as applied, so that
    /// it is rolled back with the others; one that cannot be read is `unknown`, and the entry stays
    /// for the next run's recovery.
    func replacing(_ change: Journal.FileChange, base: String, applied: inout [Journal.FileChange],
                           unknown: inout String?) throws -> Bool {
        do {
            return try replace(change.path, expected: change.before, with: change.after, base: base)
        } catch {
            switch Result(catching: { try read(change.path) }) {
            case .success(let now): if now == change.after, now != change.before { applied.append(change) }
            case .failure: unknown = change.path
            }
            throw error
        }
    }

    /// Marks a change done; when that fails, every file is written already and the entry stays
    /// pending, which the next run finishes: the error says so.
    func finishing(_ entry: Journal.Entry, written: [Int: Journal.Stamp] = [:]) throws {
        do {
            try finish(entry, written: written)
        } catch {
            throw StorageError.incomplete(summary: entry.summary, path: entry.paths[0],
                                          reason: "every file is written, but marking the change done failed: \(Self.message(error))")
        }
    }

    /// Puts back the files a failed change already wrote, newest first, and drops its entry; then
    /// throws `error`, which is true again: nothing was written. When a file cannot be put back,
    /// or it is not known what a file holds, the entry stays pending for the next run and the
    /// error says so.
    func rollBack(_ applied: [Journal.FileChange], of entry: Journal.Entry, after error: any Error,
                          unknown: String? = nil) throws -> Never {
        if let unknown {
            throw StorageError.incomplete(summary: entry.summary, path: unknown,
                                          reason: "\(Self.message(error)), and \(unknown) cannot be read back")
        }
        for change in applied.reversed() {
            do {
                let k = entry.paths.firstIndex(of: change.path) ?? 0
                guard try replace(change.path, expected: change.after, with: change.before, base: "\(entry.name)/\(k).after") else {
                    throw StorageError.changedMeanwhile(path: change.path)
                }
            } catch let failure {
                throw StorageError.incomplete(summary: entry.summary, path: change.path,
                                              reason: "\(Self.message(error)), and putting \(change.path) back failed: \(Self.message(failure))")
            }
        }
        try? journal.remove(entry)
        entries.removeAll { $0.name == entry.name }
        throw error
    }

    /// The inode and time of each file a change wrote, as tick left them (also kept in `written`):
    /// only while the list is still tick's own file with the size and modification time it had
    /// before it went in. A list written since (an in-place writer that opened it by name right
    /// after the exchange) gets no stamp, so the next change waits for it as for anyone's.
    private func stamps(_ applied: [Journal.FileChange], paths: [String]) -> [Int: Journal.Stamp] {
        var result: [Int: Journal.Stamp] = [:]
        for change in applied where change.after != nil {
            guard let k = paths.firstIndex(of: change.path), let mine = ownFiles[change.path], let target = try? resolve(change.path),
                  let status = (try? fileSystem.status(target, followSymlinks: false)) ?? nil,
                  status.isSameFile(as: mine), status.size == mine.size, status.modified == mine.modified else { continue }
            result[k] = Journal.Stamp(status)
            written[change.path] = status
        }
        return result
    }

    /// Whether the file at `status` is the one tick's last change of `path` left, untouched since.
    func isOwnWrite(_ path: String, _ status: FileStatus) -> Bool {
        guard let entry = entries.last(where: { $0.state == .done && $0.paths.contains(path) }),
              let k = entry.paths.firstIndex(of: path), let stamp = entry.written[k] else { return false }
        return stamp == Journal.Stamp(status)
    }

    /// A journal step, whose file-system failure is a storage error like a list's.
    func journaling<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw StorageError.io(error)
        }
    }

    static func message(_ error: any Error) -> String {
        (error as? CustomStringConvertible)?.description ?? "\(error)"
    }

    func finish(_ entry: Journal.Entry, written: [Int: Journal.Stamp] = [:]) throws {
        let done = try journal.finish(entry, among: entries, written: written)
        entries.removeAll { $0.name == entry.name }
        entries.append(done)
        let finished = entries.filter { $0.state == .done }
        let dropped = Set(finished.dropLast(Journal.kept).map(\.name))
        entries.removeAll { dropped.contains($0.name) }
    }

    // MARK: - Recovery

    /// Finishes or rolls back the changes that a crash interrupted. A change that recovery
    /// finishes (several files, or an undo) goes forward when every file holds its old or new
    /// content, else back; a single-file change is kept when it was written, else dropped.
    /// Returns whether a file changed.
    private func recover() throws -> Bool {
        var changedFiles = false
        for entry in entries where entry.state == .pending {
            let changes: [Journal.FileChange]
            let current: [[UInt8]?]
            do {
                changes = try journal.changes(of: entry)
                current = try changes.map { try read($0.path) }
            } catch let rejection as Journal.Rejection {
                recoveryNotes.append(try journal.reject(rejection))
                entries.removeAll { $0.name == entry.name }
                continue
            } catch let error as StorageError {
                // A path that leads outside the folder, or through a dangling link: never acted on.
                recoveryNotes.append(try journal.reject(.init(entry: entry.name, reason: error.description)))
                entries.removeAll { $0.name == entry.name }
                continue
            }
            let written = zip(changes, current).map { $0.after == $1 }
            if !entry.finishesOnRecovery {
                if written.allSatisfy({ $0 }) { try finish(entry) } else { try dropEntry(entry) }
                continue
            }
            let whole = zip(changes, current).allSatisfy { $1 == $0.before || $1 == $0.after }
            do {
                if whole {
                    for (k, (change, now)) in zip(changes, current).enumerated() where now != change.after {
                        guard try replace(change.path, expected: now, with: change.after, base: "\(entry.name)/\(k).before") else {
                            throw StorageError.changedMeanwhile(path: change.path)
                        }
                        changedFiles = true
                        recoveryNotes.append("finished an interrupted change: \(entry.summary) (\(change.path))")
                    }
                    if entry.undoes != nil {
                        try journal.complete(undo: entry)
                        entries.removeAll { $0.name == entry.name || $0.name == entry.undoes }
                    } else {
                        try finish(entry)
                    }
                } else {
                    for (k, (change, now)) in zip(changes, current).enumerated().reversed() where now == change.after && now != change.before {
                        guard try replace(change.path, expected: now, with: change.before, base: "\(entry.name)/\(k).after") else {
                            throw StorageError.changedMeanwhile(path: change.path)
                        }
                        changedFiles = true
                        recoveryNotes.append("rolled back an interrupted change: \(entry.summary) (\(change.path)), "
                            + "as another file of it changed meanwhile")
                    }
                    try dropEntry(entry)
                }
            } catch {
                recoveryNotes.append("could not finish the interrupted change '\(entry.summary)': \(Self.message(error))")
            }
        }
        return changedFiles
    }

    func dropEntry(_ entry: Journal.Entry) throws {
        try journal.remove(entry)
        entries.removeAll { $0.name == entry.name }
    }

    /// Temporary files are `.NAME.tick-PID-N`: hidden, and never ending in `.md`.
    static func isTemporaryName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard name.hasPrefix("."), parts.count >= 3, parts[parts.count - 3].hasSuffix(".tick") else { return false }
        return parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
    }

    // MARK: - One file

    /// The real path to write for `path` (relative to the root): every link on the way resolved,
    /// the folder holding it inside the task folder, and a list that is a link written through to
    /// its target, which must lie inside the folder too (and not under `.tick/`).
    func resolve(_ path: String) throws -> String {
        do {
            return try resolving(path)
        } catch let error as FileSystemError {
            throw StorageError.io(error.named(path, "write"))
        }
    }

    private func resolving(_ path: String) throws -> String {
        guard Path.isNormalisedRelative(path) else { throw StorageError.outsideFolder(path: path, target: path) }
        let parent = Path.parent(of: path)
        let folder: String
        if parent.isEmpty {
            folder = realRoot
        } else {
            folder = try fileSystem.resolvedPath(root + "/" + parent)
            guard isInside(folder, allowRoot: true) else { throw StorageError.outsideFolder(path: path, target: folder) }
        }
        let candidate = folder + "/" + Path.name(of: path)
        guard let link = try fileSystem.status(candidate, followSymlinks: false), link.kind == .symlink else { return candidate }
        let target: String
        do {
            target = try fileSystem.resolvedPath(candidate)
        } catch FileSystemError.notFound {
            throw StorageError.danglingLink(path: path)
        }
        guard isInside(target, allowRoot: false) else { throw StorageError.outsideFolder(path: path, target: target) }
        return target
    }

    private func isInside(_ real: String, allowRoot: Bool) -> Bool {
        if real == realRoot { return allowRoot }
        guard let relative = Path.relative(real, to: realRoot) else { return false }
        return relative != FolderLocation.stateFolderName && !relative.hasPrefix(FolderLocation.stateFolderName + "/")
    }

    /// The list's bytes now, or nil when it does not exist.
    func read(_ path: String) throws -> [UInt8]? {
        let target = try resolve(path)
        do {
            return try fileSystem.readIfPresent(target)
        } catch let error as FileSystemError {
            throw StorageError.io(error.named(path))
        }
    }

    /// A list that may not be written (no write permission bit at all, or none for this user) is
    /// refused as writing it in place would be: tick's rename would otherwise replace it anyway.
    func refuseReadOnly(_ path: String) throws {
        let target = try resolve(path)
        guard let status = try fileSystem.status(target), status.kind == .file else { return }
        if status.mode & 0o222 == 0 || !fileSystem.isWritable(target) {
            throw StorageError.io(FileSystemError(path: path, operation: "write", code: Errno.permission))
        }
    }

    func refuseConflictMarkers(_ bytes: [UInt8], path: String) throws {
        if let line = Document.conflictMarkerLine(in: bytes) { throw StorageError.conflictMarkers(path: path, line: line) }
    }

    func nextTemporary(in folder: String, for name: String) -> String {
        temporaryCounter += 1
        return "\(folder)/.\(name).tick-\(CurrentProcess.id)-\(temporaryCounter)"
    }

    /// Keeps a file that holds someone's save under a visible name beside the list (never a `.md`
    /// name, so never taken for a list), and returns the error that reports it.
    func keep(_ temporary: String, asBackupOf path: String, in folder: String, name: String) -> StorageError {
        temporaryCounter += 1
        let backup = "\(folder)/\(name).tick-backup-\(CurrentProcess.id)-\(temporaryCounter)"
        do {
            try fileSystem.rename(temporary, to: backup)
        } catch {
            return .keptBackup(path: path, backup: temporary)
        }
        return .keptBackup(path: path, backup: Path.parent(of: path).isEmpty ? Path.name(of: backup)
                               : Path.parent(of: path) + "/" + Path.name(of: backup))
    }

    /// Whether one of the lists at `paths` (those read from their files; the others came whole
    /// from the cache) changed on disk since the scan: someone saved it while tick read it, so
    /// what tick read may be half a save. Then waits for the lists to be quiet and scans again,
    /// and the caller reads the lists again. One status call a list; no walk of the folder unless
    /// something changed.
    public func rescanIfChanged(_ paths: [String]) -> Bool {
        let read = Set(paths)
        let changed = scan.lists.contains { list in
            guard read.contains(list.path) else { return false }
            let now = (try? fileSystem.status(list.absolutePath, followSymlinks: true)) ?? nil
            guard let now, let then = list.status else { return now != nil || list.status != nil }
            // The status-change time also tells a list swapped out and back (a rename editor undoing its save).
            return !now.isSameFile(as: then) || now.size != then.size || now.modified != then.modified
                || now.changed != then.changed
        }
        guard changed else { return false }
        let folder = Folder(location: FolderLocation(path: root, source: .option, exists: true), fileSystem: fileSystem)
        scan = folder.scan()
        if awaitQuietLists() { scan = folder.scan() }
        return true
    }

    /// Before a change reads its lists, waits (bounded, as for one list) for every list that someone
    /// else wrote within the window W, so that its tasks are never found in half a save. Returns
    /// whether it waited; a list that never goes quiet is left to the write, which refuses it.
    private func awaitQuietLists() -> Bool {
        let now = fileSystem.now()
        var waited = false
        for list in scan.lists {
            guard let status = list.status, status.kind == .file, now - status.modified < Self.quietWindow else { continue }
            if let (_, didWait) = (try? waitUntilQuiet(list.absolutePath, path: list.path, from: status, followSymlinks: true)) ?? nil {
                waited = waited || didWait
            }
        }
        return waited
    }
}
