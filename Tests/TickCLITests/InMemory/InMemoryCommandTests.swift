import Foundation
import Testing
import TickCore

/// The command line run in-process over `InMemoryFileSystem` (TickCore's fake disk, shared with
/// TickCoreTests), with its failure injection: a write command that meets a failing call reports
/// it and loses nothing; one that succeeds writes what the real disk would get.
@Suite("commands over the in-memory file system")
struct InMemoryCommandTests {
    static let home = """
        # Home

        - [ ] Water plants due:2026-03-14
        - [ ] Mow the lawn

        """

    static let work = """
        # Work

        - [ ] Send the report

        """

    /// A fake disk with `/tasks/home.md` and `/tasks/work.md`. The cache is off (`TICK_NO_CACHE`)
    /// but in `cacheOnTheFakeDisk`, so that the calls counted are the change's own.
    static func disk() -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        fs.put("/tasks/home.md", home)
        fs.put("/tasks/work.md", work)
        fs.mkdir("/tasks/.tick")
        return fs
    }

    static let environment = ["TICK_NOW": Sandbox.now, "TICK_NO_CACHE": "1", "HOME": "/home", "LC_ALL": "C.UTF-8"]

    static func tick(_ fs: InMemoryFileSystem, _ arguments: [String]) -> TickResult {
        InProcessRun.run(["--dir", "/tasks"] + arguments, environment: environment, currentDirectory: "/", fileSystem: fs)
    }

    /// Every task line of every list, sorted: what "nothing lost" compares.
    static func taskLines(_ fs: InMemoryFileSystem) -> [String] {
        ["/tasks/home.md", "/tasks/work.md"].flatMap { path in
            (fs.text(path) ?? "").split(separator: "\n").filter { $0.hasPrefix("- [") }.map(String.init)
        }.sorted()
    }

    @Test("add writes the new task into the list on the fake disk")
    func addWrites() throws {
        let fs = Self.disk()
        let result = Self.tick(fs, ["add", "Fix the gate", "--list", "home"])
        expectRun(result, status: 0)
        #expect(fs.text("/tasks/home.md") == Self.home + "- [ ] Fix the gate\n")
        #expect(fs.text("/tasks/work.md") == Self.work)
    }

    @Test("done, then undo, gives back the list byte for byte")
    func doneThenUndo() throws {
        let fs = Self.disk()
        expectRun(Self.tick(fs, ["done", "Mow the lawn"]), status: 0)
        #expect(fs.text("/tasks/home.md") != Self.home)
        expectRun(Self.tick(fs, ["undo"]), status: 0)
        #expect(fs.text("/tasks/home.md") == Self.home)
    }

    @Test("done whose write fails with EIO: exit 3, the error names the list, the list unchanged",
          arguments: [InMemoryFileSystem.Operation.create, .rename, .exchange])
    func doneFailing(_ operation: InMemoryFileSystem.Operation) throws {
        let fs = Self.disk()
        fs.fail(operation, path: "/tasks/", with: EIO)
        let result = Self.tick(fs, ["done", "Mow the lawn"])
        let failed = fs.log.contains { $0.operation == operation }
        if failed {
            expectRun(result, status: 3)
            #expect(result.stderr.hasPrefix("tick: "), "\(result)")
            #expect(fs.text("/tasks/home.md") == Self.home)
        } else {
            // The writer did not use this call for this change: the change went through whole.
            expectRun(result, status: 0)
        }
        #expect(fs.text("/tasks/work.md") == Self.work)
    }

    @Test("two saves while done writes, one into the file it set aside and one appended to its own: exit 0, the change made, a warning naming the backup")
    func secondSaveAppendedOnTop() throws {
        let fs = Self.disk()
        let theirs = Self.home.replacingOccurrences(of: "Mow the lawn", with: "Mow the front lawn")
        var step = 0
        fs.beforeCall = { call in
            if call.operation == .exchange, call.path.hasSuffix("home.md"), step == 0 { fs.saveInPlace("/tasks/home.md", theirs); step = 1 }
            if call.operation == .read, call.path.contains(".home.md.tick-"), step == 1 {
                fs.append("/tasks/home.md", "- [ ] Typed meanwhile\n")
                step = 2
            }
        }
        let result = Self.tick(fs, ["done", "Mow the lawn"])
        fs.beforeCall = nil
        #expect(step == 2)
        let backup = try #require(fs.tree("/tasks").first { $0.hasPrefix("home.md.tick-backup-") })
        #expect(result.stdout.hasPrefix("Completed ") && result.stdout.hasSuffix(" \"Mow the lawn\"\n"), "\(result)")
        expectRun(result, status: 0,
                  stderr: "tick: warning: home.md was saved twice by another program while tick wrote it; tick's change is in place "
                    + "with the newest save, and the other save, which changed the lines tick changed, is kept as \(backup)\n")
        #expect(fs.text("/tasks/home.md") == Self.home.replacingOccurrences(of: "- [ ] Mow the lawn", with: "- [x] Mow the lawn done:2026-03-14")
                + "- [ ] Typed meanwhile\n")
        #expect(fs.text("/tasks/" + backup) == theirs)
    }

    @Test("mv with each of its calls failing in turn loses no task and moves it at most once")
    func mvFailingAtEachCall() throws {
        let clean = Self.disk()
        let calls = { () -> Int in
            expectRun(Self.tick(clean, ["mv", "Mow the lawn", "work"]), status: 0)
            return clean.log.count
        }()
        #expect(calls > 3)
        let moved = Self.taskLines(clean)
        let original = Self.taskLines(Self.disk())
        var failures = 0
        for n in 1...calls {
            let fs = Self.disk()
            fs.fail(call: n, with: EIO)
            let result = Self.tick(fs, ["mv", "Mow the lawn", "work"])
            let lines = Self.taskLines(fs)
            if result.status != 0 {
                failures += 1
                #expect(result.status == 3 || result.status == 1, "call \(n): \(result)")
                #expect(!result.stderr.isEmpty, "call \(n)")
            }
            // Whole old or whole new: never the task in neither list, never in both.
            #expect(lines == original || lines == moved, "call \(n): \(result)\n\(lines)")
        }
        #expect(failures > 0)
    }

    @Test("the cache lives on the fake disk: written 0600, read instead of the lists, refused when damaged")
    func cacheOnTheFakeDisk() throws {
        let fs = Self.disk()
        var environment = Self.environment
        environment["TICK_NO_CACHE"] = nil
        func all() -> (result: TickResult, listsRead: [String]) {
            let start = fs.log.count
            let result = InProcessRun.run(["--dir", "/tasks", "all"], environment: environment, currentDirectory: "/",
                                          fileSystem: fs)
            let read = fs.log[start...].filter { $0.operation == .read && $0.path.hasSuffix(".md") }.map(\.path)
            return (result, read)
        }
        let first = all()
        expectRun(first.result, status: 0)
        #expect(first.result.stdout.contains("Mow the lawn"))
        #expect(first.listsRead.sorted() == ["/tasks/home.md", "/tasks/work.md"])
        #expect(fs.mode("/tasks/.tick/cache") == 0o600)
        // Past the racy window the lists are vouched for by their status: the run after the one
        // that settles them reads neither.
        fs.pause(nanoseconds: 10_000_000_000)
        expectRun(all().result, status: 0, stdout: first.result.stdout)
        let hit = all()
        expectRun(hit.result, status: 0, stdout: first.result.stdout)
        #expect(hit.listsRead.isEmpty, "\(hit.listsRead)")
        // A damaged cache is not used: the lists are read, and the cache is written anew.
        fs.put("/tasks/.tick/cache", String(repeating: "x", count: 4096))
        let damaged = all()
        expectRun(damaged.result, status: 0, stdout: first.result.stdout)
        #expect(damaged.listsRead.count == 2)
        #expect(fs.text("/tasks/.tick/cache") != String(repeating: "x", count: 4096))
        // A list changed by hand is read again.
        fs.pause(nanoseconds: 10_000_000_000)
        fs.saveInPlace("/tasks/work.md", Self.work + "- [ ] Book the train\n")
        let edited = all()
        #expect(edited.result.stdout.contains("Book the train"))
        #expect(edited.listsRead == ["/tasks/work.md"])
    }
}
