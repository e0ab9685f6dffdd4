#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Why a write did not happen.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    case io(IOFailure)
    /// The file kept changing under tick (an editor saving it) and the edit could not be re-applied.
    case changedMeanwhile(path: String)
    /// The file holds git conflict markers: tick does not write it until they are resolved.
    case conflictMarkers(path: String, line: Int)
    /// A list that is a symbolic link to a file outside the folder.
    case outsideFolder(path: String, target: String)
    /// A file to create exists already.
    case exists(path: String)
    /// `undo` found nothing to revert.
    case nothingToUndo
    /// `undo` found a file changed since tick's last change to it.
    case changedSinceLastChange(path: String)

    public var description: String {
        switch self {
        case .io(let failure): return failure.description
        case .changedMeanwhile(let path): return "\(path) kept changing while tick tried to write it; nothing written"
        case .conflictMarkers(let path, let line):
            return "\(path):\(line): the file holds git conflict markers; resolve them before tick writes it"
        case .outsideFolder(let path, let target):
            return "\(path) is a link to \(target), outside the task folder; tick does not write there"
        case .exists(let path): return "\(path) exists already"
        case .nothingToUndo: return "nothing to undo"
        case .changedSinceLastChange(let path):
            return "\(path) changed since tick's last change; use --force to undo anyway"
        }
    }
}

/// What an edit does to a file, given its current bytes.
public enum FileOutcome: Sendable, Equatable {
    case unchanged
    case write([UInt8])
    case delete
}

/// Points where a test can run a command (environment `TICK_TEST_HOOK_<POINT>`), to change a file
/// or kill tick at exactly that moment.
public enum WriteHook: String, Sendable, CaseIterable {
    /// The new content is in its temporary file; the exchange comes next.
    case beforeReplace = "BEFORE_REPLACE"
    /// The exchange happened; the old content is still in the temporary file.
    case afterReplace = "AFTER_REPLACE"
    /// In a change of several files, after one file and before the next.
    case betweenFiles = "BETWEEN_FILES"
}

/// The write side of a task folder: one lock for all tick processes on it, atomic replaces that
/// never clobber a change made meanwhile, and a journal that lets `undo` revert the last change
/// and lets the next run finish a change of several files that a crash interrupted.
public final class FolderWriter {
    public let root: String
    let stateDirectory: String
    private let lockDescriptor: Int32
    private let hooks: [WriteHook: String]
    private var temporaryCounter = 0
    let journal: Journal
    /// Messages about what recovery did on opening (a finished move, a leftover removed).
    public private(set) var recoveryNotes: [String] = []

    /// Opens `root` for writing: creates `.tick/` when missing, takes the folder lock (waiting for
    /// other tick processes), finishes interrupted changes and removes leftover temporary files.
    public init(root: String, environment: [String: String]) throws(StorageError) {
        self.root = root
        stateDirectory = root + "/.tick"
        do {
            try Posix.mkdir(stateDirectory)
            let ignore = stateDirectory + "/.gitignore"
            if Posix.stat(ignore) == nil {
                do {
                    let fd = try Posix.open(ignore, O_WRONLY | O_CREAT | O_EXCL)
                    try Posix.writeAll(fd, Array("*\n".utf8), ignore)
                    close(fd)
                } catch where error.code == EEXIST {
                    // Another tick process starting at the same moment created it first (this runs
                    // before the lock, which lives in the folder being created).
                }
            }
            lockDescriptor = try Posix.open(stateDirectory + "/lock", O_RDWR | O_CREAT)
        } catch {
            throw .io(error)
        }
        while flock(lockDescriptor, LOCK_EX) != 0 {
            if Posix.errno != EINTR { throw .io(IOFailure(path: stateDirectory + "/lock", operation: "lock", code: Posix.errno)) }
        }
        var hooks: [WriteHook: String] = [:]
        for hook in WriteHook.allCases {
            if let command = environment["TICK_TEST_HOOK_" + hook.rawValue], !command.isEmpty { hooks[hook] = command }
        }
        self.hooks = hooks
        journal = Journal(directory: stateDirectory + "/journal")
        recoveryNotes += removeLeftovers()
        recoveryNotes += try finishInterruptedChanges()
    }

