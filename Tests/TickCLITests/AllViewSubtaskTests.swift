import Foundation
import Testing

/// `tick all`: every open task grouped by list, each subtask indented under its parent, a task's
/// subtasks in the view's order after it; a subtask whose parent is not shown stands on its own.
@Suite("all: subtasks under their parents")
struct AllViewSubtaskTests {
    static let work = """
        # Work

        - [ ] Write the report due:2026-03-20
          - [ ] Figures due:2026-03-18
          - [ ] Outline !!!
            - [ ] Headings due:2026-03-15
        - [ ] Urgent thing due:2026-03-14 !!
        - [x] Done parent done:2026-03-01
          - [ ] Open child of a done parent due:2026-03-16

        """

    @Test("each subtask follows its parent, indented; siblings in due then priority order; a done parent's open subtask stands alone")
    func subtasksUnderParents() throws {
        let sandbox = try WriteCommandTests.folder(["work.md": Self.work])
        let result = try sandbox.run(["--dir", "tasks", "all"], environment: ["COLUMNS": "200"])
        let ref = { (title: String) throws -> String in try sandbox.ref(title, dir: "tasks") }
        expectRun(result, status: 0, stdout: """
            Work
              \(try ref("Urgent thing"))  [ ] Urgent thing !!  due today
              \(try ref("Open child of a done parent"))  [ ] Open child of a done parent  due Mon
              \(try ref("Write the report"))  [ ] Write the report  due Fri
              \(try ref("Figures"))    [ ] Figures  due Wed
              \(try ref("Outline"))    [ ] Outline !!!
              \(try ref("Headings"))      [ ] Headings  due tomorrow

            """, stderr: "")
        // --json gives the same order, each subtask with its parent's ref (shown or not).
        let json = try sandbox.run(["--dir", "tasks", "--json", "all"]).stdout
        let titles = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        #expect(titles.map { $0["title"] as? String ?? "" }
            == ["Urgent thing", "Open child of a done parent", "Write the report", "Figures", "Outline", "Headings"])
        #expect(titles.map { $0["parent"] as? String } == [nil, try ref("Done parent"), nil, try ref("Write the report"), try ref("Write the report"), try ref("Outline")])
    }

    @Test("with --all, done subtasks follow their open siblings under the parent")
    func completedSubtasks() throws {
        let sandbox = try WriteCommandTests.folder(["work.md": "# Work\n\n- [ ] Parent\n  - [x] Done child done:2026-03-02\n  - [ ] Open child\n- [ ] Other\n"])
        let result = try sandbox.run(["--dir", "tasks", "all", "--all"], environment: ["COLUMNS": "200"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  [ ] Parent\n"))
        #expect(result.stdout.contains("    [ ] Open child\n"))
        #expect(result.stdout.contains("    [x] Done child\n"))
        let order = ["Parent", "Open child", "Done child"].map { result.stdout.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
    }
}
