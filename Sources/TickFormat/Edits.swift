/// Why tick refused an edit. Edits never half-apply: a refused edit leaves the document as it was.
public struct EditError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The task index does not exist.
        case noSuchTask
        /// A line break in a title, or another value that cannot be written.
        case badValue
        /// The edit would change which tasks the file holds (an unclosed code fence swallowing the new
        /// task, a note that starts a list item, …) and no blank line fixes it.
        case structure
        /// `section:` named a heading the document does not have.
        case noSuchSection
    }

    public var reason: Reason
    /// 1-based line the problem is about.
    public var line: Int
    public var message: String

    public var description: String { message }
}

/// A change tick made around an edit to keep the structure: re-parsing must find exactly the
/// intended tasks, and sometimes a plain splice would not.
public enum StructureFix: Equatable, Sendable {
    /// A blank line (or a bare `>` line inside a block quote) was inserted; the line number is in
    /// the new document.
    case blankLine(at: Int)
}

/// The outcome of an edit.
public struct EditResult: Sendable {
    /// The edited document, re-parsed.
    public var document: Document
    /// The edited, inserted or moved task's index in `document` (nil after a removal).
    public var task: Int?
    /// Fixes applied beside the edit itself.
    public var fixes: [StructureFix]
    /// The byte range of the original document that the edit replaced, and the range of the new
    /// document that replaced it. Everything before and after is byte-identical (fixes aside).
    public var replaced: Range<Int>
    public var replacement: Range<Int>
}

/// A task to insert.
public struct NewTask: Sendable, Equatable {
    public var title: String
    public var done: Bool
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    public var notes: String

    public init(title: String, done: Bool = false, due: DueDate? = nil, doneDate: Day? = nil,
                priority: Priority = .none, flagged: Bool = false, notes: String = "") {
        self.title = title
        self.done = done
        self.due = due
        self.doneDate = doneDate
        self.priority = priority
        self.flagged = flagged
        self.notes = notes
    }
}

/// Where a new task goes.
public enum InsertionPoint: Sendable, Equatable {
    /// After the last top-level task of the list (at the end of the file when it has none).
    case end
    /// After the last top-level task under the first heading with this text (case-insensitive).
    case section(String)
    /// As a subtask of the task with this index, after its last subtask.
    case subtask(of: Int)
}

extension InsertionPoint {
    /// Whether a task inserted here without a neighbouring task starts a new block, after a blank line.
    var startsBlock: Bool {
        if case .subtask = self { return false }
        return true
    }
}

/// A task taken out of a document with its notes and subtasks, ready to go into another one.
public struct TaskFragment: Sendable {
    /// The lines, without line endings and without the container prefix before the marker.
    var lines: [[UInt8]]
    /// Byte length of the list marker at the start of `lines[0]`.
    var markerLength: Int
    /// The tasks it holds, as the expected model for verification.
    var expected: [Document.Expected]
}

// MARK: - Edits of one task

