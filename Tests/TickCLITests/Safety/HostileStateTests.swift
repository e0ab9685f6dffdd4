#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The reproductions of the reliability issue, end to end: hostile state under `.tick/` and links
/// that lead out of the folder. Every one leaves the sibling folder `other/` exactly as it was.
@Suite("hostile state under .tick/")
struct HostileStateTests {
    static let inbox = "# Inbox\n\n- [ ] Call mum\n"

    /// `work/tasks` (a task folder holding inbox.md) beside `work/other` (two files to protect).
    static func make() throws -> (sandbox: Sandbox, tasks: String, other: String) {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("work/tasks/inbox.md", inbox)
        try sandbox.write("work/other/victim.txt", "precious\n")
        try sandbox.write("work/other/notes.md", "# Notes\n\n- [ ] mine\n")
        expectRun(try sandbox.run(["init", "work/tasks"]), status: 0)
        return (sandbox, sandbox.path("work/tasks"), sandbox.path("work/other"))
    }

    static func entry(_ sandbox: Sandbox, _ name: String, meta: String, files: [String: String] = [:]) throws {
        try sandbox.write("work/tasks/.tick/journal/\(name)/meta", meta)
        for (file, text) in files { try sandbox.write("work/tasks/.tick/journal/\(name)/\(file)", text) }
    }

