// Edits of a document's structure: a task inserted, removed, or taken out to move elsewhere.

// MARK: - Inserting, removing, moving

extension Document {
    /// Inserts a new task in canonical form.
    public func inserting(_ new: NewTask, at point: InsertionPoint) throws(EditError) -> EditResult {
        try inserting(fragment(new), at: point, canonicalMarker: true)
    }

    /// A new task's lines in canonical form (`- [ ] title tokens`, notes indented by two spaces),
    /// with what it must read as.
    func fragment(_ new: NewTask) throws(EditError) -> TaskFragment {
        // `- [ ] ` (or `- [x] `), the title and the tokens, in one buffer.
        var line: [UInt8] = [UInt8(ascii: "-"), 0x20]
        line.reserveCapacity(8 + new.title.utf8.count + 48)
        let expected = try appendNewTaskLine(new, to: &line)
        var noteLines: [[UInt8]] = []
        if !expected.notes.isEmpty {
            noteLines = expected.notes.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        }
        return TaskFragment(lines: [line] + noteLines.map { $0.isEmpty ? [] : [0x20, 0x20] + $0 },
                            markerLength: 1, expected: [expected])
    }

    /// A new task's first line in canonical form after its marker and spacing (`[ ] title tokens`,
    /// or `[x] `), appended to `line`; and what the task must read as.
    func appendNewTaskLine(_ new: NewTask, to line: inout [UInt8]) throws(EditError) -> Expected {
        var title = Array(new.title.utf8)
        let trimmed = trimmedSeparators(title, title.indices)
        if trimmed != title.indices { title = Array(title[trimmed]) }
        title = withGlobalFilter(title)
        let tags: [String]
        if let kept = new.keptScan.checked, kept.holds(title) {
            tags = kept.tags
        } else {
            tags = try checkedTitleScan(title, line: 0).tags
        }
        line += [UInt8(ascii: "["), new.done ? UInt8(ascii: "x") : 0x20, UInt8(ascii: "]"), 0x20]
        let head = line.count
        line += title
        var repeatPhrase: String? = nil
        if new.style == .tick {
            func put(_ parts: String...) {
                if line.count > head { line.append(0x20) }
                for part in parts { line += part.utf8 }
            }
            if let token = new.priority.token { put(token) }
            if new.flagged { put("#flag") }
            if let due = new.due { put("due:", due.description) }
            if let rule = new.recurrence { put(rule.token) }
            if let until = new.until { put("until:", until.description) }
            if new.done, let day = new.doneDate { put("done:", day.description) }
        } else {
            // The Tasks plugin's order: tags, priority, repetition, due date, completion; tick's own token
            // where the style has none (a due time, an until: day).
            let style = new.style
            func styled(_ kind: TitleLine.Kind, _ plain: String) -> (String, Bool) {
                ObsidianFields.token(kind, style: style).map { ($0, true) } ?? (plain, false)
            }
            var tokens: [(String, Bool)] = []
            if new.flagged { tokens.append(("#flag", false)) }
            if let p = new.priority.token { tokens.append(styled(.priority(new.priority.rawValue), p)) }
            if let rule = new.recurrence {
                let token = styled(.recurrence(rule), rule.token)
                if token.1 { repeatPhrase = ObsidianFields.phrase(rule) }
                if token.1, style == .emoji, new.until != nil {
                    throw EditError(reason: .badValue, line: 0, message: Document.untilAfterPhrase(line: 0))
                }
                tokens.append(token)
            }
            if let due = new.due { tokens.append(styled(.due(due), "due:\(due)")) }
            if let until = new.until { tokens.append(("until:\(until)", false)) }
            if new.done, let day = new.doneDate { tokens.append(styled(.done(day), "done:\(day)")) }
            for (token, isStyled) in tokens {
                if line.count > head { line += isStyled && style == .dataview ? [0x20, 0x20] : [0x20] }
                line.append(contentsOf: token.utf8)
            }
        }
        return Expected(done: new.done, title: String(decoding: title, as: UTF8.self), due: new.due,
                        doneDate: new.done ? new.doneDate : nil, priority: new.priority, flagged: new.flagged, id: nil,
                        tags: tags,
                        depth: 0, parent: nil, section: nil, notes: normalizedNotes(new.notes),
                        recurrence: new.recurrence, until: new.until, repeatPhrase: repeatPhrase)
    }

