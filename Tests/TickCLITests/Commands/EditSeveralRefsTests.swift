import Foundation
import Testing

/// `tick edit REF REF… --option…`: the options applied to each task as one change, and several REFs
/// without an option refused. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("edit with several refs")
struct EditSeveralRefsTests {
    static let home = """
        # Home

        - [ ] Call the plumber !! due:2026-03-20
          The number is on the fridge.
        - [ ] Paint the fence
        - [ ] Water the plants rec:1w

        """
    static let work = """
        # Work

        - [ ] Send the report due:2026-03-16
        - [ ] Book the offsite #flag

        """

    static func sandbox() throws -> Sandbox {
        try Fixtures.diskFolder(["home.md": home, "work.md": work])
    }

    /// The files as they are now, by name.
    static func files(_ sandbox: Sandbox) throws -> [String: String] {
        ["home.md": try sandbox.read("tasks/home.md"), "work.md": try sandbox.read("tasks/work.md")]
    }

    @Test("the options apply to each task named, changing only those tasks' lines, and one undo restores every file")
    func appliesToEach() throws {
        let sandbox = try Self.sandbox()
        let fence = try sandbox.ref("Paint the fence", dir: "tasks"), report = try sandbox.ref("Send the report", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", fence, "report", "--due", "fri", "--priority", "high"]),
                  status: 0, stdout: "Edited \(fence) \"Paint the fence\": due, priority\n"
                      + "Edited \(report) \"Send the report\": due, priority\n", stderr: "")
        #expect(try Self.files(sandbox) == [
            "home.md": Self.home.replacingOccurrences(of: "- [ ] Paint the fence\n", with: "- [ ] Paint the fence due:2026-03-20 !!!\n"),
            "work.md": Self.work.replacingOccurrences(of: "- [ ] Send the report due:2026-03-16\n",
                                                      with: "- [ ] Send the report due:2026-03-20 !!!\n"),
        ])
        // One journal entry: one undo takes both back, byte for byte, and there is nothing more to undo.
        let undo = try sandbox.run(["--dir", "tasks", "undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(try Self.files(sandbox) == ["home.md": Self.home, "work.md": Self.work])
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("a task the options leave as it is says so, the others change, and --json prints every task named")
    func noChangeAndJSON() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks", "--json", "edit", "plumber", "fence", "--priority", "medium",
                                      "--append-note", "Before Friday."])
        #expect(result.status == 0, "\(result)")
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.map { $0["title"] as? String } == ["Call the plumber", "Paint the fence"], "\(result)")
        #expect(try Self.files(sandbox) == [
            "home.md": Self.home
                .replacingOccurrences(of: "The number is on the fridge.\n", with: "The number is on the fridge.\n  Before Friday.\n")
                .replacingOccurrences(of: "- [ ] Paint the fence\n", with: "- [ ] Paint the fence !!\n  Before Friday.\n"),
            "work.md": Self.work,
        ])
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        let again = try sandbox.run(["--dir", "tasks", "edit", "plumber", "offsite", "--priority", "medium"])
        let offsite = try sandbox.ref("Book the offsite", dir: "tasks")
        expectRun(again, status: 0, stdout: "No change to \(plumber) \"Call the plumber\": already priority medium\n"
                      + "Edited \(offsite) \"Book the offsite\": priority\n", stderr: "")
    }

    @Test("several REFs without an option are refused with status 2, without running the editor or changing a file",
          arguments: [[String](), ["--keep-history"]])
    func refusedWithoutOptions(options: [String]) throws {
        let sandbox = try Self.sandbox()
        // An editor that would leave a mark if it ran.
        try sandbox.writeProgram("bin/editor", "#!/bin/sh\ntouch \"$HOME/../editor-ran\"\necho x >> \"$1\"\n")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "plumber", "fence"] + options,
                                  environment: ["EDITOR": sandbox.path("bin/editor"), "VISUAL": sandbox.path("bin/editor")]),
                  status: 2, stdout: "",
                  stderr: "tick: edit opens the editor on one task; with several REFs give the changes as options "
                      + "(--title, --note, --append-note, --due, --priority, --rec, --until); nothing changed\n")
        #expect(!sandbox.exists("editor-ran"))
        #expect(try Self.files(sandbox) == ["home.md": Self.home, "work.md": Self.work])
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("when the options would leave one of the tasks with a rule tick check reports, none changes and the message names it")
    func oneRefusalChangesNone() throws {
        let sandbox = try Self.sandbox()
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        // rec:+1w counts from the due date: the plumber has one, the fence none.
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber", "fence", "--rec", "+1w"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("tick: \(fence) \"Paint the fence\": "), "\(result)")
        #expect(result.stderr.hasSuffix("; nothing changed\n"), "\(result)")
        #expect(try Self.files(sandbox) == ["home.md": Self.home, "work.md": Self.work])
    }

    @Test("a REF that names no task is refused before anything is written")
    func unknownRef() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks", "edit", "plumber", "no such task", "--due", "fri"])
        #expect(result.status != 0, "\(result)")
        #expect(try Self.files(sandbox) == ["home.md": Self.home, "work.md": Self.work])
    }
}
