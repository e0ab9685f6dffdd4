import TickFormat

/// The files tick set aside, under `.tick/aside/`: after an exchange, the list's old file (its own
/// inode, so that it keeps the list's mode) is moved there rather than deleted, so that a program
/// that had it open (an appender, an in-place writer) and wrote into it after tick's last check
/// loses nothing. The next tick run that writes the folder compares each with what tick set aside
/// and merges what arrived later into the list.
///
/// A record `N` is three names: `N.meta` (written first: `path PATH`, `inode`, `size` and
/// `modified` of the file as tick set it aside, `at` when), `N.base` (a second name of the journal
/// file holding the bytes tick set aside, when the change was journalled) and `N` (the file, moved
/// there last). Everything here is untrusted like the rest of `.tick/`: a record that does not
/// parse, or names a path that is not a list, is removed with a note, and never acted on.
struct AsideStore {
    struct Record: Equatable {
        var number: Int
        var path: String
        var inode: UInt64
        var size: Int
        var modified: Int64
        var at: Int64
    }

    /// `.tick/aside`, relative to the folder's root, for `fileSystem`.
    let directory: String
    /// The file system confined to the task folder (no link followed under `.tick/`).
    let fileSystem: any FileSystem

    func file(_ number: Int) -> String { directory + "/\(number)" }
    func meta(_ number: Int) -> String { directory + "/\(number).meta" }
    func base(_ number: Int) -> String { directory + "/\(number).base" }

    /// Makes sure `.tick/aside` is a folder of tick's own, `0700`.
    func prepare() throws {
        if let status = try fileSystem.status(directory, followSymlinks: false) {
            if status.kind == .directory {
                if status.mode & 0o077 != 0 { try fileSystem.setMode(directory, 0o700) }
                return
            }
            try fileSystem.removeFile(directory)
        }
        try fileSystem.createDirectory(directory, intermediates: false, mode: 0o700)
    }

    /// The numbers in use (a record's file, meta or base), and the records whose meta reads,
    /// oldest first. A name that is no record's is left alone; a meta that does not parse is
    /// removed with its record, and `notes` says so.
    func records(notes: inout [String]) -> (used: Set<Int>, records: [Record]) {
        guard let status = (try? fileSystem.status(directory, followSymlinks: false)) ?? nil, status.kind == .directory,
              let names = try? fileSystem.contents(ofDirectory: directory) else { return ([], []) }
        var used: Set<Int> = []
        var metas: [Int] = []
        for name in names {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let number = Int(parts[0]), number >= 0, String(number) == parts[0] else { continue }
            used.insert(number)
            if parts.count == 2, parts[1] == "meta" { metas.append(number) }
        }
        var records: [Record] = []
        for number in metas.sorted() {
            if let record = read(number) {
                records.append(record)
            } else {
                notes.append("ignored the set-aside record .tick/aside/\(number).meta: it makes no sense; removed")
                remove(number)
            }
        }
        return (used, records)
    }

    private func read(_ number: Int) -> Record? {
        guard let bytes = try? fileSystem.readFile(meta(number), followSymlinks: false), bytes.count < 8192 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { return nil }
            let key = String(line[..<space])
            guard fields[key] == nil else { return nil }
            fields[key] = String(line[line.index(after: space)...])
        }
        guard let path = fields["path"], Journal.isListPath(path),
              let inode = fields["inode"].flatMap({ UInt64($0) }), let size = fields["size"].flatMap({ Int($0) }), size >= 0,
              let modified = fields["modified"].flatMap({ Int64($0) }), let at = fields["at"].flatMap({ Int64($0) }) else { return nil }
        return Record(number: number, path: path, inode: inode, size: size, modified: modified, at: at)
    }

    /// Writes a record's meta (`0600`), before its file is moved in.
    func write(_ record: Record) throws {
        let text = "path \(record.path)\ninode \(record.inode)\nsize \(record.size)\nmodified \(record.modified)\nat \(record.at)\n"
        try fileSystem.createFile(meta(record.number), contents: Array(text.utf8), mode: 0o600, sync: false)
    }

    /// Removes a record: its file first, its meta last (a record without its meta is no record).
    func remove(_ number: Int) {
        for name in [file(number), base(number), meta(number)] {
            if (try? fileSystem.status(name, followSymlinks: false)) ?? nil != nil { try? fileSystem.removeFile(name) }
        }
    }
}

