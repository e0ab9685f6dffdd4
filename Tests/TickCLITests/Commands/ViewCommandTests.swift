import Foundation
import Testing

/// The views and listings a new user reached for (issue 11 items 13, 15, 23, 24 and 26), on the
/// `views` fixture with "now" pinned to Saturday 14 March 2026, 09:30.
@Suite("view commands")
struct ViewCommandTests {
    @Test("status says nothing on stderr about skipped files; the other commands still warn")
    func statusIsQuiet() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.copyFolder("views")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("views/gone.md"), withDestinationPath: "nowhere.md")
        expectRun(try sandbox.run(["--dir", "views", "status"]), status: 0,
                  stdout: "2 overdue · 2 today · 3 flagged\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "status", "--json"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "flagged"]), status: 0,
                  stderr: "tick: warning: skipped 'gone.md': dangling symbolic link\n")
        let check = try sandbox.run(["--dir", "views", "check"])
        #expect(check.stdout.contains("gone.md"))
    }

    @Test("two lists of the same name are told apart by their files; a long symbol is cut to 8 columns")
    func sameNames() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/a/work.md", "---\nsymbol: 🏠🏠🏠🏠🏠🏠\n---\n# Work\n- [ ] a\n")
        try sandbox.write("w/b/work.md", "# Work\n- [ ] b\n")
        try sandbox.write("w/home.md", "# Home\n- [ ] c\n")
        let home = try sandbox.run(["--dir", "w"])
        expectRun(home, status: 0, stdout: """
            Today      0       Scheduled  0
            Flagged    0       All        3

            Lists
              🏠🏠🏠… Work (a/work.md)  1
                      Work (b/work.md)  1
                      Home              1

            """, stderr: "")
        expectRun(try sandbox.run(["--dir", "w", "all", "--list", "work"]), status: 1, stdout: "",
                  stderr: "tick: 'work' names several lists: Work (a/work.md), Work (b/work.md)\n")
        expectRun(try sandbox.run(["--dir", "w", "all", "--list", "b/work.md"]), status: 0,
                  stdout: "Work (b/work.md)\n  \(try ref(sandbox, "b"))  [ ] b\n", stderr: "")
    }

    @Test("completed shows each task's done: date, and --since keeps the latest")
    func completedSince() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let titles = { (arguments: [String]) throws -> [String?] in
            try decodeTasks(try sandbox.run(["--dir", "views", "completed", "--json"] + arguments).stdout)
                .map { $0["title"] as? String }
        }
        #expect(try titles([]) == ["Draft the outline", "Coffee beans", "Buy stamps", "Send the invitations"])
        #expect(try titles(["--since", "yesterday"]) == ["Draft the outline"])
        #expect(try titles(["--since", "2026-03-12"]) == ["Draft the outline", "Coffee beans", "Buy stamps"])
        let text = try sandbox.run(["--dir", "views", "completed", "--since", "today"])
        expectRun(text, status: 0, stdout: "Completed\n  No completed tasks.\n", stderr: "")
        let rows = try sandbox.run(["--dir", "views", "completed", "--since", "yesterday"])
        #expect(rows.stdout.hasSuffix("[x] Draft the outline  done yesterday  · Projects\n"), "\(rows)")
        let bad = try sandbox.run(["--dir", "views", "completed", "--since", "someday"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tick: not a date: 'someday'"))
        #expect(bad.stdout.isEmpty)
    }

    @Test("lists shows every list's symbol, name, colour, file and counts; --json the list objects")
    func lists() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "lists"]), status: 0, stdout: """
                 Groceries        groceries.md      2 open  1 done
                 inbox            inbox.md          3 open  1 done
              💼 Projects   blue  work/projects.md  6 open  2 done

            """, stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "lists", "--json"]), status: 0, stdout: """
            [
            {"name":"Groceries","file":"groceries.md","symbol":null,"color":null,"open":2,"done":1},
            {"name":"inbox","file":"inbox.md","symbol":null,"color":null,"open":3,"done":1},
            {"name":"Projects","file":"work/projects.md","symbol":"💼","color":"blue","open":6,"done":2}
            ]

            """, stderr: "")
        try sandbox.write("empty/.tick/.gitignore", "*\n")
        expectRun(try sandbox.run(["--dir", "empty", "lists", "--json"]), status: 0, stdout: "[]\n", stderr: "")
    }

    @Test("tomorrow and upcoming [N] show the coming days; N must be a number of days")
    func upcoming() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let titles = { (arguments: [String]) throws -> [String?] in
            try decodeTasks(try sandbox.run(["--dir", "views", "--json"] + arguments).stdout).map { $0["title"] as? String }
        }
        #expect(try titles(["tomorrow"]) == ["Ask Dana for the changelog"])
        #expect(try titles(["upcoming"]) == ["Water the plants", "Call mum", "Book the launch room",
                                             "Ask Dana for the changelog", "Write the release notes"])
        #expect(try titles(["upcoming", "1"]) == ["Water the plants", "Call mum", "Book the launch room"])
        #expect(try titles(["upcoming", "30"]).count == 6)  // Order cake on Apr 2 joins; overdue Mar 10 never
        let text = try sandbox.run(["--dir", "views", "upcoming", "2"])
        expectRun(text, status: 0, stdout: """
            Today
              p4b  [ ] Water the plants  due today  · inbox
              6gh  [ ] Call mum  overdue today 09:00  · inbox
              gd4  [ ] Book the launch room ⚑  due today 15:00  · Projects

            Tomorrow
              3hd  [ ] Ask Dana for the changelog !  due tomorrow  · Projects

            """, stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "tomorrow"]), status: 0, stdout: """
            Tomorrow, Sunday Mar 15
              3hd  [ ] Ask Dana for the changelog !  due tomorrow  · Projects

            """, stderr: "")
        for bad in ["0", "x", "-3", "99999"] {
            let result = try sandbox.run(["--dir", "views", "upcoming", bad])
            #expect(result.status == 2, "\(bad): \(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("every view says it is empty under its own header")
    func emptyStates() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/done.md", "# Done\n- [x] old done:2026-03-01\n")
        let expected: [(String, String)] = [
            ("today", "Today, Saturday Mar 14\n  Nothing due today.\n"),
            ("tomorrow", "Tomorrow, Sunday Mar 15\n  Nothing due tomorrow.\n"),
            ("upcoming", "Upcoming\n  Nothing due in the next 7 days.\n"),
            ("scheduled", "Scheduled\n  No scheduled tasks.\n"),
            ("flagged", "Flagged\n  No flagged tasks.\n"),
            ("all", "All\n  No open tasks.\n"),
        ]
        for (view, text) in expected {
            expectRun(try sandbox.run(["--dir", "w", view]), status: 0, stdout: text, stderr: "")
        }
    }

    @Test("list colours come from the one colour type: an unknown colour is shown without colour")
    func listColours() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/a.md", "---\ncolor: pink\n---\n# Pink\n- [ ] a\n")
        try sandbox.write("w/b.md", "---\ncolor: grey\n---\n# Grey\n- [ ] b\n")
        try sandbox.write("w/c.md", "---\ncolor: \"#2a9\"\n---\n# Short hex\n- [ ] c\n")
        let home = try sandbox.run(["--dir", "w", "--color", "always"], environment: ["COLORTERM": "truecolor"])
        #expect(home.stdout.contains("  Pink  "))
        #expect(!home.stdout.contains("mPink"))
        #expect(home.stdout.contains("\u{1B}[90mGrey\u{1B}[0m"))
        #expect(home.stdout.contains("\u{1B}[38;2;34;170;153mShort hex\u{1B}[0m"))
        let palette = try sandbox.run(["--dir", "w", "--color", "always"])
        #expect(palette.stdout.contains("  Short hex  "), "no true colour: no colour for a hex value")
    }

    /// The ref of the task titled `title`.
    private func ref(_ sandbox: Sandbox, _ title: String) throws -> String {
        let shown = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["--dir", "w", "show", title, "--json"]).stdout.utf8))
        return try #require((shown as? [String: Any])?["ref"] as? String)
    }
}
