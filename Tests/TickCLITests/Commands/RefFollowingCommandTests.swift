import Foundation
import Testing

/// Refs end to end after tick's own changes (README "Refs", FORMAT.md 5.9): twins have refs of their
/// own, a REF that names only twins acts on the first, a ref follows a retitle, a move, a list rename
/// and `tick id` (and the command says so), a removed task's ref says what it named, and a repeating
/// task keeps its ref.
@Suite("refs follow tick's changes")
struct RefFollowingCommandTests {
    /// The refs `tick ls LIST` shows, by row.
    static func refs(_ sandbox: Sandbox, _ list: String) throws -> [String] {
        try sandbox.run(["--dir", "tasks", "ls", list]).stdout.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ").first.map(String.init)
        }
    }

    @Test("twins and blank titles each show a ref of their own, and each ref acts on its own task")
    func twinsAddressable() throws {
        let sandbox = try Fixtures.folder(["shop.md": "# Shop\n\n- [ ] Buy milk\n- [ ] Buy milk\n- [ ] Buy milk\n- [ ] \n- [ ] \n"])
        let refs = try Self.refs(sandbox, "shop")
        #expect(refs.count == 5 && Set(refs).count == 5, "\(refs)")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", refs[1]]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "rm", refs[3]]), status: 0)
        #expect(try sandbox.read("tasks/shop.md") == "# Shop\n\n- [ ] Buy milk\n- [x] Buy milk done:2026-03-14\n- [ ] Buy milk\n- [ ] \n")
        // The others keep their refs; the removed one's says what it named.
        let open = try sandbox.run(["--dir", "tasks", "ls", "shop"]).stdout
        for k in [0, 2, 4] { #expect(open.contains("\(refs[k]) "), "\(refs[k]) in \(open)") }
        expectRun(try sandbox.run(["--dir", "tasks", "rm", refs[3]]), status: 1, stdout: "",
                  stderr: "tick: '\(refs[3])' named \"\", which tick has since removed; no task has that ref now\n")
    }

    @Test("a REF that names only twins acts on the first and says so; different candidates stay an error")
    func firstTwin() throws {
        let sandbox = try Fixtures.folder(["shop.md": "# Shop\n\n- [ ] Buy milk\n- [ ] Buy milk\n- [ ] Eggs !\n- [ ] Eggs\n"])
        let refs = try Self.refs(sandbox, "shop")
        expectRun(try sandbox.run(["--dir", "tasks", "done", "buy milk"]), status: 0,
                  stdout: "Completed 1 of 2 identical tasks \"Buy milk\" (\(refs[0]))\n", stderr: "")
        #expect(try sandbox.read("tasks/shop.md") == "# Shop\n\n- [x] Buy milk done:2026-03-14\n- [ ] Buy milk\n- [ ] Eggs !\n- [ ] Eggs\n")
        let eggs = try sandbox.run(["--dir", "tasks", "flag", "eggs"])
        #expect(eggs.status == 1)
        #expect(eggs.stderr.contains("\(refs[2]) \"Eggs\"") && eggs.stderr.contains("\(refs[3]) \"Eggs\""), "\(eggs.stderr)")
    }

    @Test("after a retitle, a move, a list rename and tick id, every earlier ref still names the task")
    func follows() throws {
        let sandbox = try Fixtures.folder(["shop.md": "# Shop\n\n- [ ] Call mum\n- [ ] Buy milk\n", "home.md": "# Home\n"])
        var shown = [try Self.refs(sandbox, "shop")[0]]
        func step(_ arguments: [String]) throws {
            let result = try sandbox.run(["--dir", "tasks"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let renamed = result.stdout.split(separator: "\n").first { $0.hasPrefix("Renamed: ") }
            let new = try #require(renamed.map { String($0.split(separator: " ").last!) }, "\(arguments): \(result.stdout)")
            #expect(renamed == "Renamed: \(shown.last!) is now \(new)"[...])
            shown.append(new)
            for ref in shown {
                let show = try sandbox.run(["--dir", "tasks", "--json", "show", ref])
                #expect(show.status == 0 && show.stdout.contains("\"title\":\"Call dad\""), "\(ref) after \(arguments): \(show)")
            }
        }
        try step(["edit", shown[0], "--title", "Call dad"])
        try step(["mv", shown.last!, "home"])
        let json = try sandbox.run(["--dir", "tasks", "--json", "id", shown.last!])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(object.first?["was"] as? String == shown.last!)
        let now = try #require(object.first?["ref"] as? String)
        #expect(now != shown.last!)
        shown.append(now)
        for ref in shown { expectRun(try sandbox.run(["--dir", "tasks", "show", ref]), status: 0) }
        // A list rename: the task has an id now, so its ref stays; Buy milk's follows it.
        let milk = try Self.refs(sandbox, "shop")[0]
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "shop", "Groceries"]), status: 0)
        let moved = try sandbox.run(["--dir", "tasks", "--json", "show", milk])
        #expect(moved.status == 0 && moved.stdout.contains("\"file\":\"groceries.md\""), "\(moved)")
        #expect(try Self.refs(sandbox, "groceries")[0] != milk)
    }

    @Test("mv PARENT forwards its subtasks' refs too, and prints a Renamed line only for the task it was named")
    func subtasksFollowTheirParent() throws {
        let sandbox = try Fixtures.folder(["shop.md": "# Shop\n\n- [ ] Party\n  - [ ] Buy milk\n  - [ ] Buy milk\n    - [ ] Call mum\n- [ ] Buy milk\n",
                                           "home.md": "# Home\n"])
        let before = try Self.refs(sandbox, "shop")
        #expect(before.count == 5 && Set(before).count == 5, "\(before)")
        let moved = try sandbox.run(["--dir", "tasks", "mv", before[0], "home"])
        let renamed = moved.stdout.split(separator: "\n").filter { $0.hasPrefix("Renamed: ") }
        let after = try Self.refs(sandbox, "home")
        #expect(moved.status == 0 && renamed == ["Renamed: \(before[0]) is now \(after[0])"], "\(moved)")
        // Each old ref names the task it named, now in home.md, at its new line.
        for (k, line) in [3, 4, 5, 6].enumerated() {
            let show = try sandbox.run(["--dir", "tasks", "--json", "show", before[k]])
            #expect(show.status == 0 && show.stdout.contains("\"ref\":\"\(after[k])\"") && show.stdout.contains("\"file\":\"home.md\",\"line\":\(line),"),
                    "\(before[k]) → \(after[k]): \(show)")
        }
        // The twin left behind keeps its ref.
        #expect(try Self.refs(sandbox, "shop") == [before[4]])
    }

    @Test("same-titled tasks that differ, reordered by hand: at tick's next change of the list their refs are gone, never the other's")
    func handReorderedTwins() throws {
        let sandbox = try Fixtures.folder(["shop.md": "# Shop\n\n- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n- [ ] Eggs\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Bread", "--list", "shop"]), status: 0)
        let open = try Self.refs(sandbox, "shop")[0]
        let done = try #require(try sandbox.run(["--dir", "tasks", "ls", "shop"]).stdout.split(separator: "\n").last { $0.contains("[x] Buy milk") })
            .split(separator: " ").first.map(String.init)
        let doneRef = try #require(done)
        // The two swapped in an editor; tick then adds a task to the list.
        try sandbox.write("tasks/shop.md", "# Shop\n\n- [x] Buy milk done:2026-03-01\n- [ ] Buy milk\n- [ ] Eggs\n- [ ] Bread\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Butter", "--list", "shop"]), status: 0)
        for (ref, other) in [(open, "\"done\":true"), (doneRef, "\"done\":false")] {
            let show = try sandbox.run(["--dir", "tasks", "--json", "show", ref])
            #expect(show.status == 1 && show.stdout.isEmpty && !show.stdout.contains(other), "\(ref): \(show)")
            #expect(show.stderr == "tick: '\(ref)' named a task that tick has since removed, moved or changed; no task has that ref now\n")
        }
        // Both tasks are shown under new refs of their own.
        let now = try Self.refs(sandbox, "shop")
        #expect(!now.contains(open) && !now.contains(doneRef) && Set(now).count == now.count, "\(now)")
    }

    @Test("a repeating task keeps its ref across completions with and without history and skips")
    func repeating() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Water plants due:2026-03-14 rec:+1w\n"])
        let ref = try Self.refs(sandbox, "home")[0]
        for arguments in [["done", ref], ["done", "--keep-history", ref], ["skip", ref], ["done", "--keep-history", ref]] {
            expectRun(try sandbox.run(["--dir", "tasks", "--quiet"] + arguments), status: 0)
            #expect(try Self.refs(sandbox, "home")[0] == ref, "after \(arguments)")
        }
        let all = try sandbox.run(["--dir", "tasks", "ls", "home"]).stdout
        #expect(all.components(separatedBy: "[x] Water plants").count == 3, "\(all)")
        // The live task's ref never names a history copy.
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "reopen", ref]), status: 0)
        #expect(try sandbox.read("tasks/home.md").hasPrefix("# Home\n\n- [ ] Water plants due:2026-04-11 rec:+1w\n- [x] "))
    }

    @Test("tick remind after a list rename, a retitle and a move reports nothing new")
    func remindFollows() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Call mum due:2026-03-14T08:00\n- [ ] Call mum due:2026-03-14T08:00\n"
                                                     + "- [ ] Dentist due:2026-03-14T09:00\n", "work.md": "# Work\n"])
        sandbox.environment["XDG_STATE_HOME"] = sandbox.path("state")
        func remind(_ now: String) throws -> TickResult {
            try sandbox.run(["--dir", "tasks", "remind"], environment: ["TICK_NOW": now])
        }
        let first = try remind("2026-03-14T09:30")
        #expect(first.status == 0 && first.stdout.split(separator: "\n").count == 3, "\(first)")
        let refs = try Self.refs(sandbox, "home")
        for (k, change) in [["list", "rename", "home", "House"], ["edit", "dentist", "--title", "Dentist visit"],
                            ["mv", refs[0], "work"], ["edit", refs[1], "--title", "Call dad"]].enumerated() {
            expectRun(try sandbox.run(["--dir", "tasks", "--quiet"] + change), status: 0)
            expectRun(try remind("2026-03-14T09:3\(5 + k % 5)"), status: 0, stdout: "", stderr: "")
        }
        // A new due moment is still a new reminder.
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "dentist visit", "2026-03-14T09:45"]), status: 0)
        #expect(try remind("2026-03-14T09:45").stdout.contains("Dentist visit"))
    }
}
