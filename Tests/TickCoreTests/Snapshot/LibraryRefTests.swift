import Testing
@testable import TickCore
import TickFormat

/// Refs shown by the library: a few measured one by one must equal the whole table.
@Suite("library refs")
struct LibraryRefTests {
    /// 3,000 tasks in 30 lists, task `t` of list `l` written as `line(t, l)`.
    func library(_ line: (Int, Int) -> String) -> Library {
        var documents: [(file: ListFile, document: Document)] = []
        for l in 0..<30 {
            var text = "# List \(l)\n\n"
            for t in 0..<100 { text += line(t, l) + "\n" }
            let path = "list-\(l).md"
            documents.append((ListFile(path: path, absolutePath: "/f/" + path), Document(text)))
        }
        return Library(documents: documents)
    }

    /// With repeated titles (told apart by their due dates).
    func library() -> Library {
        library { t, l in "- [ ] task \(t % 37) of \(l % 7)\(t < 37 ? "" : " due:2026-12-1\(t / 37)")" }
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

    /// Every fifth task done.
    func libraryWithDone() -> Library {
        library { t, l in "- [\(t % 5 == 0 ? "x" : " ")] job \(t) of \(l)" }
    }

    @Test("refs measured together, a few or many, equal the ones from the whole table")
    func measuredEqualsTable() {
        let whole = libraryWithDone()
        let ids = whole.ids
        _ = whole.shortRefLengths
        let expected = ids.map { whole.ref($0) }
        // 3,000 refs share their first three symbols often enough that some need four.
        #expect(expected.contains { $0.count > Ref.minimumLength })
        var random = SeededRandom(seed: 18)
        for round in 0..<20 {
            let fresh = libraryWithDone()
            let count = round == 0 ? fresh.measuredMaximum : Int.random(in: 1...fresh.measuredMaximum, using: &random)
            let some = (0..<count).map { _ in ids.randomElement(using: &random)! }
            fresh.measureRefs(some)
            #expect(fresh.refLengths.table == nil, "round \(round)")
            #expect(some.allSatisfy { fresh.refLengths.measured[fresh.position(of: $0)] != nil }, "round \(round)")
            #expect(some.map { fresh.ref($0) } == some.map { whole.ref($0) }, "round \(round)")
        }
        // More: the whole table.
        let many = libraryWithDone()
        #expect(many.measuredMaximum == ids.count / 16)
        many.measureRefs(Array(ids.prefix(many.measuredMaximum + 1)))
        #expect(many.refLengths.table != nil)
        #expect(ids.map { many.ref($0) } == expected)
    }

    @Test("the refs Tab completes are the shown refs that start with what is typed, open or done")
    func completedRefs() {
        let whole = libraryWithDone()
        _ = whole.shortRefLengths
        let ids = whole.ids
        // Words that name no ref, then prefixes of the refs of open and done tasks, each of which
        // completes at least its own task.
        var typed: [(word: String, task: TaskID?)] = ["", "2", "zz", "b9", "l", "22l", String(repeating: "2", count: 15)]
            .map { ($0, nil) }
        var random = SeededRandom(seed: 5)
        for _ in 0..<16 {
            let id = ids.randomElement(using: &random)!
            let ref = whole.ref(id)
            typed.append((String(ref.prefix(Int.random(in: 1...ref.count, using: &random))), id))
        }
        for done in [false, true] {
            for (word, source) in typed {
                let expected = ids.filter { whole.task($0).done == done && whole.ref($0).hasPrefix(word) }
                    .map { "\(whole.ref($0)) \(whole.task($0).title)" }
                let found = libraryWithDone().refs(startingWith: word, done: done).map { "\($0.ref) \($0.title)" }
                #expect(found == expected, "\(word) done: \(done)")
                if let source, whole.task(source).done == done {
                    #expect(expected.contains("\(whole.ref(source)) \(whole.task(source).title)"), "\(word)")
                }
            }
        }
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
