import Foundation
import Testing

/// `tick remind`: a pinned clock steps through a day; each task is reported once per due moment.
@Suite("remind")
struct RemindCommandTests {
    static let day = """
        # Home

        - [ ] Morning call due:2026-03-14T08:00
        - [ ] Dentist !!! due:2026-03-14T10:00
        - [ ] Date only due:2026-03-14
        - [ ] Tomorrow lunch due:2026-03-15T12:00
        - [x] Done already due:2026-03-14T08:00 done:2026-03-13
        - [ ] No date

        """

    static func sandbox(_ files: [String: String] = ["home.md": day]) throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(files)
        sandbox.environment["XDG_STATE_HOME"] = sandbox.path("state")
        return sandbox
    }

    /// Runs `tick remind` at `now` in the folder `tasks`.
    static func remind(_ sandbox: Sandbox, at now: String, _ extra: [String] = [],
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
        try sandbox.run(["--dir", "tasks", "remind"] + extra, environment: ["TICK_NOW": now], sourceLocation: sourceLocation)
    }

    /// The ref of each task, by title.
    static func refs(_ sandbox: Sandbox, _ titles: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for title in titles { result[title] = try sandbox.ref(title, dir: "tasks") }
        return result
    }

    @Test("stepping through the day, each task is reported once, when its moment comes")
    func steppingThroughTheDay() throws {
        let sandbox = try Self.sandbox()
        let r = try Self.refs(sandbox, ["Morning call", "Dentist", "Date only", "Tomorrow lunch"])
        expectRun(try Self.remind(sandbox, at: "2026-03-14T07:55"), status: 0, stdout: "", stderr: "")
        expectRun(try Self.remind(sandbox, at: "2026-03-14T08:00"), status: 0,
                  stdout: "\(r["Morning call"]!)  Morning call  due now  · Home\n", stderr: "")
        expectRun(try Self.remind(sandbox, at: "2026-03-14T08:05"), status: 0, stdout: "", stderr: "")
        expectRun(try Self.remind(sandbox, at: "2026-03-14T09:03"), status: 0,
                  stdout: "\(r["Date only"]!)  Date only  due today 09:00  · Home\n")
        expectRun(try Self.remind(sandbox, at: "2026-03-14T09:50", ["--within", "15m"]), status: 0,
                  stdout: "\(r["Dentist"]!)  Dentist  due in 10 min  · Home\n")
        expectRun(try Self.remind(sandbox, at: "2026-03-14T10:00"), status: 0, stdout: "")
        expectRun(try Self.remind(sandbox, at: "2026-03-15T11:58", ["--within", "1h"]), status: 0,
                  stdout: "\(r["Tomorrow lunch"]!)  Tomorrow lunch  due in 2 min  · Home\n")
        expectRun(try Self.remind(sandbox, at: "2026-03-15T12:00"), status: 0, stdout: "")
        // A new due moment is a new reminder.
        expectRun(try sandbox.run(["--dir", "tasks", "due", r["Morning call"]!, "2026-03-15T13:00"]), status: 0)
        expectRun(try Self.remind(sandbox, at: "2026-03-15T13:00"), status: 0,
                  stdout: "\(r["Morning call"]!)  Morning call  due now  · Home\n")
        expectRun(try Self.remind(sandbox, at: "2026-03-15T13:05"), status: 0, stdout: "")
        #expect(try sandbox.read("tasks/home.md").contains("- [ ] Dentist !!! due:2026-03-14T10:00\n"))
    }

    @Test("the remind.time setting moves a date-only task's moment")
    func remindTime() throws {
        let sandbox = try Self.sandbox()
        try sandbox.write("tasks/.tick/config", "remind.time = 07:30\n")
        let r = try Self.refs(sandbox, ["Date only"])
        expectRun(try Self.remind(sandbox, at: "2026-03-14T07:30"), status: 0,
                  stdout: "\(r["Date only"]!)  Date only  due now  · Home\n")
    }

    @Test("a run after a long pause reports what it missed once, as a digest when there are more than three")
    func missedWindow() throws {
        let list = "# Home\n\n" + (8...12).map { "- [ ] Task at \($0) due:2026-03-14T\($0 < 10 ? "0" : "")\($0):00\n" }.joined()
        let sandbox = try Self.sandbox(["home.md": list])
        let titles = (8...12).map { "Task at \($0)" }
        let r = try Self.refs(sandbox, titles)
        expectRun(try Self.remind(sandbox, at: "2026-03-14T07:00"), status: 0, stdout: "")
        let digest = titles.map { "  \(r[$0]!)  \($0)  was due today \($0.dropFirst(8).count == 1 ? "0" : "")\($0.dropFirst(8)):00  · Home\n" }
        expectRun(try Self.remind(sandbox, at: "2026-03-14T13:00"), status: 0,
                  stdout: "5 tasks came due while tick remind was not running (last run today 07:00):\n" + digest.joined())
        expectRun(try Self.remind(sandbox, at: "2026-03-14T13:05"), status: 0, stdout: "")

        // Two missed ones are not a digest: each is reported on its own line.
        let few = try Self.sandbox(["home.md": "# Home\n\n- [ ] One due:2026-03-14T08:00\n- [ ] Two due:2026-03-14T08:30\n"])
        let f = try Self.refs(few, ["One", "Two"])
        expectRun(try Self.remind(few, at: "2026-03-14T12:00"), status: 0,
                  stdout: "\(f["One"]!)  One  was due today 08:00  · Home\n\(f["Two"]!)  Two  was due today 08:30  · Home\n")
        expectRun(try Self.remind(few, at: "2026-03-14T12:05"), status: 0, stdout: "")
    }

    @Test("--dry-run reports and records nothing; --json has the documented shape")
    func dryRunAndJSON() throws {
        let sandbox = try Self.sandbox()
        let dry = try Self.remind(sandbox, at: "2026-03-14T08:00", ["--dry-run"])
        #expect(dry.stdout.contains("Morning call  due now"), "\(dry)")
        #expect(!sandbox.exists("state"))
        let json = try Self.remind(sandbox, at: "2026-03-14T08:00", ["--json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["lastRun"] is NSNull)
        #expect(object["digest"] as? Bool == false)
        let reminders = try #require(object["reminders"] as? [[String: Any]])
        #expect(reminders.count == 1)
        #expect(reminders.first?["kind"] as? String == "due")
        #expect(reminders.first?["moment"] as? String == "2026-03-14T08:00")
        #expect(reminders.first?["minutes"] as? Int == 0)
        #expect((reminders.first?["task"] as? [String: Any])?["title"] as? String == "Morning call")
        let again = try Self.remind(sandbox, at: "2026-03-14T08:01", ["--json"])
        expectRun(again, status: 0, stdout: "{\"lastRun\":\"2026-03-14T08:00\",\"digest\":false,\"reminders\":[]}\n")
    }

    @Test("the state is 0600 in a 0700 folder, and a state file that is a link or garbage counts as nothing recorded")
    func stateFiles() throws {
        let sandbox = try Self.sandbox()
        expectRun(try Self.remind(sandbox, at: "2026-03-14T08:00"), status: 0)
        let folder = sandbox.path("state/tick")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let state = try #require(names.first { !$0.hasSuffix(".lock") })
        #expect(names == [state, state + ".lock"])
        let mode = { (path: String) in (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(folder) == 0o700)
        #expect(try mode(folder + "/" + state) == 0o600)
        let recorded = try sandbox.read("state/tick/" + state)

        // A link in its place, to a copy elsewhere: not followed, so nothing is recorded, and the copy stays.
        try sandbox.write("elsewhere", recorded)
        try FileManager.default.removeItem(atPath: folder + "/" + state)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + state, withDestinationPath: sandbox.path("elsewhere"))
        let linked = try Self.remind(sandbox, at: "2026-03-14T08:01")
        #expect(linked.stdout.contains("Morning call"), "\(linked)")
        #expect(try sandbox.read("elsewhere") == recorded)

        // Garbage, or another folder's state: nothing recorded.
        for text in ["garbage\n", recorded.replacingOccurrences(of: "folder ", with: "folder /somewhere/else"),
                     recorded.replacingOccurrences(of: "T08:00\n", with: "T8:00\n"), recorded + "r ../x 2026-03-14T08:00\n"] {
            try? FileManager.default.removeItem(atPath: folder + "/" + state)
            try sandbox.write("state/tick/" + state, text)
            let result = try Self.remind(sandbox, at: "2026-03-14T08:02")
            #expect(result.stdout.contains("Morning call"), "state \(text): \(result)")
        }
        // The state as written is read back: nothing new.
        expectRun(try Self.remind(sandbox, at: "2026-03-14T08:03"), status: 0, stdout: "")
    }

    /// A script that appends the TICK_ variables it was given to `$RECORD`.
    static let recorder = """
        #!/bin/sh
        {
          printf 'TITLE=%s\\n' "$TICK_TITLE"
          printf 'DUE=%s\\n' "$TICK_DUE"
          printf 'REF=%s\\n' "$TICK_REF"
          printf 'LIST=%s\\n' "$TICK_LIST"
          printf 'PRIORITY=%s\\n' "$TICK_PRIORITY"
          printf 'KIND=%s\\n' "$TICK_KIND"
          printf 'URGENT=%s\\n' "${TICK_URGENT-unset}"
          printf 'COUNT=%s\\n' "${TICK_COUNT-unset}"
          printf 'ARGS=%s\\n' "$#"
          echo ---
        } >> "$RECORD"

        """

    static func installRecorder(_ sandbox: Sandbox) throws {
        try sandbox.writeProgram("bin/record", recorder)
        sandbox.environment["RECORD"] = sandbox.path("record.txt")
        sandbox.environment["PATH"] = sandbox.path("bin") + ":/usr/bin:/bin"
    }

    @Test("--exec runs the program once per task with the TICK_ environment, never through a shell")
    func exec() throws {
        let title = "Pay $(touch PWNED) bill; touch SEMI && `touch TICKED` | cat > PIPED 'q' \"d\" * ~"
        let list = "# Bills\n\n- [ ] \(title) #flag due:2026-03-14T08:00\n- [ ] Quiet one due:2026-03-14T08:00\n"
            + "- [ ] Later due:2026-03-14T09:00\n"
        let sandbox = try Self.sandbox(["bills.md": list])
        try Self.installRecorder(sandbox)
        let shown = try sandbox.run(["--dir", "tasks", "--json", "show", "Quiet one"])
        #expect(shown.status == 0)
        let titleAsRead = try #require((try JSONSerialization.jsonObject(with: Data(try sandbox.run(
            ["--dir", "tasks", "--json", "today"]).stdout.utf8)) as? [[String: Any]])?.first?["title"] as? String)
        #expect(titleAsRead.contains("$(touch PWNED)"))
        let r = try Self.refs(sandbox, ["Quiet one"])

        let result = try Self.remind(sandbox, at: "2026-03-14T08:00", ["--exec", "record"])
        #expect(result.status == 0, "\(result)")
        let records = try sandbox.read("record.txt").components(separatedBy: "---\n").dropLast()
        #expect(records.count == 2)
        let first = try #require(records.first)
        #expect(first.contains("TITLE=\(titleAsRead)\n"))
        #expect(first.contains("DUE=2026-03-14T08:00\nREF="))
        #expect(first.contains("LIST=Bills\nPRIORITY=0\nKIND=due\nURGENT=1\nCOUNT=unset\nARGS=0\n"))
        #expect(records.last == "TITLE=Quiet one\nDUE=2026-03-14T08:00\nREF=\(r["Quiet one"]!)\nLIST=Bills\nPRIORITY=0\n"
                + "KIND=due\nURGENT=unset\nCOUNT=unset\nARGS=0\n")
        for file in ["PWNED", "SEMI", "TICKED", "PIPED", "tasks/PWNED"] {
            #expect(!FileManager.default.fileExists(atPath: sandbox.path(file)), "the title was run: \(file) exists")
        }
        // Once per task: a second run at the same moment runs nothing.
        expectRun(try Self.remind(sandbox, at: "2026-03-14T08:01", ["--exec", "record"]), status: 0, stdout: "")
        #expect(try sandbox.read("record.txt").components(separatedBy: "---\n").count == 3)
    }

    @Test("--exec: a program that fails leaves its reminder unrecorded (exit 1); a missing program is bad usage")
    func execFailure() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeProgram("bin/fail", "#!/bin/sh\nexit 3\n")
        let failed = try Self.remind(sandbox, at: "2026-03-14T08:00", ["--exec", sandbox.path("bin/fail")])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("exited with status 3"))
        try Self.installRecorder(sandbox)
        let retried = try Self.remind(sandbox, at: "2026-03-14T08:05", ["--exec", "record"])
        #expect(retried.status == 0, "\(retried)")
        #expect(try sandbox.read("record.txt").contains("TITLE=Morning call\n"))

        let missing = try Self.remind(sandbox, at: "2026-03-14T10:00", ["--exec", "no-such-program-here"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stdout == "")
        // Nothing was recorded: the Dentist is still to be reported.
        #expect(try Self.remind(sandbox, at: "2026-03-14T10:00").stdout.contains("Dentist"))
    }

    @Test("a digest runs the program once, with the count and TICK_KIND=digest")
    func execDigest() throws {
        let list = "# Home\n\n" + (1...4).map { "- [ ] Missed \($0) due:2026-03-14T0\($0 + 4):00\n" }.joined()
        let sandbox = try Self.sandbox(["home.md": list])
        try Self.installRecorder(sandbox)
        let result = try Self.remind(sandbox, at: "2026-03-14T12:00", ["--exec", "record"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.read("record.txt") == "TITLE=4 tasks came due while tick remind was not running\n"
                + "DUE=2026-03-14T05:00\nREF=\nLIST=\nPRIORITY=0\nKIND=digest\nURGENT=unset\nCOUNT=4\nARGS=0\n---\n")
    }

    @Test("runs started at once (timers firing together) report each task exactly once between them")
    func concurrentRuns() throws {
        let list = "# Home\n\n" + (0..<60).map { "- [ ] Task \($0) due:2026-03-14T08:00\n" }.joined()
        let sandbox = try Self.sandbox(["home.md": list])
        let binary = try #require(TickBinary.path)
        var processes: [(Process, URL)] = []
        for n in 0..<8 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--dir", sandbox.path("tasks"), "remind"]
            process.environment = sandbox.environment.merging(["TICK_NOW": "2026-03-14T08:00"]) { $1 }
            let output = URL(fileURLWithPath: sandbox.path("out-\(n)"))
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
            processes.append((process, output))
        }
        for (process, _) in processes { try process.run() }
        var lines: [String] = []
        for (process, output) in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            lines += try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let titles = lines.map { $0.components(separatedBy: "  ")[1] }
        #expect(titles.count == 60, "\(lines)")
        #expect(Set(titles) == Set((0..<60).map { "Task \($0)" }))
    }

    @Test("--install-timer writes a service and a timer that systemd-analyze verify accepts, and enables nothing")
    func installTimer() throws {
        let sandbox = try Self.sandbox()
        try Self.installRecorder(sandbox)
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        let result = try sandbox.run(["--dir", "tasks", "remind", "--install-timer", "--exec", "record", "--within", "15m"])
        let units = sandbox.path("config/systemd/user")
        expectRun(result, status: 0, stdout: "Wrote \(units)/tick-remind.service\nWrote \(units)/tick-remind.timer\n"
                  + "To start it: systemctl --user daemon-reload && systemctl --user enable --now tick-remind.timer\n",
                  stderr: "")
        let service = try sandbox.read("config/systemd/user/tick-remind.service")
        let binary = try #require(TickBinary.path)
        #expect(service.contains("\nType=oneshot\n"))
        #expect(service.contains("\nExecStart=\(URL(fileURLWithPath: binary).resolvingSymlinksInPath().path) --dir "
                                 + "\(sandbox.path("tasks")) remind --within 15m --exec \(sandbox.path("bin/record"))\n"))
        let timer = try sandbox.read("config/systemd/user/tick-remind.timer")
        #expect(timer.contains("\nOnCalendar=*:0/5\nPersistent=true\n"))
        #expect(timer.contains("\nWantedBy=timers.target\n"))
        let again = try sandbox.run(["--dir", "tasks", "remind", "--install-timer", "--exec", "record", "--within", "15m"])
        #expect(again.stdout.hasPrefix("Unchanged \(units)/tick-remind.service\nUnchanged \(units)/tick-remind.timer\n"))

        // systemd-analyze needs a runtime folder for --user (XDG_RUNTIME_DIR): one in the sandbox.
        let runtime = sandbox.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        func verify(_ files: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
            process.arguments = ["verify", "--user"] + files
            process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin", "HOME": sandbox.path("home"),
                                   "XDG_CONFIG_HOME": sandbox.path("config")]
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
                "systemd-analyze is missing: run make test-deps")
        let (status, output) = try verify([units + "/tick-remind.timer", units + "/tick-remind.service"])
        #expect(status == 0, "systemd-analyze verify: \(output)")
        #expect(output == "", "systemd-analyze verify: \(output)")
        // The same check fails on a broken unit, so a pass above means something.
        try sandbox.write("broken/tick-remind.timer", timer.replacingOccurrences(of: "*:0/5", with: "bogus"))
        try sandbox.write("broken/tick-remind.service", service)
        let (brokenStatus, _) = try verify([sandbox.path("broken/tick-remind.timer"), sandbox.path("broken/tick-remind.service")])
        #expect(brokenStatus != 0)
    }
}
