import Testing
import TickFormat
@testable import TickCore

/// Opens the in-memory folder `/tasks` for writing through `TaskFolder`, as a write command does:
/// the writer (which recovers), then the lists from its scan.
func openMutator(_ fs: InMemoryFileSystem) throws -> Driver {
    let folder = Folder(location: FolderLocation(path: "/tasks", source: .option, exists: true), fileSystem: fs)
    return Driver(try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"]))
}

/// The calls the write commands make, by task key and list path.
final class Driver {
    let folder: TaskFolder
    init(_ folder: TaskFolder) { self.folder = folder }

    func id(_ key: TaskKey) throws -> TaskID {
        guard let id = folder.library.id(of: key) else { throw MutationError.taskGone(key) }
        return id
    }

    func list(_ path: String) throws -> Int {
        guard let list = folder.library.list(at: path) else { throw MutationError.listGone(path: path) }
        return list
    }

    func update(_ keys: [TaskKey], _ edit: TaskEdit) throws { _ = try folder.edit(try keys.map(id), [edit]) }
    func insert(_ task: NewTask, into path: String) throws { _ = try folder.add(task, toListAt: path, at: .end) }
    func move(_ keys: [TaskKey], to path: String) throws { _ = try folder.move(try keys.map(id), to: try list(path)) }
    func remove(_ keys: [TaskKey]) throws { _ = try folder.remove(try keys.map(id)) }
    func change(_ change: ListChange) throws { _ = try folder.change(change) }
    func undo(force: Bool) throws -> String { try folder.undo(force: force) }
}

/// The process killed at every changing call of each write command in turn (the in-memory file
/// system stops there, as SIGKILL would). After the next run's recovery, every list holds its whole
/// old or whole new content, the folder as a whole is the old state or the new one (nothing
/// duplicated, nothing lost), no temporary file is left, and a second recovery changes nothing.
@Suite("crashes at every write step")
struct CrashTests {
    static let inbox = "# Inbox\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  semi-skimmed\n"
    static let work = "# Work\r\n\r\n- [ ] Report due:2026-03-20\r\n  - [ ] Figures\r\n"
    static let files = ["inbox.md": inbox, "work.md": work, "home/garden.md": "Prose.\n\n1. [ ] Water #flag\n"]
    static let day = Day(year: 2026, month: 3, day: 14)!

    static func key(_ path: String, _ title: String) -> TaskKey { TaskKey(path: path, title: title, occurrence: 0) }

    /// The commands, as the CLI drives them through the `Mutator`.
    nonisolated(unsafe) static let commands: [(name: String, run: (Driver) throws -> Void)] = [
        ("add", { m in try m.insert(NewTask(title: "New task"), into: "inbox.md") }),
        ("done", { m in
            try m.update([key("inbox.md", "Buy milk")], .complete(on: day))
        }),
        ("mv", { m in try m.move([key("inbox.md", "Buy milk")], to: "work.md") }),
        ("rm", { m in try m.remove([key("work.md", "Report")]) }),
        ("list rename", { m in
            try m.change(.rename(list: try m.list("inbox.md"), to: "Later"))
        }),
        ("list rm", { m in try m.change(.remove(list: try m.list("home/garden.md"), force: true)) }),
        ("undo", { m in _ = try m.undo(force: false) }),
    ]

    /// A fresh folder; for undo, with a move made first (the change to undo).
    static func setUp(_ command: String) throws -> InMemoryFileSystem {
        let fs = memoryFolder(files)
        if command == "undo" {
            try openMutator(fs).move([key("inbox.md", "Buy milk")], to: "work.md")
        }
        return fs
    }

    @Test("killed at each changing call, then recovered: whole old or whole new, and recovery is idempotent",
          arguments: commands.indices)
    func killedAtEveryStep(_ c: Int) throws {
        let (name, run) = Self.commands[c]
        // The command left alone: its result, and how many changing calls it makes.
        let reference = try Self.setUp(name)
        let old = reference.lists("/tasks")
        let mutator = try openMutator(reference)
        let first = reference.changingCalls
        try run(mutator)
        let steps = reference.changingCalls - first
        let new = reference.lists("/tasks")
        #expect(old != new, "\(name) changed nothing")
        #expect(steps >= 4, "\(name): only \(steps) steps")

        var sawOld = false, sawNew = false, sawPartial = false
        for step in 1...steps {
            let context = "\(name), killed at changing call \(step) of \(steps)"
            let fs = try Self.setUp(name)
            let m = try openMutator(fs)
            fs.crash(atChange: step)
            // The process dies at that call: the command throws, unless a best-effort write after
            // the change (the retired refs) swallowed the failure, and no later call gets through.
            _ = try? run(m)
            #expect(fs.crashed, "\(context)")
            let killed = fs.lists("/tasks")
            if killed != old && killed != new { sawPartial = true }
            for path in Set(old.keys).union(new.keys) {
                #expect(killed[path] == old[path] || killed[path] == new[path], "\(context): \(path) is torn")
            }

            fs.restart()
            let recovered = try FolderWriter(root: "/tasks", fileSystem: fs)
            let after = fs.lists("/tasks")
            #expect(after == old || after == new, "\(context): \(after)")
            if after == old { sawOld = true } else { sawNew = true }
            #expect(fs.tree("/tasks").allSatisfy { $0.hasPrefix(".tick") || $0.hasSuffix(".md") || $0.hasSuffix("/") },
                    "\(context): \(fs.tree("/tasks"))")
            _ = recovered

            let again = try FolderWriter(root: "/tasks", fileSystem: fs)
            #expect(again.recoveryNotes == [], "\(context)")
            #expect(fs.lists("/tasks") == after, "\(context): the second recovery changed a list")
        }
        // Both outcomes happen: a kill before the journal commits is old, after it new.
        #expect(sawOld && sawNew, "\(name): old \(sawOld), new \(sawNew)")
        if name == "mv" || name == "list rename" || name == "undo" { #expect(sawPartial, "\(name) never stopped half-way") }
    }
}
