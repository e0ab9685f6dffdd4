import Testing
@testable import TickFormat
import TickCore

/// Seeded random task files full of awkward constructs, and random edits on them.
///
/// Properties: parsing never fails and round-trips exactly; after an edit, re-parsing gives the
/// edited model, and the bytes outside the edited item are unchanged (a structure-keeping blank
/// line aside).
@Suite("Random documents")
struct RandomDocumentTests {
    static let seeds: [UInt64] = Array(1...10)
    static let casesPerSeed = 1_000

    @Test("random files round-trip exactly", arguments: seeds)
    func roundTrip(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<Self.casesPerSeed {
            let bytes = NastyDocument.generate(&rng)
            let document = Document(bytes: bytes)
            #expect(document.serialize() == bytes)
            #expect(document.notes.count == document.tasks.count)
        }
    }

    @Test("a random edit changes only its item, and re-parsing gives the edited model", arguments: seeds)
    func randomEdits(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 7919)
        var edits = 0
        var refused = 0
        var applied: [String: Int] = [:]
        while edits < Self.casesPerSeed {
            let document = Document(bytes: NastyDocument.generate(&rng))
            guard !document.tasks.isEmpty else { continue }
            let i = Int(rng.next() % UInt64(document.tasks.count))
            let edit = RandomEdit.make(&rng, document: document, task: i)
            edits += 1
            do {
                let result = try edit.apply(to: document, task: i)
                try edit.check(result, against: document, task: i, rng: &rng)
                applied[edit.kind, default: 0] += 1
            } catch let error as EditError {
                #expect(error.reason == .structure, "\(edit) refused for \(error.reason): \(error.message)")
                refused += 1
            }
        }
        // Every kind of edit was tried and mostly carried out.
        #expect(applied.count == 13, "\(applied)")
        #expect(applied.values.allSatisfy { $0 * 20 > edits }, "\(applied)")
        // Refusals are for the rare file where no blank line keeps the structure.
        #expect(refused * 20 < edits, "refused \(refused) of \(edits) edits")
    }
}

// MARK: - The model a test expects

/// What a task is, independent of where it sits in the bytes.
struct TaskSnapshot: Equatable, CustomStringConvertible {
    var done: Bool
    var title: String
    var due: DueDate?
    var doneDate: Day?
    var priority: Priority
    var flagged: Bool
    var recurrence: RecurrenceRule?
    var until: Day?
    var tags: [String]
    var depth: Int
    var section: String?
    var notes: String

    init(_ document: Document, _ i: Int) {
        let t = document.tasks[i]
        done = t.done; title = t.title; due = t.due; doneDate = t.doneDate; priority = t.priority
        flagged = t.flagged; recurrence = t.recurrence; until = t.until; tags = t.tags; depth = t.depth; section = t.section; notes = document.notes[i]
    }

    var description: String { "\(done ? "[x]" : "[ ]") \(title) d\(depth) \(due?.description ?? "") \(priority) \(flagged) notes=\(notes.debugDescription)" }

    static func all(_ document: Document) -> [TaskSnapshot] { document.tasks.indices.map { TaskSnapshot(document, $0) } }
}

// MARK: - Random edits

enum RandomEdit: CustomStringConvertible {
    case done(Bool)
    case due(DueDate?)
    case priority(Priority)
    case flag(Bool)
    case recurrence(RecurrenceRule?)
    case until(Day?)
    /// The move of a repeating task to its next occurrence: a new due date, done subtasks opened.
    case advance(DueDate)
    case retitle(String)
    case notes(String)
    case appendNote(String)
    case insert(NewTask, InsertionPoint)
    case remove
    case move(into: Document)

    enum Clearing { case clearing, not }

    /// Whether the edit removes a kind of token (which takes its repeats along).
    var clears: Clearing {
        switch self {
        case .done(false), .due(nil), .priority(.none), .flag(false), .recurrence(nil), .until(nil): return .clearing
        default: return .not
        }
    }

    var kind: String { String(description.prefix { $0 != "(" }) }