extension Document {
    /// Marks task `i` done (writing `done:` with `day`) or open (removing `done:`).
    public func settingDone(_ i: Int, _ done: Bool, on day: Day) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var splices: [Splice] = []
        let state = bytes[task.checkbox + 1]
        if done != task.done || (done && state == 0x20) {
            splices.append(Splice(range: (task.checkbox + 1)..<(task.checkbox + 2), bytes: [done ? UInt8(ascii: "x") : 0x20]))
        }
        let tokenEdit = tokenSplices(task, kind: .done(day), text: done ? "done:\(day)" : nil)
        splices += tokenEdit
        var expected = expectedModel()
        expected[i].done = done
        expected[i].doneDate = done ? day : nil
        (expected[i].title, expected[i].tags) = titleAfter(task, tokenEdit)
        return try apply(splices, expecting: expected, task: i)
    }

    public func settingDue(_ i: Int, _ due: DueDate?) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = expectedModel()
        expected[i].due = due
        let splices = tokenSplices(task, kind: .due(due ?? DueDate(day: Day(daysSinceEpoch: 0))), text: due.map { "due:\($0)" })
        (expected[i].title, expected[i].tags) = titleAfter(task, splices)
        return try apply(splices, expecting: expected, task: i)
    }

    public func settingPriority(_ i: Int, _ priority: Priority) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = expectedModel()
        expected[i].priority = priority
        let splices = tokenSplices(task, kind: .priority(priority.rawValue), text: priority.token)
        (expected[i].title, expected[i].tags) = titleAfter(task, splices)
        return try apply(splices, expecting: expected, task: i)
    }

    public func settingFlag(_ i: Int, _ flagged: Bool) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = expectedModel()
        expected[i].flagged = flagged
        let splices = tokenSplices(task, kind: .flag, text: flagged ? "#flag" : nil)
        (expected[i].title, expected[i].tags) = titleAfter(task, splices)
        return try apply(splices, expecting: expected, task: i)
    }

    /// Gives task `i` the `id:` token `id` (replacing the one it has), or removes it (nil).
    public func settingID(_ i: Int, _ id: String?) throws(EditError) -> EditResult {
        let task = try self.task(i)
        var expected = expectedModel()
        expected[i].id = id
        let splices = tokenSplices(task, kind: .id(id ?? ""), text: id.map { "id:\($0)" })
        (expected[i].title, expected[i].tags) = titleAfter(task, splices)
        return try apply(splices, expecting: expected, task: i)
    }

    /// Replaces the title text of task `i`, keeping its metadata tokens as written, in order.
    /// The title must not hold metadata tokens itself (take them out and set them separately).
    public func retitling(_ i: Int, _ title: String) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let newTitle = Array(trimmedSeparators(Array(title.utf8)))
        try checkTitle(newTitle, line: task.line)
        // Keep the separators right after the checkbox and the trailing whitespace or hard break.
        var start = task.titleRange.lowerBound
        while start < task.titleRange.upperBound, case let n = separatorLength(bytes, start, task.titleRange.upperBound), n > 0 { start += n }
        let end = max(start, titleInsertionPoint(task))
        var text = newTitle
        for token in task.tokens {
            if !text.isEmpty { text.append(0x20) }
            text.append(contentsOf: bytes[token.range])
        }
        let splice = Splice(range: start..<end, bytes: text)
        var expected = expectedModel()
        // Read with what stays after it: trailing whitespace, a backslash after whitespace.
        (expected[i].title, expected[i].tags) = titleAfter(task, [splice])
        return try apply([splice], expecting: expected, task: i)
    }

    /// Replaces the notes of task `i`: every note line goes, the new lines follow the title line.
    public func replacingNotes(_ i: Int, _ notes: String) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let noteLines = noteLines(i)
        var splices: [Splice] = []
        // Remove the note lines, merged into runs.
        var k = 0
        while k < noteLines.count {
            var j = k
            while j + 1 < noteLines.count, noteLines[j + 1] == noteLines[j] + 1 { j += 1 }
            splices.append(Splice(range: lines.start(noteLines[k])..<lines.end(noteLines[j]), bytes: []))
            k = j + 1
        }
        let text = noteBytes(notes, for: task, endingAfter: task.line)
        if !text.isEmpty {
            let at = lines.end(task.line)
            if let first = splices.first, first.range.lowerBound == at {
                splices[0].bytes = text
            } else {
                splices.insert(Splice(range: at..<at, bytes: text), at: 0)
            }
        }
        var expected = expectedModel()
        expected[i].notes = normalizedNotes(notes)
        return try apply(splices, expecting: expected, task: i)
    }

    /// Adds lines to the notes of task `i`, after its last note line.
    public func appendingNote(_ i: Int, _ note: String) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let after = noteLines(i).last(where: { !isBlank($0, quoteDepth: task.quoteDepth) }) ?? task.line
        let text = noteBytes(note, for: task, endingAfter: after)
        var expected = expectedModel()
        let added = normalizedNotes(note)
        expected[i].notes = notes[i].isEmpty ? added : (added.isEmpty ? notes[i] : notes[i] + "\n" + added)
        let at = lines.end(after)
        return try apply(text.isEmpty ? [] : [Splice(range: at..<at, bytes: text)], expecting: expected, task: i)
    }

    /// Refuses a title that cannot be written as one: a line break, or metadata tokens that
    /// would be read back as metadata instead of title text.
    func checkTitle(_ title: [UInt8], line: Int) throws(EditError) {
        guard !title.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
            throw EditError(reason: .badValue, line: line, message: "a title is one line; it cannot hold a line break")
        }
        let scan = TitleLine(bytes: [0x20] + title, range: 0..<(title.count + 1), continuation: 0..<0)
        if let token = scan.tokens.first {
            let word = String(decoding: title[(token.range.lowerBound - 1)..<(token.range.upperBound - 1)], as: UTF8.self)
            throw EditError(reason: .badValue, line: line,
                            message: "'\(word)' in a title would be read as metadata; set it separately")
        }
    }

    private func task(_ i: Int) throws(EditError) -> Task {
        guard tasks.indices.contains(i) else {
            throw EditError(reason: .noSuchTask, line: 0, message: "no task number \(i) in this list")
        }
        return tasks[i]
    }
}

