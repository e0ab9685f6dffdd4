import Foundation
import Testing
import TickFormat
import TickCore

/// tick killed with SIGKILL while it writes, at the points its test hooks name: before the
/// exchange that puts a new file in place, right after it, and between the two files of a move or
/// a list rename. Each iteration (a seeded choice of command, point and occurrence) checks that
/// every list holds either its whole old or its whole new content, that no temporary file is taken
/// for a list, and that the next run removes the leftovers and finishes an interrupted move.
@Suite("crash safety")
struct CrashSafetyTests {
    static let iterations = 40
    static let seed: UInt64 = 0x6B69_6C6C  // "kill"

    static let points = ["BEFORE_REPLACE", "AFTER_REPLACE", "BETWEEN_FILES"]

    /// The `.md` files below a folder (hidden files and folders skipped, as tick skips them), by path.
    static func lists(_ root: String) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let fm = FileManager.default
        guard let names = try? fm.subpathsOfDirectory(atPath: root) else { return [:] }
        for name in names where name.hasSuffix(".md") && !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            result[name] = fm.contents(atPath: root + "/" + name).map { [UInt8]($0) }
        }
        return result
    }

    /// Temporary files of tick (`.NAME.tick-PID-N`) anywhere below a folder, outside `.tick/`.
    static func leftovers(_ root: String) -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        return names.filter { path in
            !path.hasPrefix(".tick") && path.split(separator: "/").last.map { $0.hasPrefix(".") && $0.contains(".tick-") } == true
        }.sorted()
    }

    /// One command to interrupt, chosen from the tasks the folder holds now.
    static func command(_ step: Int, lists: [String: [UInt8]], using random: inout SeededGenerator) -> (arguments: [String], files: Int) {
        var tasks: [(title: String, done: Bool, list: String)] = []
        for (path, bytes) in lists.sorted(by: { $0.key < $1.key }) {
            let name = String(path.split(separator: "/").last!.dropLast(3))
            for task in Document(bytes: bytes).tasks { tasks.append((task.title, task.done, name)) }
        }
        // Lists are named by their file name alone, wherever they are.
        let names = lists.keys.map { String($0.split(separator: "/").last!.dropLast(3)) }.sorted()
        let choice = tasks.count < 4 ? 0 : random.next(below: 8)
        let task = tasks.isEmpty ? nil : tasks[random.next(below: tasks.count)]
        switch (choice, task) {
        case (1, let t?): return ([t.done ? "reopen" : "done", t.title], 1)
        case (2, let t?): return (["edit", t.title, "--append-note", "note \(step)"], 1)
        case (3, let t?): return (["rm", t.title], 1)
        case (4, let t?), (5, let t?):
            let others = names.filter { $0 != t.list }
            return (["mv", t.title, others[random.next(below: others.count)]], 2)
        case (6, _):
            // Renaming a list writes its new file first and removes the old one second.
            let old = names[random.next(below: names.count)]
            return (["list", "rename", old, old.hasSuffix("-b") ? String(old.dropLast(2)) : old + "-b"], 2)
        default:
            let list = names[random.next(below: names.count)]
            var arguments = ["add", "task \(step)", "--list", list]
            if random.next(below: 2) == 0 { arguments += ["--note", "written at step \(step)"] }
            return (arguments, 1)
        }
    }

    @Test("SIGKILL at any write point leaves each list whole, old or new; the next run cleans up and finishes moves")
    func killedWhileWriting() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.path("lists")
        try sandbox.write("lists/inbox.md", "# Inbox\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  semi-skimmed\n")
        try sandbox.write("lists/work.md", "# Work\r\n\r\n- [ ] Report due:2026-03-20\r\n  - [ ] Figures\r\n")
        try sandbox.write("lists/home/garden.md", "Some prose first.\n\n1. [ ] Water the plants #flag\n2. [x] Mow done:2026-03-01\n")
        expectRun(try sandbox.run(["init", folder]), status: 0)
        let counter = sandbox.path("hook-count")
        let parent = sandbox.path("hook-parent")

        var random = SeededGenerator(seed: Self.seed)
        var killed = 0, leftoversSeen = 0, finishedMoves = 0
        for step in 0..<Self.iterations {
            let old = Self.lists(folder)
            let (arguments, files) = Self.command(step, lists: old, using: &random)
            let point = Self.points[random.next(below: files == 2 ? 3 : 2)]
            // A single file is exchanged once; the second exchange of a move is its source.
            let occurrence = files == 2 ? 1 + random.next(below: 2) : 1
            let context = "step \(step): tick \(arguments.joined(separator: " ")), killed at \(point) #\(occurrence)"

            // What the command writes when nothing stops it, from a copy of the folder.
            let reference = sandbox.path("reference")
            try? FileManager.default.removeItem(atPath: reference)
            try FileManager.default.copyItem(atPath: folder, toPath: reference)
            expectRun(try sandbox.run(["--dir", reference, "--quiet"] + arguments), status: 0, stdout: "", stderr: "")
            let new = Self.lists(reference)
            try FileManager.default.removeItem(atPath: reference)

            // The same command, killed by its hook (the hook's shell is tick's child) at that occurrence.
            try? FileManager.default.removeItem(atPath: counter)
            try? FileManager.default.removeItem(atPath: parent)
            let hook = "n=$(( $(cat '\(counter)' 2>/dev/null || echo 0) + 1 )); echo $n > '\(counter)'; "
                + "if [ $n -eq \(occurrence) ]; then cat /proc/$PPID/comm > '\(parent)'; kill -9 $PPID; fi"
            let run = try sandbox.run(["--dir", folder, "--quiet"] + arguments, environment: ["TICK_TEST_HOOK_" + point: hook])
            let wasKilled = FileManager.default.fileExists(atPath: parent)
            if wasKilled {
                killed += 1
                #expect(run.status == 9, "\(context): \(run)")
                let name = try String(contentsOfFile: parent, encoding: .utf8)
                #expect(name == "tick\n", "\(context): the hook's parent is \(name)")
            } else {
                // The point never came (one file has no second exchange): the command simply finished.
                expectRun(run, status: 0, stdout: "", stderr: "")
            }

            // Every list is whole: its old content or its new one, nothing in between.
            let current = Self.lists(folder)
            #expect(Set(current.keys).isSubset(of: Set(old.keys).union(new.keys)), "\(context): \(current.keys.sorted())")
            for path in Set(old.keys).union(new.keys).sorted() {
                #expect(current[path] == old[path] || current[path] == new[path], "\(context): \(path) is neither old nor new")
            }
            if !wasKilled { #expect(current == new, "\(context)") }

            // A temporary file left behind is not a list: check counts only the real lists.
            if !Self.leftovers(folder).isEmpty { leftoversSeen += 1 }
            expectRun(try sandbox.run(["--dir", folder, "check"]), status: 0,
                      stdout: "Checked \(current.count) list\(current.count == 1 ? "" : "s"): no problems\n", stderr: "")

            // The next run (one that changes nothing) removes leftovers and finishes a move.
            let next = try sandbox.run(["--dir", folder, "done", "no such task"])
            #expect(next.status == 1, "\(context): \(next)")
            #expect(next.stderr.hasSuffix("tick: no task matches 'no such task'\n"), "\(context): \(next)")
            #expect(Self.leftovers(folder) == [], "\(context)")
            let recovered = Self.lists(folder)
            if files == 2, wasKilled {
                // A move or rename is journalled before its first file: the next run completes it.
                #expect(recovered == new, "\(context): not finished")
                if current != new {
                    #expect(next.stderr.contains("finished an interrupted change"), "\(context): \(next)")
                    finishedMoves += 1
                }
            } else {
                #expect(recovered == current, "\(context): the next run changed a list")
            }
        }
        // The run exercised what it claims: kills, leftovers and finished moves all happened.
        #expect(killed >= Self.iterations * 3 / 4, "only \(killed) of \(Self.iterations) runs were killed")
        #expect(leftoversSeen > 0)
        #expect(finishedMoves > 0)
        expectRun(try sandbox.run(["--dir", folder, "check"]), status: 0, stderr: "")
    }
}
