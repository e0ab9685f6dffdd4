import Testing
@testable import TickCore
import TickFormat

/// Refs shown by the library: a few measured one by one must equal the whole table.
@Suite("library refs")
struct LibraryRefTests {
    /// 3,000 tasks in 30 lists, with repeated titles (told apart by their due dates).
    func library() -> Library {
        var documents: [(file: ListFile, document: Document)] = []
        for l in 0..<30 {
            var text = "# List \(l)\n\n"
            for t in 0..<100 { text += "- [ ] task \(t % 37) of \(l % 7)\(t < 37 ? "" : " due:2026-12-1\(t / 37)")\n" }
            let path = "list-\(l).md"
            documents.append((ListFile(path: path, absolutePath: "/f/" + path), Document(text)))
        }
        return Library(documents: documents)
    }

    @Test("a short ref measured alone equals the one from the whole table")
    func singleEqualsTable() {
        let table = library()
        let ids = table.ids
        let expected = ids.map { table.ref($0) }      // forces nothing yet: first lookups are single
        let fresh = library()
        _ = fresh.shortRefLengths                     // the whole table
        #expect(ids.map { fresh.ref($0) } == expected)
        #expect(expected.allSatisfy { $0.count >= Ref.minimumLength })
        #expect(Set(expected).count == expected.count)
    }
}

@Suite("view order at the edges of the calendar")
struct ViewOrderEdgeTests {
    @Test("dues from year 1 to 9999, times, none and priorities sort as the views promise")
    func extremes() {
        let text = """
            - [ ] none high !!!
            - [ ] late due:9999-12-31T23:59
            - [ ] late day due:9999-12-31
            - [ ] early due:0001-01-01
            - [ ] epoch low ! due:1970-01-01
            - [ ] epoch high !!! due:1970-01-01
            - [ ] epoch timed due:1970-01-01T00:00
            - [x] done old done:0001-01-02
            - [x] done new done:9999-12-30
            - [x] done never

            """
        let library = Library(documents: [(ListFile(path: "a.md", absolutePath: "/f/a.md"), Document(text))])
        let now = Now(day: Day(year: 2026, month: 11, day: 30)!, minutes: 600)
        let scheduled = library.tasks(in: ViewQuery(view: .scheduled), now: now).map { library.task($0).title }
        #expect(scheduled == ["early", "epoch high", "epoch low", "epoch timed", "late day", "late"])
        let all = library.tasks(in: ViewQuery(view: .all, includeCompleted: true), now: now).map { library.task($0).title }
        #expect(all == ["early", "epoch high", "epoch low", "epoch timed", "late day", "late", "none high",
                        "done old", "done new", "done never"])
        let completed = library.tasks(in: ViewQuery(view: .completed), now: now).map { library.task($0).title }
        #expect(completed == ["done new", "done old", "done never"])
    }
}