// MARK: - Inserting, removing, moving

extension Document {
    /// Inserts a new task in canonical form.
    public func inserting(_ new: NewTask, at point: InsertionPoint) throws(EditError) -> EditResult {
        let title = Array(trimmedSeparators(Array(new.title.utf8)))
        try checkTitle(title, line: 0)
        var line = [UInt8]("[\(new.done ? "x" : " ")] ".utf8) + title
        for token in [new.priority.token, new.flagged ? "#flag" : nil, new.due.map { "due:\($0)" },
                      new.done ? new.doneDate.map { "done:\($0)" } : nil].compactMap({ $0 }) {
            if line.count > 4 { line.append(0x20) }
            line.append(contentsOf: token.utf8)
        }
        let expected = Expected(done: new.done, title: String(decoding: title, as: UTF8.self), due: new.due,
                                doneDate: new.done ? new.doneDate : nil, priority: new.priority, flagged: new.flagged, id: nil,
                                tags: TitleLine(bytes: [0x20] + title, range: 0..<(title.count + 1), continuation: 0..<0).tags,
                                depth: 0, parent: nil, section: nil, notes: normalizedNotes(new.notes))
        var noteLines: [[UInt8]] = []
        if !expected.notes.isEmpty {
            noteLines = expected.notes.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        }
        let fragment = TaskFragment(lines: [[UInt8(ascii: "-"), 0x20] + line] + noteLines.map { $0.isEmpty ? [] : [0x20, 0x20] + $0 },
                                    markerLength: 1, expected: [expected])
        return try inserting(fragment, at: point, canonicalMarker: true)
    }

