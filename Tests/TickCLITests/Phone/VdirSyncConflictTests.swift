import Foundation
import Testing

/// A vdirsyncer pair without `conflict_resolution` stops at an object changed on both sides: tick
/// reports it on one line and exits 1, having changed no list.
@Suite("vdir sync: a vdirsyncer conflict")
struct VdirSyncConflictTests {
    @Test("vdirsyncer stopping at a conflict is exit 1 with one line naming it, the lists unchanged; in vdir sync --vdirsyncer and in tick sync")
    func conflictIsExitOne() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": VdirSyncEndToEndTests.groceries])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        // The pair without conflict_resolution: vdirsyncer stops where both sides changed an object.
        let config = try sandbox.read("vdirsyncer.conf")
        try sandbox.write("vdirsyncer.conf", config.replacingOccurrences(of: "conflict_resolution = \"b wins\"\n", with: ""))
        sandbox.environment["VDIRSYNCER_CONFIG"] = sandbox.path("vdirsyncer.conf")
        try sandbox.write("tasks/.tick/config", "vdir.path = \(sandbox.path("vdir"))\nvdir.pair = phone\n")
        try rig.phone(["edit", "groceries", "milk", "SUMMARY", "Oat milk"])
        let milk = try sandbox.read("vdir/groceries/milk.ics")
        try sandbox.write("vdir/groceries/milk.ics", milk.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Soy milk"))
        let before = try sandbox.read("tasks/groceries.md")

        let stopped = try sandbox.run(["--dir", "tasks", "vdir", "sync", "--vdirsyncer"])
        #expect(stopped.status == 1, "\(stopped)")
        #expect(stopped.stderr.contains("tick: vdirsyncer sync phone stopped at a conflict (exit status 1); resolve it, "
                                        + "or set conflict_resolution in the pair"), "\(stopped)")
        #expect(stopped.stderr.contains("vdirsyncer: ") && stopped.stderr.contains("One item changed on both sides"), "\(stopped)")
        #expect(try sandbox.read("tasks/groceries.md") == before)
        // tick sync runs the same round first, and stops the same way before any git step.
        let sync = try sandbox.run(["--dir", "tasks", "sync"])
        #expect(sync.status == 1, "\(sync)")
        #expect(sync.stderr.contains("stopped at a conflict"), "\(sync)")
    }
}
