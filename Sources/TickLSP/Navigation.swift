import TickCore

// What an editor shows of the tasks without changing them: hover, the outline, folding, inlay
// hints, workspace symbols, and the commands that return locations (`tick.today`, `tick.pick`).

extension LanguageServer {
    static let commands = ["tick.today", "tick.pick"]

    // MARK: - Hover

    func hover(_ params: JSON) throws -> JSON {
        let document = try document(params)
        let position = try Position(params["position"])
        guard position.line < document.text.lineCount else { return .null }
        let now = env.now()
        let cursor = document.text.offset(position, encoding)
        // A date under the cursor: its weekday and distance.
        let lineStart = document.text.lineStarts[position.line], lineEnd = document.text.contentEnd(position.line)
        var lower = cursor, upper = cursor
        func isDateByte(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") }
        while lower > lineStart, isDateByte(document.text.bytes[lower - 1]) { lower -= 1 }
        while upper < lineEnd, isDateByte(document.text.bytes[upper]) { upper += 1 }
        if upper - lower == 10, let date = try? DueDate(parsing: String(decoding: document.text.bytes[lower..<upper], as: UTF8.self), relativeTo: now) {
            return hoverResult("\(date.day.longText(withYear: true)): \(distance(date, from: now))", document, lower, upper)
        }
        guard let i = document.buffer.task(onLine: position.line + 1) else { return .null }
        return hoverResult(describe(i, in: document, now: now), document, lineStart, lineEnd)
    }

    /// Task `i` in words, as `tick show` tells it.
    func describe(_ i: Int, in document: OpenDocument, now: Now) -> String {
        let task = document.buffer.task(i)
        var lines = ["**\(task.title)**" + (task.done ? " (done\(task.doneDate.map { " \($0)" } ?? ""))" : "")]
        if let due = task.due { lines.append("Due: \(due.nextDueText(now: now)) (\(distance(due, from: now)))") }
        if let rule = task.recurrence {
            var dates: [String] = []
            var current = task.due
            for _ in 0..<3 {
                let from = current?.day ?? now.day
                guard case .next(let next)? = try? Recurrence.next(rule, due: current, until: task.until, completed: from, today: from) else { break }
                dates.append(next.description)
                current = next
            }
            lines.append("Repeats \(rule.words) (rec:\(rule))" + (dates.isEmpty ? "" : "; next: " + dates.joined(separator: ", ")))
        }
        if task.priority != .none { lines.append("Priority: \(task.priority.name)") }
        if task.flagged { lines.append("Flagged") }
        if let ref = ref(of: i, in: document) { lines.append("Ref: \(ref)") }
        let list = document.buffer.heading ?? uriPath(document.uri).split(separator: "/").last.map(String.init) ?? document.uri
        lines.append("List: \(list)" + (task.section.map { ", section \($0)" } ?? ""))
        return lines.joined(separator: "\n\n")
    }

    /// The ref of task `i` when the saved list holds the same task at the same place: a ref names
    /// a saved task, for the command line.
    func ref(of i: Int, in document: OpenDocument) -> String? {
        // A list of the folder, whose file holds the task too (read before the folder's library is
        // made, so that the two are not held at once).
        guard savedFolder()?.open.contains(where: { $0.uri == document.uri }) == true, let path = filePath(fromURI: document.uri),
              let saved = try? env.fileSystem.readFile(path),
              saved == document.text.bytes || document.buffer.title(ofTask: i, in: saved) == document.buffer.task(i).title,
              let library = library(),
              let list = library.lists.indices.first(where: { uriPath(uri(ofList: library.lists[$0])) == path }),
              i < library.lists[list].taskCount else { return nil }
        return library.ref(TaskID(list: list, index: i))
    }

    func hoverResult(_ markdown: String, _ document: OpenDocument, _ lower: Int, _ upper: Int) -> JSON {
        .object(["contents": .object(["kind": .string("markdown"), "value": .string(markdown)]),
                 "range": document.text.range(lower, upper, encoding)])
    }

    // MARK: - Outline and folding

    /// Sections (`#` headings) holding their tasks, each task holding its subtasks; each symbol
    /// made as it is written (Reply.swift).
    func documentSymbols(_ params: JSON) throws -> Reply {
        let document = try document(params)
        let text = document.text, buffer = document.buffer, encoding = encoding
        // Each task's own subtasks, and the tasks without a parent, in order.
        var subtasks = [[Int]](repeating: [], count: buffer.taskCount)
        var roots: [Int] = []
        for i in 0..<buffer.taskCount {
            if let parent = buffer.task(i).parent { subtasks[parent].append(i) } else { roots.append(i) }
        }
        let children = subtasks
        func symbol(_ name: String, kind: Int, _ lines: ClosedRange<Int>, _ children: Reply) -> Reply {
            let first = lines.lowerBound - 1, last = min(lines.upperBound - 1, text.lineCount - 1)
            let name = name.isEmpty ? "(untitled)" : name
            return .object([("name", .value(.string(name))), ("kind", .value(.int(kind))),
                            ("range", .value(text.range(text.lineStarts[first], text.contentEnd(last), encoding))),
                            ("selectionRange", .value(text.range(text.lineStarts[first], text.contentEnd(first), encoding))),
                            ("children", children)])
        }
        func taskSymbol(_ i: Int) -> Reply {
            let task = buffer.task(i), mine = children[i]
            return symbol((task.done ? "[x] " : "[ ] ") + task.title, kind: 24, task.line...buffer.lines(of: i).upperBound,
                          .elements(count: mine.count) { taskSymbol(mine[$0]) })
        }
        // Tasks before the first heading, then each heading with the tasks up to the next one.
        enum Entry { case task(Int), section(line: Int, title: String, end: Int, tasks: [Int]) }
        let headings = headingLines(text)
        var topLevel: [Entry] = []
        var tasks = roots[...]
        let before = tasks.prefix { buffer.task($0).line < (headings.first?.line ?? Int.max) }
        topLevel += before.map(Entry.task)
        tasks = tasks.dropFirst(before.count)
        for (k, heading) in headings.enumerated() {
            let end = k + 1 < headings.count ? headings[k + 1].line - 1 : text.lineCount
            let mine = tasks.prefix { buffer.task($0).line <= end }
            tasks = tasks.dropFirst(mine.count)
            topLevel.append(.section(line: heading.line, title: heading.title, end: end, tasks: Array(mine)))
        }
        let entries = topLevel
        return .elements(count: entries.count) { k in
            switch entries[k] {
            case .task(let i): return taskSymbol(i)
            case .section(let line, let title, let end, let tasks):
                return symbol(title, kind: 3, line...max(line, end), .elements(count: tasks.count) { taskSymbol(tasks[$0]) })
            }
        }
    }

    /// The ATX headings of the text outside fenced code: (1-based) line and title.
    func headingLines(_ text: TextDocument) -> [(line: Int, title: String)] {
        var found: [(Int, String)] = []
        var fenced = false
        for line in 0..<text.lineCount {
            let content = text.lineText(line)
            let trimmed = content.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { fenced.toggle(); continue }
            guard !fenced, content.count - trimmed.count < 4, trimmed.hasPrefix("#") else { continue }
            let marks = trimmed.prefix { $0 == "#" }
            let rest = trimmed.dropFirst(marks.count)
            guard marks.count <= 6, rest.isEmpty || rest.first == " " || rest.first == "\t" else { continue }
            found.append((line + 1, rest.trimmingPrefix(while: { $0 == " " || $0 == "\t" }).description))
        }
        return found
    }

    /// A task with notes or subtasks folds from its checkbox line to its last line with content.
    func foldingRanges(_ params: JSON) throws -> Reply {
        let document = try document(params)
        var ranges: [(first: Int, last: Int)] = []
        for i in 0..<document.buffer.taskCount {
            let first = document.buffer.task(i).line - 1
            var last = min(document.buffer.lines(of: i).upperBound - 1, document.text.lineCount - 1)
            while last > first, document.text.lineText(last).allSatisfy({ $0 == " " || $0 == "\t" }) { last -= 1 }
            if last > first { ranges.append((first, last)) }
        }
        return .elements(count: ranges.count) { k in
            .value(.object(["startLine": .int(ranges[k].first), "endLine": .int(ranges[k].last)]))
        }
    }

    /// After each due token, how far it is (`in 3 days`, `overdue 2 days`); empty unless turned on.
    func inlayHints(_ params: JSON) throws -> Reply {
        let document = try document(params)
        guard inlayHints else { return .array([]) }
        let now = env.now()
        var hints: [(position: Position, label: String)] = []
        for i in 0..<document.buffer.taskCount {
            let task = document.buffer.task(i)
            guard let due = task.due, !task.done else { continue }
            let line = task.line - 1
            let bytes = Array(document.text.lineText(line).utf8), token = Array("due:\(due)".utf8)
            guard let at = bytes.indices.first(where: { bytes[$0...].starts(with: token) }) else { continue }
            let position = document.text.position(document.text.lineStarts[line] + at + token.count, encoding)
            hints.append((position, distance(due, from: now)))
        }
        return .elements(count: hints.count) { k in
            .value(.object(["position": hints[k].position.json, "label": .string(hints[k].label), "paddingLeft": .bool(true)]))
        }
    }

    // MARK: - The folder

    /// Open tasks of the folder's lists (each open one as its buffer holds it) whose words match
    /// the query, as `tick search` folds them.
    func workspaceSymbols(_ params: JSON) throws -> Reply {
        let words = (params["query"]?.string ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let library = library() else { return .array([]) }
        let ids = words.isEmpty ? library.ids.filter { !library.task($0).done } : library.search(words).map(\.id)
        return .elements(count: min(ids.count, 1000)) { k in
            let id = ids[k]
            return .value(.object(["name": .string(library.task(id).title), "kind": .int(24),
                                   "containerName": .string(library.list(id).name), "location": self.location(id, in: library)]))
        }
    }

    /// `tick.today`: the tasks of Today; `tick.pick`: the open tasks a pick chooses from, the likeliest
    /// first. Each open list is read from its buffer.
    func executeCommand(_ params: JSON) throws -> Reply {
        let command = params["command"]?.string ?? ""
        guard LanguageServer.commands.contains(command) else {
            throw ResponseError.invalidParams("unknown command '\(command)': tick lsp runs \(LanguageServer.commands.joined(separator: ", "))")
        }
        guard let library = library() else { return .array([]) }
        let now = env.now()
        var ids: [TaskID]
        if command == "tick.today" {
            ids = library.tasks(in: ViewQuery(view: .today), now: now)
        } else {
            let weights = env.settings.pickWeights
            ids = library.pickCandidates(PickScope(), now: now)
            let weight = Dictionary(uniqueKeysWithValues: ids.map { id in
                let t = library.task(id)
                return (id, weights.weight(due: t.due, priority: t.priority, flagged: t.flagged, at: now))
            })
            ids.sort { weight[$0]! > weight[$1]! }
        }
        let found = ids
        return .elements(count: found.count) { .value(self.location(found[$0], in: library)) }
    }

    /// The location of a task's checkbox line.
    func location(_ id: TaskID, in library: Library) -> JSON {
        let line = Position(line: library.task(id).line - 1, character: 0).json
        return .object(["uri": .string(uri(ofList: library.list(id))), "range": .object(["start": line, "end": line])])
    }
}

/// How far a due date is from now, in words: `today`, `tomorrow`, `in 3 days`, `overdue 2 days`.
func distance(_ due: DueDate, from now: Now) -> String {
    let days = now.days(until: due.day)
    switch days {
    case 0: return due.isOverdue(at: now) ? "overdue" : "today"
    case 1: return "tomorrow"
    case 2...: return "in \(days) days"
    case -1: return "overdue 1 day"
    default: return "overdue \(-days) days"
    }
}
