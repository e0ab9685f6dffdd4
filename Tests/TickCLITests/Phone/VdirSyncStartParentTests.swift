import Foundation
import Testing

/// The phone's `DTSTART` and `RELATED-TO` come back, through Radicale, vdirsyncer and a CalDAV client.
@Suite("vdir sync: the phone's start dates and parents")
struct VdirSyncStartParentTests {
    @Test("a DTSTART the phone moves is the start date of a task that has one; on a task without one it stays the phone's; both sides changing it keep the Markdown's")
    func startDates() throws {
        let sandbox = try Fixtures.diskFolder(["home.md": "# Home\n\n- [ ] Paint 📅 2026-03-20 🛫 2026-03-14 id:paint\n- [ ] Call id:call\n"
                                           + "- [ ] Plant [start:: 2026-03-14] id:plant\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        #expect(try rig.server()["home"]?.value("paint", "DTSTART") == "20260314")

        try rig.phone(batch: [
            ["edit", "home", "paint", "DTSTART", "DTSTART;VALUE=DATE:20260316"],
            ["edit", "home", "call", "DTSTART", "DTSTART;VALUE=DATE:20260315"],
            ["edit", "home", "plant", "DTSTART", "DTSTART;VALUE=DATE:20260318"],
        ])
        try sandbox.write("tasks/home.md", try sandbox.read("tasks/home.md").replacingOccurrences(of: "[start:: 2026-03-14]",
                                                                                                    with: "[start:: 2026-03-17]"))
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 1 start changed on the phone, start kept, the phone changed it too\n"), "\(result)")
        #expect(result.stderr.contains("tick: Home: \"Plant\": kept the Markdown's start; the phone had start 2026-03-18"), "\(result)")
        let after = try sandbox.read("tasks/home.md")
        #expect(after == "# Home\n\n- [ ] Paint 📅 2026-03-20 🛫 2026-03-16 id:paint\n- [ ] Call id:call\n"
                + "- [ ] Plant [start:: 2026-03-17] id:plant\n")
        var server = try rig.server()["home"]
        #expect(server?.value("paint", "DTSTART") == "20260316")
        #expect(server?.value("call", "DTSTART") == "20260315")
        #expect(server?.value("plant", "DTSTART") == "20260317")

        // Nothing changed: a round changes nothing.
        expectRun(try rig.round(), status: 0, stdout: "vdir: 0 written, 0 removed\n")
        #expect(try sandbox.read("tasks/home.md") == after)

        // tick retitles Call and removes Paint's start: the phone's DTSTART of Call survives, Paint's goes.
        try sandbox.write("tasks/home.md", after.replacingOccurrences(of: "Call id:call", with: "Call Ann id:call")
            .replacingOccurrences(of: " 🛫 2026-03-16", with: ""))
        expectRun(try rig.round(), status: 0)
        server = try rig.server()["home"]
        #expect(server?.value("call", "SUMMARY") == "Call Ann")
        #expect(server?.value("call", "DTSTART") == "20260315")
        #expect(server?.value("paint", "DTSTART") == nil)
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Paint 📅 2026-03-20 id:paint\n- [ ] Call Ann id:call\n"
                + "- [ ] Plant [start:: 2026-03-17] id:plant\n")
        expectRun(try rig.round(), status: 0, stdout: "vdir: 0 written, 0 removed\n")

        // The phone removes Plant's DTSTART: its start date goes, with the separator before it.
        try rig.phone(["edit", "home", "plant", "DTSTART", "-"])
        let removed = try rig.round()
        #expect(removed.status == 0 && removed.stdout.hasPrefix("Home: 1 start changed on the phone\n"), "\(removed)")
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Paint 📅 2026-03-20 id:paint\n- [ ] Call Ann id:call\n"
                + "- [ ] Plant id:plant\n")
        #expect(try rig.server()["home"]?.value("plant", "DTSTART") == nil)
    }

    @Test("a parent the phone sets or removes moves the task (with its subtasks) in the Markdown, one undo reverts it; a second round writes nothing")
    func parentsMove() throws {
        let text = "# Home\n\n- [ ] Trip id:trip\n  - [ ] Pack id:pack\n    notes of Pack\n- [ ] Shop id:shop\n  - [ ] Milk id:milk\n- [ ] Call id:call\n"
        let sandbox = try Fixtures.diskFolder(["home.md": text])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)

        try rig.phone(batch: [
            ["edit", "home", "shop", "RELATED-TO", "RELATED-TO;RELTYPE=PARENT:trip"],
            ["edit", "home", "pack", "RELATED-TO", "-"],
        ])
        try VdirSyncEndToEndTests.put(rig, "home", uid: "socks", ["SUMMARY:Socks", "RELATED-TO;RELTYPE=PARENT:trip"])
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 1 added on the phone, 3 parent changed on the phone\n"), "\(result)")
        #expect(!result.stderr.contains("kept tick's parent"), "\(result)")
        let after = "# Home\n\n- [ ] Trip id:trip\n  - [ ] Shop id:shop\n    - [ ] Milk id:milk\n  - [ ] Socks id:socks\n"
            + "- [ ] Pack id:pack\n  notes of Pack\n- [ ] Call id:call\n"
        #expect(try sandbox.read("tasks/home.md") == after)
        let server = try rig.server()["home"]
        #expect(server?.value("shop", "RELATED-TO") == "trip")
        #expect(server?.value("socks", "RELATED-TO") == "trip")
        #expect(server?.value("milk", "RELATED-TO") == "shop")
        #expect(server?.value("pack", "RELATED-TO") == nil)
        expectRun(try rig.round(), status: 0, stdout: "vdir: 0 written, 0 removed\n")
        #expect(try sandbox.read("tasks/home.md") == after)

        // The moves are one change of their own: one undo puts Shop and Pack back, Socks stays added.
        let undo = try sandbox.run(["--dir", PhoneRig.tasks, "undo"])
        #expect(undo.status == 0 && (undo.stdout + undo.stderr).contains("vdir: moved 3 tasks under the phone's parents"), "\(undo)")
        #expect(try sandbox.read("tasks/home.md") == text + "- [ ] Socks id:socks\n")
    }

    @Test("a parent the phone makes a cycle with, names by an unknown UID, or gives where tick changed the parent too is reported and tick's structure kept; tick's RELATED-TO goes back to the phone")
    func parentsKept() throws {
        let text = "# Home\n\n- [ ] Trip id:trip\n  - [ ] Pack id:pack\n- [ ] Shop id:shop\n- [ ] Call id:call\n- [ ] Ann id:ann\n"
        let sandbox = try Fixtures.diskFolder(["home.md": text])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        #expect(try rig.server()["home"]?.value("pack", "RELATED-TO") == "trip")

        try rig.phone(batch: [
            ["edit", "home", "shop", "RELATED-TO", "RELATED-TO;RELTYPE=PARENT:nosuch"],
            ["edit", "home", "trip", "RELATED-TO", "RELATED-TO:pack"],
            ["edit", "home", "call", "RELATED-TO", "RELATED-TO;RELTYPE=PARENT:trip"],
        ])
        try VdirSyncEndToEndTests.put(rig, "home", uid: "socks", ["SUMMARY:Socks", "RELATED-TO;RELTYPE=PARENT:nosuch"])
        // tick puts Call under Ann meanwhile: both sides changed Call's parent.
        let mine = text.replacingOccurrences(of: "- [ ] Call id:call\n- [ ] Ann id:ann\n", with: "- [ ] Ann id:ann\n  - [ ] Call id:call\n")
        try sandbox.write("tasks/home.md", mine)
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Home: 1 added on the phone, 4 parent kept, the phone's not taken\n"), "\(result)")
        for (title, had) in [("Shop", "RELATED-TO nosuch, no task of this list"), ("Trip", "the parent \"Pack\", which is its own subtask"),
                             ("Call", "the parent \"Trip\", and tick changed it too"), ("Socks", "RELATED-TO nosuch, no task of this list")] {
            #expect(result.stderr.contains("tick: Home: \"\(title)\": kept tick's parent; the phone had \(had)"), "\(result)")
        }
        let after = mine + "- [ ] Socks id:socks\n"
        #expect(try sandbox.read("tasks/home.md") == after)
        let server = try rig.server()["home"]
        #expect(server?.value("shop", "RELATED-TO") == nil)
        #expect(server?.value("trip", "RELATED-TO") == nil)
        #expect(server?.value("socks", "RELATED-TO") == nil)
        #expect(server?.value("call", "RELATED-TO") == "ann")
        #expect(server?.value("pack", "RELATED-TO") == "trip")
        expectRun(try rig.round(), status: 0, stdout: "vdir: 0 written, 0 removed\n")
        #expect(try sandbox.read("tasks/home.md") == after)
    }
}
