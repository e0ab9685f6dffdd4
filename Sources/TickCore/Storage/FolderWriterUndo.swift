import TickFormat

/// `undo`, and what the journal keeps of a file's history.
extension FolderWriter {
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
}