extension FolderWriter {
    /// Moves the file tick just set aside (at `temporary`, holding what tick read of `path`, with
    /// `status` as tick found it quiet) under `.tick/aside/`, with a second name of the journal
    /// file `base` (relative to `.tick/journal/`) holding those bytes. Never fails: when the file
    /// cannot be kept there, it is removed as before (its bytes are in the journal).
    func setAside(_ temporary: String, path: String, status: FileStatus, base: String?) {
        do {
            try aside.prepare()
            let number = nextAsideNumber()
            try aside.write(.init(number: number, path: path, inode: status.inode, size: status.size,
                                  modified: status.modified, at: fileSystem.now()))
            if let base { try? aside.fileSystem.link(journal.directory + "/" + base, to: aside.base(number)) }
            do {
                try fileSystem.rename(temporary, to: Path.join(root, aside.file(number)))
            } catch {
                aside.remove(number)
                throw error
            }
        } catch {
            try? fileSystem.removeFile(temporary)
        }
    }

    /// How long a set-aside file that nobody wrote into is kept at least: a program that opened the
    /// list just before tick's exchange may write that late (a loaded machine delays it).
    static let asideKept: Int64 = 1_000_000_000

    /// Goes through the files set aside by earlier runs: one unchanged since is removed once it is
    /// `asideKept` old (a program may still hold it open); one written since is
    /// merged into its list, once quiet, the way a save landing during a write is merged, and
    /// reported. What cannot be merged is kept beside the list as a backup, and named. Returns
    /// whether a list changed.
    func recoverSetAside() -> Bool {
        var notes: [String] = []
        let (used, records) = aside.records(notes: &notes)
        asideNumbers = used
        recoveryNotes += notes
        var changed = false
        for record in records {
            let file = Path.join(root, aside.file(record.number))
            // Only the file tick moved there is acted on: the same inode, and no other name for it
            // (a hard link planted to a file elsewhere is never read into a list).
            guard let status = (try? fileSystem.status(file, followSymlinks: false)) ?? nil, status.kind == .file,
                  status.inode == record.inode, status.links == 1 else {
                aside.remove(record.number)
                continue
            }
            let untouched = status.size == record.size && status.modified == record.modified
            if untouched {
                if fileSystem.now() - record.at >= Self.asideKept { aside.remove(record.number) }
                continue
            }
            // Written since: wait (bounded) until the writer is done with it, else leave it for a later run.
            guard (try? waitUntilQuiet(file, path: "", from: status, followSymlinks: false)) != nil,
                  let late = try? aside.fileSystem.readFile(aside.file(record.number), followSymlinks: false) else { continue }
            let base = try? aside.fileSystem.readFile(aside.base(record.number), followSymlinks: false)
            let list = (try? read(record.path)) ?? nil
            // A writer that noticed its file was replaced may have saved its lines again on the list.
            let lines = list.map { Self.linesMissing(from: $0, in: late, over: base ?? []) } ?? UndoMerge.lineCount(late)
            if lines == 0 {
                aside.remove(record.number)
                continue
            }
            let how = base.map { late.starts(with: $0) } == true ? "appended to" : "written to"
            if let list, let base, let merged = LineMerge.merge(base: base, ours: list, theirs: late),
               (try? replace(record.path, expected: list, with: merged)) == true {
                changed = true
                recoveryNotes.append("recovered \(lines) line\(lines == 1 ? "" : "s") \(how) \(record.path) while tick wrote it")
                aside.remove(record.number)
                continue
            }
            // No merge: the bytes stay, beside the list, under a name that is never taken for a list.
            let kept = keepSetAside(file, of: record.path)
            recoveryNotes.append("\(lines) line\(lines == 1 ? " was" : "s were") \(how) \(record.path) while tick wrote it "
                + "and could not be merged: " + (kept.map { "kept as \($0)" } ?? "left in \(aside.file(record.number))"))
            if kept != nil { aside.remove(record.number) }
        }
        return changed
    }

    private func nextAsideNumber() -> Int {
        let number = (asideNumbers.max() ?? 0) + 1
        asideNumbers.insert(number)
        return number
    }

