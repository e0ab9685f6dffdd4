import Foundation
import Testing

/// `tick vdir sync` end to end: a phone (python3-caldav) changes tasks on Radicale, vdirsyncer
/// brings them into the vdir, tick into the Markdown, and back. Each scenario asserts the lists'
/// bytes and the server's objects after full rounds (`PhoneRig.round`).
@Suite("vdir sync with Radicale and vdirsyncer")
struct VdirSyncEndToEndTests {
    static let groceries = """
        # Groceries

        - [ ] Milk id:milk
        - [ ] Eggs !! due:2026-03-20 id:eggs
        - [ ] Butter id:butter

        """
    static let work = """
        # Work

        - [ ] Report id:report
        - [ ] Plan id:plan
        - [ ] Call Ann

        """

    static func rig() throws -> PhoneRig {
        let sandbox = try Fixtures.diskFolder(["groceries.md": groceries, "work.md": work])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        return try PhoneRig(sandbox)
    }

    static func put(_ rig: PhoneRig, _ calendar: String, uid: String, _ lines: [String]) throws {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//Reminders//EN", "BEGIN:VTODO", "UID:" + uid,
                     "DTSTAMP:20260311T100000Z"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        try rig.phone(["put", calendar, uid], input: text)
    }

    @Test("the first sync gives ids in one change and uploads every task; the phone's completion, edits and additions come back as only those lines")
    func phoneToTick() throws {
        let rig = try Self.rig()
        defer { rig.stop() }
        let sandbox = rig.sandbox
        let first = try rig.round()
        expectRun(first, status: 0, stderr: "")
        #expect(first.stdout.hasPrefix("gave an id to 1 task\n"))
        let work = try sandbox.read("tasks/work.md")
        let callID = try #require(work.split(separator: "\n").first { $0.hasPrefix("- [ ] Call Ann id:") }).dropFirst(18)
        #expect(work == Self.work.replacingOccurrences(of: "Call Ann", with: "Call Ann id:\(callID)"))
        var server = try rig.server()
        #expect(Set(server.keys) == ["groceries", "work"])
        #expect(Set(server["groceries"]!.todos.keys) == ["milk", "eggs", "butter"])
        #expect(Set(server["work"]!.todos.keys) == ["report", "plan", String(callID)])
        #expect(server["groceries"]!.value("eggs", "DUE") == "20260320")
        #expect(server["groceries"]!.value("eggs", "PRIORITY") == "5")

        // The phone: completes Milk, retitles Eggs with a floating time, a UTC time on Butter,
        // priority and notes on Work's tasks, adds one task to Groceries and a new calendar.
        try rig.phone(batch: [
            ["edit", "groceries", "milk", "STATUS", "COMPLETED"],
            ["edit", "groceries", "milk", "COMPLETED", "20260311T100000Z"],
            ["edit", "groceries", "eggs", "SUMMARY", "Brown eggs"],
            ["edit", "groceries", "eggs", "DUE", "DUE:20260321T183000"],
            ["edit", "groceries", "butter", "DUE", "DUE:20260322T091500Z"],
            ["edit", "work", "report", "PRIORITY", "1"],
            ["edit", "work", "plan", "DESCRIPTION", "Ask Ann\\, then Bo"],
        ])
        try Self.put(rig, "groceries", uid: "B1F0-22@phone.example", ["SUMMARY:Bread", "PRIORITY:9"])
        try rig.phone(["mkcal", "holidays-uuid", "Holidays"])
        try Self.put(rig, "holidays-uuid", uid: "pack", ["SUMMARY:Pack the bags", "DUE;VALUE=DATE:20260401"])

        let second = try rig.round()
        expectRun(second, status: 0, stderr: "")
        #expect(second.stdout.contains("Groceries: 1 added on the phone, 1 completed on the phone, 2 due changed on the phone, 1 title changed on the phone\n"))
        let groceries = try sandbox.read("tasks/groceries.md")
        let breadID = try #require(groceries.split(separator: "\n").first { $0.hasPrefix("- [ ] Bread ! id:") }).dropFirst(17)
        #expect(groceries == """
            # Groceries

            - [x] Milk id:milk done:2026-03-11
            - [ ] Brown eggs !! due:2026-03-21T18:30 id:eggs
            - [ ] Butter id:butter due:2026-03-22T09:15
            - [ ] Bread ! id:\(breadID)

            """)
        #expect(try sandbox.read("tasks/work.md") == """
            # Work

            - [ ] Report id:report !!!
            - [ ] Plan id:plan
              Ask Ann, then Bo
            - [ ] Call Ann id:\(callID)

            """)
        #expect(try sandbox.read("tasks/holidays.md") == "# Holidays\n\n- [ ] Pack the bags due:2026-04-01 id:pack\n")
        server = try rig.server()
        #expect(Set(server["groceries"]!.todos.keys) == ["milk", "eggs", "butter", "B1F0-22@phone.example"])
        #expect(server["groceries"]!.value("B1F0-22@phone.example", "SUMMARY") == "Bread")
        #expect(server["holidays-uuid"]?.todos.keys.sorted() == ["pack"])
        #expect(Set(server.keys) == ["groceries", "work", "holidays-uuid"])

        // Nothing changed: a round writes nothing on either side.
        let quiet = try rig.round(["--json"])
        expectRun(quiet, status: 0, stdout: "{\"givenIDs\":0,\"events\":[],\"written\":[],\"removed\":[],\"collections\":[]}\n")
    }

    @Test("tick's edits reach the phone; different fields of one task merge; the same field keeps the Markdown's and says so; deletions go both ways, and an edit beats a deletion")
    func bothSides() throws {
        let rig = try Self.rig()
        defer { rig.stop() }
        let sandbox = rig.sandbox
        expectRun(try rig.round(), status: 0)
        let tick = { (arguments: [String]) in expectRun(try sandbox.run(["--dir", "tasks"] + arguments), status: 0) }
        try tick(["edit", try sandbox.ref("Milk", dir: "tasks"), "--title", "Oat milk"])
        try tick(["due", try sandbox.ref("Report", dir: "tasks"), "2026-03-25"])
        try rig.phone(["edit", "groceries", "eggs", "SUMMARY", "Free-range eggs"])
        try tick(["priority", try sandbox.ref("Eggs", dir: "tasks"), "high"])
        try rig.phone(["edit", "groceries", "butter", "SUMMARY", "Salted butter"])
        try tick(["edit", try sandbox.ref("Butter", dir: "tasks"), "--title", "Unsalted butter"])
        try rig.phone(["delete", "work", "plan"])
        try tick(["rm", try sandbox.ref("Call Ann", dir: "tasks")])
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "tick: Groceries: \"Unsalted butter\": kept the Markdown's title; the phone had \"Salted butter\"\n")
        #expect(try sandbox.read("tasks/groceries.md") == """
            # Groceries

            - [ ] Oat milk id:milk
            - [ ] Free-range eggs !!! due:2026-03-20 id:eggs
            - [ ] Unsalted butter id:butter

            """)
        #expect(try sandbox.read("tasks/work.md").hasPrefix("# Work\n\n- [ ] Report due:2026-03-25 id:report\n- [ ] Call Ann") == false)
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Report id:report due:2026-03-25\n")
        var server = try rig.server()
        #expect(server["groceries"]!.value("milk", "SUMMARY") == "Oat milk")
        #expect(server["groceries"]!.value("eggs", "SUMMARY") == "Free-range eggs")
        #expect(server["groceries"]!.value("eggs", "PRIORITY") == "1")
        #expect(server["groceries"]!.value("butter", "SUMMARY") == "Unsalted butter")
        #expect(server["work"]!.value("report", "DUE") == "20260325")
        #expect(server["work"]!.todos.keys.sorted() == ["report"])

        // Deleted on the phone, edited in tick: the task stays and goes back to the phone.
        try rig.phone(["delete", "groceries", "milk"])
        try tick(["due", try sandbox.ref("Oat milk", dir: "tasks"), "2026-03-13"])
        let back = try rig.round()
        #expect(back.status == 0, "\(back)")
        #expect(back.stdout.contains("Groceries: deleted on one side and changed on the other, kept"))
        #expect(try sandbox.read("tasks/groceries.md").contains("- [ ] Oat milk id:milk due:2026-03-13\n"))
        server = try rig.server()
        #expect(server["groceries"]!.value("milk", "DUE") == "20260313")
    }

    @Test("a repeating task completed on the phone by STATUS or by moving DUE to the next occurrence is one done; DUE moved elsewhere is a due change; done in tick moves the phone's DUE")
    func repeating() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": """
            # Home

            - [ ] Water the plants rec:+1w due:2026-03-16 id:water
            - [ ] Pay rent rec:+1m due:2026-03-31 id:rent
            - [ ] Standup rec:+1d due:2026-03-12 id:standup
            - [ ] Bins rec:+1w due:2026-03-13 id:bins

            """])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        var server = try rig.server()
        #expect(server["home"]!.value("water", "RRULE") == "FREQ=WEEKLY")
        #expect(server["home"]!.value("water", "X-TICK-REC") == "rec:+1w")
        // Water is completed; rent and standup have DUE and DTSTART moved together, as the phone moves them.
        let moves = [("rent", "20260430"), ("standup", "20260315")].flatMap { uid, day in
            ["DUE", "DTSTART"].map { ["edit", "home", uid, $0, "\($0);VALUE=DATE:\(day)"] }
        }
        try rig.phone(batch: [["edit", "home", "water", "STATUS", "COMPLETED"]] + moves)
        expectRun(try sandbox.run(["--dir", "tasks", "done", try sandbox.ref("Bins", dir: "tasks")]), status: 0)
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 2 completed on the phone, 1 due changed on the phone\n"))
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            - [ ] Water the plants rec:+1w due:2026-03-23 id:water
            - [ ] Pay rent rec:+1m due:2026-04-30 id:rent
            - [ ] Standup rec:+1d due:2026-03-15 id:standup
            - [ ] Bins rec:+1w due:2026-03-20 id:bins

            """)
        server = try rig.server()
        #expect(server["home"]!.value("water", "DUE") == "20260323")
        #expect(server["home"]!.value("water", "STATUS") == "NEEDS-ACTION")
        #expect(server["home"]!.value("bins", "DUE") == "20260320")
        #expect(server["home"]!.todos.count == 4)
    }

    @Test("the phone's own properties and alarm survive a tick edit; a renamed, recoloured list reaches displayname and color in its old folder; a clone without state duplicates nothing")
    func keptPropertiesListsAndClones() throws {
        let rig = try Self.rig()
        defer { rig.stop() }
        let sandbox = rig.sandbox
        expectRun(try rig.round(), status: 0)
        try rig.phone(batch: [
            ["edit", "groceries", "eggs", "X-APPLE-SORT-ORDER", "42"],
            ["edit", "groceries", "eggs", "LOCATION", "Market hall"],
            ["edit", "groceries", "eggs", "BEGIN", "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Eggs\r\nTRIGGER:-PT15M\r\nEND:VALARM"],
        ])
        expectRun(try rig.round(), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "edit", try sandbox.ref("Eggs", dir: "tasks"), "--title", "Six eggs"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "Groceries", "Shopping"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "list", "set", "Shopping", "--color", "green"]), status: 0)
        expectRun(try rig.round(), status: 0)
        expectRun(try rig.round(), status: 0)
        let server = try rig.server()
        let eggs = try #require(server["groceries"]?.todos["eggs"])
        #expect(server["groceries"]!.value("eggs", "SUMMARY") == "Six eggs")
        #expect(server["groceries"]!.value("eggs", "X-APPLE-SORT-ORDER") == "42")
        #expect(server["groceries"]!.value("eggs", "LOCATION") == "Market hall")
        #expect(eggs.contains("TRIGGER:-PT15M"))
        #expect(server["groceries"]?.displayname == "Shopping")
        #expect(server["groceries"]?.color?.lowercased().hasPrefix("#34c759") == true)
        #expect(Set(server.keys) == ["groceries", "work"])

        // A second clone of the task folder, without .tick/vdir/, into a fresh vdir of the same server.
        try FileManager.default.copyItem(atPath: sandbox.path("tasks"), toPath: sandbox.path("clone"))
        try sandbox.remove("clone/.tick/vdir")
        let before = try sandbox.read("clone/shopping.md")
        try FileManager.default.moveItem(atPath: sandbox.path("tasks"), toPath: sandbox.path("first"))
        try FileManager.default.moveItem(atPath: sandbox.path("clone"), toPath: sandbox.path("tasks"))
        try sandbox.remove("vdir")
        try sandbox.remove("status")
        try sandbox.makeFolder("vdir")
        try sandbox.makeFolder("status")
        let clone = try rig.round()
        #expect(clone.status == 0, "\(clone)")
        #expect(try sandbox.read("tasks/shopping.md") == before)
        let after = try rig.server()
        #expect(Set(after.keys) == ["groceries", "work"])
        #expect(after["groceries"]!.todos.count == 3)
        #expect(after["work"]!.todos.count == 3)
    }
}

