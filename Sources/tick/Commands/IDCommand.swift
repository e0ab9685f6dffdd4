import TickCore

/// `tick id REF...`: gives each task an `id:` token (FORMAT.md 5.8), so that its ref survives a new title
/// and a move. A task that has one keeps it. All the tasks change in one change (one `undo`).
@Sendable func runID(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let ids = try invocation.resolveTasks(invocation.values("REF"), in: before)
    let minting = ids.filter { before.task($0).id == nil }
    var generator = SystemRandomNumberGenerator()
    let values = mintIDs(count: minting.count, avoiding: before, using: &generator)
    var keys: [TaskKey] = []
    if !minting.isEmpty {
        let mutator = try session.writing()
        let wanted = Array(zip(minting.map(before.key), values))
        var paths: [String] = []
        for (key, _) in wanted where !paths.contains(key.path) { paths.append(key.path) }
        let edits: [(path: String, edit: ([UInt8]?) throws -> FileOutcome)] = paths.map { path in
            (path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                var document = Document(bytes: bytes)
                var targets: [(index: Int, value: String)] = []
                for (key, value) in wanted where key.path == path {
                    guard let i = document.index(of: key) else { throw MutationError.taskGone(key) }
                    targets.append((i, value))
                }
                for (i, value) in targets { document = try document.settingID(i, value).document }
                return .write(document.serialize())
            })
        }
        try mutator.changeFiles(summary: "gave an id to " + summaryTitles(minting, in: before), edits)
        keys = wanted.map(\.0)
    }
    let after = session.library
    var lines: [String] = []
    var changed: [TaskID] = []
    for id in ids {
        if let k = minting.firstIndex(of: id) {
            // The task's key is unchanged: an id token is not part of its title.
            guard let new = after.id(of: keys[k]) else { continue }
            changed.append(new)
            lines.append("Gave id:\(values[k]) to \(describe(new, in: after))")
        } else if let same = after.id(of: before.key(id)) {
            changed.append(same)
            lines.append(describe(same, in: after) + " has an id already (id:\(after.task(same).id ?? ""))")
        }
    }
    invocation.report(lines, tasks: changed, in: after)
    return session.loaded.status
}

/// `count` new `id:` values: 10 symbols of the ref alphabet each (27^10, about 2 × 10^14, values), none
/// used by a task of `library`, none whose ref is retired, and all different.
func mintIDs(count: Int, avoiding library: Library, using generator: inout some RandomNumberGenerator) -> [String] {
    var taken = Set(library.ids.compactMap { library.task($0).id })
    var values: [String] = []
    while values.count < count {
        let symbols = (0..<10).map { _ in Ref.alphabet[Int(generator.next(upperBound: UInt64(Ref.alphabet.count)))] }
        let value = String(decoding: symbols, as: UTF8.self)
        guard !taken.contains(value), !library.retired.contains(Ref(id: value.utf8).hash) else { continue }
        taken.insert(value)
        values.append(value)
    }
    return values
}
