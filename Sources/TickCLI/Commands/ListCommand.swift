import TickCore

/// `tick ls LIST`: one list in the file's order, active tasks first, then the completed ones.
@Sendable func runList(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let index = try invocation.resolveList(invocation.value(Commands.listArgument)!, in: library)
    // ls's own words keep their order; any other --sort sorts each task's subtasks (and the tasks of
    // each section) by the shared keys.
    let text = invocation.value(Commands.sortOption)
    let legacy = text.flatMap(ListOrder.init(rawValue:))
    let sort = legacy == nil ? try invocation.sortOrder() : nil
    var view = library.listView(index, order: legacy ?? .file)
    if let sort {
        for k in view.active.indices { view.active[k].rows = resorted(view.active[k].rows, by: sort, in: library) }
        for k in view.completed.indices { view.completed[k].rows = resorted(view.completed[k].rows, by: sort, in: library) }
    }
    var allRows = (view.active + view.completed).flatMap { $0.rows.map(\.id) }
    invocation.reportProblems(in: library, lists: [index])
    let out = invocation.out
    if invocation.given(Commands.whereOption) {
        allRows = try invocation.narrowed(allRows, in: library)
        if !invocation.global.json {
            FoundTasks(library: library, invocation: invocation)
                .write(allRows, grouping: .section, flat: false)
            if allRows.isEmpty { out.line("No task of \(library.listLabels()[index]) matches.") }
            return loaded.status(matched: allRows.count)
        }
    }
    if invocation.global.json {
        out.jsonArray(allRows) { TaskRows.json($0, in: library) }
        return invocation.given(Commands.whereOption) ? loaded.status(matched: allRows.count) : loaded.status
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

/// Rows of a list view (each task followed by its subtasks, a level deeper) with the children of
/// each task, and the top-level rows, sorted by `order` among themselves.
func resorted(_ rows: [(id: TaskID, level: Int)], by order: SortOrder, in library: Library) -> [(id: TaskID, level: Int)] {
    var children: [Int: [Int]] = [:]   // by row index; -1 for the top level
    var stack: [Int] = []
    for (k, row) in rows.enumerated() {
        while let last = stack.last, rows[last].level >= row.level { stack.removeLast() }
        children[stack.last ?? -1, default: []].append(k)
        stack.append(k)
    }
    var result: [(id: TaskID, level: Int)] = []
    result.reserveCapacity(rows.count)
    func visit(_ parent: Int) {
        let kids = children[parent] ?? []
        let byID = Dictionary(uniqueKeysWithValues: kids.map { (rows[$0].id, $0) })
        for id in library.sorted(kids.map { rows[$0].id }, by: order) {
            let k = byID[id]!
            result.append(rows[k])
            visit(k)
        }
    }
    visit(-1)
    return result
}
