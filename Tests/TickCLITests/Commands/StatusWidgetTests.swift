import Foundation
import Testing

/// `tick status --format` and `--large`, for status bars and widgets. The clock: Saturday 2026-03-14 09:30.
@Suite("status widgets")
struct StatusWidgetTests {
    static let list = """
        # Home

        - [ ] Plain
        - [ ] Overdue a week !! due:2026-03-07
        - [ ] Due this morning due:2026-03-14T08:00
        - [ ] Due tonight due:2026-03-14T20:00
        - [ ] Flagged high !!! #flag
        - [ ] Tomorrow due:2026-03-15
        - [x] Done and flagged #flag done:2026-03-13

        """

    @Test("--format fills the placeholders, shows {NAME?TEXT} only for a count that is not zero, and reads {{ }} as braces")
    func format() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.list])
        let run = { (format: String) in try sandbox.run(["--dir", "tasks", "status", "--format", format]) }
        expectRun(try run("{overdue} {today} {flagged} {open}"), status: 0, stdout: "2 1 1 6\n", stderr: "")
        // Overdue a week weighs 1 + 6 + 6 + 2 = 15, more than any other.
        expectRun(try run("next: {next}"), status: 0, stdout: "next: Overdue a week\n")
        expectRun(try run("{overdue?⚠ {overdue} late}{flagged? ⚑{flagged}}{today? never}"), status: 0,
                  stdout: "⚠ 2 late ⚑1 never\n")
        expectRun(try run("{{{open}}}"), status: 0, stdout: "{6}\n")
        let bad = try run("{overdue} {later}")
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(bad.stderr.contains("unknown placeholder '{later}'"))
        #expect(try run("{open?x").status == 2)
        #expect(try run("x}").status == 2)
    }

    @Test("--large lists the five most urgent open tasks in the pick's order")
    func large() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.list])
        let result = try sandbox.run(["--dir", "tasks", "--json", "status", "--large"])
        #expect(result.status == 0, "\(result)")
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        // Weights: overdue a week 15, due this morning (overdue today) 7, flagged high 8, due tonight 5,
        // tomorrow 2, plain 1.
        #expect(tasks.compactMap { $0["title"] as? String }
                == ["Overdue a week", "Flagged high", "Due this morning", "Due tonight", "Tomorrow"])
        let text = try sandbox.run(["--dir", "tasks", "status", "--large"])
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first?.contains("Overdue a week") == true)
        #expect(lines.last?.contains("Tomorrow") == true)
    }

    @Test("nothing to report prints nothing at all")
    func empty() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [x] Done done:2026-03-13\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "status"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "status", "--large"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "status", "--format", "{overdue?{overdue} late}{next?: {next}}"]),
                  status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "status", "--large"]), status: 0, stdout: "[]\n")
    }
}
