import Foundation
import Testing
import TickFormat
@testable import TickCore

/// Random list files and edits, from seeded generators, for the merge's properties.
private struct ModelTask: Equatable {
    var title: String
    var done = false
    var due: Int? = nil
    var priority = 0
    var tags: [String] = []
    var notes: [String] = []
    var subtasks: [ModelTask] = []

    func render(_ indent: String, _ eol: String) -> String {
        var line = indent + "- [" + (done ? "x" : " ") + "] " + title
        if let due { line += " due:2026-12-\(due < 10 ? "0" : "")\(due)" }
        if priority > 0 { line += " " + String(repeating: "!", count: priority) }
        for tag in tags { line += " #" + tag }
        if done { line += " done:2026-11-30" }
        var out = line + eol
        for note in notes { out += indent + "  " + note + eol }
        for sub in subtasks { out += sub.render(indent + "  ", eol) }
        return out
    }
}

private struct ModelList: Equatable {
    var sections: [(name: String, tasks: [ModelTask])]
    var eol: String
    var finalNewline: Bool

    static func == (a: ModelList, b: ModelList) -> Bool {
        a.render() == b.render()
    }

    func render() -> [UInt8] {
        var out = "# List" + eol + eol
        for (k, section) in sections.enumerated() {
            out += "## " + section.name + eol + eol
            for task in section.tasks { out += task.render("", eol) }
            if k < sections.count - 1 { out += eol }
        }
        var bytes = Array(out.utf8)
        if !finalNewline { while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() } }
        return bytes
    }

    var allTitles: [String] {
        sections.flatMap { $0.tasks.flatMap { [$0.title] + $0.subtasks.map(\.title) } }
    }

    static func random(_ g: inout SeededGenerator, serial: inout Int) -> ModelList {
        var sections: [(String, [ModelTask])] = []
        for s in 0..<Int.random(in: 1...3, using: &g) {
            var tasks: [ModelTask] = []
            for _ in 0..<Int.random(in: 1...6, using: &g) { tasks.append(randomTask(&g, serial: &serial, subtasks: true)) }
            sections.append(("Section \(s)", tasks))
        }
        return ModelList(sections: sections, eol: Bool.random(using: &g) ? "\n" : "\r\n",
                         finalNewline: Int.random(in: 0..<5, using: &g) > 0)
    }

    static func randomTask(_ g: inout SeededGenerator, serial: inout Int, subtasks: Bool) -> ModelTask {
        serial += 1
        let words = ["water", "plants", "call", "Ana", "fix", "fence", "pay", "rent", "book", "train"]
        var task = ModelTask(title: "Task \(serial) " + words[Int.random(in: 0..<words.count, using: &g)])
        if Bool.random(using: &g) { task.due = Int.random(in: 1...28, using: &g) }
        task.priority = Int.random(in: 0...3, using: &g)
        if Int.random(in: 0..<4, using: &g) == 0 { task.tags = ["home"] }
        if Int.random(in: 0..<4, using: &g) == 0 { task.notes = ["A note for \(serial)."] }
        if subtasks, Int.random(in: 0..<5, using: &g) == 0 {
            task.subtasks = [randomTask(&g, serial: &serial, subtasks: false)]
        }
        return task
    }
}

/// An edit to one top-level task: (section, index) and what changes.
private enum FieldEdit: CaseIterable {
    case complete, due, priority, tag, note, subtask

    func apply(_ task: inout ModelTask, _ g: inout SeededGenerator, serial: inout Int) {
        switch self {
        case .complete: task.done = true
        case .due: task.due = ((task.due ?? 0) % 28) + 1
        case .priority: task.priority = (task.priority + 1) % 4
        case .tag: task.tags.append("t\(serial)"); serial += 1
        case .note: task.notes.append("Added note \(serial)."); serial += 1
        case .subtask: serial += 1; task.subtasks.append(ModelTask(title: "Sub \(serial) new"))
        }
    }
}

@Suite("merge: properties over seeded random lists")
struct ListMergePropertyTests {
    let merge = ListMerge()

