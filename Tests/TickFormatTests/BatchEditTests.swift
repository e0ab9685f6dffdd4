import Testing
@testable import TickFormat
import TickCore

/// Changes of many tasks at once (`applyingTogether`, `insertingUnsectioned`) on seeded random files
/// full of awkward constructs: what they write is, byte for byte, what the same edits write one
/// task at a time, and they do write most of the time (not only by falling back to one at a time).
@Suite("Edits of many tasks at once")
struct BatchEditTests {
    static let seeds: [UInt64] = Array(1...6)
    static let casesPerSeed = 300

    static let days = [Day(year: 2026, month: 3, day: 14)!, Day(year: 2026, month: 12, day: 1)!]

    static func randomEdit(_ rng: inout SeededGenerator) -> LineEdit {
        switch rng.next() % 8 {
        case 0, 1: return .done(!rng.chance(4), on: rng.pick(days))
        case 2: return .due(rng.chance(3) ? nil : DueDate(day: rng.pick(days)))
        case 3: return .priority(rng.pick([.none, .low, .medium, .high]))
        case 4: return .flag(rng.chance(2))
        case 5: return .id(rng.chance(3) ? nil : rng.pick(["a1", "zz9", "x"]))
        case 6: return .start(rng.chance(3) ? nil : rng.pick(days))
        default: return .until(rng.chance(3) ? nil : rng.pick(days))
        }
    }

    static func applyingAlone(_ edit: LineEdit, to i: Int, in document: Document) throws(EditError) -> Document {
        switch edit {
        case .done(let done, let day): return try document.settingDone(i, done, on: day).document
        case .due(let due): return try document.settingDue(i, due).document
        case .priority(let level): return try document.settingPriority(i, level).document
        case .flag(let on): return try document.settingFlag(i, on).document
        case .id(let id): return try document.settingID(i, id).document
        case .recurrence(let rule): return try document.settingRecurrence(i, rule).document
        case .until(let day): return try document.settingUntil(i, day).document
        case .start(let day): return try document.settingStart(i, day).document
        }
    }

    /// With `editing`, the list is read for editing (cmark's outline kept): edits inside title lines
    /// are read again over that outline, and their titles are taken as read (`Expected.titleAsRead`).
    /// The result must then also read as a full parse of its bytes reads.
    @Test("line edits of many tasks together write the bytes that one task at a time writes",
          arguments: seeds, [false, true])
    func lineEditsTogether(seed: UInt64, editing: Bool) throws {
        var rng = SeededGenerator(seed: seed &* 104_729)
        var together = 0, cases = 0
        while cases < Self.casesPerSeed {
            let bytes = NastyDocument.generate(&rng)
            let document = editing ? Document(editing: bytes) : Document(bytes: bytes)
            guard document.tasks.count >= 2 else { continue }
            cases += 1
            let edits = document.tasks.indices.filter { _ in !rng.chance(3) }.map { ($0, Self.randomEdit(&rng)) }
            var alone: Document? = document
            var refusal: EditError? = nil
            for (i, edit) in edits {
                do {
                    alone = try Self.applyingAlone(edit, to: i, in: alone!)
                } catch {
                    refusal = error
                    alone = nil
                    break
                }
            }
            do {
                guard let result = try document.applyingTogether(edits) else { continue }
                together += 1
                #expect(refusal == nil, "together wrote what one at a time refuses: \(String(describing: refusal))")
                #expect(result.serialize() == alone?.serialize(), "\(String(decoding: document.serialize(), as: UTF8.self))")
                #expect(result.readsLike(Document(bytes: result.serialize())), "\(String(decoding: document.serialize(), as: UTF8.self))")
            } catch {
                #expect(refusal != nil, "together refused what one at a time writes: \(error)")
            }
        }
        // Files where no blank line keeps the structure are rare: most changes are written together.
        #expect(together * 10 > cases * 7, "together \(together) of \(cases)")
    }

