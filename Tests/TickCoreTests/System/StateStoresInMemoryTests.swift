import Testing
@testable import TickCore
import TickFormat

/// The pick memory, the retired refs, the reminder state and the vdir state go through the
/// `FileSystem` they are given: over `InMemoryFileSystem` they read and write its files, and
/// nothing of them reaches the real disk.
@Suite("state stores over the in-memory file system")
struct StateStoresInMemoryTests {
    static func taskFolder() -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        fs.put("/tasks/a.md", "- [ ] one\n")
        return fs
    }

    @Test("the pick is saved under .tick (0700) as a 0600 file with a .gitignore, loaded back and cleared")
    func pick() throws {
        let fs = Self.taskFolder()
        let memory = PickMemory(root: "/tasks", fileSystem: fs)
        let picked = PickedTask(path: "a.md", title: "one", occurrence: 0)
        #expect(memory.load() == nil)
        #expect(try memory.save(picked))
        #expect(fs.mode("/tasks/.tick") == 0o700)
        #expect(fs.mode("/tasks/.tick/pick") == 0o600)
        #expect(fs.text("/tasks/.tick/.gitignore") == "*\n!.gitignore\n")
        #expect(fs.text("/tasks/.tick/pick") == "list: a.md\ntitle: one\noccurrence: 0\n")
        #expect(memory.load() == picked)
        #expect(try memory.clear())
        #expect(!fs.exists("/tasks/.tick/pick"))
        #expect(try !memory.clear())
    }

    @Test("a link, a FIFO or a folder at .tick/pick is no current pick")
    func hostilePick() throws {
        let fs = Self.taskFolder()
        let memory = PickMemory(root: "/tasks", fileSystem: fs)
        fs.put("/elsewhere/pick", "list: b.md\ntitle: Other\noccurrence: 0\n")
        fs.mkdir("/tasks/.tick", mode: 0o700)
        fs.symlink("/elsewhere/pick", at: "/tasks/.tick/pick")
        #expect(memory.load() == nil)
        #expect(try !memory.clear())
        #expect(!fs.exists("/tasks/.tick/pick"))
        #expect(fs.text("/elsewhere/pick") == "list: b.md\ntitle: Other\noccurrence: 0\n")
        fs.mkfifo("/tasks/.tick/pick")
        #expect(memory.load() == nil)
        #expect(try !memory.clear())
        fs.mkdir("/tasks/.tick/pick")
        #expect(try !memory.save(PickedTask(path: "a.md", title: "one", occurrence: 0)))
        #expect(try !memory.clear())
        #expect(fs.tree("/tasks/.tick") == [".gitignore", "pick/"])
    }

    @Test("retired refs: nothing written without .tick, read back with it, and never through a linked .tick")
    func retired() throws {
        let fs = Self.taskFolder()
        try RetiredRefs([Ref(hash: 7)]).save(root: "/tasks", fileSystem: fs)
        #expect(!fs.exists("/tasks/.tick"))
        fs.mkdir("/tasks/.tick", mode: 0o700)
        try RetiredRefs([Ref(hash: 7)]).save(root: "/tasks", fileSystem: fs)
        #expect(fs.mode("/tasks/.tick/retired") == 0o600)
        #expect(RetiredRefs.load(root: "/tasks", fileSystem: fs).refs == [Ref(hash: 7)])

        fs.put("/other/a.md", "- [ ] one\n")
        fs.symlink("/tasks/.tick", at: "/other/.tick")
        #expect(RetiredRefs.load(root: "/other", fileSystem: fs).isEmpty)
        try RetiredRefs([Ref(hash: 9)]).save(root: "/other", fileSystem: fs)
        #expect(RetiredRefs.load(root: "/tasks", fileSystem: fs).refs == [Ref(hash: 7)])
    }

    @Test("a task folder loaded from memory reads its retired refs from memory")
    func retiredThroughLoading() throws {
        let fs = Self.taskFolder()
        fs.mkdir("/tasks/.tick", mode: 0o700)
        try RetiredRefs([Ref(hash: 11)]).save(root: "/tasks", fileSystem: fs)
        let folder = Folder(location: FolderLocation(path: "/tasks", source: .option, exists: true), fileSystem: fs)
        #expect(folder.load(environment: ["TICK_NO_CACHE": "1"]).library.retired.refs == [Ref(hash: 11)])
    }

    @Test("the reminder state is kept under XDG_STATE_HOME/tick (0700) in a 0600 file, and read back")
    func reminders() throws {
        let fs = Self.taskFolder()
        let store = try #require(ReminderStore(folder: "/tasks", environment: ["XDG_STATE_HOME": "/state"]))
        #expect(store.load(fileSystem: fs) == ReminderState())
        let state = ReminderState(lastRun: DueDate(iso: "2026-03-14T09:30"),
                                  reported: [.init(key: "id:abc", moment: DueDate(iso: "2026-03-14T08:00")!)])
        do {
            let lock = try store.lock(fileSystem: fs)
            defer { withExtendedLifetime(lock) {} }
            try store.save(state, fileSystem: fs)
        }
        #expect(fs.mode("/state/tick") == 0o700)
        #expect(fs.mode(store.path) == 0o600)
        #expect(store.load(fileSystem: fs) == state)
        // Too large to be ours: nothing recorded.
        try fs.removeFile(store.path)
        fs.put(store.path, String(repeating: "x", count: ReminderStore.sizeLimit + 1), mode: 0o600)
        #expect(store.load(fileSystem: fs) == ReminderState())
    }

    @Test("the vdir state is kept in .tick/vdir (0700) in a 0600 file, and read back")
    func vdir() throws {
        let fs = Self.taskFolder()
        let store = VdirStateStore(taskFolder: "/tasks", vdirRealPath: "/phone", fileSystem: fs)
        #expect(store.load() == VdirState())
        var state = VdirState()
        state.collections["a.md"] = "a"
        try store.save(state)
        #expect(fs.mode("/tasks/.tick/vdir") == 0o700)
        #expect(fs.mode("/tasks/.tick/vdir/" + store.fileName) == 0o600)
        #expect(store.load() == state)
    }
}