    var description: String {
        switch self {
        case .done(let d): return "done(\(d))"
        case .due(let d): return "due(\(d?.description ?? "none"))"
        case .priority(let p): return "priority(\(p))"
        case .flag(let f): return "flag(\(f))"
        case .recurrence(let r): return "recurrence(\(r?.description ?? "none"))"
        case .until(let d): return "until(\(d?.description ?? "none"))"
        case .advance(let d): return "advance(\(d))"
        case .retitle(let t): return "retitle(\(t.debugDescription))"
        case .notes(let n): return "notes(\(n.debugDescription))"
        case .appendNote(let n): return "appendNote(\(n.debugDescription))"
        case .insert(let t, let p): return "insert(\(t.title.debugDescription), \(p))"
        case .remove: return "remove"
        case .move: return "move"
        }
    }

    static let day = Day(year: 2026, month: 11, day: 30)!

    static func make(_ rng: inout SeededGenerator, document: Document, task i: Int) -> RandomEdit {
        // A task in the Tasks plugin's style takes what its signifiers can hold (FORMAT.md 11): no
        // due time, no `rec:++…`, business days one at a time.
        let styled = document.tasks[i].style != .tick
        switch rng.next() % 13 {
        case 0: return .done(rng.next() % 3 != 0)
        case 1: return .due(rng.next() % 3 == 0 ? nil : DueDate(day: day.adding(days: Int(rng.next() % 60) - 30),
                                                                 minutes: rng.next() % 2 == 0 || styled ? nil : Int(rng.next() % 1440)))
        case 2: return .priority(Priority(rawValue: Int(rng.next() % 4))!)
        case 3: return .flag(rng.next() % 2 == 0)
        case 4: return .retitle(NastyDocument.plainTitle(&rng))
        case 5: return .notes(NastyDocument.plainNotes(&rng))
        case 6: return .appendNote(NastyDocument.plainNotes(&rng))
        case 7:
            let new = NewTask(title: NastyDocument.plainTitle(&rng),
                              due: rng.next() % 2 == 0 ? DueDate(day: day) : nil,
                              priority: Priority(rawValue: Int(rng.next() % 4))!, flagged: rng.next() % 4 == 0,
                              notes: rng.next() % 3 == 0 ? NastyDocument.plainNotes(&rng) : "")
            // `.section` names the first heading with that text: a name that a level-1 heading
            // (the list's name) has first is not a section to insert under.
            let sections = document.sections.filter { section in
                section.level > 1 && document.sections.first { $0.text.lowercased() == section.text.lowercased() }?.level != 1
            }
            switch rng.next() % 4 {
            case 0: return .insert(new, .subtask(of: i))
            case 3: return .insert(new, .after(i))
            case 1 where !sections.isEmpty:
                return .insert(new, .section(sections[Int(rng.next() % UInt64(sections.count))].text))
            default: return .insert(new, i % 2 == 0 ? .end : .unsectioned)
            }
        case 8: return .remove
        case 9:
            guard rng.next() % 3 != 0 else { return .recurrence(nil) }
            let unit = RecurrenceRule.Unit.allCases[Int(rng.next() % (styled ? 4 : 5))]
            let mode = RecurrenceRule.Mode.allCases[Int(rng.next() % (styled ? 2 : 3))]
            return .recurrence(RecurrenceRule(count: Int(rng.next() % 12) + 1, unit: unit, mode: mode)!)
        case 10:
            // An end for a task repeating by a 🔁 phrase is refused (it would hide the line's fields).
            let phrase = document.tasks[i].tokens.contains { token in
                switch token.kind {
                case .recurrence, .repeatPhrase: return token.style == .emoji
                default: return false
                }
            }
            return .until(rng.next() % 3 == 0 || phrase ? nil : day.adding(days: Int(rng.next() % 400)))
        case 11: return .advance(DueDate(day: day.adding(days: Int(rng.next() % 60)),
                                         minutes: rng.next() % 2 == 0 || styled ? nil : Int(rng.next() % 1440)))
        default: return .move(into: Document(bytes: NastyDocument.generate(&rng)))
        }
    }

    func apply(to document: Document, task i: Int) throws -> EditResult {
        switch self {
        case .done(let d): return try document.settingDone(i, d, on: Self.day)
        case .due(let d): return try document.settingDue(i, d)
        case .priority(let p): return try document.settingPriority(i, p)
        case .flag(let f): return try document.settingFlag(i, f)
        case .recurrence(let r): return try document.settingRecurrence(i, r)
        case .until(let d): return try document.settingUntil(i, d)
        case .advance(let d): return try document.advancingRecurrence(i, to: d)
        case .retitle(let t): return try document.retitling(i, t)
        case .notes(let n): return try document.replacingNotes(i, n)
        case .appendNote(let n): return try document.appendingNote(i, n)
        case .insert(let t, let p): return try document.inserting(t, at: p)
        case .remove: return try document.removing(i)
        case .move(let destination): return try destination.inserting(document.extracting(i), at: .end)
        }
    }