    @Test("1. a journal path leading out of the folder is rejected, named, and never acted on, by undo or by recovery")
    func journalPathEscapes() throws {
        for (meta, file, command, status) in [
            ("state done\nrecover drop\nsummary harmless\nfile 0 ../other/pwned.sh\n", "0.before", ["undo"], Int32(1)),
            ("state pending\nrecover finish\nsummary harmless\nfile 0 ../other/pwned.sh\n", "0.after", ["add", "two"], 0),
            ("state done\nrecover drop\nsummary harmless\nfile 0 /tmp/pwned.md\n", "0.before", ["undo"], 1),
        ] {
            let (sandbox, tasks, other) = try Self.make()
            let before = FolderSnapshot(other)
            try Self.entry(sandbox, "00000001", meta: meta, files: [file: "echo pwned\n"])
            let result = try sandbox.run(["--dir", tasks] + command)
            #expect(result.status == status, "\(result)")
            #expect(result.stderr.contains("tick: warning: ignored the journal entry 00000001: the path '"), "\(result)")
            #expect(result.stderr.contains("moved to .tick/journal/rejected/00000001"), "\(result)")
            expectUnchanged(other, since: before)
            #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned.md"))
            #expect(FileManager.default.fileExists(atPath: tasks + "/.tick/journal/rejected/00000001/meta"))
            // Once moved aside, it is never seen again.
            expectRun(try sandbox.run(["--dir", tasks, "--quiet", "add", "three"]), status: 0, stderr: "")
        }
        // A plain relative path that leads out through a linked folder.
        let (sandbox, tasks, other) = try Self.make()
        symlink("../other", tasks + "/sub")
        let before = FolderSnapshot(other)
        try Self.entry(sandbox, "00000001", meta: "state done\nrecover drop\nsummary harmless\nfile 0 sub/notes.md\n",
                       files: ["0.before": "# Replaced\n"])
        let result = try sandbox.run(["--dir", tasks, "undo"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("ignored the journal entry 00000001: sub/notes.md is a link to "), "\(result)")
        expectUnchanged(other, since: before)
    }

    @Test("2. links inside .tick/journal (a staging folder, an entry, an entry's file) never lead tick's writes or removals outside")
    func journalLinks() throws {
        // A staging folder that is a link to the sibling folder.
        do {
            let (sandbox, tasks, other) = try Self.make()
            let before = FolderSnapshot(other)
            try FileManager.default.createDirectory(atPath: tasks + "/.tick/journal", withIntermediateDirectories: true)
            symlink("../../../other", tasks + "/.tick/journal/.00000001")
            expectRun(try sandbox.run(["--dir", tasks, "--quiet", "add", "one"]), status: 0, stderr: "")
            expectRun(try sandbox.run(["--dir", tasks, "--quiet", "undo"]), status: 0, stderr: "")
            expectUnchanged(other, since: before)
        }
        // An entry that is a link to the sibling folder: undo and pruning would empty it.
        do {
            let (sandbox, tasks, other) = try Self.make()
            let before = FolderSnapshot(other)
            try FileManager.default.createDirectory(atPath: tasks + "/.tick/journal", withIntermediateDirectories: true)
            symlink("../../../other", tasks + "/.tick/journal/00000001")
            let result = try sandbox.run(["--dir", tasks, "undo"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("ignored the journal entry 00000001: it is not a folder"), "\(result)")
            expectUnchanged(other, since: before)
        }
        // An entry's staging meta file that is a link: finishing the entry would write through it.
        do {
            let (sandbox, tasks, other) = try Self.make()
            let before = FolderSnapshot(other)
            try Self.entry(sandbox, "00000001", meta: "state pending\nrecover finish\nsummary added\nfile 0 inbox.md\n",
                           files: ["0.before": Self.inbox, "0.after": Self.inbox + "- [ ] two\n"])
            symlink("../../../../other/victim.txt", tasks + "/.tick/journal/00000001/.meta")
            symlink("../../../../other/notes.md", tasks + "/.tick/journal/00000001/.0.after")
            let result = try sandbox.run(["--dir", tasks, "--quiet", "add", "three"])
            #expect(result.status == 0, "\(result)")
            expectUnchanged(other, since: before)
            #expect(try String(contentsOfFile: tasks + "/inbox.md", encoding: .utf8) == Self.inbox + "- [ ] two\n- [ ] three\n")
        }
        // An entry's content file that is a link out: refused, not read and not written back.
        do {
            let (sandbox, tasks, other) = try Self.make()
            let before = FolderSnapshot(other)
            try Self.entry(sandbox, "00000001", meta: "state done\nrecover drop\nsummary added\nfile 0 inbox.md\n",
                           files: ["0.after": Self.inbox])
            symlink("../../../../other/victim.txt", tasks + "/.tick/journal/00000001/0.before")
            let result = try sandbox.run(["--dir", tasks, "undo"])
            #expect(result.stderr.contains("ignored the journal entry 00000001: 0.before cannot be read"), "\(result)")
            #expect(try String(contentsOfFile: tasks + "/inbox.md", encoding: .utf8) == Self.inbox)
            expectUnchanged(other, since: before)
        }
    }

    @Test("3. a list reached through a linked folder that leads outside is refused for add, mv and list rename")
    func linkedFolderOutside() throws {
        let (sandbox, tasks, other) = try Self.make()
        symlink("../other", tasks + "/sub")
        let before = FolderSnapshot(other)
        let inside = FolderSnapshot(tasks)
        for command in [["add", "x", "--list", "sub/notes"], ["mv", "mine", "inbox"], ["mv", "mum", "notes"],
                        ["list", "rename", "notes", "elsewhere"], ["done", "mine"], ["list", "rm", "notes", "--force"]] {
            let result = try sandbox.run(["--dir", tasks] + command)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("outside the task folder; tick does not write there"), "\(command): \(result)")
            expectUnchanged(other, since: before)
            expectUnchanged(tasks, since: inside)
        }
    }

    @Test("4. state is private: .tick/ 0700, the journal's files 0600; an existing readable .tick/ is repaired")
    func privateState() throws {
        let (sandbox, tasks, _) = try Self.make()
        chmod(tasks + "/.tick", 0o755)
        try sandbox.write("work/tasks/secret.md", "- [ ] mine alone\n")
        chmod(tasks + "/secret.md", 0o600)
        expectRun(try sandbox.run(["--dir", tasks, "--quiet", "add", "more", "--list", "secret"]), status: 0, stderr: "")
        func mode(_ path: String) -> UInt32 {
            var info = stat()
            return lstat(tasks + "/" + path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : 0
        }
        #expect(mode(".tick") == 0o700)
        #expect(mode(".tick/journal") == 0o700)
        #expect(mode(".tick/lock") == 0o600)
        #expect(mode(".tick/journal/00000001") == 0o700)
        for file in ["meta", "0.before", "0.after"] { #expect(mode(".tick/journal/00000001/" + file) == 0o600, "\(file)") }
        #expect(mode("secret.md") == 0o600)
        let fresh = try Sandbox(onDisk: true)
        expectRun(try fresh.run(["init", "new"]), status: 0)
        var info = stat()
        #expect(lstat(fresh.path("new/.tick"), &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test("13. a nested task folder is another folder: the outer one neither lists its lists nor sweeps its temporary files")
    func nestedTaskFolder() throws {
        let (sandbox, tasks, _) = try Self.make()
        try sandbox.write("work/tasks/inner/list.md", "- [ ] inner task\n")
        expectRun(try sandbox.run(["init", tasks + "/inner"]), status: 0)
        try sandbox.write("work/tasks/inner/.list.md.tick-99999-1", "- [ ] half-written by the inner folder's tick\n")
        expectRun(try sandbox.run(["--dir", tasks, "--quiet", "add", "outer task"]), status: 0, stderr: "")
        #expect(FileManager.default.fileExists(atPath: tasks + "/inner/.list.md.tick-99999-1"))
        expectRun(try sandbox.run(["--dir", tasks, "check"]), status: 0, stdout: "Checked 1 list: no problems\n", stderr: "")
        let done = try sandbox.run(["--dir", tasks, "done", "inner task"])
        #expect(done.status == 1, "\(done)")
    }

    @Test("18. a dangling list link is named at once, without retries")
    func danglingInbox() throws {
        let (sandbox, tasks, _) = try Self.make()
        try FileManager.default.removeItem(atPath: tasks + "/inbox.md")
        symlink("missing.md", tasks + "/inbox.md")
        let result = try sandbox.run(["--dir", tasks, "add", "x"])
        expectRun(result, status: 3, stdout: "",
                  stderr: "tick: warning: skipped 'inbox.md': dangling symbolic link\n"
                      + "tick: inbox.md is a symbolic link to a file that does not exist; tick does not write through it\n")
    }
}
