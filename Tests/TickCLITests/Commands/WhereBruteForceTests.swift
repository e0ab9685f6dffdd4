import Testing
@testable import TickCore
import TickFormat

/// The evaluator against the brute-force one (Support/QueryBruteForce.swift): over seeded random
/// folders and many generated queries, every view narrowed by a query (what `--where` does) and
/// `find` hold exactly the tasks that the brute-force evaluator, reading each task's fields as
/// strings and dates, says match.
@Suite("query evaluator against brute force")
struct QueryBruteForceTests {
    @Test("every view narrowed by a query, and find, hold exactly the brute-force matches", arguments: 1...8)
    func views(seed: UInt64) throws {
        let library = randomQueryFolder(seed: seed)
        var rng = SeededGenerator(seed: seed &* 31)
        let all = library.lists.indices.flatMap { l in (0..<library.lists[l].taskCount).map { TaskID(list: l, index: $0) } }
        var nonEmpty = 0
        for _ in 0..<60 {
            let text = randomQuery(&rng)
            let query = try Query(parsing: text, now: bruteNow)
            let matching = Set(all.filter { bruteMatches(query.root, $0, in: library, now: bruteNow) })
            if !matching.isEmpty, matching.count < all.count { nonEmpty += 1 }
            for view in SmartView.allCases {
                let viewQuery = ViewQuery(view: view, includeCompleted: Bool.random(using: &rng))
                let shown = library.tasks(in: viewQuery, now: bruteNow)
                let narrowed = library.filter(shown, by: query, now: bruteNow)
                let expected = all.filter { bruteInView(viewQuery, $0, in: library, now: bruteNow) && matching.contains($0) }
                #expect(Set(narrowed) == Set(expected), "\(view) --where '\(text)' (seed \(seed))")
                #expect(narrowed == shown.filter(Set(narrowed).contains), "the view's order is kept")
            }
            let found = library.find(query, now: bruteNow)
            let expected = matching.filter { query.mentionsCompletion || !library.task($0).done }
            #expect(Set(found) == expected, "find '\(text)' (seed \(seed))")
            #expect(Set(library.find(query, now: bruteNow, includeCompleted: true)) == matching, "find --all '\(text)'")
        }
        // The generated queries are not all trivially empty or all-matching.
        #expect(nonEmpty >= 20)
    }
}
