import Foundation
import Testing

/// tick on an Obsidian vault (README "Using tick on an Obsidian vault", FORMAT.md 11): `.obsidian/`
/// skipped, Today with scheduled and start dates, `done`, `due`, `add` and `show` in the tasks' style,
/// and the configuration keys. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("Obsidian vault: commands")
struct ObsidianVaultCommandTests {
    static func vault(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("vault/.obsidian")
        try sandbox.write("vault/.obsidian/workspace.md", "- [ ] Not a task of the vault 📅 2026-03-14\n")
        for (name, text) in files { try sandbox.write("vault/" + name, text) }
        return sandbox
    }

    static func tick(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> TickResult {
        try sandbox.run(["--dir", "vault"] + arguments, environment: environment)
    }

    static func text(_ sandbox: Sandbox, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: sandbox.path("vault/" + name))), as: UTF8.self)
    }

    static let daily = """
        # Daily
        - [ ] Pay rent ⏫ 📅 2026-03-14
        - [ ] Book the venue ⏳ 2026-03-10
        - [ ] Draft the talk 📅 2026-03-12 🛫 2026-03-20
        - [ ] Water 🔁 every week 📅 2026-03-14
        - [ ] Gym 🔁 every week on Monday 📅 2026-03-09

        """

    @Test("today lists due and scheduled tasks, not those starting later, and skips .obsidian/")
    func today() throws {
        let sandbox = try Self.vault(["daily.md": Self.daily])
        let result = try Self.tick(sandbox, ["--json", "today"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(Set(tasks.compactMap { $0["title"] as? String }) == ["Pay rent", "Book the venue", "Water", "Gym"], "\(result.stdout)")
        let venue = try #require(tasks.first { $0["title"] as? String == "Book the venue" })
        #expect(venue["scheduled"] as? String == "2026-03-10")
        let gym = try #require(tasks.first { $0["title"] as? String == "Gym" })
        #expect(gym["repeat"] as? String == "every week on Monday")
        #expect(gym["recurrence"] is NSNull)
    }

    @Test("done, due and add write in the tasks' style; the plugin's recurring convention by default")
    func writes() throws {
        let sandbox = try Self.vault(["daily.md": Self.daily])
        expectRun(try Self.tick(sandbox, ["done", "Pay rent"]), status: 0)
        expectRun(try Self.tick(sandbox, ["due", "Draft the talk", "2026-03-13"]), status: 0)
        expectRun(try Self.tick(sandbox, ["done", "Water"]), status: 0)
        let gym = try Self.tick(sandbox, ["done", "Gym"])
        #expect(gym.status == 0)
        #expect(gym.stdout.contains("without a next occurrence"), "\(gym.stdout)")
        expectRun(try Self.tick(sandbox, ["add", "--list", "Daily", "Call mum !! due:2026-03-16"]), status: 0)
        #expect(try Self.text(sandbox, "daily.md") == """
            # Daily
            - [x] Pay rent ⏫ 📅 2026-03-14 ✅ 2026-03-14
            - [ ] Book the venue ⏳ 2026-03-10
            - [ ] Draft the talk 📅 2026-03-13 🛫 2026-03-20
            - [ ] Water 🔁 every week 📅 2026-03-21
            - [x] Water 🔁 every week 📅 2026-03-14 ✅ 2026-03-14
            - [x] Gym 🔁 every week on Monday 📅 2026-03-09 ✅ 2026-03-14
            - [ ] Call mum 🔼 📅 2026-03-16

            """)
    }

    @Test("obsidian.recurrence = in-place and obsidian.new-task-style = dataview")
    func configuration() throws {
        let sandbox = try Self.vault(["daily.md": "- [ ] Water 🔁 every week 📅 2026-03-14\n"])
        try sandbox.write("vault/.tick/config", "obsidian.recurrence = in-place\nobsidian.new-task-style = dataview\n")
        expectRun(try Self.tick(sandbox, ["done", "Water"]), status: 0)
        #expect(try Self.text(sandbox, "daily.md") == "- [ ] Water 🔁 every week 📅 2026-03-21\n")
        expectRun(try Self.tick(sandbox, ["list", "new", "Errands"]), status: 0)
        expectRun(try Self.tick(sandbox, ["add", "--list", "Errands", "Milk !!! due:2026-03-15"]), status: 0)
        #expect(try Self.text(sandbox, "errands.md").contains("- [ ] Milk  [priority:: high]  [due:: 2026-03-15]\n"))
    }
}
