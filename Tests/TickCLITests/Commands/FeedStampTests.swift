import Foundation
import Testing

/// `tick export ics -o FILE` replacing a feed it wrote: each unchanged VTODO keeps its stamps.
@Suite("export ics: per-task stamps")
struct FeedStampTests {
    /// The VTODO blocks of a feed, from `BEGIN:VTODO` to `END:VTODO`.
    static func blocks(_ feed: String) -> [String] {
        feed.components(separatedBy: "BEGIN:VTODO\r\n").dropFirst().map { "BEGIN:VTODO\r\n" + $0.components(separatedBy: "END:VTODO\r\n")[0] }
    }

    @Test("changing one task changes only its VTODO's bytes: a new DTSTAMP, LAST-MODIFIED and SEQUENCE 1; the rest are copied")
    func oneChangeOneObject() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Milk id:milk\n- [ ] Bread id:bread due:2026-03-20\n- [ ] Jam id:jam\n",
                                           "work.md": "# Work\n\n- [ ] Report id:report\n"])
        sandbox.environment["TZ"] = "UTC"
        for name in ["home.md", "work.md"] {
            try FileManager.default.setAttributes([.modificationDate: CalendarExportTests.stamp], ofItemAtPath: sandbox.path("tasks/" + name))
        }
        expectRun(try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics"]), status: 0, stdout: "", stderr: "")
        let first = try sandbox.read("feed.ics")
        let before = Self.blocks(first)
        #expect(before.count == 4)
        #expect(before.allSatisfy { $0.contains("DTSTAMP:20260310T120000Z\r\n") })

        // Bread gets a new title: home.md's time moves on, and only Bread's VTODO may change.
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "Bread", "--title", "Rye bread"]), status: 0)
        let later = Date(timeIntervalSince1970: 1_773_400_000)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: sandbox.path("tasks/home.md"))
        expectRun(try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics"]), status: 0, stdout: "", stderr: "")
        let after = Self.blocks(try sandbox.read("feed.ics"))
        #expect(after.count == 4)
        #expect(after[0] == before[0])
        #expect(after[2] == before[2])
        #expect(after[3] == before[3])
        #expect(after[1] != before[1])
        #expect(after[1].contains("DTSTAMP:20260313T110640Z\r\nLAST-MODIFIED:20260313T110640Z\r\nSEQUENCE:1\r\nSUMMARY:Rye bread\r\n"), "\(after[1])")

        // Unchanged again: the same bytes; to standard output, every VTODO has its list's time.
        let again = try sandbox.read("feed.ics")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("feed.ics") == again)
        // A block whose stamps are not as tick writes them is not copied, but written anew.
        try sandbox.write("feed.ics", again.replacingOccurrences(of: "UID:milk\r\n", with: "UID:milk\r\nDTSTAMP:forged\r\n"))
        expectRun(try sandbox.run(["--dir", "tasks", "export", "ics", "-o", "feed.ics"]), status: 0, stdout: "", stderr: "")
        let rewritten = try sandbox.read("feed.ics")
        #expect(!rewritten.contains("forged"))
        let anew = Self.blocks(rewritten)
        #expect(anew[0].components(separatedBy: "DTSTAMP:").count == 2)
        #expect(anew[0].contains("UID:milk\r\nDTSTAMP:20260313T110640Z\r\nSUMMARY:Milk\r\n"), "\(anew[0])")
        #expect(Array(anew.dropFirst()) == Array(Self.blocks(again).dropFirst()))
        let standardOutput = try sandbox.run(["--dir", "tasks", "export", "ics"])
        #expect(Self.blocks(standardOutput.stdout).filter { $0.contains("DTSTAMP:20260313T110640Z\r\n") }.count == 3)
    }
}
