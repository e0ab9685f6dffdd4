import Foundation
import Testing

/// The read side's acceptance story (issue 3), with lists made by editing files as a person would.
@Suite("read acceptance story")
struct ReadAcceptanceTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("lists edited by hand: Today and Flagged gather across lists, home counts follow, search finds a notes-only word")
    func story() throws {
        let sandbox = try Sandbox()
        try sandbox.write("tasks/.tick/.gitignore", "*\n")
        try sandbox.write("tasks/home.md", """
            ---
            symbol: 🏠
            color: green
            ---
            # Home

            - [ ] Call the plumber !! #flag due:2026-03-14
              The boiler makes a knocking noise at night.
            - [ ] Water the plants due:2026-03-16
            - [x] Buy light bulbs done:2026-03-10

            """)
        try sandbox.write("tasks/work.md", """
            # Work

            ## This week
            - [ ] Send the invoice !!! due:2026-03-12
            - [ ] Review the budget #flag
              - [ ] Ask Sam for the figures due:2026-03-14T09:00

            """)
        let home = try #require(try json(try sandbox.run(["--dir", "tasks", "--json"]).stdout) as? [String: Any])
        #expect(home["today"] as? Int == 3)      // invoice (overdue), plumber (today), Sam (today 09:00, overdue at 09:30)
        #expect(home["scheduled"] as? Int == 4)
        #expect(home["flagged"] as? Int == 2)
        #expect(home["all"] as? Int == 5)
        let lists = try #require(home["lists"] as? [[String: Any]])
        #expect(lists.map { $0["name"] as? String } == ["Home", "Work"])
        #expect(lists.map { $0["open"] as? Int } == [2, 3])
        #expect(lists.first?["symbol"] as? String == "🏠")

        let today = try #require(try json(try sandbox.run(["--dir", "tasks", "today", "--json"]).stdout) as? [[String: Any]])
        #expect(today.map { $0["title"] as? String } == ["Send the invoice", "Ask Sam for the figures", "Call the plumber"])
        #expect(Set(today.compactMap { $0["list"] as? String }) == ["Home", "Work"])

        let flagged = try #require(try json(try sandbox.run(["--dir", "tasks", "flagged", "--json"]).stdout) as? [[String: Any]])
        #expect(flagged.map { $0["title"] as? String } == ["Call the plumber", "Review the budget"])

        // "knocking" appears only in the plumber's notes; the hit shows that note line.
        let search = try sandbox.run(["--dir", "tasks", "search", "KNOCKING"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("Call the plumber"))
        #expect(search.stdout.contains("↳ The boiler makes a knocking noise at night."))
        let hits = try #require(try json(try sandbox.run(["--dir", "tasks", "search", "knocking", "--json"]).stdout) as? [[String: Any]])
        #expect(hits.count == 1)

        // Completing a task by hand changes the counts on the next run.
        try sandbox.write("tasks/home.md", try sandbox.read("tasks/home.md")
            .replacingOccurrences(of: "- [ ] Call the plumber", with: "- [x] Call the plumber"))
        let after = try #require(try json(try sandbox.run(["--dir", "tasks", "--json"]).stdout) as? [String: Any])
        #expect(after["today"] as? Int == 2)
        #expect(after["flagged"] as? Int == 1)
        #expect(after["all"] as? Int == 4)
    }
}
