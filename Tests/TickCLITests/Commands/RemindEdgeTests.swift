import Foundation
import Testing

/// `tick remind` at its edges: an `--exec` value too long for a program's environment, and a
/// resolved `--exec` path that a unit file could not hold.
@Suite("remind: edges of --exec")
struct RemindEdgeTests {
    /// A program that writes the length of TICK_TITLE and its last 20 bytes to $RECORD.
    static let lengthRecorder = "#!/bin/sh\nprintf '%s %s\\n' \"${#TICK_TITLE}\" \"$(printf '%s' \"$TICK_TITLE\" | tail -c 20)\" >> \"$RECORD\"\n"

    @Test("a title over 128 KiB is cut with a marker for --exec, delivered once, and not tried again")
    func overlongTitleIsCut() throws {
        let title = "Read " + String(repeating: "é", count: 70_000) + " end"
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] \(title) due:2026-03-14T08:00\n"])
        sandbox.environment["XDG_STATE_HOME"] = sandbox.path("state")
        sandbox.environment["LC_ALL"] = "C"
        try sandbox.writeProgram("bin/record", Self.lengthRecorder)
        sandbox.environment["RECORD"] = sandbox.path("record.txt")
        let first = try sandbox.run(["--dir", "tasks", "remind", "--exec", sandbox.path("bin/record")])
        #expect(first.status == 0, "\(first.status) \(first.stderr)")
        #expect(first.stderr == "")
        let record = try sandbox.read("record.txt")
        // In the C locale the shell counts bytes: NAME=value fits 128 KiB with its NUL.
        let parts = record.dropLast().split(separator: " ", maxSplits: 1)
        let length = try #require(Int(parts.first ?? ""))
        #expect("TICK_TITLE=".utf8.count + length == 128 * 1024 - 1, "\(record.prefix(80))")
        #expect(record.hasSuffix("… [cut by tick]\n"), "\(record.suffix(40))")
        // Recorded as reported: the next run neither prints it nor runs the program again.
        let second = try sandbox.run(["--dir", "tasks", "remind", "--exec", sandbox.path("bin/record")])
        expectRun(second, status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("record.txt") == record)
    }

    @Test("--install-timer refuses an --exec program whose resolved path holds a line break, writing nothing")
    func installTimerRefusesNewlineInProgramPath() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Call\n"])
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        try sandbox.writeProgram("odd\nplace/prog", "#!/bin/sh\nexit 0\n")
        for extra in [["--dry-run"], []] {
            let result = try sandbox.run(["--dir", sandbox.path("tasks"), "remind", "--install-timer", "--exec", "./prog"] + extra,
                                         in: "odd\nplace")
            expectRun(result, status: 2, stdout: "",
                      stderr: "tick: the path of the --exec program has a control character, which a unit file cannot hold\n")
        }
        #expect(!sandbox.exists("config"))
    }
}
