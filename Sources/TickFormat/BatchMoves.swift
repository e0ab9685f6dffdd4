// Moves of many tasks at once: the tasks leaving a list spliced out together, and the tasks
// arriving at its end spliced in together, each re-parsed and checked once. One task at a time,
// each removal or insertion parsed and checked the whole list again.

// MARK: - Many tasks removed

extension Document {
    /// Removes tasks `indexes` (ascending, none inside another) with their notes, subtasks and
    /// blank lines: the bytes of `removing(_:)` applied to them one at a time from the last, in one
    /// splice, one parse and one check. Nil when the result does not read as that (a removal that
    /// needs a structure fix) or the file has a lone CR line ending: remove them one at a time then.
    public func removingTogether(_ indexes: [Int]) throws(EditError) -> Document? {
        var previous = -1
        for i in indexes {
            _ = try task(i)
            guard i >= previous else { return nil }
            previous = descendantsEnd(i)
        }
        guard !indexes.isEmpty else { return self }
        // A lone CR ending (a file of old Mac lines, or mixed ones) can meet an LF across a removed
        // run and become one CRLF ending: one at a time, each step's check picks another splice.
        var cr = bytes.firstIndex(of: 13)
        while let at = cr {
            guard at + 1 < bytes.count, bytes[at + 1] == 10 else { return nil }
            cr = bytes[(at + 2)...].firstIndex(of: 13)
        }
        // From the last task back, each task's lines as removing it then takes them: its blank
        // lines are its own only while a task follows them once the later tasks are gone.
        var startsTask = [Bool](repeating: false, count: lines.count + 2)
        for t in tasks { startsTask[t.firstLine] = true }
        var removedAt: [Int: Int] = [:]  // first line of a removed run → its last line
        var runs: [(first: Int, last: Int)] = []
        for i in indexes.reversed() {
            let task = tasks[i]
            var next = task.contentEndLine + 1
            var blanks = false
            while next <= lines.count {
                if let last = removedAt[next] {
                    next = last + 1
                } else if isBlank(next, quoteDepth: task.quoteDepth) {
                    blanks = true
                    next += 1
                } else {
                    break
                }
            }
            let last = next <= lines.count && startsTask[next] && blanks ? next - 1 : task.contentEndLine
            // A run that this one reaches into or touches is part of it.
            var end = last
            while let later = runs.last, later.first <= last + 1 { end = max(end, later.last); runs.removeLast() }
            runs.append((task.firstLine, end))
            removedAt[task.firstLine] = end
        }
        guard removalsStayLocal(indexes, runs: runs, startsTask: startsTask) else { return nil }
        var splices: [Splice] = []
        splices.reserveCapacity(runs.count)
        for run in runs.reversed() {
            splices.append(Splice(range: textStart(run.first)..<lines.end(run.last), bytes: []))
        }
        let expected = ExpectedTasks(self, removing: indexes.map { $0..<descendantsEnd($0) })
        let document = reading(splicing(splices))
        guard keepsFileParts(document), document.reads(as: expected) else { return nil }
        return document
    }
}

extension Document {
    /// Whether removing the tasks one at a time from the last can only change the list where each
    /// is taken out, as removing them all at once does: every task removed is an item at the start
    /// of its line outside block quotes, each run of removed lines is followed by the end of the
    /// list, a blank line or a task kept in the same form, and preceded by a blank line, the start of the
    /// text or a line of a task kept. Then each removal leaves the same neighbours, one at a time
    /// or all at once.
    func removalsStayLocal(_ indexes: [Int], runs: [(first: Int, last: Int)], startsTask: [Bool]) -> Bool {
        var removedLine = [Bool](repeating: false, count: lines.count + 2)
        for run in runs { for n in run.first...run.last { removedLine[n] = true } }
        var keptLine = [Bool](repeating: false, count: lines.count + 2)
        var taskAt = [Int](repeating: -1, count: lines.count + 2)
        for (i, t) in tasks.enumerated() {
            taskAt[t.firstLine] = i
            if !removedLine[t.firstLine] { for n in t.firstLine...t.lastLine { keptLine[n] = true } }
        }
        func kind(_ i: Int) -> UInt8? {
            let t = tasks[i]
            guard t.quoteDepth == 0, t.marker.lowerBound == textStart(t.firstLine), let last = bytes[t.marker].last
            else { return nil }
            return last
        }
        var byRun: [Int: UInt8] = [:]  // first line of a run → the marker kind of its tasks
        var r = 0
        let ordered = runs.reversed() as ReversedCollection
        let firsts = ordered.map(\.first)
        for i in indexes {
            guard let k = kind(i) else { return false }
            while r + 1 < firsts.count, firsts[r + 1] <= tasks[i].firstLine { r += 1 }
            if let seen = byRun[firsts[r]], seen != k { return false }
            byRun[firsts[r]] = k
        }
        for run in runs {
            let before = run.first - 1
            if before >= 1, !isBlank(before, quoteDepth: 0), !keptLine[before] { return false }
            let after = run.last + 1
            guard after <= lines.count, !isBlank(after, quoteDepth: 0) else { continue }
            guard startsTask[after], taskAt[after] >= 0, let k = kind(taskAt[after]), k == byRun[run.first] else { return false }
        }
        return true
    }
}

