import TickCore

/// `tick status`: `2 overdue · 3 today · 1 flagged` for a shell prompt; nothing when all is quiet.
/// `--format` fills a template for a status bar; `--large` lists the five most urgent open tasks.
@Sendable func runStatus(_ invocation: Invocation) throws -> ExitStatus {
    let format = try invocation.value(Commands.statusFormatOption).map { text in
        do throws(StatusFormat.Problem) {
            return try StatusFormat(parsing: text)
        } catch {
            throw UsageError.invalidValue(option: "--format", value: text, reason: error.description)
        }
    }
    let large = invocation.flag(Commands.largeOption)
    if format != nil, large || invocation.global.json {
        throw UsageError.invalidInput("--format cannot be combined with " + (large ? "--large" : "--json"))
    }
    // A prompt line stays quiet: skipped files are for `tick check` and the other commands to report.
    let loaded = try invocation.load(warnings: false)
    let library = loaded.library
    let now = invocation.now
    let out = invocation.out
    if large { return statusLarge(invocation, loaded) }
    let counts = library.statusCounts(now: now)
    if let format {
        let next = format.needsNext
            ? library.mostUrgent(1, now: now, weights: invocation.settings.pickWeights).first.map { library.task($0).title }
            : nil
        let text = format.render(counts, next: next)
        if !text.isEmpty { out.line(text) }
        return loaded.status
    }
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

/// `tick status --large`: the most urgent open tasks, one row each, the most urgent first; nothing
/// (with `--json`, `[]`) when no task is open.
private func statusLarge(_ invocation: Invocation, _ loaded: LoadedFolder) -> ExitStatus {
    let library = loaded.library
    let ids = library.mostUrgent(Commands.largeCount, now: invocation.now, weights: invocation.settings.pickWeights)
    if invocation.global.json {
        invocation.out.jsonArray(ids) { TaskRows.json($0, in: library) }
        return loaded.status
    }
    var rows = TaskRows(library: library, now: invocation.now, terminal: invocation.terminal, showList: true, rows: ids)
    for id in ids { rows.write(id, to: invocation.out, indent: 0) }
    return loaded.status
}
