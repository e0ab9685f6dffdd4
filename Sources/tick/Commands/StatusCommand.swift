import TickCore

/// `tick status`: `2 overdue · 3 today · 1 flagged` for a shell prompt; nothing when all is quiet.
@Sendable func runStatus(_ invocation: Invocation) throws -> ExitStatus {
    // A prompt line stays quiet: skipped files are for `tick check` and the other commands to report.
    let loaded = try invocation.load(warnings: false)
    let counts = loaded.library.statusCounts(now: try invocation.now())
    let out = invocation.out
    if invocation.global.json {
        out.json(.object([("overdue", .int(counts.overdue)), ("today", .int(counts.today)),
                          ("flagged", .int(counts.flagged)), ("open", .int(counts.open))]))
        return loaded.status
    }
    guard !counts.isQuiet else { return loaded.status }
    let color = invocation.terminal.color
    var parts: [String] = []
    if counts.overdue > 0 { parts.append(Style.red.apply("\(counts.overdue) overdue", enabled: color)) }
    if counts.today > 0 { parts.append("\(counts.today) today") }
    if counts.flagged > 0 { parts.append(Style.magenta.apply("\(counts.flagged) flagged", enabled: color)) }
    out.line(parts.joined(separator: " · "))
    return loaded.status
}
