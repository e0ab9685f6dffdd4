import Testing
@testable import TickCore
import TickFormat

/// A change of many tasks (`TaskFolder.edit`) finds each task at its index in the list as read when
/// the file still holds those titles in that order, and by its key when the file was edited by hand
/// since: either way the tasks named are the tasks changed.
@Suite("Changes of many tasks: finding the tasks")
struct ManyTaskEditTests {
    static let day = Day(year: 2026, month: 3, day: 14)!

    func folder(_ text: String) throws -> (TemporaryFolder, TaskFolder) {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("a.md", text)
        let folder = Folder(location: FolderLocation(path: dir.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        return (dir, try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"]))
    }

    static let list = (0..<12).map { "- [ ] \($0 % 4 == 3 ? "twin" : "task \($0)")\n" }.joined()

    /// The tasks named: every other one, twins among them.
    static func named(_ tasks: TaskFolder) -> [TaskID] {
        tasks.library.ids.filter { $0.index % 2 == 1 }
    }

    @Test("the list as read: each task is completed where it is, and keeps its key")
    func asRead() throws {
        let (dir, tasks) = try folder(Self.list)
        let ids = Self.named(tasks)
        let (after, edited) = try tasks.edit(ids, [.complete(on: Self.day)])
        let expected = (0..<12).map { i in
            let title = i % 4 == 3 ? "twin" : "task \(i)"
            return i % 2 == 1 ? "- [x] \(title) done:2026-03-14\n" : "- [ ] \(title)\n"
        }.joined()
        #expect(dir.read("a.md") == expected)
        #expect(edited.map(\.after) == ids.map(Optional.init))
        #expect(ids.allSatisfy { after.task($0).done })
    }

    @Test("a list edited by hand since it was read: each task is found by its key, not its old index")
    func editedByHand() throws {
        let (dir, tasks) = try folder(Self.list)
        let ids = Self.named(tasks)
        let titles = ids.map { tasks.library.task($0).title }
        // Someone adds a task at the top and one in the middle: every index after them moves.
        var lines = Self.list.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("- [ ] added by hand", at: 5)
        lines.insert("- [ ] new on top", at: 0)
        try dir.write("a.md", lines.joined(separator: "\n"))
        let (after, edited) = try tasks.edit(ids, [.complete(on: Self.day)])
        let text = try #require(dir.read("a.md"))
        let done = text.split(separator: "\n").filter { $0.hasPrefix("- [x] ") }
            .map { String($0.dropFirst(6).dropLast(" done:2026-03-14".count)) }
        #expect(done == titles)
        #expect(text.hasPrefix("- [ ] new on top\n"))
        #expect(text.contains("- [ ] added by hand\n- [x] task 5 done:2026-03-14\n"))
        #expect(text.hasSuffix("- [x] twin done:2026-03-14\n"))
        for (task, title) in zip(edited, titles) {
            let now = try #require(task.after)
            #expect(after.task(now).title == title)
            #expect(after.task(now).done)
        }
    }
}
