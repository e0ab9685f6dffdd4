import TickCore

/// `tick id REF...`: gives each task an `id:` token (FORMAT.md 5.8), so that its ref survives a new title
/// and a move. A task that has one keeps it. All the tasks change in one change (one `undo`).
@Sendable func runID(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let ids = try invocation.resolveTasks(invocation.values(Commands.refsArgument), in: before)
    let minting = ids.filter { before.task($0).id == nil }
    var generator = SystemRandomNumberGenerator()
    let values = mintIDs(count: minting.count, avoiding: before, using: &generator)
    let plan = ids.map { id in (id, minting.firstIndex(of: id).map { [TaskEdit.giveID(values[$0])] } ?? []) }
    let (after, tasks) = try session.folder.edit(plan, summary: TaskEdit.giveID("").summary)
    var lines: [String] = []
    var changed: [TaskID] = [], changes: [Bool] = []
    for task in tasks {
        guard let id = task.after else { continue }
        changed.append(id)
        changes.append(!task.applied.isEmpty)
        if case .giveID(let value)? = task.applied.first {
            lines.append("Gave id:\(value) to \(describe(id, in: after))")
        } else {
            lines.append(describe(id, in: after) + " has an id already (id:\(after.task(id).id ?? ""))")
        }
    }
    invocation.report(lines, tasks: changed, changed: changes, in: after, was: wasRefs(tasks, before: before))
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
