import TickFormat

// MARK: - One file

/// The replace of one list: wait for it to be quiet, write tick's file beside it, exchange the
/// two, check what came out, and put someone's save back (or merge two saves) when one landed.
extension FolderWriter {
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
        // The save on top of tick's file only appended to it: tick's change stands, in place. The
        // other save is kept beside the list and named, and the change is made (never "nothing
        // written", which would have a script make it twice).
        if let list = try? fileSystem.readFile(target, followSymlinks: false), list.count > new.count, list.starts(with: new) {
            let error = keep(temporary, asBackupOf: path, in: folder, name: name)
            guard case .keptBackup(_, let backup) = error, !Path.name(of: backup).hasPrefix(".") else { throw error }
            let note = "\(path) was saved twice by another program while tick wrote it; tick's change is in place with "
                + "the newest save, and the other save, which changed the lines tick changed, is kept as \(backup)"
            if let onWriteNote { onWriteNote(note) } else { recoveryNotes.append(note) }
            return true
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
