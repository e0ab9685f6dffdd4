import TickCore

// MARK: - Home

/// `tick` alone: the home screen.
@Sendable func runHome(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let counts = library.counts(now: invocation.now)
    let out = invocation.out

    if invocation.global.json {
        let lists: [JSON] = library.lists.map(listJSON)
        out.json(.object([("today", .int(counts.today)), ("scheduled", .int(counts.scheduled)),
                          ("flagged", .int(counts.flagged)), ("all", .int(counts.all)),
                          ("lists", .array(lists)), ("views", SavedViewTiles.json(invocation, library: library))]))
        return loaded.status
    }

    let terminal = invocation.terminal
    if library.lists.isEmpty {
        let inbox = Path.join(loaded.folder.path, "inbox.md")
        out.line(Style.bold.apply("No lists yet", enabled: terminal.color) + " in \(loaded.folder.path)")
        out.line()
        out.line("Every .md file in that folder is a list, and every checkbox line in it is a task.")
        out.line("Add your first task:")
        out.line()
        out.line("  tick add \"My first task due:tomorrow\"")
        out.line()
        out.line("or write it into a list in any editor:")
        out.line()
        out.line("  echo '- [ ] My first task' >> \(shellQuoted(inbox))")
        out.line()
        out.line("Then run tick again. See 'tick --help' for everything else.")
        return loaded.status
    }

    let tiles = [("Today", counts.today), ("Scheduled", counts.scheduled), ("Flagged", counts.flagged), ("All", counts.all)]
    for line in tileLines(tiles.map { ($0.0, String($0.1)) }, terminal: terminal) { out.line(line) }
    for line in SavedViewTiles.lines(invocation, library: library) { out.line(line) }
    out.line()
    out.line(Style.bold.apply("Lists", enabled: terminal.color))
    let symbols = library.lists.map { listSymbol($0) }
    let names = listLabels(library)
    let columns = ListColumns(symbols: symbols, names: names)
    for (index, list) in library.lists.enumerated() {
        var line = columns.lead(index, color: list.color, terminal: terminal)
        line += String(list.openCount)
        out.line(line)
    }
    return loaded.status
}

/// The home screen's tiles, two to a line: a name in bold padded to 11 columns and its count, the
/// second tile at column 20. On a terminal too narrow for that, the names and the gap shrink to
/// what the tiles need, and narrower still each tile takes a line of its own.
func tileLines(_ tiles: [(name: String, count: String)], terminal: Terminal) -> [String] {
    func lines(nameWidth: (String) -> Int, column: Int?) -> [String] {
        let texts = tiles.map { padded(Style.bold.apply($0.name, enabled: terminal.color), to: nameWidth($0.name)) + $0.count }
        guard let column else { return texts }
        return stride(from: 0, to: texts.count, by: 2).map { k in
            k + 1 < texts.count ? padded(texts[k], to: column) + texts[k + 1] : texts[k]
        }
    }
    let wide = lines(nameWidth: { max(11, displayWidth($0) + 1) }, column: 19)
    guard let width = terminal.width else { return wide }
    func fits(_ lines: [String]) -> Bool { lines.allSatisfy { displayWidth($0) <= width } }
    if fits(wide) { return wide }
    let names = tiles.map { displayWidth($0.name) + 1 }.max() ?? 0
    let left = stride(from: 0, to: tiles.count, by: 2).map { names + displayWidth(tiles[$0].count) }.max() ?? 0
    let compact = lines(nameWidth: { _ in names }, column: left + 2)
    return fits(compact) ? compact : lines(nameWidth: { _ in names }, column: nil)
}

/// A list's symbol as the home screen shows it: a symbol wider than FORMAT.md allows (8 terminal
/// columns) is cut, and `tick check` reports it.
func listSymbol(_ list: TaskList) -> String {
    guard let symbol = list.symbol else { return "" }
    // A character takes at least as many bytes as columns: that many bytes or fewer always fit.
    return symbol.utf8.count <= ListNaming.maxSymbolWidth ? symbol : fit(symbol, to: ListNaming.maxSymbolWidth)
}

/// Each list's name, followed by its file when another list's name is the same ignoring case and
/// accents (`Work` and `work`, `Über` and `Uber`), so that the two can be told apart.
func listLabels(_ library: Library) -> [String] {
    library.listLabels()
}

// MARK: - Lists

