import Foundation
import Testing

/// The phone's `CATEGORIES` come back as tags, through Radicale, vdirsyncer and a CalDAV client.
@Suite("vdir sync: the phone's categories")
struct VdirSyncCategoriesTests {
    @Test("a category added on the phone joins the title as a #tag, a removed one leaves it, the list's name is no tag; a category that is no tag name is reported")
    func categoriesAreTags() throws {
        let sandbox = try Fixtures.diskFolder(["groceries.md": "# Groceries\n\n- [ ] Milk #dairy id:milk\n- [ ] Eggs id:eggs\n- [ ] Jam id:jam\n"])
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["TICK_NOW"] = "2026-03-12T08:00"
        let rig = try PhoneRig(sandbox)
        defer { rig.stop() }
        expectRun(try rig.round(), status: 0)
        #expect(try rig.server()["groceries"]?.value("milk", "CATEGORIES") == "dairy,Groceries")

        // Milk loses #dairy and gains #fridge; Eggs gains #breakfast; Jam gains a category with a space.
        try rig.phone(batch: [
            ["edit", "groceries", "milk", "CATEGORIES", "fridge,Groceries"],
            ["edit", "groceries", "eggs", "CATEGORIES", "Groceries,breakfast"],
            ["edit", "groceries", "jam", "CATEGORIES", "Groceries,top shelf"],
        ])
        let list = try sandbox.read("tasks/groceries.md")
        let result = try rig.round()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Groceries: 2 tags changed on the phone, tags kept, the phone changed it too\n"), "\(result)")
        #expect(result.stderr.contains("tick: Groceries: \"Jam\": kept the Markdown's tags; the phone had the category \"top shelf\", which is no tag name"),
                "\(result)")
        let after = try sandbox.read("tasks/groceries.md")
        #expect(after == "# Groceries\n\n- [ ] Milk #fridge id:milk\n- [ ] Eggs #breakfast id:eggs\n- [ ] Jam id:jam\n", "\(list) → \(after)")
        let server = try rig.server()["groceries"]
        #expect(server?.value("milk", "CATEGORIES") == "fridge,Groceries")
        #expect(server?.value("milk", "SUMMARY") == "Milk #fridge")

        // Nothing changed: a round changes nothing.
        let quiet = try rig.round()
        expectRun(quiet, status: 0, stdout: "vdir: 0 written, 0 removed\n")
        #expect(try sandbox.read("tasks/groceries.md") == after)
    }
}
