import Foundation
import Testing

/// A user's second week (issue 49): what a user of Taskwarrior, todo.txt or Obsidian Tasks expects
/// of the small things, end to end through the built binary. "Now" is Saturday 14 March 2026, 09:30.
@Suite("a user's second week")
struct SecondWeekTests {
    static let home = """
        # Home
        - [ ] Water plants #flag due:2026-03-15
        - [ ] Café visit #garden due:2026-03-14

        """

    func sandbox() throws -> Sandbox { try Fixtures.diskFolder(["home.md": Self.home]) }

    /// Runs tick on the sandbox's task folder.
    func tick(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> TickResult {
        try sandbox.run(["--dir", "tasks"] + arguments, environment: environment)
    }

    func titles(_ result: TickResult) throws -> [String] {
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        // Titles without their tags.
        return array.compactMap { ($0["title"] as? String)?.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ") }
    }

    @Test("#flag in a query finds the flagged tasks, as is:flagged (item 3)")
    func flagWord() throws {
        let sandbox = try sandbox()
        let found = try tick(sandbox, ["--json", "find", "#flag"])
        #expect(found.status == 0, "\(found)")
        #expect(try titles(found) == ["Water plants"])
        #expect(try titles(try tick(sandbox, ["--json", "find", "--", "-#flag"])) == ["Café visit"])
        #expect(try titles(try tick(sandbox, ["--json", "today", "--where", "#FLAG"])) == [])
        #expect(try tick(sandbox, ["help", "query"]).stdout.contains("#flag           a flagged task, as is:flagged"))
    }

    @Test("a listing given a query exits 1 when nothing matches; without a query an empty view exits 0 (item 6)")
    func listingExitCodes() throws {
        let sandbox = try sandbox()
        for arguments in [["find", "zzz"], ["search", "zzz"], ["today", "--where", "zzz"], ["all", "--where", "zzz"],
                          ["ls", "home", "--where", "zzz"], ["--json", "today", "--where", "zzz"],
                          ["--json", "ls", "home", "--where", "zzz"]] {
            let run = try tick(sandbox, arguments)
            #expect(run.status == 1, "\(arguments): \(run)")
        }
        for arguments in [["find", "water"], ["today", "--where", "café"], ["ls", "home", "--where", "water"],
                          ["flagged"], ["completed"], ["tomorrow"]] {
            let run = try tick(sandbox, arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
        }
        try sandbox.write("tasks/.tick/config", "view.nothing = zzz\n")
        #expect(try tick(sandbox, ["view", "nothing"]).status == 1)
    }

    @Test("tick --help's exit statuses are README's Exit codes table, word for word (item 19)")
    func exitStatusTable() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Exit codes\n").dropFirst().first)
        let readmeRows = section.components(separatedBy: "\n## ")[0].split(separator: "\n")
            .filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
            .map { row -> String in
                let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                return cells[1] + " " + cells[2].replacingOccurrences(of: "`", with: "")
            }
        #expect(readmeRows.count == 7)
        let help = try Sandbox().run(["--help"]).stdout
        let exitSection = try #require(help.components(separatedBy: "EXIT STATUS:\n").dropFirst().first)
        // Each row starts with its code; wrapped lines continue it.
        var helpRows: [String] = []
        for line in exitSection.components(separatedBy: "\n\n")[0].split(separator: "\n") {
            let words = line.split(separator: " ").joined(separator: " ")
            if line.hasPrefix("  "), line.dropFirst(2).first?.isNumber == true { helpRows.append(words) } else { helpRows[helpRows.count - 1] += " " + words }
        }
        #expect(helpRows == readmeRows)
        #expect(helpRows.contains("5 no git repository, or no remote (git-setup, sync)"))
    }

    @Test("an unknown export or import format is an unknown format, with the formats listed (item 21)")
    func unknownFormat() throws {
        let sandbox = try sandbox()
        expectRun(try tick(sandbox, ["export", "csv"]), status: 2, stdout: "",
                  stderr: "tick: unknown format 'csv' (expected json, ics, vdir, todotxt or taskwarrior; see 'tick export --help')\n")
        expectRun(try tick(sandbox, ["import", "csv", "x.csv"]), status: 2, stdout: "",
                  stderr: "tick: unknown format 'csv' (expected todotxt or taskwarrior; see 'tick import --help')\n")
        expectRun(try tick(sandbox, ["export", "jsno"]), status: 2, stdout: "",
                  stderr: "tick: unknown format 'jsno'; did you mean 'json'? (expected json, ics, vdir, todotxt or taskwarrior; "
                      + "see 'tick export --help')\n")
    }

    @Test("add --list and mv to a missing list name tick list new; add --create makes it in one change (item 15)")
    func missingList() throws {
        let sandbox = try sandbox()
        expectRun(try tick(sandbox, ["add", "Plant bulbs", "--list", "Garden"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'Garden'; tick list new Garden creates it\n")
        expectRun(try tick(sandbox, ["mv", "Water plants", "Garden Jobs"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'Garden Jobs'; tick list new 'Garden Jobs' creates it\n")
        let created = try tick(sandbox, ["add", "Plant bulbs", "--list", "Garden", "--create"])
        #expect(created.status == 0, "\(created)")
        #expect(try sandbox.read("tasks/garden.md") == "# Garden\n\n- [ ] Plant bulbs\n")
        #expect(try tick(sandbox, ["undo"]).status == 0)
        #expect(!sandbox.exists("tasks/garden.md"))
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("the README's sample configuration works as shipped: tick add succeeds with it (item 18)")
    func sampleConfiguration() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```sh\n# ~/.config/tick/config\n").dropFirst().first)
        let config = block.components(separatedBy: "```")[0]
        let sandbox = try sandbox()
        try sandbox.write("home/.config/tick/config", config)
        let added = try tick(sandbox, ["add", "Call mum"])
        #expect(added.status == 0, "\(added)")
        // A default list that does not exist names the command that creates it.
        try sandbox.write("home/.config/tick/config", "default-list = Someday\n")
        let refused = try tick(sandbox, ["add", "Call dad"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("tick list new Someday creates it"), "\(refused)")
    }

    @Test("import todo.txt reads id:VALUE as the task's id, so tick re-imports its own export and topydo's file (item 17)")
    func todoTxtIDs() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Call mum id:mum\n- [ ] Pay rent due:2026-03-20 rec:+1m until:2026-12-31\n"])
        let export = try tick(sandbox, ["export", "todotxt"])
        #expect(export.status == 0, "\(export)")
        try sandbox.write("exported.txt", export.stdout)
        try sandbox.write("topydo.txt", "Plan the trip id:1\nBook flights p:1\n")
        try sandbox.makeFolder("again")
        let again = try sandbox.run(["--dir", "again", "--quiet", "import", "todotxt", "exported.txt"])
        expectRun(again, status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("again/home.md")
                == "# home\n\n- [ ] Call mum id:mum\n- [ ] Pay rent due:2026-03-20 rec:+1m until:2026-12-31\n")
        let topydo = try sandbox.run(["--dir", "again", "--quiet", "import", "todotxt", "topydo.txt", "--list", "trip"])
        expectRun(topydo, status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("again/trip.md")
                == "# trip\n\n- [ ] Plan the trip id:1\n- [ ] Book flights p:1\n")
        #expect(try sandbox.run(["--dir", "again", "--json", "find", "plan"]).stdout.contains("\"id\":\"1\""))
    }

    /// A file holding one bad line among good ones: (format, file text, a part of the error).
    static let refusedImports: [(String, String, String)] = [
        ("todotxt", "Fine task\nWater until:2026-12-31\n", "line 2: until:2026-12-31 ends a repetition, and the task would have no rec: rule"),
        ("todotxt", "Fine task\nWater rec:+1w\n", "line 2: rec:+1w repeats from the due date, and the task would have none"),
        ("todotxt", "Fine task id:1\nOther id:a/b\n", "line 2: 'id:a/b' is not an id tick reads"),
        ("todotxt", "Fine task\nBell \u{07} here\n", "line 2: cannot write this title: it holds the control character U+0007"),
        ("taskwarrior", #"[{"description":"Fine","status":"pending"},{"description":"a\u0000b","status":"pending"}]"#,
         "record 2: cannot write this title: it holds the control character U+0000"),
        ("taskwarrior", #"[{"description":"Fine","status":"pending","annotations":[{"entry":"20260301T100000Z","description":"x\u001by"}]}]"#,
         "record 1: the notes hold the control character U+001B"),
    ]

    @Test("import refuses what tick add refuses: a rule without a due date, until: without a rule, control characters (issue 44)",
          arguments: refusedImports.indices)
    func importRefusals(_ k: Int) throws {
        let (format, text, reason) = Self.refusedImports[k]
        let sandbox = try sandbox()
        try sandbox.write("in.txt", text)
        let run = try tick(sandbox, ["import", format, sandbox.path("in.txt")])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains(reason), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tasks")).filter { !$0.hasPrefix(".") } == ["home.md"])
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("tick add refuses a control character in a title, naming it")
    func addRefusesControlCharacters() throws {
        let sandbox = try sandbox()
        expectRun(try tick(sandbox, ["add", "Ring \u{07} the bell"]), status: 2, stdout: "",
                  stderr: "tick: cannot write this title: it holds the control character U+0007\n")
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    @Test("every write command's JSON task objects say whether it changed them (item 9)")
    func jsonChanged() throws {
        let sandbox = try sandbox()
        func changed(_ arguments: [String]) throws -> [Bool] {
            let run = try tick(sandbox, ["--json"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            let array = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
            return array.map { $0["changed"] as? Bool ?? false } + (array.allSatisfy { $0["changed"] is Bool } ? [] : [false, false])
        }
        #expect(try changed(["flag", "Water plants"]) == [false])
        #expect(try changed(["flag", "Café visit"]) == [true])
        #expect(try changed(["flag", "Café visit", "Water plants"]) == [false, false])
        #expect(try changed(["unflag", "Café visit"]) == [true])
        #expect(try changed(["due", "Café visit", "2026-03-14"]) == [false])
        #expect(try changed(["priority", "Café visit", "high"]) == [true])
        #expect(try changed(["edit", "Café visit", "--priority", "high"]) == [false])
        #expect(try changed(["mv", "Café visit", "home"]) == [false])
        #expect(try changed(["add", "New one"]) == [true])
        #expect(try changed(["done", "New one"]) == [true])
        #expect(try changed(["done", "New one"]) == [false])
        #expect(try changed(["rm", "New one"]) == [true])
    }

    @Test("the home screen fits a 30-column terminal, and a 16-column one (item 20)")
    func narrowHome() throws {
        let sandbox = try sandbox()
        try sandbox.write("tasks/.tick/config", "view.garden = #garden\nview.water = water\n")
        let wide = try tick(sandbox, [], environment: ["COLUMNS": "80"])
        #expect(wide.stdout.hasPrefix("Today      1       Scheduled  2\nFlagged    1       All        2\n"
                                      + "garden     1       water      1\n"), "\(wide)")
        let narrow = try tick(sandbox, [], environment: ["COLUMNS": "30"])
        #expect(narrow.stdout.hasPrefix("Today     1  Scheduled 2\nFlagged   1  All       2\ngarden 1  water  1\n"), "\(narrow)")
        let narrowest = try tick(sandbox, [], environment: ["COLUMNS": "16"])
        #expect(narrowest.stdout.hasPrefix("Today     1\nScheduled 2\nFlagged   1\nAll       2\ngarden 1\nwater  1\n"), "\(narrowest)")
        for (result, width) in [(narrow, 30), (narrowest, 16)] {
            for line in result.stdout.split(separator: "\n") { #expect(line.count <= width, "'\(line)'") }
        }
    }

    @Test("the README's quick start runs exactly as written, and leaves the lists it says (item 18)")
    func quickStart() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Quick start\n").dropFirst().first)
        let script = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```")[0])
        #expect(script.contains("tick add"))
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("bin")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("bin/tick"), withDestinationPath: try #require(TickBinary.path))
        try sandbox.write("quickstart.sh", "set -e\n" + script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [sandbox.path("quickstart.sh")]
        process.environment = sandbox.environment.merging(["PATH": sandbox.path("bin") + ":/usr/bin:/bin"]) { $1 }
        process.currentDirectoryURL = sandbox.root
        let out = sandbox.path(".quickstart-out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = try String(contentsOfFile: out, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("Call mum"), "\(output)")
        #expect(try sandbox.read("home/tasks/groceries.md")
                == "# Groceries\n\n- [ ] Buy milk due:2026-03-15\n")
        #expect(try sandbox.read("home/tasks/inbox.md")
                == "# Inbox\n\n- [x] Call mum !! #flag due:2026-03-14 done:2026-03-14\n")
    }

    @Test("a scheduled task in Today says why it is there: ⏳ today, or the day it was scheduled (item 7)")
    func scheduledInToday() throws {
        let sandbox = try Fixtures.folder(["vault.md": """
            # Vault
            - [ ] Book the venue ⏳ 2026-03-14 📅 2026-03-20
            - [ ] Renew the lease ⏳ 2026-03-12
            - [ ] Pay the bill ⏳ 2026-03-10 📅 2026-03-14

            """])
        let today = try tick(sandbox, ["today"], environment: ["COLUMNS": "100"])
        #expect(today.status == 0, "\(today)")
        let lines = today.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Book the venue") && $0.hasSuffix("due Fri  ⏳ today  · Vault") }, "\(today.stdout)")
        #expect(lines.contains { $0.contains("Renew the lease") && $0.hasSuffix("⏳ Mar 12  · Vault") }, "\(today.stdout)")
        // Due today: the due date says why already.
        #expect(lines.contains { $0.contains("Pay the bill") && !$0.contains("⏳") }, "\(today.stdout)")
        // Other views do not say it.
        #expect(!(try tick(sandbox, ["all"]).stdout.contains("⏳")))
    }

    @Test("remind --install-timer without --exec chooses notify-send when it is on PATH, and says what it chose (item 14)")
    func remindNotify() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Dentist !!! due:2026-03-14T10:00\n- [ ] Call due:2026-03-14T10:00\n"])
        sandbox.environment["XDG_STATE_HOME"] = sandbox.path("state")
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        let unit = sandbox.path("config/systemd/user/tick-remind.service")
        // Without notify-send: the journal only, and it says so.
        let plain = try tick(sandbox, ["remind", "--install-timer"])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("No --exec and no notify-send on PATH: reminders reach only the journal"), "\(plain)")
        #expect(try String(contentsOfFile: unit, encoding: .utf8).contains(" remind\n"))
        // A notify-send that records its arguments, one per line.
        try sandbox.writeProgram("bin/notify-send", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> \(sandbox.path("notified.txt"))\necho --- >> \(sandbox.path("notified.txt"))\n")
        sandbox.environment["PATH"] = sandbox.path("bin") + ":/usr/bin:/bin"
        let chosen = try tick(sandbox, ["remind", "--install-timer"])
        #expect(chosen.status == 0, "\(chosen)")
        #expect(chosen.stdout.contains("Reminders show as desktop notifications (tick remind --notify, with \(sandbox.path("bin/notify-send")))"),
                "\(chosen)")
        #expect(try String(contentsOfFile: unit, encoding: .utf8).contains(" remind --notify\n"))
        // --notify: one notification per reminder, critical for high priority.
        let reminded = try tick(sandbox, ["remind", "--notify"], environment: ["TICK_NOW": "2026-03-14T10:00"])
        #expect(reminded.status == 0, "\(reminded)")
        let calls = try sandbox.read("notified.txt").components(separatedBy: "---\n").dropLast()
        #expect(Array(calls) == ["--app-name=tick\n--urgency=critical\n--\nDentist\ndue 2026-03-14T10:00 · Home\n",
                                 "--app-name=tick\n--urgency=normal\n--\nCall\ndue 2026-03-14T10:00 · Home\n"])
        expectRun(try tick(sandbox, ["remind", "--notify", "--exec", "notify-send"]), status: 2, stdout: "",
                  stderr: "tick: --exec and --notify both say where reminders go: give one\n")
    }

    @Test("an until: on a task repeating by a 🔁 phrase is refused, as rec:++ is, since it would hide the line's fields (item 2)")
    func obsidianUntil() throws {
        let vault = "# Vault\n\n- [ ] Water 🔁 every week 📅 2026-03-20\n"
        let sandbox = try Fixtures.folder(["vault.md": vault])
        let edit = try tick(sandbox, ["edit", "Water", "--until", "2026-12-31"])
        #expect(edit.status == 2, "\(edit)")
        #expect(edit.stderr.contains("repeats by an Obsidian Tasks 🔁 phrase, and an until: after it would hide"), "\(edit)")
        try sandbox.write("tasks/.tick/config", "obsidian.new-task-style = emoji\n")
        try sandbox.write("tasks/empty.md", "# Empty\n")
        let add = try tick(sandbox, ["add", "Stretch due:2026-03-20 rec:+1d until:2026-04-30", "--list", "Empty"])
        #expect(add.status == 2, "\(add)")
        #expect(add.stderr.contains("the task would repeat by an Obsidian Tasks 🔁 phrase"), "\(add)")
        #expect(try sandbox.read("tasks/vault.md") == vault)
        #expect(try sandbox.read("tasks/empty.md") == "# Empty\n")
        // In tick's own style the same rule and end are written.
        try sandbox.write("tasks/.tick/config", "obsidian.new-task-style = tick\n")
        let plain = try tick(sandbox, ["add", "Stretch due:2026-03-20 rec:+1d until:2026-04-30"])
        #expect(plain.status == 0, "\(plain)")
    }
}