    deinit {
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    // MARK: - Changes

    /// Applies `edits` in order (for a move: the destination first, then the source), each to the
    /// current content of its file, and records the change in the journal. When a file changes
    /// on disk between tick's read and its write, tick re-reads it and applies the edit again.
    /// Returns the bytes written per path (nil for a deleted file), or nil when nothing changed.
    @discardableResult
    public func change(_ summary: String,
                       _ edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)]) throws -> [String: [UInt8]?]? {
        // First pass: compute every file's new content from what is there now.
        var planned: [Journal.FileChange] = []
        for (path, edit) in edits {
            let target = try resolve(path)
            let before = try readIfPresent(target)
            if let before { try refuseConflictMarkers(before, path: path) }
            switch try edit(before) {
            case .unchanged: continue
            case .write(let bytes): if bytes != before { planned.append(.init(path: path, before: before, after: bytes)) }
            case .delete: if before != nil { planned.append(.init(path: path, before: before, after: nil)) }
            }
        }
        guard !planned.isEmpty else { return nil }
        for change in planned where change.before != nil { try refuseReadOnly(try resolve(change.path), path: change.path) }
        let entry = try journal.begin(summary: summary, changes: planned, finishOnRecovery: planned.count > 1)
        var written: [String: [UInt8]?] = [:]
        for (k, change) in planned.enumerated() {
            if k > 0 { runHook(.betweenFiles, path: change.path) }
            var current = change
            var attempts = 0
            while try !replace(current.path, expected: current.before, with: current.after) {
                attempts += 1
                guard attempts < 8 else { throw StorageError.changedMeanwhile(path: change.path) }
                // Someone saved the file meanwhile: apply the same edit to what is there now.
                let fresh = try readIfPresent(try resolve(change.path))
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
            written[current.path] = current.after
        }
        try journal.finish(entry)
        return written
    }

    /// Convenience for one file edited as a document.
    @discardableResult
    public func change(_ summary: String, path: String, _ edit: @escaping ([UInt8]?) throws -> FileOutcome) throws -> [UInt8]?? {
        try change(summary, [(path, edit)])?[path]
    }

    // MARK: - Undo

    /// Reverts the last change tick made. Refuses when a file changed since, unless `force`.
    /// Returns the summary of the change undone.
    public func undo(force: Bool) throws -> String {
        guard let entry = journal.lastFinished() else { throw StorageError.nothingToUndo }
        let changes = try journal.changes(of: entry)
        for change in changes {
            let current = try readIfPresent(try resolve(change.path))
            if current != change.after, !force { throw StorageError.changedSinceLastChange(path: change.path) }
            if current != nil { try refuseReadOnly(try resolve(change.path), path: change.path) }
        }
        for change in changes.reversed() {
            let current = try readIfPresent(try resolve(change.path))
            guard try replace(change.path, expected: current, with: change.before) else {
                throw StorageError.changedMeanwhile(path: change.path)
            }
        }
        let summary = journal.summary(of: entry)
        journal.remove(entry)
        return summary
    }

    // MARK: - Recovery

    /// Finishes the multi-file changes that a crash interrupted (a move whose destination was
    /// written but not its source), and drops interrupted single-file entries.
    private func finishInterruptedChanges() throws(StorageError) -> [String] {
        var notes: [String] = []
        for entry in journal.pending() {
            let changes: [Journal.FileChange]
            do { changes = try journal.changes(of: entry) } catch { journal.remove(entry); continue }
            if journal.finishesOnRecovery(entry) {
                for change in changes {
                    do {
                        let current = try readIfPresent(try resolve(change.path))
                        if current == change.before, current != change.after {
                            _ = try replace(change.path, expected: current, with: change.after)
                            notes.append("finished an interrupted change: \(journal.summary(of: entry)) (\(change.path))")
                        }
                    } catch {
                        notes.append("could not finish an interrupted change of \(change.path): \(error)")
                    }
                }
                do { try journal.finish(entry) } catch { throw .io(IOFailure(path: entry, operation: "finish journal entry", code: EIO)) }
            } else {
                let done = changes.allSatisfy { (try? readIfPresent(try resolve($0.path))) == $0.after }
                if done { try? journal.finish(entry) } else { journal.remove(entry) }
            }
        }
        return notes
    }

    /// Removes temporary files that an interrupted tick left beside the lists.
    private func removeLeftovers() -> [String] {
        var notes: [String] = []
        var folders = [root]
        while let folder = folders.popLast() {
            for name in Posix.entries(folder) {
                let path = folder + "/" + name
                if name.hasPrefix(".") {
                    if FolderWriter.isTemporaryName(name) {
                        Posix.unlink(path)
                        notes.append("removed a leftover temporary file \(path)")
                    }
                    continue
                }
                if let s = Posix.lstat(path), (s.st_mode & S_IFMT) == S_IFDIR { folders.append(path) }
            }
        }
        return notes
    }

    /// Temporary files are `.NAME.tick-PID-N`: hidden, and never ending in `.md`.
    static func isTemporaryName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard name.hasPrefix("."), parts.count >= 3, parts[parts.count - 3].hasSuffix(".tick") else { return false }
        return parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
    }

    // MARK: - One file

    /// The real path to write for `path` (relative to the root): a symbolic link is written
    /// through to its target, which must lie inside the folder.
    func resolve(_ path: String) throws(StorageError) -> String {
        let full = root + "/" + path
        guard let link = Posix.lstat(full), (link.st_mode & S_IFMT) == S_IFLNK else { return full }
        guard let target = Posix.realpath(full) else { return full }
        let base = Posix.realpath(root) ?? root
        guard target.hasPrefix(base + "/") else { throw .outsideFolder(path: path, target: target) }
        return target
    }

    private func readIfPresent(_ path: String) throws(StorageError) -> [UInt8]? {
        do {
            return try Posix.readFile(path).bytes
        } catch {
            if error.code == ENOENT { return nil }
            throw .io(error)
        }
    }

    /// A list that may not be written (no write permission bit at all, or none for this user) is
    /// refused as writing it in place would be: tick's rename would otherwise replace it anyway.
    private func refuseReadOnly(_ target: String, path: String) throws(StorageError) {
        guard let s = Posix.stat(target), (s.st_mode & S_IFMT) == S_IFREG else { return }
        if s.st_mode & 0o222 == 0 || (access(target, W_OK) != 0 && Posix.errno == EACCES) {
            throw .io(IOFailure(path: path, operation: "write", code: EACCES))
        }
    }

    private func refuseConflictMarkers(_ bytes: [UInt8], path: String) throws(StorageError) {
        if let line = Document.conflictMarkerLine(in: bytes) { throw .conflictMarkers(path: path, line: line) }
    }

    /// Replaces the file at `path` (relative) with `new` if it still holds `expected` (nil: absent;
    /// `new` nil: delete). Returns false, with the other writer's version in place, when the file
    /// changed meanwhile.
    func replace(_ path: String, expected: [UInt8]?, with new: [UInt8]?) throws -> Bool {
        let target = try resolve(path)
        let (folder, name) = splitPath(target)
        temporaryCounter += 1
        let temporary = "\(folder)/.\(name).tick-\(getpid())-\(temporaryCounter)"

        guard let new else {
            // Delete: move the file aside atomically, check what was moved, then drop it.
            guard expected != nil else { return true }
            do { try Posix.rename(target, temporary) } catch {
                if error.code == ENOENT { return false }
                throw StorageError.io(error)
            }
            let moved = try? Posix.readFile(temporary).bytes
            if moved != expected {
                _ = link(temporary, target) // put theirs back unless a new file took the name
                Posix.unlink(temporary)
                return false
            }
            Posix.unlink(temporary)
            Posix.fsyncDirectory(folder)
            return true
        }

        let mode = Posix.stat(target).map { $0.st_mode & 0o7777 } ?? 0o644
        do {
            let fd = try Posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
            defer { close(fd) }
            try Posix.writeAll(fd, new, temporary)
            fchmod(fd, mode)
            try Posix.fsync(fd, temporary)
        } catch {
            Posix.unlink(temporary)
            // Named after the list, not the temporary file: a full disk or a folder without write
            // permission is "cannot write work/a.md".
            throw StorageError.io(IOFailure(path: path, operation: "write", code: error.code))
        }
        runHook(.beforeReplace, path: target)

        guard expected != nil else {
            // Create: link fails when a file took the name meanwhile.
            defer { Posix.unlink(temporary) }
            guard link(temporary, target) == 0 else {
                if Posix.errno == EEXIST { return false }
                throw StorageError.io(IOFailure(path: target, operation: "create", code: Posix.errno))
            }
            Posix.fsyncDirectory(folder)
            return true
        }

        if tick_rename_exchange(temporary, target) == 0 {
            runHook(.afterReplace, path: target)
            // The temporary name now holds what was in place: is it what tick read?
            let swapped = try? Posix.readFile(temporary).bytes
            if swapped == expected {
                Posix.unlink(temporary)
                Posix.fsyncDirectory(folder)
                return true
            }
            // Someone saved the file in between: swap their version back.
            if tick_rename_exchange(temporary, target) != 0 { try? Posix.rename(temporary, target) }
            Posix.unlink(temporary)
            return false
        }
        let code = Posix.errno
        guard code == EINVAL || code == ENOSYS || code == EXDEV else {
            Posix.unlink(temporary)
            if code == ENOENT { return false }
            throw StorageError.io(IOFailure(path: target, operation: "replace", code: code))
        }
        // No exchange on this file system: check once more, then rename. A change saved between
        // this check and the rename is lost; the window is a few microseconds.
        let current = try? Posix.readFile(target).bytes
        guard current == expected else {
            Posix.unlink(temporary)
            return false
        }
        do { try Posix.rename(temporary, target) } catch {
            Posix.unlink(temporary)
            throw StorageError.io(error)
        }
        Posix.fsyncDirectory(folder)
        return true
    }

    private func runHook(_ hook: WriteHook, path: String) {
        guard let command = hooks[hook] else { return }
        Posix.runShell(command, environment: ["TICK_HOOK_FILE": path])
    }
}
