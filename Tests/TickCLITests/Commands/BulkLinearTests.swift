import Foundation
import Testing

/// Changes of thousands of tasks, which tick now makes in one pass over each list (issue 44, item
/// 6): a parent with its subtasks, a deep chain of subtasks and an import write exactly the bytes
/// that changing the tasks one at a time writes, and one undo restores every byte. (Their time is
/// measured by `make bench`, never here.)
@Suite("bulk changes in one pass")
struct BulkLinearTests {
    static let today = "2026-03-14"

    @Test("done on a parent with 3,000 subtasks: each open one ticked with done:, the rest kept, one undo")
    func parent() throws {
        var text = "# Big\n\nA paragraph.\n\n- [ ] parent\n  A note of the parent.\n"
        var expected = "# Big\n\nA paragraph.\n\n- [x] parent done:\(Self.today)\n  A note of the parent.\n"
        for i in 0..<3_000 {
            if i % 10 == 3 {
                // Already done: left as written.
                text += "  - [x] subtask \(i) done:2026-03-01\n"
                expected += "  - [x] subtask \(i) done:2026-03-01\n"
            } else if i == 1_500 {
                text += "  - [ ] water rec:1w due:2026-03-14\n"
                expected += "REPEATING\n"
            } else {
                let tokens = i % 7 == 0 ? " !! due:2026-03-20" : ""
                text += "  - [ ] subtask \(i)\(tokens)\n"
                expected += "  - [x] subtask \(i)\(tokens) done:\(Self.today)\n"
            }
            if i % 13 == 0 {
                text += "    a note of \(i)\n"
                expected += "    a note of \(i)\n"
            }
        }
        text += "\n- [ ] after\n"
        expected += "\n- [ ] after\n"
        // A repeating subtask moves to its next occurrence, as `done` on it alone moves it.
        let alone = try Fixtures.folder(["big.md": text])
        expectRun(try alone.run(["--dir", "tasks", "done", "water", "--quiet"]), status: 0)
        let water = try alone.read("tasks/big.md").split(separator: "\n").first { $0.contains("water") }!
        expected = expected.replacingOccurrences(of: "REPEATING", with: water)

        let sandbox = try Fixtures.folder(["big.md": text])
        let result = try sandbox.run(["--dir", "tasks", "done", "parent"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.read("tasks/big.md") == expected)
        expectRun(try sandbox.run(["--dir", "tasks", "undo", "--quiet"]), status: 0)
        #expect(try sandbox.read("tasks/big.md") == text)
    }

    @Test("done on the root of a chain of 600 nested subtasks ticks every open one; one undo restores it")
    func chain() throws {
        var text = "# Chain\n\n", expected = "# Chain\n\n"
        for i in 0..<600 {
            let indent = String(repeating: "  ", count: i)
            if i % 3 == 2 {
                text += indent + "- [x] level \(i) done:2026-03-02\n"
                expected += indent + "- [x] level \(i) done:2026-03-02\n"
            } else {
                text += indent + "- [ ] level \(i)\n"
                expected += indent + "- [x] level \(i) done:\(Self.today)\n"
            }
            if i % 50 == 0 {
                text += indent + "  note \(i)\n"
                expected += indent + "  note \(i)\n"
            }
        }
        let sandbox = try Fixtures.folder(["chain.md": text])
        let result = try sandbox.run(["--dir", "tasks", "done", "level 0"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.read("tasks/chain.md") == expected)
        expectRun(try sandbox.run(["--dir", "tasks", "undo", "--quiet"]), status: 0)
        #expect(try sandbox.read("tasks/chain.md") == text)
    }

    /// 2,000 todo.txt lines for list Work; every fifth with (A), every third with a due date.
    static func todo(_ count: Int) -> (file: String, lines: [String]) {
        var file = "", lines: [String] = []
        for i in 0..<count {
            file += (i % 5 == 0 ? "(A) " : "") + "Task \(i) +Work" + (i % 3 == 0 ? " due:2026-03-20" : "") + "\n"
            lines.append("Task \(i)" + (i % 5 == 0 ? " !!!" : "") + (i % 3 == 0 ? " due:2026-03-20" : ""))
        }
        return (file, lines)
    }

    @Test("import of 2,000 tasks: after the list's last task outside sections, in its form, one undo", arguments: [
        // After the last task outside sections, before the section.
        ("# Work\n\n- [ ] existing\n\n## Later\n\n- [ ] later one\n", "# Work\n\n- [ ] existing\nNEW\n\n## Later\n\n- [ ] later one\n", "- [ ] "),
        // At the end of a file without a final line ending, which stays without one.
        ("# Work\n\n* [ ] existing", "# Work\n\n* [ ] existing\nNEW", "* [ ] "),
        // A numbered list goes on counting; CRLF lines stay CRLF.
        ("# Work\r\n\r\n7. [ ] existing\r\n", "# Work\r\n\r\n7. [ ] existing\r\nNEW\r\n", "N. [ ] "),
    ])
    func importMany(list: String, shape: String, marker: String) throws {
        let (file, lines) = Self.todo(2_000)
        let sandbox = try Fixtures.folder(["work.md": list])
        try sandbox.write("todo.txt", file)
        let result = try sandbox.run(["--dir", "tasks", "import", "todotxt", "todo.txt"])
        #expect(result.status == 0, "\(result)")
        let ending = list.contains("\r\n") ? "\r\n" : "\n"
        let new = lines.enumerated().map { k, line in marker.replacingOccurrences(of: "N", with: "\(k + 8)") + line }
        #expect(try sandbox.read("tasks/work.md") == shape.replacingOccurrences(of: "NEW", with: new.joined(separator: ending)))
        expectRun(try sandbox.run(["--dir", "tasks", "undo", "--quiet"]), status: 0)
        #expect(try sandbox.read("tasks/work.md") == list)
    }
}
