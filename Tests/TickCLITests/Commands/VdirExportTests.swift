import Foundation
import Testing

/// `tick export vdir` and `ics` for repeating tasks, per-task stamps, private files and the folder
/// mark, each object read back strictly by Debian's python3-icalendar and python3-vobject.
@Suite("export vdir: rules, stamps, privacy")
struct VdirExportTests {
    static let home = """
        # Home

        - [ ] Water the plants rec:1w due:2026-03-16 until:2026-12-31
        - [ ] Standup rec:+1b due:2026-03-16T09:30
        - [ ] Pay the rent rec:++1m due:2026-03-31
        - [ ] Every third workday rec:3b due:2026-03-16
        - [ ] Every other week of workdays rec:10b due:2026-03-16
        - [ ] Started [start:: 2026-03-10] due:2026-03-20
        - [ ] Plain id:plain

        """

    static func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["home.md": home])
        sandbox.environment["TZ"] = "Europe/Berlin"
        try FileManager.default.setAttributes([.modificationDate: CalendarExportTests.stamp],
                                              ofItemAtPath: sandbox.path("tasks/home.md"))
        return sandbox
    }

    /// Reads every `.ics` of `dir` with icalendar and with vobject (validating, raising on any
    /// problem), and prints per SUMMARY the properties the tests look at.
    static let reader = #"""
        import glob, icalendar, json, os, sys, vobject
        out = {}
        for path in sorted(glob.glob(os.path.join(sys.argv[1], '*.ics'))):
            raw = open(path, 'rb').read()
            card = vobject.readOne(raw.decode('utf-8'), validate=True)
            card.validate(raiseException=True)
            for t in icalendar.Calendar.from_ical(raw).walk('VTODO'):
                d = {'file': os.path.basename(path)}
                if 'rrule' in t: d['rrule'] = t['rrule'].to_ical().decode()
                for key in ['x-tick-rec', 'x-tick-folder', 'uid']:
                    if key in t: d[key] = str(t[key])
                for key in ['dtstart', 'due', 'dtstamp', 'last-modified']:
                    if key in t: d[key] = t.decoded(key).isoformat()
                if 'sequence' in t: d['sequence'] = int(t['sequence'])
                out[str(t['summary'])] = d
        print(json.dumps(out))
        """#

    static func read(_ sandbox: Sandbox, _ dir: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: [String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", reader, sandbox.path(dir)]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "icalendar or vobject refused \(dir): \(message)",
                     sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]],
                            sourceLocation: sourceLocation)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a repeating task carries DTSTART at its due date, the nearest RRULE and tick's exact rule in X-TICK-REC")
    func rules() throws {
        let sandbox = try Self.sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal"]), status: 0,
                  stdout: "cal: 7 written, 0 unchanged, 0 removed\n", stderr: "")
        let todos = try Self.read(sandbox, "cal")
        let water = try #require(todos["Water the plants"])
        #expect(water["rrule"] as? String == "FREQ=WEEKLY;UNTIL=20261231")
        #expect(water["x-tick-rec"] as? String == "rec:1w until:2026-12-31")
        #expect(water["dtstart"] as? String == "2026-03-16")
        #expect(water["due"] as? String == "2026-03-16")
        let standup = try #require(todos["Standup"])
        #expect(standup["rrule"] as? String == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        #expect(standup["x-tick-rec"] as? String == "rec:+1b")
        #expect(standup["dtstart"] as? String == "2026-03-16T09:30:00")
        #expect(todos["Pay the rent"]?["rrule"] as? String == "FREQ=MONTHLY")
        #expect(todos["Pay the rent"]?["x-tick-rec"] as? String == "rec:++1m")
        #expect(todos["Every third workday"]?["rrule"] as? String == "FREQ=DAILY;INTERVAL=4")
        #expect(todos["Every other week of workdays"]?["rrule"] as? String == "FREQ=WEEKLY;INTERVAL=2")
        let started = try #require(todos["Started"])
        #expect(started["dtstart"] as? String == "2026-03-10")
        #expect(started["rrule"] == nil)
        #expect(todos["Plain"]?["dtstart"] == nil)
        #expect(todos["Plain"]?["x-tick-rec"] == nil)
        let feed = try sandbox.run(["--dir", "tasks", "export", "ics"])
        #expect(feed.stdout.contains("RRULE:FREQ=WEEKLY;UNTIL=20261231\r\n"))
        #expect(feed.stdout.contains("X-TICK-REC:rec:+1b\r\n"))
    }

    @Test("a change to one task rewrites only its file, with a new DTSTAMP and LAST-MODIFIED and SEQUENCE one higher; files are private")
    func perTaskStamps() throws {
        let sandbox = try Self.sandbox()
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal/sub"]), status: 0)
        #expect(try Self.mode(sandbox.path("cal")) == 0o700)
        #expect(try Self.mode(sandbox.path("cal/sub")) == 0o700)
        for name in try sandbox.listFiles("cal/sub") { #expect(try Self.mode(sandbox.path("cal/sub/" + name)) == 0o600) }
        let before = try CalendarExportTests.snapshot(sandbox, "cal/sub")
        let first = try Self.read(sandbox, "cal/sub")
        #expect(first["Plain"]?["sequence"] == nil)
        #expect(first["Plain"]?["dtstamp"] as? String == "2026-03-10T12:00:00+00:00")

        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plain", "--title", "Plain, renamed"]), status: 0)
        let later = Date(timeIntervalSince1970: 1_773_403_200)  // 2026-03-13 12:00:00 UTC
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: sandbox.path("tasks/home.md"))
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal/sub", "--json"]), status: 0,
                  stdout: "{\"written\":[\"plain.ics\"],\"unchanged\":6,\"removed\":[]}\n")
        let after = try CalendarExportTests.snapshot(sandbox, "cal/sub")
        for (name, value) in after where name != "plain.ics" { #expect(value == before[name], "\(name) was rewritten") }
        let second = try Self.read(sandbox, "cal/sub")
        let plain = try #require(second["Plain, renamed"])
        #expect(plain["sequence"] as? Int == 1)
        #expect(plain["dtstamp"] as? String == "2026-03-13T12:00:00+00:00")
        #expect(plain["last-modified"] as? String == "2026-03-13T12:00:00+00:00")
        #expect(second["Water the plants"]?["dtstamp"] as? String == "2026-03-10T12:00:00+00:00")
        #expect(try Self.mode(sandbox.path("cal/sub/plain.ics")) == 0o600)

        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plain", "--title", "Plain again"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal/sub"]), status: 0)
        #expect(try Self.read(sandbox, "cal/sub")["Plain again"]?["sequence"] as? Int == 2)
    }

    @Test("two task folders exporting into one vdir keep each other's files; an id that would make a hidden name is refused")
    func foldersAndNames() throws {
        let sandbox = try Self.sandbox()
        try sandbox.write("other/work.md", "# Work\n\n- [ ] Report id:report\n- [ ] Secret id:.hidden\n- [ ] Up id:..\n")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal"]), status: 0)
        let other = try sandbox.run(["--dir", "other", "export", "vdir", "cal"])
        expectRun(other, status: 1, stdout: "cal: 1 written, 0 unchanged, 0 removed\n")
        #expect(other.stderr.contains("UID \".hidden\" cannot name a file (it would make a hidden file name)"))
        #expect(other.stderr.contains("UID \"..\" cannot name a file"))
        let names = try sandbox.listFiles("cal")
        #expect(names.count == 8)
        #expect(names.contains("report.ics") && names.contains("plain.ics"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("cal")).sorted() == names)
        #expect(try sandbox.read("cal/report.ics").contains("X-TICK-FOLDER:"))

        // Each export leaves the other folder's files alone: its own unchanged, none removed.
        expectRun(try sandbox.run(["--dir", "tasks", "export", "vdir", "cal"]), status: 0,
                  stdout: "cal: 0 written, 7 unchanged, 0 removed\n")
        try sandbox.write("other/work.md", "# Work\n\n")
        expectRun(try sandbox.run(["--dir", "other", "export", "vdir", "cal"]), status: 0,
                  stdout: "cal: 0 written, 0 unchanged, 1 removed\n")
        #expect(try sandbox.listFiles("cal").count == 7)
        #expect(try sandbox.listFiles("cal").contains("plain.ics"))
    }
}
