import Foundation
import Testing

/// The question `--where` asks on a terminal when more than 10 tasks match, answered through a real
/// pseudo-terminal: tick runs under Debian's /usr/bin/python3 (its `pty` module), which waits for the
/// question to appear on the screen and only then types the answer, as a person would.
@Suite("bulk changes: the question on a terminal")
struct BulkConfirmationTerminalTests {
    /// Runs the command after its arguments on a new pseudo-terminal (standard input, output and error,
    /// 200 columns wide). When `[y/N] ` appears, types `answer` and a line feed, and says `asked` on its
    /// own standard error. Prints what the terminal showed (CR LF as LF) and exits with the command's
    /// status. A command that neither asks nor ends within 60 seconds is killed (status 124), so a
    /// question that never reaches the screen fails the test instead of hanging it.
    static let terminal = #"""
        import os, pty, select, signal, struct, sys, fcntl, termios
        answer, command = sys.argv[1], sys.argv[2:]
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
            os.execv(command[0], command)
        shown, asked = b"", False
        while True:
            ready, _, _ = select.select([fd], [], [], 60)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                sys.stdout.write(shown.decode("utf-8", "replace").replace("\r\n", "\n"))
                sys.stderr.write("no question and no end within 60 seconds\n")
                sys.exit(124)
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            shown += chunk
            if not asked and shown.endswith(b"[y/N] "):
                asked = True
                os.write(fd, answer.encode() + b"\n")
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(shown.decode("utf-8", "replace").replace("\r\n", "\n"))
        if asked:
            sys.stderr.write("asked\n")
        sys.exit(os.waitstatus_to_exitcode(status))
        """#

    static let python = "/usr/bin/python3"

    /// `perList` tasks in one list; every 7th is tagged #errands (14 of 100, 4 of 30).
    static func folder(perList: Int) throws -> (Sandbox, String) {
        let files = BulkChangeTests.bigFolder(lists: 1, perList: perList)
        let sandbox = try Fixtures.diskFolder(files)
        sandbox.environment["NO_COLOR"] = "1"
        return (sandbox, files["list0.md"]!)
    }

    /// The numbers N of the tasks `Task 0-N` tagged #errands among the first `perList`.
    static func tagged(_ perList: Int) -> [Int] { (0..<perList).filter { $0 % 7 == 3 } }

    /// The numbers N of the rows `[ ] Task 0-N` that `text` shows, in order.
    static func rows(_ text: Substring) -> [Int] {
        text.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "[ ] Task 0-") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    func runOnTerminal(_ sandbox: Sandbox, answer: String, _ arguments: [String]) throws -> TickResult {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "\(Self.python) is missing: make test-deps installs it")
        return try sandbox.run(["--dir", "tasks"] + arguments, launcher: [Self.python, "-c", Self.terminal, answer])
    }

    @Test("answering y on a terminal changes exactly the matched tasks, after listing them under the question's count")
    func yes() throws {
        let (sandbox, before) = try Self.folder(perList: 100)
        let result = try runOnTerminal(sandbox, answer: "y", ["done", "--where", "#errands"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "asked\n", "\(result)")
        let question = "Change these 14 tasks (tick done)? [y/N] y\n"
        let parts = result.stdout.components(separatedBy: question)
        try #require(parts.count == 2, "the question, once: \(result)")
        // Before the question: one row for each matched task (in find's order), and nothing else.
        #expect(Self.rows(Substring(parts[0])).sorted() == Self.tagged(100), "\(result)")
        #expect(!parts[0].contains("Completed"), "\(result)")
        // After it: a line for each completed task.
        #expect(parts[1].split(separator: "\n").filter { $0.hasPrefix("Completed ") }.count == 14, "\(result)")
        // Exactly the tagged tasks' lines changed, each to done today.
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = try sandbox.read("tasks/list0.md").split(separator: "\n", omittingEmptySubsequences: false)
        try #require(old.count == new.count)
        var changed: [Int] = []
        for (a, b) in zip(old, new) where a != b {
            #expect(b == a.replacingOccurrences(of: "- [ ]", with: "- [x]") + " done:2026-03-14", "\(a) → \(b)")
            changed += Self.rows(a)
        }
        #expect(changed == Self.tagged(100))
    }

    @Test("answering n (or nothing) on a terminal changes no file and journals nothing", arguments: ["n", ""])
    func no(answer: String) throws {
        let (sandbox, before) = try Self.folder(perList: 100)
        let result = try runOnTerminal(sandbox, answer: answer, ["priority", "--where", "#errands", "high"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "asked\n", "\(result)")
        let question = "Change these 14 tasks (tick priority)? [y/N] \(answer)\n"
        let parts = result.stdout.components(separatedBy: question)
        try #require(parts.count == 2, "the question, once: \(result)")
        #expect(Self.rows(Substring(parts[0])).sorted() == Self.tagged(100), "\(result)")
        #expect(parts[1] == "tick: nothing changed\n", "\(result)")
        #expect(try sandbox.read("tasks/list0.md") == before)
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 1, stdout: "", stderr: "tick: nothing to undo\n")
    }

    @Test("10 matches or fewer change without a question on a terminal")
    func fewAskNothing() throws {
        let (sandbox, before) = try Self.folder(perList: 30)
        let result = try runOnTerminal(sandbox, answer: "n", ["flag", "--where", "#errands"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "", "no question: \(result)")
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("Flagged ") }.count == Self.tagged(30).count,
                "\(result)")
        #expect(try sandbox.read("tasks/list0.md") != before)
    }
}
