import Foundation
import Testing

/// Every date word, through `tick due` and through `due:` inside `tick add`. "Now" is Saturday
/// 14 March 2026, 09:30 unless a case names another moment.
@Suite("date words when writing")
struct DateArgumentTests {
    static let list = "# Home\n\nIntro line.\n\n- [ ] Call mum !! #flag\n- [ ] Other task due:2026-01-01\n"

    /// (words, the due written, now).
    static let words: [(String, String, String)] = [
        ("today", "2026-03-14", Sandbox.now),
        ("tomorrow", "2026-03-15", Sandbox.now),
        ("TOMORROW", "2026-03-15", Sandbox.now),
        ("yesterday", "2026-03-13", Sandbox.now),
        ("monday", "2026-03-16", Sandbox.now),
        ("mon", "2026-03-16", Sandbox.now),
        ("tuesday", "2026-03-17", Sandbox.now),
        ("tue", "2026-03-17", Sandbox.now),
        ("wednesday", "2026-03-18", Sandbox.now),
        ("wed", "2026-03-18", Sandbox.now),
        ("thursday", "2026-03-19", Sandbox.now),
        ("thu", "2026-03-19", Sandbox.now),
        ("friday", "2026-03-20", Sandbox.now),
        ("Fri", "2026-03-20", Sandbox.now),
        ("saturday", "2026-03-21", Sandbox.now),  // today is a Saturday: the next one
        ("sat", "2026-03-21", Sandbox.now),
        ("sunday", "2026-03-15", Sandbox.now),
        ("sun", "2026-03-15", Sandbox.now),
        ("fri", "2026-03-27", "2026-03-20T12:00"),  // on a Friday, a week later
        ("next week", "2026-03-16", Sandbox.now),
        ("next week", "2026-03-23", "2026-03-16T08:00"),  // on a Monday, the next one
        ("+3d", "2026-03-17", Sandbox.now),
        ("+2w", "2026-03-28", Sandbox.now),
        ("+1m", "2026-04-14", Sandbox.now),
        ("+1m", "2026-02-28", "2026-01-31T10:00"),  // clamped to the month's last day
        ("+1m", "2028-02-29", "2028-01-31T10:00"),
        ("eow", "2026-03-15", Sandbox.now),
        ("eow", "2026-03-15", "2026-03-15T10:00"),  // on a Sunday, that day
        ("eom", "2026-03-31", Sandbox.now),
        ("eom", "2028-02-29", "2028-02-10T10:00"),
        ("2026-12-03", "2026-12-03", Sandbox.now),
        ("2026-12-03T18:45", "2026-12-03T18:45", Sandbox.now),
        ("tomorrow 9:00", "2026-03-15T09:00", Sandbox.now),
        ("fri 17:30", "2026-03-20T17:30", Sandbox.now),
        ("next week 08:05", "2026-03-16T08:05", Sandbox.now),
        ("14:00", "2026-03-14T14:00", Sandbox.now),
        // The words of a new user's first hour. Now is Saturday 14 March 2026, 09:30.
        ("in 3 days", "2026-03-17", Sandbox.now),
        ("in 2 weeks", "2026-03-28", Sandbox.now),
        ("next friday", "2026-03-20", Sandbox.now),
        ("next month", "2026-04-01", Sandbox.now),
        ("next month", "2027-01-01", "2026-12-31T23:59"),
        ("dec 24", "2026-12-24", Sandbox.now),
        ("24 dec", "2026-12-24", Sandbox.now),
        ("december 24", "2026-12-24", Sandbox.now),
        ("mar 14", "2026-03-14", Sandbox.now),  // today counts
        ("mar 13", "2027-03-13", Sandbox.now),  // gone this year: next year
        ("9am", "2026-03-15T09:00", Sandbox.now),  // 09:00 has passed: tomorrow
        ("5pm", "2026-03-14T17:00", Sandbox.now),
        ("17:30", "2026-03-14T17:30", Sandbox.now),
        ("9:00", "2026-03-15T09:00", Sandbox.now),
        ("0:00", "2026-03-15T00:00", "2026-03-14T00:01"),
        ("23:59", "2026-03-15T23:59", "2026-03-14T23:59"),
        ("tonight", "2026-03-14T18:00", Sandbox.now),
        ("+1y", "2027-03-14", Sandbox.now),
        ("+1y", "2029-02-28", "2028-02-29T10:00"),
        ("2026-1-5", "2026-01-05", Sandbox.now),
        ("-1d", "2026-03-13", Sandbox.now),
        ("-1d", "2026-12-31", "2027-01-01T00:01"),
        ("+3d", "2027-01-03", "2026-12-31T23:59"),
        ("tomorrow 5pm", "2026-03-15T17:00", Sandbox.now),
    ]

    @Test("tick due writes each date word as an ISO date on the task's line only", arguments: words)
    func dueCommand(word: String, written: String, now: String) throws {
        let sandbox = try Fixtures.folder(["home.md": Self.list])
        // Several words on the command line are one DATE.
        let result = try sandbox.run(["--dir", "tasks", "--now", now, "due", "mum"] + word.split(separator: " ").map(String.init))
        let ref = try sandbox.ref("Call mum", dir: "tasks")
        expectRun(result, status: 0, stdout: "Due \(written): \(ref) \"Call mum\"\n", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.list.replacingOccurrences(
            of: "- [ ] Call mum !! #flag\n", with: "- [ ] Call mum !! #flag due:\(written)\n"))
    }

