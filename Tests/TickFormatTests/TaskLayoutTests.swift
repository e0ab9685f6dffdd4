import Testing
@testable import TickFormat

/// A list of a million tasks holds a million `Task`s, twice while an edit is checked: the fields
/// few tasks have stay out of line, and lines and indexes take 32 bits (`Task`'s comment).
@Suite("A task's size")
struct TaskLayoutTests {
    @Test("a task takes at most 192 bytes (352 before the rare fields were boxed and lines narrowed)")
    func stride() {
        #expect(MemoryLayout<Task>.stride <= 192, "\(MemoryLayout<Task>.stride) bytes")
    }

    @Test("the rare fields read back as set, a copy never sees a change, and 32-bit fields clamp")
    func rareFields() {
        var task = Document(bytes: Array("- [ ] Plain\n".utf8)).tasks[0]
        #expect(task.id == nil && task.until == nil && task.duplicates.isEmpty)
        var copy = task
        task.id = "abc"
        task.until = Day(year: 2026, month: 12, day: 31)
        #expect(task.id == "abc")
        #expect(task.until == Day(year: 2026, month: 12, day: 31))
        // A copy made before never sees the change.
        #expect(copy.id == nil)
        copy.scheduled = Day(year: 2026, month: 1, day: 2)
        #expect(task.scheduled == nil)
        task.id = nil
        task.until = nil
        #expect(task.id == nil && task.until == nil)
        // 32-bit fields clamp rather than trap.
        task.line = Int.max
        #expect(task.line == Int(Int32.max))
        task.parent = 7
        #expect(task.parent == 7)
        task.parent = nil
        #expect(task.parent == nil)
    }
}
