#if canImport(Glibc)
import Glibc
#endif
import CTickSystem
import Foundation
import Testing
import TickCore

/// The workers of the concurrency tests (`ConcurrencyTests`): `tick` writer processes that each
/// keep a model of their own tasks, editors that save list files by hand in one of three ways,
/// and the check that compares the folder with what every worker expects.

/// What a writer expects of one of its tasks.
struct ExpectedTask: Equatable, CustomStringConvertible {
    var list: String
    var done = false
    var flagged = false
    var priority = 0
    var due: String?
    var notes = ""

    var description: String {
        "\(list).md done=\(done) flagged=\(flagged) priority=\(priority) due=\(due ?? "-") notes=\(notes.debugDescription)"
    }

    /// The task as `tick all --json` shows it.
    init(json object: [String: Any]) {
        let file = object["file"] as? String ?? ""
        self.init(list: String(file.dropLast(3)), done: object["done"] as? Bool ?? false,
                  flagged: object["flagged"] as? Bool ?? false, priority: object["priority"] as? Int ?? -1,
                  due: object["due"] as? String, notes: object["notes"] as? String ?? "")
    }

    init(list: String, done: Bool = false, flagged: Bool = false, priority: Int = 0, due: String? = nil, notes: String = "") {
        (self.list, self.done, self.flagged, self.priority, self.due, self.notes) = (list, done, flagged, priority, due, notes)
    }
}

/// A `tick` writer process after another, with a model of its own tasks updated only when tick
/// acknowledges a change (exit 0, nothing printed with `--quiet`).
final class TickWriter: @unchecked Sendable {
    /// Which changes it makes: every kind, or only those an editor's list can take at any moment
    /// (add, done or reopen, append a note).
    enum Mix { case everything, addCompleteNote }

    let number: Int
    let lists: [String]
    let mix: Mix
    var tasks: [String: ExpectedTask] = [:]
    var acknowledged = 0
    /// Writes that exited 1 with nothing written: no quiet moment, or the list kept changing.
    var refused = 0
    /// Writes that found no task of the name, with nothing written: at that moment the list was
    /// an editor's version without the task (a rename editor's save before it swapped tick's
    /// version back, or an in-place save spread past the window W). A refusal, not a loss.
    var notFound = 0
    /// Changes of several lists that tick reported left in part, for its next run to finish or roll
    /// back (exit 3, "which the next tick run finishes or rolls back": the change's first list was
    /// written, the next kept changing, and the first changed again before it could be put back).
    /// Each holds the writer's tasks it touched as they were before and as they would be after; a
    /// title missing from one side is no task of that name there. Either side, whole, may be found
    /// at the end; the writer changes those tasks no more.
    var unsettled: [(titles: Set<String>, before: [String: ExpectedTask], after: [String: ExpectedTask])] = []
    /// Backups that tick named in a warning of an acknowledged change: another program saved the
    /// list twice while tick wrote it, one save on top of tick's file and one into the file tick set
    /// aside, changing the lines tick changed; tick's change stands and the other save is kept.
    var keptBackups: [String] = []
    var failures: [String] = []
    private var random: SeededGenerator
    private var count = 0

    init(number: Int, seed: UInt64, lists: [String], mix: Mix) {
        self.number = number
        self.lists = lists
        self.mix = mix
        random = SeededGenerator(seed: seed + UInt64(number))
    }

