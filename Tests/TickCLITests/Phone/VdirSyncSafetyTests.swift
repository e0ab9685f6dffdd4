import Foundation
import Testing

/// `tick vdir sync` against a hostile vdir and a hostile state: each bad file is refused on its
/// own, nothing is written outside the task folder, the vdir and `.tick/`.
@Suite("vdir sync: hostile input")
struct VdirSyncSafetyTests {
    static let groceries = "# Groceries\n\n- [ ] Milk id:milk\n- [ ] Eggs id:eggs\n"

    static func calendar(_ todos: [(uid: String, summary: String)]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN"]
            + todos.flatMap { ["BEGIN:VTODO", "UID:" + $0.uid, "DTSTAMP:20260311T100000Z", "SUMMARY:" + $0.summary, "END:VTODO"] }
            + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    @Test("bad UIDs, a symlinked collection, a large file, invalid UTF-8 and two UIDs in one file are refused per file, writing nothing outside")
    func hostileVdir() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": Self.groceries])
        sandbox.environment["TZ"] = "UTC"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0, stderr: "")
        try sandbox.write("outside/secret.ics", Self.calendar([("secret", "Secret")]))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("vdir/linked"), withDestinationPath: "../outside")
        let big = Self.calendar([("big", "Big " + String(repeating: "x", count: 2 << 20))])
        try sandbox.write("vdir/groceries/big.ics", big)
        var invalid = Data(Self.calendar([("bad", "Bad")]).utf8)
        invalid.replaceSubrange(invalid.range(of: Data("Bad".utf8))!, with: Data([0xC3, 0x28]))
        try invalid.write(to: URL(fileURLWithPath: sandbox.path("vdir/groceries/invalid.ics")))
        try sandbox.write("vdir/groceries/two.ics", Self.calendar([("one", "One"), ("two", "Two")]))
        try sandbox.write("vdir/groceries/escape.ics", Self.calendar([("../../outside/escape", "Escape")]))
        try sandbox.write("vdir/groceries/.hidden.ics", Self.calendar([("hidden", "Hidden")]))
        try sandbox.write("vdir/groceries/broken.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("vdir/groceries/link.ics"),
                                                   withDestinationPath: "../../outside/secret.ics")
        let outsideBefore = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("outside"))
        let rootBefore = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { !$0.hasPrefix(".") }.sorted()

        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(result.status == 0, "\(result)")
        for warning in [
            "tick: warning: skipped linked: a symbolic link\n",
            "tick: warning: skipped groceries/big.ics: larger than 1 MiB\n",
            "tick: warning: skipped groceries/invalid.ics: it is not valid UTF-8\n",
            "tick: warning: skipped groceries/two.ics: it holds VTODOs of 2 UIDs\n",
            "tick: warning: skipped groceries/broken.ics: it is not one complete VCALENDAR\n",
            "tick: warning: skipped groceries/link.ics: not a regular file\n",
        ] {
            #expect(result.stderr.contains(warning), "missing \(warning)\(result)")
        }
        // Only the well-formed object became a task; its odd UID names nothing on disk.
        let list = try sandbox.read("tasks/groceries.md")
        #expect(list.hasPrefix(Self.groceries + "- [ ] Escape id:"))
        #expect(list.split(separator: "\n").count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("outside")) == outsideBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { !$0.hasPrefix(".") }.sorted() == rootBefore)
        #expect(try sandbox.read("vdir/groceries/two.ics") == Self.calendar([("one", "One"), ("two", "Two")]))
        #expect(try sandbox.read("vdir/groceries/big.ics") == big)
        #expect(try sandbox.read("outside/secret.ics") == Self.calendar([("secret", "Secret")]))
        #expect(!sandbox.exists("outside/escape.ics"))
        // A second run finds the same refusals and adds nothing twice.
        let again = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(again.status == 0, "\(again)")
        #expect(try sandbox.read("tasks/groceries.md") == list)
    }

    @Test("a state file in doubt counts as none: the next sync matches by UID and id and duplicates nothing")
    func hostileState() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": Self.groceries])
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        let state = try #require(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tasks/.tick/vdir")).first)
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("tasks/.tick/vdir/" + state))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try sandbox.write("tasks/.tick/vdir/" + state, "tick-vdir-state 1\nT\t../..\tx.ics\tx\tx\t99999999999\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("vdir/groceries")).sorted()
        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--json"])
        expectRun(result, status: 0, stdout: "{\"givenIDs\":0,\"events\":[],\"written\":[],\"removed\":[],\"collections\":[]}\n", stderr: "")
        #expect(try sandbox.read("tasks/groceries.md") == Self.groceries)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("vdir/groceries")).sorted() == files)
    }
}