    /// `due:` or `done:` for an edit that sets or clears that date.
    var dateKey: String? {
        switch self {
        case .due, .advance: return "due:"
        case .done: return "done:"
        case .recurrence: return "rec:"
        case .until: return "until:"
        default: return nil
        }
    }

    /// The words of line `line` that `tick check` reports as malformed `key` words.
    static func malformedWords(_ key: String, in document: Document, line: Int) -> [String] {
        document.diagnostics.filter { $0.line == line }.compactMap { diagnostic -> String? in
            let parts = diagnostic.message.split(separator: "'", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[1].lowercased().hasPrefix(key),
                  diagnostic.message.hasPrefix("malformed") || diagnostic.message.contains("keys are lower case") else { return nil }
            return String(parts[1])
        }
    }

    /// Checks the edited document against the model this test expects and the bytes around the edit.
    func check(_ result: EditResult, against old: Document, task i: Int, rng: inout SeededGenerator,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let new = result.document
        let before = TaskSnapshot.all(old)
        let after = TaskSnapshot.all(new)
        // The item's bytes, without a byte order mark before a first-line task (it stays).
        let item = old.textStart(old.tasks[i].firstLine)..<old.lines.end(old.tasks[i].lastLine)
        let context = "\(self) on task \(i) of:\n\(String(decoding: old.bytes, as: UTF8.self).debugDescription)\nresult:\n\(String(decoding: new.bytes, as: UTF8.self).debugDescription)"

        switch self {
        case .done, .due, .priority, .flag, .recurrence, .until, .advance, .retitle, .notes, .appendNote:
            var expected = before
            switch self {
            case .done(let d): expected[i].done = d; expected[i].doneDate = d ? Self.day : nil
            case .due(let d): expected[i].due = d
            case .priority(let p): expected[i].priority = p
            case .flag(let f): expected[i].flagged = f
            case .recurrence(let r): expected[i].recurrence = r
            case .until(let d): expected[i].until = d
            case .advance(let d):
                expected[i].due = d
                // Every done task below it opens and loses its done: token; removing that token
                // takes its repeats and malformed done: words along (title text, so titles may shrink).
                for j in (i + 1)..<old.descendantsEnd(i) where before[j].done {
                    expected[j].done = false
                    expected[j].doneDate = nil
                    if old.diagnostics.contains(where: { $0.line == old.tasks[j].line && $0.message.lowercased().contains("done:") || $0.message.contains("completion date") }) {
                        #expect(after[j].title.unicodeScalars.count <= before[j].title.unicodeScalars.count, "\(context)",
                                sourceLocation: sourceLocation)
                        expected[j].title = after[j].title
                        expected[j].tags = after[j].tags
                    }
                }
            case .retitle(let t):
                expected[i].title = t
                expected[i].tags = t.split(separator: " ").filter { $0.hasPrefix("#") }.map { String($0.dropFirst()) }
            case .notes(let n): expected[i].notes = n
            case .appendNote(let n):
                expected[i].notes = before[i].notes.isEmpty ? n : (n.isEmpty ? before[i].notes : before[i].notes + "\n" + n)
            default: break
            }
            // A Tasks phrase counts from the completion with `when done` or without a due date, else
            // from the due date (FORMAT.md 11): a new due date or rule can change which.
            if i < new.tasks.count, let phrase = new.tasks[i].repeatPhrase, let r = expected[i].recurrence {
                let fromCompletion = phrase.lowercased().hasSuffix("when done") || expected[i].due == nil
                expected[i].recurrence = RecurrenceRule(count: r.count, unit: r.unit, mode: fromCompletion ? .completion : .due)
            }
            // Clearing a kind also clears its repeated tokens, which were title text.
            if case .clearing = self.clears, old.diagnostics.contains(where: { $0.line == old.tasks[i].line && $0.message.hasPrefix("second") }) {
                #expect(after[i].title.unicodeScalars.count <= before[i].title.unicodeScalars.count, "\(context)", sourceLocation: sourceLocation)
                expected[i].title = after[i].title
                expected[i].tags = after[i].tags
            }
            // Setting or clearing a due or completion date replaces or removes the malformed
            // words of its key (`due:soon`, `Due:…`), which were title text; the rest stays.
            if let key = self.dateKey {
                let malformed = Self.malformedWords(key, in: old, line: old.tasks[i].line)
                var words = before[i].title.split(whereSeparator: \.isWhitespace).map(String.init)
                for word in malformed { if let k = words.firstIndex(of: word) { words.remove(at: k) } }
                if !malformed.isEmpty, after[i].title.split(whereSeparator: \.isWhitespace).map(String.init) == words {
                    expected[i].title = after[i].title
                }
            }
            #expect(after == expected, "\(context)", sourceLocation: sourceLocation)
            #expect(result.fixes.isEmpty, "\(context)", sourceLocation: sourceLocation)
            #expect(unchanged(old.bytes, new.bytes, outside: item), "edit reached outside its item: \(context)",
                    sourceLocation: sourceLocation)

        case .remove:
            var expected = before
            let end = old.descendantsEnd(i)
            expected.removeSubrange(i..<end)
            #expect(after == expected, "\(context)", sourceLocation: sourceLocation)
            #expect(unchanged(old.bytes, new.bytes, outside: item), "removal reached outside its item: \(context)",
                    sourceLocation: sourceLocation)
            // What replaced the item may only be the blank line a fix names.
            let replacement = new.bytes.count >= old.bytes.count - item.count
                ? new.bytes[item.lowerBound..<(new.bytes.count - (old.bytes.count - item.upperBound))] : []
            #expect(replacement.allSatisfy { $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: ">") || $0 == 0x20 || $0 == 0x09 },
                    "\(context)", sourceLocation: sourceLocation)
            #expect(replacement.isEmpty == result.fixes.isEmpty, "\(context)", sourceLocation: sourceLocation)

        case .insert(let task, let point):
            let k = try #require(result.task, sourceLocation: sourceLocation)
            var rest = after
            let inserted = rest.remove(at: k)
            // Every other task is as it was: same fields, same nesting, same section.
            #expect(rest == before, "\(context)", sourceLocation: sourceLocation)
            #expect(inserted.title == task.title && inserted.due == task.due && inserted.priority == task.priority
                    && inserted.flagged == task.flagged && inserted.notes == task.notes && !inserted.done,
                    "\(context)", sourceLocation: sourceLocation)
            switch point {
            case .subtask(of: let p):
                #expect(new.tasks[k].parent.map { TaskSnapshot(new, $0) } == before[p], "\(context)", sourceLocation: sourceLocation)
            case .end:
                #expect(inserted.depth == 0 && !new.tasks[(k + 1)...].contains { $0.parent == nil },
                        "\(context)", sourceLocation: sourceLocation)
            case .unsectioned:
                #expect(inserted.depth == 0 && inserted.section == nil
                        && !new.tasks[(k + 1)...].contains { $0.parent == nil && $0.section == nil },
                        "\(context)", sourceLocation: sourceLocation)
            case .section(let name):
                #expect(inserted.depth == 0 && inserted.section?.lowercased() == name.lowercased(),
                        "\(context)", sourceLocation: sourceLocation)
            case .after(let n):
                // The next sibling: right after the task's subtasks, at its depth, under its parent.
                #expect(k == old.descendantsEnd(n) && inserted.depth == before[n].depth
                        && new.tasks[k].parent.map { TaskSnapshot(new, $0) } == old.tasks[n].parent.map { before[$0] },
                        "\(context)", sourceLocation: sourceLocation)
            }
            let window = differingWindow(old.bytes, new.bytes)
            #expect(window.old.isEmpty, "an insertion changed existing bytes: \(context)", sourceLocation: sourceLocation)

        case .move(let destination):
            let k = try #require(result.task, sourceLocation: sourceLocation)
            let movedCount = old.descendantsEnd(i) - i
            var rest = after
            let moved = Array(rest[k..<(k + movedCount)])
            rest.removeSubrange(k..<(k + movedCount))
            #expect(rest == TaskSnapshot.all(destination), "\(context)", sourceLocation: sourceLocation)
            let source = Array(before[i..<(i + movedCount)])
            #expect(moved.map(\.title) == source.map(\.title) && moved.map(\.notes) == source.map(\.notes)
                    && moved.map { $0.depth - moved[0].depth } == source.map { $0.depth - source[0].depth },
                    "\(context)", sourceLocation: sourceLocation)
            let window = differingWindow(destination.bytes, new.bytes)
            #expect(window.old.isEmpty, "a move changed existing bytes of its destination: \(context)", sourceLocation: sourceLocation)
        }
        #expect(Document(bytes: new.bytes).serialize() == new.bytes, sourceLocation: sourceLocation)
    }
}

