// The last step of every edit: splice new bytes in, re-parse, and check that the result holds
// exactly the intended tasks, trying structure fixes when it does not.

// MARK: - Splicing and verification

extension Document {
    /// What a task should look like after an edit: the fields that re-parsing must reproduce.
    struct Expected: Equatable, Sendable {
        var done: Bool
        var title: String
        var due: DueDate?
        var doneDate: Day?
        var priority: Priority
        var flagged: Bool
        var id: String?
        var tags: [String]
        var depth: Int
        var parent: Int?
        var section: String?
        var notes: String
        var recurrence: RecurrenceRule? = nil
        var until: Day? = nil
        var scheduled: Day? = nil
        var start: Day? = nil
        var repeatPhrase: String? = nil
        /// The title and tags are whatever the edited title line reads as (see `setTitle(of:_:after:allSplices:)`):
        /// set only when the edited list is read over the kept outline, each title line scanned by the parse.
        var titleAsRead = false
    }

    func expectedModel() -> [Expected] {
        tasks.indices.map(expected)
    }

    /// What task `i` reads as, in the fields an edit must reproduce.
    func expected(_ i: Int) -> Expected {
        let t = tasks[i]
        return Expected(done: t.done, title: t.title, due: t.due, doneDate: t.doneDate, priority: t.priority,
                        flagged: t.flagged, id: t.id, tags: t.tags, depth: t.depth, parent: t.parent, section: t.section,
                        notes: notes[i], recurrence: t.recurrence, until: t.until,
                        scheduled: t.scheduled, start: t.start, repeatPhrase: t.repeatPhrase)
    }

    /// What an edited list's tasks should read as, kept as the tasks of the list before the edit
    /// and what the edit changes: tasks inserted at one index or a run of tasks removed (the
    /// parents of the tasks after them shifted), and tasks replaced. An edit of one task in a list
    /// of a million so never holds a model of them all beside the list and its edited form.
    struct ExpectedTasks {
        private let base: Document
        /// Where `inserted` goes, in the edited list.
        private var insertAt = 0
        private var inserted: [Expected] = []
        /// The tasks of `base` that the edit removes.
        private var removed = 0..<0
        /// Tasks replaced, by their index in the edited list.
        private var changed: [Int: Expected] = [:]
        /// With several runs removed: the index in `base` of each task kept, and each task's
        /// index in the edited list (by its index in `base`).
        private var kept: [Int]? = nil
        private var newIndex: [Int] = []

        /// The tasks of `base`, unchanged.
        init(_ base: Document) { self.base = base }

        /// The tasks of `base` with `tasks` inserted at index `at` (whose parents are indexes in
        /// the edited list); the parents of `base`'s tasks from `at` on shift by their count.
        init(_ base: Document, inserting tasks: [Expected], at: Int) {
            self.base = base
            insertAt = at
            inserted = tasks
        }

        /// The tasks of `base` without `range` (a task with its subtasks); the parents after it shift.
        init(_ base: Document, removing range: Range<Int>) {
            self.base = base
            removed = range
        }

        /// The tasks of `base` without `ranges` (ascending, each a task with its subtasks); the
        /// parents after them shift.
        init(_ base: Document, removing ranges: [Range<Int>]) {
            self.base = base
            var kept: [Int] = []
            kept.reserveCapacity(base.tasks.count)
            newIndex = [Int](repeating: -1, count: base.tasks.count)
            var r = 0
            for i in base.tasks.indices {
                while r < ranges.count, ranges[r].upperBound <= i { r += 1 }
                if r < ranges.count, ranges[r].contains(i) { continue }
                newIndex[i] = kept.count
                kept.append(i)
            }
            self.kept = kept
        }

        var count: Int { (kept?.count ?? base.tasks.count - removed.count) + inserted.count }

        subscript(i: Int) -> Expected {
            get {
                if let e = changed[i] { return e }
                if let kept {
                    var e = base.expected(kept[i])
                    e.parent = e.parent.map { newIndex[$0] }
                    return e
                }
                if i >= insertAt && i < insertAt + inserted.count { return inserted[i - insertAt] }
                let kept = i < insertAt ? i : i - inserted.count
                var e = base.expected(kept < removed.lowerBound ? kept : kept + removed.count)
                if let p = e.parent {
                    if p >= removed.upperBound { e.parent = p - removed.count }
                    if !inserted.isEmpty && p >= insertAt { e.parent = p + inserted.count }
                }
                return e
            }
            set { changed[i] = newValue }
        }
    }

    /// Whether this document's tasks read as `expected`, one task at a time.
    func reads(as expected: ExpectedTasks) -> Bool {
        tasks.count == expected.count && tasks.indices.allSatisfy { reads($0, as: expected[$0]) }
    }

