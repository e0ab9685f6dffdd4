import Foundation
import Testing

/// A `tick vdir sync` killed (SIGKILL, injected by Debian's strace) at each call of each syscall
/// that changes a file, then a clean sync: the lists and the vdir end as one uninterrupted sync
/// leaves them, nothing lost, nothing doubled.
@Suite("vdir sync: killed at every step")
struct VdirSyncKillTests {
    /// The vdir's objects without the lines that carry the time of the run or a count of changes.
    static func objects(_ sandbox: Sandbox, _ dir: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try sandbox.listFiles(dir) where name.hasSuffix(".ics") {
            result[name] = try sandbox.read(dir + "/" + name).components(separatedBy: "\r\n")
                .filter { !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("LAST-MODIFIED:") && !$0.hasPrefix("SEQUENCE:") }
                .joined(separator: "\n")
        }
        return result
    }

    @Test("SIGKILL at each rename, unlink, fsync and write of a sync, then a clean sync: the same lists and vdir as without the kill")
    func killedAtEveryStep() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing: run `make test-deps`")
        let sandbox = try Fixtures.diskFolder([:])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        try sandbox.write("run/tasks/groceries.md", "# Groceries\n\n- [ ] Milk id:milk\n- [ ] Eggs id:eggs\n- [ ] Butter id:butter\n- [ ] Jam id:jam\n")
        try sandbox.makeFolder("run/tasks/.tick")
        expectRun(try sandbox.run(["--dir", "run/tasks", "vdir", "sync", "run/vdir"]), status: 0)
        // The phone retitles Milk, deletes Butter and adds Bread; tick retitles Eggs.
        let milk = try sandbox.read("run/vdir/groceries/milk.ics")
        try sandbox.write("run/vdir/groceries/milk.ics", milk.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Oat milk"))
        try sandbox.remove("run/vdir/groceries/butter.ics")
        try sandbox.write("run/vdir/groceries/bread.ics", VdirSyncSafetyTests.calendar([("bread", "Bread")]))
        expectRun(try sandbox.run(["--dir", "run/tasks", "edit", try sandbox.ref("Eggs", dir: "run/tasks"), "--title", "Brown eggs"]), status: 0)
        try FileManager.default.copyItem(atPath: sandbox.path("run"), toPath: sandbox.path("base"))
        func restore() throws {
            try sandbox.remove("run")
            try FileManager.default.copyItem(atPath: sandbox.path("base"), toPath: sandbox.path("run"))
        }

        expectRun(try sandbox.run(["--dir", "run/tasks", "vdir", "sync", "run/vdir"]), status: 0)
        let expectedList = try sandbox.read("run/tasks/groceries.md")
        #expect(expectedList == "# Groceries\n\n- [ ] Oat milk id:milk\n- [ ] Brown eggs id:eggs\n- [ ] Jam id:jam\n- [ ] Bread id:bread\n")
        let expectedObjects = try Self.objects(sandbox, "run/vdir/groceries")
        #expect(expectedObjects.keys.sorted() == ["bread.ics", "eggs.ics", "jam.ics", "milk.ics"])

        var killed = 0
        for call in ["renameat", "renameat2", "rename", "unlink", "unlinkat", "fsync", "write"] {
            for when in 1...60 {
                try restore()
                let launcher = ["/usr/bin/strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=" + call,
                                "-e", "inject=\(call):signal=KILL:when=\(when)"]
                let run = try sandbox.run(["--dir", "run/tasks", "vdir", "sync", "run/vdir"], launcher: launcher)
                if run.status == 0 { break }  // past the last such call
                killed += 1
                let clean = try sandbox.run(["--dir", "run/tasks", "vdir", "sync", "run/vdir"])
                #expect(clean.status == 0, "\(call) #\(when): \(clean)")
                #expect(try sandbox.read("run/tasks/groceries.md") == expectedList, "\(call) #\(when)")
                #expect(try Self.objects(sandbox, "run/vdir/groceries") == expectedObjects, "\(call) #\(when)")
            }
        }
        #expect(killed > 40, "only \(killed) kills: the syscalls were not reached")
    }
}
