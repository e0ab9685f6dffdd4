// Edits of one task's title line and notes: tokens set, replaced or removed in place, a new
// title, new or added notes.

// MARK: - Edits of one task

extension Document {
    /// Marks task `i` done (writing `done:` with `day`) or open (removing `done:`).
    public func settingDone(_ i: Int, _ done: Bool, on day: Day) throws(EditError) -> EditResult {
        try apply(lineChange(i, settingDone: done, on: day), to: i)
    }

    /// `done:DAY` for one day, as text and as the bytes added after a title (a change of many tasks
    /// makes them once).
    struct DoneToken {
        let text: String
        let added: [UInt8]
        init(_ day: Day) {
            text = "done:\(day)"
            added = [0x20] + Array(text.utf8)
        }
    }

    private static let checkedMark: [UInt8] = [UInt8(ascii: "x")]
    private static let openMark: [UInt8] = [0x20]

    /// The splices of `settingDone(_:_:on:)` and what task `i` reads as after them.
    func lineChange(_ i: Int, settingDone done: Bool, on day: Day, token: DoneToken? = nil) throws(EditError) -> LineChange {
        let task = try self.task(i)
        var splices: [Splice] = []
        let state = bytes[task.checkbox + 1]
        if done != task.done || (done && state == 0x20) {
            splices.append(Splice(range: (task.checkbox + 1)..<(task.checkbox + 2), bytes: done ? Self.checkedMark : Self.openMark))
        }
        let token = token ?? DoneToken(day)
        let tokenEdit = tokenSplices(task, kind: .done(day), text: done ? token.text : nil, added: token.added)
        splices += tokenEdit
        var expected = self.expected(i)
        expected.done = done
        expected.doneDate = done ? day : nil
        setTitle(of: &expected, task, after: tokenEdit, allSplices: splices)
        return LineChange(splices: splices, expected: expected)
    }

    public func settingDue(_ i: Int, _ due: DueDate?) throws(EditError) -> EditResult {
        try apply(lineChange(i, .due(due)), to: i)
    }

    public func settingPriority(_ i: Int, _ priority: Priority) throws(EditError) -> EditResult {
        try apply(lineChange(i, .priority(priority)), to: i)
    }

    public func settingFlag(_ i: Int, _ flagged: Bool) throws(EditError) -> EditResult {
        try apply(lineChange(i, .flag(flagged)), to: i)
    }

    /// Gives task `i` the `id:` token `id` (replacing the one it has), or removes it (nil).
    public func settingID(_ i: Int, _ id: String?) throws(EditError) -> EditResult {
        try apply(lineChange(i, .id(id)), to: i)
    }

    /// Gives task `i` the `rec:` token of `rule` (replacing the one it has), or removes it (nil).
    public func settingRecurrence(_ i: Int, _ rule: RecurrenceRule?) throws(EditError) -> EditResult {
        try apply(lineChange(i, .recurrence(rule)), to: i)
    }

    /// Gives task `i` the `until:` token `day` (replacing the one it has), or removes it (nil).
    public func settingUntil(_ i: Int, _ day: Day?) throws(EditError) -> EditResult {
        try apply(lineChange(i, .until(day)), to: i)
    }

    /// Gives task `i` the start date `day` (only the value of one it has changes), or removes it (nil).
    public func settingStart(_ i: Int, _ day: Day?) throws(EditError) -> EditResult {
        try apply(lineChange(i, .start(day)), to: i)
    }

    /// The splices that make `edit` on task `i`'s title line, and what the task reads as after them.
    func lineChange(_ i: Int, _ edit: LineEdit) throws(EditError) -> LineChange {
        switch edit {
        case .done(let done, let day):
            return try lineChange(i, settingDone: done, on: day)
        case .due(let due):
            return try lineChange(i, settingToken: .due(due ?? DueDate(day: Day(daysSinceEpoch: 0))), due.map { "due:\($0)" }) { $0.due = due }
        case .priority(let priority):
            return try lineChange(i, settingToken: .priority(priority.rawValue), priority.token) { $0.priority = priority }
        case .flag(let flagged):
            return try lineChange(i, settingToken: .flag, flagged ? "#flag" : nil) { $0.flagged = flagged }
        case .id(let id):
            return try lineChange(i, settingToken: .id(id ?? ""), id.map { "id:\($0)" }) { $0.id = id }
        case .recurrence(let rule):
            let placeholder = RecurrenceRule(count: 1, unit: .day, mode: .completion)!
            let task = try self.task(i)
            let styled = (task.tokens.first { sameSort($0.kind, .recurrence(placeholder)) }?.style ?? task.style) != .tick
            return try lineChange(i, settingToken: .recurrence(rule ?? placeholder), rule?.token) {
                $0.recurrence = rule
                $0.repeatPhrase = styled ? rule.flatMap(ObsidianFields.phrase) : nil
            }
        case .until(let day):
            return try lineChange(i, settingToken: .until(day ?? Day(daysSinceEpoch: 0)), day.map { "until:\($0)" }) { $0.until = day }
        case .start(let day):
            return try lineChange(i, settingToken: .start(day ?? Day(daysSinceEpoch: 0)), day.map { "\u{1F6EB} \($0)" }) { $0.start = day }
        }
    }

