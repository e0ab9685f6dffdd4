import TickCore

// `tick find QUERY…` (`tick q`), and what every command that takes a query shares: reading the
// query, `--sort`, `--group`, and showing the tasks found with each matched subtask under its parent.

/// `tick find QUERY...`: the tasks a query matches.
@Sendable func runFind(_ invocation: Invocation) throws -> ExitStatus {
    let text = invocation.values(Commands.queryArgument).joined(separator: " ")
    let query = try invocation.query(text)
    if invocation.flag(Commands.explainOption) {
        invocation.out.line(query.explanation)
        return .success
    }
    let sort = try invocation.sortOrder()
    let loaded = try invocation.load()
    let library = loaded.library
    let list = try invocation.value(Commands.listOption).map { try invocation.resolveList($0, in: library) }
    var ids = library.find(query, now: invocation.now, includeCompleted: invocation.flag(Commands.allOption), list: list)
    if let sort { ids = library.sorted(ids, by: sort) }
    let grouping = invocation.value(Commands.groupOption).flatMap(TaskGrouping.init(rawValue:)) ?? .none
    invocation.reportProblems(in: library, lists: list.map { [$0] })
    if invocation.global.json {
        invocation.out.jsonArray(ids) { TaskRows.json($0, in: library) }
    } else if ids.isEmpty {
        invocation.out.line("No \(query.mentionsCompletion || invocation.flag(Commands.allOption) ? "" : "open ")task matches '\(text)'.")
    } else {
        FoundTasks(library: library, invocation: invocation).write(ids, grouping: grouping, flat: invocation.flag(Commands.flatOption))
    }
    return loaded.incomplete ? .io : ids.isEmpty ? .negative : .success
}

extension Invocation {
    /// A query typed on the command line, or kept as saved view `view`, dates relative to now,
    /// weeks starting on `week-start`. Its error quotes the query (its first 80 characters when
    /// longer) and names the view.
    func query(_ text: String, view: String? = nil) throws -> Query {
        do {
            return try Query(parsing: text, now: now, weekStart: (settings.weekStart ?? .monday).firstWeekday)
        } catch {
            let quoted = text.count > 80 ? String(text.prefix(80)) + "…" : text
            throw UsageError.invalidInput((view.map { "saved view '\($0)': " } ?? "") + "\(error.description) in '\(quoted)'")
        }
    }

    /// `--sort KEYS`, or nil when not given.
    func sortOrder() throws -> SortOrder? {
        guard let text = value(Commands.sortOption) else { return nil }
        do {
            return try SortOrder(parsing: text)
        } catch {
            throw UsageError.invalidValue(option: "--sort", value: text, reason: error.description)
        }
    }

    /// `--where QUERY` of a view: the tasks of `ids` that match it (all of `ids` without it).
    func narrowed(_ ids: [TaskID], in library: Library) throws -> [TaskID] {
        guard let text = value(Commands.whereOption) else { return ids }
        return library.filter(ids, by: try query(text), now: now)
    }
}

/// How `--group` groups tasks.
enum TaskGrouping: String {
    case list, section, due, tag, pri, none
}

/// Tasks found by a query, as rows: in groups under headings, each matched subtask under its parent.
struct FoundTasks {
    let library: Library
    let invocation: Invocation

    /// Writes `ids` (in their order) grouped by `grouping`; unless `flat`, a subtask whose parent is
    /// in the same group stands under it, and one whose parent is not has its ancestors shown
    /// above it, dimmed (without colour: marked `·`, with a legend line after the rows).
    func write(_ ids: [TaskID], grouping: TaskGrouping, flat: Bool, heading: String? = nil) {
        let out = invocation.out
        let terminal = invocation.terminal
        let bold = { (text: String) in Style.bold.apply(text, enabled: terminal.color) }
        if let heading { out.line(bold(heading)) }
        let groups = self.groups(ids, by: grouping)
        var shown: [TaskID] = []
        let layouts = groups.map { group -> [(id: TaskID, level: Int, context: Bool)] in
            let rows = flat ? group.ids.map { ($0, 0, false) } : tree(group.ids)
            shown += rows.map(\.id)
            return rows
        }
        var rows = TaskRows(library: library, now: invocation.now, terminal: terminal, showList: grouping != .list,
                            rows: shown)
        var plain = terminal
        plain.color = false
        var plainRows = TaskRows(library: library, now: invocation.now, terminal: plain, showList: grouping != .list,
                                 rows: shown)
        var contextShown = false
        for (k, group) in groups.enumerated() {
            if let title = group.title {
                if k > 0 { out.line() }
                out.line(bold(title))
            }
            for row in layouts[k] {
                if row.context, terminal.color {
                    out.line(Style.dim.apply(plainRows.text(row.id, level: row.level), enabled: true))
                } else if row.context {
                    // Without colour, words say it: a `·` in the first column, and a legend below.
                    out.line("·" + plainRows.text(row.id, level: row.level).dropFirst())
                    contextShown = true
                } else {
                    rows.write(row.id, to: out, level: row.level)
                }
            }
        }
        if contextShown { out.line(Self.contextLegend) }
    }

