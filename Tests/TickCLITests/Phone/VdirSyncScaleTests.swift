import Foundation
import Testing

/// 500 tasks in 10 lists: after the first sync, a sync with nothing changed writes no file on
/// either side. (Its time against `tick export vdir` is measured by `bench/vdir`, a `make bench`
/// row, not here.)
@Suite("vdir sync: 500 tasks")
struct VdirSyncScaleTests {
    @Test("a first sync of 500 tasks in 10 lists writes 500 private objects that vobject reads strictly; a second writes nothing anywhere")
    func nothingChangedWritesNothing() throws {
        var files: [String: String] = [:]
        for list in 1...10 {
            var text = "# List \(list)\n\n"
            for task in 1...50 {
                text += "- [ ] Task \(list)-\(task) !! due:2026-0\(task % 9 + 1)-1\(task % 9) #tag\(task % 5) id:t\(list)-\(task)"
                text += task % 7 == 0 ? " rec:+1w\n  A note, with a comma\n" : "\n"
            }
            files["list\(list).md"] = text
        }
        let sandbox = try Fixtures.diskFolder(files)
        sandbox.environment["TZ"] = "UTC"
        let first = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--json"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.components(separatedBy: ".ics\"").count - 1 == 500)
        let collections = try sandbox.listFiles("vdir")
        #expect(collections.count == 10)
        #expect(try VdirExportTests.read(sandbox, "vdir/list3").count == 50)
        #expect(try VdirExportTests.mode(sandbox.path("vdir/list3/t3-7.ics")) == 0o600)
        #expect(try VdirExportTests.mode(sandbox.path("vdir/list3")) == 0o700)

        let lists = try files.keys.map { try sandbox.read("tasks/" + $0) }
        var before: [String: [Int]] = [:]
        for collection in collections {
            for (name, value) in try CalendarExportTests.snapshot(sandbox, "vdir/" + collection) { before[collection + "/" + name] = value }
        }
        let state = try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir")
        sandbox.environment["TICK_NOW"] = "2026-03-15T10:00"
        let second = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--json"])
        expectRun(second, status: 0, stdout: "{\"givenIDs\":0,\"events\":[],\"written\":[],\"removed\":[],\"collections\":[]}\n", stderr: "")
        var after: [String: [Int]] = [:]
        for collection in collections {
            for (name, value) in try CalendarExportTests.snapshot(sandbox, "vdir/" + collection) { after[collection + "/" + name] = value }
        }
        #expect(after == before)
        #expect(try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir") == state)
        #expect(try files.keys.map { try sandbox.read("tasks/" + $0) } == lists)
    }
}

/// A phone that completes a repeating task's occurrence and makes a new VTODO for the next.
@Suite("vdir sync: the phone's next occurrence")
struct VdirSyncNextOccurrenceTests {
    @Test("a completed occurrence plus the phone's own VTODO for the next give one task, moved on by tick's rule")
    func oneTask() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Water the plants rec:+1w due:2026-03-16 id:water\n"
                                               + "- [ ] Bins rec:+1w due:2026-03-13 id:bins\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        let water = try sandbox.read("vdir/home/water.ics")
        try sandbox.write("vdir/home/water.ics", water.replacingOccurrences(
            of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20260312T070000Z"))
        try sandbox.write("vdir/home/NEXT-1.ics", VdirSyncSafetyTests.calendar([("NEXT-1@phone", "Water the plants")]))
        // Bins: completed and its DUE moved to the next occurrence, both: one done, not two.
        let bins = try sandbox.read("vdir/home/bins.ics")
        try sandbox.write("vdir/home/bins.ics", bins.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED")
            .replacingOccurrences(of: "DUE;VALUE=DATE:20260313", with: "DUE;VALUE=DATE:20260320"))
        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 2 completed on the phone, 1 next occurrence made on the phone, taken as the repeating task's own\n"))
        #expect(try sandbox.read("tasks/home.md")
                == "# Home\n\n- [ ] Water the plants rec:+1w due:2026-03-23 id:water\n- [ ] Bins rec:+1w due:2026-03-20 id:bins\n")
        #expect(try sandbox.listFiles("vdir/home") == ["bins.ics", "displayname", "water.ics"])
        #expect(try sandbox.read("vdir/home/water.ics").contains("DUE;VALUE=DATE:20260323\r\n"))
    }
}

@Suite("vdir sync: --dry-run and refusals")
struct VdirSyncDryRunTests {
    @Test("--dry-run reports the phone's changes and writes nothing; a vdir in the task folder, or holding it, is refused")
    func dryRun() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Milk id:milk\n- [ ] Jam\n"])
        sandbox.environment["TZ"] = "UTC"
        let preview = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--dry-run"])
        expectRun(preview, status: 0, stdout: "would give an id to 1 task\n", stderr: "")
        #expect(!sandbox.exists("vdir"))
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Milk id:milk\n- [ ] Jam\n")
        expectRun(try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir"]), status: 0)
        let list = try sandbox.read("tasks/home.md")
        let milk = try sandbox.read("vdir/home/milk.ics")
        try sandbox.write("vdir/home/milk.ics", milk.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Oat milk"))
        let state = try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir")
        let again = try sandbox.run(["--dir", "tasks", "vdir", "sync", "vdir", "--dry-run", "--json"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("{\"kind\":\"edited\",\"list\":\"Home\",\"title\":\"Oat milk\",\"field\":\"title\",\"detail\":\"\\\"Oat milk\\\"\"}"))
        #expect(try sandbox.read("tasks/home.md") == list)
        #expect(try sandbox.read("vdir/home/milk.ics").contains("SUMMARY:Oat milk"))
        #expect(try CalendarExportTests.snapshot(sandbox, "tasks/.tick/vdir") == state)
        for dir in ["tasks/cal", ".", "tasks"] {
            let refused = try sandbox.run(["--dir", "tasks", "vdir", "sync", dir])
            #expect(refused.status == 2, "\(dir): \(refused)")
        }
        #expect(try sandbox.read("tasks/home.md") == list)
        #expect(!sandbox.exists("tasks/cal"))
    }
}

@Suite("vdir sync: vdir.lists and vdir.path")
struct VdirSyncSettingsTests {
    @Test("vdir.lists syncs only the lists it names, and gives ids only to their tasks; vdir.path stands in for DIR")
    func onlyNamedLists() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Milk\n", "work.md": "# Work\n\n- [ ] Report\n"])
        try sandbox.write("tasks/.tick/config", "vdir.lists = home\nvdir.path = \(sandbox.path("phone"))\n")
        let result = try sandbox.run(["--dir", "tasks", "vdir", "sync"])
        expectRun(result, status: 0, stdout: "gave an id to 1 task\nvdir: 1 written, 0 removed\n", stderr: "")
        #expect(try sandbox.listFiles("phone") == ["home"])
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Report\n")
        #expect(try sandbox.read("tasks/home.md").hasPrefix("# Home\n\n- [ ] Milk id:"))
        try sandbox.write("tasks/.tick/config", "")
        let none = try sandbox.run(["--dir", "tasks", "vdir", "sync"])
        expectRun(none, status: 2, stdout: "")
        #expect(none.stderr.contains("no DIR given and no vdir.path setting"), "\(none)")
    }
}
