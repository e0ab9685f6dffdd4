import TickCore

/// `tick undo [--force]`: reverts the last change tick made in the folder.
@Sendable func runUndo(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let summary = try session.folder.undo(force: invocation.flag(Commands.forceUndoOption))
    if invocation.global.json {
        invocation.out.json(.object([("undone", .string(summary))]))
    } else {
        invocation.say("Undid: \(summary)")
    }
    return session.loaded.status
}
