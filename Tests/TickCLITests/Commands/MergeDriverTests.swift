import Foundation
import Testing

/// The merge test matrix: one folder per case under `Fixtures/merge`, with `base.md`, `ours.md`,
/// `theirs.md`, `expected.md`, `status` (the driver's exit status), `line-merge` (`clean` or
/// `conflict`: what git's own line merge makes of the case) and, for some, `args` (the marker size,
/// path and labels, one a line).
enum MergeCases {
    static let root = Fixtures.root.appendingPathComponent("merge")

    static let names: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }
            .sorted()
    }()

    static func bytes(_ name: String, _ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(name).appendingPathComponent(file)))
    }

    static func text(_ name: String, _ file: String) throws -> String {
        String(decoding: try bytes(name, file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func arguments(_ name: String) -> [String] {
        guard let text = try? String(contentsOf: root.appendingPathComponent(name).appendingPathComponent("args"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Runs a program (git) and returns its status and standard output.
@discardableResult
func runProgram(_ arguments: [String], in directory: String, environment: [String: String]) throws -> (status: Int32, stdout: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("tick-git-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: out) }
    let handle = try FileHandle(forWritingTo: out)
    process.standardOutput = handle
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, String(decoding: try Data(contentsOf: out), as: UTF8.self))
}

extension Sandbox {
    /// The sandbox's environment with a git identity and no system or user git configuration.
    var gitEnvironment: [String: String] {
        environment.merging([
            "GIT_AUTHOR_NAME": "Tick Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
            "GIT_COMMITTER_NAME": "Tick Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
        ]) { $1 }
    }

    @discardableResult
    func git(_ arguments: [String], in relative: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, stdout: String) {
        guard disk == nil else {
            Issue.record("git needs the sandbox on the real disk: make it Sandbox(onDisk: true)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return try runProgram(["git"] + arguments, in: relative.isEmpty ? root.path : path(relative), environment: gitEnvironment)
    }
}

@Suite("merge-driver: the merge test matrix")
struct MergeDriverTests {
    @Test("the matrix has at least 30 cases, each complete")
    func matrixIsComplete() throws {
        #expect(MergeCases.names.count >= 30)
        for name in MergeCases.names {
            for file in ["base.md", "ours.md", "theirs.md", "expected.md", "status", "line-merge"] {
                #expect(FileManager.default.fileExists(atPath: MergeCases.root.appendingPathComponent(name + "/" + file).path),
                        "\(name) has no \(file)")
            }
        }
    }

    @Test("the driver run directly writes the expected bytes to OURS and exits as expected", arguments: MergeCases.names)
    func direct(_ name: String) throws {
        let sandbox = try Sandbox(onDisk: true)
        for file in ["base.md", "ours.md", "theirs.md"] { try sandbox.writeBytes(file, try MergeCases.bytes(name, file)) }
        // What git's own line merge makes of the case.
        let line = try sandbox.git(["merge-file", "-p", "ours.md", "base.md", "theirs.md"])
        let result = try sandbox.run(["merge-driver", "base.md", "ours.md", "theirs.md"] + MergeCases.arguments(name))
        #expect(result.status == Int32(try MergeCases.text(name, "status")), "\(name): \(result)")
        let merged = try sandbox.bytes("ours.md"), expected = try MergeCases.bytes(name, "expected.md")
        #expect(merged == expected, "\(name):\n\(String(decoding: merged, as: UTF8.self))")
        if try MergeCases.text(name, "line-merge") == "conflict" {
            #expect(line.status != 0, "\(name): git's line merge was expected to conflict")
        } else {
            #expect(line.status == 0, "\(name): git's line merge was expected to be clean")
        }
    }

    @Test("through real git: a bare repository, two clones, conflicting pushes, git pull",
          arguments: MergeCases.names.filter { MergeCases.arguments($0).count <= 1 })
    func throughGit(_ name: String) throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", "remote.git"])
        try sandbox.git(["clone", "--quiet", "remote.git", "a"])
        expectRun(try sandbox.run(["init", "--quiet", "a"]), status: 0)
        expectRun(try sandbox.run(["--dir", "a", "git-setup", "--quiet"]), status: 0)
        if let size = MergeCases.arguments(name).first {
            // git passes the marker size of the conflict-marker-size attribute as %L.
            let attributes = try sandbox.read("a/.gitattributes")
            try sandbox.write("a/.gitattributes", attributes + "*.md conflict-marker-size=\(size)\n")
        }
        let base = try MergeCases.bytes(name, "base.md")
        if !base.isEmpty { try sandbox.writeBytes("a/list.md", base) }
        try sandbox.git(["add", "-A"], in: "a")
        try sandbox.git(["commit", "--quiet", "-m", "base"], in: "a")
        try #require(try sandbox.git(["push", "--quiet", "origin", "main"], in: "a").status == 0)

        try sandbox.git(["clone", "--quiet", "remote.git", "b"])
        // The clone is a task folder: .tick/.gitignore came with it.
        #expect(sandbox.exists("b/.tick/.gitignore"))
        expectRun(try sandbox.run(["--dir", "b", "git-setup", "--quiet"]), status: 0)

        // a pushes theirs first; b commits ours and pulls: git's ours is b, as in the fixture.
        try sandbox.writeBytes("a/list.md", try MergeCases.bytes(name, "theirs.md"))
        try sandbox.git(["add", "list.md"], in: "a")
        try sandbox.git(["commit", "--quiet", "-m", "theirs"], in: "a")
        try #require(try sandbox.git(["push", "--quiet", "origin", "main"], in: "a").status == 0)

        try sandbox.writeBytes("b/list.md", try MergeCases.bytes(name, "ours.md"))
        try sandbox.git(["add", "list.md"], in: "b")
        try sandbox.git(["commit", "--quiet", "-m", "ours"], in: "b")
        let pull = try sandbox.git(["pull", "--quiet", "--no-rebase", "--no-edit", "origin", "main"], in: "b")
        let expectedStatus = try MergeCases.text(name, "status")
        #expect((pull.status == 0) == (expectedStatus == "0"), "\(name): git pull exited \(pull.status)")
        let merged = try sandbox.bytes("b/list.md")
        #expect(merged == (try MergeCases.bytes(name, "expected.md")), "\(name):\n\(String(decoding: merged, as: UTF8.self))")
    }

    @Test("a driver child that traps falls back to git merge-file, never a signal")
    func childTrapFallsBack() throws {
        let sandbox = try Sandbox(onDisk: true)
        let name = "adjacent-completed"
        for file in ["base.md", "ours.md", "theirs.md"] { try sandbox.writeBytes(file, try MergeCases.bytes(name, file)) }
        try sandbox.writeBytes("line.md", try MergeCases.bytes(name, "ours.md"))
        let line = try sandbox.git(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", "line.md", "base.md", "theirs.md"])
        let result = try sandbox.run(["merge-driver", "base.md", "ours.md", "theirs.md", "7", "list.md"],
                                     environment: ["TICK_TEST_MERGE_CHILD_TRAP": "1"])
        #expect(result.status == 1 && line.status != 0, "\(result)")
        #expect(result.stderr.contains("merging line by line"))
        let merged = try sandbox.bytes("ours.md"), lineMerged = try sandbox.bytes("line.md")
        #expect(merged == lineMerged)
        #expect(String(decoding: merged, as: UTF8.self).contains("<<<<<<< ours"))
    }
}
