import Foundation
import Testing
import TickCore

/// Many `tick` processes writing one folder at once lose nothing: 8 workers each run 100 random
/// mutations (seeded) on the same three list files, each keeping a model of its own tasks.
/// Afterwards every acknowledged mutation is in the files, nothing else is, and every file
/// passes `tick check` (which also proves it reads back byte for byte).
@Suite("concurrent writers")
struct WriteConcurrencyTests {
    static let workers = 8
    static let mutationsPerWorker = 100
    static let lists = ["alpha", "beta", "gamma"]

    /// What a worker expects of one of its tasks.
    struct Expected: Equatable, CustomStringConvertible {
        var list: String
        var done = false
        var flagged = false
        var priority = 0
        var due: String?
        var notes = ""

        var description: String { "\(list).md done=\(done) flagged=\(flagged) priority=\(priority) due=\(due ?? "-") notes=\(notes.debugDescription)" }
    }

    /// One worker's run: its model and the commands that failed.
    final class Worker: @unchecked Sendable {
        let number: Int
        var tasks: [String: Expected] = [:]
        var failures: [String] = []
        var count = 0
        private var random: SeededGenerator

        init(number: Int) {
            self.number = number
            random = SeededGenerator(seed: 0x7469_636B + UInt64(number))
        }

        /// Runs the worker's mutations one after the other.
        func run(_ sandbox: Sandbox) {
            for step in 0..<WriteConcurrencyTests.mutationsPerWorker {
                let (arguments, apply) = next(step: step)
                do {
                    let result = try sandbox.run(["--dir", "tasks", "--quiet"] + arguments)
                    if result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty {
                        apply(self)
                    } else {
                        failures.append("\(arguments): \(result)")
                    }
                } catch {
                    failures.append("\(arguments): \(error)")
                }
            }
        }

        /// The next mutation: its arguments and what it does to the model once acknowledged.
        private func next(step: Int) -> ([String], (Worker) -> Void) {
            let lists = WriteConcurrencyTests.lists
            let titles = tasks.keys.sorted()
            if titles.count < 3 || random.next(below: 5) == 0 {
                count += 1
                let title = "w\(number) t\(count)"
                let list = lists[random.next(below: lists.count)]
                var expected = Expected(list: list)
                var arguments = ["add", title, "--list", list]
                if random.next(below: 2) == 0 { arguments.append("--flag"); expected.flagged = true }
                if random.next(below: 3) == 0 { arguments += ["--due", "tomorrow"]; expected.due = "2026-03-15" }
                return (arguments, { $0.tasks[title] = expected })
            }
            let title = titles[random.next(below: titles.count)]
            var task = tasks[title]!
            switch random.next(below: 9) {
            case 0:
                task.done.toggle()
                return ([task.done ? "done" : "reopen", title], { $0.tasks[title] = task })
            case 1:
                task.flagged.toggle()
                return ([task.flagged ? "flag" : "unflag", title], { $0.tasks[title] = task })
            case 2:
                let choices: [(String, String?)] = [("2026-04-01", "2026-04-01"), ("+3d", "2026-03-17"),
                                                    ("fri 9:30", "2026-03-20T09:30"), ("none", nil)]
                let (word, written) = choices[random.next(below: choices.count)]
                task.due = written
                return (["due", title, word], { $0.tasks[title] = task })
            case 3:
                task.priority = random.next(below: 4)
                return (["priority", title, ["none", "low", "medium", "high"][task.priority]], { $0.tasks[title] = task })
            case 4:
                count += 1
                let renamed = "w\(number) t\(count) renamed"
                return (["edit", title, "--title", renamed], { $0.tasks[title] = nil; $0.tasks[renamed] = task })
            case 5:
                let note = "note \(step) of w\(number)"
                task.notes = task.notes.isEmpty ? note : task.notes + "\n" + note
                return (["edit", title, "--append-note", note], { $0.tasks[title] = task })
            case 6:
                let others = lists.filter { $0 != task.list }
                task.list = others[random.next(below: others.count)]
                return (["mv", title, task.list], { $0.tasks[title] = task })
            case 7:
                return (["rm", title], { $0.tasks[title] = nil })
            default:
                let other = titles[random.next(below: titles.count)]
                var second = tasks[other]!
                task.flagged = true
                second.flagged = true
                return (["flag", title, other], { $0.tasks[title] = task; $0.tasks[other] = second })
            }
        }
    }

    @Test("8 processes × 100 random mutations on one folder lose nothing")
    func manyWriters() throws {
        let sandbox = try WriteCommandTests.folder([
            "alpha.md": "# Alpha\n\nShared by every worker.\n",
            "beta.md": "---\ncolor: blue\n---\n# Beta\n\n* [ ] A task nobody touches\n",
            "gamma.md": "# Gamma\n\n## Later\n\n1. [x] Done long ago done:2026-01-01\n",
        ])
        let workers = (0..<Self.workers).map(Worker.init)
        let shared = Unchecked(sandbox)
        let group = DispatchGroup()
        for worker in workers {
            group.enter()
            let thread = Thread {
                worker.run(shared.value)
                group.leave()
            }
            thread.start()
        }
        group.wait()

        for worker in workers {
            let failed = worker.failures.count
            #expect(failed == 0, "worker \(worker.number): \(worker.failures.prefix(3))")
        }

        // Every acknowledged mutation is there, and nothing else.
        let result = try sandbox.run(["--dir", "tasks", "--json", "all", "--all"])
        #expect(result.status == 0, "\(result)")
        var found: [String: Expected] = [:]
        var others: [String] = []
        for object in try decodeTasks(result.stdout) {
            let title = object["title"] as? String ?? ""
            guard title.hasPrefix("w") else { others.append(title); continue }
            #expect(found[title] == nil, "\(title) is in the folder twice")
            let file = object["file"] as? String ?? ""
            found[title] = Expected(list: String(file.dropLast(3)), done: object["done"] as? Bool ?? false,
                                   flagged: object["flagged"] as? Bool ?? false, priority: object["priority"] as? Int ?? -1,
                                   due: object["due"] as? String, notes: object["notes"] as? String ?? "")
        }
        #expect(others.sorted() == ["A task nobody touches", "Done long ago"])
        var expected: [String: Expected] = [:]
        for worker in workers { expected.merge(worker.tasks) { a, _ in a } }
        #expect(!expected.isEmpty)
        for (title, task) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(found[title] == task, "\(title)")
        }
        #expect(Set(found.keys) == Set(expected.keys))

        // Every file is well formed and reads back byte for byte; no temporary file is left.
        expectRun(try sandbox.run(["--dir", "tasks", "check"]), status: 0, stdout: "Checked 3 lists: no problems\n", stderr: "")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tasks")).sorted()
        #expect(names == [".tick", "alpha.md", "beta.md", "gamma.md"])
        #expect(try sandbox.read("tasks/beta.md").hasPrefix("---\ncolor: blue\n---\n# Beta\n\n* [ ] A task nobody touches\n"))
        #expect(try sandbox.read("tasks/alpha.md").hasPrefix("# Alpha\n\nShared by every worker.\n"))
    }
}

/// A value handed to another thread whose use the test keeps safe itself.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