    @Test("due: inside a title takes the same words, with a time after T or as the next word", arguments: [
        ("Call mum due:fri", "2026-03-20"), ("Call mum due:next-week", "2026-03-16"), ("Call mum due:+2w", "2026-03-28"),
        ("Call mum due:friT17:30", "2026-03-20T17:30"), ("Call mum due:tomorrow 9:00", "2026-03-15T09:00"),
        ("due:eom Call mum", "2026-03-31"), ("Call due:2026-12-03T09:30 mum", "2026-12-03T09:30"),
        ("Call mum due:in-3-days", "2026-03-17"), ("Call mum due:in-2-weeks", "2026-03-28"),
        ("Call mum due:next-friday", "2026-03-20"), ("Call mum due:next-month", "2026-04-01"),
        ("Call mum due:dec-24", "2026-12-24"), ("Call mum due:24-dec", "2026-12-24"),
        ("Call mum due:december-24", "2026-12-24"), ("Call mum due:dec-24T9am", "2026-12-24T09:00"),
        ("Call mum due:9am", "2026-03-15T09:00"), ("Call mum due:5pm", "2026-03-14T17:00"),
        ("Call mum due:17:30", "2026-03-14T17:30"), ("Call mum due:tonight", "2026-03-14T18:00"),
        ("Call mum due:+1y", "2027-03-14"), ("Call mum due:2026-1-5", "2026-01-05"),
        ("Call mum due:-1d", "2026-03-13"), ("Call mum due:+3d", "2026-03-17"),
        ("Call mum due:tomorrow 5pm", "2026-03-15T17:00"), ("Call mum due:dec-24 9:30am", "2026-12-24T09:30"),
    ])
    func inlineDue(title: String, written: String) throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["add", "--quiet", title]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] Call mum due:\(written)\n")
    }

    @Test("a value that is not a date is refused with status 2, quoting it, and nothing changes", arguments: [
        ("someday", "tick: not a date: 'someday'"), ("2026-02-30", "tick: no such day: '2026-02-30'"),
        ("tomorrow 25:00", "tick: not a time: '25:00'"), ("+99999999d", "tick: date out of range: '+99999999d'"),
        ("fri day", "tick: not a date: 'fri day'"), ("in 3 fortnights", "tick: not a date: 'in 3 fortnights'"),
        ("dec 32", "tick: no such day: 'dec 32'"), ("13pm", "tick: not a time: '13pm'"),
        ("next-year", "tick: not a date: 'next-year'"), ("-1x", "tick: not a date: '-1x'"),
    ])
    func badDate(word: String, message: String) throws {
        let sandbox = try Fixtures.folder(["home.md": Self.list])
        var commands = [["due", "mum", word], ["edit", "mum", "--due", word], ["add", "X", "--due", word]]
        // In a title, a second word is title text unless it is a time.
        if !word.contains(" ") || word.hasSuffix(":00") { commands.append(["add", "X due:\(word)"]) }
        for arguments in commands {
            let result = try sandbox.run(["--dir", "tasks"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result)")
        }
        #expect(try sandbox.read("tasks/home.md") == Self.list)
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
    }

    @Test("due none removes the due date, and only it")
    func dueNone() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.list])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "other", "none"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.list.replacingOccurrences(of: " due:2026-01-01", with: ""))
    }
}

/// `--now` in date words, relative to the system clock, and signed day counts as positional DATEs.
@Suite("--now in words and signed dates")
struct NowWordCommandTests {
    @Test("--now takes date words relative to the clock: --now yesterday and --now today name different days")
    func nowWords() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/home.md", "- [ ] Call mum\n")
        // Whatever the system clock says, yesterday's Today view is headed one day before today's.
        let today = try sandbox.run(["--dir", "f", "--now", "today", "today"])
        let yesterday = try sandbox.run(["--dir", "f", "--now", "yesterday", "today"])
        let plusOne = try sandbox.run(["--dir", "f", "--now", "+1d", "today"])
        #expect(today.status == 0 && yesterday.status == 0 && plusOne.status == 0)
        let heading = { (result: TickResult) in result.stdout.split(separator: "\n").first.map(String.init) ?? "" }
        #expect(heading(today).hasPrefix("Today, "))
        #expect(heading(today) != heading(yesterday))
        #expect(heading(today) != heading(plusOne))
        // An ISO --now is taken as it is, as before.
        expectRun(try sandbox.run(["--dir", "f", "--now", "2026-03-14", "today"]), status: 0)
        #expect(try sandbox.run(["--dir", "f", "--now", "2026-3-14", "today"]).stdout
            == (try sandbox.run(["--dir", "f", "--now", "2026-03-14", "today"]).stdout))
    }

    @Test("a --now that is not a date word is refused with exit 2, naming it")
    func nowRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/home.md", "- [ ] Call mum\n")
        expectRun(try sandbox.run(["--dir", "f", "--now", "someday", "today"]), status: 2, stdout: "",
                  stderr: "tick: --now is not a date: 'someday' (expected a date word, YYYY-MM-DD or YYYY-MM-DDTHH:MM)\n")
    }

    @Test("-1d and +3d are DATE arguments, not options")
    func signedDates() throws {
        let sandbox = try Fixtures.folder(["home.md": DateArgumentTests.list])
        let ref = try sandbox.ref("Call mum", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "due", "mum", "-1d"]), status: 0,
                  stdout: "Due 2026-03-13: \(ref) \"Call mum\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "due", "mum", "+3d"]), status: 0,
                  stdout: "Due 2026-03-17: \(ref) \"Call mum\"\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Later", "--due", "-2w"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md").contains("- [ ] Later due:2026-02-28\n"))
    }
}