    static func randomTask(_ rng: inout SeededGenerator, _ k: Int) -> (task: NewTask, id: String?) {
        var task = NewTask(title: rng.pick(["Call mum", "Buy milk", "Café naïve", "report 😀", "x", "pack #trip"]) + " \(k)",
                           due: rng.chance(3) ? DueDate(day: rng.pick(days)) : nil,
                           priority: rng.pick([.none, .low, .high]), flagged: rng.chance(5),
                           notes: rng.chance(4) ? rng.pick(["a note", "two\nlines", "\nspaced\n\nout"]) : "")
        if rng.chance(6) { task.done = true; task.doneDate = rng.pick(days) }
        // Half keep the scan of their title's check, as import's tasks do.
        if rng.chance(2), case .success(let checked) = Document.checkedTitle(task.title) { task.keepScan(checked) }
        return (task, rng.chance(3) ? "id\(k)" : nil)
    }

    @Test("many new tasks inserted together: the bytes of inserting them one at a time", arguments: seeds)
    func insertedTogether(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 7_919)
        var together = 0, cases = 0
        while cases < Self.casesPerSeed {
            let document = Document(bytes: NastyDocument.generate(&rng))
            let count = 2 + Int(rng.next() % 6)
            let tasks = (0..<count).map { Self.randomTask(&rng, $0) }
            var alone = document
            var index = 0
            do {
                for (task, id) in tasks {
                    let result = try alone.inserting(task, at: .unsectioned)
                    alone = result.document
                    index = result.task!
                    if let id { alone = try alone.settingID(index, id).document }
                }
            } catch {
                // A list where one insertion has no blank line to keep the structure: not a case here.
                continue
            }
            cases += 1
            #expect(try document.insertingUnsectioned(tasks).serialize() == alone.serialize(),
                    "\(String(decoding: document.serialize(), as: UTF8.self))")
            // The part written together, on its own: after the first task, as `insertingUnsectioned` does.
            let first = try document.inserting(tasks[0].task, at: .unsectioned)
            var start = first.document
            if let id = tasks[0].id { start = try start.settingID(first.task!, id).document }
            if let written = try start.following(first.task!, with: tasks.dropFirst()) {
                together += 1
                #expect(written.serialize() == alone.serialize())
            }
        }
        #expect(together * 10 > cases * 7, "together \(together) of \(cases)")
    }
}

@Suite("The check of an edit's tasks")
struct ExpectedFieldsTests {
    /// `reads(_:as:)` compares a task with what it should read as field by field: each field of
    /// `Expected` changed alone is noticed, and a new field fails this until it is compared too.
    @Test("every field of what a task should read as is compared")
    func everyFieldCompared() throws {
        let document = Document(editing: Array("# L\n\n## S\n\n- [ ] parent\n  - [ ] a #t due:2026-03-14 id:x1\n    note\n".utf8))
        let e = document.expected(1)
        #expect(document.reads(1, as: e))
        let day = Day(year: 2027, month: 1, day: 2)!
        let changes: [(String, (inout Document.Expected) -> Void)] = [
            ("done", { $0.done.toggle() }), ("title", { $0.title += "!" }), ("due", { $0.due = DueDate(day: day) }),
            ("doneDate", { $0.doneDate = day }), ("priority", { $0.priority = .high }), ("flagged", { $0.flagged.toggle() }),
            ("id", { $0.id = "y2" }), ("tags", { $0.tags.append("u") }), ("depth", { $0.depth += 1 }),
            ("parent", { $0.parent = nil }), ("section", { $0.section = "T" }), ("notes", { $0.notes += "!" }),
            ("recurrence", { $0.recurrence = RecurrenceRule(count: 1, unit: .week, mode: .completion) }),
            ("until", { $0.until = day }), ("scheduled", { $0.scheduled = day }), ("start", { $0.start = day }),
            ("repeatPhrase", { $0.repeatPhrase = "every week" }),
        ]
        for (name, change) in changes {
            var wrong = e
            change(&wrong)
            #expect(!document.reads(1, as: wrong), "\(name) changed is not noticed")
        }
        // Taken as read, the title and tags are not compared; the rest still is.
        var asRead = e
        asRead.title = "other"
        asRead.tags = []
        asRead.titleAsRead = true
        #expect(document.reads(1, as: asRead))
        asRead.done.toggle()
        #expect(!document.reads(1, as: asRead))
        #expect(Mirror(reflecting: e).children.count == changes.count + 1,
                "Expected has a field reads(_:as:) may not compare: compare it, and change it here")
    }
}