    /// Runs `steps` changes, or changes until `deadline`. With `strict`, every change must be
    /// acknowledged (tick writers alone never wait for each other beyond the lock).
    func run(_ sandbox: Sandbox, folder: String, steps: Int, until deadline: Date? = nil, strict: Bool) {
        var step = 0
        while deadline.map({ Date() < $0 }) ?? (step < steps) {
            step += 1
            let (arguments, apply) = next(step)
            do {
                let result = try sandbox.run(["--dir", folder, "--quiet"] + arguments)
                // A change may first recover what an appender wrote into a file an earlier change set aside, and say so;
                // or keep a second save beside the list and name it.
                let kept = " while tick wrote it; tick's change is in place with the newest save, and the other save, "
                    + "which changed the lines tick changed, is kept as "
                let warnings = result.stderr.split(separator: "\n").map(String.init)
                let named = warnings.compactMap { warning in warning.range(of: kept).map { String(warning[$0.upperBound...]) } }
                let recovered = warnings.allSatisfy { $0.hasPrefix("tick: warning: recovered ") || $0.contains(kept) }
                if result.status == 0 && result.stdout.isEmpty && recovered {
                    apply(self)
                    acknowledged += 1
                    keptBackups += named
                } else if !strict && result.status == 1 && result.stdout.isEmpty && result.stderr.contains("nothing written") {
                    refused += 1
                } else if !strict && result.status == 1 && result.stdout.isEmpty && result.stderr.hasPrefix("tick: no task matches") {
                    notFound += 1
                } else if !strict && result.status == 3 && result.stdout.isEmpty
                            && result.stderr.hasSuffix("which the next tick run finishes or rolls back\n") {
                    let before = tasks
                    apply(self)
                    let after = tasks
                    let titles = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
                    tasks = before.filter { !titles.contains($0.key) }
                    unsettled.append((titles, before.filter { titles.contains($0.key) }, after.filter { titles.contains($0.key) }))
                } else {
                    failures.append("\(arguments): \(result)")
                }
            } catch {
                failures.append("\(arguments): \(error)")
            }
        }
    }

