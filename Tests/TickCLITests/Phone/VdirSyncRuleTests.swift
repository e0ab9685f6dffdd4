import Foundation
import Testing

/// A phone's changed `RRULE` comes back as `rec:` when tick can state it.
@Suite("vdir sync: the phone's RRULE")
struct VdirSyncRuleTests {
    @Test("a changed RRULE becomes rec: (in the task's mode) and until:; a removed one removes the rule; one no rec: states is reported, tick's kept")
    func rules() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Bins rec:+1w due:2026-03-16 id:bins\n"
                                               + "- [ ] Water rec:1w due:2026-03-16 id:water\n- [ ] Rent rec:+1m due:2026-03-31 id:rent\n"
                                               + "- [ ] Standup rec:+1d due:2026-03-16 id:standup\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        func edit(_ name: String, _ from: String, _ to: String) throws {
            let text = try sandbox.read("vdir/home/\(name).ics")
            #expect(text.contains(from), "\(name): \(text)")
            try sandbox.write("vdir/home/\(name).ics", text.replacingOccurrences(of: from, with: to))
        }
        try edit("bins", "RRULE:FREQ=WEEKLY\r\n", "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20261231\r\n")
        try edit("water", "RRULE:FREQ=WEEKLY\r\n", "RRULE:FREQ=DAILY;INTERVAL=3\r\n")
        try edit("rent", "RRULE:FREQ=MONTHLY\r\n", "")
        try edit("standup", "RRULE:FREQ=DAILY\r\n", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15\r\n")
        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 3 rule changed on the phone, rule kept, the phone changed it too\n"), "\(result)")
        #expect(result.stderr.contains("\"Standup\": kept the Markdown's rule; the phone had RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15, which no rec: states"),
                "\(result)")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            - [ ] Bins rec:+2w due:2026-03-16 id:bins until:2026-12-31
            - [ ] Water rec:3d due:2026-03-16 id:water
            - [ ] Rent due:2026-03-31 id:rent
            - [ ] Standup rec:+1d due:2026-03-16 id:standup

            """)
        #expect(try sandbox.read("vdir/home/bins.ics").contains("X-TICK-REC:rec:+2w until:2026-12-31\r\n"))
        #expect(try sandbox.read("vdir/home/standup.ics").contains("RRULE:FREQ=DAILY\r\n"))
    }
}