    private func positions(_ list: ModelList) -> [(Int, Int)] {
        list.sections.enumerated().flatMap { s, section in section.tasks.indices.map { (s, $0) } }
    }

    @Test("merge(b, x, b) == x, merge(b, b, x) == x and merge(b, x, x) == x, byte for byte", arguments: 0..<40)
    func identities(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var serial = 0
        let base = ModelList.random(&g, serial: &serial)
        var side = base
        for (s, i) in positions(base).shuffled(using: &g).prefix(3) {
            FieldEdit.allCases.randomElement(using: &g)!.apply(&side.sections[s].tasks[i], &g, serial: &serial)
        }
        let b = base.render(), x = side.render()
        #expect(merge.merge(base: b, ours: x, theirs: b) == ListMerge.Outcome(bytes: x, conflicts: 0))
        #expect(merge.merge(base: b, ours: b, theirs: x) == ListMerge.Outcome(bytes: x, conflicts: 0))
        #expect(merge.merge(base: b, ours: x, theirs: x) == ListMerge.Outcome(bytes: x, conflicts: 0))
    }

    @Test("edits to different tasks on each side merge cleanly into both edits, and the result round-trips",
          arguments: 0..<60)
    func disjointEdits(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var serial = 0
        let base = ModelList.random(&g, serial: &serial)
        let places = positions(base).shuffled(using: &g)
        guard places.count >= 2 else { return }
        let split = places.count / 2
        var ours = base, theirs = base, both = base
        for (k, (s, i)) in places.enumerated() where Int.random(in: 0..<3, using: &g) > 0 {
            let edit = FieldEdit.allCases.randomElement(using: &g)!
            var task = base.sections[s].tasks[i]
            var copy = g
            var serialCopy = serial
            edit.apply(&task, &g, serial: &serial)
            if k < split { ours.sections[s].tasks[i] = task } else { theirs.sections[s].tasks[i] = task }
            edit.apply(&both.sections[s].tasks[i], &copy, serial: &serialCopy)
        }
        let outcome = try #require(merge.merge(base: base.render(), ours: ours.render(), theirs: theirs.render()))
        let expected = both.render()
        #expect(outcome.conflicts == 0)
        #expect(outcome.bytes == expected,
                "seed \(seed):\n\(String(decoding: outcome.bytes, as: UTF8.self))\nexpected\n\(String(decoding: expected, as: UTF8.self))")
        #expect(Document(bytes: outcome.bytes).serialize() == outcome.bytes)
    }

    @Test("a completion on one side and a due or priority change on the other merge into one line", arguments: 0..<30)
    func sameTaskDifferentFields(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var serial = 0
        var base = ModelList.random(&g, serial: &serial)
        let (s, i) = positions(base).randomElement(using: &g)!
        base.sections[s].tasks[i].done = false
        base.sections[s].tasks[i].due = base.sections[s].tasks[i].due ?? 3
        base.sections[s].tasks[i].priority = max(1, base.sections[s].tasks[i].priority)
        var ours = base, theirs = base, both = base
        ours.sections[s].tasks[i].done = true
        both.sections[s].tasks[i].done = true
        if Bool.random(using: &g) {
            theirs.sections[s].tasks[i].due = base.sections[s].tasks[i].due! % 28 + 1
        } else {
            theirs.sections[s].tasks[i].priority = base.sections[s].tasks[i].priority % 3 + 1
        }
        both.sections[s].tasks[i].due = theirs.sections[s].tasks[i].due
        both.sections[s].tasks[i].priority = theirs.sections[s].tasks[i].priority
        let outcome = try #require(merge.merge(base: base.render(), ours: ours.render(), theirs: theirs.render()))
        #expect(outcome == ListMerge.Outcome(bytes: both.render(), conflicts: 0), "seed \(seed)")
    }

    @Test("tasks appended to the same section on both sides are all kept, ours first", arguments: 0..<30)
    func bothAppend(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var serial = 0
        let base = ModelList.random(&g, serial: &serial)
        let s = Int.random(in: 0..<base.sections.count, using: &g)
        var ours = base, theirs = base, both = base
        let mine = ModelList.randomTask(&g, serial: &serial, subtasks: false)
        let yours = ModelList.randomTask(&g, serial: &serial, subtasks: false)
        ours.sections[s].tasks.append(mine)
        theirs.sections[s].tasks.append(yours)
        both.sections[s].tasks += [mine, yours]
        let outcome = try #require(merge.merge(base: base.render(), ours: ours.render(), theirs: theirs.render()))
        #expect(outcome == ListMerge.Outcome(bytes: both.render(), conflicts: 0), "seed \(seed)")
    }

    @Test("with any edits on both sides, every task either side kept is in the result", arguments: 0..<60)
    func nothingLost(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var serial = 0
        let base = ModelList.random(&g, serial: &serial)
        var sides = [base, base]
        for k in 0..<2 {
            for (s, i) in positions(base).shuffled(using: &g).prefix(4) {
                FieldEdit.allCases.randomElement(using: &g)!.apply(&sides[k].sections[s].tasks[i], &g, serial: &serial)
            }
            if Bool.random(using: &g) {
                let s = Int.random(in: 0..<base.sections.count, using: &g)
                sides[k].sections[s].tasks.append(ModelList.randomTask(&g, serial: &serial, subtasks: false))
            }
            if Int.random(in: 0..<3, using: &g) == 0, let (s, i) = positions(sides[k]).randomElement(using: &g) {
                sides[k].sections[s].tasks.remove(at: i)
            }
        }
        let outcome = try #require(merge.merge(base: base.render(), ours: sides[0].render(), theirs: sides[1].render()))
        let text = String(decoding: outcome.bytes, as: UTF8.self)
        let kept = Set(sides[0].allTitles).intersection(sides[1].allTitles)
        let added = Set(sides[0].allTitles + sides[1].allTitles).subtracting(base.allTitles)
        for title in kept.union(added) {
            #expect(text.contains(title), "seed \(seed): '\(title)' is missing:\n\(text)")
        }
        #expect(Document(bytes: outcome.bytes).serialize() == outcome.bytes)
        if outcome.conflicts == 0 { #expect(!text.contains("<<<<<<<")) }
    }
}