    /// The splices that set the token of `kind` on task `i`'s title line to `text` (replacing the one it
    /// has), or remove it (nil), and what the task reads as after them; `change` makes the same change
    /// to its expected fields.
    func lineChange(_ i: Int, settingToken kind: TitleLine.Kind, _ text: String?,
                    _ change: (inout Expected) -> Void) throws(EditError) -> LineChange {
        let task = try self.task(i)
        if text != nil, let problem = styleProblem(task, kind) { throw EditError(reason: .badValue, line: task.line, message: problem) }
        var expected = self.expected(i)
        change(&expected)
        expected.countPhraseFromCompletionWithoutDue()
        let splices = tokenSplices(task, kind: kind, text: text)
        setTitle(of: &expected, task, after: splices, allSplices: splices)
        return LineChange(splices: splices, expected: expected)
    }

    /// Replaces the title text of task `i`, keeping its metadata tokens as written, in order.
    /// The title must not hold metadata tokens itself (take them out and set them separately).
    public func retitling(_ i: Int, _ title: String) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let newTitle = withGlobalFilter(Array(trimmedSeparators(Array(title.utf8))))
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
        var expected = ExpectedTasks(self)
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
        var expected = ExpectedTasks(self)
        expected[i].notes = normalizedNotes(notes)
        return try apply(splices, expecting: expected, task: i)
    }

    /// Adds lines to the notes of task `i`, after its last note line.
    public func appendingNote(_ i: Int, _ note: String) throws(EditError) -> EditResult {
        let task = try self.task(i)
        let after = noteLines(i).last(where: { !isBlank($0, quoteDepth: task.quoteDepth) }) ?? task.line
        let text = noteBytes(note, for: task, endingAfter: after)
        var expected = ExpectedTasks(self)
        let added = normalizedNotes(note)
        expected[i].notes = notes[i].isEmpty ? added : (added.isEmpty ? notes[i] : notes[i] + "\n" + added)
        let at = lines.end(after)
        return try apply(text.isEmpty ? [] : [Splice(range: at..<at, bytes: text)], expecting: expected, task: i)
    }

    /// A title for a new or retitled task: with a global filter that `title` does not hold, the
    /// filter and a space go first, as the Tasks plugin writes it, so that the line stays a task.
    func withGlobalFilter(_ title: [UInt8]) -> [UInt8] {
        guard let globalFilter, !globalFilter.isIncluded(in: title, 0..<title.count) else { return title }
        return globalFilter.bytes + (title.isEmpty ? [] : [0x20] + title)
    }

    /// Refuses a title that cannot be written as one: a line break, metadata tokens that would be
    /// read back as metadata instead of title text, or a word that `tick check` would report.
    func checkTitle(_ title: [UInt8], line: Int) throws(EditError) {
        if let problem = Document.titleProblem(title) { throw EditError(reason: .badValue, line: line, message: problem) }
    }

    /// `checkTitle`, giving back the scan of the title (as the text of a title line after its
    /// checkbox's space) for what else the caller reads from it.
    func checkedTitleScan(_ title: [UInt8], line: Int) throws(EditError) -> TitleLine {
        let (text, scan) = Document.titleScan(title)
        if let problem = Document.titleProblem(text, scan: scan) { throw EditError(reason: .badValue, line: line, message: problem) }
        return scan
    }

    /// Why `title` cannot be written as a task's title, or nil when it can.
    public static func titleProblem(_ title: String) -> String? {
        if case .failure(let problem) = checkedTitle(title) { return problem.message }
        return nil
    }

    /// `titleProblem(title)`, or for a title without one, the title with the tags its scan read,
    /// for a `NewTask` to keep (`NewTask.keepScan`).
    public static func checkedTitle(_ title: String) -> Result<CheckedTitle, TitleProblem> {
        let (text, scan) = titleScan(title.utf8)
        if let problem = titleProblem(text, scan: scan) { return .failure(TitleProblem(message: problem)) }
        return .success(CheckedTitle(title: title, tags: scan.tags))
    }

    static func titleProblem(_ title: [UInt8]) -> String? {
        let (text, scan) = titleScan(title)
        return titleProblem(text, scan: scan)
    }

    /// The title as the text of a title line after its checkbox's space (a space, then the title),
    /// and how a title line reads it.
    static func titleScan<Title: Collection<UInt8>>(_ title: Title) -> (text: [UInt8], scan: TitleLine) {
        var text = [UInt8]()
        text.reserveCapacity(title.count + 1)
        text.append(0x20)
        text.append(contentsOf: title)
        return (text, TitleLine(bytes: text, range: 0..<text.count, continuation: 0..<0))
    }

    /// Why the title in `text` (`titleScan`'s: a space, then the title), read as `scan`, cannot be
    /// written as a task's title.
    static func titleProblem(_ text: [UInt8], scan: TitleLine) -> String? {
        guard !text.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
            return "a title is one line; it cannot hold a line break"
        }
        if let token = scan.tokens.first {
            let word = String(decoding: text[token.range], as: UTF8.self)
            return "'\(word)' in a title would be read as metadata; set it separately"
        }
        if let problem = scan.problems.first {
            return problem.message + "; tick check would report it"
        }
        return nil
    }

    func task(_ i: Int) throws(EditError) -> Task {
        guard tasks.indices.contains(i) else {
            throw EditError(reason: .noSuchTask, line: 0, message: "no task number \(i) in this list")
        }
        return tasks[i]
    }
}

