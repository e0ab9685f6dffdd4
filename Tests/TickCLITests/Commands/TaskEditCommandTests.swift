import Foundation
import Testing

/// The one-field edits end to end. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("done, reopen, flag, unflag, due and priority")
struct TaskEditCommandTests {

    @Test("done completes several tasks, a parent with its open subtasks, in one change and one undo; reopen leaves the subtasks")
    func doneAndReopen() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let done = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "done"] + arguments) }
        let completed = Fixtures.home
            .replacingOccurrences(of: "- [ ] Call the plumber !! due:2026-03-20", with: "- [x] Call the plumber !! due:2026-03-20 done:2026-03-14")
            .replacingOccurrences(of: "- [ ] Paint the fence", with: "- [x] Paint the fence done:2026-03-14")
            .replacingOccurrences(of: "  - [ ] Buy paint", with: "  - [x] Buy paint done:2026-03-14")
            .replacingOccurrences(of: "  - [ ] Sand the boards", with: "  - [x] Sand the boards done:2026-03-14")
        expectRun(try done([plumber, "paint the fence"]), status: 0,
                  stdout: "Completed \(plumber) \"Call the plumber\"\nCompleted \(fence) \"Paint the fence\" and 2 open subtasks\n",
                  stderr: "")
        #expect(try sandbox.read("tasks/home.md") == completed)
        // One change: one undo brings every line back.
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0,
                  stdout: "Undid: completed \"Call the plumber\", \"Paint the fence\"\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)

        // A subtask done already stays as it is; the count names only the ones completed now.
        expectRun(try done(["buy paint"]), status: 0)
        let buyPaint = "  - [x] Buy paint done:2026-03-14"
        expectRun(try done(["fence"]), status: 0,
                  stdout: "Completed \(fence) \"Paint the fence\" and 1 open subtask\n", stderr: "")
        expectRun(try done([plumber, "fence"]), status: 0,
                  stdout: "Completed \(plumber) \"Call the plumber\"\n"
                      + "No change to \(fence) \"Paint the fence\": already done\n")
        #expect(try sandbox.read("tasks/home.md") == completed)
        expectRun(try sandbox.run(["--dir", "tasks", "reopen", "fence", "fix the light"]), status: 0)
        let expected = completed
            .replacingOccurrences(of: "- [x] Paint the fence done:2026-03-14", with: "- [ ] Paint the fence")
            .replacingOccurrences(of: "- [x] Fix the light done:2026-03-01", with: "- [ ] Fix the light")
        #expect(try sandbox.read("tasks/home.md") == expected)
        #expect(expected.contains(buyPaint))
    }

    @Test("a change that changes nothing says so in one wording, writes nothing and journals nothing")
    func noOps() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        let water = try sandbox.ref("Water the plants", dir: "tasks")
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let cases: [([String], String)] = [
            (["flag", "water"], "No change to \(water) \"Water the plants\": already flagged\n"),
            (["unflag", "fence"], "No change to \(fence) \"Paint the fence\": already not flagged\n"),
            (["due", "fence", "none"], "No change to \(fence) \"Paint the fence\": already without a due date\n"),
            (["due", "plumber", "2026-03-20"], "No change to \(plumber) \"Call the plumber\": already due 2026-03-20\n"),
            (["priority", "plumber", "medium"], "No change to \(plumber) \"Call the plumber\": already priority medium\n"),
            (["priority", "fence", "none"], "No change to \(fence) \"Paint the fence\": already without a priority\n"),
            (["reopen", "fence"], "No change to \(fence) \"Paint the fence\": already open\n"),
            (["edit", "plumber", "--append-note", ""], "No change to \(plumber) \"Call the plumber\": already with nothing to append\n"),
            (["edit", "plumber", "--priority", "medium", "--title", "Call the plumber"], "No change to \(plumber) \"Call the plumber\"\n"),
            (["mv", "water", "home"], "No change to \(water) \"Water the plants\": already in Home\n"),
        ]
        for (arguments, line) in cases {
            expectRun(try sandbox.run(["--dir", "tasks"] + arguments), status: 0, stdout: line, stderr: "")
            #expect(try sandbox.read("tasks/home.md") == Fixtures.home, "\(arguments)")
        }
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("flag, unflag, due and priority change only their token")
    func tokens() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let run = { (arguments: [String]) throws -> TickResult in try sandbox.run(["--dir", "tasks", "--quiet"] + arguments) }
        expectRun(try run(["flag", "plumber", "fence"]), status: 0, stdout: "")
        expectRun(try run(["unflag", "water"]), status: 0, stdout: "")
        expectRun(try run(["due", "plumber", "none"]), status: 0, stdout: "")
        expectRun(try run(["due", "fence", "next", "week"]), status: 0, stdout: "")
        expectRun(try run(["priority", "plumber", "high"]), status: 0, stdout: "")
        expectRun(try run(["priority", "fence", "none"]), status: 0, stdout: "")
        let expected = Fixtures.home
            .replacingOccurrences(of: "- [ ] Call the plumber !! due:2026-03-20", with: "- [ ] Call the plumber !!! #flag")
            .replacingOccurrences(of: "- [ ] Paint the fence", with: "- [ ] Paint the fence #flag due:2026-03-16")
            .replacingOccurrences(of: "- [ ] Water the plants #flag", with: "- [ ] Water the plants")
        #expect(try sandbox.read("tasks/home.md") == expected)
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "due", "plumber", "2026-04-01T08:15"]), status: 0,
                  stdout: "Due 2026-04-01T08:15: \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "priority", "plumber", "low"]), status: 0,
                  stdout: "Priority low: \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "unflag", "plumber"]), status: 0,
                  stdout: "Unflagged \(plumber) \"Call the plumber\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "priority", "plumber", "urgent"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'urgent' for LEVEL: expected none, low, medium or high\n")
    }

    @Test("--json prints the changed tasks as the read side's task objects")
    func jsonOutput() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let result = try sandbox.run(["--dir", "tasks", "--json", "done", "plumber", "fence"])
        #expect(result.status == 0)
        let changed = try decodeTasks(result.stdout)
        #expect(changed.map { $0["title"] as? String } == ["Call the plumber", "Paint the fence"])
        #expect(changed.map { $0["doneDate"] as? String } == ["2026-03-14", "2026-03-14"])
        // Object for object, the text that `tick completed --json` prints for the same tasks, with
        // the ref each had before the change as "was", after "ref", and `"changed":true` (README
        // "JSON for scripts").
        #expect(changed.allSatisfy { $0["was"] as? String == $0["ref"] as? String })
        let objects = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
            .map { Substring($0.replacingOccurrences(of: #","was":"[^"]*""#, with: "", options: .regularExpression)) }
            .map { line -> Substring in
                #expect(line.hasSuffix(#","changed":true}"#), "\(line)")
                return line.dropLast(#","changed":true}"#.count) + "}"
            }
        let shown = try sandbox.run(["--dir", "tasks", "--json", "completed"]).stdout.split(separator: "\n")
            .map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
        #expect(objects.count == 2)
        for object in objects { #expect(shown.contains(object), "\(object)") }
    }

    @Test("--quiet prints nothing for every write command")
    func quiet() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        for arguments in [["add", "New"], ["done", "plumber"], ["reopen", "plumber"], ["flag", "fence"], ["unflag", "fence"],
                          ["due", "fence", "eom"], ["priority", "fence", "medium"], ["edit", "fence", "--note", "Blue"],
                          ["mv", "new", "home"], ["rm", "new"], ["list", "new", "Work"], ["list", "set", "work", "--color", "red"],
                          ["list", "rename", "work", "Job"], ["list", "rm", "job"], ["undo"]] {
            expectRun(try sandbox.run(["--dir", "tasks", "--quiet"] + arguments), status: 0, stdout: "", stderr: "")
        }
    }
}