// MARK: - Many tasks inserted

extension Document {
    /// Inserts `fragments` in order at the end of the list: the bytes of inserting them one at a
    /// time with `inserting(_:at: .end)` (each written in the form of the one before it), in one
    /// splice and one check after the first. The document and the index of each fragment's task;
    /// falls back to one at a time when the splice does not read as intended.
    public func insertingAtEnd(_ fragments: [TaskFragment]) throws(EditError) -> (document: Document, tasks: [Int]) {
        guard let first = fragments.first else { return (self, []) }
        let result = try inserting(first, at: .end)
        let rest = fragments.dropFirst()
        if let together = result.document.following(result.task!, withFragments: rest) {
            return (together.document, [result.task!] + together.tasks)
        }
        var document = result.document
        var indexes = [result.task!]
        for fragment in rest {
            let next = try document.inserting(fragment, at: .end)
            document = next.document
            indexes.append(next.task!)
        }
        return (document, indexes)
    }

    /// `fragments` written after task `n` (the last task outside all others, just inserted at the
    /// end) as inserting them one at a time at the end writes each after the one before, in one
    /// splice; nil when that does not read as intended.
    func following(_ n: Int, withFragments fragments: ArraySlice<TaskFragment>) -> (document: Document, tasks: [Int])? {
        guard !fragments.isEmpty else { return (self, []) }
        let last = tasks[n]
        guard last.parent == nil, descendantsEnd(n) == tasks.count, tasks.lastIndex(where: { $0.parent == nil }) == n
        else { return nil }
        let after = last.contentEndLine
        // At the end of a file without a final line ending, each new task's text goes after a line
        // ending and has none of its own (as `insertionSplices` writes it).
        let tail = lines.count > 0 && after >= lines.count && lines.ending(lines.count, in: bytes) == nil
        var form = itemForm(at: InsertionSite(neighbour: n, after: after, section: last.section),
                            for: fragments.first!, canonicalMarker: false)
        let fallbackEnding = lineEnding.bytes
        var text: [UInt8] = []
        var expected: [Expected] = []
        var indexes: [Int] = []
        indexes.reserveCapacity(fragments.count)
        for fragment in fragments {
            let start = tasks.count + expected.count
            indexes.append(start)
            for (k, e) in fragment.expected.enumerated() {
                var e = e
                e.parent = k == 0 ? nil : e.parent.map { $0 + start }
                e.section = last.section
                expected.append(e)
            }
            let written = fragmentLines(fragment, in: form)
            text += tail ? form.ending + written.dropLast(form.ending.count) : written
            form.marker = nextMarker(after: form.marker)
            if tail && fragment.lines.count == 1 { form.ending = fallbackEnding }
        }
        let at = lines.end(after)
        do {
            let result = try apply([Splice(range: at..<at, bytes: text)],
                                   expecting: ExpectedTasks(self, inserting: expected, at: tasks.count), task: nil)
            guard result.fixes.isEmpty else { return nil }
            // Each copied the spacing after the marker of the one before: that holds only where
            // the title is on the marker's line.
            let document = result.document
            guard ([n] + indexes).allSatisfy({ document.tasks[$0].firstLine == document.tasks[$0].line }) else { return nil }
            return (document, indexes)
        } catch {
            return nil
        }
    }
}