// MARK: - Tokens

extension Document {
    /// The splices that set, replace or remove the token of `kind`'s sort on task's title line.
    /// Removing takes repeated tokens of the sort too, or the next one would count instead.
    /// Malformed words of the sort (`due:2026-11-31`, `Due:…`) never stay beside a token tick
    /// writes: setting replaces the first of them when there is no token, and removes the rest.
    /// `added`, when given, is a space and `text`: what goes after a title in tick's style.
    func tokenSplices(_ task: Task, kind: TitleLine.Kind, text: String?, added: [UInt8]? = nil) -> [Splice] {
        let existing = task.tokens.first { sameSort($0.kind, kind) }
        var broken = task.malformed.filter { malformed in
            switch kind {
            case .due: return malformed.key == nil && malformed.due
            case .done: return malformed.key == nil && !malformed.due
            case .recurrence: return malformed.key == .recurrence
            case .until: return malformed.key == .until
            default: return false
            }
        }.map { TitleLine.Token(kind: kind, range: $0.range) }
        var splices: [Splice] = []
        switch (existing, text) {
        case (nil, nil):
            break
        case (let token?, _?) where token.style != .tick:
            // A signifier or a Dataview field: only its value changes (an emoji priority is its signifier).
            if let splice = styledReplacement(token, kind) { splices.append(splice) }
        case (let token?, let text?):
            let new = Array(text.utf8)
            if !new.elementsEqual(bytes[token.range]) { splices.append(Splice(range: token.range, bytes: new)) }
        case (nil, let text?):
            // In the task's own style: a signifier after one space, a Dataview field after two (as the
            // Tasks plugin writes them); tick's token when the style has none for this field.
            let styled = ObsidianFields.token(kind, style: task.style)
            if broken.isEmpty {
                let at = titleInsertionPoint(task)
                if styled == nil, let added { return [Splice(range: at..<at, bytes: added)] }
                let space: [UInt8] = styled != nil && task.style == .dataview ? [0x20, 0x20] : [0x20]
                return [Splice(range: at..<at, bytes: space + Array((styled ?? text).utf8))]
            }
            let written = Array((styled ?? text).utf8)
            splices.append(Splice(range: broken.removeFirst().range, bytes: written))
        case (let token?, nil):
            broken = [token] + task.duplicates.filter { sameSort($0.kind, kind) } + broken
        }
        let removals = TitleLine.removalRanges(of: broken, in: bytes, line: task.titleRange).map { Splice(range: $0, bytes: []) }
        return (splices + removals).sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The splice that gives signifier or Dataview `token` the value of `kind`, or nil when it has it.
    private func styledReplacement(_ token: TitleLine.Token, _ kind: TitleLine.Kind) -> Splice? {
        if case .priority(let level) = kind, ObsidianFields.priority(of: token, in: bytes)?.priority.rawValue == level {
            return nil  // 🔺 stays 🔺 when the priority stays high
        }
        guard let value = ObsidianFields.value(kind, style: token.style) else { return nil }
        let range = token.value ?? token.range
        let new = Array(value.utf8)
        return new.elementsEqual(bytes[range]) ? nil : Splice(range: range, bytes: new)
    }

    /// Why `kind` cannot be written on task `i` in its style (a due time, `rec:++…`), or nil.
    func styleProblem(_ task: Task, _ kind: TitleLine.Kind) -> String? {
        if case .until = kind, task.tokens.contains(where: { $0.style == .emoji && sameSort($0.kind, .repeatPhrase("")) }) {
            return Document.untilAfterPhrase(line: task.line)
        }
        let style = task.tokens.first { sameSort($0.kind, kind) }?.style ?? task.style
        guard style != .tick, ObsidianFields.value(kind, style: style) == nil else { return nil }
        let name = style == .emoji ? "an Obsidian Tasks signifier" : "a Dataview field"
        switch kind {
        case .due: return "line \(task.line) writes its due date as \(name), which holds a date without a time"
        case .recurrence(let rule):
            return "line \(task.line) writes its repetition as \(name), and rec:\(rule) has no Tasks phrase "
                + "(it knows every N days, weeks, months or years, every weekday, and when done)"
        default: return nil
        }
    }

    /// Why an `until:` cannot go on a task that repeats by a 🔁 phrase (line 0: a new task).
    static func untilAfterPhrase(line: Int) -> String {
        (line > 0 ? "line \(line) repeats" : "the task would repeat") + " by an Obsidian Tasks 🔁 phrase, and an until: "
            + "after it would hide the line's fields from the plugin, which reads them only at the end of the line: end the "
            + "repetition in Obsidian, or use tick's style (obsidian.new-task-style = tick)"
    }

    /// Sets what `task` reads as after `splices` (its token edits among `allSplices`) in the title
    /// and tags of `expected`. When every splice stays inside the title line (`isInsideTitleLine`)
    /// and this document keeps cmark's outline, the edited list is read over that outline, and its
    /// title line is scanned there as any parse scans it: the title and tags it reads are what the
    /// splices make of them, and scanning the line a second time here would only repeat that scan.
    /// `expected` then takes the title and tags as read (`Expected.titleAsRead`).
    func setTitle(of expected: inout Expected, _ task: Task, after splices: [Splice], allSplices: [Splice]) {
        if keepsOutline, allSplices.allSatisfy({ isInsideTitleLine($0, of: task) }) {
            expected.titleAsRead = true
        } else {
            (expected.title, expected.tags) = titleAfter(task, splices)
        }
    }

    /// The title and tags of `task`'s title line with `splices` (inside it) made, read as the parse
    /// reads it: with the later lines of its paragraph, where a code span opened on the title line
    /// may close (FORMAT.md 5).
    func titleAfter(_ task: Task, _ splices: [Splice]) -> (title: String, tags: [String]) {
        var line = Array(bytes[task.titleRange])
        for s in splices.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let lo = s.range.lowerBound - task.titleRange.lowerBound
            line.replaceSubrange(lo..<(lo + s.range.count), with: s.bytes)
        }
        let count = line.count
        var continuation = count..<count
        if task.paragraphEndLine > task.line {
            line.append(0x0A)
            line += bytes[lines.start(task.line + 1)..<lines.contentEnd(task.paragraphEndLine)]
            continuation = (count + 1)..<line.count
        }
        let scan = TitleLine(bytes: line, range: 0..<count, continuation: continuation)
        return (scan.title, scan.tags)
    }

