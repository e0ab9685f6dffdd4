#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TickCore

/// `tick pick` end to end, with "now" pinned to Saturday 14 March 2026, 09:30, and `--seed`.
@Suite("pick command")
struct PickCommandTests {
    /// The task object `tick pick --json` printed.
    func picked(_ result: TickResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        expectRun(result, status: 0, stderr: "", sourceLocation: sourceLocation)
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(value as? [String: Any], "not a task object: \(result.stdout)", sourceLocation: sourceLocation)
    }

    /// The title of the task `tick pick --json` picks, or nil when it prints null.
    func pickedTitle(_ sandbox: Sandbox, _ arguments: [String],
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let result = try sandbox.run(["pick", "--json"] + arguments)
        if result.stdout == "null\n" {
            expectRun(result, status: 0, stderr: "", sourceLocation: sourceLocation)
            return nil
        }
        return try picked(result, sourceLocation: sourceLocation)["title"] as? String
    }

    /// The text of every file of `folder` outside `.tick/`, by relative path.
    func listFiles(of folder: String, in sandbox: Sandbox) throws -> [String: String] {
        try sandbox.fileContents(of: folder).filter { !$0.key.hasPrefix(".tick/") }
            .mapValues { String(decoding: $0, as: UTF8.self) }
    }

    func lines(_ path: String, in sandbox: Sandbox) throws -> [String] {
        String(decoding: try sandbox.bytes(path), as: UTF8.self).components(separatedBy: "\n")
    }

    @Test("a pick shows the task as a row, with what to do next")
    func humanOutput() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--seed", "3"]), status: 0, stdout: """
            Do now
              5zz  [ ] Pay the electricity bill !!!  overdue Mar 10  · inbox

            When it is done: tick pick --done. Another one: tick pick.