    /// The line under rows that hold a context parent, without colour.
    static let contextLegend = "(· a parent shown for context: it does not match itself)"

    struct Group {
        var title: String?
        var ids: [TaskID]
    }

    /// The groups of `ids`, in order, each keeping the order of `ids`.
    func groups(_ ids: [TaskID], by grouping: TaskGrouping) -> [Group] {
        guard grouping != .none else { return [Group(title: nil, ids: ids)] }
        let now = invocation.now
        let labels = library.listLabels()
        // Each task's group: an order key and a title.
        var keyed: [(order: [Int], title: String)] = []
        var firstSeen: [String: Int] = [:]
        for (position, id) in ids.enumerated() {
            let task = library.task(id)
            switch grouping {
            case .list:
                keyed.append(([id.list], labels[id.list]))
            case .section:
                let title = labels[id.list] + (task.section.map { " › " + $0 } ?? "")
                if firstSeen[title] == nil { firstSeen[title] = position }
                keyed.append(([id.list, firstSeen[title]!], title))
            case .due:
                if let due = task.due, let days = library.daysUntilDue(id, now: now) {
                    let group = ScheduleGroup(due: due, now: now)
                    keyed.append(([0, max(days, -1)], group.title(now: now)))
                } else {
                    keyed.append(([1, 0], "No due date"))
                }
            case .tag:
                if let tag = task.tags.first {
                    let title = "#" + tag
                    if firstSeen[title] == nil { firstSeen[title] = position }
                    keyed.append(([0, firstSeen[title]!], title))
                } else {
                    keyed.append(([1, 0], "No tags"))
                }
            case .pri:
                let names = ["No priority", "Low priority", "Medium priority", "High priority"]
                let level = library.priorityLevel(id)
                keyed.append(([3 - level], names[level]))
            case .none:
                keyed.append(([0], ""))
            }
        }
        var order: [[Int]] = []
        var byKey: [[Int]: Group] = [:]
        for (id, key) in zip(ids, keyed) {
            if byKey[key.order] == nil {
                order.append(key.order)
                byKey[key.order] = Group(title: key.title, ids: [])
            }
            byKey[key.order]!.ids.append(id)
        }
        order.sort { $0.lexicographicallyPrecedes($1) }
        return order.map { byKey[$0]! }
    }

    /// `ids` as a forest: each task with its ancestors above it (an ancestor not in `ids` is context),
    /// siblings in the order of their first task in `ids`.
    func tree(_ ids: [TaskID]) -> [(id: TaskID, level: Int, context: Bool)] {
        let members = Set(ids)
        var first: [TaskID: Int] = [:]
        var parentOf: [TaskID: TaskID] = [:]
        var roots: [TaskID] = []
        for (position, id) in ids.enumerated() {
            var node = id
            guard first[node] == nil else { continue }  // shown already, as an ancestor of an earlier task
            first[node] = position
            var attached = false
            while let parent = library.parent(of: node) {
                parentOf[node] = parent
                if first[parent] != nil {
                    attached = true
                    break
                }
                first[parent] = position
                node = parent
            }
            if !attached { roots.append(node) }
        }
        var children: [TaskID: [TaskID]] = [:]
        for (child, parent) in parentOf { children[parent, default: []].append(child) }
        var result: [(id: TaskID, level: Int, context: Bool)] = []
        result.reserveCapacity(first.count)
        func visit(_ id: TaskID, level: Int) {
            result.append((id, level, !members.contains(id)))
            for child in (children[id] ?? []).sorted(by: { first[$0]! < first[$1]! }) { visit(child, level: level + 1) }
        }
        for root in roots.sorted(by: { first[$0]! < first[$1]! }) { visit(root, level: 0) }
        return result
    }
}