    /// Removes task `i` with its notes and subtasks (and the blank lines it owns).
    public func removing(_ i: Int) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let end = descendantsEnd(i)
        let expected = ExpectedTasks(self, removing: i..<end)
        // From the start of its text: a byte order mark before the first task stays.
        let range = textStart(task.firstLine)..<lines.end(task.lastLine)
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
        var expected = (i..<descendantsEnd(i)).map(self.expected)
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

    /// Inserts `fragment` in four steps: where it goes, the form it copies from its neighbour, its
    /// lines in that form, and the splice (with the blank lines that may keep the structure).
    private func inserting(_ fragment: TaskFragment, at point: InsertionPoint, canonicalMarker: Bool) throws(EditError) -> EditResult {
        let site = try insertionSite(for: point)
        let form = itemForm(at: site, for: fragment, canonicalMarker: canonicalMarker)
        let text = fragmentLines(fragment, in: form)
        let (splice, alternatives) = insertionSplices(text, at: site, form: form)
        let (expected, index) = expectedModel(inserting: fragment, at: site)
        return try apply([splice], expecting: expected, task: index, alternatives: alternatives)
    }

    /// Where an inserted task goes.
    struct InsertionSite {
        /// The task whose form the new item copies, if any.
        var neighbour: Int?
        /// The line after which the new lines go (0: at the start of the text).
        var after: Int
        var depth = 0
        var parent: Int? = nil
        /// The new task's section, as re-parsing must find it.
        var section: String?
        /// Without a neighbour: whether the new task starts a block (after a blank line), and
        /// whether a heading follows it (then a blank line goes after it too).
        var startsBlock = true
        var headingFollows = false
    }

    /// Step 1: the neighbour and the line after which the new task goes.
    private func insertionSite(for point: InsertionPoint) throws(EditError) -> InsertionSite {
        switch point {
        case .end:
            let neighbour = tasks.lastIndex { $0.parent == nil }
            return InsertionSite(neighbour: neighbour, after: neighbour.map { tasks[$0].contentEndLine } ?? lines.count,
                                 section: neighbour.map { tasks[$0].section } ?? sections.last.flatMap { $0.level == 1 ? nil : $0.text })
        case .unsectioned:
            if let neighbour = tasks.lastIndex(where: { $0.parent == nil && $0.section == nil }) {
                return InsertionSite(neighbour: neighbour, after: tasks[neighbour].contentEndLine, section: nil)
            }
            guard let first = sections.first(where: { $0.level > 1 }) else {
                return InsertionSite(neighbour: nil, after: lines.count, section: nil)
            }
            return InsertionSite(neighbour: nil, after: lastTextLine(before: first.line, notBefore: 0), section: nil,
                                 headingFollows: true)
        case .section(let name):
            let wanted = name.lowercased()
            guard let s = sections.firstIndex(where: { $0.text.lowercased() == wanted }) else {
                throw EditError(reason: .noSuchSection, line: 0, message: "no section '\(name)' in this list")
            }
            let heading = sections[s]
            // Tasks under a deeper heading have that heading as their section, so the section's
            // own lines end at the next heading of any level.
            let limit = s + 1 < sections.count ? sections[s + 1].line : lines.count + 1
            let neighbour = tasks.lastIndex { $0.parent == nil && $0.firstLine > heading.line && $0.firstLine < limit }
            let after = neighbour.map { tasks[$0].contentEndLine } ?? lastTextLine(before: limit, notBefore: heading.line)
            return InsertionSite(neighbour: neighbour, after: after, section: heading.level == 1 ? nil : heading.text)
        case .subtask(of: let p):
            let parentTask = try task(p)
            let neighbour = ((p + 1)..<descendantsEnd(p)).last { tasks[$0].parent == p }
            return InsertionSite(neighbour: neighbour, after: neighbour.map { tasks[$0].contentEndLine } ?? parentTask.contentEndLine,
                                 depth: parentTask.depth + 1, parent: p, section: parentTask.section, startsBlock: false)
        case .after(let n):
            let sibling = try task(n)
            return InsertionSite(neighbour: n, after: sibling.contentEndLine, depth: sibling.depth, parent: sibling.parent,
                                 section: sibling.section, startsBlock: false)
        }
    }

