import Testing
@testable import TickCore
import TickFormat

/// The Obsidian Tasks plugin's fields in the folder (FORMAT.md 11): scheduled and start days in
/// Today and `pick`, carried by the cache; completion in the task's style; new tasks in the list's style.
@Suite("Obsidian Tasks: views, cache and completion")
struct ObsidianTaskTests {
    static let day = Day(year: 2026, month: 12, day: 1)!
    static let now = Now(day: day, minutes: 600)

    func folder(_ files: [String: String]) throws -> (TemporaryFolder, Folder) {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        for (name, text) in files { try dir.write(name, text) }
        return (dir, Folder(location: FolderLocation(path: dir.path, source: .option, exists: true), fileSystem: LocalFileSystem()))
    }

    static let vault = """
        - [ ] Due today 📅 2026-12-01
        - [ ] Scheduled earlier ⏳ 2026-11-28
        - [ ] Scheduled later ⏳ 2026-12-05
        - [ ] Starts later 📅 2026-11-30 🛫 2026-12-03
        - [ ] Started 🛫 2026-11-01 [scheduled:: 2026-12-01]
        - [ ] Plain
        - [ ] Gym 🔁 every week on Monday 📅 2026-11-30

        """

    @Test("Today holds tasks due or scheduled today or earlier, without those that start later; from the cache alike")
    func today() throws {
        let (dir, folder) = try self.folder(["vault.md": Self.vault])
        _ = dir
        let fresh = folder.load(useCache: false).library
        _ = folder.load()
        let cached = folder.load().library
        for library in [fresh, cached] {
            let titles = library.tasks(in: ViewQuery(view: .today), now: Self.now).map { library.task($0).title }
            #expect(Set(titles) == ["Due today", "Scheduled earlier", "Started", "Gym"], "\(titles)")
            #expect(library.counts(now: Self.now).today == 4)
            let starts = library.task(TaskID(list: 0, index: 3))
            #expect(starts.start == Day(year: 2026, month: 12, day: 3))
            #expect(library.task(TaskID(list: 0, index: 4)).scheduled == Self.day)
            #expect(library.task(TaskID(list: 0, index: 6)).repeatPhrase == "every week on Monday")
            #expect(library.task(TaskID(list: 0, index: 6)).recurrence == nil)
            let candidates = library.pickCandidates(PickScope(view: nil, list: nil), now: Self.now).map { library.task($0).title }
            #expect(!candidates.contains("Starts later") && candidates.contains("Plain"), "\(candidates)")
        }
    }

    @Test("completing a repeating emoji task keeps the plugin's convention: the next occurrence above, the done one below")
    func tasksConvention() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water 🔁 every week 📅 2026-11-30\n- [ ] Bin 🔁 every day 🏁 delete 📅 2026-11-30\n"])
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        _ = try tasks.edit([TaskID(list: 0, index: 0), TaskID(list: 0, index: 1)], [.complete(on: Self.day)])
        #expect(dir.read("a.md") == "- [ ] Water 🔁 every week 📅 2026-12-07\n- [x] Water 🔁 every week 📅 2026-11-30 ✅ 2026-12-01\n"
                + "- [ ] Bin 🔁 every day 🏁 delete 📅 2026-12-01\n")
    }

    @Test("obsidian.recurrence = in-place: only the date after 📅 moves")
    func inPlace() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Water 🔁 every week 📅 2026-11-30\n"])
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        _ = try tasks.edit([TaskID(list: 0, index: 0)], [.completeInPlace(on: Self.day)])
        #expect(dir.read("a.md") == "- [ ] Water 🔁 every week 📅 2026-12-07\n")
    }

    @Test("a phrase without a rec: equivalent is completed without advancing")
    func unmappedPhrase() throws {
        let (dir, folder) = try self.folder(["a.md": "- [ ] Gym 🔁 every week on Monday 📅 2026-11-30\n"])
        let tasks = try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"])
        _ = try tasks.edit([TaskID(list: 0, index: 0)], [.complete(on: Self.day)])
        #expect(dir.read("a.md") == "- [x] Gym 🔁 every week on Monday 📅 2026-11-30 ✅ 2026-12-01\n")
    }

    @Test("a new task takes the style of its list; a list without tasks, the configured one")
    func newTaskStyle() throws {
        var task = NewTask(title: "Call mum", due: DueDate(day: Self.day), priority: .medium)
        task.style = .dataview
        #expect(task.styled(like: Document("- [ ] Pay ⏫\n")).style == .emoji)
        #expect(task.styled(like: Document("- [ ] Pay !!\n")).style == .tick)
        #expect(task.styled(like: Document("# Empty\n")).style == .dataview)
    }

    @Test("the configuration keys of the Tasks plugin's styles")
    func configuration() {
        var settings = Settings()
        var warnings: [String] = []
        Configuration.parse(Array("obsidian.new-task-style = emoji\nobsidian.recurrence = in-place\nobsidian.new-task-style = fancy\n".utf8),
                            file: "config", into: &settings, warnings: &warnings)
        #expect(settings.newTaskStyle == .emoji)
        #expect(settings.obsidianRecurrenceInPlace)
        #expect(warnings.count == 1)
    }
}
