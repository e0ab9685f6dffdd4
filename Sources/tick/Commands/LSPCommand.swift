import TickCore
import TickLSP

/// `tick lsp`: a language server on standard input and output, until the client's `exit` or the
/// end of its input.
@Sendable func runLSP(_ invocation: Invocation) throws -> ExitStatus {
    // The folder named by --dir or TICK_DIR; else the workspace root's, found from the client's initialize.
    let folder = invocation.global.dir != nil || !(invocation.context.environment["TICK_DIR"] ?? "").isEmpty
        ? try invocation.folder() : nil
    // A pinned clock (--now, TICK_NOW) stays pinned; else each request reads the clock.
    let pinned = invocation.global.now != nil || invocation.context.environment["TICK_NOW"] != nil
    let fixed = invocation.now
    let now: () -> Now = pinned ? { fixed } : {
        var now = Now.system()
        now.tonight = fixed.tonight
        now.weekStart = fixed.weekStart
        return now
    }
    let environment = ServerEnvironment(fileSystem: invocation.fileSystem, now: now, settings: invocation.settings,
                                        folder: folder, environment: invocation.context.environment)
    let server = LanguageServer(environment) { bytes in
        _ = bytes.withUnsafeBufferPointer { StandardStream.output.write($0) }
    }
    while server.exitStatus == nil {
        let bytes = StandardInput.chunk()
        if bytes.isEmpty { break }
        server.receive(bytes)
    }
    return server.exitStatus == 0 ? .success : .negative
}