            """, stderr: "")
    }

    @Test("--seed makes the pick reproducible")
    func reproducible() throws {
        let one = try Sandbox(), two = try Sandbox()
        try one.copyFolder("views")
        try two.copyFolder("views")
        for seed in ["0", "3", "12345678901234567890"] {
            let first = try one.run(["--dir", "views", "pick", "--json", "--seed", seed])
            let second = try two.run(["--dir", "views", "pick", "--json", "--seed", seed])
            expectRun(first, status: 0, stderr: "")
            expectRun(second, status: 0, stdout: first.stdout, stderr: "")
            // Without the current pick, the same seed chooses the same task again.
            expectRun(try one.run(["--dir", "views", "pick", "--clear"]), status: 0)
            expectRun(try one.run(["--dir", "views", "pick", "--json", "--seed", seed]), status: 0,
                      stdout: first.stdout, stderr: "")
            expectRun(try one.run(["--dir", "views", "pick", "--clear"]), status: 0)
            expectRun(try two.run(["--dir", "views", "pick", "--clear"]), status: 0)
        }
    }

    @Test("the choice follows the documented weights, or none with --uniform")
    func documentedWeights() throws {
        let sandbox = try Sandbox()
        // The weights the README documents, at Saturday 14 March 2026, 09:30.
        let tasks: [(line: String, weight: Int)] = [
            ("Plain", 1),
            ("Low !", 1 + 1),
            ("Flagged #flag", 1 + 3),
            ("High !!!", 1 + 4),
            ("Today due:2026-03-14", 1 + 4),
            ("Passed at nine due:2026-03-14T09:00", 1 + 6),
            ("Two days late due:2026-03-12", 1 + 6 + 2),
            ("Ten days late, medium !! due:2026-03-04", 1 + 6 + 6 + 2),
            ("In three days due:2026-03-17", 1 + 1),
            ("In a week due:2026-03-21", 1),
        ]
        try sandbox.write("w/a.md", tasks.map { "- [ ] \($0.line)\n" }.joined())
        let titles = try decodeTasks(try sandbox.run(["--dir", "w", "ls", "a", "--json"]).stdout).map { $0["title"] as? String }
        #expect(titles.count == tasks.count)
        let weights = tasks.map(\.weight)
        func choice(_ weights: [Int], seed: UInt64) -> Int {
            var generator = SeededGenerator(seed: seed)
            return Pick.choose(weights: weights, using: &generator)!
        }
        // Seeds that tell each weight from its neighbours: for every task, the first seed whose
        // choice changes when that task's weight is one more or one less.
        var seeds: Set<UInt64> = []
        for i in weights.indices {
            for delta in [-1, 1] where weights[i] + delta >= 1 {
                var other = weights
                other[i] += delta
                let seed = (UInt64(0)..<100_000).first { choice(weights, seed: $0) != choice(other, seed: $0) }
                seeds.insert(try #require(seed))
            }
        }
        for seed in seeds.sorted() {
            try? sandbox.remove("w/.tick/pick")
            #expect(try pickedTitle(sandbox, ["--dir", "w", "--seed", "\(seed)"]) == titles[choice(weights, seed: seed)],
                    "seed \(seed)")
        }
        var differ = false
        for seed in UInt64(0)..<8 {
            let uniform = choice(tasks.map { _ in 1 }, seed: seed)
            differ = differ || uniform != choice(weights, seed: seed)
            try? sandbox.remove("w/.tick/pick")
            #expect(try pickedTitle(sandbox, ["--dir", "w", "--seed", "\(seed)", "--uniform"]) == titles[uniform],
                    "seed \(seed)")
        }
        #expect(differ, "the seeds should tell the weighted choice from the uniform one")
    }

    @Test("a repeated pick never returns the current pick while another open task exists")
    func neverRepeats() throws {
        let sandbox = try Sandbox()
        // Urgent weighs 20 (overdue, capped at +12, high, flagged), Someday 1.
        try sandbox.write("w/a.md", "- [ ] Urgent !!! #flag due:2026-03-01\n- [ ] Someday\n- [x] Done\n")
        var titles: [String?] = []
        for seed in 0..<8 { titles.append(try pickedTitle(sandbox, ["--dir", "w", "--seed", "\(seed)"])) }
        let first = try #require(titles.first ?? nil)
        let other = first == "Urgent" ? "Someday" : "Urgent"
        #expect(titles == (0..<8).map { $0 % 2 == 0 ? first : other })
    }

    @Test("the only task to pick is picked again, and says so")
    func onlyTask() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/a.md", "- [ ] Alone\n")
        _ = try sandbox.run(["--dir", "w", "pick", "--seed", "1"])
        let again = try sandbox.run(["--dir", "w", "pick", "--seed", "2"])
        expectRun(again, status: 0, stderr: "")
        #expect(again.stdout.contains("[ ] Alone  · a\n  (the only task to pick from)\n"))
    }

    @Test("--done completes the current pick, changing exactly its line, and forgets it")
    func done() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        let task = try picked(try sandbox.run(["--dir", "views", "pick", "--json", "--seed", "1"]))
        let file = try #require(task["file"] as? String)
        let line = try #require(task["line"] as? Int)
        #expect(file == "inbox.md" && line == 3)
        let before = try sandbox.fileContents(of: folder)
        let linesBefore = try lines(folder + "/" + file, in: sandbox)

        // The same line as tick done prints.
        let ref = try sandbox.ref("Water the plants", dir: "views")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--done"]), status: 0,
                  stdout: "Completed \(ref) \"Water the plants\"\n", stderr: "")
        var expected = linesBefore
        expected[line - 1] = "- [x] Water the plants due:2026-03-14 done:2026-03-14"
        #expect(try lines(folder + "/" + file, in: sandbox) == expected)
        let after = try sandbox.fileContents(of: folder)
        for (path, bytes) in before where path != file && !path.hasPrefix(".tick/") {
            #expect(after[path] == bytes, "\(path) changed")
        }
        #expect(after[".tick/pick"] == nil)
        expectRun(try sandbox.run(["--dir", "views", "pick", "--done"]), status: 1, stdout: "",
                  stderr: "tick: there is no current pick; run 'tick pick' first\n")
    }

    @Test("--done finds the pick again after its list was edited behind tick's back")
    func doneAfterEdit() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        #expect(try pickedTitle(sandbox, ["--dir", "views", "--seed", "1"]) == "Water the plants")
        try sandbox.write("views/inbox.md", """
            - [ ] A new first task
            - [ ] Pay the electricity bill !!! due:2026-03-10
            - [ ] Call mum due:2026-03-14T09:00
            - [ ] Water the plants ! #flag due:2026-03-15
            - [x] Buy stamps done:2026-03-12

