import Foundation
import Testing

/// `tick export ics` and `tick export vdir`, read back with a real iCalendar parser: Debian's
/// python3-icalendar, under Debian's /usr/bin/python3 (installed by `make test-deps`).
@Suite("export ics and vdir")
struct CalendarExportTests {
    static let home = """
        # Home

        - [ ] Call the plumber, now; really \\ yes !! #flag #house due:2026-03-20T09:30
          Notes, with a comma; a semicolon
          Zweite Zeile: Größe ✓ — a long line that has to be folded somewhere after seventy-five octets
          - [ ] Buy a washer due:2026-03-21
        - [x] Fix the light !!! done:2026-03-01
        - [ ] Plain task
        - [ ] Low one ! due:2026-03-15
        - [ ] Water the plants rec:1w due:2026-03-16
        - [ ] Same
        - [ ] Same

        """
    static let work = "# Work\n\n- [ ] Send the report #flag\n"

    /// 2026-03-10 12:00:00 UTC, the lists' modification time.
    static let stamp = Date(timeIntervalSince1970: 1_773_144_000)

    static func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["home.md": home, "work.md": work])
        sandbox.environment["TZ"] = "Europe/Berlin"
        for name in ["home.md", "work.md"] {
            try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: sandbox.path("tasks/" + name))
        }
        return sandbox
    }

    /// The VTODOs of a feed as the icalendar package reads them, one dictionary each.
    static let parser = #"""
        import icalendar, json, sys
        cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        out = {'version': str(cal.get('version')), 'prodid': str(cal.get('prodid')), 'todos': []}
        for t in cal.walk('VTODO'):
            d = {}
            for key in ['uid', 'summary', 'description', 'status', 'x-tick-flagged']:
                if key in t: d[key] = str(t[key])
            for key in ['priority', 'percent-complete']:
                if key in t: d[key] = int(t[key])
            if 'dtstamp' in t: d['dtstamp'] = t.decoded('dtstamp').isoformat()
            if 'completed' in t: d['completed'] = t.decoded('completed').isoformat()
            if 'due' in t:
                due = t.decoded('due')
                d['due'] = due.isoformat()
                d['dueKind'] = type(due).__name__
                d['dueZone'] = str(getattr(due, 'tzinfo', None))
            if 'categories' in t: d['categories'] = [str(c) for c in t['categories'].cats]
            if 'related-to' in t:
                d['related'] = str(t['related-to'])
                d['reltype'] = t['related-to'].params.get('RELTYPE')
            alarms = [a for a in t.subcomponents if a.name == 'VALARM']
            d['alarms'] = [{'action': str(a['action']), 'trigger': str(a.decoded('trigger')),
                            'related': a['trigger'].params.get('RELATED'), 'description': str(a['description'])}
                           for a in alarms]
            out['todos'].append(d)
        print(json.dumps(out))
        """#

    /// The feed in `path`, parsed.
    static func parse(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", parser, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "icalendar could not parse \(path)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], sourceLocation: sourceLocation)
    }

    static func todos(_ feed: [String: Any]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for todo in feed["todos"] as? [[String: Any]] ?? [] {
            let summary = todo["summary"] as? String ?? ""
            result[result[summary] == nil ? summary : summary + " (2)"] = todo
        }
        return result
    }

    /// Exports to `feed.ics` in the sandbox and parses it.
    static func export(_ sandbox: Sandbox, _ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (raw: String, feed: [String: Any]) {
        let result = try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics"] + extra, sourceLocation: sourceLocation)
        expectRun(result, status: 0, stdout: "", sourceLocation: sourceLocation)
        return (try sandbox.read("feed.ics"), try parse(sandbox.path("feed.ics"), sourceLocation: sourceLocation))
    }

    @Test("the feed parses with icalendar and every field says what the task says")
    func fields() throws {
        let sandbox = try Self.sandbox()
        let (_, feed) = try Self.export(sandbox)
        #expect(feed["version"] as? String == "2.0")
        #expect((feed["prodid"] as? String)?.contains("tick") == true)
        let todos = Self.todos(feed)
        #expect(todos.count == 9)

        let plumber = try #require(todos["Call the plumber, now; really \\ yes #house"])
        #expect(plumber["description"] as? String == "Notes, with a comma; a semicolon\nZweite Zeile: Größe ✓ — a long line "
                + "that has to be folded somewhere after seventy-five octets")
        #expect(plumber["due"] as? String == "2026-03-20T09:30:00")
        #expect(plumber["dueKind"] as? String == "datetime")
        #expect(plumber["dueZone"] as? String == "None")
        #expect(plumber["priority"] as? Int == 5)
        #expect(plumber["status"] as? String == "NEEDS-ACTION")
        #expect(plumber["percent-complete"] == nil)
        #expect(plumber["completed"] == nil)
        #expect(plumber["categories"] as? [String] == ["house", "Home"])
        #expect(plumber["x-tick-flagged"] as? String == "TRUE")
        #expect(plumber["dtstamp"] as? String == "2026-03-10T12:00:00+00:00")
        #expect(plumber["related"] == nil)
        let alarms = try #require(plumber["alarms"] as? [[String: Any]])
        #expect(alarms.count == 1)
        #expect(alarms.first?["action"] as? String == "DISPLAY")
        #expect(alarms.first?["trigger"] as? String == "0:00:00")
        #expect(alarms.first?["related"] as? String == "END")

        let washer = try #require(todos["Buy a washer"])
        #expect(washer["due"] as? String == "2026-03-21")
        #expect(washer["dueKind"] as? String == "date")
        #expect(washer["related"] as? String == plumber["uid"] as? String)
        #expect(washer["reltype"] as? String == "PARENT")
        #expect((washer["alarms"] as? [Any])?.isEmpty == true)
        #expect(washer["priority"] == nil)
        #expect(washer["x-tick-flagged"] == nil)
        #expect(washer["description"] == nil)

        let light = try #require(todos["Fix the light"])
        #expect(light["status"] as? String == "COMPLETED")
        #expect(light["percent-complete"] as? Int == 100)
        // 2026-03-01 00:00 in Berlin (CET, UTC+1) is 2026-02-28 23:00 UTC.
        #expect(light["completed"] as? String == "2026-02-28T23:00:00+00:00")
        #expect(light["priority"] as? Int == 1)

        #expect(todos["Low one"]?["priority"] as? Int == 9)
        #expect(todos["Water the plants"]?["due"] as? String == "2026-03-16")
        #expect(todos["Send the report"]?["categories"] as? [String] == ["Work"])
        #expect(todos["Send the report"]?["x-tick-flagged"] as? String == "TRUE")
        #expect(todos["Plain task"]?["due"] == nil)
        #expect((todos["Plain task"]?["alarms"] as? [Any])?.isEmpty == true)
    }

    @Test("the text is RFC 5545 text: CRLF, folded at 75 octets, no Z on a date or a floating time")
    func lexicalForm() throws {
        let sandbox = try Self.sandbox()
        let (raw, _) = try Self.export(sandbox)
        let bytes = Array(raw.utf8)
        #expect(raw.hasSuffix("END:VCALENDAR\r\n"))
        // Every LF ends a CRLF, and no CR stands alone.
        for (i, byte) in bytes.enumerated() where byte == 0x0A { #expect(i > 0 && bytes[i - 1] == 0x0D) }
        for (i, byte) in bytes.enumerated() where byte == 0x0D { #expect(i + 1 < bytes.count && bytes[i + 1] == 0x0A) }
        let lines = raw.components(separatedBy: "\r\n").dropLast()
        for line in lines { #expect(line.utf8.count <= 75, "longer than 75 octets: \(line)") }
        #expect(lines.contains { $0.hasPrefix(" ") }, "the long notes should have been folded")
        let unfolded = raw.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("SUMMARY:Call the plumber\\, now\\; really \\\\ yes #house\r\n"))
        #expect(unfolded.contains("DESCRIPTION:Notes\\, with a comma\\; a semicolon\\nZweite Zeile: Größe ✓"))
        let dues = unfolded.components(separatedBy: "\r\n").filter { $0.hasPrefix("DUE") }
        #expect(dues.count == 4)
        for due in dues { #expect(!due.hasSuffix("Z"), "a DUE in UTC: \(due)") }
        #expect(dues.contains("DUE;VALUE=DATE:20260321"))
        #expect(dues.contains("DUE:20260320T093000"))
        #expect(!unfolded.contains("TZID"))
    }

    @Test("UIDs are unique, and with --assign-ids stable across a retitle, a due change, a move and a re-export")
    func uids() throws {
        let sandbox = try Self.sandbox()
        let first = Self.todos(try Self.export(sandbox).feed)
        let uids = first.values.compactMap { $0["uid"] as? String }
        #expect(uids.count == 9)
        #expect(Set(uids).count == 9, "two tasks share a UID: \(uids)")

        // Without an id, the UID comes from the ref: unchanged by a due change.
        let plain = try sandbox.ref("Plain task", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "due", plain, "2026-04-01"]), status: 0)
        #expect(Self.todos(try Self.export(sandbox).feed)["Plain task"]?["uid"] as? String == first["Plain task"]?["uid"] as? String)

        let minted = try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics", "--assign-ids"])
        expectRun(minted, status: 0, stdout: "", stderr: "tick: gave an id to 9 tasks\n")
        let withIDs = Self.todos(try Self.parse(sandbox.path("feed.ics")))
        let plumberUID = try #require(withIDs["Call the plumber, now; really \\ yes #house"]?["uid"] as? String)
        #expect(try sandbox.read("tasks/home.md").contains("id:" + plumberUID))

        let ref = try sandbox.ref("Call the plumber, now; really \\ yes #house", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", ref, "--title", "Call the electrician"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "due", ref, "2026-05-01"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "mv", ref, "work"]), status: 0)
        let after = Self.todos(try Self.export(sandbox, ["--assign-ids"]).feed)
        let moved = try #require(after.first { $0.key.hasPrefix("Call the electrician") }?.value)
        #expect(moved["uid"] as? String == plumberUID)
        #expect(moved["due"] as? String == "2026-05-01")
        #expect((moved["categories"] as? [String])?.last == "Work")
        let again = Self.todos(try Self.export(sandbox).feed)
        #expect(Set(again.values.compactMap { $0["uid"] as? String }) == Set(after.values.compactMap { $0["uid"] as? String }))
        #expect(Set(withIDs.values.compactMap { $0["uid"] as? String }) == Set(after.values.compactMap { $0["uid"] as? String }))
    }

    @Test("an unchanged folder exports the same bytes; --open-only and --list narrow the feed")
    func sameBytesAndScope() throws {
        let sandbox = try Self.sandbox()
        let once = try sandbox.run(["--dir", "tasks", "export", "ics"])
        let twice = try sandbox.run(["--dir", "tasks", "export", "ics"])
        expectRun(twice, status: 0, stdout: once.stdout)
        let open = Self.todos(try Self.export(sandbox, ["--open-only"]).feed)
        #expect(open.count == 8)
        #expect(open["Fix the light"] == nil)
        let work = Self.todos(try Self.export(sandbox, ["--list", "work"]).feed)
        #expect(Array(work.keys) == ["Send the report"])
        #expect(try sandbox.read("tasks/home.md") == Self.home)
    }

    /// Each visible file of the vdir with its inode and modification time.
    static func snapshot(_ sandbox: Sandbox, _ dir: String) throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for name in try sandbox.listFiles(dir) {
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path(dir + "/" + name))
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[name] = [(attributes[.systemFileNumber] as? Int) ?? 0, Int(modified * 1_000_000)]
        }
        return result
    }

    @Test("vdir writes one file per task named by its UID, then only what changed, and removes only its own files of deleted tasks")
    func vdir() throws {
        let sandbox = try Self.sandbox()
        try sandbox.write("cal/foreign.ics", "BEGIN:VCALENDAR\r\nPRODID:-//someone else//EN\r\nEND:VCALENDAR\r\n")
        let first = try sandbox.run(["--dir", "tasks", "export", "vdir", "cal"])
        expectRun(first, status: 0, stdout: "cal: 9 written, 0 unchanged, 0 removed\n", stderr: "")
        let feed = Self.todos(try Self.export(sandbox).feed)
        let expected = Set(feed.values.compactMap { $0["uid"] as? String }.map { $0 + ".ics" } + ["foreign.ics"])
        #expect(Set(try sandbox.listFiles("cal")) == expected)
        for name in expected where name != "foreign.ics" {
            let one = try Self.parse(sandbox.path("cal/" + name))
            #expect((one["todos"] as? [Any])?.count == 1)
            #expect(((one["todos"] as? [[String: Any]])?.first?["uid"] as? String).map { $0 + ".ics" } == name)
        }

        let before = try Self.snapshot(sandbox, "cal")
        let second = try sandbox.run(["--dir", "tasks", "export", "vdir", "cal", "--json"])
        expectRun(second, status: 0, stdout: "{\"written\":[],\"unchanged\":9,\"removed\":[]}\n", stderr: "")
        #expect(try Self.snapshot(sandbox, "cal") == before)

        let ref = try sandbox.ref("Plain task", dir: "tasks")
        let lowRef = try sandbox.ref("Low one", dir: "tasks")
        let plainFile = try #require(feed["Plain task"]?["uid"] as? String) + ".ics"
        let lowFile = try #require(feed["Low one"]?["uid"] as? String) + ".ics"
        expectRun(try sandbox.run(["--dir", "tasks", "rm", ref]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "flag", lowRef]), status: 0)
        // DTSTAMP is the list's modification time, so every task of a changed list is written anew;
        // with that time put back, only the content decides: only the flagged task changed (another
        // task's line moved, but the feed holds no line numbers).
        try FileManager.default.setAttributes([.modificationDate: Self.stamp], ofItemAtPath: sandbox.path("tasks/home.md"))
        let third = try sandbox.run(["--dir", "tasks", "export", "vdir", "cal", "--json"])
        expectRun(third, status: 0, stdout: "{\"written\":[\"\(lowFile)\"],\"unchanged\":7,\"removed\":[\"\(plainFile)\"]}\n")
        let after = try Self.snapshot(sandbox, "cal")
        #expect(after[plainFile] == nil)
        #expect(after["foreign.ics"] == before["foreign.ics"])
        for (name, value) in after where name != lowFile { #expect(value == before[name], "\(name) was rewritten") }
        #expect(try sandbox.read("cal/\(lowFile)").contains("X-TICK-FLAGGED:TRUE"))
    }

    @Test("vdir refuses the task folder itself, and ics refuses a list file, writing nothing")
    func refusals() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks", "export", "vdir", "tasks"])
        #expect(result.status == 2, "\(result)")
        #expect(try sandbox.listFiles("tasks") == ["home.md", "work.md"])
        let list = try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "tasks/feed.md"])
        #expect(list.status == 2, "\(list)")
        #expect(try sandbox.listFiles("tasks") == ["home.md", "work.md"])
    }
}
