import Foundation
import Testing

/// Repeating tasks end to end (FORMAT.md 5.10, README "Repeating tasks"): what `done`, `pick --done`,
/// the editor, `skip`, `edit --rec/--until`, `add` and `reopen` write and print. "Now" is pinned to
/// Saturday 14 March 2026, 09:30 unless a test gives `--now`.
@Suite("repeating tasks: commands")
struct RepeatingTaskCommandTests {
    /// A sandbox with a task folder `tasks/` (with its `.tick/`) holding `files`.
    static func folder(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("tasks/.tick")
        for (name, text) in files { try sandbox.write("tasks/" + name, text) }
        return sandbox
    }

    static func bytes(_ sandbox: Sandbox, _ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: sandbox.path("tasks/" + name))))
    }

    static func text(_ sandbox: Sandbox, _ name: String) throws -> String {
        String(decoding: try bytes(sandbox, name), as: UTF8.self)
    }

    /// Runs tick on `tasks/`.
    static func tick(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> TickResult {
        try sandbox.run(["--dir", "tasks"] + arguments, environment: environment)
    }

    static func ref(_ sandbox: Sandbox, _ title: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try tick(sandbox, ["--json", "show", title])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  sourceLocation: sourceLocation)
        return try #require(object["ref"] as? String, sourceLocation: sourceLocation)
    }

    // MARK: - done: each mode, early, on time and late

    /// Due Sunday 2026-05-03, completed on 05-01 (early), 05-03 (on time) and 05-20 (late).
    static let modes: [(rule: String, completed: String, next: String)] = [
        ("1w", "2026-05-01", "2026-05-08"), ("1w", "2026-05-03", "2026-05-10"), ("1w", "2026-05-20", "2026-05-27"),
        ("+1w", "2026-05-01", "2026-05-10"), ("+1w", "2026-05-03", "2026-05-10"), ("+1w", "2026-05-20", "2026-05-10"),
        // ++ lands after the completion day and keeps the weekday (Sunday).
        ("++1w", "2026-05-01", "2026-05-10"), ("++1w", "2026-05-03", "2026-05-10"), ("++1w", "2026-05-20", "2026-05-24"),
    ]

    @Test("done moves only the due: token, in each mode, completed early, on time and late", arguments: modes.indices)
    func doneInEachMode(_ k: Int) throws {
        let (rule, completed, next) = Self.modes[k]
        let before = "# Home\n\n- [ ] Water the plants due:2026-05-03 rec:\(rule) #garden\n- [ ] Other\n"
        let sandbox = try Self.folder(["home.md": before])
        let ref = try Self.ref(sandbox, "Water the plants")
        let result = try Self.tick(sandbox, ["--now", completed, "done", "Water the plants"])
        let day = try #require(Self.words[next])
        expectRun(result, status: 0, stdout: "Completed \(ref) \"Water the plants #garden\": next due \(day)\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md")
                == "# Home\n\n- [ ] Water the plants due:\(next) rec:\(rule) #garden\n- [ ] Other\n")
    }

    static let words = ["2026-05-08": "Fri May 8", "2026-05-10": "Sun May 10", "2026-05-27": "Wed May 27",
                        "2026-05-24": "Sun May 24"]

    @Test("the ++ mode skips every missed date and keeps the weekday, however late")
    func futureModeKeepsWeekday() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Team call due:2026-01-05 rec:++1w\n"])
        expectRun(try Self.tick(sandbox, ["--quiet", "done", "Team call"]), status: 0, stdout: "", stderr: "")
        // 2026-01-05 is a Monday; the first Monday after Saturday 2026-03-14 is 03-16.
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Team call due:2026-03-16 rec:++1w\n")
    }

    @Test("completing twice the same day: + advances twice, the completion mode gives the same date")
    func twiceTheSameDay() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Rent due:2026-03-01 rec:+1m\n- [ ] Water rec:1w\n"])
        _ = try Self.tick(sandbox, ["done", "Rent"])
        _ = try Self.tick(sandbox, ["done", "Rent"])
        _ = try Self.tick(sandbox, ["done", "Water"])
        let ref = try Self.ref(sandbox, "Water")
        expectRun(try Self.tick(sandbox, ["done", "Water"]), status: 0,
                  stdout: "No change to \(ref) \"Water\": completed today already, next due Sat Mar 21\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Rent due:2026-05-01 rec:+1m\n- [ ] Water rec:1w due:2026-03-21\n")
    }

    @Test("month ends: 01-31 +1m is 02-28, then 03-28 (the day number is kept)")
    func monthEnds() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Pay rent due:2026-01-31 rec:+1m\n"])
        _ = try Self.tick(sandbox, ["done", "Pay rent"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Pay rent due:2026-02-28 rec:+1m\n")
        _ = try Self.tick(sandbox, ["done", "Pay rent"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Pay rent due:2026-03-28 rec:+1m\n")
    }

    @Test("business days: from a Friday over the weekend, and from a Saturday")
    func businessDays() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Report due:2026-03-13 rec:+1b\n- [ ] Standup rec:1b\n"])
        _ = try Self.tick(sandbox, ["done", "Report", "Standup"])
        // Now is Saturday 03-14: the next business day is Monday 03-16 for both.
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Report due:2026-03-16 rec:+1b\n- [ ] Standup rec:1b due:2026-03-16\n")
    }

    @Test("a due time is kept")
    func timeKept() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Pills due:2026-03-14T09:00 rec:+1d\n"])
        let ref = try Self.ref(sandbox, "Pills")
        expectRun(try Self.tick(sandbox, ["done", "Pills"]), status: 0,
                  stdout: "Completed \(ref) \"Pills\": next due Sun Mar 15 09:00\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Pills due:2026-03-15T09:00 rec:+1d\n")
    }

    // MARK: - until

    @Test("until: a next due date equal to it is an occurrence")
    func untilEqual() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Physio due:2026-03-07 rec:+1w until:2026-03-14\n"])
        _ = try Self.tick(sandbox, ["done", "Physio"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Physio due:2026-03-14 rec:+1w until:2026-03-14\n")
    }

    @Test("until: a next due date beyond it completes the task for good")
    func untilBeyond() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Physio due:2026-03-07 rec:+1w until:2026-03-13\n  - [ ] Stretch\n"])
        let ref = try Self.ref(sandbox, "Physio")
        expectRun(try Self.tick(sandbox, ["done", "Physio"]), status: 0,
                  stdout: "Completed \(ref) \"Physio\" and 1 open subtask\n", stderr: "")
        let after = "- [x] Physio due:2026-03-07 rec:+1w until:2026-03-13 done:2026-03-14\n  - [x] Stretch done:2026-03-14\n"
        #expect(try Self.text(sandbox, "home.md") == after)
        // It stays done: completing it again changes nothing.
        expectRun(try Self.tick(sandbox, ["done", "Physio"]), status: 0,
                  stdout: "No change to \(ref) \"Physio\": already done\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == after)
    }

    // MARK: - Without a due date, and refusals

    @Test("without a due date the completion mode gets one: the completion day and the step")
    func noDueCompletionMode() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water the plants rec:1w\n"])
        _ = try Self.tick(sandbox, ["done", "Water the plants"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water the plants rec:1w due:2026-03-21\n")
    }

    @Test("without a due date + and ++ are refused, with the file unchanged", arguments: ["+1w", "++1w"])
    func noDueRefused(_ rule: String) throws {
        let before = "- [ ] Water the plants rec:\(rule)\n"
        let sandbox = try Self.folder(["home.md": before])
        let result = try Self.tick(sandbox, ["done", "Water the plants"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("tick: 'Water the plants' (line 1) repeats, but rec:\(rule) counts from the due date"),
                "\(result.stderr)")
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    @Test("an invalid due date is refused with a message, and the file is unchanged")
    func invalidDueRefused() throws {
        let before = "# Home\r\n\r\n- [ ] Water due:2026-02-30 rec:1w\r\n"
        let sandbox = try Self.folder(["home.md": before])
        let result = try Self.tick(sandbox, ["done", "Water"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("its due: value is malformed"), "\(result.stderr)")
        #expect(try Self.bytes(sandbox, "home.md") == Array(before.utf8))
    }

    @Test("a malformed rule is refused, never dropped")
    func malformedRuleRefused() throws {
        let before = "- [ ] Water rec:+1x due:2026-03-10\n"
        let sandbox = try Self.folder(["home.md": before])
        let result = try Self.tick(sandbox, ["done", "Water rec:+1x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("its rec: value is malformed"), "\(result.stderr)")
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    // MARK: - Byte for byte

    @Test("a completion changes only the due: bytes and the reset subtasks, in a CRLF file")
    func crlfBytes() throws {
        let before = "# Home\r\n\r\n- [ ] Water  due:2026-03-10   rec:+1w !!\r\n  Notes stay.\r\n  - [x]  Fill can done:2026-03-10\r\n"
            + "  - [ ] Open one\r\n- [x] Other done:2026-03-01\r\n"
        let after = "# Home\r\n\r\n- [ ] Water  due:2026-03-17   rec:+1w !!\r\n  Notes stay.\r\n  - [ ]  Fill can\r\n"
            + "  - [ ] Open one\r\n- [x] Other done:2026-03-01\r\n"
        let sandbox = try Self.folder(["home.md": before])
        expectRun(try Self.tick(sandbox, ["--quiet", "done", "Water"]), status: 0, stdout: "", stderr: "")
        #expect(try Self.bytes(sandbox, "home.md") == Array(after.utf8))
    }

    @Test("a completion of the last task of a file without a final newline keeps it without one")
    func noFinalNewline() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] A\n- [ ] Water due:2026-03-10 rec:++2w"])
        _ = try Self.tick(sandbox, ["done", "Water"])
        #expect(try Self.bytes(sandbox, "home.md") == Array("- [ ] A\n- [ ] Water due:2026-03-24 rec:++2w".utf8))
    }

    // MARK: - Keeping history

    @Test("--keep-history writes a done copy after the task's notes and subtasks; the live line keeps its place")
    func keepHistory() throws {
        let before = "- [ ] Water !! #flag due:2026-03-10 rec:+1w id:k7qz2m9xbd\n  Notes.\n  - [x] Fill done:2026-03-10\n- [ ] Next\n"
        let sandbox = try Self.folder(["home.md": before])
        _ = try Self.tick(sandbox, ["done", "--keep-history", "Water"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water !! #flag due:2026-03-17 rec:+1w id:k7qz2m9xbd\n  Notes.\n"
                + "  - [ ] Fill\n- [x] Water !! #flag due:2026-03-10 done:2026-03-14\n- [ ] Next\n")
        let completed = try Self.tick(sandbox, ["--json", "completed"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(completed.stdout.utf8)) as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["Water"])
        #expect(tasks.first?["recurrence"] is NSNull)
        expectRun(try Self.tick(sandbox, ["check"]), status: 0)
    }

    @Test("the kept copy is the title line as written, without rec:, until: and a hard break, even with odd words")
    func keepHistoryOddLine() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water `rec:x` #garden due:2026-03-10 rec:+1w until:2026-12-31 \\\n"
                                       + "  more words\n- [ ] Next\n"])
        expectRun(try Self.tick(sandbox, ["--quiet", "done", "--keep-history", "Water"]), status: 0, stdout: "", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water `rec:x` #garden due:2026-03-17 rec:+1w until:2026-12-31 \\\n"
                + "  more words\n- [x] Water `rec:x` #garden due:2026-03-10 done:2026-03-14\n- [ ] Next\n")
        expectRun(try Self.tick(sandbox, ["check"]), status: 0)
    }

    @Test("the configuration key recurrence.keep-history = true does what --keep-history does")
    func keepHistoryConfiguration() throws {
        let sandbox = try Self.folder(["home.md": "  - [ ] Water due:2026-03-10 rec:+1w\n"])
        try sandbox.write("tasks/.tick/config", "recurrence.keep-history = true\n")
        expectRun(try Self.tick(sandbox, ["--quiet", "done", "Water"]), status: 0, stdout: "", stderr: "")
        #expect(try Self.text(sandbox, "home.md")
                == "  - [ ] Water due:2026-03-17 rec:+1w\n  - [x] Water due:2026-03-10 done:2026-03-14\n")
    }

    @Test("without --keep-history nothing is recorded: completed does not list the task")
    func noHistoryByDefault() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-10 rec:+1w\n"])
        _ = try Self.tick(sandbox, ["done", "Water"])
        expectRun(try Self.tick(sandbox, ["--json", "completed"]), status: 0, stdout: "[]\n")
    }

    @Test("keeping history for two tasks of one file in one change finds both")
    func keepHistoryTwoTasks() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] A due:2026-03-10 rec:+1w\n- [ ] B due:2026-03-11 rec:+1w\n- [ ] C\n"])
        _ = try Self.tick(sandbox, ["done", "--keep-history", "A", "B", "C"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] A due:2026-03-17 rec:+1w\n- [x] A due:2026-03-10 done:2026-03-14\n"
                + "- [ ] B due:2026-03-18 rec:+1w\n- [x] B due:2026-03-11 done:2026-03-14\n- [x] C done:2026-03-14\n")
    }

    // MARK: - pick --done and the editor

    @Test("pick --done advances a repeating pick, as done does")
    func pickDone() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-10 rec:+1w\n"])
        expectRun(try Self.tick(sandbox, ["--quiet", "pick"]), status: 0)
        let ref = try Self.ref(sandbox, "Water")
        expectRun(try Self.tick(sandbox, ["pick", "--done"]), status: 0,
                  stdout: "Completed \(ref) \"Water\": next due Tue Mar 17\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-17 rec:+1w\n")
    }

    @Test("the editor: done: added to a repeating task's line advances it instead")
    func editorDone() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-10 rec:+1w\n  - [x] Fill done:2026-03-10\n"])
        let result = try Self.tick(sandbox, ["edit", "Water"], environment: ["EDITOR": "sed -i -e '1s/$/ done:today/'"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-17 rec:+1w\n  - [ ] Fill\n")
    }

    @Test("the editor sets and changes rec: and until: as tokens")
    func editorRule() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-10\n"])
        let result = try Self.tick(sandbox, ["edit", "Water"], environment: ["EDITOR": "sed -i -e '1s/$/ rec:+2w until:dec-31/'"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-10 rec:+2w until:2026-12-31\n")
    }

    // MARK: - skip

    @Test("skip: + and ++ from the due date, the completion mode from today; the box and subtasks stay")
    func skip() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] A due:2026-03-01 rec:+1w\n- [ ] B due:2026-03-02 rec:++1w\n"
                                       + "- [ ] C due:2026-03-02 rec:1w\n  - [x] Sub done:2026-03-01\n"])
        let ref = try Self.ref(sandbox, "A")
        let result = try Self.tick(sandbox, ["skip", "A", "B", "C"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Skipped \(ref) \"A\": next due Sun Mar 8\n"), "\(result.stdout)")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] A due:2026-03-08 rec:+1w\n- [ ] B due:2026-03-16 rec:++1w\n"
                + "- [ ] C due:2026-03-21 rec:1w\n  - [x] Sub done:2026-03-01\n")
    }

    @Test("skip refuses a task that does not repeat, and one whose next date passes until:, changing nothing")
    func skipRefused() throws {
        let before = "- [ ] Plain due:2026-03-01\n- [ ] Ends due:2026-03-10 rec:+1w until:2026-03-12\n"
        let sandbox = try Self.folder(["home.md": before])
        let plain = try Self.tick(sandbox, ["skip", "Plain"])
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("does not repeat"), "\(plain.stderr)")
        let ends = try Self.tick(sandbox, ["skip", "Ends"])
        #expect(ends.status == 2)
        #expect(ends.stderr.contains("would fall after its until:2026-03-12"), "\(ends.stderr)")
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    // MARK: - Setting and clearing

    @Test("add takes rec: and until: in the title (until: with date words) and as options")
    func addRule() throws {
        let sandbox = try Self.folder(["home.md": "# Home\n"])
        expectRun(try Self.tick(sandbox, ["--quiet", "add", "-l", "home", "Water the plants rec:+1w due:sat until:dec-31"]),
                  status: 0, stdout: "", stderr: "")
        expectRun(try Self.tick(sandbox, ["--quiet", "add", "-l", "home", "Standup", "--rec", "3b", "--until", "2026-06-30"]),
                  status: 0, stdout: "", stderr: "")
        #expect(try Self.text(sandbox, "home.md")
                == "# Home\n\n- [ ] Water the plants due:2026-03-21 rec:+1w until:2026-12-31\n- [ ] Standup rec:3b until:2026-06-30\n")
        expectRun(try Self.tick(sandbox, ["check"]), status: 0)
    }

    @Test("add refuses what tick check would report: + without a due date, until: without a rule, a bad rule", arguments: [
        ["Water rec:+1w"], ["Water until:2026-12-31"], ["Water rec:1x"], ["Water", "--rec", "1x"], ["Water rec:1w rec:2w"],
    ])
    func addRefused(_ words: [String]) throws {
        let sandbox = try Self.folder(["home.md": "# Home\n"])
        let result = try Self.tick(sandbox, ["add", "-l", "home"] + words)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(try Self.text(sandbox, "home.md") == "# Home\n")
    }

    @Test("edit --rec and --until set, replace and clear the tokens; --rec none takes until: with it")
    func editRule() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-10 #garden\n"])
        let ref = try Self.ref(sandbox, "Water")
        expectRun(try Self.tick(sandbox, ["edit", "Water", "--rec", "+1w"]), status: 0,
                  stdout: "Edited \(ref) \"Water #garden\": rec\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-10 #garden rec:+1w\n")
        _ = try Self.tick(sandbox, ["edit", "Water", "--rec", "rec:2m", "--until", "eom"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-10 #garden rec:2m until:2026-03-31\n")
        _ = try Self.tick(sandbox, ["edit", "Water", "--until", "none"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-10 #garden rec:2m\n")
        _ = try Self.tick(sandbox, ["edit", "Water", "--until", "2026-04-01"])
        _ = try Self.tick(sandbox, ["edit", "Water", "--rec", "none"])
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Water due:2026-03-10 #garden\n")
        expectRun(try Self.tick(sandbox, ["edit", "Water", "--rec", "none"]), status: 0,
                  stdout: "No change to \(ref) \"Water #garden\": already without a rule\n", stderr: "")
    }

    @Test("edit refuses a + rule on a task without a due date, an until: without a rule, and a bad rule")
    func editRefused() throws {
        let before = "- [ ] Water\n"
        let sandbox = try Self.folder(["home.md": before])
        for arguments in [["--rec", "+1w"], ["--until", "2026-12-31"], ["--rec", "2x"], ["--until", "soon"]] {
            let result = try Self.tick(sandbox, ["edit", "Water"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    @Test("due none is refused on a task that repeats from its due date, and fine for the completion mode")
    func dueNone() throws {
        let before = "- [ ] Rent due:2026-03-01 rec:+1m\n- [ ] Water due:2026-03-01 rec:1w\n"
        let sandbox = try Self.folder(["home.md": before])
        let result = try Self.tick(sandbox, ["due", "Rent", "none"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("rec:+1m repeats from the due date"), "\(result.stderr)")
        #expect(try Self.text(sandbox, "home.md") == before)
        expectRun(try Self.tick(sandbox, ["--quiet", "due", "Water", "none"]), status: 0, stdout: "", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == "- [ ] Rent due:2026-03-01 rec:+1m\n- [ ] Water rec:1w\n")
    }

    // MARK: - reopen and undo

    @Test("reopen on an open repeating task is a no-op that says so")
    func reopenOpen() throws {
        let before = "- [ ] Water due:2026-03-17 rec:+1w\n"
        let sandbox = try Self.folder(["home.md": before])
        let ref = try Self.ref(sandbox, "Water")
        expectRun(try Self.tick(sandbox, ["reopen", "Water"]), status: 0,
                  stdout: "No change to \(ref) \"Water\": already open (it repeats: tick done moved it to its next "
                      + "occurrence; tick undo takes that back)\n", stderr: "")
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    @Test("undo restores the old due date and the subtasks")
    func undo() throws {
        let before = "- [ ] Water due:2026-03-10 rec:+1w\n  - [x] Fill done:2026-03-10\n"
        let sandbox = try Self.folder(["home.md": before])
        _ = try Self.tick(sandbox, ["done", "--keep-history", "Water"])
        #expect(try Self.text(sandbox, "home.md") != before)
        expectRun(try Self.tick(sandbox, ["undo"]), status: 0, stdout: "Undid: completed \"Water\"\n")
        #expect(try Self.text(sandbox, "home.md") == before)
    }

    @Test("done --json prints the task after the change: open, with its next due date and its rule")
    func doneJSON() throws {
        let sandbox = try Self.folder(["home.md": "> 1. [ ] A\n> 2. [ ] Water due:2026-03-10 rec:+1w\n>    - [x] Sub done:2026-03-01"])
        let result = try Self.tick(sandbox, ["--json", "done", "--keep-history", "Water"])
        #expect(result.status == 0)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(tasks.count == 1)
        #expect(tasks.first?["done"] as? Bool == false && tasks.first?["due"] as? String == "2026-03-17")
        #expect((tasks.first?["recurrence"] as? [String: Any])?["interval"] as? String == "+1w")
        // In a block quote and an ordered list, the copy takes the next number; no final newline stays so.
        #expect(try Self.text(sandbox, "home.md")
                == "> 1. [ ] A\n> 2. [ ] Water due:2026-03-17 rec:+1w\n>    - [ ] Sub\n> 3. [x] Water due:2026-03-10 done:2026-03-14")
    }

    @Test("tick help done, skip, edit, add, reopen and pick describe repeating tasks, as their snapshots show",
          arguments: ["done", "skip", "edit", "add", "reopen", "pick"])
    func help(_ command: String) throws {
        let sandbox = try Sandbox()
        let snapshot = try Fixtures.text("help/\(command).txt")
        #expect(snapshot.contains("rec") || snapshot.contains("repeating"), "\(command)")
        expectRun(try sandbox.run(["help", command]), status: 0, stdout: snapshot, stderr: "")
        expectRun(try sandbox.run([command, "--help"]), status: 0, stdout: snapshot, stderr: "")
    }

    // MARK: - Views

    @Test("rows show ↻ and the rule in words; the words give way first when the row is too wide")
    func rows() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-21 rec:+1w\n- [ ] Standup rec:3b\n- [ ] Plain\n"])
        let water = try Self.ref(sandbox, "Water"), standup = try Self.ref(sandbox, "Standup"), plain = try Self.ref(sandbox, "Plain")
        expectRun(try Self.tick(sandbox, ["ls", "home"]), status: 0,
                  stdout: "home\n\n  \(water)  [ ] Water  due Mar 21  ↻ every week\n  \(standup)  [ ] Standup  ↻ 3 business days after done\n"
                      + "  \(plain)  [ ] Plain\n")
        let narrow = try Self.tick(sandbox, ["ls", "home"], environment: ["COLUMNS": "34"])
        #expect(narrow.stdout.contains("  \(water)  [ ] Water  due Mar 21  ↻\n"), "\(narrow.stdout)")
    }

    @Test("show prints the rule and the next three occurrences")
    func show() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Rent due:2026-01-31 rec:+1m until:2026-04-30\n- [ ] Water rec:1w\n"])
        let rent = try Self.tick(sandbox, ["show", "Rent"])
        #expect(rent.stdout.contains("  repeats   every month (rec:+1m), until 2026-04-30\n"), "\(rent.stdout)")
        #expect(rent.stdout.contains("  next      Sat Feb 28, Sat Mar 28, Tue Apr 28\n"), "\(rent.stdout)")
        let water = try Self.tick(sandbox, ["show", "Water"])
        #expect(water.stdout.contains("  repeats   a week after done (rec:1w)\n"), "\(water.stdout)")
        #expect(water.stdout.contains("  next      Sat Mar 21, Sat Mar 28, Sat Apr 4\n"), "\(water.stdout)")
    }

    @Test("the JSON recurrence key: null, or interval, mode and until", arguments: [
        ("- [ ] T\n", "null"),
        ("- [ ] T rec:1w\n", #"{"interval":"1w","mode":"completion","until":null}"#),
        ("- [ ] T due:2026-03-10 rec:+2m until:2026-12-31\n", #"{"interval":"+2m","mode":"due","until":"2026-12-31"}"#),
        ("- [ ] T due:2026-03-10 rec:++3b\n", #"{"interval":"++3b","mode":"future","until":null}"#),
    ])
    func json(_ line: String, _ expected: String) throws {
        let sandbox = try Self.folder(["home.md": line])
        let result = try Self.tick(sandbox, ["--json", "show", "T"])
        #expect(result.stdout.hasSuffix(",\"recurrence\":\(expected),\"scheduled\":null,\"start\":null,\"repeat\":null}\n"),
                "\(result.stdout)")
        // A warm run reads the rule from the cache and prints the same.
        let warm = try Self.tick(sandbox, ["--json", "show", "T"])
        #expect(warm.stdout == result.stdout)
    }

    @Test("a scheduled view lists a repeating task once, at its current due date")
    func scheduledOnce() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Water due:2026-03-15 rec:+1d\n"])
        let result = try Self.tick(sandbox, ["--json", "scheduled"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(tasks.count == 1)
        #expect(tasks.first?["due"] as? String == "2026-03-15")
    }
}
