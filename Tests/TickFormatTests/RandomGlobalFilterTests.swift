import Testing
@testable import TickFormat
import TickCore

/// The random documents of `RandomDocumentTests`, with the global filter `#task` (FORMAT.md 11) written
/// into some of their lines and read with it.
///
/// Properties: reading with the filter never fails and round-trips exactly; its tasks are exactly the
/// tasks read without it whose title line holds the filter, with the same fields, each under the nearest
/// of those around it; a random edit changes only its item, and re-reading gives the edited model.
@Suite("Random documents: the global filter")
struct RandomGlobalFilterTests {
    static let filter = GlobalFilter("#task")!
    static let seeds: [UInt64] = Array(1...10)
    static let casesPerSeed = 400

    /// A random document; about half its lines get a word holding the filter (or nearly) at their end.
    static func generate(_ rng: inout SeededGenerator) -> [UInt8] {
        let bytes = NastyDocument.generate(&rng)
        let starts = lineStarts(bytes)
        var out: [UInt8] = []
        for k in 0..<(starts.count - 1) {
            var end = starts[k + 1]
            while end > starts[k], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            out += bytes[starts[k]..<end]
            if rng.chance(2) {
                out += Array(rng.pick([" #task", " #task", "#task", " #tasks", " #task/home", " `#task`", " #TASK", " # task"]).utf8)
            }
            out += bytes[end..<starts[k + 1]]
        }
        return out
    }

    @Test("random files read with the filter round-trip exactly", arguments: seeds)
    func roundTrip(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 31)
        for _ in 0..<Self.casesPerSeed {
            let bytes = Self.generate(&rng)
            let document = Document(bytes: bytes, globalFilter: Self.filter)
            #expect(document.serialize() == bytes)
            #expect(document.notes.count == document.tasks.count)
        }
    }

    @Test("the filter's tasks are those read without it whose title line holds it, each under the nearest such task",
          arguments: seeds)
    func sameTasksAsWithoutTheFilter(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 131)
        var kept = 0, dropped = 0
        for _ in 0..<Self.casesPerSeed {
            let bytes = Self.generate(&rng)
            let all = Document(bytes: bytes)
            let filtered = Document(bytes: bytes, globalFilter: Self.filter)
            let holding = all.tasks.indices.filter { Self.filter.isIncluded(in: all.bytes, all.tasks[$0].titleRange) }
            kept += holding.count
            dropped += all.tasks.count - holding.count
            let context = String(decoding: bytes, as: UTF8.self).debugDescription
            guard filtered.tasks.count == holding.count else {
                Issue.record("\(filtered.tasks.count) tasks with the filter, \(holding.count) holding it: \(context)")
                continue
            }
            for (k, i) in holding.enumerated() {
                let a = all.tasks[i], f = filtered.tasks[k]
                #expect(f.line == a.line && f.title == a.title && f.done == a.done && f.due == a.due && f.priority == a.priority
                        && f.flagged == a.flagged && f.tags == a.tags && f.style == a.style && f.recurrence == a.recurrence
                        && f.section == a.section, "task \(k): \(context)")
                // The parent: the nearest task around it (read without the filter) that holds the filter.
                var p = a.parent
                while let q = p, !holding.contains(q) { p = all.tasks[q].parent }
                #expect(f.parent == p.flatMap { holding.firstIndex(of: $0) }, "parent of task \(k): \(context)")
            }
        }
        // Both kinds of line occur often.
        #expect(kept > Self.casesPerSeed && dropped > Self.casesPerSeed, "kept \(kept), dropped \(dropped)")
    }

    @Test("a random edit of a task read with the filter changes only its item, and re-reading gives the edited model",
          arguments: seeds)
    func randomEdits(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 7907)
        var edits = 0, refused = 0
        var applied: [String: Int] = [:]
        while edits < Self.casesPerSeed {
            let document = Document(bytes: Self.generate(&rng), globalFilter: Self.filter)
            guard !document.tasks.isEmpty else { continue }
            let i = Int(rng.next() % UInt64(document.tasks.count))
            // New titles hold the filter (one without it gets it first: FormatRuleGlobalFilterTests), and a
            // move goes into a document read with the filter too.
            var edit = RandomEdit.make(&rng, document: document, task: i)
            switch edit {
            case .retitle(let title): edit = .retitle(title + " #task")
            case .insert(var task, let point):
                task.title += " #task"
                edit = .insert(task, point)
            case .move(let destination): edit = .move(into: Document(bytes: destination.bytes, globalFilter: Self.filter))
            default: break
            }
            edits += 1
            do {
                let result = try edit.apply(to: document, task: i)
                #expect(result.document.globalFilter == Self.filter)
                try edit.check(result, against: document, task: i, rng: &rng)
                let reread = Document(bytes: result.document.serialize(), globalFilter: Self.filter)
                #expect(TaskSnapshot.all(reread) == TaskSnapshot.all(result.document))
                applied[edit.kind, default: 0] += 1
            } catch let error as EditError {
                #expect(error.reason == .structure, "\(edit) refused for \(error.reason): \(error.message)")
                refused += 1
            }
        }
        #expect(applied.count == 13, "\(applied)")
        #expect(refused * 20 < edits, "refused \(refused) of \(edits) edits")
    }
}
