import Foundation
import Testing

/// `tick config` end to end, and the effect of each key. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("tick config")
struct ConfigCommandTests {

    @Test("config shows every key with its value and where it came from: the user's file, the folder's, or tick's default")
    func showsOrigins() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        try sandbox.write("home/.config/tick/config", "color = never\ndate.tonight = 19:30\n")
        try sandbox.write("tasks/.tick/config", "# this clone\n\ncolor = always\n")
        let user = sandbox.path("home/.config/tick/config"), folder = sandbox.path("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "config"]), status: 0, stdout: """
            default-list = Inbox  # tick's default
            color = always  # \(folder):3
            date.tonight = 19:30  # \(user):2
            date.end-of-day = 23:59  # tick's default
            date.order =   # tick's default
            autocommit = false  # tick's default
            recurrence.keep-history = false  # tick's default
            obsidian.global-filter =   # tick's default
            obsidian.new-task-style = tick  # tick's default
            obsidian.recurrence = tasks  # tick's default
            remind.time = 09:00  # tick's default
            vdir.path =   # tick's default
            vdir.lists =   # tick's default
            vdir.pair =   # tick's default
            week-start = monday  # tick's default
            pick.weights.open = 1  # tick's default
            pick.weights.overdue = 6  # tick's default
            pick.weights.overdue-per-day = 1  # tick's default
            pick.weights.overdue-per-day-max = 6  # tick's default
            pick.weights.today = 4  # tick's default
            pick.weights.soon = 1  # tick's default
            pick.weights.low = 1  # tick's default
            pick.weights.medium = 2  # tick's default
            pick.weights.high = 4  # tick's default
            pick.weights.flagged = 3  # tick's default

            """, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "date.tonight"]), status: 0,
                  stdout: "date.tonight = 19:30  # \(user):2\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "config", "color"]), status: 0,
                  stdout: "{\"key\":\"color\",\"value\":\"always\",\"origin\":\"\(folder):3\"}\n")
    }

    @Test("config KEY VALUE changes only the value's bytes on the line that sets the key, keeping spacing, comment and line ending")
    func writesOnlyThatValue() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Fixtures.home])
        let before = "# mine\r\ncolor  =  never   # I read tick in a pager\r\ndate.tonight=19:30\r\n"
        try sandbox.write("tasks/.tick/config", before)
        expectRun(try sandbox.run(["--dir", "tasks", "config", "color", "always"]), status: 0,
                  stdout: "Set color = always in \(sandbox.path("tasks/.tick/config"))\n", stderr: "")
        #expect(try sandbox.read("tasks/.tick/config")
                == "# mine\r\ncolor  =  always   # I read tick in a pager\r\ndate.tonight=19:30\r\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "config", "date.tonight", "7:05"]), status: 0, stdout: "")
        #expect(try sandbox.read("tasks/.tick/config")
                == "# mine\r\ncolor  =  always   # I read tick in a pager\r\ndate.tonight=7:05\r\n")
        // A key without a line gets one at the end.
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "config", "week-start", "sunday"]), status: 0, stdout: "")
        #expect(try sandbox.read("tasks/.tick/config")
                == "# mine\r\ncolor  =  always   # I read tick in a pager\r\ndate.tonight=7:05\r\nweek-start = sunday\n")
        // The same value again writes nothing.
        expectRun(try sandbox.run(["--dir", "tasks", "config", "week-start", "sunday"]), status: 0,
                  stdout: "No change to \(sandbox.path("tasks/.tick/config")): week-start is sunday already\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("tasks/.tick/config"))
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }

    @Test("config refuses an unknown key, a bad value and a value it cannot write, with status 2 and the file unchanged",
          arguments: [(["colr", "never"], "tick: unknown configuration key 'colr'; did you mean 'color'?\n"),
                      (["color", "sometimes"], "tick: bad value 'sometimes' for color (expected auto, always or never)\n"),
                      (["week-start", "friday"], "tick: bad value 'friday' for week-start (expected monday or sunday)\n"),
                      (["date.tonight", "25:00"], "tick: bad value '25:00' for date.tonight (expected a time HH:MM, from 00:00 to 23:59)\n"),
                      (["default-list", "Work #2"], "tick: bad value 'Work #2' for default-list: a value cannot hold ' #', which starts a comment\n"),
                      (["default-list", "a\nb"], "tick: bad value 'a\\nb' for default-list (expected a list's name)\n")])
    func refusals(arguments: [String], message: String) throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        try sandbox.write("tasks/.tick/config", "color = never\n")
        expectRun(try sandbox.run(["--dir", "tasks", "config"] + arguments), status: 2, stdout: "", stderr: message)
        #expect(try sandbox.read("tasks/.tick/config") == "color = never\n")
    }

    @Test("config refuses to write through a symbolic link")
    func refusesLink() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Fixtures.home])
        try sandbox.write("elsewhere", "color = never\n")
        try sandbox.makeFolder("tasks/.tick")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("tasks/.tick/config"), withDestinationPath: sandbox.path("elsewhere"))
        let result = try sandbox.run(["--dir", "tasks", "config", "color", "always"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("a symbolic link"), "\(result)")
        #expect(try sandbox.read("elsewhere") == "color = never\n")
    }

    @Test("week-start sunday makes eow the coming Saturday and next week the coming Sunday; monday keeps Sunday and Monday")
    func weekStartDates() throws {
        // Now is Saturday 14 March 2026.
        let sandbox = try Fixtures.folder(["a.md": "- [ ] One\n- [ ] Two\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "One", "eow"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "Two", "next", "week"]), status: 0)
        #expect(try sandbox.read("tasks/a.md") == "- [ ] One due:2026-03-15\n- [ ] Two due:2026-03-16\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "config", "week-start", "sunday"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "One", "eow"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "Two", "next", "week"]), status: 0)
        #expect(try sandbox.read("tasks/a.md") == "- [ ] One due:2026-03-14\n- [ ] Two due:2026-03-15\n")
    }

    @Test("week-start set: the Scheduled view names weekdays only to the end of the week, later days by date")
    func weekStartScheduledGroups() throws {
        // On Thursday 12 March 2026 a task due Sunday the 15th is 3 days ahead: in this week when it
        // starts on Monday, in the next when it starts on Sunday.
        let sandbox = try Fixtures.folder(["a.md": "- [ ] Brunch due:2026-03-15\n- [ ] Call due:2026-03-17\n"])
        func scheduled() throws -> String {
            try sandbox.run(["--dir", "tasks", "--color", "never", "--now", "2026-03-12T09:00", "scheduled"]).stdout
        }
        let unset = try scheduled()
        #expect(unset.contains("Sunday\n") && unset.contains("Tuesday\n"), "\(unset)")
        try sandbox.write("tasks/.tick/config", "week-start = monday\n")
        let monday = try scheduled()
        #expect(monday.contains("Sunday\n") && monday.contains("Tue Mar 17\n"), "\(monday)")
        try sandbox.write("tasks/.tick/config", "week-start = sunday\n")
        let sunday = try scheduled()
        #expect(sunday.contains("Sun Mar 15\n") && sunday.contains("Tue Mar 17\n"), "\(sunday)")
    }
}
