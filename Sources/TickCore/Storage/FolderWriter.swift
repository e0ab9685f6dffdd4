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
    private var entries: [Journal.Entry]
    /// Messages about what recovery did on opening (a finished move, a leftover removed).
    public internal(set) var recoveryNotes: [String] = []
    /// The files tick set aside after its exchanges, kept until the next run (`SetAside.swift`).
    let aside: AsideStore
    /// The record numbers in use under `.tick/aside/`.
    var asideNumbers: Set<Int> = []
    /// For each list this run replaced, the status of tick's own file just before it went in: a
    /// list found with another size or time afterwards was written by someone else since.
    private var ownFiles: [String: FileStatus] = [:]
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
        scan = folder.scan()
        var notes: [String] = []
        entries = try journal.entries(notes: &notes)
        recoveryNotes = notes
        recoveryNotes += removeLeftovers(scan.leftovers)
        let recovered = try recover()
        if recoverSetAside() || recovered { scan = folder.scan() }
        try checkUndoable()
        if awaitQuietLists() { scan = folder.scan() }
    }

    /// The journal's entries, oldest first.
    var journalEntries: [Journal.Entry] { entries }

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
    private func replacing(_ change: Journal.FileChange, base: String, applied: inout [Journal.FileChange],
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
    private func finishing(_ entry: Journal.Entry, written: [Int: Journal.Stamp] = [:]) throws {
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
    private func rollBack(_ applied: [Journal.FileChange], of entry: Journal.Entry, after error: any Error,
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
    private func isOwnWrite(_ path: String, _ status: FileStatus) -> Bool {
        guard let entry = entries.last(where: { $0.state == .done && $0.paths.contains(path) }),
              let k = entry.paths.firstIndex(of: path), let stamp = entry.written[k] else { return false }
        return stamp == Journal.Stamp(status)
    }

    /// A journal step, whose file-system failure is a storage error like a list's.
    private func journaling<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw StorageError.io(error)
        }
    }

    private static func message(_ error: any Error) -> String {
        (error as? CustomStringConvertible)?.description ?? "\(error)"
    }

    private func finish(_ entry: Journal.Entry, written: [Int: Journal.Stamp] = [:]) throws {
        let done = try journal.finish(entry, among: entries, written: written)
        entries.removeAll { $0.name == entry.name }
        entries.append(done)
        let finished = entries.filter { $0.state == .done }
        let dropped = Set(finished.dropLast(Journal.kept).map(\.name))
        entries.removeAll { dropped.contains($0.name) }
    }

    // MARK: - Undo

    /// Reverts the last change tick made; returns its summary. See `undoLast(force:)`.
    public func undo(force: Bool) throws -> String {
        try undoLast(force: force).summary
    }

    /// Reverts the last change tick made.
    ///
    /// A file that changed since that change gets the change's inverse applied to what it holds
    /// now (a three-way line merge: the lines tick's change touched go back, the lines changed
    /// since stay); undo refuses, naming the lines, only when the lines tick's change touched are
    /// among those changed since. With `force`, each file gets back the content it had before the
    /// change, whatever changed since, and the result says what that threw away.
    ///
    /// The undo is a change like any other: journalled first, so that a crash half-way is finished
    /// by the next run, and each file replaced only if it still holds the bytes undo checked.
    public func undoLast(force: Bool) throws -> Undone {
        guard let entry = entries.last(where: { $0.state == .done }) else { throw StorageError.nothingToUndo }
        let changes: [Journal.FileChange]
        do {
            changes = try journal.changes(of: entry)
        } catch let rejection as Journal.Rejection {
            recoveryNotes.append(try journal.reject(rejection))
            entries.removeAll { $0.name == entry.name }
            return try undoLast(force: force)
        }
        var reverts: [Journal.FileChange] = []
        var undone = Undone(summary: entry.summary)
        for change in changes {
            let current = try read(change.path)
            var target = change.before
            if current != change.after {
                if force {
                    undone.discarded.append(Undone.discarding(change.after, current, path: change.path))
                } else {
                    target = try reverting(change, onto: current)
                    undone.merged.append(change.path)
                }
            }
            if current != nil { try refuseReadOnly(change.path) }
            // The exact bytes checked are the ones the replace expects.
            if current != target { reverts.append(.init(path: change.path, before: current, after: target)) }
        }
        guard !reverts.isEmpty else {
            try dropEntry(entry)
            return undone
        }
        let undoing = try journaling {
            try journal.begin(summary: "undo: " + entry.summary, changes: reverts, finishOnRecovery: true, undoes: entry.name, after: entries)
        }
        entries.append(undoing)
        var applied: [Journal.FileChange] = []
        var unknown: String?
        do {
            for (k, revert) in reverts.enumerated().reversed() {
                guard try replacing(revert, base: "\(undoing.name)/\(k).before", applied: &applied, unknown: &unknown) else {
                    throw StorageError.changedMeanwhile(path: revert.path)
                }
                applied.append(revert)
            }
        } catch {
            try rollBack(applied, of: undoing, after: error, unknown: unknown)
        }
        do {
            try journal.complete(undo: undoing)
        } catch {
            throw StorageError.incomplete(summary: undoing.summary, path: undoing.paths[0],
                                          reason: "every file is reverted, but closing the undo failed: \(Self.message(error))")
        }
        entries.removeAll { $0.name == undoing.name || $0.name == entry.name }
        return undone
    }

    /// `current` with `change` reverted and what changed since kept; throws when the two touch the
    /// same lines, or when a whole file came or went since (a created file that was edited, a
    /// deleted one that is back, a written one that is gone): there is no line to keep apart then.
    private func reverting(_ change: Journal.FileChange, onto current: [UInt8]?) throws -> [UInt8]? {
        guard let after = change.after, let before = change.before, let current else {
            throw StorageError.changedSinceLastChange(path: change.path)
        }
        try refuseConflictMarkers(current, path: change.path)
        switch UndoMerge.revert(after: after, before: before, onto: current) {
        case .success(let bytes):
            return bytes
        case .failure(let conflict):
            throw StorageError.changedLines(path: change.path,
                                            lines: UndoMerge.describe(conflict.spans, lastLine: UndoMerge.lineCount(current)))
        }
    }

    // MARK: - History

    /// For a file that the newest finished change wrote: what that change found in it (its `before`),
    /// and what tick's previous kept change of that file left in it (its `after`). Nil when the
    /// newest change did not touch the file, no earlier change of it is kept, or either side is
    /// missing (a created or deleted file). Between the two, the file was edited by hand.
    public func lastTwoVersions(of path: String) -> (previousAfter: [UInt8], before: [UInt8])? {
        let finished = entries.filter { $0.state == .done }
        guard let newest = finished.last, let k = newest.paths.firstIndex(of: path) else { return nil }
        for entry in finished.dropLast().reversed() {
            guard let j = entry.paths.firstIndex(of: path) else { continue }
            // Only the two sides wanted are read: each may be a huge list.
            guard let after = try? journal.content(of: entry, file: j, after: true),
                  let before = try? journal.content(of: newest, file: k, after: false) else { return nil }
            return (after, before)
        }
        return nil
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

    private func dropEntry(_ entry: Journal.Entry) throws {
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
    private func refuseReadOnly(_ path: String) throws {
        let target = try resolve(path)
        guard let status = try fileSystem.status(target), status.kind == .file else { return }
        if status.mode & 0o222 == 0 || !fileSystem.isWritable(target) {
            throw StorageError.io(FileSystemError(path: path, operation: "write", code: Errno.permission))
        }
    }

    private func refuseConflictMarkers(_ bytes: [UInt8], path: String) throws {
        if let line = Document.conflictMarkerLine(in: bytes) { throw StorageError.conflictMarkers(path: path, line: line) }
    }

    private func nextTemporary(in folder: String, for name: String) -> String {
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

    /// Replaces the file at `path` (relative) with `new` if it still holds `expected` (nil: absent;
    /// `new` nil: delete). Returns false, with the other writer's version in place, when the file
    /// changed meanwhile.
    /// `base` names the journal file (relative to `.tick/journal/`) that holds `expected`: the
    /// file set aside is kept with it under `.tick/aside/` until the next run (`setAside`).
    ///
    /// Once the list is in place (the exchange, the rename or the link done), no later step can
    /// fail the replace: what is left to tidy is tidied as far as it goes.
    func replace(_ path: String, expected: [UInt8]?, with new: [UInt8]?, base: String? = nil) throws -> Bool {
        let target = try resolve(path)
        let folder = Path.parent(of: target)
        let name = Path.name(of: target)
        let temporary = nextTemporary(in: folder, for: name)

        guard let new else {
            // Delete: move the file aside atomically, check what was moved, then drop it.
            guard let expected else { return true }
            guard let quiet = try awaitQuiet(target, path: path, expected: expected) else { return false }
            do {
                try fileSystem.rename(target, to: temporary)
            } catch FileSystemError.notFound {
                return false
            } catch let error as FileSystemError {
                throw StorageError.io(error.named(path, "remove"))
            }
            if !holdsWhatTickRead(temporary, expected, quiet) {
                // Someone saved it meanwhile: put theirs back, or keep it when a new file took the name.
                do {
                    try fileSystem.link(temporary, to: target)
                } catch {
                    throw keep(temporary, asBackupOf: path, in: folder, name: name)
                }
                try? fileSystem.removeFile(temporary)
                return false
            }
            setAside(temporary, path: path, status: quiet, base: base)
            try? fileSystem.syncDirectory(folder)
            return true
        }

        // A list being written in place is waited for before anything of tick's is in place.
        var quiet: FileStatus?
        if let expected {
            guard let status = try awaitQuiet(target, path: path, expected: expected) else { return false }
            quiet = status
        }
        let mode = quiet?.mode ?? (try? fileSystem.status(target))??.mode ?? 0o644
        let mine: FileStatus?
        do {
            try fileSystem.createFile(temporary, contents: new, mode: mode, sync: true)
            mine = try fileSystem.status(temporary, followSymlinks: false)
        } catch let error as FileSystemError {
            try? fileSystem.removeFile(temporary)
            // Named after the list, not the temporary file: a full disk or a folder without write
            // permission is "cannot write 'work/a.md'".
            throw StorageError.io(error.named(path, "write"))
        }

        guard expected != nil else {
            // Create: link fails when a file took the name meanwhile.
            defer { try? fileSystem.removeFile(temporary) }
            do {
                try fileSystem.link(temporary, to: target)
            } catch FileSystemError.alreadyExists {
                return false
            } catch let error as FileSystemError {
                throw StorageError.io(error.named(path, "create"))
            }
            ownFiles[path] = mine
            try? fileSystem.syncDirectory(folder)
            return true
        }

        do {
            try fileSystem.exchange(temporary, with: target)
        } catch let error as FileSystemError {
            guard [Errno.invalid, Errno.notSupported, Errno.crossDevice].contains(error.code) else {
                try? fileSystem.removeFile(temporary)
                if error.code == Errno.notFound { return false }
                throw StorageError.io(error.named(path, "write"))
            }
            guard try renameOver(target, temporary, path: path, expected: expected) else { return false }
            ownFiles[path] = mine
            return true
        }
        // The temporary name now holds what was in place: is it what tick read, untouched since the
        // quiet moment? If not, theirs goes back at once, before anyone opens tick's file by name.
        guard let quiet, holdsWhatTickRead(temporary, expected, quiet) else {
            return try swapBack(target, temporary, mine, expected, new, path: path, folder: folder, name: name)
        }
        ownFiles[path] = mine
        setAside(temporary, path: path, status: quiet, base: base)
        try? fileSystem.syncDirectory(folder)
        return true
    }

    /// Whether the file at `path` (the list tick just moved aside) holds `bytes` and is the very
    /// file seen quiet before, not written since. The content is read before the status, so that
    /// any write before the status is seen by its time or size.
    private func holdsWhatTickRead(_ path: String, _ bytes: [UInt8]?, _ quiet: FileStatus) -> Bool {
        guard (try? fileSystem.readFile(path, followSymlinks: false)) == bytes,
              let now = (try? fileSystem.status(path, followSymlinks: false)) ?? nil else { return false }
        return now.isSameFile(as: quiet) && now.size == quiet.size && now.modified == quiet.modified
    }

    /// The window W: a program writing a list in place, in pieces at most this far apart, is seen.
    static let quietWindow: Int64 = 50_000_000
    /// How long tick waits for a list to be quiet before it gives up, writing nothing.
    static let quietLimit: Int64 = 2_000_000_000

    /// Waits until the list at `target` is quiet: written last at least the window W ago, or seen
    /// unchanged for W (a time in the future, from another machine's clock, costs one window, never
    /// more). A program writing the list in place, in pieces at most W apart, has finished by then.
    /// The list tick wrote itself last is not waited for. Returns the list's status at the quiet
    /// moment, or nil when its content is no longer `expected` (the caller reads it again). A list
    /// that never goes quiet within the limit stops the change: nothing is written.
    private func awaitQuiet(_ target: String, path: String, expected: [UInt8]) throws -> FileStatus? {
        guard let status = (try? fileSystem.status(target, followSymlinks: false)) ?? nil else { return nil }
        guard let (quiet, waited) = try waitUntilQuiet(target, path: path, from: status, followSymlinks: false) else { return nil }
        // After a wait, what tick read may have been half a save.
        if waited, (try? fileSystem.readFile(target, followSymlinks: false)) != expected { return nil }
        return quiet
    }

    /// The wait of `awaitQuiet`, from the status first seen: the status at the quiet moment and
    /// whether tick waited, or nil when the file is gone.
    func waitUntilQuiet(_ target: String, path: String, from first: FileStatus,
                                followSymlinks: Bool) throws -> (FileStatus, waited: Bool)? {
        if isOwnWrite(path, first) { return (first, false) }
        var status = first
        var seen = fileSystem.now()
        var waited: Int64 = 0
        while true {
            let now = fileSystem.now()
            let quietFor = max(now - status.modified, now - seen)
            if quietFor >= Self.quietWindow { return (status, waited > 0) }
            guard waited < Self.quietLimit else { throw StorageError.changedMeanwhile(path: path) }
            fileSystem.pause(nanoseconds: Self.quietWindow - quietFor)
            waited += Self.quietWindow - quietFor
            guard let again = (try? fileSystem.status(target, followSymlinks: followSymlinks)) ?? nil else { return nil }
            if !again.isSameFile(as: status) || again.size != status.size || again.modified != status.modified {
                status = again
                seen = fileSystem.now()
            }
        }
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

    /// Someone saved the file in between: puts their version back under the list's name and
    /// returns false, so that tick re-applies its edit to it.
    private func swapBack(_ target: String, _ temporary: String, _ mine: FileStatus?, _ expected: [UInt8]?, _ new: [UInt8],
                          path: String, folder: String, name: String) throws -> Bool {
        // Swap theirs back only while the list is still tick's own file, untouched; otherwise a
        // second save is in place: keep both.
        guard let mine, stillMine(target, mine, new) else {
            return try settle(target, temporary, expected, new, path: path, folder: folder, name: name)
        }
        try fileSystem.exchange(temporary, with: target)
        guard stillMine(temporary, mine, new) else {
            // A save landed between the check and the swap: it is now under the temporary name.
            try fileSystem.exchange(temporary, with: target)
            return try settle(target, temporary, expected, new, path: path, folder: folder, name: name)
        }
        // The temporary name holds tick's own file now, which nobody else wrote.
        try? fileSystem.removeFile(temporary)
        return false
    }

    /// Two saves landed while tick wrote: one into the file tick set aside (at `temporary`), one
    /// into the list while it was tick's own file. A program that noticed its file was replaced
    /// saved again on top of tick's (an editor reloading, an appender appending again), so the list
    /// often holds every line of both: then nothing is lost, the set-aside file goes and tick's
    /// change stands. Otherwise, once the set-aside file is quiet, tick merges the changes both
    /// made to what tick read, and its own, line by line (`LineMerge`), and writes that as any
    /// change. Only when they changed the same lines is the set-aside version kept as a backup
    /// beside the list, and reported.
    private func settle(_ target: String, _ temporary: String, _ expected: [UInt8]?, _ new: [UInt8],
                        path: String, folder: String, name: String) throws -> Bool {
        if let status = (try? fileSystem.status(temporary, followSymlinks: false)) ?? nil,
           let expected, (try? waitUntilQuiet(temporary, path: "", from: status, followSymlinks: false)) != nil {
            for _ in 0..<4 {
                guard let list = try? fileSystem.readFile(target, followSymlinks: false),
                      let aside = try? fileSystem.readFile(temporary, followSymlinks: false) else { break }
                if Self.holdsEveryLine(of: aside, in: list), Self.holdsEveryLine(of: new, in: list) {
                    try? fileSystem.removeFile(temporary)
                    try? fileSystem.syncDirectory(folder)
                    return true
                }
                guard let theirs = LineMerge.merge(base: expected, ours: list, theirs: aside),
                      let merged = LineMerge.merge(base: expected, ours: theirs, theirs: new) else { break }
                // A failure here keeps the set-aside file as a backup, never as a temporary file
                // that the next run would sweep away.
                guard let written = try? replace(path, expected: list, with: merged) else { break }
                if written {
                    try? fileSystem.removeFile(temporary)
                    return true
                }
            }
        }
        throw keep(temporary, asBackupOf: path, in: folder, name: name)
    }

    /// Whether every line of `part` is in `whole`, as often as in `part` (in any order), lines
    /// compared with their line breaks (`LineNumbering`).
    static func holdsEveryLine(of part: [UInt8], in whole: [UInt8]) -> Bool {
        var numbering = LineNumbering()
        var counts: [Int: Int] = [:]
        for line in numbering.ids(whole) { counts[line, default: 0] += 1 }
        for line in numbering.ids(part) {
            guard let count = counts[line], count > 0 else { return false }
            counts[line] = count - 1
        }
        return true
    }

    /// Whether `path` is still the file tick wrote (same inode) holding tick's bytes.
    private func stillMine(_ path: String, _ mine: FileStatus, _ bytes: [UInt8]) -> Bool {
        guard let now = (try? fileSystem.status(path, followSymlinks: false)) ?? nil, now.isSameFile(as: mine) else { return false }
        return (try? fileSystem.readFile(path, followSymlinks: false)) == bytes
    }

    /// No exchange on this file system: check once more, then rename. A change saved between this
    /// check and the rename is lost; the window is a few microseconds.
    private func renameOver(_ target: String, _ temporary: String, path: String, expected: [UInt8]?) throws -> Bool {
        let current = try? fileSystem.readFile(target)
        guard current == expected else {
            try? fileSystem.removeFile(temporary)
            return false
        }
        do {
            try fileSystem.rename(temporary, to: target)
        } catch let error as FileSystemError {
            try? fileSystem.removeFile(temporary)
            throw StorageError.io(error.named(path, "write"))
        }
        try? fileSystem.syncDirectory(Path.parent(of: target))
        return true
    }
}