    /// The next change: its arguments and what it does to the model once acknowledged.
    private func next(_ step: Int) -> ([String], (TickWriter) -> Void) {
        let titles = tasks.keys.sorted()
        if titles.count < 3 || random.next(below: 4) == 0 {
            count += 1
            let title = "w\(number) t\(count)"
            let list = lists[random.next(below: lists.count)]
            var expected = ExpectedTask(list: list)
            var arguments = ["add", title, "--list", list]
            if mix == .everything, random.next(below: 2) == 0 { arguments.append("--flag"); expected.flagged = true }
            if mix == .everything, random.next(below: 3) == 0 { arguments += ["--due", "tomorrow"]; expected.due = "2026-03-15" }
            return (arguments, { $0.tasks[title] = expected })
        }
        let title = titles[random.next(below: titles.count)]
        var task = tasks[title]!
        let kinds = mix == .everything ? 9 : 2
        switch random.next(below: kinds) {
        case 0:
            task.done.toggle()
            return ([task.done ? "done" : "reopen", title], { $0.tasks[title] = task })
        case 1:
            let note = "note \(step) of w\(number)"
            task.notes = task.notes.isEmpty ? note : task.notes + "\n" + note
            return (["edit", title, "--append-note", note], { $0.tasks[title] = task })
        case 2:
            task.flagged.toggle()
            return ([task.flagged ? "flag" : "unflag", title], { $0.tasks[title] = task })
        case 3:
            let choices: [(String, String?)] = [("2026-04-01", "2026-04-01"), ("+3d", "2026-03-17"),
                                                ("fri 9:30", "2026-03-20T09:30"), ("none", nil)]
            let (word, written) = choices[random.next(below: choices.count)]
            task.due = written
            return (["due", title, word], { $0.tasks[title] = task })
        case 4:
            task.priority = random.next(below: 4)
            return (["priority", title, ["none", "low", "medium", "high"][task.priority]], { $0.tasks[title] = task })
        case 5:
            count += 1
            let renamed = "w\(number) t\(count) renamed"
            return (["edit", title, "--title", renamed], { $0.tasks[title] = nil; $0.tasks[renamed] = task })
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

/// A program saving list files by hand, one new task line a save, in one of three ways. A save
/// that finds its file replaced by tick meanwhile is redone on the new file, unless the line is
/// already there (tick re-applied its change on top of the editor's): an editor that notices its
/// file was replaced. No save overwrites a change tick made after the editor's read.
final class ListEditor: @unchecked Sendable {
    enum Style: String, CaseIterable {
        /// A new file swapped in with an exchange; when what came out is not what it read, the
        /// other version is swapped back and the save starts again.
        case rename
        /// The file read through a descriptor, truncated, and written in 2 to 5 pieces with seeded
        /// pauses of at most W/2 before each (W: tick's 50 ms quiet window).
        case inPlace = "in-place"
        /// The line appended with one write.
        case append
        /// The line appended with one write, never checked nor saved again (`echo LINE >> list.md`):
        /// a write that lands in the file tick set aside is only kept by tick's recovery of it.
        case blindAppend = "blind-append"
    }

    /// tick's quiet window in microseconds (README, "Safe writes").
    static let window: UInt32 = 50_000

    let name: String
    let styles: [Style]
    let paths: [String]
    let temporary: String
    /// tick's lock: held by a tick process for the whole of a change.
    let lock: String
    /// The titles it saved, in order.
    var written: [String] = []
    /// Saves it had to redo because tick replaced the file meanwhile.
    var redone = 0
    /// In-place saves whose pieces ended up more than W apart (a loaded machine descheduled the
    /// editor): outside what tick promises, so counted and reported.
    var slowSaves = 0
    var failures: [String] = []
    private var random: SeededGenerator

    /// An editor of the lists `paths` (one chosen at random for each save) in the `styles` given
    /// (one chosen at random for each save).
    init(name: String, folder: String, lists: [String], styles: [Style], seed: UInt64) {
        self.name = name
        self.styles = styles
        paths = lists.map { folder + "/" + $0 + ".md" }
        temporary = folder + "/.editor-" + name
        lock = folder + "/.tick/lock"
        random = SeededGenerator(seed: seed)
    }

    func save(_ n: Int) {
        let path = paths[random.next(below: paths.count)]
        let style = styles[random.next(below: styles.count)]
        let title = "\(name) \(n)"
        let line = Array("- [ ] \(title)\n".utf8)
        for attempt in 0..<1000 {
            // A save that found tick's file in place may still be kept: tick puts back a file it
            // set aside, and merges a save into it. Only once that change is over does the list
            // say whether the line is there (saving it again before would put it there twice).
            if attempt > 0 { waitForTick() }
            if attempt > 0, let now = read(path), contains(now, line) { break }
            let saved: Bool
            switch style {
            case .rename: saved = renameSave(path, line)
            case .inPlace: saved = inPlaceSave(path, line)
            case .append: saved = appendSave(path, line)
            case .blindAppend: _ = appendSave(path, line); saved = true
            }
            if saved { written.append(title); return }
            if attempt == 0 { redone += 1 }
        }
        if let now = read(path), contains(now, line) { written.append(title) } else {
            failures.append("\(title): the file kept being replaced")
        }
    }

    /// Waits until no tick process is in the middle of a change (it holds its lock throughout).
    private func waitForTick() {
        let fd = open(lock, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = flock(fd, LOCK_EX)
        _ = flock(fd, LOCK_UN)
    }

    /// A seeded pause of at most W/2.
    private func pause() { usleep(UInt32(random.next(below: Int(Self.window / 2) + 1))) }

    /// A seeded pause of at most 2 W between two saves, as a person or a tool saves now and then:
    /// an editor that never paused would keep tick from ever finding a quiet moment.
    func rest() { usleep(UInt32(random.next(below: Int(Self.window * 2) + 1))) }

    private func renameSave(_ path: String, _ line: [UInt8]) -> Bool {
        guard let before = read(path) else { failures.append("cannot read \(path)"); return true }
        guard FileManager.default.createFile(atPath: temporary, contents: Data(ensureNewline(before) + line)) else {
            failures.append("cannot write \(temporary)"); return true
        }
        guard tick_rename_exchange(temporary, path) == 0 else { failures.append("exchange failed"); return true }
        if read(temporary) == before { unlink(temporary); return true }
        _ = tick_rename_exchange(temporary, path)
        unlink(temporary)
        return false
    }

    private func inPlaceSave(_ path: String, _ line: [UInt8]) -> Bool {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { failures.append("cannot open \(path)"); return true }
        defer { close(fd) }
        var before: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            before += buffer[..<n]
        }
        let after = ensureNewline(before) + line
        var cuts = (0..<(1 + random.next(below: 4))).map { _ in random.next(below: after.count + 1) }
        cuts = ([0] + cuts.sorted() + [after.count])
        pause()
        guard ftruncate(fd, 0) == 0 else { failures.append("cannot truncate \(path)"); return true }
        var last = DispatchTime.now().uptimeNanoseconds
        var slow = false
        for (start, end) in zip(cuts, cuts.dropFirst()) where start < end {
            pause()
            let now = DispatchTime.now().uptimeNanoseconds
            if now - last > UInt64(Self.window) * 1000 { slow = true }
            last = now
            let piece = Array(after[start..<end])
            let n = piece.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(start)) }
            guard n == piece.count else { failures.append("short write to \(path)"); return true }
        }
        if slow { slowSaves += 1 }
        return isStillTheList(fd, path)
    }

    private func appendSave(_ path: String, _ line: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { failures.append("cannot open \(path)"); return true }
        defer { close(fd) }
        let n = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard n == line.count else { failures.append("short write to \(path)"); return true }
        return isStillTheList(fd, path)
    }

    private func isStillTheList(_ fd: Int32, _ path: String) -> Bool {
        var mine = stat(), there = stat()
        return fstat(fd, &mine) == 0 && stat(path, &there) == 0 && mine.st_ino == there.st_ino
    }

    func read(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

    private func ensureNewline(_ bytes: [UInt8]) -> [UInt8] {
        bytes.isEmpty || bytes.last == 0x0A ? bytes : bytes + [0x0A]
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let text = String(decoding: haystack, as: UTF8.self), line = String(decoding: needle, as: UTF8.self)
        return text.hasPrefix(line) || text.contains("\n" + line)
    }
}

/// Compares the folder with what the writers and editors expect: every acknowledged change there,
/// once; every editor line there, once; nothing else but `others`; every list reads back byte for
/// byte; nothing but the lists and `.tick/` left beside them. Returns a one-line report.
@discardableResult
func expectFolderHoldsEverything(_ sandbox: Sandbox, folder: String, lists: [String], writers: [TickWriter],
                                 editors: [ListEditor], others: [String],
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    for writer in writers {
        #expect(writer.failures.isEmpty, "writer \(writer.number): \(writer.failures.prefix(3))", sourceLocation: sourceLocation)
    }
    for editor in editors {
        #expect(editor.failures.isEmpty, "editor \(editor.name): \(editor.failures.prefix(3))", sourceLocation: sourceLocation)
    }
    let result = try sandbox.run(["--dir", folder, "all", "--all", "--json"])
    expectRun(result, status: 0, stderr: "")
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    var found: [String: ExpectedTask] = [:]
    var counts: [String: Int] = [:]
    var rest: [String] = []
    let editorNames = Set(editors.map(\.name))
    for object in objects {
        let title = object["title"] as? String ?? ""
        counts[title, default: 0] += 1
        if title.hasPrefix("w"), title.first(where: \.isWhitespace) != nil, !editorNames.contains(where: { title.hasPrefix($0 + " ") }) {
            found[title] = ExpectedTask(json: object)
        } else if !editorNames.contains(where: { title.hasPrefix($0 + " ") }) {
            rest.append(title)
        }
    }
    var expected: [String: ExpectedTask] = [:]
    for writer in writers { expected.merge(writer.tasks) { a, _ in a } }
    let lostChanges = expected.filter { found[$0.key] != $0.value }.sorted { $0.key < $1.key }
    // A change left in part is found whole before it or whole after it, whichever tick's next run chose.
    var settled: Set<String> = []
    var halfSettled: [String] = []
    for writer in writers {
        for change in writer.unsettled {
            let now = found.filter { change.titles.contains($0.key) }
            if now == change.before || now == change.after {
                settled.formUnion(change.titles)
            } else {
                halfSettled.append("\(change.titles.sorted()): before \(change.before), after \(change.after), found \(now)")
            }
        }
    }
    // A backup an acknowledged change named holds a save that tick kept, and told of: its editor lines are kept, not lost.
    let named = Set(writers.flatMap(\.keptBackups).map { $0.split(separator: "/").last.map(String.init) ?? $0 })
    var keptLines: Set<String> = []
    for name in named {
        let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("- [") {
            keptLines.insert(String(line.dropFirst(6)))
        }
    }
    let editorLines = editors.flatMap(\.written)
    let lostLines = editorLines.filter { counts[$0] == nil && !keptLines.contains($0) }
    let duplicates = counts.filter { $0.value > 1 }.map(\.key).sorted()
    let unexpected = Set(found.keys).subtracting(expected.keys).subtracting(settled).sorted()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    let backups = names.filter { $0.contains(".tick-backup-") }
    let report = """
        \(writers.map(\.acknowledged).reduce(0, +)) acknowledged tick changes, \
        \(writers.map(\.refused).reduce(0, +)) refused (nothing written), \
        \(writers.map(\.notFound).reduce(0, +)) found no task in an editor's version of the list (nothing written), \
        \(writers.map(\.unsettled.count).reduce(0, +)) left in part for the next run (found whole before or after: \
        \(halfSettled.isEmpty ? "each" : "not all")); \
        \(editors.map { "\($0.written.count) saves by \($0.name) (\($0.redone) redone)" }.joined(separator: ", ")), \
        \(editors.map(\.slowSaves).reduce(0, +)) in-place saves with pieces more than W apart; \
        lost changes \(lostChanges.count), lost editor lines \(lostLines.count), duplicates \(duplicates.count), \
        unacknowledged tasks present \(unexpected.count), backup files \(backups.count) \
        (named by a change tick made: \(backups.filter(named.contains).count))
        """
    #expect(!expected.isEmpty, sourceLocation: sourceLocation)
    // tick's promise holds for a writer whose pieces are at most W apart (README, "Safe writes"):
    // when a loaded machine spread an in-place save's pieces further, what tick read of that list
    // may have been half a save, and losses there are reported but outside the promise.
    let slowSaves = editors.map(\.slowSaves).reduce(0, +)
    if slowSaves > 0, !(lostChanges.isEmpty && lostLines.isEmpty) {
        print("outside the window W (\(slowSaves) slow in-place saves): \(lostChanges.count) changes and \(lostLines.count) editor lines lost")
    }
    #expect(lostChanges.isEmpty || slowSaves > 0, "\(lostChanges.prefix(5).map { "\($0.key): want \($0.value), found \(found[$0.key].map(String.init(describing:)) ?? "nothing")" })",
            sourceLocation: sourceLocation)
    #expect(lostLines.isEmpty || slowSaves > 0, "\(lostLines.prefix(5))", sourceLocation: sourceLocation)
    #expect(halfSettled.isEmpty, "\(halfSettled.prefix(3))", sourceLocation: sourceLocation)
    #expect(duplicates.isEmpty, "\(duplicates.prefix(5))", sourceLocation: sourceLocation)
    #expect(unexpected.isEmpty, "\(unexpected.prefix(5))", sourceLocation: sourceLocation)
    #expect(rest.sorted() == others.sorted(), sourceLocation: sourceLocation)

    expectRun(try sandbox.run(["--dir", folder, "check"]), status: 0,
              stdout: "Checked \(lists.count) lists: no problems\n", stderr: "")
    #expect(names.filter { !$0.contains(".tick-backup-") } == ([".tick"] + lists.map { $0 + ".md" }).sorted(),
            sourceLocation: sourceLocation)
    #expect(backups.allSatisfy(named.contains) || slowSaves > 0, "\(backups)", sourceLocation: sourceLocation)
    return report
}

/// Runs `body` on its own thread; `wait()` on the group waits for it.
func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    Thread {
        body()
        group.leave()
    }.start()
}

/// A value handed to another thread whose use the test keeps safe itself.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
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
