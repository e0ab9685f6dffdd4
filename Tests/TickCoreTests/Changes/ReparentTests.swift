import Testing
@testable import TickCore
import TickFormat

/// `TaskFolder.reparent`: a task moves within its list under another parent, or out to the top level,
/// with its notes and subtasks, as one undoable change that leaves every other byte as it was.
@Suite("reparenting a task within its list")
struct ReparentTests {
    func folder(_ files: [String: String]) throws -> (TemporaryFolder, TaskFolder) {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        for (name, text) in files { try dir.write(name, text) }
        let folder = Folder(location: FolderLocation(path: dir.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        return (dir, try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"]))
    }

    func id(_ tasks: TaskFolder, _ title: String) -> TaskID {
        tasks.library.ids.first { tasks.library.task($0).title == title }!
    }

    static let text = "# Home\n\nSome words.\n\n- [ ] A\n  * [ ] A1\n  * [x] A2\n- [ ] B due:2026-12-09\n  notes of B\n  - [ ] B1\n- [ ] C\n\nclosing words\n"

    @Test("a task with its notes and subtasks becomes the last subtask of another, in the form of that parent's subtasks; undo restores the bytes")
    func underAnotherTask() throws {
        let (dir, tasks) = try folder(["home.md": Self.text])
        let b = id(tasks, "B"), a = id(tasks, "A")
        let (library, moved) = try tasks.reparent([.init(task: b, parent: a)], summary: "test: moved")
        #expect(dir.read("home.md") == "# Home\n\nSome words.\n\n- [ ] A\n  * [ ] A1\n  * [x] A2\n  * [ ] B due:2026-12-09\n    notes of B\n    - [ ] B1\n- [ ] C\n\nclosing words\n")
        let now = try #require(moved[0])
        #expect(library.task(now).title == "B")
        #expect(library.parent(of: now).map { library.task($0).title } == "A")
        #expect(library.children(of: now).map { library.task($0).title } == ["B1"])
        _ = try tasks.undoLast(force: false)
        #expect(dir.read("home.md") == Self.text)
    }

    @Test("a subtask moved to the top level goes right after its old top-level ancestor; a task moved below itself is refused, nothing written")
    func toTopLevel() throws {
        let (dir, tasks) = try folder(["home.md": Self.text])
        _ = try tasks.reparent([.init(task: id(tasks, "A1"), parent: nil)], summary: "test: out")
        #expect(dir.read("home.md") == "# Home\n\nSome words.\n\n- [ ] A\n  * [x] A2\n- [ ] A1\n- [ ] B due:2026-12-09\n  notes of B\n  - [ ] B1\n- [ ] C\n\nclosing words\n")
        let after = dir.read("home.md")
        #expect(throws: MutationError.self) { try tasks.reparent([.init(task: id(tasks, "B"), parent: id(tasks, "B1"))], summary: "test") }
        #expect(dir.read("home.md") == after)
    }

    @Test("several moves in one list are one change: one undo reverts them all")
    func severalMoves() throws {
        let (dir, tasks) = try folder(["home.md": Self.text])
        _ = try tasks.reparent([.init(task: id(tasks, "C"), parent: id(tasks, "A")), .init(task: id(tasks, "B1"), parent: nil)],
                               summary: "test: two")
        #expect(dir.read("home.md") == "# Home\n\nSome words.\n\n- [ ] A\n  * [ ] A1\n  * [x] A2\n  * [ ] C\n- [ ] B due:2026-12-09\n  notes of B\n- [ ] B1\n\nclosing words\n")
        _ = try tasks.undoLast(force: false)
        #expect(dir.read("home.md") == Self.text)
    }
}