    /// The last line before `limit` that is not blank, or `floor` when there is none after it.
    private func lastTextLine(before limit: Int, notBefore floor: Int) -> Int {
        var line = limit - 1
        while line > floor, isBlank(line, quoteDepth: 0) { line -= 1 }
        return line
    }

    /// How the new item is written: its container prefix, marker, spacing and line ending.
    struct ItemForm {
        var prefix: [UInt8]
        var marker: [UInt8]
        var spacing: [UInt8] = [0x20]
        var ending: [UInt8]
    }

    /// Step 2: the form copied from the neighbour (or the parent's indentation, or the canonical `- `).
    func itemForm(at site: InsertionSite, for fragment: TaskFragment, canonicalMarker: Bool) -> ItemForm {
        if let n = site.neighbour {
            let t = tasks[n]
            return ItemForm(prefix: continuationPrefix(Array(bytes[textStart(t.firstLine)..<t.marker.lowerBound])),
                            marker: nextMarker(after: Array(bytes[t.marker])),
                            spacing: t.firstLine == t.line ? Array(bytes[t.marker.upperBound..<t.checkbox]) : [0x20],
                            ending: lines.ending(t.firstLine, in: bytes)?.bytes ?? lineEnding.bytes)
        }
        if let p = site.parent {
            return ItemForm(prefix: continuationPrefix(Array(bytes[textStart(tasks[p].line)..<tasks[p].checkbox])),
                            marker: [UInt8(ascii: "-")], ending: lineEnding.bytes)
        }
        return ItemForm(prefix: [], marker: canonicalMarker ? [UInt8(ascii: "-")] : Array(fragment.lines[0].prefix(fragment.markerLength)),
                        ending: lineEnding.bytes)
    }

    /// Step 3: the fragment's lines re-marked and re-indented under the form's prefix, each ended.
    func fragmentLines(_ fragment: TaskFragment, in form: ItemForm) -> [UInt8] {
        var text: [UInt8] = []
        appendFragmentLines(fragment, in: form, to: &text)
        return text
    }

    /// `fragmentLines(fragment, in: form)` appended to `text`.
    func appendFragmentLines(_ fragment: TaskFragment, in form: ItemForm, to text: inout [UInt8]) {
        let afterMarker = fragment.lines[0].dropFirst(fragment.markerLength)
        let oldSpacing = afterMarker.isEmpty ? 1 : afterMarker.prefix(while: isSpaceOrTab).count
        let shift = (form.marker.count + form.spacing.count) - (fragment.markerLength + oldSpacing)
        for (k, line) in fragment.lines.enumerated() {
            var body: [UInt8]
            if k == 0, let first = form.marker.first, !isSpaceOrTab(first) {
                // The first line starts with the marker, so it is not blank: written straight into `text`.
                text += form.prefix
                text += form.marker
                text += form.spacing
                text += line.dropFirst(fragment.markerLength).drop(while: isSpaceOrTab)
                text += form.ending
                continue
            } else if k == 0 {
                body = form.marker + form.spacing + Array(line.dropFirst(fragment.markerLength).drop(while: isSpaceOrTab))
            } else if shift > 0, !line.isEmpty {
                body = [UInt8](repeating: 0x20, count: shift) + line
            } else if shift < 0 {
                var drop = 0
                while drop < -shift, drop < line.count, line[drop] == 0x20 { drop += 1 }
                body = Array(line.dropFirst(drop))
            } else {
                body = line
            }
            text += body.allSatisfy(isSpaceOrTab) ? trimmedRight(form.prefix) : form.prefix + body
            text += form.ending
        }
    }

