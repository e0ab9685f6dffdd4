import Foundation
import Testing

/// The read side on the `views` fixture folder, with "now" pinned to Saturday 14 March 2026, 09:30.
/// Expected outputs are reviewed snapshots under `Fixtures/expected`.
@Suite("views: snapshots, JSON, colour and width")
struct ViewOutputTests {
    static let snapshots: [(arguments: [String], file: String)] = [
        ([], "home.txt"),
        ([], "home.json"),
        (["today"], "today.txt"),
        (["today"], "today.json"),
        (["scheduled"], "scheduled.txt"),
        (["flagged"], "flagged.txt"),
        (["all"], "all.txt"),
        (["all", "--all"], "all-all.txt"),
        (["completed"], "completed.txt"),
        (["ls", "projects"], "ls-projects.txt"),
        (["ls", "projects", "--sort", "due"], "ls-projects-due.txt"),
        (["ls", "Projects"], "ls-projects.json"),
        (["show", "changelog"], "show-changelog.txt"),
        (["show", "release notes"], "show-release-notes.txt"),
        (["show", "stamps"], "show-stamps.json"),
        (["search", "cafe"], "search-cafe.txt"),
        (["search", "cafe"], "search-cafe.json"),
        (["search", "--all", "coffee"], "search-all-coffee.txt"),
    ]

