import Foundation
import Testing
@testable import TickCore
import TickFormat

/// `tick find`, `--where` on the views, `--sort`, `--group`, and subtasks under their parents.
@Suite("find and --where")
struct FindCommandTests {
    static let work = """
        # Work

        - [ ] Review the report #review due:2026-03-10 !!
          - [ ] check the numbers #review
          - [ ] fix typos
        - [ ] Call or email Bob due:2026-03-14
        - [x] Old thing done:2026-03-13

        ## Errands

        - [ ] Buy milk #errands due:2026-03-16
        - [ ] Buy bread #errands

        """
    static let home = """
        # Home
        - [ ] Water plants #flag due:2026-03-15 !
        - [ ] Café visit due:2026-03-24

        """

    func sandbox() throws -> Sandbox { try Fixtures.folder(["work.md": Self.work, "home.md": Self.home]) }

    func titles(_ result: TickResult) throws -> [String] {
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        // Titles without their tags.
        return array.compactMap { ($0["title"] as? String)?.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ") }
    }

    @Test("a query as one argument or the words after --; -term is never an option")
    func queryArguments() throws {
        let sandbox = try sandbox()
        let one = try sandbox.run(["--dir", "tasks", "--json", "find", "-#review buy"])
        #expect(one.status == 0, "\(one)")
        #expect(try titles(one) == ["Buy milk", "Buy bread"])
        let words = try sandbox.run(["--dir", "tasks", "--json", "find", "--", "-#review", "buy"])
        #expect(try titles(words) == ["Buy milk", "Buy bread"])
        let q = try sandbox.run(["--dir", "tasks", "--json", "q", "#review OR cafe"])
        #expect(try titles(q) == ["Review the report", "Café visit", "check the numbers"])
        // The word or in a title is a word; OR in capitals joins.
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "call or bob"])) == ["Call or email Bob"])
        // Completed tasks only when the query is about completion, or with --all.
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "thing"])) == [])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "thing is:done"])) == ["Old thing"])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "--all", "thing"])) == ["Old thing"])
        expectRun(try sandbox.run(["--dir", "tasks", "find", "nothing-like-this"]), status: 1,
                  stdout: "No open task matches 'nothing-like-this'.\n", stderr: "")
    }

    @Test("a bad query exits 2 naming the column, and changes nothing")
    func badQuery() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "find", "#work (is:overdue"]), status: 2, stdout: "",
                  stderr: "tick: bad query at column 7: this parenthesis is never closed in '#work (is:overdue'\n")
        let unknown = try sandbox.run(["--dir", "tasks", "today", "--where", "milk colour:red"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("tick: bad query at column 6: unknown key 'colour:'"), "\(unknown)")
        let bulk = try sandbox.run(["--dir", "tasks", "done", "--where", "a)"])
        #expect(bulk.status == 2)
        #expect(bulk.stderr.hasPrefix("tick: bad query at column 2: a closing parenthesis without an opening one"))
        #expect(try sandbox.read("tasks/work.md") == Self.work)
    }

    @Test("--explain prints the tree with every date resolved, without a folder")
    func explain() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["find", "--explain", "#work (is:overdue OR due:this-week) -milk"]), status: 0, stdout: """
            AND
              tag #work
              OR
                is overdue
                due 2026-03-09..2026-03-15
              NOT
                text "milk"

            """, stderr: "")
        expectRun(try sandbox.run(["find", "--explain", "due:this-week"], environment: ["XDG_CONFIG_HOME": sandbox.path("config")]),
                  status: 0, stdout: "due 2026-03-09..2026-03-15\n")
        try sandbox.write("config/tick/config", "week-start = sunday\n")
        expectRun(try sandbox.run(["find", "--explain", "due:this-week"], environment: ["XDG_CONFIG_HOME": sandbox.path("config")]),
                  status: 0, stdout: "due 2026-03-08..2026-03-14\n", stderr: "")
    }

    @Test("a matched subtask is shown under its parent, dimmed when the parent does not match; --flat turns it off")
    func subtasksUnderParents() throws {
        let sandbox = try sandbox()
        let typos = try sandbox.ref("fix typos", dir: "tasks")
        let report = try sandbox.ref("Review the report", dir: "tasks")
        let plain = try sandbox.run(["--dir", "tasks", "find", "typos"])
        // Without colour the context parent is marked in words: `·` in the first column, and a legend.
        #expect(plain.stdout.components(separatedBy: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == ["· \(report)", "\(typos) [", "(· a", ""], "\(plain)")
        #expect(plain.stdout.hasSuffix("\n(· a parent shown for context: it does not match itself)\n"), "\(plain)")
        let colored = try sandbox.run(["--dir", "tasks", "--color", "always", "find", "typos"])
        let lines = colored.stdout.components(separatedBy: "\n")
        #expect(!colored.stdout.contains("for context") && lines.count == 3, "\(colored)")
        #expect(lines[0].hasPrefix("\u{1B}[2m") && lines[0].contains("Review the report"), "\(colored)")
        #expect(!lines[1].hasPrefix("\u{1B}[2m") && lines[1].contains("fix typos"))
        let flat = try sandbox.run(["--dir", "tasks", "find", "--flat", "typos"])
        #expect(flat.stdout.components(separatedBy: "\n").count == 2 && flat.stdout.contains("fix typos"))
        #expect(!flat.stdout.contains("Review the report"))
        // A matching parent is not dimmed, and its matching subtask stands under it.
        let both = try sandbox.run(["--dir", "tasks", "--color", "always", "find", "#review"])
        #expect(both.stdout.contains("Review the report") && both.stdout.contains("check the numbers"))
        #expect(!both.stdout.components(separatedBy: "\n").contains { $0.hasPrefix("\u{1B}[2m") }, "\(both)")
    }

    @Test("--sort shares ls's words and keys; --group groups under headings")
    func sortAndGroup() throws {
        let sandbox = try sandbox()
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "--sort", "title", "has:due"]))
                == ["Buy milk", "Café visit", "Call or email Bob", "Review the report", "Water plants"])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "--sort", "-pri,title", "has:due"]))
                == ["Review the report", "Water plants", "Buy milk", "Café visit", "Call or email Bob"])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "find", "--sort", "priority", "has:due"]))
                == ["Review the report", "Water plants", "Call or email Bob", "Buy milk", "Café visit"])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "ls", "work", "--sort", "-due"])).prefix(4)
                == ["Call or email Bob", "Review the report", "check the numbers", "fix typos"])
        #expect(try titles(sandbox.run(["--dir", "tasks", "--json", "ls", "work", "--sort", "due"]))
                == titles(sandbox.run(["--dir", "tasks", "--json", "ls", "work", "--sort", "due,file"])))
        let badSort = try sandbox.run(["--dir", "tasks", "find", "--sort", "colour", "milk"])
        #expect(badSort.status == 2 && badSort.stderr.contains("unknown sort key 'colour'"), "\(badSort)")
        let grouped = try sandbox.run(["--dir", "tasks", "find", "--group", "list", "has:due"]).stdout
        let headings = grouped.components(separatedBy: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }
        #expect(headings == ["Home", "Work"], "\(grouped)")
        let byDue = try sandbox.run(["--dir", "tasks", "find", "--group", "due", "buy OR report"]).stdout
        #expect(byDue.components(separatedBy: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }
                == ["Overdue", "Monday", "No due date"], "\(byDue)")
        let byPri = try sandbox.run(["--dir", "tasks", "today", "--group", "pri"]).stdout
        #expect(byPri.hasPrefix("Today\nMedium priority\n"), "\(byPri)")
        #expect(byPri.contains("\n\nNo priority\n"), "\(byPri)")
    }

    /// Every view with --where, run by the binary, against the brute-force evaluator over seeded random folders.
    @Test("every view --where QUERY shows exactly the brute-force matches", arguments: [3, 11] as [UInt64])
    func viewsAgainstBruteForce(seed: UInt64) throws {
        let library = randomQueryFolder(seed: seed, lists: 3, tasks: 8...20)
        let sandbox = try Sandbox()
        for (path, text) in randomQueryFolderTexts(seed: seed, lists: 3, tasks: 8...20) {
            try sandbox.write("tasks/" + path, text)
        }
        var rng = SeededGenerator(seed: seed &+ 5)
        let now = "2026-12-01T17:30"
        for view in SmartView.allCases {
            for _ in 0..<3 {
                let text = randomQuery(&rng)
                let query = try Query(parsing: text, now: bruteNow)
                let viewQuery = ViewQuery(view: view)
                let all = library.lists.indices.flatMap { l in (0..<library.lists[l].taskCount).map { TaskID(list: l, index: $0) } }
                let expected = all.filter {
                    bruteInView(viewQuery, $0, in: library, now: bruteNow) && bruteMatches(query.root, $0, in: library, now: bruteNow)
                }.map { library.ref($0) }
                let result = try sandbox.run(["--dir", "tasks", "--json", "--now", now, view.rawValue, "--where", text])
                // A query that matches nothing exits 1, as find does (README "Exit codes").
                #expect(result.status == (expected.isEmpty ? 1 : 0), "\(result)")
                let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
                let refs = array.compactMap { $0["ref"] as? String }
                #expect(Set(refs) == Set(expected), "\(view.rawValue) --where '\(text)'")
            }
        }
    }


    @Test("tick help query and the README name every key, state and field the parser knows")
    func helpQuery() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["help", "query"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for word in QueryParser.keys.map({ $0 + ":" }) + QueryState.allCases.map({ "is:" + $0.rawValue })
            + QueryField.allCases.flatMap({ ["has:" + $0.rawValue, "no:" + $0.rawValue] })
            + SavedView.groups + SortOrder.Field.allCases.map(\.rawValue) {
            #expect(help.stdout.contains(word), "tick help query does not mention \(word)")
            #expect(readme.contains(word), "README.md does not mention \(word)")
        }
    }
}