    /// Step 4: the splice that puts `text` after the site's line, and the alternatives that add a
    /// blank line before it, after it, or both, for when the plain splice changes the structure.
    private func insertionSplices(_ text: [UInt8], at site: InsertionSite, form: ItemForm) -> (Splice, [[Splice]]) {
        let after = site.after
        // At the start of the line after `after`; never before a byte order mark.
        var at = after == 0 ? bomLength : lines.start(after + 1)
        var lead: [UInt8] = []
        if after >= 1, after == lines.count, lines.ending(after, in: bytes) == nil {
            lead = form.ending  // the last line had no line ending
            at = bytes.count
        }
        let blank = trimmedRight(form.prefix) + form.ending
        var blankBefore: [UInt8] = []
        if site.neighbour == nil, site.startsBlock, after >= 1, !isBlank(after, quoteDepth: 0) { blankBefore = blank }
        // At the end of a file without a final line ending, the new text has none either.
        let tail = lines.count > 0 && after >= lines.count && lines.ending(lines.count, in: bytes) == nil
        let body = tail ? Array(text.dropLast(form.ending.count)) : text
        // Before a heading, a blank line between them, unless one is there already.
        let headingNext = site.neighbour == nil && site.headingFollows && !tail
            && after < lines.count && !isBlank(after + 1, quoteDepth: 0)
        let blankAfter = headingNext ? blank : []
        let splice = Splice(range: at..<at, bytes: lead + blankBefore + body + blankAfter)
        var alternatives: [[Splice]] = []
        if blankBefore.isEmpty { alternatives.append([Splice(range: at..<at, bytes: lead + blank + text + blankAfter)]) }
        if !tail, blankAfter.isEmpty { alternatives.append([Splice(range: at..<at, bytes: lead + blankBefore + text + blank)]) }
        if blankBefore.isEmpty, !tail, blankAfter.isEmpty { alternatives.append([Splice(range: at..<at, bytes: lead + blank + text + blank)]) }
        return (splice, alternatives)
    }

    /// The expected model after the insertion, and the inserted task's index in it.
    private func expectedModel(inserting fragment: TaskFragment, at site: InsertionSite) -> (ExpectedTasks, Int) {
        let insertIndex: Int
        if let n = site.neighbour {
            insertIndex = descendantsEnd(n)
        } else if let p = site.parent {
            insertIndex = p + 1
        } else {
            insertIndex = tasks.firstIndex { $0.firstLine > site.after } ?? tasks.count
        }
        let moved = fragment.expected.enumerated().map { (k, e) -> Expected in
            var e = e
            e.depth += site.depth
            e.parent = k == 0 ? site.parent : e.parent.map { $0 + insertIndex }
            e.section = site.section
            return e
        }
        return (ExpectedTasks(self, inserting: moved, at: insertIndex), insertIndex)
    }

    /// The marker that follows `marker` in its list: the same bullet, or the next number.
    func nextMarker(after marker: [UInt8]) -> [UInt8] {
        guard let delimiter = marker.last, delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")"),
              let n = decimal(marker.dropLast()) else { return marker }
        return Array(String(n + 1).utf8) + [delimiter]
    }
}

extension Document {
    /// list markers turned into spaces.
    func continuationPrefix(_ prefix: [UInt8]) -> [UInt8] {
        prefix.map { $0 == UInt8(ascii: ">") || $0 == 0x09 ? $0 : 0x20 }
    }

    /// A blank line that stays inside the task's block quotes.
    func blankLine(like task: Task) -> [UInt8] {
        trimmedRight(continuationPrefix(Array(bytes[textStart(task.firstLine)..<task.marker.lowerBound])))
    }
}

func trimmedRight(_ bytes: [UInt8]) -> [UInt8] {
    var b = bytes
    while let last = b.last, isSpaceOrTab(last) { b.removeLast() }
    return b
}
