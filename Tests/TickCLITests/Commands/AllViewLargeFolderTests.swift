import Foundation
import Testing

/// `tick all` over a folder large enough (50,000 tasks) that its lists are rendered on several
/// threads, a few runs of lists at a time: the rows, list names and blank lines must come out as
/// `--json` (written on one thread) orders the tasks.
@Suite("all: a large folder rendered in runs of lists")
struct AllViewLargeFolderTests {
    @Test("every list under its name once, blank lines between lists, the rows in --json's order")
    func rowsInOrder() throws {
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
        var total = 0
        for l in 0..<40 {
            var text = "# List \(l)\n\n"
            for t in 0..<(1_250 + next(500)) {
                let indent = t > 0 && next(4) == 0 ? "  " : ""
                let box = next(10) == 0 ? "- [x] " : "- [ ] "
                text += indent + box + "\(words[next(words.count)]) \(words[next(words.count)]) \(l)-\(t)"
                text += next(5) == 0 ? " due:2026-03-\(10 + next(10))" : ""
                text += next(7) == 0 ? " !!" : ""
                text += "\n"
                total += 1
            }
            try sandbox.write("tasks/list\(l).md", text)
        }
        #expect(total >= 50_000)
        #expect(try sandbox.run(["--dir", "tasks", "init"]).status == 0)

        let json = try sandbox.run(["--dir", "tasks", "--json", "all"])
        #expect(json.status == 0)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
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
            expected.append("\(task["ref"] as? String ?? "?") \(task["title"] as? String ?? "?")")
        }

        for run in 0..<2 {  // parsed, then from the cache
            let text = try sandbox.run(["--dir", "tasks", "all"], environment: ["COLUMNS": "200"])
            #expect(text.status == 0 && text.stderr.isEmpty, "run \(run)")
            var lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.last == "")
            lines.removeLast()
            // A row reads `  REF  [ ] TITLE …`, a subtask's indented further: keep the ref and title.
            let shown = lines.map { line -> String in
                guard line.hasPrefix("  ") else { return line }
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 6, parts[1] == "[", parts[2] == "]" else { return line }
                return "\(parts[0]) \(parts[3]) \(parts[4]) \(parts[5])"
            }
            #expect(shown.count == expected.count, "run \(run)")
            #expect(shown == expected, "run \(run)")
        }
    }
}
