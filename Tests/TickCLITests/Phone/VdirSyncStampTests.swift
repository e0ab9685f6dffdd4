import Foundation
import Testing

/// The state's per-file stamps: a sync with nothing changed opens no `.ics` file, and a file the
/// phone replaced is read even with its size and time as before.
@Suite("vdir sync: file stamps")
struct VdirSyncStampTests {
    /// 2026-01-01 00:00 UTC: an old time for the vdir's files, well before the state's.
    static let old = Date(timeIntervalSince1970: 1_767_225_600)

    static func age(_ sandbox: Sandbox) throws {
        for name in try sandbox.listFiles("vdir/home") where name.hasSuffix(".ics") {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: sandbox.path("vdir/home/" + name))
        }
    }

    /// The `.ics` files a sync opens, as strace sees them.
    static func opened(_ sandbox: Sandbox) throws -> [String] {
        let trace = sandbox.path("trace.txt")
        let run = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--quiet"],
                                  launcher: ["/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=open,openat,openat2"])
        #expect(run.status == 0, "\(run)")
        return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(".ics\"") && !$0.contains("/.") }.map(String.init)
    }

    @Test("after a sync, a sync with nothing changed opens no .ics file; a file replaced with the same size and time is read")
    func stamps() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing: run `make test-deps`")
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Milk id:milk\n- [ ] Eggs id:eggs\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        // Files as old as a day before: each is read once more, to record its stamp.
        try Self.age(sandbox)
        #expect(try Self.opened(sandbox).count == 2)
        let state = try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir")
        #expect(try Self.opened(sandbox) == [])
        #expect(try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir") == state)

        // The phone's app replaces milk.ics (a new inode) with a same-sized title, its time set back.
        let milk = try sandbox.read("vdir/home/milk.ics")
        try sandbox.write("vdir/home/.new", milk.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Silk"))
        try FileManager.default.setAttributes([.modificationDate: Self.old], ofItemAtPath: sandbox.path("vdir/home/.new"))
        #expect(rename(sandbox.path("vdir/home/.new"), sandbox.path("vdir/home/milk.ics")) == 0)
        #expect(try Self.opened(sandbox).count == 1)
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Silk id:milk\n- [ ] Eggs id:eggs\n")
    }

    @Test("a state whose stamp is not digits counts as none: the sync matches by UID, duplicating nothing")
    func badStamp() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Milk id:milk\n"])
        sandbox.environment["TZ"] = "UTC"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        let name = try #require(try sandbox.listFiles("tasks/.tick/vdir").first)
        let state = try sandbox.read("tasks/.tick/vdir/" + name)
        #expect(state.hasPrefix("tick-vdir-state 2\n"))
        let stamp = try #require(state.split(separator: "\n").first { $0.hasPrefix("T\t") }?.split(separator: "\t")[5])
        try sandbox.write("tasks/.tick/vdir/" + name, state.replacingOccurrences(of: "\t\(stamp)\t", with: "\t1:x:3\t"))
        let milk = try sandbox.read("vdir/home/milk.ics")
        try sandbox.write("vdir/home/milk.ics", milk.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Oat milk"))
        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(result.status == 0, "\(result)")
        // No base: the Markdown's title is kept and the phone's reported, and nothing is added.
        #expect(result.stderr.contains("kept the Markdown's title; the phone had \"Oat milk\""), "\(result)")
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Milk id:milk\n")
    }
}