    /// Removes task `i` with its notes and subtasks (and the blank lines it owns).
    public func removing(_ i: Int) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let end = descendantsEnd(i)
        var expected = expectedModel()
        expected.removeSubrange(i..<end)
        let removed = end - i
        for k in expected.indices {
            if let p = expected[k].parent { expected[k].parent = p >= end ? p - removed : p }
        }
        let range = lines.start(task.firstLine)..<lines.end(task.lastLine)
        let blank = blankLine(like: task)
        return try apply([Splice(range: range, bytes: [])], expecting: expected, task: nil,
                         alternatives: [[Splice(range: range, bytes: blank + lineEnding.bytes)]])
    }

    /// Task `i` with its notes and subtasks, taken out of their container so they can be inserted
    /// into another document (see `inserting(_:at:)`); remove it here with `removing(_:)`.
    public func extracting(_ i: Int) throws(EditError) -> TaskFragment {
        let task = try self.task(i)
        let column = visualColumn(of: task.marker.lowerBound, line: task.firstLine)
        var result: [[UInt8]] = []
        for n in task.firstLine...task.contentEndLine {
            let from = n == task.firstLine ? task.marker.lowerBound : indentEnd(line: n, quoteDepth: task.quoteDepth, column: column)
            result.append(Array(bytes[from..<lines.contentEnd(n)]))
        }
        var expected = Array(expectedModel()[i..<descendantsEnd(i)])
        let base = expected[0].depth
        for k in expected.indices {
            expected[k].depth -= base
            expected[k].parent = expected[k].parent.map { $0 - i }
            if k == 0 { expected[k].parent = nil }
        }
        return TaskFragment(lines: result, markerLength: task.marker.count, expected: expected)
    }

    /// Inserts a fragment taken out of a document by `extracting(_:)`.
    public func inserting(_ fragment: TaskFragment, at point: InsertionPoint) throws(EditError) -> EditResult {
        try inserting(fragment, at: point, canonicalMarker: false)
    }

    private func inserting(_ fragment: TaskFragment, at point: InsertionPoint, canonicalMarker: Bool) throws(EditError) -> EditResult {
        // Find the neighbour whose form the new item copies, and the line after which it goes.
        var neighbour: Int? = nil
        var after: Int
        var depth = 0
        var parent: Int? = nil
        var sectionText: String? = nil
        switch point {
        case .end:
            neighbour = tasks.lastIndex { $0.parent == nil }
            after = neighbour.map { tasks[$0].contentEndLine } ?? lines.count
            sectionText = neighbour.map { tasks[$0].section } ?? sections.last.flatMap { $0.level == 1 ? nil : $0.text }
        case .section(let name):
            let wanted = name.lowercased()
            guard let s = sections.firstIndex(where: { $0.text.lowercased() == wanted }) else {
                throw EditError(reason: .noSuchSection, line: 0, message: "no section '\(name)' in this list")
            }
            let heading = sections[s]
            // Tasks under a deeper heading have that heading as their section, so the section's
            // own lines end at the next heading of any level.
            let next = sections[(s + 1)...].first
            let limit = next?.line ?? lines.count + 1
            neighbour = tasks.lastIndex { $0.parent == nil && $0.firstLine > heading.line && $0.firstLine < limit }
            if let neighbour {
                after = tasks[neighbour].contentEndLine
            } else {
                after = limit - 1
                while after > heading.line, isBlank(after, quoteDepth: 0) { after -= 1 }
                if let next, after >= next.line { after = heading.line }
            }
            sectionText = heading.level == 1 ? nil : heading.text
        case .subtask(of: let p):
            let parentTask = try task(p)
            let children = ((p + 1)..<descendantsEnd(p)).filter { tasks[$0].parent == p }
            neighbour = children.last
            after = neighbour.map { tasks[$0].contentEndLine } ?? parentTask.contentEndLine
            depth = parentTask.depth + 1
            parent = p
            sectionText = parentTask.section
        }
        // The prefix and marker to write.
        var prefix: [UInt8]
        var marker: [UInt8]
        var spacing: [UInt8] = [0x20]
        var ending = lineEnding.bytes
        if let n = neighbour {
            let t = tasks[n]
            prefix = continuationPrefix(Array(bytes[lines.start(t.firstLine)..<t.marker.lowerBound]))
            marker = nextMarker(after: Array(bytes[t.marker]))
            if t.firstLine == t.line { spacing = Array(bytes[t.marker.upperBound..<t.checkbox]) }
            if let e = lines.ending(t.firstLine, in: bytes) { ending = e.bytes }
        } else if case .subtask(of: let p) = point {
            prefix = continuationPrefix(Array(bytes[lines.start(tasks[p].line)..<tasks[p].checkbox]))
            marker = [UInt8(ascii: "-")]
        } else {
            prefix = []
            marker = canonicalMarker ? [UInt8(ascii: "-")] : Array(fragment.lines[0].prefix(fragment.markerLength))
        }

        // The new lines: the fragment re-marked and re-indented under the prefix.
        let afterMarker = fragment.lines[0].dropFirst(fragment.markerLength)
        let oldSpacing = afterMarker.isEmpty ? 1 : afterMarker.prefix(while: isSpaceOrTab).count
        let shift = (marker.count + spacing.count) - (fragment.markerLength + oldSpacing)
        var text: [UInt8] = []
        for (k, line) in fragment.lines.enumerated() {
            var body: [UInt8]
            if k == 0 {
                body = marker + spacing + Array(line.dropFirst(fragment.markerLength).drop(while: isSpaceOrTab))
            } else if shift > 0, !line.isEmpty {
                body = [UInt8](repeating: 0x20, count: shift) + line
            } else if shift < 0 {
                var drop = 0
                while drop < -shift, drop < line.count, line[drop] == 0x20 { drop += 1 }
                body = Array(line.dropFirst(drop))
            } else {
                body = line
            }
            if body.allSatisfy(isSpaceOrTab) {
                text += trimmedRight(prefix)
            } else {
                text += prefix + body
            }
            text += ending
        }

        // Where the bytes go: at the start of the line after `after`.
        var at = lines.start(after + 1)
        var lead: [UInt8] = []
        if after >= 1, after == lines.count, lines.ending(after, in: bytes) == nil {
            lead = ending  // the last line had no line ending
            at = bytes.count
        }
        var blankBefore: [UInt8] = []
        if neighbour == nil, point.startsBlock, after >= 1, !isBlank(after, quoteDepth: 0) {
            blankBefore = trimmedRight(prefix) + ending
        }
        if after == 0 { at = 0 }
        let tail = lines.count > 0 && after >= lines.count && lines.ending(lines.count, in: bytes) == nil
        var newText = lead + blankBefore + text
        if tail { newText.removeLast(ending.count); newText = lead + blankBefore + text.dropLast(ending.count) }

        // The expected model: the fragment's tasks at their new place.
        let insertIndex: Int
        if let n = neighbour {
            insertIndex = descendantsEnd(n)
        } else if case .subtask(of: let p) = point {
            insertIndex = p + 1
        } else {
            insertIndex = tasks.firstIndex { $0.firstLine > after } ?? tasks.count
        }
        var expected = expectedModel()
        for k in expected.indices {
            if let p = expected[k].parent, p >= insertIndex { expected[k].parent = p + fragment.expected.count }
        }
        let moved = fragment.expected.enumerated().map { (k, e) -> Expected in
            var e = e
            e.depth += depth
            e.parent = k == 0 ? parent : e.parent.map { $0 + insertIndex }
            e.section = sectionText
            return e
        }
        expected.insert(contentsOf: moved, at: insertIndex)

        let blank = trimmedRight(prefix) + ending
        let splice = Splice(range: at..<at, bytes: newText)
        var alternatives: [[Splice]] = []
        if blankBefore.isEmpty { alternatives.append([Splice(range: at..<at, bytes: lead + blank + text)]) }
        if !tail { alternatives.append([Splice(range: at..<at, bytes: lead + blankBefore + text + blank)]) }
        if blankBefore.isEmpty, !tail { alternatives.append([Splice(range: at..<at, bytes: lead + blank + text + blank)]) }
        return try apply([splice], expecting: expected, task: insertIndex, alternatives: alternatives)
    }

    /// The marker that follows `marker` in its list: the same bullet, or the next number.
    private func nextMarker(after marker: [UInt8]) -> [UInt8] {
        guard let delimiter = marker.last, delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")"),
              let n = decimal(marker.dropLast()) else { return marker }
        return Array(String(n + 1).utf8) + [delimiter]
    }
}

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
    }

    func expectedModel() -> [Expected] {
        tasks.indices.map { i in
            let t = tasks[i]
            return Expected(done: t.done, title: t.title, due: t.due, doneDate: t.doneDate, priority: t.priority,
                            flagged: t.flagged, id: t.id, tags: t.tags, depth: t.depth, parent: t.parent, section: t.section,
                            notes: notes[i])
        }
    }

    struct Splice {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// Applies `splices` (sorted, not overlapping), re-parses, and checks the result against
    /// `expected`; when it differs, tries each of `alternatives` in turn (each a structure fix).
    private func apply(_ splices: [Splice], expecting expected: [Expected], task: Int?,
                       alternatives: [[Splice]] = []) throws(EditError) -> EditResult {
        for (attempt, candidate) in ([splices] + alternatives).enumerated() {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + candidate.reduce(0) { $0 + $1.bytes.count })
            var cursor = 0
            for s in candidate.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                out += bytes[cursor..<s.range.lowerBound]
                out += s.bytes
                cursor = s.range.upperBound
            }
            out += bytes[cursor...]
            let document = Document(bytes: out)
            guard document.expectedModel() == expected else { continue }
            let lo = candidate.map(\.range.lowerBound).min() ?? 0
            let hi = candidate.map(\.range.upperBound).max() ?? 0
            let growth = out.count - bytes.count
            var fixes: [StructureFix] = []
            if attempt > 0 {
                // An alternative adds blank lines beside the plain splice; name where they went.
                let plain = Document(bytes: splicing(splices))
                fixes = blankLinesAdded(from: plain, to: document)
            }
            return EditResult(document: document, task: task, fixes: fixes,
                              replaced: lo..<hi, replacement: lo..<(hi + growth))
        }
        let line = lines.line(containing: min(splices.first?.range.lowerBound ?? 0, max(bytes.count - 1, 0)))
        throw EditError(reason: .structure, line: line,
                        message: "line \(line): the edit would change the list's structure (an unclosed code fence or HTML block, or text that reads as a list item); refusing it")
    }

    private func splicing(_ splices: [Splice]) -> [UInt8] {
        var out: [UInt8] = []
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

    /// The splices that set, replace or remove the token of `kind`'s sort on task's title line.
    /// Removing takes repeated tokens of the sort too, or the next one would count instead.
    func tokenSplices(_ task: Task, kind: TitleLine.Kind, text: String?) -> [Splice] {
        let existing = task.tokens.first { sameSort($0.kind, kind) }
        switch (existing, text) {
        case (nil, nil):
            return []
        case (let token?, let text?):
            let new = Array(text.utf8)
            return new.elementsEqual(bytes[token.range]) ? [] : [Splice(range: token.range, bytes: new)]
        case (nil, let text?):
            let at = titleInsertionPoint(task)
            return [Splice(range: at..<at, bytes: [0x20] + Array(text.utf8))]
        case (let token?, nil):
            let all = [token] + task.duplicates.filter { sameSort($0.kind, kind) }
            return TitleLine.removalRanges(of: all, in: bytes, line: task.titleRange).map { Splice(range: $0, bytes: []) }
        }
    }

    /// The title and tags of task's title line once `splices` (inside it) are applied.
    func titleAfter(_ task: Task, _ splices: [Splice]) -> (title: String, tags: [String]) {
        var line = Array(bytes[task.titleRange])
        for s in splices.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let lo = s.range.lowerBound - task.titleRange.lowerBound
            line.replaceSubrange(lo..<(lo + s.range.count), with: s.bytes)
        }
        let scan = TitleLine(bytes: line, range: 0..<line.count, continuation: 0..<0)
        return (scan.title, scan.tags)
    }

    /// Where a new token goes: the end of the title line, before trailing whitespace and before
    /// a trailing backslash that follows whitespace (a hard line break stays last). A backslash
    /// glued to the last word is part of that word.
    func titleInsertionPoint(_ task: Task) -> Int {
        var e = task.titleRange.upperBound
        let lo = task.titleRange.lowerBound
        while e > lo, isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        if e > lo, bytes[e - 1] == UInt8(ascii: "\\") {
            var w = e - 1
            while w > lo, isSpaceOrTab(bytes[w - 1]) { w -= 1 }
            if w < e - 1 { e = w }
        }
        return e
    }

    private func sameSort(_ a: TitleLine.Kind, _ b: TitleLine.Kind) -> Bool {
        switch (a, b) {
        case (.due, .due), (.done, .done), (.priority, .priority), (.flag, .flag), (.id, .id): return true
        default: return false
        }
    }

    /// The prefix that continues a task's container on later lines: block-quote markers kept,
    /// list markers turned into spaces.
    func continuationPrefix(_ prefix: [UInt8]) -> [UInt8] {
        prefix.map { $0 == UInt8(ascii: ">") || $0 == 0x09 ? $0 : 0x20 }
    }

    /// A blank line that stays inside the task's block quotes.
    func blankLine(like task: Task) -> [UInt8] {
        trimmedRight(continuationPrefix(Array(bytes[lines.start(task.firstLine)..<task.marker.lowerBound])))
    }

    /// Note text as lines to write under `task`, after line `after`.
    func noteBytes(_ notes: String, for task: Task, endingAfter after: Int) -> [UInt8] {
        let text = normalizedNotes(notes)
        guard !text.isEmpty else { return [] }
        let prefix = continuationPrefix(Array(bytes[lines.start(task.line)..<task.checkbox]))
        let ending = lines.ending(after, in: bytes)?.bytes ?? lineEnding.bytes
        var out: [UInt8] = []
        if lines.ending(after, in: bytes) == nil { out += ending }
        let noteLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (k, line) in noteLines.enumerated() {
            out += line.isEmpty ? trimmedRight(prefix) : prefix + Array(line.utf8)
            if k < noteLines.count - 1 || lines.ending(after, in: bytes) != nil { out += ending }
        }
        return out
    }

    /// Notes as tick reads them back: line breaks as LF, no leading or trailing blank lines.
    func normalizedNotes(_ notes: String) -> String {
        var lines = notes.replacingLineBreaks().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func blank(_ s: String) -> Bool { s.utf8.allSatisfy(isSpaceOrTab) }
        while let l = lines.last, blank(l) { lines.removeLast() }
        while let f = lines.first, blank(f) { lines.removeFirst() }
        return lines.map { blank($0) ? "" : $0 }.joined(separator: "\n")
    }
}

extension String {
    /// CRLF and CR turned into LF.
    func replacingLineBreaks() -> String {
        var out: [UInt8] = []
        var previousCR = false
        for b in utf8 {
            if b == 0x0D { out.append(0x0A); previousCR = true; continue }
            if b == 0x0A, previousCR { previousCR = false; continue }
            previousCR = false
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

func trimmedRight(_ bytes: [UInt8]) -> [UInt8] {
    var b = bytes
    while let last = b.last, isSpaceOrTab(last) { b.removeLast() }
    return b
}