/// `tick lists`: every list with its symbol, colour, file and counts.
@Sendable func runLists(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let out = invocation.out
    if invocation.global.json {
        out.jsonArray(library.lists) { listJSON($0) }
        return loaded.status
    }
    let terminal = invocation.terminal
    guard !library.lists.isEmpty else {
        out.line("No lists yet in \(loaded.folder.path).")
        return loaded.status
    }
    let names = library.lists.map(\.name)  // the file column tells lists of the same name apart
    let symbols = library.lists.map { listSymbol($0) }
    let colors = library.lists.map { $0.color ?? "" }
    let files = library.lists.map(\.file.path)
    let opens = library.lists.map { "\($0.openCount) open" }
    let columns = ListColumns(symbols: symbols, names: names)
    let colorWidth = colors.map(displayWidth).max() ?? 0
    let fileWidth = files.map(displayWidth).max() ?? 0
    let openWidth = opens.map(displayWidth).max() ?? 0
    for (index, list) in library.lists.enumerated() {
        var line = columns.lead(index, color: list.color, terminal: terminal)
        if colorWidth > 0 { line += padded(colors[index], to: colorWidth) + "  " }
        line += padded(files[index], to: fileWidth) + "  "
        line += padded(opens[index], to: openWidth) + "  " + "\(list.doneCount) done"
        out.line(line)
    }
    return loaded.status
}

/// The list object of `--json`: `{name, file, symbol, color, open, done}`.
func listJSON(_ list: TaskList) -> JSON {
    .object([("name", .string(list.name)), ("file", .string(list.file.path)),
             ("symbol", .optional(list.symbol)), ("color", .optional(list.color)),
             ("open", .int(list.openCount)), ("done", .int(list.doneCount))])
}

