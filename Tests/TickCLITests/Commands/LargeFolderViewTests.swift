import Foundation
import Testing

/// Views over a folder large enough (50,000 tasks) that their rows are rendered on several
/// threads, a few ranges of rows at a time: the rows, headings and blank lines must come out as
/// `--json` (written on one thread) orders the tasks.
@Suite("views of a large folder rendered in ranges of rows")
struct LargeFolderViewTests {
    /// The folder: 40 lists of 1,250 to 1,749 seeded tasks, some done, subtasks, due or flagged.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        var random = UInt64(2026)
        func next(_ bound: Int) -> Int {
            // SplitMix64, seeded: the same folder on every run.
            random &+= 0x9E37_79B9_7F4A_7C15
            var z = random
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        let words = ["call", "plumber", "milk", "report", "garden", "tax", "café", "fix"]
        for l in 0..<40 {
            var text = "# List \(l)\n\n"
            for t in 0..<(1_250 + next(500)) {
                let indent = t > 0 && next(4) == 0 ? "  " : ""
                let box = next(10) == 0 ? "- [x] " : "- [ ] "
                text += indent + box + "\(words[next(words.count)]) \(words[next(words.count)]) \(l)-\(t)"
                text += next(5) == 0 ? " due:2026-03-\(10 + next(10))" : ""
                text += next(7) == 0 ? " !!" : ""
                text += next(8) == 0 ? " #flag" : ""
                text += "\n"
            }
            try sandbox.write("tasks/list\(l).md", text)
        }
        #expect(try sandbox.run(["--dir", "tasks", "init"]).status == 0)
        return sandbox
    }

    /// A row `  REF  [ ] TITLE …` (a subtask's indented further) as its ref and title; another line as it is.
    static func shown(_ output: String) -> [String] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { line -> String in
            guard line.hasPrefix("  ") else { return line }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 6, parts[1] == "[", parts[2] == "]" else { return line }
            return "\(parts[0]) \(parts[3]) \(parts[4]) \(parts[5])"
        }
    }

    static func tasks(_ sandbox: Sandbox, _ view: String) throws -> [[String: Any]] {
        let json = try sandbox.run(["--dir", "tasks", "--json", view])
        #expect(json.status == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    }

    static func row(_ task: [String: Any]) -> String {
        "\(task["ref"] as? String ?? "?") \(task["title"] as? String ?? "?")"
    }

    @Test("all: every list under its name once, blank lines between lists, the rows in --json's order")
    func all() throws {
        let sandbox = try Self.sandbox()
        let tasks = try Self.tasks(sandbox, "all")

        #expect(tasks.count > 40_000)
        var expected: [String] = []
        var current: String?
        for task in tasks {
            let list = task["list"] as? String ?? "?"
            if list != current {
                if current != nil { expected.append("") }
                expected.append(list)
                current = list
            }
            expected.append(Self.row(task))
        }

        for run in 0..<2 {  // parsed, then from the cache
            let text = try sandbox.run(["--dir", "tasks", "all"], environment: ["COLUMNS": "200"])
            #expect(text.status == 0 && text.stderr.isEmpty, "run \(run)")
            let shown = Self.shown(text.stdout)
            #expect(shown.count == expected.count, "run \(run)")
            #expect(shown == expected, "run \(run)")
        }
    }

    @Test("scheduled, today and flagged: each heading once, blank lines between groups, the rows in --json's order")
    func groupedByDate() throws {
        let sandbox = try Self.sandbox()
        for view in ["scheduled", "today", "flagged"] {
            let tasks = try Self.tasks(sandbox, view)
            #expect(tasks.count >= 4096, "\(view)")
            let text = try sandbox.run(["--dir", "tasks", view], environment: ["COLUMNS": "200"])
            #expect(text.status == 0 && text.stderr.isEmpty)
            let shown = Self.shown(text.stdout)
            let rows = Set(tasks.map(Self.row))
            #expect(shown.filter { rows.contains($0) } == tasks.map(Self.row), "\(view)")
            let headings = shown.enumerated().filter { !$0.element.isEmpty && !rows.contains($0.element) }
            #expect(Set(headings.map(\.element)).count == headings.count, "\(view): a heading twice")
            #expect(headings.first?.offset == 0)
            for (offset, _) in headings.dropFirst() { #expect(shown[offset - 1] == "", "\(view) line \(offset)") }
            #expect(shown.count == tasks.count + 2 * headings.count - 1, "\(view)")
        }
    }
}