            """)
        let result = try sandbox.run(["--dir", "views", "pick", "--done", "--json"])
        let task = try picked(result)
        #expect(task["line"] as? Int == 4)
        #expect(task["done"] as? Bool == true)
        #expect(task["doneDate"] as? String == "2026-03-14")
        #expect(try lines(folder + "/inbox.md", in: sandbox)[3] == "- [x] Water the plants ! #flag due:2026-03-15 done:2026-03-14")
    }

    @Test("--done on a pick that is gone is a negative answer, and the pick is forgotten")
    func doneGone() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        #expect(try pickedTitle(sandbox, ["--dir", "views", "--seed", "1"]) == "Water the plants")
        try sandbox.write("views/inbox.md", "- [ ] Pay the electricity bill !!! due:2026-03-10\n")
        let before = try listFiles(of: folder, in: sandbox)
        expectRun(try sandbox.run(["--dir", "views", "pick", "--done"]), status: 1, stdout: "",
                  stderr: "tick: the picked task 'Water the plants' is no longer in inbox.md; "
                      + "run 'tick pick' for another\n")
        #expect(try listFiles(of: folder, in: sandbox) == before)
        #expect(!sandbox.exists(folder + "/.tick/pick"))
        // A remembered list that is no longer a list of the folder is never written.
        try sandbox.write("views/.tick/pick", "list: gone.md\ntitle: Water the plants\noccurrence: 0\n")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--done"]), status: 1, stdout: "",
                  stderr: "tick: the picked task 'Water the plants' is no longer in gone.md; "
                      + "run 'tick pick' for another\n")
        #expect(!sandbox.exists(folder + "/.tick/pick"))
        #expect(try listFiles(of: folder, in: sandbox) == before)
    }

    @Test("--done on a pick completed meanwhile changes nothing")
    func doneAlready() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        #expect(try pickedTitle(sandbox, ["--dir", "views", "--seed", "1"]) == "Water the plants")
        try sandbox.write("views/inbox.md", "- [x] Water the plants due:2026-03-14 done:2026-03-13\n")
        let before = try listFiles(of: folder, in: sandbox)
        let ref = try sandbox.ref("Water the plants", dir: "views")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--done"]), status: 0,
                  stdout: "No change to \(ref) \"Water the plants\": already done\n", stderr: "")
        #expect(try listFiles(of: folder, in: sandbox) == before)
        #expect(!sandbox.exists(folder + "/.tick/pick"))
    }

    @Test("--clear dismisses the current pick")
    func clear() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        _ = try sandbox.run(["--dir", "views", "pick", "--seed", "1"])
        #expect(sandbox.exists("views/.tick/pick"))
        expectRun(try sandbox.run(["--dir", "views", "pick", "--clear"]), status: 0,
                  stdout: "Dismissed the current pick.\n", stderr: "")
        #expect(!sandbox.exists("views/.tick/pick"))
        expectRun(try sandbox.run(["--dir", "views", "pick", "--clear"]), status: 0,
                  stdout: "There is no current pick.\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--clear", "--json"]), status: 0, stdout: "null\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--clear", "--quiet"]), status: 0, stdout: "", stderr: "")
    }

    @Test("--list and --view narrow what is picked from")
    func narrowing() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        for seed in 0..<4 {
            let task = try picked(try sandbox.run(["--dir", "views", "pick", "--json", "--list", "groc", "--seed", "\(seed)"]))
            #expect(task["file"] as? String == "groceries.md")
        }
        let flagged: Set<String> = ["Pears", "Write the release notes", "Book the launch room"]
        for seed in 0..<4 {
            let title = try #require(try pickedTitle(sandbox, ["--dir", "views", "--view", "flagged", "--seed", "\(seed)"]))
            #expect(flagged.contains(title))
        }
        let today: Set<String> = ["Pay the electricity bill", "Call mum", "Water the plants", "Book the launch room"]
        for seed in 0..<4 {
            let title = try #require(try pickedTitle(sandbox, ["--dir", "views", "--view", "today", "--seed", "\(seed)"]))
            #expect(today.contains(title))
        }
        #expect(try pickedTitle(sandbox, ["--dir", "views", "--view", "today", "-l", "work/projects"]) == "Book the launch room")
        #expect(try pickedTitle(sandbox, ["--dir", "views", "--view", "scheduled", "-l", "groceries"]) == nil)
    }

    @Test("all clear: a message, or null, exit 0, and nothing written")
    func allClear() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--view", "today", "--list", "groceries"]), status: 0,
                  stdout: "All clear: nothing due today in Groceries.\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "pick", "--view", "flagged", "--list", "inbox", "--json"]),
                  status: 0, stdout: "null\n", stderr: "")
        #expect(!sandbox.exists(folder + "/.tick"))

        try sandbox.write("done/a.md", "# Done\n- [x] Everything done:2026-03-01\n")
        expectRun(try sandbox.run(["--dir", "done", "pick"]), status: 0, stdout: "All clear: no open tasks.\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "done", "pick", "--json"]), status: 0, stdout: "null\n", stderr: "")
        #expect(try sandbox.fileContents(of: sandbox.path("done")).keys.sorted() == ["a.md"])
    }

    @Test("a pick writes only .tick/pick (and the .gitignore of a new .tick/)")
    func writesOnlyState() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        let before = try sandbox.fileContents(of: folder)
        _ = try sandbox.run(["--dir", "views", "pick", "--seed", "9"])
        var after = try sandbox.fileContents(of: folder)
        let ignore = after.removeValue(forKey: ".tick/.gitignore")
        #expect(ignore == Array("*\n!.gitignore\n".utf8))
        let removed = after.removeValue(forKey: ".tick/pick")
        let state = try #require(removed)
        #expect(String(decoding: state, as: UTF8.self).hasPrefix("list: "))
        #expect(after == before)
    }

    @Test("where .tick/ cannot be written, a pick still answers and simply is not remembered")
    func readOnlyState() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("w/a.md", "- [ ] One\n- [ ] Two\n")
        // sysfs refuses new files even to root, as a read-only folder would.
        try #require(FileManager.default.fileExists(atPath: "/sys/kernel"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("w/.tick"), withDestinationPath: "/sys/kernel")
        let first = try sandbox.run(["--dir", "w", "pick", "--seed", "4", "--json"])
        expectRun(first, status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "w", "pick", "--seed", "4", "--json"]), status: 0, stdout: first.stdout, stderr: "")
    }

    @Test("a folder without write permission", .enabled(if: geteuid() != 0, "root writes anywhere"))
    func readOnlyFolder() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("w/a.md", "- [ ] One\n- [ ] Two\n")
        chmod(sandbox.path("w"), 0o555)
        defer { chmod(sandbox.path("w"), 0o755) }
        expectRun(try sandbox.run(["--dir", "w", "pick", "--seed", "4"]), status: 0, stderr: "")
        #expect(!sandbox.exists("w/.tick"))
    }

    @Test("bad option combinations and values are usage errors", arguments: [
        (["--seed", "x"], "tick: invalid value 'x' for --seed: expected a whole number from 0 to 18446744073709551615\n"),
        (["--seed", "-1"], "tick: invalid value '-1' for --seed: expected a whole number from 0 to 18446744073709551615\n"),
        (["--done", "--clear"], "tick: --done and --clear do not go together\n"),
        (["--done", "--list", "inbox"], "tick: --done acts on the current pick; --list only applies when picking\n"),
        (["--clear", "--uniform"], "tick: --clear acts on the current pick; --uniform only applies when picking\n"),
        (["--view", "all"], "tick: invalid value 'all' for '--view' (expected today, flagged or scheduled)\n"),
    ])
    func usage(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "pick"] + arguments), status: 2, stdout: "", stderr: message)
        #expect(!sandbox.exists(folder + "/.tick"))
    }
}

@Suite("status command")
struct StatusCommandTests {
    @Test("one line of the counts that are not zero")
    func line() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "status"]), status: 0,
                  stdout: "2 overdue · 2 today · 3 flagged\n", stderr: "")
        // At 16:00 the launch room (due 15:00) is overdue too; two days later everything due is late.
        expectRun(try sandbox.run(["--dir", "views", "status", "--now", "2026-03-14T16:00"]), status: 0,
                  stdout: "3 overdue · 1 today · 3 flagged\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "views", "status", "--now", "2026-03-16"]), status: 0,
                  stdout: "5 overdue · 1 today · 3 flagged\n", stderr: "")
    }

    @Test("--json always has the four counts")
    func json() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "status", "--json"]), status: 0,
                  stdout: "{\"overdue\":2,\"today\":2,\"flagged\":3,\"open\":11}\n", stderr: "")
        try sandbox.write("quiet/a.md", "- [ ] Someday\n")
        expectRun(try sandbox.run(["--dir", "quiet", "status", "--json"]), status: 0,
                  stdout: "{\"overdue\":0,\"today\":0,\"flagged\":0,\"open\":1}\n", stderr: "")
    }

    @Test("nothing to say prints nothing at all, exit 0")
    func quiet() throws {
        let sandbox = try Sandbox()
        try sandbox.write("quiet/a.md", "- [ ] Someday due:2026-04-01\n- [x] Old #flag due:2026-01-01\n")
        expectRun(try sandbox.run(["--dir", "quiet", "status"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["status"]), status: 0, stdout: "", stderr: "")
        try sandbox.write("flag/a.md", "- [ ] Important #flag\n")
        expectRun(try sandbox.run(["--dir", "flag", "status"]), status: 0, stdout: "1 flagged\n", stderr: "")
    }

    @Test("colour only when asked or on a terminal")
    func colour() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        expectRun(try sandbox.run(["--dir", "views", "status", "--color", "always"]), status: 0,
                  stdout: "\u{1B}[31m2 overdue\u{1B}[0m · 2 today · \u{1B}[35m3 flagged\u{1B}[0m\n", stderr: "")
        let plain = try sandbox.run(["--dir", "views", "status"], environment: ["COLORTERM": "truecolor"])
        #expect(!plain.stdout.contains("\u{1B}["))
    }

    @Test("status writes nothing")
    func readOnly() throws {
        let sandbox = try Sandbox()
        let folder = try sandbox.copyFolder("views")
        let before = try sandbox.fileContents(of: folder)
        _ = try sandbox.run(["--dir", "views", "status"])
        _ = try sandbox.run(["--dir", "views", "status", "--json"])
        #expect(try sandbox.fileContents(of: folder) == before)
    }
}