/// `text` as one word for a POSIX shell.
func shellQuoted(_ text: String) -> String {
    let safe = text.unicodeScalars.allSatisfy {
        ($0.value < 0x80 && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "/._-+,:@%".unicodeScalars.contains($0)
    }
    return safe ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

// MARK: - Smart views

/// `tick today`, `tomorrow`, `upcoming`, `scheduled`, `flagged`, `all`, `completed`.
func runView(_ view: SmartView) -> Command.Run {
    { invocation in
        let loaded = try invocation.load()
        let library = loaded.library
        let now = invocation.now
        let list = try invocation.value(Commands.listOption).map { try invocation.resolveList($0, in: library) }
        let includeCompleted = view != .completed && invocation.flag(Commands.allOption)
        var query = ViewQuery(view: view, includeCompleted: includeCompleted, list: list)
        if view == .upcoming { query.days = try upcomingDays(invocation.value(Commands.daysArgument)) }
        if view == .completed, let since = invocation.value(Commands.sinceOption) { query.since = try Day(parsing: since, relativeTo: now) }
        let viewed = library.tasksWithLevels(in: query, now: now)
        let ids = try invocation.narrowed(viewed.ids, in: library)
        let status = invocation.given(Commands.whereOption) ? loaded.status(matched: ids.count) : loaded.status
        invocation.reportProblems(in: library, lists: list.map { [$0] })
        let out = invocation.out
        if invocation.global.json {
            out.jsonArray(ids) { TaskRows.json($0, in: library) }
            return status
        }

        let sort = try invocation.sortOrder()
        if sort != nil || invocation.given(Commands.groupOption) {
            // Sorted or grouped on request: the rows as tick find shows them, under the view's name.
            let sorted = sort.map { library.sorted(ids, by: $0) } ?? ids
            let grouping = invocation.value(Commands.groupOption).flatMap(TaskGrouping.init(rawValue:)) ?? .none
            FoundTasks(library: library, invocation: invocation)
                .write(sorted, grouping: grouping, flat: invocation.flag(Commands.flatOption), heading: view.title)
            if ids.isEmpty { out.line("  " + emptyMessage(view, days: query.days)) }
            return status
        }
        let terminal = invocation.terminal
        var rowsTemplate = TaskRows(library: library, now: now, terminal: terminal, showList: view != .all,
                                    showDoneDate: view == .completed, rows: ids)
        rowsTemplate.showScheduled = view == .today
        let template = rowsTemplate
        let bold = { @Sendable (text: String) in Style.bold.apply(text, enabled: terminal.color) }
        // The rows, a range at a time, each with rows of its own (a large view's ranges are
        // rendered on several threads): before the first row of each run of rows in one `group`,
        // its `heading` (after a blank line but for the first); none when `heading` gives nil.
        func writeRows<Group: Equatable & Sendable>(group: @escaping @Sendable (Int) -> Group,
                                         heading: @escaping @Sendable (Group) -> String?,
                                         level: @escaping @Sendable (Int) -> Int = { _ in 0 }) {
            library.renderRows(ids, render: { range in
                var rows = template
                var b: [UInt8] = []
                var previous = range.lowerBound > 0 ? group(range.lowerBound - 1) : nil
                for k in range {
                    let current = group(k)
                    if current != previous, let text = heading(current) {
                        if previous != nil { b.append(0x0A) }
                        b.append(contentsOf: (text + "\n").utf8)
                    }
                    previous = current
                    library.prefetchRows(ids, at: k)
                    rows.appendLine(ids[k], level: level(k), to: &b)
                }
                return b
            }, write: { out.write(bytes: $0) })
        }
        func writeRows() { writeRows(group: { _ in 0 }, heading: { _ in nil }) }
        switch view {
        case .scheduled, .upcoming:
            if ids.isEmpty { out.line(bold(view == .upcoming ? "Upcoming" : "Scheduled")) }
            writeRows(group: { ScheduleGroup(due: library.due(ids[$0])!, now: now) },
                      heading: { bold($0.title(now: now)) })
        case .all:
            if ids.isEmpty { out.line(bold("All")) }
            let labels = ids.isEmpty ? [] : library.listLabels()
            // `--where` keeps some of the view's rows, in order: then the levels are those among them.
            let levels = ids.count == viewed.ids.count ? viewed.levels : library.nestingLevels(ids)
            // Each list under its name; a subtask is indented under its parent when the parent is shown too.
            writeRows(group: { ids[$0].list }, heading: { l in
                let list = library.lists[l]
                return (list.symbol.map { $0 + " " } ?? "") + bold(terminal.listColored(labels[l], color: list.color))
            }, level: { Int(levels[$0]) })
        case .today, .tomorrow:
            let day = view == .today ? now.day : now.tomorrow
            out.line(bold(view == .today ? "Today" : "Tomorrow") + ", " + day.longText())
            writeRows()
        case .flagged:
            out.line(bold("Flagged"))
            writeRows()
        case .completed:
            out.line(bold("Completed"))
            writeRows()
        }
        if ids.isEmpty { out.line("  " + emptyMessage(view, days: query.days)) }
        return status
    }
}

/// `tick upcoming N`: a whole number of days from 1 to 3660 (default 7).
private func upcomingDays(_ text: String?) throws -> Int {
    guard let text else { return 7 }
    guard let days = Int(text), (1...3660).contains(days) else {
        throw UsageError.invalidValue(option: "N", value: text, reason: "expected a whole number of days from 1 to 3660")
    }
    return days
}

extension SmartView {
    /// The view's heading: `Today`, `Scheduled`.
    var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

private func emptyMessage(_ view: SmartView, days: Int) -> String {
    switch view {
    case .today: return "Nothing due today."
    case .tomorrow: return "Nothing due tomorrow."
    case .upcoming: return days == 1 ? "Nothing due today." : "Nothing due in the next \(days) days."
    case .scheduled: return "No scheduled tasks."
    case .flagged: return "No flagged tasks."
    case .all: return "No open tasks."
    case .completed: return "No completed tasks."
    }
}

/// The first columns of a line per list (the home screen, `tick lists`): the symbol, in a column
/// as wide as the widest (none when no list has one), then the name in the list's colour, padded
/// to the longest name and two spaces.
private struct ListColumns {
    let symbols: [String]
    let names: [String]
    let symbolWidth: Int
    let nameWidth: Int

    init(symbols: [String], names: [String]) {
        self.symbols = symbols
        self.names = names
        symbolWidth = symbols.map(displayWidth).max() ?? 0
        nameWidth = names.map(displayWidth).max() ?? 0
    }

    func lead(_ index: Int, color: String?, terminal: Terminal) -> String {
        var line = "  "
        if symbolWidth > 0 { line += padded(symbols[index], to: symbolWidth) + " " }
        line += terminal.listColored(names[index], color: color)
        return line + String(repeating: " ", count: nameWidth - displayWidth(names[index]) + 2)
    }
}
