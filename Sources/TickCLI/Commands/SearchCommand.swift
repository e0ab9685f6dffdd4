import TickCore

/// `tick search WORDS...`: tasks holding every word in their title, notes or tags.
@Sendable func runSearch(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let list = try invocation.value(Commands.listOption).map { try invocation.resolveList($0, in: library) }
    let words = invocation.values(Commands.wordsArgument).flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    guard !words.isEmpty else { throw UsageError.invalidInput("search needs at least one word") }
    let hits = library.search(words, includeCompleted: invocation.flag(Commands.allOption), list: list)
    let out = invocation.out
    if invocation.global.json {
        out.jsonArray(hits) { TaskRows.json($0.id, in: library) }
        return loaded.incomplete ? .io : hits.isEmpty ? .negative : .success
    }

    let terminal = invocation.terminal
    let ids = hits.map(\.id)
    var rows = TaskRows(library: library, now: invocation.now, terminal: terminal, showList: true, rows: ids)
    let lead = String(repeating: " ", count: rows.refWidth + 2) + "  ↳ "
    for (k, hit) in hits.enumerated() {
        library.prefetchRows(ids, at: k)
        let title = terminal.color ? hit.matches(in: library.task(hit.id).title) : []
        rows.write(hit.id, to: out, indent: 0, highlight: title)
        if let note = hit.noteLine {
            var text = note.text
            if let width = terminal.width { text = fit(text, to: max(RowLayout.shortestTitle, width - displayWidth(lead))) }
            if terminal.color {
                // Only what is left of the line is highlighted, the `…` never. (Matches are placed
                // only here: a plain line does not need them.)
                let kept = text == note.text ? text.count : text.count - 1
                let matches = note.matches.compactMap { range in
                    range.lowerBound < kept ? range.lowerBound..<min(range.upperBound, kept) : nil
                }
                text = highlighted(text, matches, enabled: true)
            }
            out.write(lead)
            out.line(text)
        }
    }
    if hits.isEmpty {
        let quoted = words.joined(separator: " ")
        out.line("No \(invocation.flag(Commands.allOption) ? "" : "open ")task matches '\(quoted)'.")
        return loaded.incomplete ? .io : .negative
    }
    return loaded.status
}
