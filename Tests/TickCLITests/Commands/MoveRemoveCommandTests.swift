import Foundation
import Testing

/// `tick mv` and `tick rm` end to end. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("tick mv and tick rm")
struct MoveRemoveCommandTests {

    @Test("mv moves tasks with their notes and subtasks to the end of another list")
    func move() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home, "work.md": "# Work\n\n* [ ] Send the invoice\n"])
        let (oldFence, oldPlumber) = (try sandbox.ref("Paint the fence", dir: "tasks"), try sandbox.ref("Call the plumber", dir: "tasks"))
        let result = try sandbox.run(["--dir", "tasks", "mv", "fence", "plumber", "work"])
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        // A move makes new refs; the old ones lead to the tasks still.
        expectRun(result, status: 0, stdout: "Moved \(fence) \"Paint the fence\" from Home to Work\n"
                  + "Moved \(plumber) \"Call the plumber\" from Home to Work\n"
                  + "Renamed: \(oldFence) is now \(fence)\nRenamed: \(oldPlumber) is now \(plumber)\n", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == """
            # Work

            * [ ] Send the invoice
            * [ ] Paint the fence
              - [ ] Buy paint
              - [ ] Sand the boards
            * [ ] Call the plumber !! due:2026-03-20
              The number is on the fridge.

            """)
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home.replacingOccurrences(
            of: "- [ ] Call the plumber !! due:2026-03-20\n  The number is on the fridge.\n- [ ] Paint the fence\n"
                + "  - [ ] Buy paint\n  - [ ] Sand the boards\n", with: ""))
        expectRun(try sandbox.run(["--dir", "tasks", "mv", "invoice", "attic"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'attic'; tick list new attic creates it\n")
    }

    @Test("rm deletes tasks with their notes and subtasks; --json prints them as they were")
    func remove() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        let fence = try sandbox.ref("Paint the fence", dir: "tasks")
        let plumber = try sandbox.ref("Call the plumber", dir: "tasks")
        expectRun(try sandbox.run(["--dir", "tasks", "rm", "fence"]), status: 0,
                  stdout: "Deleted \(fence) \"Paint the fence\" with 2 subtasks\n", stderr: "")
        let json = try decodeTasks(try sandbox.run(["--dir", "tasks", "--json", "rm", "plumber"]).stdout)
        #expect(json.map { $0["ref"] as? String } == [plumber])
        #expect(json.first?["notes"] as? String == "The number is on the fridge.")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            Some words about the house.

            - [x] Fix the light done:2026-03-01

            ## Garden

            - [ ] Water the plants #flag

            """)
    }
}
