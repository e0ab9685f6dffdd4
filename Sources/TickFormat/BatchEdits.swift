// Changes of many tasks at once: every task's splices computed against the list as it is, spliced
// in one pass, re-parsed once and checked once. One task at a time, each edit would splice, parse
// and check the whole list again: a change of n tasks cost n times the list.

/// A change to one task's title line that adds no line and no task (a box ticked, a token set or
/// removed): what a change of many tasks applies to all of them at once.
public enum LineEdit: Sendable, Equatable {
    /// Ticks the box and writes `done:` with the day (true), or clears both (false). Repeating
    /// tasks are the caller's to tell apart: this never moves one to its next occurrence.
    case done(Bool, on: Day)
    case due(DueDate?)
    case priority(Priority)
    case flag(Bool)
    case id(String?)
    case recurrence(RecurrenceRule?)
    case until(Day?)
    /// Sets the start date (`🛫 DATE`, `[start:: DATE]`) in place, or removes it (nil). A task
    /// without one gets it in its own style, as a signifier in tick's.
    case start(Day?)
}

extension Document {
    /// The splices of one task's line edit (against this document), and what the task reads as after them.
    struct LineChange {
        var splices: [Splice]
        var expected: Expected
    }

    /// `change` of task `i` applied alone: spliced, re-parsed and checked.
    func apply(_ change: LineChange, to i: Int) throws(EditError) -> EditResult {
        var expected = ExpectedTasks(self)
        expected[i] = change.expected
        return try apply(change.splices, expecting: expected, task: i)
    }

    /// `edits` (at most one for each task, in ascending task order) applied together: one splice of
    /// the bytes, one parse, one check that every task reads as the edits intend and the others as
    /// before. Nil when the result does not read so (an edit that would change the list's
    /// structure): apply them one at a time then, which tries the structure fixes and names the
    /// line. An edit that cannot be made at all throws as it does alone.
    public func applyingTogether(_ edits: [(task: Int, edit: LineEdit)]) throws(EditError) -> Document? {
        // What each edited task should read as, in task order (the others read as they do now).
        var changed: [(task: Int, expected: Expected)] = []
        changed.reserveCapacity(edits.count)
        var splices: [Splice] = []
        splices.reserveCapacity(edits.count)
        var previous = -1
        // The tasks whose title and tags are as read, and whether every task's are (see `setTitle`).
        var asRead: [(changed: Int, splices: Range<Int>)] = []
        var allAsRead = true
        var doneToken: (day: Day, token: DoneToken)? = nil
        for (i, edit) in edits {
            guard i > previous else { return nil }
            previous = i
            let change: LineChange
            if case .done(let done, let day) = edit {
                if doneToken?.day != day { doneToken = (day, DoneToken(day)) }
                change = try lineChange(i, settingDone: done, on: day, token: doneToken!.token)
            } else {
                change = try lineChange(i, edit)
            }
            // A task's splices lie on its own title line, after those of the tasks before it.
            guard change.splices.first.map({ $0.range.lowerBound >= (splices.last?.range.upperBound ?? 0) }) ?? true else { return nil }
            let start = splices.count
            splices += change.splices
            if change.expected.titleAsRead { asRead.append((changed.count, start..<splices.count)) } else { allAsRead = false }
            changed.append((i, change.expected))
        }
        // Read over the kept outline only when every task's splices stay inside its title line;
        // otherwise cmark reads the list again, and every title is checked against its scan here.
        if !allAsRead {
            for (k, range) in asRead {
                let task = tasks[changed[k].task]
                let own = splices[range].filter { $0.range.lowerBound >= task.titleRange.lowerBound }
                (changed[k].expected.title, changed[k].expected.tags) = titleAfter(task, Array(own))
                changed[k].expected.titleAsRead = false
            }
        }
        let document = allAsRead ? reading(splicing(splices), overOutline: true) : reading(splicing(splices), splices: splices)
        guard keepsFileParts(document), document.tasks.count == tasks.count else { return nil }
        var c = 0
        for i in tasks.indices {
            if c < changed.count, changed[c].task == i {
                guard document.reads(i, as: changed[c].expected) else { return nil }
                c += 1
            } else if !document.reads(i, as: expected(i)) {
                return nil
            }
        }
        return document
    }
}

// MARK: - Many new tasks

