#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore

@Suite("pick: remembering the current pick")
struct PickMemoryTests {
    @Test("saves under .tick/pick with a .gitignore, loads it back, and clears it")
    func roundTrip() throws {
        let folder = TemporaryFolder()
        let memory = PickMemory(root: folder.path, fileSystem: LocalFileSystem())
        #expect(memory.load() == nil)
        let picked = PickedTask(path: "work/odd\nname.md", title: "Back\\slash \\n and\rbreak", occurrence: 2)
        #expect(try memory.save(picked))
        #expect(folder.read(".tick/.gitignore") == "*\n!.gitignore\n")
        #expect(folder.read(".tick/pick") == #"""
            list: work/odd\nname.md
            title: Back\\slash \\n and\rbreak
            occurrence: 2

            """#)
        #expect(memory.load() == picked)
        #expect(try memory.clear())
        #expect(memory.load() == nil)
        #expect(try !memory.clear())
        #expect(Disk.names(folder.path + "/.tick") == [".gitignore"])
    }

    @Test("a later save replaces the earlier one; an existing .gitignore is kept")
    func replaces() throws {
        let folder = TemporaryFolder()
        try Disk.makeFolder(folder.path + "/.tick")
        try folder.write(".tick/.gitignore", "pick\n")
        let memory = PickMemory(root: folder.path, fileSystem: LocalFileSystem())
        try memory.save(PickedTask(path: "a.md", title: "One", occurrence: 0))
        try memory.save(PickedTask(path: "b.md", title: " Two ", occurrence: 0))
        #expect(memory.load() == PickedTask(path: "b.md", title: " Two ", occurrence: 0))
        #expect(folder.read(".tick/.gitignore") == "pick\n")
    }

    @Test("a file that makes no sense is no current pick", arguments: [
        "", "list: a.md\n", "list: a.md\ntitle: x\noccurrence: many\n", "list: a.md\ntitle: x\noccurrence: -1\n",
        "title: x\noccurrence: 0\n",
    ])
    func nonsense(text: String) throws {
        let folder = TemporaryFolder()
        try Disk.makeFolder(folder.path + "/.tick")
        try folder.write(".tick/pick", text)
        #expect(PickMemory(root: folder.path, fileSystem: LocalFileSystem()).load() == nil)
    }

    @Test("where .tick cannot be written, the pick is simply not remembered")
    func cannotWrite() throws {
        // sysfs refuses new files even to root: a state folder that leads there cannot be written.
        guard Disk.status("/sys/kernel") != nil else { return }
        let folder = TemporaryFolder()
        #expect(symlink("/sys/kernel", folder.path + "/.tick") == 0)
        let memory = PickMemory(root: folder.path, fileSystem: LocalFileSystem())
        #expect(try !memory.save(PickedTask(path: "a.md", title: "One", occurrence: 0)))
        #expect(memory.load() == nil)
    }

    @Test("other failures are errors")
    func otherFailures() throws {
        let folder = TemporaryFolder()
        try folder.write(".tick", "not a folder\n")
        #expect(throws: IOFailure.self) {
            try PickMemory(root: folder.path, fileSystem: LocalFileSystem()).save(PickedTask(path: "a.md", title: "One", occurrence: 0))
        }
    }
}

@Suite("status counts")
struct StatusCountsTests {
    @Test("overdue, due later today and flagged, over open tasks only")
    func counts() {
        let library = makeLibrary([
            ("a.md", """
                - [ ] Late due:2026-03-01
                - [ ] Passed this morning #flag due:2026-03-14T09:00
                - [ ] Tonight due:2026-03-14T20:00
                - [ ] Today due:2026-03-14
                - [ ] Tomorrow #flag due:2026-03-15
                - [x] Done late #flag due:2026-03-01
                  - [ ] Open subtask

                """),
            ("b.md", "- [ ] Plain\n"),
        ])
        #expect(library.statusCounts(now: saturday) == StatusCounts(overdue: 2, today: 2, flagged: 2, open: 7))
        #expect(!library.statusCounts(now: saturday).isQuiet)
    }

    @Test("nothing overdue, due today or flagged is quiet")
    func quiet() {
        let library = makeLibrary([("a.md", "- [ ] Plain\n- [ ] Later due:2026-04-01\n- [x] Old #flag due:2026-01-01\n")])
        let counts = library.statusCounts(now: saturday)
        #expect(counts == StatusCounts(open: 2))
        #expect(counts.isQuiet)
        #expect(makeLibrary([]).statusCounts(now: saturday).isQuiet)
    }
}
