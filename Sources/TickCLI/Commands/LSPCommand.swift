import TickCore
import TickLSP

extension Commands {
    static let lsp: Command = Command(
        name: "lsp",
        effect: .read,
        summary: "Run a language server for editors on standard input and output",
        discussion: "Speaks the Language Server Protocol (3.17, JSON-RPC with Content-Length framing) on standard "
            + "input and output, for every .md list of the task folder: the workspace root, or the folder holding "
            + ".tick/ above an opened file (--dir and TICK_DIR name it instead). It reads the editor's unsaved "
            + "buffers and never writes a list: diagnostics are what tick check finds (and a note on a date word "
            + "typed after due:), and each code action is an edit the editor applies. Complete, reopen, skip, "
            + "flag, priority, due, id and writing a date word as its date are byte for byte the change of the "
            + "matching command (tick done, tick due, ...); \"Turn into a task\" puts a box on lines without "
            + "one. The editor writes the file, so tick undo does not know these changes. It also completes "
            + "after due:, rec:, # and !, and answers hover, "
            + "document and workspace symbols, folding ranges, inlay hints (off unless the client's "
            + "initializationOptions set inlayHints) and the commands tick.today and tick.pick.\n\n"
            + "Exits 0 after the client's shutdown and exit, 1 when its input ends or it exits without shutdown.",
        run: runLSP)
}

/// `tick lsp`: a language server on standard input and output, until the client's `exit` or the
/// end of its input.
@Sendable func runLSP(_ invocation: Invocation) throws -> ExitStatus {
    Allocator.useOneArena()
    // The folder named by --dir or TICK_DIR; else the workspace root's, found from the client's initialize.
    let folder = invocation.global.dir != nil || !(invocation.context.environment["TICK_DIR"] ?? "").isEmpty
        ? try invocation.folder() : nil
    // A pinned clock (--now, TICK_NOW) stays pinned; else each request reads the clock.
    let pinned = invocation.global.now != nil || invocation.context.environment["TICK_NOW"] != nil
    let fixed = invocation.now
    let now: () -> Now = pinned ? { fixed } : {
        var now = invocation.context.clock()
        now.tonight = fixed.tonight
        now.weekStart = fixed.weekStart
        return now
    }
    let environment = ServerEnvironment(fileSystem: invocation.fileSystem, now: now, settings: invocation.settings,
                                        folder: folder, environment: invocation.context.environment)
    let out = invocation.out
    let server = LanguageServer(environment) { bytes in
        out.write(bytes: bytes)
        out.flush()
    }
    while server.exitStatus == nil {
        let bytes = invocation.context.input.chunk()
        if bytes.isEmpty { break }
        server.receive(bytes)
    }
    return server.exitStatus == 0 ? .success : .negative
}
