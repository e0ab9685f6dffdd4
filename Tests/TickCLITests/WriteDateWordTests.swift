import Foundation
import Testing

/// Every date word, through `tick due` and through `due:` inside `tick add`. "Now" is Saturday
/// 14 March 2026, 09:30 unless a case names another moment.
@Suite("date words when writing")
struct WriteDateWordTests {
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
    ]

    @Test("tick due writes each date word as an ISO date on the task's line only", arguments: words)
    func dueCommand(word: String, written: String, now: String) throws {
        let sandbox = try WriteCommandTests.folder(["home.md": Self.list])
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
    ])
    func inlineDue(title: String, written: String) throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["add", "--quiet", title]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("data/tick/inbox.md") == "# Inbox\n\n- [ ] Call mum due:\(written)\n")
    }

    @Test("a value that is not a date is refused with status 2, quoting it, and nothing changes", arguments: [
        ("someday", "tick: not a date: 'someday'"), ("2026-02-30", "tick: no such day: '2026-02-30'"),
        ("tomorrow 25:00", "tick: not a time: '25:00'"), ("+99999999d", "tick: date out of range: '+99999999d'"),
        ("fri day", "tick: not a date: 'fri day'"),
    ])
    func badDate(word: String, message: String) throws {
        let sandbox = try WriteCommandTests.folder(["home.md": Self.list])
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
        let sandbox = try WriteCommandTests.folder(["home.md": Self.list])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "other", "none"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/home.md") == Self.list.replacingOccurrences(of: " due:2026-01-01", with: ""))
    }
}