/// Whether `b` equals `a` before and after `range` of `a` (what lies between may differ).
func unchanged(_ a: [UInt8], _ b: [UInt8], outside range: Range<Int>) -> Bool {
    let tail = a.count - range.upperBound
    return b.count >= range.lowerBound + tail
        && b[..<range.lowerBound].elementsEqual(a[..<range.lowerBound])
        && b[(b.count - tail)...].elementsEqual(a[range.upperBound...])
}

/// The smallest ranges of `a` and `b` outside which the two are identical.
func differingWindow(_ a: [UInt8], _ b: [UInt8]) -> (old: Range<Int>, new: Range<Int>) {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    if prefix == a.count, prefix == b.count { return (prefix..<prefix, prefix..<prefix) }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
    return (prefix..<(a.count - suffix), prefix..<(b.count - suffix))
}

// MARK: - The generator

/// Draws for the random documents, from TickCore's seeded generator (SplitMix64), so every run sees
/// the same cases.
extension SeededGenerator {
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    mutating func chance(_ n: UInt64) -> Bool { next() % n == 0 }
}

enum NastyDocument {
    static let words = ["Call", "mum", "plumber", "Café", "naïve", "milk", "report", "ok", "wow!", "C#", "x", "über", "a\\b", "<b>", "*em*", "[link](u)", "😀"]
    static let tokens = ["due:2026-12-03", "due:2026-12-01T09:30", "due:2026-02-30", "due:soon", "done:2026-11-28", "!", "!!", "!!!", "!!!!",
                         "#flag", "#FLAG", "#home", "#diy/wood", "Due:2026-12-01", "`due:2026-01-01`", "`code", "tail`",
                         "rec:1w", "rec:+2m", "rec:++1b", "rec:1x", "Rec:1w", "rec:0d", "until:2026-12-31", "until:2026-02-30",
                         "`rec:1d`",
                         // The Obsidian Tasks plugin's signifiers and Dataview fields (FORMAT.md 11).
                         "📅 2026-12-03", "📅️2026-12-04", "📅 2026-02-30", "⏳ 2026-12-01", "🛫 2026-12-09", "✅ 2026-11-28", "❌ 2026-11-02",
                         "⏫", "🔺", "🔽️", "⏬", "🔁 every week", "🔁 every 2 days when done", "🔁 every week on Monday", "🆔 abc",
                         "⛔ abc,def", "🏁 delete", "[due:: 2026-12-05]", "(priority:: high)", "[repeat:: every month]",
                         "[completion:: 2026-11-29],", "[due:: soon]", "`📅 2026-12-03`"]
    static let separators: [[UInt8]] = [[0x20], [0x20], [0x20], [0x20, 0x20], [0x09], [0xC2, 0xA0], [0xE2, 0x80, 0xAF]]
    static let endings: [[UInt8]] = [[0x0A], [0x0A], [0x0A], [0x0D, 0x0A], [0x0D]]

