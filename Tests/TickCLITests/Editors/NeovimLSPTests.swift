import Foundation
import Testing

/// `tick lsp` driven by a real editor: Neovim 0.7's built-in client, headless, from
/// `Fixtures/lsp/test-init.lua` (a diagnostic, completion, the code actions, "complete" applied and
/// written), and the file it wrote compared byte for byte with `tick done` on a copy.
@Suite("tick lsp in Neovim")
struct NeovimLSPTests {
    static let list = """
        # Home

        - [ ] Water the plants
        - [ ] Pay rent due:2026-03-31 !!
        - [ ] Weekly review due:2026-03-13 rec:1w #work
          - [x] Clear the inbox done:2026-03-10
          - [ ] Plan the week

        """

    @Test("Neovim sees the diagnostic, completes fri, and its applied 'complete' equals tick done byte for byte")
    func neovimEndToEnd() throws {
        let nvim = try #require(["/usr/bin/nvim", "/usr/local/bin/nvim"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                "nvim is not installed: make test-deps installs it")
        let tick = try #require(TickBinary.path, "no built tick binary found; run `swift build` first")
        let sandbox = try Sandbox(onDisk: true)
        expectRun(try sandbox.run(["init", "notes"]), status: 0)
        expectRun(try sandbox.run(["init", "copy"]), status: 0)
        try sandbox.write("notes/home.md", Self.list)
        let script = Fixtures.root.appendingPathComponent("lsp/test-init.lua").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: nvim)
        process.arguments = ["--headless", "-u", script]
        var environment = sandbox.environment
        environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        environment["XDG_STATE_HOME"] = sandbox.path("state")
        environment["XDG_CACHE_HOME"] = sandbox.path("cache")
        environment["TICK_BIN"] = tick
        environment["TICK_FOLDER"] = sandbox.path("notes")
        environment["TICK_RESULT"] = sandbox.path("result.txt")
        environment["TICK_COPY"] = sandbox.path("copy/home.md")
        // Sandbox.now is Saturday 2026-03-14: `fri` is the 20th.
        environment["TICK_FRIDAY"] = "2026-03-20"
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.path("notes"))
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The script bounds each of its waits; this bounds the editor itself.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()

        let result = (try? String(contentsOfFile: sandbox.path("result.txt"), encoding: .utf8)) ?? "FAIL no result (nvim exited \(process.terminationStatus))"
        #expect(result.hasPrefix("OK"), "\(result)")
        #expect(process.terminationStatus == 0, "\(result)")
        try #require(result.hasPrefix("OK"))

        let edited = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("notes/home.md")))
        let copied = try sandbox.read("copy/home.md")
        #expect(copied.contains("- [ ] Water the plants due:2026-13-01\n"), "the copy holds the typed date")
        #expect(copied.contains("- [ ] Call the plumber due:2026-03-20\n"), "the copy holds the completed date")
        expectRun(try sandbox.run(["--dir", "copy", "done", "Weekly review"]), status: 0)
        let done = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("copy/home.md")))
        #expect(String(decoding: done, as: UTF8.self).contains("Weekly review due:2026-03-21 rec:1w #work\n  - [ ] Clear the inbox\n"))
        #expect(edited == done, "Neovim wrote:\n\(String(decoding: edited, as: UTF8.self))\ntick done gives:\n\(String(decoding: done, as: UTF8.self))")
    }
}