@Suite("merge: the alignment")
struct MergeDiffTests {
    @Test("the matches of a diff are a longest common subsequence, in order", arguments: 0..<50)
    func matchesAreCommonSubsequence(_ seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        let a = (0..<Int.random(in: 0...30, using: &g)).map { _ in Int.random(in: 0..<5, using: &g) }
        let b = (0..<Int.random(in: 0...30, using: &g)).map { _ in Int.random(in: 0..<5, using: &g) }
        let m = try #require(Diff.matches(a, b))
        var last = -1
        var count = 0
        for (i, j) in m.enumerated() {
            guard let j else { continue }
            #expect(a[i] == b[j])
            #expect(j > last)
            last = j
            count += 1
        }
        // The length of a longest common subsequence, by dynamic programming.
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        #expect(count == table[0][0])
    }

    @Test("merge drivers get conflict labels from git 2.44 on")
    func driverLabels() {
        #expect(!Git.supportsDriverLabels((2, 39)))
        #expect(!Git.supportsDriverLabels((2, 43)))
        #expect(Git.supportsDriverLabels((2, 44)))
        #expect(Git.supportsDriverLabels((3, 0)))
    }

    @Test("a version that is not UTF-8, holds conflict markers or is too large is left to a line merge")
    func lineMergeReasons() {
        #expect(ListMerge.lineMergeReason(Array("- [ ] ok\n".utf8)) == nil)
        #expect(ListMerge.lineMergeReason([0x2D, 0x20, 0xFF, 0x0A]) == "not valid UTF-8")
        #expect(ListMerge.lineMergeReason(Array("<<<<<<< a\n- [ ] x\n".utf8)) == "holds conflict markers")
        // Markers of a larger conflict-marker-size (a virtual base of a criss-cross merge under it).
        #expect(ListMerge.lineMergeReason(Array("- [ ] x\n>>>>>>>>>>>> b\n".utf8)) == "holds conflict markers")
        #expect(ListMerge.lineMergeReason([UInt8](repeating: 0x61, count: ListMerge.sizeLimit + 1)) != nil)
        #expect(ListMerge().merge(base: [0xFF], ours: [0x61], theirs: [0x62]) == nil)
    }
}

