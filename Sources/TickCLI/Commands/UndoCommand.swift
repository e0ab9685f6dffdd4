import TickCore

/// `tick undo [--force]`: reverts the last change tick made in the folder.
@Sendable func runUndo(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let undone = try session.folder.undoLast(force: invocation.flag(Commands.forceUndoOption))
    if !undone.discarded.isEmpty {
        let lines = undone.discarded.reduce(0) { $0 + $1.lines }
        invocation.warn("undo --force discarded \(lines == 1 ? "1 line" : "\(lines) lines") changed since tick's last change: "
                        + undone.discarded.map { "\($0.path) \($0.which)" }.joined(separator: "; "))
    }
    if invocation.global.json {
        invocation.out.json(.object([("undone", .string(undone.summary))]))
    } else if undone.merged.isEmpty {
        invocation.say("Undid: \(undone.summary)")
    } else {
        invocation.say("Undid: \(undone.summary) (kept what changed since in \(undone.merged.joined(separator: " and ")))")
    }
    return session.loaded.status
}