    /// A title a user might pass to tick: plain words and tags, no metadata tokens.
    static func plainTitle(_ rng: inout SeededGenerator) -> String {
        let plain = ["Call", "mum", "Café", "report", "milk", "#home", "#diy/wood", "über", "x"]
        return (0..<(1 + Int(rng.next() % 4))).map { _ in rng.pick(plain) }.joined(separator: " ")
    }

    /// Notes a user might pass: plain lines, sometimes blank ones between.
    static func plainNotes(_ rng: inout SeededGenerator) -> String {
        let lines = ["Ask about the boiler.", "Number is 555", "", "second paragraph", "Café au lait"]
        var out = (0..<(1 + Int(rng.next() % 3))).map { _ in rng.pick(lines) }
        while out.first == "" { out.removeFirst() }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n")
    }

    static func generate(_ rng: inout SeededGenerator) -> [UInt8] {
        var out: [UInt8] = []
        let mixedEndings = rng.chance(8)
        let fileEnding = rng.pick(endings)
        func eol(_ rng: inout SeededGenerator) -> [UInt8] { mixedEndings ? rng.pick(endings) : fileEnding }
        if rng.chance(20) { out += [0xEF, 0xBB, 0xBF] }
        if rng.chance(10) {
            out += Array("---".utf8) + eol(&rng) + Array("symbol: 🛒".utf8) + eol(&rng) + Array("---".utf8) + eol(&rng)
        }
        let blocks = 1 + Int(rng.next() % 12)
        var quote: [UInt8] = []
        for _ in 0..<blocks {
            if rng.chance(6) { quote = quote.isEmpty ? Array("> ".utf8) : [] }
            switch rng.next() % 14 {
            case 0: out += quote + Array("# Heading".utf8) + eol(&rng)
            case 1: out += quote + Array("## Section \(rng.next() % 3)".utf8) + eol(&rng)
            case 2: out += quote + Array("Some prose with [ ] a box".utf8) + eol(&rng)
            case 3:
                let fence = rng.pick(["```", "~~~", "````"])
                out += quote + Array(fence.utf8) + eol(&rng) + quote + Array("- [ ] not a task".utf8) + eol(&rng)
                if !rng.chance(5) { out += quote + Array(fence.utf8) + eol(&rng) }
            case 4: out += quote + Array("<div>".utf8) + eol(&rng) + quote + Array("- [ ] html".utf8) + eol(&rng) + quote + Array("</div>".utf8) + eol(&rng)
            case 5: out += eol(&rng)
            case 6: out += quote + Array("Setext".utf8) + eol(&rng) + quote + Array(rng.pick(["===", "---"]).utf8) + eol(&rng)
            case 7:
                // Deep nesting.
                for level in 0..<(2 + Int(rng.next() % 8)) {
                    out += quote + [UInt8](repeating: 0x20, count: level * 2) + Array("- [ ] deep \(level)".utf8) + eol(&rng)
                }
            case 8:
                out += [0xFF, 0xFE, 0x00, 0x41] + eol(&rng)
            default:
                out += taskItems(&rng, quote: quote, eol: eol)
            }
        }
        if rng.chance(6), let last = out.last, last == 0x0A || last == 0x0D {
            out.removeLast()
            if out.last == 0x0D { out.removeLast() }
        }
        return out
    }

