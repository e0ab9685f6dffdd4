#if canImport(Glibc)
import Glibc
#endif
import CTickSystem
import Foundation
import Testing
import TickCore

/// Writers, readers and an editor on one folder at once: 8 `tick` writer processes at a time
/// (200 mutations in all), a reader running views and `tick check` meanwhile, and an editor
/// that saves the same list files by hand, half the time by an atomic rename, half the time by
/// appending in place. Afterwards every acknowledged mutation is there, no editor change was
/// overwritten, and every file reads back byte for byte.
@Suite("writers, readers and an editor at once")
struct ConcurrencyTests {
    static let workers = 8
    static let mutationsPerWorker = 25
    static let lists = ["alpha", "beta", "gamma"]

    /// What a worker expects of one of its tasks.
    struct Expected: Equatable, CustomStringConvertible {
        var list: String
        var done = false
        var flagged = false
        var notes = ""

        var description: String { "\(list).md done=\(done) flagged=\(flagged) notes=\(notes.debugDescription)" }
    }

    /// A writer process after another: a model of its own tasks, updated when tick acknowledges.
    final class Worker: @unchecked Sendable {
        let number: Int
        var tasks: [String: Expected] = [:]
        var failures: [String] = []
        private var random: SeededGenerator
        private var count = 0

        init(number: Int) {
            self.number = number
            random = SeededGenerator(seed: 0x6564_6974 + UInt64(number))
        }

