import Testing
import TickFormat
@testable import TickCore

/// Every file-system call of each write command failing in turn (EIO), on the in-memory file
/// system: the `n`-th call of the command, whatever its operation (reads, statuses and folder
/// listings included), for every `n` the command makes. Whatever tick reported, after the next
/// run's recovery the folder is the old state or the new one (no task in neither list nor in
/// both), a change tick reported done is there, a change in effect can be undone (and an undo
/// that failed can still be made), nothing but lists is left beside the lists, and a second
/// recovery changes nothing.
@Suite("every call of every write command failing in turn")
struct FaultMatrixTests {
    static let files = ["inbox.md": CrashTests.inbox, "work.md": CrashTests.work, "home/garden.md": "Prose.\n\n1. [ ] Water #flag\n"]
    static func key(_ path: String, _ title: String) -> TaskKey { TaskKey(path: path, title: title, occurrence: 0) }

    nonisolated(unsafe) static let commands: [(name: String, run: (Driver) throws -> Void)] = [
        ("add", { m in try m.insert(NewTask(title: "New task"), into: "inbox.md") }),
        ("mv", { m in try m.move([key("inbox.md", "Buy milk")], to: "work.md") }),
        ("rm", { m in try m.remove([key("work.md", "Report")]) }),
        ("list rm", { m in try m.change(.remove(list: try m.list("home/garden.md"), force: true)) }),
        ("undo", { m in _ = try m.undo(force: false) }),
        ("import", { m in
            _ = try m.folder.add([("inbox.md", nil, [(NewTask(title: "Imported one"), nil)]),
                                  ("imported.md", Array("# Imported\n".utf8), [(NewTask(title: "Imported two"), nil)])],
                                 summary: "imported 2 tasks from todo.txt")
        }),
    ]

    /// A fresh folder; for undo, with a move made first (the change to undo).
    static func setUp(_ command: String) throws -> InMemoryFileSystem {
        let fs = memoryFolder(files)
        if command == "undo" { try openMutator(fs).move([key("inbox.md", "Buy milk")], to: "work.md") }
        return fs
    }

    @Test("a failure at any call leaves the old state or the new one, undoable, with nothing lost or doubled",
          arguments: commands.indices)
    func failAtEveryCall(_ c: Int) throws {
        let (name, run) = Self.commands[c]
        let reference = try Self.setUp(name)
        let old = reference.lists("/tasks")
        let start = reference.calls
        try run(try openMutator(reference))
        let calls = reference.calls - start
        let new = reference.lists("/tasks")
        #expect(old != new && calls >= 20, "\(name): \(calls) calls")

        var outcomes = (old: 0, new: 0, reported: 0)
        for n in 1...calls {
            let context = "\(name), call \(n) of \(calls) failing"
            let fs = try Self.setUp(name)
            fs.fail(call: n, with: Errno.io)
            let succeeded = (try? run(try openMutator(fs))) != nil
            fs.restart()
            let recovered = try FolderWriter(root: "/tasks", fileSystem: fs)
            let after = fs.lists("/tasks")
            #expect(after == old || after == new, "\(context): \(after) notes \(recovered.recoveryNotes)")
            if succeeded {
                outcomes.reported += 1
                #expect(after == new, "\(context): reported done, not there")
            }
            if after == new { outcomes.new += 1 } else { outcomes.old += 1 }
            #expect(fs.tree("/tasks").allSatisfy { $0.hasPrefix(".tick") || $0.hasSuffix(".md") || $0.hasSuffix("/") },
                    "\(context): \(fs.tree("/tasks"))")
            let again = try FolderWriter(root: "/tasks", fileSystem: fs)
            #expect(again.recoveryNotes == [], "\(context)")
            #expect(fs.lists("/tasks") == after, "\(context): the second recovery changed a list")
            // The change in effect (or, for undo, the change it failed to undo) is undoable.
            if name == "undo" ? after == old : after == new {
                #expect(throws: Never.self, "\(context)") { _ = try openMutator(fs).undo(force: false) }
                #expect(fs.lists("/tasks") == (name == "undo" ? new : old), "\(context): undo did not restore")
            }
        }
        print("fault matrix: \(name): \(calls) calls x EIO: \(outcomes.old) old, \(outcomes.new) new, \(outcomes.reported) reported done")
        #expect(outcomes.old > 0 && outcomes.new > 0)
    }
}
