import Foundation
import Glibc
import Testing

/// `tick export … -o TARGET` writes through to what is there: a regular file is replaced atomically,
/// a link's target is replaced (the link stays), a device, FIFO, pipe or socket is written in place
/// and never replaced, and a folder is refused.
@Suite("tick export -o, through to what is there")
struct ExportOutputTargetTests {
    static func sandbox() throws -> Sandbox {
        try Fixtures.diskFolder(["inbox.md": "# Inbox\n\n- [ ] Buy milk !! due:2026-12-02\n",
                             "work.md": "# Work\n\n- [ ] Report #flag\n"])
    }

    /// The file type bits of what `path` names, not following a final link.
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// What `tick export json` prints, to compare with what went through `-o`.
    static func printed(_ sandbox: Sandbox) throws -> String {
        let result = try sandbox.run(["--dir", "tasks", "export", "json"])
        #expect(result.status == 0 && result.stdout.hasPrefix("[\n"), "\(result)")
        return result.stdout
    }

    @Test("-o a character device writes to it and leaves it a device: one of the sandbox's, then /dev/null")
    func characterDevice() throws {
        let sandbox = try Self.sandbox()
        // A device of the sandbox's own first (root can make one), so that a tick that replaced it
        // fails here without touching the machine's /dev/null.
        let own = sandbox.path("null")
        // Device 1:3 (the null device), encoded as glibc's makedev does for small numbers.
        if mknod(own, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "null"]), status: 0, stdout: "", stderr: "")
            #expect(Self.kind(own) == S_IFCHR)
            #expect(!sandbox.exists(".null.tick-export"))
            guard Self.kind(own) == S_IFCHR else { return }
        }
        expectRun(try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "/dev/null"]), status: 0, stdout: "", stderr: "")
        #expect(Self.kind("/dev/null") == S_IFCHR)
    }

    @Test("-o a FIFO with a reader gives the reader the bytes, and the FIFO stays")
    func fifo() throws {
        let sandbox = try Self.sandbox()
        let expected = try Self.printed(sandbox)
        let path = sandbox.path("feed")
        #expect(mkfifo(path, 0o600) == 0)
        // The reader is there before tick opens it (opened without waiting for a writer).
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "feed"]), status: 0, stdout: "", stderr: "")
        #expect(Self.kind(path) == S_IFIFO)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(reader, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        #expect(String(decoding: received, as: UTF8.self) == expected)
    }

    @Test("-o a link to a regular file replaces the target atomically, keeping its mode; the link stays")
    func linkToFile() throws {
        let sandbox = try Self.sandbox()
        let expected = try Self.printed(sandbox)
        try sandbox.makeFolder("exports")
        try sandbox.write("exports/tasks.json", "old\n")
        #expect(chmod(sandbox.path("exports/tasks.json"), 0o640) == 0)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("latest.json"), withDestinationPath: "exports/tasks.json")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "latest.json"]), status: 0, stdout: "", stderr: "")
        #expect(Self.kind(sandbox.path("latest.json")) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("latest.json")) == "exports/tasks.json")
        #expect(try sandbox.read("exports/tasks.json") == expected)
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("exports/tasks.json"))
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("exports"))
            + FileManager.default.contentsOfDirectory(atPath: sandbox.path(""))
        #expect(!names.contains { $0.hasSuffix(".tick-export") }, "\(names)")
    }

    @Test("-o a link to a list inside the task folder, or a list-named link there, is refused, nothing changed")
    func linkToList() throws {
        let sandbox = try Self.sandbox()
        let before = try sandbox.read("tasks/work.md")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("out.md"), withDestinationPath: "tasks/work.md")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "out.md"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'out.md' for -o: a .md file inside the task folder is a list; "
                      + "write the export elsewhere\n")
        #expect(try sandbox.read("tasks/work.md") == before)
        #expect(Self.kind(sandbox.path("out.md")) == S_IFLNK)
        // A link inside the folder named as a list is a list too, wherever it points.
        try sandbox.write("outside.json", "old\n")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("tasks/linked.md"), withDestinationPath: "../outside.json")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "tasks/linked.md"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'tasks/linked.md' for -o: a .md file inside the task folder is a list; "
                      + "write the export elsewhere\n")
        #expect(try sandbox.read("outside.json") == "old\n")
    }

    @Test("-o a folder, a link to a folder or a link to nothing is refused, nothing written")
    func refusals() throws {
        let sandbox = try Self.sandbox()
        try sandbox.makeFolder("outdir")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("dirlink"), withDestinationPath: "outdir")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("dangling"), withDestinationPath: "nowhere.json")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "outdir"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'outdir' for -o: it is a folder\n")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "dirlink"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'dirlink' for -o: it is a link to a folder\n")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "dangling"]), status: 2, stdout: "",
                  stderr: "tick: invalid value 'dangling' for -o: it is a symbolic link to nothing\n")
        #expect(Self.kind(sandbox.path("dirlink")) == S_IFLNK)
        #expect(Self.kind(sandbox.path("dangling")) == S_IFLNK)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("outdir")).isEmpty)
        #expect(!sandbox.exists("nowhere.json"))
    }

    @Test("-o /dev/stdout into a pipe prints the export through the pipe: a link of the sandbox's first, then /dev/stdout")
    func standardOutputPipe() throws {
        let sandbox = try Self.sandbox()
        let expected = try Self.printed(sandbox)
        let pipe = ["/bin/sh", "-c", "\"$@\" | cat", "sh"]
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("stdout"), withDestinationPath: "/dev/stdout")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "stdout"], launcher: pipe),
                  status: 0, stdout: expected, stderr: "")
        guard Self.kind(sandbox.path("stdout")) == S_IFLNK else {
            Issue.record("the link to /dev/stdout was replaced")
            return
        }
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "/dev/stdout"], launcher: pipe),
                  status: 0, stdout: expected, stderr: "")
    }

    @Test("-o /dev/stdout when standard output is a socket writes to the socket: a link of the sandbox's first")
    func standardOutputSocket() throws {
        let sandbox = try Self.sandbox()
        let expected = try Self.printed(sandbox)
        let script = """
            import socket, subprocess, sys
            a, b = socket.socketpair()
            p = subprocess.Popen(sys.argv[1:], stdout=b)
            b.close()
            out = b"".join(iter(lambda: a.recv(65536), b""))
            p.wait()
            sys.stdout.buffer.write(out)
            sys.exit(p.returncode)
            """
        let socket = ["/usr/bin/python3", "-c", script]
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("stdout"), withDestinationPath: "/dev/stdout")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "stdout"], launcher: socket),
                  status: 0, stdout: expected, stderr: "")
        guard Self.kind(sandbox.path("stdout")) == S_IFLNK else {
            Issue.record("the link to /dev/stdout was replaced")
            return
        }
        expectRun(try sandbox.run(["--dir", "tasks", "export", "json", "-o", "/dev/stdout"], launcher: socket),
                  status: 0, stdout: expected, stderr: "")
    }
}