extension Document {
    /// Inserts `tasks` in order where `inserting(_:at: .unsectioned)` puts one, each followed by its
    /// `id:` token when it has one: the bytes of inserting them one at a time, but the tasks after
    /// the first are written from the form of the one before them, spliced in together and checked
    /// with one parse of the list.
    public func insertingUnsectioned(_ tasks: [(task: NewTask, id: String?)]) throws(EditError) -> Document {
        guard let first = tasks.first else { return self }
        var (document, index) = try insertingUnsectioned(first)
        let rest = tasks.dropFirst()
        guard !rest.isEmpty else { return document }
        if let together = try document.following(index, with: rest) { return together }
        for task in rest { (document, index) = try document.insertingUnsectioned(task) }
        return document
    }

    /// One task inserted outside sections, with its `id:` token; the document and the task's index.
    private func insertingUnsectioned(_ new: (task: NewTask, id: String?)) throws(EditError) -> (Document, Int) {
        let result = try inserting(new.task, at: .unsectioned)
        guard let id = new.id else { return (result.document, result.task!) }
        return (try result.document.settingID(result.task!, id).document, result.task!)
    }

    /// `tasks` written after task `n` (the last task outside sections, just inserted) as inserting
    /// them one by one writes each after the one before, in one splice; nil when that does not
    /// read as intended (or a task is in a style other than tick's): insert them one at a time then.
    func following(_ n: Int, with tasks: ArraySlice<(task: NewTask, id: String?)>) throws(EditError) -> Document? {
        let last = self.tasks[n]
        guard tasks.allSatisfy({ $0.task.style == .tick }), last.parent == nil, last.section == nil,
              descendantsEnd(n) == n + 1, self.tasks.lastIndex(where: { $0.parent == nil && $0.section == nil }) == n
        else { return nil }
        let after = last.contentEndLine
        // At the end of a file without a final line ending, each new task's text goes after a line
        // ending and has none of its own (as `insertionSplices` writes it).
        let tail = lines.count > 0 && after >= lines.count && lines.ending(lines.count, in: bytes) == nil
        var form = itemForm(at: InsertionSite(neighbour: n, after: after, section: nil),
                            for: TaskFragment(lines: [[]], markerLength: 0, expected: []), canonicalMarker: true)
        let fallbackEnding = lineEnding.bytes
        var text: [UInt8] = []
        // The line of a task without notes: its title and a few tokens.
        text.reserveCapacity(tasks.reduce(0) { $0 + $1.task.title.utf8.count + $1.task.notes.utf8.count + 48 })
        var expected: [Expected] = []
        expected.reserveCapacity(tasks.count)
        // A task of one line goes straight into `text`, as `appendFragmentLines` writes a fragment's
        // first line: the form's prefix, marker and spacing, then the line after its marker.
        let direct = !tail && form.marker.first.map { !isSpaceOrTab($0) } == true
        for (new, id) in tasks {
            if direct, id == nil, new.notes.isEmpty {
                text += form.prefix
                text += form.marker
                text += form.spacing
                expected.append(try appendNewTaskLine(new, to: &text))
                text += form.ending
                form.marker = nextMarker(after: form.marker)
                continue
            }
            var fragment = try fragment(new)
            var e = fragment.expected[0]
            if let id {
                // `settingID` on the new task: ` id:VALUE` where a token goes on its title line.
                let line = fragment.lines[0]
                guard let box = line.firstIndex(of: UInt8(ascii: "[")) else { return nil }
                let at = Document.tokenInsertionPoint(line, (box + 3)..<line.count)
                fragment.lines[0] = Array(line[..<at]) + Array(" id:\(id)".utf8) + Array(line[at...])
                e.id = id
            }
            if tail {
                let written = fragmentLines(fragment, in: form)
                text += form.ending + written.dropLast(form.ending.count)
            } else {
                appendFragmentLines(fragment, in: form, to: &text)
            }
            expected.append(e)
            // The next task copies this one: its marker's successor, and its first line's ending
            // (none when it is the last line of a file without one).
            form.marker = nextMarker(after: form.marker)
            if tail && fragment.lines.count == 1 { form.ending = fallbackEnding }
        }
        let at = lines.end(after)
        let expecting = ExpectedTasks(self, inserting: expected, at: n + 1)
        // At the end of the list, the new lines' blocks are known without cmark (`outlineAppending`).
        if at == bytes.count {
            let document = reading(bytes + text, appending: text)
            return keepsFileParts(document) && document.reads(as: expecting) ? document : nil
        }
        do {
            let result = try apply([Splice(range: at..<at, bytes: text)], expecting: expecting, task: nil)
            guard result.fixes.isEmpty else { return nil }
            return result.document
        } catch {
            return nil
        }
    }
}
