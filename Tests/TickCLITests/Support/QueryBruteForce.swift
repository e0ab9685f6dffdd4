@testable import TickCore
import TickFormat

// A brute-force query evaluator, seeded random folders and seeded random queries, for checking the
// evaluator and every view's --where against it (WhereBruteForceTests, FindCommandTests).

/// Tuesday 1 December 2026, 17:30.
let bruteNow = Now(day: Day(year: 2026, month: 12, day: 1)!, minutes: 17 * 60 + 30)

/// Whether task `id` matches `node`, worked out from the task's fields one by one.
func bruteMatches(_ node: QueryNode, _ id: TaskID, in library: Library, now: Now) -> Bool {
    switch node {
    case .and(let nodes): return nodes.allSatisfy { bruteMatches($0, id, in: library, now: now) }
    case .or(let nodes): return nodes.contains { bruteMatches($0, id, in: library, now: now) }
    case .not(let node): return !bruteMatches(node, id, in: library, now: now)
    case .term(let term):
        let task = library.task(id)
        func fold(_ text: String) -> [UInt8] { Folding.fold(text) }
        func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        func inRange(_ day: Day?, _ filter: DateFilter) -> Bool {
            switch filter {
            case .none: return day == nil
            case .any: return day != nil
            case .range(let first, let last):
                guard let day else { return false }
                return (first.map { day >= $0 } ?? true) && (last.map { day <= $0 } ?? true)
            }
        }
        switch term {
        case .text(let text):
            let titleAndTags = fold(task.title + task.tags.map { " #" + $0 }.joined())
            return holds(titleAndTags, fold(text)) || holds(fold(library.notes(id)), fold(text))
        case .tag(let tag):
            return task.tags.contains { fold($0) == fold(tag) || fold($0).starts(with: fold(tag) + [UInt8(ascii: "/")]) }
        case .list(let name):
            let lists = library.lists
            let exact = lists.indices.filter {
                lists[$0].file.path == name || fold(lists[$0].name) == fold(name) || fold(lists[$0].file.baseName) == fold(name)
            }
            if !exact.isEmpty { return exact.contains(id.list) }
            return fold(lists[id.list].name).starts(with: fold(name)) || fold(lists[id.list].file.baseName).starts(with: fold(name))
        case .section(let name): return task.section.map { fold($0) == fold(name) } ?? false
        case .state(let state):
            switch state {
            case .open: return !task.done
            case .done: return task.done
            case .overdue: return !task.done && (task.due?.isOverdue(at: now) ?? false) && !bruteStartsLater(task, now: now)
            case .today: return bruteIsForToday(task, now: now)
            case .flagged: return task.flagged
            case .recurring: return task.recurrence != nil
            case .subtask: return task.parent != nil
            case .parent: return !library.children(of: id).isEmpty
            }
        case .has(let field, let has):
            switch field {
            case .due: return (task.due != nil) == has
            case .notes: return !library.notes(id).isEmpty == has
            case .tags: return !task.tags.isEmpty == has
            case .priority: return (task.priority != .none) == has
            }
        case .priority(let lowest, let highest): return (lowest...max(lowest, highest)).contains(task.priority.rawValue) && lowest <= highest
        case .due(let filter): return inRange(task.due?.day, filter)
        case .doneDate(let filter): return inRange(task.doneDate, filter)
        case .scheduled(let filter): return inRange(task.scheduled, filter)
        case .start(let filter): return inRange(task.start, filter)
        }
    }
}

/// Whether a task belongs to a view, from its fields.
func bruteInView(_ query: ViewQuery, _ id: TaskID, in library: Library, now: Now) -> Bool {
    let task = library.task(id)
    if let list = query.list, id.list != list { return false }
    guard !task.done || query.includeCompleted || query.view == .completed else { return false }
    let today = now.day
    switch query.view {
    case .today: return bruteIsForToday(task, now: now)
    case .tomorrow: return task.due.map { $0.day == today.adding(days: 1) } ?? false
    case .upcoming: return task.due.map { $0.day >= today && $0.day < today.adding(days: query.days) } ?? false
    case .scheduled: return task.due != nil
    case .flagged: return task.flagged
    case .all: return true
    case .completed: return task.done
    }
}

/// Whether a task has a start date after today.
func bruteStartsLater(_ task: TaskInfo, now: Now) -> Bool { task.start.map { $0 > now.day } ?? false }

/// Today, as README says: due or scheduled today or earlier, and not starting after today.
func bruteIsForToday(_ task: TaskInfo, now: Now) -> Bool {
    let due = task.due.map { $0.day <= now.day } ?? false
    let scheduled = task.scheduled.map { $0 <= now.day } ?? false
    return (due || scheduled) && !bruteStartsLater(task, now: now)
}

/// A library of seeded random lists (`randomQueryFolderTexts`).
func randomQueryFolder(seed: UInt64, lists: Int = 4, tasks: ClosedRange<Int> = 10...40) -> Library {
    let files = randomQueryFolderTexts(seed: seed, lists: lists, tasks: tasks).sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    return Library(documents: files.map { path, text in
        (file: ListFile(path: path, absolutePath: "/folder/" + path), document: Document(text))
    })
}