/// `tick vdir sync --vdirsyncer` and `tick sync` run vdirsyncer themselves, from the settings.
@Suite("vdir sync driving vdirsyncer")
struct VdirSyncDrivingTests {
    @Test("--vdirsyncer with vdir.path and vdir.pair makes the whole round, a new list's collection included; a failing vdirsyncer is exit 6 with its message")
    func driving() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": VdirSyncEndToEndTests.groceries])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        sandbox.environment["VDIRSYNCER_CONFIG"] = sandbox.path("vdirsyncer.conf")
        try sandbox.write("tasks/.tick/config", "vdir.path = \(sandbox.path("vdir"))\nvdir.pair = phone\n")
        let first = try sandbox.run(["--dir", "tasks", "vdir", "sync", "--vdirsyncer"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("vdirsyncer: "))
        #expect(Set(try rig.server()["groceries"]?.todos.keys ?? [:].keys) == ["milk", "eggs", "butter"])

        try rig.phone(batch: [
            ["edit", "groceries", "milk", "STATUS", "COMPLETED"],
            ["edit", "groceries", "milk", "COMPLETED", "20260311T100000Z"],
        ])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "new", "Errands"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Call Bo", "--list", "Errands"]), status: 0)
        let second = try sandbox.run(["--dir", "tasks", "vdir", "sync", "--vdirsyncer"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("Groceries: 1 completed on the phone\n"))
        #expect(try sandbox.read("tasks/groceries.md").contains("- [x] Milk id:milk done:2026-03-11\n"))
        let server = try rig.server()
        #expect(server["errands"]?.todos.count == 1)
        #expect(server["errands"].flatMap { $0.uid("Call Bo") } != nil)

        try sandbox.write("tasks/.tick/config", "vdir.path = \(sandbox.path("vdir"))\nvdir.pair = nosuchpair\n")
        let before = try sandbox.read("tasks/groceries.md")
        let failed = try sandbox.run(["--dir", "tasks", "vdir", "sync", "--vdirsyncer"])
        #expect(failed.status == 6, "\(failed)")
        #expect(failed.stderr.contains("tick: vdirsyncer discover nosuchpair failed (exit status 1)"), "\(failed)")
        #expect(try sandbox.read("tasks/groceries.md") == before)
    }
}
