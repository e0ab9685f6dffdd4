import Foundation
import Testing
@testable import TickCore
import TickFormat

/// Each smart view, and `tick status`, against the query that names the same tasks (README,
/// "Queries"), over seeded random folders with due, scheduled and start days: the view, the query
/// and the brute-force reading of README's words (Support/QueryBruteForce.swift) agree.
@Suite("views agree with their queries")
struct ViewQueryAgreementTests {
    /// Each view, with and without `--all`, and the query that finds its tasks (`find`, and
    /// `find --all` for the view's `--all`).
    static let pairs: [(view: SmartView, query: String, all: String)] = [
        (.today, "is:today", "is:today"),
        (.tomorrow, "due:tomorrow", "due:tomorrow"),
        (.upcoming, "due:today..+6d", "due:today..+6d"),
        (.scheduled, "has:due", "has:due"),
        (.flagged, "is:flagged", "is:flagged"),
        (.all, "is:open", "is:open OR is:done"),
        (.completed, "is:done", "is:done"),
    ]

    /// Every task of a library.
    static func ids(_ library: Library) -> [TaskID] {
        library.lists.indices.flatMap { l in (0..<library.lists[l].taskCount).map { TaskID(list: l, index: $0) } }
    }

    @Test("each view holds exactly its query's tasks, and the brute-force ones", arguments: 1...12)
    func views(seed: UInt64) throws {
        let library = randomQueryFolder(seed: seed)
        let all = Self.ids(library)
        for (view, text, allText) in Self.pairs {
            for includeCompleted in [false, true] {
                let viewQuery = ViewQuery(view: view, includeCompleted: includeCompleted)
                let shown = Set(library.tasks(in: viewQuery, now: bruteNow))
                let query = try Query(parsing: includeCompleted ? allText : text, now: bruteNow)
                let found = Set(library.find(query, now: bruteNow, includeCompleted: includeCompleted))
                let brute = Set(all.filter { bruteInView(viewQuery, $0, in: library, now: bruteNow) })
                let flag = includeCompleted ? " --all" : ""
                #expect(shown == found, "tick \(view.rawValue)\(flag) against tick find\(flag) '\(query.text)' (seed \(seed))")
                #expect(shown == brute, "tick \(view.rawValue)\(flag) against README's words (seed \(seed))")
            }
        }
    }

    @Test("status and the home screen count with the views' own rules", arguments: 1...12)
    func counts(seed: UInt64) throws {
        let library = randomQueryFolder(seed: seed)
        func count(_ text: String) throws -> Int { library.find(try Query(parsing: text, now: bruteNow), now: bruteNow).count }
        let status = library.statusCounts(now: bruteNow)
        #expect(status == StatusCounts(overdue: try count("is:overdue"), today: try count("is:today -is:overdue"),
                                       flagged: try count("is:flagged"), open: try count("is:open")), "seed \(seed)")
        let home = library.counts(now: bruteNow)
        #expect(home.today == library.tasks(in: ViewQuery(view: .today), now: bruteNow).count)
        #expect(home.scheduled == library.tasks(in: ViewQuery(view: .scheduled), now: bruteNow).count)
        #expect(home.flagged == library.tasks(in: ViewQuery(view: .flagged), now: bruteNow).count)
        #expect(home.all == library.tasks(in: ViewQuery(view: .all), now: bruteNow).count)
        // Overdue tasks are Today's first ones.
        let today = library.tasks(in: ViewQuery(view: .today), now: bruteNow)
        let overdue = Set(library.find(try Query(parsing: "is:overdue", now: bruteNow), now: bruteNow))
        #expect(today.prefix(overdue.count).allSatisfy(overdue.contains), "seed \(seed)")
    }

    @Test("the seeded folders hold the tasks where the rules differ from the due day alone")
    func foldersAreTelling() {
        var startsLaterButDue = 0, scheduledOnly = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            let library = randomQueryFolder(seed: seed)
            for id in Self.ids(library) {
                let task = library.task(id)
                if bruteStartsLater(task, now: bruteNow), task.due?.isOverdue(at: bruteNow) == true { startsLaterButDue += 1 }
                if task.due == nil, let day = task.scheduled, day <= bruteNow.day, !bruteStartsLater(task, now: bruteNow) {
                    scheduledOnly += 1
                }
            }
        }
        #expect(startsLaterButDue >= 5)
        #expect(scheduledOnly >= 5)
    }

    /// The binary's views, `find` and `status` over the same seeded folders.
    @Test("tick VIEW, tick find QUERY and tick status agree when run", arguments: [2, 7] as [UInt64])
    func binary(seed: UInt64) throws {
        let sandbox = try Sandbox()
        for (path, text) in randomQueryFolderTexts(seed: seed) { try sandbox.write("tasks/" + path, text) }
        let base = ["--dir", "tasks", "--json", "--now", "2026-12-01T17:30"]
        func refs(_ arguments: [String]) throws -> Set<String> {
            let result = try sandbox.run(base + arguments)
            let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            // find exits 1 when nothing matches; a view shows an empty array.
            #expect(result.status == 0 || (arguments[0] == "find" && result.status == 1 && rows.isEmpty), "\(arguments): \(result)")
            return Set(rows.compactMap { $0["ref"] as? String })
        }
        for (view, text, allText) in Self.pairs {
            let shown = try refs([view.rawValue])
            #expect(!shown.isEmpty || view == .tomorrow, "tick \(view.rawValue) shows something (seed \(seed))")
            #expect(shown == (try refs(["find", text])), "tick \(view.rawValue) against find '\(text)' (seed \(seed))")
            guard view != .completed else { continue }  // its tasks are done ones: it takes no --all
            #expect(try refs([view.rawValue, "--all"]) == (try refs(["find", "--all", allText])),
                    "tick \(view.rawValue) --all against find --all '\(allText)' (seed \(seed))")
        }
        let status = try sandbox.run(base + ["status"])
        let counts = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Int] ?? [:]
        #expect(counts["overdue"] == (try refs(["find", "is:overdue"])).count, "seed \(seed)")
        #expect(counts["today"] == (try refs(["find", "is:today -is:overdue"])).count, "seed \(seed)")
        #expect(counts["flagged"] == (try refs(["find", "is:flagged"])).count, "seed \(seed)")
        #expect(counts["open"] == (try refs(["find", "is:open"])).count, "seed \(seed)")
    }
}
