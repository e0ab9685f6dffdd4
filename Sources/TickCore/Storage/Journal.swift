/// tick's record of its own changes, under `.tick/journal/`: one folder per change holding the
/// files' contents before and after. `undo` reverts the newest finished entry; an entry still
/// pending after a crash is finished or rolled back by the next run.
///
/// An entry is a folder `NNNNNNNN` with a `meta` file (`state pending|done`, `recover finish|drop`,
/// `summary TEXT`, optionally `undoes NNNNNNNN`, one `file K PATH` line per file) and `K.before` /
/// `K.after` beside it; a missing one means the file did not exist. An entry is built in a
/// staging folder `.NNNNNNNN`, created fresh, and appears under its name by one rename only when
/// complete; a staging folder found later is an interrupted begin and is removed.
///
/// Everything under `.tick/` is untrusted: an entry whose folder or files are symbolic links,
/// whose meta does not parse, or whose paths are not plain relative list paths inside the folder
/// is moved to `.tick/journal/rejected/` and never acted on.
struct Journal {
    struct FileChange: Equatable {
        var path: String
        var before: [UInt8]?
        var after: [UInt8]?
    }

    /// An entry's metadata, read once.
    struct Entry: Equatable {
        enum State: String { case pending, done }
        var name: String
        var state: State
        /// Whether recovery finishes the change (several files, or an undo) rather than dropping it.
        var finishesOnRecovery: Bool
        var summary: String
        var paths: [String]
        /// The entry an undo reverts, removed when the undo is complete.
        var undoes: String?
        /// For each file written, the inode and modification time tick left it with (known once done).
        var written: [Int: Stamp] = [:]
    }

    /// A file as tick left it: when a list still has this inode, times and size, no one wrote it
    /// since. (An in-place save within the clock's tick keeps the modification time; it changes the
    /// size or the status-change time.) Entries written before sizes were recorded have none, and
    /// never match: the list is then waited for, as anyone else's.
    struct Stamp: Equatable {
        var inode: UInt64
        var modified: Int64
        var size: Int = -1
        var changed: Int64 = 0

        init(inode: UInt64, modified: Int64, size: Int = -1, changed: Int64 = 0) {
            self.inode = inode
            self.modified = modified
            self.size = size
            self.changed = changed
        }

        init(_ status: FileStatus) {
            self.init(inode: status.inode, modified: status.modified, size: status.size, changed: status.changed)
        }
    }

    /// Why an entry was refused.
    struct Rejection: Error, Equatable {
        var entry: String
        var reason: String
    }

    let directory: String
    let fileSystem: any FileSystem
    /// Finished entries kept for undo.
    static let kept = 20

    func path(_ entry: Entry) -> String { directory + "/" + entry.name }

    // MARK: Reading

    /// Every entry, oldest first, each read and checked once. Staging folders left by an
    /// interrupted begin are removed; entries that fail a check are moved aside, with a note each.
    func entries(notes: inout [String]) throws -> [Entry] {
        guard try prepareDirectory(create: false) else { return [] }
        var entries: [Entry] = []
        for name in try fileSystem.contents(ofDirectory: directory).sorted() {
            if name.hasPrefix("."), Journal.number(String(name.dropFirst())) != nil {
                try fileSystem.removeTree(directory + "/" + name)
                continue
            }
            guard Journal.number(name) != nil else { continue }
            do {
                entries.append(try read(name))
            } catch let rejection as Rejection {
                notes.append(try reject(rejection))
            }
        }
        return entries
    }

    /// The entry's files' contents before and after, read without following a link.
    func changes(of entry: Entry) throws -> [FileChange] {
        try entry.paths.enumerated().map { k, path in
            FileChange(path: path,
                       before: try content(entry, "\(k).before"),
                       after: try content(entry, "\(k).after"))
        }
    }

    /// One side of the change of the entry's `k`th file, read alone: a huge list's other side is
    /// not read for nothing.
    func content(of entry: Entry, file k: Int, after: Bool) throws -> [UInt8]? {
        precondition(entry.paths.indices.contains(k), "no such file in the entry")
        return try content(entry, "\(k).\(after ? "after" : "before")")
    }

    private func content(_ entry: Entry, _ file: String) throws -> [UInt8]? {
        do {
            return try fileSystem.readIfPresent(path(entry) + "/" + file, followSymlinks: false)
        } catch let error as FileSystemError where Journal.isMalformed(error) {
            throw Rejection(entry: entry.name, reason: "\(file) cannot be read (\(error.reason))")
        }
    }

    /// Whether a failure to read an entry's file says the entry is not tick's (a link, a folder,
    /// a FIFO where a file belongs): such an entry is rejected. Any other failure (EIO, a full
    /// table of open files) is the file system's, for now: it fails the command, and the entry
    /// stays for a later run.
    static func isMalformed(_ error: FileSystemError) -> Bool {
        [.symlinkLoop, .isADirectory, .notADirectory].contains(error.kind) || error.code == Errno.invalid
    }