    static func taskItems(_ rng: inout SeededGenerator, quote: [UInt8], eol: (inout SeededGenerator) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        let ordered = rng.chance(4)
        let bullet = rng.pick(["-", "*", "+"])
        let count = 1 + Int(rng.next() % 5)
        for n in 0..<count {
            let indent = rng.chance(4) ? [UInt8](repeating: 0x20, count: 2 * Int(rng.next() % 3)) : []
            let marker = ordered ? "\(n + 1)\(rng.chance(3) ? ")" : ".")" : bullet
            let box = rng.pick(["[ ]", "[ ]", "[x]", "[X]", "[-]", "[ ]"])
            out += quote + indent + Array(marker.utf8) + (rng.chance(10) ? [0x09] : [0x20]) + Array(box.utf8)
            out += rng.chance(15) ? [] : rng.pick(separators)
            for _ in 0..<(1 + Int(rng.next() % 5)) {
                out += Array((rng.chance(3) ? rng.pick(tokens) : rng.pick(words)).utf8)
                out += rng.pick(separators)
            }
            if rng.chance(5) { out += Array("x".utf8) + rng.pick([[0x20, 0x20], [0x5C]]) }
            if rng.chance(12) { out += [0x00, 0x42] }
            out += eol(&rng)
            let width = indent.count + marker.utf8.count + 1
            if rng.chance(3) {
                out += quote + [UInt8](repeating: 0x20, count: width) + Array("a note line".utf8) + eol(&rng)
            }
            if rng.chance(8) { out += quote + Array("lazy continuation".utf8) + eol(&rng) }
            if rng.chance(4) { out += quote + eol(&rng) }
            if rng.chance(5) {
                out += quote + [UInt8](repeating: 0x20, count: width) + Array("- [ ] sub".utf8) + eol(&rng)
            }
            if rng.chance(10) {
                out += quote + [UInt8](repeating: 0x20, count: width) + Array("```".utf8) + eol(&rng)
                out += quote + [UInt8](repeating: 0x20, count: width) + Array("code".utf8) + eol(&rng)
                if !rng.chance(3) { out += quote + [UInt8](repeating: 0x20, count: width) + Array("```".utf8) + eol(&rng) }
            }
            if rng.chance(10) { out += quote + [UInt8](repeating: 0x20, count: width + 4) + Array("indented code".utf8) + eol(&rng) }
        }
        return out
    }
}
