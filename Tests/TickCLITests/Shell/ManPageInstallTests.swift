import Foundation
import Testing

/// The man page `tick.1` and `make install`'s files.
@Suite("man page and make install")
struct ManPageInstallTests {
    /// Runs a program and returns its exit status, standard output and standard error.
    func run(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Small outputs: read both to the end, then wait.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("tick.1 holds every command and the README's sections, and groff -ww -z -man finds nothing to warn about")
    func manPage() throws {
        let sandbox = try Sandbox(onDisk: true)
        let page = try sandbox.run(["__manpage", Fixtures.packageRoot.appendingPathComponent("README.md").path])
        #expect(page.status == 0, "\(page)")
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH COMMANDS", ".SH FORMAT", ".SH REFS", ".SH DATES",
                        ".SH FILES", ".SH ENVIRONMENT", ".SH EXIT STATUS"] {
            #expect(page.stdout.contains("\n" + section + "\n"), "\(section)")
        }
        for command in ["today", "ls LIST", "import todotxt FILE", "export taskwarrior", "config [KEY] [VALUE]", "completions SHELL"] {
            #expect(page.stdout.contains(".SS tick \(command)"), "\(command)")
        }
        #expect(page.stdout.contains("TICK\\_NOW") || page.stdout.contains("TICK_NOW"))
        try sandbox.write("tick.1", page.stdout)
        let (status, _, warnings) = try run(["groff", "-ww", "-z", "-man", sandbox.path("tick.1")], in: sandbox.root,
                                            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(status == 0)
        #expect(warnings == "")
        // A README without a section the page needs is refused.
        try sandbox.write("README.md", "# tick\n")
        let refused = try sandbox.run(["__manpage", "README.md"])
        #expect(refused.status == 2 && refused.stderr.contains("the README has no part from"), "\(refused)")
    }

    @Test("make install with DESTDIR and PREFIX puts the binary, the man page and the three completion scripts where they are looked for")
    func install() throws {
        let sandbox = try Sandbox(onDisk: true)
        let binary = try #require(TickBinary.path)
        let destination = sandbox.path("dest")
        let (status, out, err) = try run(["make", "--no-print-directory", "install-files", "DESTDIR=" + destination, "PREFIX=/opt/tick",
                                          "TICK_BIN=" + binary], in: Fixtures.packageRoot,
                                         environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.path("home"), "LC_ALL": "C.UTF-8"])
        #expect(status == 0, "\(out)\(err)")
        let files = [("bin/tick", 0o755), ("share/man/man1/tick.1", 0o644),
                     ("share/bash-completion/completions/tick", 0o644), ("share/zsh/site-functions/_tick", 0o644),
                     ("share/fish/vendor_completions.d/tick.fish", 0o644)]
        for (file, mode) in files {
            let path = destination + "/opt/tick/" + file
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(file)")
            #expect(((attributes[.size] as? Int) ?? 0) > 0, "\(file)")
        }
        #expect(try String(contentsOfFile: destination + "/opt/tick/share/zsh/site-functions/_tick", encoding: .utf8)
                == sandbox.run(["completions", "zsh"]).stdout)
        #expect(try String(contentsOfFile: destination + "/opt/tick/share/man/man1/tick.1", encoding: .utf8).hasPrefix(".TH TICK 1"))
        let installed = try run([destination + "/opt/tick/bin/tick", "--version"], in: sandbox.root, environment: ["PATH": "/usr/bin:/bin"])
        #expect(installed.0 == 0 && installed.1.hasPrefix("tick "))
    }
}
