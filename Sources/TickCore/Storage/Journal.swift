#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// tick's record of its own changes, under `.tick/journal/`: one folder per change holding the
/// files' contents before and after. `undo` reverts the newest finished entry; an entry still
/// pending after a crash is finished (a move) or dropped (a single file) by the next run.
///
/// An entry is a folder `NNNNNNNN` with a `meta` file (`state pending|done`, `recover finish|drop`,
/// `summary TEXT`, one `file K PATH` line per file) and `K.before` / `K.after` beside it; a missing
/// one means the file did not exist.
struct Journal {
    struct FileChange: Equatable {
        var path: String
        var before: [UInt8]?
        var after: [UInt8]?
    }

    let directory: String
    /// Finished entries kept for undo.
    static let kept = 20

    // MARK: Writing

    func begin(summary: String, changes: [FileChange], finishOnRecovery: Bool) throws -> String {
        try Posix.mkdir(directory)
        let number = (entries().last.flatMap { Int($0) } ?? 0) + 1
        let name = String(repeating: "0", count: max(0, 8 - String(number).count)) + String(number)
        let staging = directory + "/." + name
        try Posix.mkdir(staging)
        for (k, change) in changes.enumerated() {
            if let before = change.before { try write(staging + "/\(k).before", before, sync: finishOnRecovery) }
            if let after = change.after { try write(staging + "/\(k).after", after, sync: finishOnRecovery) }
        }
        try writeMeta(staging, state: "pending", recover: finishOnRecovery, summary: summary, paths: changes.map(\.path))
        let entry = directory + "/" + name
        try Posix.rename(staging, entry)
        if finishOnRecovery { Posix.fsyncDirectory(directory) }
        return entry
    }

    func update(_ entry: String, change: FileChange) throws {
        guard let k = paths(of: entry).firstIndex(of: change.path) else { return }
        for (suffix, bytes) in [("before", change.before), ("after", change.after)] {
            let file = entry + "/\(k).\(suffix)"
            if let bytes { try write(file, bytes, sync: finishesOnRecovery(entry)) } else { Posix.unlink(file) }
        }
    }

    func finish(_ entry: String) throws {
        try writeMeta(entry, state: "done", recover: finishesOnRecovery(entry), summary: summary(of: entry), paths: paths(of: entry))
        let finished = entries().filter { meta(directory + "/" + $0)["state"] == "done" }
        for old in finished.dropLast(Journal.kept) { remove(directory + "/" + old) }
    }

    func remove(_ entry: String) {
        for name in Posix.entries(entry) { Posix.unlink(entry + "/" + name) }
        _ = rmdir(entry)
    }

    // MARK: Reading

    func pending() -> [String] {
        entries().map { directory + "/" + $0 }.filter { meta($0)["state"] == "pending" }
    }

    func lastFinished() -> String? {
        entries().map { directory + "/" + $0 }.last { meta($0)["state"] == "done" }
    }

    func changes(of entry: String) throws -> [FileChange] {
        paths(of: entry).enumerated().map { k, path in
            FileChange(path: path,
                       before: try? Posix.readFile(entry + "/\(k).before").bytes,
                       after: try? Posix.readFile(entry + "/\(k).after").bytes)
        }
    }

    /// For a file that the newest finished change wrote: what that change found in it (its `before`), and
    /// what tick's previous kept change of that file left in it (its `after`). Nil when the newest change did
    /// not touch the file, no earlier change of it is kept, or either side is missing (a created or deleted
    /// file). Between the two, the file was edited by hand (refs retire what such edits removed).
    func lastTwoVersions(of path: String) -> (previousAfter: [UInt8], before: [UInt8])? {
        let finished = entries().map { directory + "/" + $0 }.filter { meta($0)["state"] == "done" }
        guard let newest = finished.last, let k = paths(of: newest).firstIndex(of: path),
              let before = try? Posix.readFile(newest + "/\(k).before").bytes else { return nil }
        for entry in finished.dropLast().reversed() {
            guard let j = paths(of: entry).firstIndex(of: path) else { continue }
            guard let after = try? Posix.readFile(entry + "/\(j).after").bytes else { return nil }
            return (after, before)
        }
        return nil
    }

    func summary(of entry: String) -> String { meta(entry)["summary"] ?? "" }

    func finishesOnRecovery(_ entry: String) -> Bool { meta(entry)["recover"] == "finish" }

    // MARK: Files

    private func entries() -> [String] {
        Posix.entries(directory).filter { !$0.hasPrefix(".") && Int($0) != nil }.sorted()
    }

    private func paths(of entry: String) -> [String] {
        metaLines(entry).compactMap { line -> String? in
            guard line.hasPrefix("file ") else { return nil }
            let rest = line.dropFirst(5)
            guard let space = rest.firstIndex(of: " ") else { return nil }
            return String(rest[rest.index(after: space)...])
        }
    }

    private func meta(_ entry: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in metaLines(entry) {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = String(line[..<space])
            if key != "file" { fields[key] = String(line[line.index(after: space)...]) }
        }
        return fields
    }

    private func metaLines(_ entry: String) -> [Substring] {
        guard let bytes = try? Posix.readFile(entry + "/meta").bytes else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    private func writeMeta(_ entry: String, state: String, recover: Bool, summary: String, paths: [String]) throws {
        var text = "state \(state)\nrecover \(recover ? "finish" : "drop")\nsummary \(summary.split(separator: "\n").joined(separator: " "))\n"
        for (k, path) in paths.enumerated() { text += "file \(k) \(path)\n" }
        let staging = entry + "/.meta"
        try write(staging, Array(text.utf8), sync: recover)
        try Posix.rename(staging, entry + "/meta")
    }

    private func write(_ path: String, _ bytes: [UInt8], sync: Bool) throws {
        let fd = try Posix.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(fd) }
        try Posix.writeAll(fd, bytes, path)
        if sync { try Posix.fsync(fd, path) }
    }
}