        func run(_ sandbox: Sandbox, folder: String) {
            for step in 0..<ConcurrencyTests.mutationsPerWorker {
                let (arguments, apply) = next(step)
                do {
                    let result = try sandbox.run(["--dir", folder, "--quiet"] + arguments)
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

        private func next(_ step: Int) -> ([String], (Worker) -> Void) {
            let lists = ConcurrencyTests.lists
            let titles = tasks.keys.sorted()
            if titles.count < 2 || random.next(below: 4) == 0 {
                count += 1
                let title = "w\(number) t\(count)"
                let list = lists[random.next(below: lists.count)]
                return (["add", title, "--list", list], { $0.tasks[title] = Expected(list: list) })
            }
            let title = titles[random.next(below: titles.count)]
            var task = tasks[title]!
            switch random.next(below: 5) {
            case 0:
                task.done.toggle()
                return ([task.done ? "done" : "reopen", title], { $0.tasks[title] = task })
            case 1:
                task.flagged.toggle()
                return ([task.flagged ? "flag" : "unflag", title], { $0.tasks[title] = task })
            case 2:
                let note = "note \(step) of w\(number)"
                task.notes = task.notes.isEmpty ? note : task.notes + "\n" + note
                return (["edit", title, "--append-note", note], { $0.tasks[title] = task })
            case 3:
                let others = lists.filter { $0 != task.list }
                task.list = others[random.next(below: others.count)]
                return (["mv", title, task.list], { $0.tasks[title] = task })
            default:
                return (["rm", title], { $0.tasks[title] = nil })
            }
        }
    }

    /// Saves list files by hand, as an editor or a sync tool would, between runs of a reader.
    final class Editor: @unchecked Sendable {
        let folder: String
        /// Titles of the tasks it added, and how many in-place appends it had to redo.
        var added: [String] = []
        var redone = 0
        var failures: [String] = []
        private var random = SeededGenerator(seed: 0x6564_6974_6F72)

        init(folder: String) { self.folder = folder }

        func read(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

        /// One save: a new task line, written by an atomic save or appended in place.
        func save(_ n: Int) {
            let path = folder + "/" + ConcurrencyTests.lists[random.next(below: 3)] + ".md"
            let title = "editor \(n)"
            if random.next(below: 2) == 0 { atomicSave(path, title) } else { appendInPlace(path, title) }
            added.append(title)
        }

        /// Reads the file, inserts the line after the first one, writes a hidden temporary file and
        /// swaps it in with an exchange; if what came out is not what it read (tick wrote meanwhile),
        /// it swaps the other version back and starts again. A careful editor never clobbers.
        private func atomicSave(_ path: String, _ title: String) {
            let temporary = folder + "/.editor-save"
            for _ in 0..<1000 {
                guard let before = read(path) else { failures.append("cannot read \(path)"); return }
                let firstLine = (before.firstIndex(of: 0x0A) ?? before.count - 1) + 1
                let after = Array(before[..<firstLine]) + Array("- [ ] \(title)\n".utf8) + Array(before[firstLine...])
                guard FileManager.default.createFile(atPath: temporary, contents: Data(after)) else {
                    failures.append("cannot write \(temporary)"); return
                }
                guard tick_rename_exchange(temporary, path) == 0 else { failures.append("exchange failed"); return }
                if read(temporary) == before {
                    unlink(temporary)
                    return
                }
                _ = tick_rename_exchange(temporary, path)
                unlink(temporary)
            }
            failures.append("\(title): the file kept changing")
        }

        /// Appends the line with one write. If the file it wrote to is no longer the one at `path`
        /// (tick replaced it between the open and the write), the line went to a replaced file: it
        /// appends it again, as an editor that notices its file was replaced would.
        private func appendInPlace(_ path: String, _ title: String) {
            let line = Array("- [ ] \(title)\n".utf8)
            for attempt in 0..<1000 {
                let fd = open(path, O_WRONLY | O_APPEND)
                guard fd >= 0 else { failures.append("cannot open \(path)"); return }
                let written = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                var mine = stat(), there = stat()
                let same = fstat(fd, &mine) == 0 && stat(path, &there) == 0 && mine.st_ino == there.st_ino
                close(fd)
                guard written == line.count else { failures.append("short write to \(path)"); return }
                if same { return }
                if attempt == 0 { redone += 1 }
            }
            failures.append("\(title): the file kept being replaced")
        }
    }

    /// Runs `body` on its own thread; `wait()` on the group waits for it.
    static func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }

    @Test("8 writers, a reader and an editor at once: nothing acknowledged is lost, nothing is clobbered")
    func writersReadersAndAnEditor() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.path("lists")
        try sandbox.write("lists/alpha.md", "# Alpha\n\nShared by everyone.\n")
        try sandbox.write("lists/beta.md", "# Beta\n\n- [ ] A task nobody touches\n")
        try sandbox.write("lists/gamma.md", "# Gamma\n\n## Later\n\n- [x] Done long ago done:2026-01-01\n")
        expectRun(try sandbox.run(["init", folder]), status: 0)
        let shared = Unchecked(sandbox)

        let writers = DispatchGroup()
        let workers = (0..<Self.workers).map(Worker.init)
        for worker in workers {
            Self.spawn(writers) { worker.run(shared.value, folder: folder) }
        }

        // Readers and the editor go on until every writer is done.
        let finished = Flag()
        let others = DispatchGroup()
        let readerFailures = Failures()
        let readerRuns = Counter()
        let views: [[String]] = [["today"], ["all", "--all", "--json"], ["search", "editor"], ["check", "--quiet"], []]
        do {
            Self.spawn(others) {
                var k = 0
                while !finished.value {
                    let view = views[k % views.count]
                    k += 1
                    readerRuns.increment()
                    do {
                        let result = try shared.value.run(["--dir", folder] + view)
                        // A view answers (search may find nothing yet); check finds no problem and
                        // never a failed round trip; JSON always parses.
                        let allowed: Set<Int32> = view.first == "search" ? [0, 1] : [0]
                        if !allowed.contains(result.status) || (view.first == "check" && !result.stdout.isEmpty) {
                            readerFailures.add("\(view): \(result)")
                        } else if view.contains("--json"),
                                  (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) == nil {
                            readerFailures.add("\(view): not JSON: \(result.stdout.prefix(200))")
                        }
                    } catch {
                        readerFailures.add("\(view): \(error)")
                    }
                }
            }
        }
        let editor = Editor(folder: folder)
        Self.spawn(others) {
            var n = 0
            while !finished.value {
                n += 1
                editor.save(n)
                // Between two saves the editor looks at the folder, as a person would: a second reader.
                _ = try? shared.value.run(["--dir", folder, "today"])
            }
        }
        writers.wait()
        finished.set()
        others.wait()

        for worker in workers {
            #expect(worker.failures.isEmpty, "worker \(worker.number): \(worker.failures.prefix(3))")
        }
        #expect(editor.failures.isEmpty, "\(editor.failures.prefix(3))")
        #expect(readerFailures.all.isEmpty, "\(readerFailures.all.prefix(3))")
        #expect(editor.added.count >= 5, "the editor saved only \(editor.added.count) times")
        #expect(readerRuns.value >= 10, "the readers ran only \(readerRuns.value) times")

        // Every acknowledged mutation is there, once; every editor line is there; nothing else.
        let result = try sandbox.run(["--dir", folder, "all", "--all", "--json"])
        expectRun(result, status: 0, stderr: "")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var found: [String: Expected] = [:]
        var editorTitles: [String: Int] = [:]
        var rest: [String] = []
        for object in objects {
            let title = object["title"] as? String ?? ""
            if title.hasPrefix("editor ") {
                editorTitles[title, default: 0] += 1
            } else if title.hasPrefix("w") {
                #expect(found[title] == nil, "\(title) is in the folder twice")
                let file = object["file"] as? String ?? ""
                found[title] = Expected(list: String(file.dropLast(3)), done: object["done"] as? Bool ?? false,
                                        flagged: object["flagged"] as? Bool ?? false, notes: object["notes"] as? String ?? "")
            } else {
                rest.append(title)
            }
        }
        var expected: [String: Expected] = [:]
        for worker in workers { expected.merge(worker.tasks) { a, _ in a } }
        #expect(!expected.isEmpty)
        for (title, task) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(found[title] == task, "\(title)")
        }
        #expect(Set(found.keys) == Set(expected.keys))
        for title in editor.added {
            #expect(editorTitles[title] != nil, "the editor's '\(title)' was overwritten")
        }
        #expect(Set(editorTitles.keys) == Set(editor.added))
        // A line is there twice only when an append had to be redone after tick replaced its file.
        #expect(editorTitles.values.filter { $0 > 1 }.count <= editor.redone)
        #expect(rest.sorted() == ["A task nobody touches", "Done long ago"])

        // Every file reads back byte for byte, and nothing but the lists (and tick's state) is left.
        expectRun(try sandbox.run(["--dir", folder, "check"]), status: 0, stdout: "Checked 3 lists: no problems\n",
                  stderr: "")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == [".tick", "alpha.md", "beta.md", "gamma.md"])
        #expect(try String(contentsOfFile: folder + "/gamma.md", encoding: .utf8).contains("## Later\n"))
    }
}

/// A flag one thread sets and others poll.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}

/// Messages collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    var all: [String] { lock.withLock { messages } }
    func add(_ message: String) { lock.withLock { messages.append(message) } }
}

/// A count kept by several threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