    /// Whether task `i` reads as `e`: `expected(i) == e`, field by field without building `expected(i)`
    /// (the title and tags as they are when `e.titleAsRead`).
    func reads(_ i: Int, as e: Expected) -> Bool {
        tasks[i].done == e.done && tasks[i].due == e.due && tasks[i].doneDate == e.doneDate
            && tasks[i].priority == e.priority && tasks[i].flagged == e.flagged && tasks[i].id == e.id
            && tasks[i].depth == e.depth && tasks[i].parent == e.parent && tasks[i].section == e.section
            && tasks[i].recurrence == e.recurrence && tasks[i].until == e.until && tasks[i].scheduled == e.scheduled
            && tasks[i].start == e.start && tasks[i].repeatPhrase == e.repeatPhrase && notes[i] == e.notes
            && (e.titleAsRead || (tasks[i].title == e.title && tasks[i].tags == e.tags))
    }

    /// Whether this document's tasks read as `other`'s do (an edit that must not change any task).
    func readsLike(_ other: Document) -> Bool {
        tasks.count == other.tasks.count && tasks.indices.allSatisfy { expected($0) == other.expected($0) }
    }

    struct Splice {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// Applies `splices` (sorted, not overlapping), re-parses, and checks the result against
    /// `expected`; when it differs, tries each of `alternatives` in turn (each a structure fix).
    ///
    /// Besides the tasks, every edit keeps what lies outside them: the byte order mark, the front
    /// matter and the list's name.
    func apply(_ splices: [Splice], expecting expected: ExpectedTasks, task: Int?,
               alternatives: [[Splice]] = []) throws(EditError) -> EditResult {
        for (attempt, candidate) in ([splices] + alternatives).enumerated() {
            let out = splicing(candidate)
            let document = reading(out, splices: candidate)
            guard keepsFileParts(document), document.reads(as: expected) else { continue }
            let lo = candidate.map(\.range.lowerBound).min() ?? 0
            let hi = candidate.map(\.range.upperBound).max() ?? 0
            let growth = out.count - bytes.count
            var fixes: [StructureFix] = []
            if attempt > 0 {
                // An alternative adds blank lines beside the plain splice; name where they went.
                let plain = reading(splicing(splices))
                fixes = blankLinesAdded(from: plain, to: document)
            }
            return EditResult(document: document, task: task, fixes: fixes,
                              replaced: lo..<hi, replacement: lo..<(hi + growth))
        }
        let line = lines.line(containing: min(splices.first?.range.lowerBound ?? 0, max(bytes.count - 1, 0)))
        throw EditError(reason: .structure, line: line,
                        message: "line \(line): the edit would change the list's structure (an unclosed code fence or HTML block, or text that reads as a list item); refusing it")
    }

    /// Whether `edited` keeps this document's byte order mark, front matter and name.
    func keepsFileParts(_ edited: Document) -> Bool {
        guard edited.bomLength == bomLength, edited.heading == heading else { return false }
        switch (frontMatter, edited.frontMatter) {
        case (nil, nil): return true
        case (let a?, let b?): return a.fields.elementsEqual(b.fields) { $0 == $1 }
        default: return false
        }
    }

    func splicing(_ splices: [Splice]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + splices.reduce(0) { $0 + $1.bytes.count - $1.range.count })
        var cursor = 0
        for s in splices.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            out += bytes[cursor..<s.range.lowerBound]
            out += s.bytes
            cursor = s.range.upperBound
        }
        return out + bytes[cursor...]
    }

    /// The lines of `fixed` that are blank lines missing from `plain`.
    private func blankLinesAdded(from plain: Document, to fixed: Document) -> [StructureFix] {
        var fixes: [StructureFix] = []
        var p = 1
        var f = 1
        while f <= fixed.lineCount {
            if p <= plain.lineCount, plain.lineText(p) == fixed.lineText(f) {
                p += 1
            } else {
                fixes.append(.blankLine(at: f))
            }
            f += 1
        }
        return fixes
    }
}

extension Document.Expected {
    /// A Tasks phrase counting from the due date (`every week`) on a task without one counts from
    /// the completion, as parsing reads it (FORMAT.md 11).
    mutating func countPhraseFromCompletionWithoutDue() {
        guard let phrase = repeatPhrase, let rule = ObsidianFields.rule(Array(phrase.utf8)[...]) else { return }
        recurrence = rule.mode == .due && due == nil ? RecurrenceRule(count: rule.count, unit: rule.unit, mode: .completion) : rule
    }
}