    /// Moves a set-aside file beside its list as `NAME.md.tick-backup-PID-N`; the name relative to the folder.
    private func keepSetAside(_ file: String, of path: String) -> String? {
        guard let target = try? resolve(path) else { return nil }
        for n in 1...1000 {
            let name = "\(Path.name(of: target)).tick-backup-\(CurrentProcess.id)-\(n)"
            do {
                try fileSystem.link(file, to: Path.join(Path.parent(of: target), name))
            } catch FileSystemError.alreadyExists {
                continue
            } catch {
                return nil
            }
            return Path.parent(of: path).isEmpty ? name : Path.parent(of: path) + "/" + name
        }
        return nil
    }

    /// How many of the lines that `late` holds beyond `base` (each as often as `late` holds it
    /// more) `list` lacks: it should hold each as often as `late` does.
    static func linesMissing(from list: [UInt8], in late: [UInt8], over base: [UInt8]) -> Int {
        var numbering = LineNumbering()
        var inList: [Int: Int] = [:], inLate: [Int: Int] = [:], inBase: [Int: Int] = [:]
        for line in numbering.ids(list) { inList[line, default: 0] += 1 }
        for line in numbering.ids(base) { inBase[line, default: 0] += 1 }
        for line in numbering.ids(late) { inLate[line, default: 0] += 1 }
        var missing = 0
        for (line, count) in inLate where count > inBase[line, default: 0] {
            missing += min(count - inBase[line, default: 0], max(0, count - inList[line, default: 0]))
        }
        return missing
    }

    // MARK: - Leftovers

    /// Removes the temporary files that an interrupted tick left beside the lists (found by the
    /// scan), but only when their bytes are kept elsewhere (`isRecorded`). Any other (a list's
    /// old file that someone wrote into after tick set it aside) is kept beside the list as a
    /// backup, and named.
    func removeLeftovers(_ leftovers: [String]) -> [String] {
        var notes: [String] = []
        for path in leftovers {
            let full = Path.join(root, path)
            guard let bytes = try? fileSystem.readFile(full, followSymlinks: false) else {
                notes.append("could not read a leftover temporary file \(full); left in place")
                continue
            }
            if isRecorded(bytes, leftover: path) {
                do {
                    try fileSystem.removeFile(full)
                    notes.append("removed a leftover temporary file \(full)")
                } catch {
                    notes.append("could not remove a leftover temporary file \(full): \((error as? CustomStringConvertible)?.description ?? "\(error)")")
                }
            } else if let list = Self.listPath(ofTemporary: path), let kept = keepSetAside(full, of: list) {
                try? fileSystem.removeFile(full)
                notes.append("kept a leftover temporary file that holds what no list or journal entry holds as \(kept)")
            } else {
                notes.append("left a leftover temporary file \(full) in place: it holds what no list or journal entry holds")
            }
        }
        return notes
    }

    /// The list a temporary file `.NAME.tick-PID-N` stood beside.
    static func listPath(ofTemporary path: String) -> String? {
        let name = Path.name(of: path)
        guard isTemporaryName(name) else { return nil }
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        let suffix = ".tick".utf8.count + 2 + parts[parts.count - 2].utf8.count + parts[parts.count - 1].utf8.count
        let list = String(decoding: name.utf8.dropFirst().dropLast(suffix), as: UTF8.self)
        guard !list.isEmpty else { return nil }
        let parent = Path.parent(of: path)
        return parent.isEmpty ? list : parent + "/" + list
    }

    /// Whether a leftover's bytes are kept elsewhere: the list holds them, or a journal entry of
    /// the list holds them or starts with them (a temporary file tick was killed while writing).
    private func isRecorded(_ bytes: [UInt8], leftover path: String) -> Bool {
        guard let list = Self.listPath(ofTemporary: path) else { return false }
        if bytes.isEmpty { return true }
        if let now = try? read(list), now == bytes { return true }
        for entry in entries.reversed() {
            guard let k = entry.paths.firstIndex(of: list) else { continue }
            for after in [false, true] {
                if let side = (try? journal.content(of: entry, file: k, after: after)) ?? nil, side.starts(with: bytes) { return true }
            }
        }
        return false
    }
}