/// Seeded random lists full of what queries look at: paths and texts.
func randomQueryFolderTexts(seed: UInt64, lists: Int = 4, tasks: ClosedRange<Int> = 10...40) -> [(String, String)] {
    var rng = SeededGenerator(seed: seed)
    let names = ["Work", "Café", "home", "Errands Later", "Éco"]
    let paths = ["work.md", "cafe.md", "home/garden.md", "errands.md", "eco.md"]
    let words = ["milk", "call", "Café", "report", "or", "NOT", "buy", "Zoë", "plumber", "tax"]
    let tags = ["work", "home", "work/urgent", "Café", "errands", "flag"]
    var files: [(String, String)] = []
    for l in 0..<min(lists, names.count) {
        var text = "# \(names[l])\n\n"
        var depth = 0
        for t in 0..<Int.random(in: tasks, using: &rng) {
            if t > 0, t % 7 == 0 { text += "\n## " + ["Errands", "Later", "Café"].randomElement(using: &rng)! + "\n\n"; depth = 0 }
            depth = t == 0 || t % 7 == 0 ? 0 : Int.random(in: 0...min(depth + 1, 2), using: &rng)
            let indent = String(repeating: "  ", count: depth)
            let done = Int.random(in: 0..<4, using: &rng) == 0
            var line = indent + (done ? "- [x] " : "- [ ] ")
            line += (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            for _ in 0..<Int.random(in: 0...2, using: &rng) { line += " #" + tags.randomElement(using: &rng)! }
            if Bool.random(using: &rng) {
                let day = bruteNow.day.adding(days: Int.random(in: -12...12, using: &rng))
                line += " due:\(day)" + (Int.random(in: 0..<3, using: &rng) == 0 ? "T\(Int.random(in: 10...23, using: &rng)):05" : "")
                if Int.random(in: 0..<5, using: &rng) == 0 { line += " rec:1w" }
            }
            // Scheduled and start days, as the Obsidian Tasks signifiers and as Dataview fields.
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let day = bruteNow.day.adding(days: Int.random(in: -4...4, using: &rng))
                line += Bool.random(using: &rng) ? " ⏳ \(day)" : " [scheduled:: \(day)]"
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let day = bruteNow.day.adding(days: Int.random(in: -4...4, using: &rng))
                line += Bool.random(using: &rng) ? " 🛫 \(day)" : " [start:: \(day)]"
            }
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: line += " !"
            case 1: line += " !!"
            case 2: line += " !!!"
            default: break
            }
            if done, Bool.random(using: &rng) { line += " done:\(bruteNow.day.adding(days: Int.random(in: -20...0, using: &rng)))" }
            text += line + "\n"
            if Int.random(in: 0..<4, using: &rng) == 0 {
                text += indent + "  a note: " + words.randomElement(using: &rng)! + "\n"
            }
        }
        files.append((paths[l], text))
    }
    return files
}

/// A seeded random query, as text: terms of every kind, negated, joined by AND, OR, NOT and parentheses.
func randomQuery(_ rng: inout SeededGenerator, depth: Int = 0) -> String {
    let terms = [
        "milk", "call", "cafe", "CAFÉ", "or", "zoe", "\"buy milk\"", "\"plumber #work\"", "note",
        "#work", "#home", "#cafe", "#Work/urgent", "#errands", "#flag",
        "list:work", "list:caf", "list:home/garden.md", "list:\"Errands Later\"", "in:errands", "in:later", "in:CAFE",
        "is:open", "is:done", "is:overdue", "is:today", "is:flagged", "is:recurring", "is:subtask", "is:parent",
        "has:due", "has:notes", "has:tags", "has:priority", "no:due", "no:notes", "no:tags", "no:priority",
        "pri:>=2", "pri:high", "pri:<medium", "pri:none", "pri:>high", "!", "!!", "!!!",
        "due:today", "due:+3d", "due:-1d", "due:<today", "due:<=+2d", "due:>today", "due:this-week", "due:next-week",
        "due:this-month", "due:2026-12", "due:2026-W49", "due:none", "due:any", "due:today..+7d", "due:..yesterday",
        "due:-3d..", "due:>=2026-11", "done:today", "done:<today", "done:none", "done:any", "done:this-week",
        "done:-5d..today", "scheduled:today", "scheduled:<=today", "scheduled:none", "scheduled:any",
        "scheduled:-2d..+2d", "start:>today", "start:<=today", "start:none", "start:any", "start:this-week",
    ]
    var parts: [String] = []
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
        var part: String
        switch Int.random(in: 0..<10, using: &rng) {
        case 0 where depth < 2: part = "(" + randomQuery(&rng, depth: depth + 1) + ")"
        case 1 where depth < 2: part = "NOT " + terms.randomElement(using: &rng)!
        default: part = terms.randomElement(using: &rng)!
        }
        if Int.random(in: 0..<5, using: &rng) == 0, !part.hasPrefix("NOT"), !part.hasPrefix("(") { part = "-" + part }
        if Int.random(in: 0..<4, using: &rng) == 0 { part += " OR " + terms.randomElement(using: &rng)! }
        parts.append(part)
    }
    return parts.joined(separator: " ")
}

