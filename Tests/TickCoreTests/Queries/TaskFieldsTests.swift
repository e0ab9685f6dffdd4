import Foundation
import Testing
@testable import TickCore
import TickFormat

@Suite("task fields: the one table the task object, show and export summaries render from")
struct TaskFieldsTests {
    let library = makeLibrary([
        ("home.md", """
            # Home
            ## Garden
            - [ ] Water the roses #garden #outside !! #flag due:2026-03-10 rec:+1w until:2026-06-30 ⏳ 2026-03-12 🛫 2026-03-09
                Use the rain barrel.
                - [x] Fill the can done:2026-03-13 id:can
            - [ ] Gym 🔁 every week on Monday

            """),
    ])

    func facts(_ title: String) throws -> TaskFacts {
        TaskFacts(try #require(library.id(title)), in: library)
    }

    @Test("the task object's keys are the README's table of them, in its order")
    func keysAreTheREADMEs() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table = try #require(text.range(of: "A **task object** has exactly these keys:"))
        let rows = text[table.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        let documented = rows.dropFirst(2).compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented.count > 10)
        #expect(TaskFields.all.map(\.key) == documented)
    }

    @Test("each show line has its own place, and each key is written once")
    func placesAndKeysAreUnique() {
        let places = TaskFields.all.flatMap(\.shown).map(\.place)
        #expect(Set(places).count == places.count)
        let keys = TaskFields.all.map(\.key)
        #expect(Set(keys).count == keys.count)
    }

    @Test("the task object: every field, in the table's order")
    func taskObject() throws {
        #expect(TaskFields.json(try facts("Fill the can")).text == """
            {"ref":"\(try facts("Fill the can").ref)","id":"can","list":"Home","file":"home.md","line":5,\
            "title":"Fill the can","done":true,"due":null,"priority":0,"flagged":false,"tags":[],"notes":"",\
            "section":"Garden","parent":"\(try facts("Water the roses #garden #outside").ref)","doneDate":"2026-03-13",\
            "recurrence":null,"scheduled":null,"start":null,"repeat":null}
            """)
    }

    @Test("show's lines: labels in order, a past due as a warning, a phrase tick does not follow")
    func shownLines() throws {
        let water = TaskFields.shown(try facts("Water the roses #garden #outside"), in: library, now: saturday)
        #expect(water.map(\.label) == ["ref", "list", "section", "due", "priority", "flagged", "tags", "repeats",
                                       "next", "scheduled", "starts", "status", "file"])
        let due = try #require(water.first { $0.label == "due" }?.value)
        #expect(due.isWarning && due.text.hasSuffix(", overdue"))
        #expect(water.first { $0.label == "tags" }?.value.text == "#garden #outside")
        let gym = TaskFields.shown(try facts("Gym"), in: library, now: saturday)
        #expect(gym.first { $0.label == "repeats" }?.value.text
                == "every week on Monday (the Tasks plugin's phrase: tick does not advance it)")
        #expect(!gym.contains { $0.label == "next" || $0.label == "tags" || $0.label == "parent" })
        let can = TaskFields.shown(try facts("Fill the can"), in: library, now: saturday)
        #expect(can.first { $0.label == "due" }?.value == ShownText(text: "none"))
        #expect(can.first { $0.label == "status" }?.value.text == "done on 2026-03-13")
        #expect(can.first { $0.label == "parent" }?.value.text.hasSuffix("  Water the roses #garden #outside") == true)
    }

    @Test("an export counts what its format cannot hold, as the table says: notes, a parent")
    func losses() throws {
        var todo = ExportSummary(), warrior = ExportSummary()
        for title in ["Water the roses #garden #outside", "Fill the can", "Gym"] {
            TaskFields.countLosses(try facts(title), in: .todoTxt, into: &todo)
            TaskFields.countLosses(try facts(title), in: .taskwarrior, into: &warrior)
        }
        #expect(todo.lost == ["notes dropped": 1, "subtasks flattened": 1])
        #expect(warrior.lost == ["subtasks flattened": 1])
    }
}