    /// Where a new token goes: the end of the title line, before trailing whitespace and before
    /// a trailing backslash that follows whitespace (a hard line break stays last). A backslash
    /// glued to the last word is part of that word.
    func titleInsertionPoint(_ task: Task) -> Int { Document.tokenInsertionPoint(bytes, task.titleRange) }

    /// `titleInsertionPoint(_:)` on the title line at `range` of `bytes`.
    static func tokenInsertionPoint(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var e = range.upperBound
        let lo = range.lowerBound
        while e > lo, isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        if e > lo, bytes[e - 1] == UInt8(ascii: "\\") {
            var w = e - 1
            while w > lo, isSpaceOrTab(bytes[w - 1]) { w -= 1 }
            if w < e - 1 { e = w }
        }
        return e
    }

    func sameSort(_ a: TitleLine.Kind, _ b: TitleLine.Kind) -> Bool {
        switch (a, b) {
        case (.due, .due), (.done, .done), (.priority, .priority), (.flag, .flag), (.id, .id),
             (.recurrence, .recurrence), (.until, .until), (.recurrence, .repeatPhrase), (.repeatPhrase, .recurrence),
             (.repeatPhrase, .repeatPhrase), (.scheduled, .scheduled), (.start, .start), (.created, .created),
             (.cancelled, .cancelled), (.dependsOn, .dependsOn), (.onCompletion, .onCompletion): return true
        default: return false
        }
    }

    // MARK: Notes

    /// Note text as lines to write under `task`, after line `after`.
    func noteBytes(_ notes: String, for task: Task, endingAfter after: Int) -> [UInt8] {
        let text = normalizedNotes(notes)
        guard !text.isEmpty else { return [] }
        let prefix = continuationPrefix(Array(bytes[textStart(task.line)..<task.checkbox]))
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
        if notes.isEmpty { return notes }
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