    @Test("each view matches its snapshot", arguments: snapshots)
    func snapshot(arguments: [String], file: String) throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let json = file.hasSuffix(".json") ? ["--json"] : []
        expectRun(try sandbox.run(["--dir", "views"] + arguments + json), status: 0,
                  stdout: try Fixtures.text("expected/\(file)"), stderr: "")
    }

    @Test("Today gathers tasks due today or earlier across lists, overdue first")
    func todayAcrossLists() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let result = try sandbox.run(["--dir", "views", "today", "--json"])
        let tasks = try decodeTasks(result.stdout)
        #expect(tasks.map { $0["title"] as? String } == [
            "Pay the electricity bill", "Call mum", "Water the plants", "Book the launch room",
        ])
        #expect(Set(tasks.compactMap { $0["file"] as? String }) == ["inbox.md", "work/projects.md"])
        // An hour earlier, the call is not overdue yet and sorts after the plain date.
        let earlier = try decodeTasks(try sandbox.run(["--dir", "views", "today", "--json", "--now", "2026-03-14T08:00"]).stdout)
        #expect(earlier.map { $0["title"] as? String } == [
            "Pay the electricity bill", "Water the plants", "Call mum", "Book the launch room",
        ])
        let text = try sandbox.run(["--dir", "views", "today", "--now", "2026-03-14T08:00"]).stdout
        #expect(text.contains("[ ] Call mum  due today 09:00"))
    }

    @Test("task objects have exactly the documented keys")
    func taskKeys() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let tasks = try decodeTasks(try sandbox.run(["--dir", "views", "all", "--all", "--json"]).stdout)
        #expect(tasks.count == 15)
        let keys: Set<String> = ["ref", "id", "list", "file", "line", "title", "done", "due", "priority", "flagged",
                                 "tags", "notes", "section", "parent", "doneDate", "recurrence", "scheduled", "start", "repeat"]
        for task in tasks { #expect(Set(task.keys) == keys) }
        let child = try #require(tasks.first { $0["title"] as? String == "Ask Dana for the changelog" })
        let parent = try #require(tasks.first { $0["title"] as? String == "Write the release notes" })
        #expect(child["parent"] as? String == parent["ref"] as? String)
    }

    @Test("the home counts follow the files")
    func homeCounts() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        try sandbox.write("views/extra.md", "# Extra\n\n- [ ] One more #flag due:2026-03-01\n- [x] Old\n")
        let home = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["--dir", "views", "--json"]).stdout.utf8))
            as? [String: Any]
        #expect(home?["today"] as? Int == 5)
        #expect(home?["scheduled"] as? Int == 9)
        #expect(home?["flagged"] as? Int == 4)
        #expect(home?["all"] as? Int == 12)
        let lists = home?["lists"] as? [[String: Any]]
        #expect(lists?.map { $0["file"] as? String } == ["extra.md", "groceries.md", "inbox.md", "work/projects.md"])
        #expect(lists?.first?["open"] as? Int == 1)
        #expect(lists?.first?["done"] as? Int == 1)
    }

    @Test("an empty folder gets an empty state that says how to add the first task")
    func emptyState() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([])
        let inbox = sandbox.path("data/tick/inbox.md")
        expectRun(result, status: 0, stderr: "")
        #expect(result.stdout.hasPrefix("No lists yet in \(sandbox.path("data/tick"))\n"))
        #expect(result.stdout.contains("echo '- [ ] My first task' >> \(inbox)\n"))
        expectRun(try sandbox.run(["--json"]), status: 0,
                  stdout: "{\"today\":0,\"scheduled\":0,\"flagged\":0,\"all\":0,\"lists\":[],\"views\":[]}\n")
    }

    @Test("--list narrows a view; an unknown list is a negative answer with a suggestion")
    func listOption() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let flagged = try decodeTasks(try sandbox.run(["--dir", "views", "flagged", "--list", "groc", "--json"]).stdout)
        #expect(flagged.map { $0["title"] as? String } == ["Pears"])
        let byPath = try decodeTasks(try sandbox.run(["--dir", "views", "today", "-l", "work/projects", "--json"]).stdout)
        #expect(byPath.map { $0["title"] as? String } == ["Book the launch room"])
        expectRun(try sandbox.run(["--dir", "views", "today", "--list", "inbx"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'inbx'; did you mean 'inbox'?\n")
    }

    @Test("show takes a ref, an exact title or a unique part of one; else it lists the candidates")
    func showResolution() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let byTitle = try decodeTasks("[" + (try sandbox.run(["--dir", "views", "show", "--json", "OAT MILK"]).stdout) + "]")
        let ref = try #require(byTitle.first?["ref"] as? String)
        let byRef = try sandbox.run(["--dir", "views", "show", ref.uppercased()])
        expectRun(byRef, status: 0, stderr: "")
        #expect(byRef.stdout.hasPrefix("[ ] Oat milk\n"))
        expectRun(try sandbox.run(["--dir", "views", "show", "no such thing"]), status: 1, stdout: "",
                  stderr: "tick: no task matches 'no such thing'\n")
        let ambiguous = try sandbox.run(["--dir", "views", "show", "the"])
        expectRun(ambiguous, status: 1, stdout: "")
        #expect(ambiguous.stderr.hasPrefix("tick: 'the' matches several tasks: "))
        #expect(ambiguous.stderr.contains(#""Pay the electricity bill" (inbox, open, due 2026-03-10)"#))
        #expect(ambiguous.stderr.split(separator: "\n").count == 1)
    }

    @Test("a missing argument exits 2 naming it")
    func missingArgument() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "show"]), status: 2, stdout: "",
                  stderr: "tick: missing REF (usage: tick show REF [OPTIONS])\n")
        expectRun(try sandbox.run(["--dir", "views", "search"]), status: 2, stdout: "",
                  stderr: "tick: missing WORDS (usage: tick search WORDS... [OPTIONS])\n")
        expectRun(try sandbox.run(["ls", "--dir", "views"]), status: 2, stdout: "",
                  stderr: "tick: missing LIST (usage: tick ls LIST [OPTIONS])\n")
    }

    @Test("search ignores case and accents and needs every word; no match exits 1")
    func searchWords() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let titles = { (words: [String]) throws -> [String?] in
            try decodeTasks(try sandbox.run(["--dir", "views", "search", "--json"] + words).stdout).map { $0["title"] as? String }
        }
        #expect(try titles(["ZOE"]) == ["Write the release notes"])
        #expect(try titles(["café", "export"]) == ["Write the release notes"])
        #expect(try titles(["#TEAM"]) == ["Plan the offsite #team"])
        #expect(try titles(["the", "launch"]) == ["Book the launch room"])
        #expect(try titles(["coffee"]) == [])
        expectRun(try sandbox.run(["--dir", "views", "search", "cafe", "teapot"]), status: 1,
                  stdout: "No open task matches 'cafe teapot'.\n", stderr: "")
    }

    @Test("colour only when asked or on a terminal; NO_COLOR is honoured, --color always wins")
    func colour() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        let plain = try sandbox.run(["--dir", "views", "today"])
        #expect(!plain.stdout.contains("\u{1B}["))
        let forced = try sandbox.run(["--dir", "views", "today", "--color", "always"], environment: ["NO_COLOR": "1"])
        #expect(forced.stdout.contains("\u{1B}[31moverdue Mar 10\u{1B}[0m"))
        let never = try sandbox.run(["--dir", "views", "today", "--color=never"])
        #expect(never.stdout == plain.stdout)
        // Without colour, meaning is carried by words and symbols.
        #expect(plain.stdout.contains("!!!  overdue Mar 10"))
        #expect(plain.stdout.contains("⚑  due today 15:00"))
    }

    @Test("a list's colour: a named one from the 16-colour palette, #RRGGBB only with true colour")
    func listColours() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        try sandbox.write("views/teal.md", "---\ncolor: \"#2a9d8f\"\n---\n# Teal\n- [ ] x\n")
        let home = try sandbox.run(["--dir", "views", "--color", "always"])
        #expect(home.stdout.contains("\u{1B}[34mProjects\u{1B}[0m"))
        #expect(home.stdout.contains("  Teal"))
        let trueColor = try sandbox.run(["--dir", "views", "--color", "always"], environment: ["COLORTERM": "truecolor"])
        #expect(trueColor.stdout.contains("\u{1B}[38;2;42;157;143mTeal\u{1B}[0m"))
        let plain = try sandbox.run(["--dir", "views"], environment: ["COLORTERM": "truecolor"])
        #expect(!plain.stdout.contains("\u{1B}["))
    }

    @Test("long titles are fitted to the width")
    func fitting() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/long.md", "- [ ] " + String(repeating: "word ", count: 30) + "end !! due:2026-03-20\n")
        let result = try sandbox.run(["--dir", "w", "scheduled"], environment: ["COLUMNS": "60"])
        let row = try #require(result.stdout.split(separator: "\n").last)
        #expect(row.count == 60)
        #expect(row.hasSuffix("… !!  Mar 20"))
        let unfitted = try sandbox.run(["--dir", "w", "scheduled"])
        #expect(unfitted.stdout.contains("word end !!"))
    }

    @Test("invalid UTF-8 reaches JSON as U+FFFD")
    func invalidUTF8() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("bad")
        try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0x42, 0xFF, 0x64, 0x0A]).write(to: URL(fileURLWithPath: sandbox.path("bad/x.md")))
        let tasks = try decodeTasks(try sandbox.run(["--dir", "bad", "all", "--json"]).stdout)
        #expect(tasks.first?["title"] as? String == "B\u{FFFD}d")
    }

    @Test("skipped and unreadable files are reported on stderr; the rest still answers")
    func warnings() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.copyFolder("views")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("views/gone.md"), withDestinationPath: "nowhere.md")
        let result = try sandbox.run(["--dir", "views", "flagged", "--json"])
        expectRun(result, status: 0, stderr: "tick: warning: skipped 'gone.md': dangling symbolic link\n")
        #expect(try decodeTasks(result.stdout).count == 3)
    }

    @Test("read commands never write a list file")
    func readOnly() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        let before = try sandbox.fileContents(of: folder)
        for (arguments, file) in Self.snapshots {
            _ = try sandbox.run(["--dir", "views"] + arguments + (file.hasSuffix(".json") ? ["--json"] : []))
            #expect(try sandbox.fileContents(of: folder) == before, "after \(arguments)")
        }
    }
}

/// The task objects of a `--json` array.
func decodeTasks(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [[String: Any]], "not an array of objects: \(text)", sourceLocation: sourceLocation)
}
