import Foundation
import Testing

/// Two clones of a git repository complete the same occurrence of a repeating task: both write the
/// same line, so git's own line merge is clean (FORMAT.md 5.10, README "Repeating tasks").
@Suite("repeating tasks: two git clones")
struct RepeatingTaskGitTests {
    /// Runs git in `directory` of the sandbox, with a fixed identity and no user configuration.
    @discardableResult
    static func git(_ sandbox: Sandbox, _ directory: String, _ arguments: [String],
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.path(directory))
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": sandbox.path("home"), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_AUTHOR_DATE": "2026-03-14T09:30:00",
            "GIT_COMMITTER_DATE": "2026-03-14T09:30:00", "LC_ALL": "C",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let list = "# Home\n\n- [ ] Water the plants due:2026-03-10 rec:+1w\n  - [x] Fill the can done:2026-03-10\n"
        + "- [ ] Stretch rec:1d\n- [ ] Call mum\n"

    @Test("both clones complete the same occurrence; git merge is clean and keeps the one line",
          arguments: ["Water the plants", "Stretch"])
    func sameOccurrence(_ title: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else {
            Issue.record("git is not installed at /usr/bin/git")
            return
        }
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("origin/home.md", Self.list)
        #expect(try Self.git(sandbox, "origin", ["init", "-q", "-b", "main"]).status == 0)
        try Self.git(sandbox, "origin", ["add", "home.md"])
        #expect(try Self.git(sandbox, "origin", ["commit", "-q", "-m", "tasks"]).status == 0)
        for clone in ["a", "b"] {
            #expect(try Self.git(sandbox, "", ["clone", "-q", "origin", clone]).status == 0)
            expectRun(try sandbox.run(["--dir", clone, "--quiet", "done", title]), status: 0, stdout: "", stderr: "")
            #expect(try Self.git(sandbox, clone, ["commit", "-q", "-am", "done in \(clone)"]).status == 0)
        }
        let completed = try sandbox.read("a/home.md")
        #expect(completed != Self.list)
        #expect(try sandbox.read("b/home.md") == completed)
        // Make the two commits differ, so that the merge is a real three-way merge.
        try sandbox.write("b/other.md", "- [ ] Elsewhere\n")
        try Self.git(sandbox, "b", ["add", "other.md"])
        try Self.git(sandbox, "b", ["commit", "-q", "-m", "another list"])
        #expect(try Self.git(sandbox, "a", ["fetch", "-q", "../b", "main:theirs"]).status == 0)
        let merge = try Self.git(sandbox, "a", ["merge", "--no-edit", "-q", "theirs"])
        #expect(merge.status == 0, "\(merge.output)")
        #expect(try sandbox.read("a/home.md") == completed)
        expectRun(try sandbox.run(["--dir", "a", "check"]), status: 0)
    }
}