@Suite("merge: random line edits of odd Markdown")
struct ListMergeRobustnessTests {
    static let pool = [
        "# Title", "## Section", "Setext", "======", "-----", "", "   ", "Some prose.", "> - [ ] quoted task",
        "- [ ] Alpha", "- [x] Beta done:2026-11-30", "  - [ ] Sub one", "    - [ ] Deep", "1. [ ] Ordered",
        "* [ ] Star item !!", "- Plain item", "  A note line.", "```", "- [ ] in code?", "    indented code",
        "- [ ] Gamma due:2026-12-01 #tag", "- [ ] Gamma due:2026-12-02 #tag", "\t- [ ] Tabbed", "---", "color: red",
        "- [ ] Delta id:d1", "- [ ] Delta renamed id:d1", "<!-- comment -->", "- [ ]", "- [ ] rec:1w due:2026-12-01 Plants",
    ]

    private func randomLines(_ g: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...14, using: &g)).map { _ in Self.pool.randomElement(using: &g)! }
    }

    private func edited(_ lines: [String], _ g: inout SeededGenerator) -> [String] {
        var out = lines
        for _ in 0..<Int.random(in: 0...4, using: &g) {
            let choice = Int.random(in: 0..<3, using: &g)
            if choice == 0 || out.isEmpty {
                out.insert(Self.pool.randomElement(using: &g)! + " \(Int.random(in: 0..<9, using: &g))",
                           at: Int.random(in: 0...out.count, using: &g))
            } else if choice == 1 {
                out.remove(at: Int.random(in: 0..<out.count, using: &g))
            } else {
                out[Int.random(in: 0..<out.count, using: &g)] = Self.pool.randomElement(using: &g)!
            }
        }
        return out
    }

    private func bytes(_ lines: [String], _ eol: String, _ finalNewline: Bool) -> [UInt8] {
        Array((lines.joined(separator: eol) + (finalNewline && !lines.isEmpty ? eol : "")).utf8)
    }

    @Test("never traps, and keeps every line outside tasks that either side added", arguments: 0..<1000)
    func randomEdits(_ seed: UInt64) throws {
        try check(seed, merge: ListMerge())
    }

    @Test("the same with git merge-file merging the regions outside tasks", arguments: 1000..<1150)
    func randomEditsWithGit(_ seed: UInt64) throws {
        let merge = ListMerge { b, o, t in Git.mergeFile(base: b, ours: o, theirs: t, markerSize: 7, labels: MergeLabels(),
                                                                       surroundings: Subprocess.Surroundings(environment: ProcessInfo.processInfo.environment)) }
        try check(seed, merge: merge)
    }

    private func check(_ seed: UInt64, merge: ListMerge) throws {
        var g = SeededGenerator(seed: seed)
        let eol = ["\n", "\r\n"].randomElement(using: &g)!
        let base = randomLines(&g)
        let ours = edited(base, &g), theirs = edited(base, &g)
        let b = bytes(base, eol, Bool.random(using: &g)), o = bytes(ours, eol, Bool.random(using: &g))
        let t = bytes(theirs, eol, Bool.random(using: &g))
        guard let outcome = merge.merge(base: b, ours: o, theirs: t) else { return }
        let result = String(decoding: outcome.bytes, as: UTF8.self)
        let resultLines = Set(result.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init))
        for line in Set(ours + theirs).subtracting(base)
        where !line.contains("[ ]") && !line.contains("[x]") && !line.allSatisfy({ $0 == " " }) {
            #expect(resultLines.contains(line), """
                seed \(seed): '\(line)' lost:
                \(result)
                base: \(base.debugDescription)
                ours: \(ours.debugDescription)
                theirs: \(theirs.debugDescription)
                """)
        }
        if outcome.conflicts == 0 { #expect(!result.contains("<<<<<<<")) }
    }
}