    private func read(_ name: String) throws -> Entry {
        let folder = directory + "/" + name
        let bytes: [UInt8]
        do {
            // One walk to the meta file; only a failure asks what the entry is.
            bytes = try fileSystem.readFile(folder + "/meta", followSymlinks: false)
        } catch let error as FileSystemError {
            guard try fileSystem.status(folder, followSymlinks: false)?.kind == .directory else {
                throw Rejection(entry: name, reason: "it is not a folder")
            }
            guard error.kind == .notFound || Journal.isMalformed(error) else { throw error }
            throw Rejection(entry: name, reason: "its meta file cannot be read (\(error.reason))")
        }
        var fields: [String: String] = [:]
        var paths: [String] = []
        var written: [Int: Stamp] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { throw Rejection(entry: name, reason: "a meta line makes no sense") }
            let key = String(line[..<space])
            let value = String(line[line.index(after: space)...])
            if key == "written" {
                let parts = value.split(separator: " ")
                guard parts.count == 3 || parts.count == 5, let k = Int(parts[0]), let inode = UInt64(parts[1]),
                      let modified = Int64(parts[2]) else {
                    throw Rejection(entry: name, reason: "a written line makes no sense")
                }
                var stamp = Stamp(inode: inode, modified: modified)
                if parts.count == 5 {
                    guard let size = Int(parts[3]), size >= 0, let changed = Int64(parts[4]) else {
                        throw Rejection(entry: name, reason: "a written line makes no sense")
                    }
                    stamp.size = size
                    stamp.changed = changed
                }
                written[k] = stamp
            } else if key == "file" {
                guard let gap = value.firstIndex(of: " "), Int(value[..<gap]) == paths.count else {
                    throw Rejection(entry: name, reason: "its file lines are out of order")
                }
                let path = String(value[value.index(after: gap)...])
                guard Journal.isListPath(path) else {
                    throw Rejection(entry: name, reason: "the path '\(path)' is not a list inside the task folder")
                }
                paths.append(path)
            } else {
                guard fields[key] == nil else { throw Rejection(entry: name, reason: "it names \(key) twice") }
                fields[key] = value
            }
        }
        guard let state = fields["state"].flatMap(Entry.State.init(rawValue:)),
              let recover = fields["recover"], recover == "finish" || recover == "drop",
              let summary = fields["summary"], !paths.isEmpty else {
            throw Rejection(entry: name, reason: "its meta file is incomplete")
        }
        for k in paths.indices {
            for file in ["\(k).before", "\(k).after"] {
                if let status = try fileSystem.status(folder + "/" + file, followSymlinks: false), status.kind != .file {
                    throw Rejection(entry: name, reason: "\(file) cannot be read (it is not a regular file)")
                }
            }
        }
        let undoes = fields["undoes"]
        if let undoes, Journal.number(undoes) == nil { throw Rejection(entry: name, reason: "it undoes '\(undoes)'") }
        return Entry(name: name, state: state, finishesOnRecovery: recover == "finish", summary: summary,
                     paths: paths, undoes: undoes, written: written.filter { paths.indices.contains($0.key) })
    }

    /// A path a journal entry may name: relative, normalised, no hidden component (so nothing
    /// under `.tick/`), ending in `.md`. Whether a link on the way leaves the folder is checked
    /// when the path is resolved for writing.
    static func isListPath(_ path: String) -> Bool {
        Path.isNormalisedRelative(path) && path.hasSuffix(".md")
            && !path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// `NNNNNNNN` as a number.
    static func number(_ name: String) -> Int? {
        guard name.utf8.count == 8, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(name)
    }

    /// Moves an entry to `rejected/`, never acting on it; returns the note that says so.
    func reject(_ rejection: Rejection) throws -> String {
        let rejected = directory + "/rejected"
        if let status = try fileSystem.status(rejected, followSymlinks: false), status.kind != .directory {
            try fileSystem.removeFile(rejected)
        }
        if try fileSystem.status(rejected, followSymlinks: false) == nil {
            try fileSystem.createDirectory(rejected, intermediates: false, mode: 0o700)
        }
        var destination = rejected + "/" + rejection.entry
        var n = 1
        while try fileSystem.status(destination, followSymlinks: false) != nil {
            n += 1
            destination = rejected + "/\(rejection.entry)-\(n)"
        }
        try fileSystem.rename(directory + "/" + rejection.entry, to: destination)
        return "ignored the journal entry \(rejection.entry): \(rejection.reason); moved to .tick/journal/rejected/"
            + Path.name(of: destination)
    }

    // MARK: Writing

    /// Records a change about to be made, as a pending entry. The entry is built in a fresh staging
    /// folder and appears under its name, complete, by one rename.
    func begin(summary: String, changes: [FileChange], finishOnRecovery: Bool, undoes: String? = nil,
               after existing: [Entry]) throws -> Entry {
        _ = try prepareDirectory(create: true)
        var highest = existing.compactMap { Journal.number($0.name) }.max() ?? 0
        for name in try fileSystem.contents(ofDirectory: directory) {
            if let n = Journal.number(name.hasPrefix(".") ? String(name.dropFirst()) : name) { highest = max(highest, n) }
        }
        let number = String(highest + 1)
        let name = String(repeating: "0", count: max(0, 8 - number.count)) + number
        let staging = directory + "/." + name
        try fileSystem.removeTree(staging)
        try fileSystem.createDirectory(staging, intermediates: false, mode: 0o700)
        for (k, change) in changes.enumerated() {
            if let before = change.before { try write(staging + "/\(k).before", before, sync: finishOnRecovery) }
            if let after = change.after { try write(staging + "/\(k).after", after, sync: finishOnRecovery) }
        }
        // A summary of many titles is long: split only one that holds a line break.
        let oneLine = summary.utf8.contains(UInt8(ascii: "\n")) ? summary.split(separator: "\n").joined(separator: " ") : summary
        let entry = Entry(name: name, state: .pending, finishesOnRecovery: finishOnRecovery,
                          summary: oneLine,
                          paths: changes.map(\.path), undoes: undoes)
        try write(staging + "/meta", meta(entry), sync: finishOnRecovery)
        try fileSystem.rename(staging, to: path(entry))
        if finishOnRecovery { try fileSystem.syncDirectory(directory) }
        return entry
    }

    /// Records a file's change again, after tick re-applied its edit to a newer version.
    func update(_ entry: Entry, change: FileChange) throws {
        guard let k = entry.paths.firstIndex(of: change.path) else { return }
        for (suffix, bytes) in [("before", change.before), ("after", change.after)] {
            let file = path(entry) + "/\(k).\(suffix)"
            if let bytes {
                try replaceFile(file, bytes, sync: entry.finishesOnRecovery)
            } else if try fileSystem.status(file, followSymlinks: false) != nil {
                try fileSystem.removeFile(file)
            }
        }
    }

    /// Marks an entry done (undoable), then drops the oldest beyond `kept`.
    @discardableResult
    func finish(_ entry: Entry, among existing: [Entry], written: [Int: Stamp] = [:]) throws -> Entry {
        var done = entry
        done.state = .done
        done.written = written
        try replaceFile(path(entry) + "/meta", meta(done), sync: entry.finishesOnRecovery)
        let finished = existing.filter { $0.state == .done && $0.name != entry.name } + [done]
        // The change is done: an old entry that cannot be removed now goes on a later run.
        for old in finished.dropLast(Journal.kept) { try? remove(old) }
        return done
    }

    /// Removes an entry: first out of sight by one rename (to a staging name, which the next run
    /// removes if this one is killed), then its files.
    func remove(_ entry: Entry) throws {
        try remove(named: entry.name)
    }

    private func remove(named name: String) throws {
        let hidden = directory + "/." + name
        try fileSystem.removeTree(hidden)
        do {
            try fileSystem.rename(directory + "/" + name, to: hidden)
        } catch FileSystemError.notFound {
            return
        }
        try fileSystem.removeTree(hidden)
    }

    /// Removes the entry an undo reverted, then the undo's own entry.
    func complete(undo entry: Entry) throws {
        if let undone = entry.undoes { try remove(named: undone) }
        try remove(entry)
    }

    // MARK: Files

    /// Makes sure `.tick/journal` is a folder of tick's own (not a link), `0700`. Returns false when
    /// it does not exist and `create` is false.
    private func prepareDirectory(create: Bool) throws -> Bool {
        if let status = try fileSystem.status(directory, followSymlinks: false) {
            if status.kind == .directory {
                if status.mode & 0o077 != 0 { try fileSystem.setMode(directory, 0o700) }
                return true
            }
            // Not tick's: a link or a file where the journal belongs. Remove the name, not its target.
            try fileSystem.removeFile(directory)
        }
        guard create else { return false }
        try fileSystem.createDirectory(directory, intermediates: false, mode: 0o700)
        return true
    }

    private func meta(_ entry: Entry) -> [UInt8] {
        var text = "state \(entry.state.rawValue)\nrecover \(entry.finishesOnRecovery ? "finish" : "drop")\nsummary \(entry.summary)\n"
        if let undoes = entry.undoes { text += "undoes \(undoes)\n" }
        for (k, path) in entry.paths.enumerated() { text += "file \(k) \(path)\n" }
        for (k, stamp) in entry.written.sorted(by: { $0.key < $1.key }) { text += "written \(k) \(stamp.inode) \(stamp.modified) \(stamp.size) \(stamp.changed)\n" }
        return Array(text.utf8)
    }

    /// A new file, `0600`, that must not exist yet.
    private func write(_ path: String, _ bytes: [UInt8], sync: Bool) throws {
        try fileSystem.createFile(path, contents: bytes, mode: 0o600, sync: sync)
    }

    /// Replaces a file atomically: written beside it under a fresh hidden name, then renamed over it.
    private func replaceFile(_ path: String, _ bytes: [UInt8], sync: Bool) throws {
        let staging = Path.parent(of: path) + "/." + Path.name(of: path)
        if try fileSystem.status(staging, followSymlinks: false) != nil { try fileSystem.removeFile(staging) }
        try write(staging, bytes, sync: sync)
        try fileSystem.rename(staging, to: path)
    }
}
