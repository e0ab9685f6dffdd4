import TickCore

// MARK: - Home

/// `tick` alone: the home screen.
@Sendable func runHome(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let counts = library.counts(now: try invocation.now())
    let out = invocation.out

    if invocation.global.json {
        let lists: [JSON] = library.lists.map { list in
            .object([("name", .string(list.name)), ("file", .string(list.file.path)),
                     ("symbol", .optional(list.symbol)), ("color", .optional(list.color)),
                     ("open", .int(list.openCount)), ("done", .int(list.doneCount))])
        }
        out.json(.object([("today", .int(counts.today)), ("scheduled", .int(counts.scheduled)),
                          ("flagged", .int(counts.flagged)), ("all", .int(counts.all)),
                          ("lists", .array(lists))]))
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

    func tile(_ name: String, _ count: Int) -> String {
        padded(Style.bold.apply(name, enabled: terminal.color), to: 11) + String(count)
    }
    out.line(padded(tile("Today", counts.today), to: 19) + tile("Scheduled", counts.scheduled))
    out.line(padded(tile("Flagged", counts.flagged), to: 19) + tile("All", counts.all))
    out.line()
    out.line(Style.bold.apply("Lists", enabled: terminal.color))
    // A symbol wider than FORMAT.md allows is cut (tick check reports it).
    func symbol(_ list: TaskList) -> String { fit(list.symbol ?? "", to: ListNaming.maxSymbolWidth) }
    let symbolWidth = library.lists.map { displayWidth(symbol($0)) }.max() ?? 0
    let nameWidth = library.lists.map { displayWidth($0.name) }.max() ?? 0
    for list in library.lists {
        var line = "  "
        if symbolWidth > 0 { line += padded(symbol(list), to: symbolWidth) + " " }
        line += terminal.listColored(list.name, color: list.color)
        line += String(repeating: " ", count: nameWidth - displayWidth(list.name) + 2)
        line += String(list.openCount)
        out.line(line)
    }
    return loaded.status
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

/// `tick today`, `scheduled`, `flagged`, `all`, `completed`.
func runView(_ view: SmartView) -> Command.Run {
    { invocation in
        let loaded = try invocation.load()
        let library = loaded.library
        let now = try invocation.now()
        let list = try invocation.value("list").map { try invocation.resolveList($0, in: library) }
        let includeCompleted = view != .completed && invocation.flag("all")
        let ids = library.tasks(in: ViewQuery(view: view, includeCompleted: includeCompleted, list: list), now: now)
        let out = invocation.out
        if invocation.global.json {
            out.jsonArray(ids) { TaskRows.json($0, in: library) }
            return loaded.status
        }

        let rows = TaskRows(library: library, now: now, terminal: invocation.terminal,
                            showList: view != .all, rows: ids)
        let bold = { (text: String) in Style.bold.apply(text, enabled: invocation.terminal.color) }
        switch view {
        case .scheduled:
            var current: ScheduleGroup?
            for id in ids {
                let group = ScheduleGroup(due: library.task(id).due!, now: now)
                if group != current {
                    if current != nil { out.line() }
                    out.line(bold(group.title(now: now)))
                    current = group
                }
                rows.write(id, to: out)
            }
        case .all:
            var current: Int?
            for id in ids {
                if id.list != current {
                    if current != nil { out.line() }
                    let list = library.lists[id.list]
                    let symbol = list.symbol.map { $0 + " " } ?? ""
                    out.line(symbol + bold(invocation.terminal.listColored(list.name, color: list.color)))
                    current = id.list
                }
                rows.write(id, to: out)
            }
        case .today:
            out.line(bold("Today") + ", " + longDate(now.day))
            for id in ids { rows.write(id, to: out) }
        case .flagged:
            out.line(bold("Flagged"))
            for id in ids { rows.write(id, to: out) }
        case .completed:
            out.line(bold("Completed"))
            for id in ids { rows.write(id, to: out) }
        }
        if ids.isEmpty {
            if view == .scheduled || view == .all { out.line(emptyMessage(view)) } else { out.line("  " + emptyMessage(view)) }
        }
        return loaded.status
    }
}

private func emptyMessage(_ view: SmartView) -> String {
    switch view {
    case .today: return "Nothing due today."
    case .scheduled: return "No scheduled tasks."
    case .flagged: return "No flagged tasks."
    case .all: return "No open tasks."
    case .completed: return "No completed tasks."
    }
}

/// `Saturday Mar 14` (with the year only when asked).
func longDate(_ day: Day, year: Bool = false) -> String {
    day.weekdayName + " " + day.monthAbbreviation + " " + String(day.day) + (year ? " \(day.year)" : "")
}
