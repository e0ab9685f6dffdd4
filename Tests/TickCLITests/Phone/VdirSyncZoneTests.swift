import Foundation
import Testing

/// A phone's `DUE;TZID=…` date-time: converted to the task's local time when the zone is known,
/// kept at its clock time and reported when it is not.
@Suite("vdir sync: TZID")
struct VdirSyncZoneTests {
    static let home = "# Home\n\n- [ ] Milk id:milk\n- [ ] Eggs id:eggs\n- [ ] Jam id:jam\n- [ ] Tea id:tea\n"

    /// `object` with its DUE line (none before) set to `due`, and `extra` before END:VCALENDAR.
    static func withDue(_ object: String, _ due: String, extra: String = "") -> String {
        object.replacingOccurrences(of: "STATUS:NEEDS-ACTION\r\n", with: "STATUS:NEEDS-ACTION\r\n" + due + "\r\n")
            .replacingOccurrences(of: "END:VCALENDAR\r\n", with: extra + "END:VCALENDAR\r\n")
    }

    @Test("an IANA TZID, a VTIMEZONE's X-LIC-LOCATION and a fixed-offset VTIMEZONE convert to local time; an unknown TZID is kept as written and reported")
    func zones() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": Self.home])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        // Berlin is UTC+1 in March (before 29 March) and UTC+2 in July.
        try sandbox.write("vdir/home/milk.ics", Self.withDue(try sandbox.read("vdir/home/milk.ics"), "DUE;TZID=Europe/Berlin:20260320T093000"))
        let outlook = "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nX-LIC-LOCATION:Europe/Berlin\r\nBEGIN:STANDARD\r\n"
            + "DTSTART:16011028T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\n"
            + "DTSTART:16010325T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
        try sandbox.write("vdir/home/eggs.ics", Self.withDue(try sandbox.read("vdir/home/eggs.ics"),
                                                             "DUE;TZID=\"W. Europe Standard Time\":20260701T093000", extra: outlook))
        let fixed = "BEGIN:VTIMEZONE\r\nTZID:India\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0530\r\n"
            + "TZOFFSETTO:+0530\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        try sandbox.write("vdir/home/jam.ics", Self.withDue(try sandbox.read("vdir/home/jam.ics"), "DUE;TZID=India:20260320T093000", extra: fixed))
        try sandbox.write("vdir/home/tea.ics", Self.withDue(try sandbox.read("vdir/home/tea.ics"), "DUE;TZID=Mars/Olympus_Mons:20260320T093000"))

        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "tick: warning: Home: \"Tea\": TZID \"Mars/Olympus_Mons\" is no time zone tick knows; its time was taken as written, in local time\n")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            - [ ] Milk id:milk due:2026-03-20T08:30
            - [ ] Eggs id:eggs due:2026-07-01T07:30
            - [ ] Jam id:jam due:2026-03-20T04:00
            - [ ] Tea id:tea due:2026-03-20T09:30

            """)
        // Written back as tick writes a time (floating local), the phone's VTIMEZONE kept after it.
        #expect(try sandbox.read("vdir/home/milk.ics").contains("DUE:20260320T083000\r\n"))
        #expect(try sandbox.read("vdir/home/eggs.ics").contains("X-LIC-LOCATION:Europe/Berlin\r\n"))

        // In another local zone, the same instant is another clock time.
        let other = try Fixtures.diskFolder(["home.md": Self.home])
        other.environment["TZ"] = "America/New_York"
        other.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try other.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        try other.write("vdir/home/milk.ics", Self.withDue(try other.read("vdir/home/milk.ics"), "DUE;TZID=Europe/Berlin:20260320T093000"))
        expectRun(try other.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        #expect(try other.read("tasks/home.md").contains("- [ ] Milk id:milk due:2026-03-20T04:30\n"))
    }

    @Test("through Radicale: a VTODO the phone adds with DUE;TZID=Europe/Berlin and its VTIMEZONE becomes a task due at the local time")
    func throughRadicale() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": "# Groceries\n\n- [ ] Milk id:milk\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        let object = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
            + "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
            + "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\n"
            + "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n"
            + "END:VTIMEZONE\r\nBEGIN:VTODO\r\nUID:berlin-1\r\nDTSTAMP:20260312T070000Z\r\nSUMMARY:Call Berlin\r\n"
            + "DUE;TZID=Europe/Berlin:20260710T180000\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try rig.phone(["put", "groceries", "berlin-1"], input: object)
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "", "\(result)")
        let list = try sandbox.read("tasks/groceries.md")
        #expect(list == "# Groceries\n\n- [ ] Milk id:milk\n- [ ] Call Berlin due:2026-07-10T16:00 id:berlin-1\n", "\(list)")
        let server = try rig.server()["groceries"]
        #expect(server?.value("berlin-1", "DUE") == "20260710T160000", "\(String(describing: server?.todos["berlin-1"]))")
    }
}
