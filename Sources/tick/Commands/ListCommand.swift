import TickCore

/// `tick ls LIST`: one list in the file's order, active tasks first, then the completed ones.
@Sendable func runList(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let index = try invocation.resolveList(invocation.value(Commands.listArgument)!, in: library)
    let order = invocation.value(Commands.sortOption).flatMap(ListOrder.init(rawValue:)) ?? .file
    let view = library.listView(index, order: order)
    let allRows = (view.active + view.completed).flatMap { $0.rows.map(\.id) }
    let out = invocation.out
    if invocation.global.json {
        out.jsonArray(allRows) { TaskRows.json($0, in: library) }
        return loaded.status
    }

    let terminal = invocation.terminal
    var rows = TaskRows(library: library, now: invocation.now, terminal: terminal, showList: false, rows: allRows)
    let bold = { (text: String) in Style.bold.apply(text, enabled: terminal.color) }
    let list = library.lists[index]
    out.line((list.symbol.map { $0 + " " } ?? "") + bold(terminal.listColored(library.listLabels()[index], color: list.color)))
    out.line()
    // Whether the line above is blank (a section heading needs one above it, never two).
    var afterBlank = true
    func show(_ groups: [ListView.Group]) {
        for group in groups {
            if let section = group.section {
                if !afterBlank { out.line() }
                out.line("  " + bold(section))
            }
            afterBlank = false
            let indent = group.section == nil ? 2 : 4
            for row in group.rows { rows.write(row.id, to: out, indent: indent, level: row.level) }
        }
    }
    if view.active.isEmpty {
        out.line(view.completed.isEmpty ? "  No tasks yet." : "  All done.")
        afterBlank = false
    }
    show(view.active)
    if !view.completed.isEmpty {
        out.line()
        out.line(bold("Completed"))
        afterBlank = false
        show(view.completed)
    }
    return loaded.status
}
