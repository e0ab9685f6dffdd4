import Testing
@testable import TickFormat
import TickCore

/// The edits of a repeating task's completion on seeded random files full of awkward constructs:
/// the completed copy that `--keep-history` inserts, and that copy with the advance after it (what
/// `tick done --keep-history` does to the bytes).
@Suite("Random documents: repeating completions")
struct RandomRecurrenceEditTests {
    static let seeds: [UInt64] = Array(1...6)
    static let casesPerSeed = 400
    static let day = Day(year: 2026, month: 11, day: 30)!

    @Test("the copy is inserted after the task's subtasks without changing a byte; the re-parse has it there",
          arguments: seeds)
    func copyOnly(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 104_729)
        var applied = 0, refused = 0
        for _ in 0..<Self.casesPerSeed {
            let document = Document(bytes: NastyDocument.generate(&rng))
            guard !document.tasks.isEmpty else { continue }
            let i = Int(rng.next() % UInt64(document.tasks.count))
            let result: EditResult
            do throws(EditError) {
                result = try document.recordingCompletion(i, on: Self.day)
            } catch {
                #expect(error.reason == .structure, "\(error.message)")
                refused += 1
                continue
            }
            applied += 1
            let new = result.document
            let context = String(decoding: document.bytes, as: UTF8.self).debugDescription
            let k = try #require(result.task)
            #expect(k == document.descendantsEnd(i), "\(context)")
            var rest = TaskSnapshot.all(new)
            let copy = rest.remove(at: k)
            #expect(rest == TaskSnapshot.all(document), "\(context)")
            let original = TaskSnapshot(document, i)
            #expect(copy.done && copy.doneDate == Self.day, "\(context)")
            // A task in the Tasks plugin's style keeps its repetition on the copy, as the plugin does (FORMAT.md 11).
            if document.tasks[i].style == .tick {
                #expect(copy.recurrence == nil && copy.until == nil, "\(context)")
            } else {
                #expect(copy.recurrence == original.recurrence || copy.due == nil, "\(context)")
            }
            #expect(new.tasks[k].id == nil, "\(context)")
            #expect(copy.due == original.due && copy.priority == original.priority && copy.flagged == original.flagged, "\(context)")
            #expect(copy.depth == original.depth && copy.notes.isEmpty, "\(context)")
            #expect(differingWindow(document.bytes, new.bytes).old.isEmpty, "the copy changed existing bytes: \(context)")
            #expect(Document(bytes: new.bytes).serialize() == new.bytes)
        }
        #expect(applied > 0 && refused * 20 < applied + refused, "applied \(applied), refused \(refused)")
    }

    @Test("the copy, then the advance: the task keeps its index and only its due: bytes and subtask boxes change",
          arguments: seeds)
    func copyThenAdvance(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 7_177)
        for _ in 0..<Self.casesPerSeed {
            let document = Document(bytes: NastyDocument.generate(&rng))
            guard !document.tasks.isEmpty else { continue }
            let i = Int(rng.next() % UInt64(document.tasks.count))
            let due = DueDate(day: Self.day.adding(days: Int(rng.next() % 60)), minutes: nil)
            guard let recorded = try? document.recordingCompletion(i, on: Self.day).document,
                  let advanced = try? recorded.advancingRecurrence(i, to: due).document else { continue }
            let context = String(decoding: document.bytes, as: UTF8.self).debugDescription
            #expect(advanced.tasks.count == document.tasks.count + 1, "\(context)")
            #expect(advanced.tasks[i].due == due, "\(context)")
            // Setting the due date replaces malformed and repeated due: words (title text): only a clean line keeps its title.
            if !document.diagnostics.contains(where: { $0.line == document.tasks[i].line }) {
                #expect(advanced.tasks[i].title == document.tasks[i].title, "\(context)")
            }
            #expect((i..<document.descendantsEnd(i)).allSatisfy { j in j == i || !advanced.tasks[j].done }, "\(context)")
            #expect(Document(bytes: advanced.bytes).serialize() == advanced.bytes)
        }
    }
}
