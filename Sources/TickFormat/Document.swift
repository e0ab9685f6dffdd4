/// A problem found while parsing: parsing never fails, it reports.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// A parsed list file. It keeps the original bytes: serializing returns them unchanged, and
/// edits splice new bytes into them (see `Edits.swift`).
public struct Document: Sendable {
    /// The file's bytes, exactly.
    public private(set) var bytes: [UInt8]
    /// Tasks in document order (a parent before its subtasks).
    public private(set) var tasks: [Task] = []
    /// Note text per task, parallel to `tasks`.
    public private(set) var notes: [String] = []
    /// The text of the first level-1 heading, if any.
    public private(set) var heading: String?
    /// Line of that heading.
    public private(set) var headingLine: Int?
    public private(set) var frontMatter: FrontMatter?
    /// A first line `---` that does not open front matter (FORMAT.md, section 2).
    public private(set) var unrecognizedFrontMatter: FrontMatter.Unrecognized?
    public private(set) var diagnostics: [Diagnostic] = []
    /// The global filter it was read with (FORMAT.md 11): nil reads every checkbox line as a task.
    /// Every re-reading after an edit uses it too.
    public let globalFilter: GlobalFilter?

    var lines: Lines
    /// Where every paragraph starts, from the parse itself, when the document was read for a check
    /// (`init(bytes:globalFilter:forCheck:)`) and cmark was asked at all.
    var paragraphStarts: [(line: Int, column: Int)]?
    /// Section headings (outside list items), in order.
    var sections: [(line: Int, level: Int, text: String)] = []
    let bomLength: Int
    /// cmark's outline of the blocks, kept by a document read for editing (`init(editing:globalFilter:)`)
    /// so that an edit inside title lines is read again without cmark (`reading(_:splices:)`).
    private var outline: BlockOutline?

    /// Parses `bytes`. Never fails: oddities become `diagnostics`. With `globalFilter`, a checkbox
    /// line whose title line does not hold the filter is not a task (FORMAT.md 11).
    public init(bytes: [UInt8], globalFilter: GlobalFilter? = nil) {
        self.init(bytes: bytes, globalFilter: globalFilter, forCheck: false)
    }

    /// Parses `bytes` for `checkDiagnostics()`: with `forCheck`, the one parse also notes where
    /// every paragraph starts, so the check's look for near-miss boxes needs no second parse (and a
    /// huge file is never held by cmark twice over). `partSize` bounds cmark's memory: text larger
    /// than it is parsed in parts of about that many bytes, to the same result (the language server
    /// asks for small parts; nil keeps the default, parts only for a list over a megabyte).
    public init(bytes: [UInt8], globalFilter: GlobalFilter? = nil, forCheck: Bool, partSize: Int? = nil) {
        self.init(bytes: bytes, globalFilter: globalFilter, outline: nil, keepingOutline: false, forCheck: forCheck, partSize: partSize)
    }

    /// Parses `bytes` to be edited: as `init(bytes:globalFilter:)`, keeping cmark's outline of the
    /// blocks, which every reading of an edit of it keeps too (`reading(_:splices:)`).
    public init(editing bytes: [UInt8], globalFilter: GlobalFilter? = nil) {
        self.init(bytes: bytes, globalFilter: globalFilter, outline: nil, keepingOutline: true, forCheck: false, partSize: nil)
    }

    /// `bytes` read with `outline` as cmark's outline of their blocks (nil: cmark's outline of them,
    /// with `forCheck` and `partSize` as `init(bytes:globalFilter:forCheck:partSize:)` takes them),
    /// the outline kept when `keepingOutline`.
    private init(bytes: [UInt8], globalFilter: GlobalFilter?, outline given: BlockOutline?, keepingOutline: Bool,
                 forCheck: Bool, partSize: Int?) {
        self.bytes = bytes
        self.globalFilter = globalFilter
        lines = Lines(bytes)
        bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        switch FrontMatter.detect(in: bytes, lines: lines, bomLength: bomLength) {
        case .none: break
        case .frontMatter(let block): frontMatter = block
        case .unrecognized(let why): unrecognizedFrontMatter = why
        }
        let outline = given ?? cmarkOutline(paragraphStarts: forCheck, partSize: partSize)
        if keepingOutline { self.outline = outline }
        parse(outline)
    }

    public init(_ text: String, globalFilter: GlobalFilter? = nil) { self.init(bytes: Array(text.utf8), globalFilter: globalFilter) }

    /// `bytes` read as this document was read (with its global filter): what an edit's result is.
    func reading(_ bytes: [UInt8]) -> Document {
        Document(bytes: bytes, globalFilter: globalFilter, outline: nil, keepingOutline: outline != nil, forCheck: false, partSize: nil)
    }

    /// `splicing(splices)` read as this document was read. When this document keeps cmark's outline
    /// and every splice stays inside one task's title line, leaving its box and the space after it
    /// as boxes are written (`isInsideTitleLine`), cmark is not asked again: the blocks of the result
    /// are those of this document, line for line and column for column. CommonMark finds blocks from
    /// how lines start and from which blocks are open, and the text of a list item's paragraph opens
    /// or closes none, with one exception: a paragraph that starts with a link reference definition
    /// (`[label]: destination`) is not a paragraph. A paragraph that starts with a box and a space
    /// (`[x] `) cannot start with one, since a label ends at its first `]`. The tasks are then read
    /// from the new bytes as any parse reads them. A seeded test and the fuzz target hold this to a
    /// full parse.
    func reading(_ bytes: [UInt8], splices: [Splice]) -> Document {
        reading(bytes, overOutline: splices.allSatisfy { isInsideTitleLine($0) })
    }

    /// `bytes` read over this document's kept outline when `overOutline` (the caller has found
    /// every splice inside a title line), else as this document was read.
    func reading(_ bytes: [UInt8], overOutline: Bool) -> Document {
        guard let outline, overOutline else { return reading(bytes) }
        return Document(bytes: bytes, globalFilter: globalFilter, outline: outline, keepingOutline: true, forCheck: false, partSize: nil)
    }

    /// `bytes`, this document's bytes with `text` appended, read without cmark when `text` is made of
    /// lines that cmark reads as one more item of the list that ends this document each
    /// (`outlineAppending`); else as this document was read.
    func reading(_ bytes: [UInt8], appending text: [UInt8]) -> Document {
        guard let outline = outlineAppending(text) else { return reading(bytes) }
        return Document(bytes: bytes, globalFilter: globalFilter, outline: outline, keepingOutline: true, forCheck: false, partSize: nil)
    }

    /// This document's kept outline with an item for each line of `text`, appended at its end, or nil
    /// when that is not known without cmark. It is known when the document ends with a line ending
    /// right after the one line of a top-level item, outside any block quote, whose marker (`-`, `*`
    /// or `+`) starts the line and is followed by one space and a paragraph; and every line of `text`
    /// is that marker, a space, a box (`[ ]`, `[x]` or `[X]`), a space and text without a carriage
    /// return, ended by a line feed. In CommonMark, such a line is not a lazy continuation of the
    /// paragraph before it (it starts a list item), it closes that item (its marker is indented less
    /// than the item's text), and it starts an item of the same list (the same marker) whose first
    /// block is a paragraph at the third column: a box cannot start any other block, and cannot start
    /// a link reference definition (a label ends at its first `]`, and the box's is followed by a
    /// space, not a colon). The line after it is read the same way, and the text ends with no block
    /// open but the last paragraph. A seeded test and the fuzz target hold this to a full parse.
    func outlineAppending(_ text: [UInt8]) -> BlockOutline? {
        guard var outline, let last = outline.items.last, !text.isEmpty, text.last == 0x0A, bytes.last == 0x0A else { return nil }
        let n = lines.count
        guard n > 1 || bomLength == 0, last.line == n, last.endLine == n, last.column == 1, last.parent == nil,
              last.quoteDepth == 0, !last.ordered, let paragraph = last.paragraph,
              paragraph.line == n, paragraph.column == 3, paragraph.endLine == n,
              !outline.headings.contains(where: { $0.endLine >= n }) else { return nil }
        let marker = bytes[lines.start(n)]
        guard marker == UInt8(ascii: "-") || marker == UInt8(ascii: "*") || marker == UInt8(ascii: "+"),
              bytes[lines.start(n) + 1] == 0x20 else { return nil }
        var line = n
        let ok = text.withUnsafeBufferPointer { t -> Bool in
            var i = 0
            while i < t.count {
                guard i + 6 <= t.count, t[i] == marker, t[i + 1] == 0x20, t[i + 2] == UInt8(ascii: "["),
                      t[i + 3] == 0x20 || t[i + 3] == UInt8(ascii: "x") || t[i + 3] == UInt8(ascii: "X"),
                      t[i + 4] == UInt8(ascii: "]"), t[i + 5] == 0x20 else { return false }
                i += 6
                while t[i] != 0x0A {
                    if t[i] == 0x0D { return false }
                    i += 1
                }
                i += 1
                line += 1
                outline.items.append(.init(line: line, column: 1, endLine: line, quoteDepth: 0, parent: nil, ordered: false,
                                           paragraph: (line, 3, line)))
            }
            return true
        }
        return ok ? outline : nil
    }

    /// Whether `splice` stays inside one task's title line without a line ending, and leaves the line
    /// starting with a box and a space or tab: it sets the box's mark (` `, `x` or `X`), or it
    /// replaces bytes after the space or tab that follows the box.
    func isInsideTitleLine(_ splice: Splice) -> Bool {
        let at = splice.range.lowerBound
        guard at <= bytes.count, !splice.bytes.contains(0x0A), !splice.bytes.contains(0x0D) else { return false }
        let line = lines.line(containing: at)
        guard splice.range.upperBound <= lines.contentEnd(line), let task = task(onLine: line) else { return false }
        return isInsideTitleLine(splice, of: tasks[task])
    }

    /// `isInsideTitleLine(_:)` for a splice on `task`'s title line: where the title line ends, and
    /// where its box is, are the task's own.
    func isInsideTitleLine(_ splice: Splice, of task: Task) -> Bool {
        let box = task.checkbox
        guard splice.range.lowerBound > box, splice.range.upperBound <= task.titleRange.upperBound,
              !splice.bytes.contains(0x0A), !splice.bytes.contains(0x0D) else { return false }
        if splice.range == (box + 1)..<(box + 2) {
            return splice.bytes.count == 1 && [0x20, UInt8(ascii: "x"), UInt8(ascii: "X")].contains(splice.bytes[0])
        }
        return splice.range.lowerBound >= box + 4
    }

    /// Whether this document keeps cmark's outline of its blocks (read for editing).
    var keepsOutline: Bool { outline != nil }

    /// The index of the task whose title line (the line of its box) is line `n` (1-based), or nil:
    /// a binary search, the tasks being in line order.
    public func task(onLine n: Int) -> Int? {
        var low = 0, high = tasks.count
        while low < high {
            let mid = (low + high) / 2
            if tasks[mid].line < n { low = mid + 1 } else { high = mid }
        }
        return low < tasks.count && tasks[low].line == n ? low : nil
    }

    /// The bytes to write back: exactly the bytes parsed, with any edits spliced in.
    public func serialize() -> [UInt8] { bytes }

    /// The bytes an ATX or setext heading needs.
    static func startsHeading(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "#") || b == UInt8(ascii: "=") || b == UInt8(ascii: "-")
    }

    /// The byte sequences that any task needs; a file with none of them has no task.
    public static func mayContainTasks(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { p in
            let n = p.count
            var i = 0
            while i + 2 < n {
                if p[i] == UInt8(ascii: "["), p[i + 2] == UInt8(ascii: "]") {
                    let c = p[i + 1]
                    if c == 0x20 || c == UInt8(ascii: "x") || c == UInt8(ascii: "X") { return true }
                }
                i += 1
            }
            return false
        }
    }

    // MARK: - Parsing

    /// With front matter, the bytes cmark reads: front matter is not Markdown, so its lines are
    /// empty (their line ends kept). Nil without front matter (cmark reads the bytes as they are,
    /// the first line's columns shifted by the byte order mark).
    func markdownWithoutFrontMatter() -> [UInt8]? {
        guard let frontMatter else { return nil }
        var input: [UInt8] = []
        input.reserveCapacity(bytes.count)
        for n in 1...frontMatter.closingLine { input += bytes[lines.contentEnd(n)..<lines.end(n)] }
        input += bytes[lines.end(frontMatter.closingLine)...]
        return input
    }

    /// cmark's outline of the blocks of `bytes` (front matter blanked, a byte order mark left out).
    private func cmarkOutline(paragraphStarts: Bool, partSize: Int?) -> BlockOutline {
        let outline: BlockOutline
        if let input = markdownWithoutFrontMatter() {
            outline = input.withUnsafeBufferPointer {
                CommonMarkConverter.outline(of: $0, columnShiftOnFirstLine: 0, paragraphStarts: paragraphStarts,
                                            partSize: partSize)
            }
        } else if Document.mayContainTasks(bytes) || bytes.contains(where: Document.startsHeading) {
            outline = bytes.withUnsafeBufferPointer {
                CommonMarkConverter.outline(of: $0, columnShiftOnFirstLine: bomLength, paragraphStarts: paragraphStarts,
                                            partSize: partSize)
            }
        } else {
            // No box and no byte a heading needs (`#`, or a setext `=`/`-`): cmark could find
            // neither tasks nor headings, so it is not asked.
            outline = BlockOutline()
        }
        return outline
    }

    /// Reads the tasks, notes, headings and problems of `bytes` from cmark's `outline` of its blocks.
    private mutating func parse(_ outline: BlockOutline) {
        self.paragraphStarts = outline.paragraphStarts

        for h in outline.headings where !h.insideListItem {
            sections.append((h.line, h.level, h.text))
            if h.level == 1, heading == nil {
                heading = h.text
                headingLine = h.line
            }
        }

        var taskOfItem = [Int?](repeating: nil, count: outline.items.count)
        // Tasks are large values: room for every item that opens with a box, so that a list of a
        // million tasks is not copied as the array grows.
        tasks.reserveCapacity(outline.items.reduce(0) { count, item in
            guard let paragraph = item.paragraph, paragraph.line <= lines.count else { return count }
            let at = lines.start(paragraph.line) + paragraph.column - 1
            return at < bytes.count && bytes[at] == UInt8(ascii: "[") ? count + 1 : count
        })
        for (index, item) in outline.items.enumerated() {
            guard let paragraph = item.paragraph, paragraph.line <= lines.count else { continue }
            let checkbox = lines.start(paragraph.line) + paragraph.column - 1
            let lineEnd = lines.contentEnd(paragraph.line)
            guard checkbox + 3 < lineEnd,
                  bytes[checkbox] == UInt8(ascii: "["), bytes[checkbox + 2] == UInt8(ascii: "]"),
                  bytes[checkbox + 3] == 0x20 || bytes[checkbox + 3] == 0x09
            else { continue }
            let state = bytes[checkbox + 1]
            guard state == 0x20 || state == UInt8(ascii: "x") || state == UInt8(ascii: "X") else { continue }
            // Without the global filter on its title line, a plain list item: its neighbours read it as
            // they read any other item (a note of the task above, a non-task item between a task and
            // its subtasks).
            if let globalFilter, !globalFilter.isIncluded(in: bytes, (checkbox + 3)..<lineEnd) { continue }

            var parent = item.parent
            while let p = parent, taskOfItem[p] == nil { parent = outline.items[p].parent }
            let parentTask = parent.flatMap { taskOfItem[$0] }

            let titleRange = (checkbox + 3)..<lineEnd
            let paragraphEnd = min(max(paragraph.endLine, paragraph.line), lines.count)
            let continuation = paragraphEnd > paragraph.line
                ? lines.start(paragraph.line + 1)..<lines.contentEnd(paragraphEnd) : lineEnd..<lineEnd
            let scan = TitleLine(bytes: bytes, range: titleRange, continuation: continuation)
            for problem in scan.problems {
                let line = lines.line(containing: problem.offset)
                // Columns count bytes; a byte order mark is not text and takes none.
                let start = lines.start(line) + (line == 1 ? bomLength : 0)
                diagnostics.append(Diagnostic(line: line, column: problem.offset - start + 1, message: problem.message))
            }

            var contentEnd = min(max(item.endLine, paragraphEnd), lines.count)
            while contentEnd > paragraphEnd, isBlank(contentEnd, quoteDepth: item.quoteDepth) { contentEnd -= 1 }
            let markerStart = lines.start(item.line) + item.column - 1
            var markerEnd = markerStart
            while markerEnd < lines.contentEnd(item.line), !isSpaceOrTab(bytes[markerEnd]) { markerEnd += 1 }

            var task = Task(
                done: state != 0x20, title: scan.title, due: nil, doneDate: nil, priority: .none,
                flagged: false, tags: scan.tags, line: paragraph.line, parent: parentTask, section: nil,
                depth: parentTask.map { tasks[$0].depth + 1 } ?? 0,
                firstLine: item.line, lastLine: contentEnd, contentEndLine: contentEnd, paragraphEndLine: paragraphEnd,
                checkbox: checkbox, marker: markerStart..<markerEnd, titleRange: titleRange,
                tokens: scan.tokens, duplicates: scan.duplicates, malformed: scan.malformed, quoteDepth: item.quoteDepth, ordered: item.ordered,
                contentColumn: visualColumn(of: checkbox, line: paragraph.line))
            for token in scan.tokens {
                switch token.kind {
                case .due(let d): task.due = d
                case .done(let d): task.doneDate = d
                case .priority(let p): task.priority = Priority(rawValue: p) ?? .none
                case .flag: task.flagged = true
                case .recurrence(let rule): task.recurrence = rule
                case .until(let day): task.until = day
                case .id(let value): task.id = value
                case .scheduled(let day): task.scheduled = day
                case .start(let day): task.start = day
                case .created(let day): task.created = day
                case .cancelled(let day): task.cancelled = day
                case .repeatPhrase(let phrase): task.repeatPhrase = phrase
                case .dependsOn(let value): task.dependsOn = value
                case .onCompletion(let value): task.onCompletion = value
                }
                if token.style != .tick {
                    if task.style == .tick { task.style = token.style }
                    switch token.kind {
                    case .priority: task.obsidianPriority = ObsidianFields.priority(of: token, in: bytes)
                    case .recurrence: task.repeatPhrase = token.value.map { text(bytes, $0) }
                    default: break
                    }
                }
            }
            if let rule = task.recurrence, rule.mode == .due, task.due == nil, task.repeatPhrase != nil {
                // "every week" without a due date: the plugin counts from a scheduled or start date, or
                // from nothing; tick counts from the completion.
                task.recurrence = RecurrenceRule(count: rule.count, unit: rule.unit, mode: .completion)
            }
            diagnostics += repetitionProblems(task)
            if !task.done, let token = scan.tokens.first(where: { if case .done = $0.kind { return true } else { return false } }) {
                diagnostics.append(Diagnostic(line: paragraph.line, column: token.range.lowerBound - lines.start(paragraph.line) + 1,
                                              message: "completion date on an open task: tick keeps it, but the box says open"))
            }
            taskOfItem[index] = tasks.count
            tasks.append(consume task)
        }
        assignTrailingBlankLines()
        assignSections()
        notes = tasks.indices.map(noteText)
        checkColor()
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// A `rec:+…` or `rec:++…` rule counts from the due date, so it needs one; an `until:` needs a
    /// rule to end.
    private func repetitionProblems(_ task: Task) -> [Diagnostic] {
        func at(_ token: TitleLine.Token, _ message: String) -> Diagnostic {
            Diagnostic(line: task.line, column: token.range.lowerBound - lines.start(task.line) + 1, message: message)
        }
        var found: [Diagnostic] = []
        for token in task.tokens {
            switch token.kind {
            case .recurrence where task.due == nil && !task.malformedKeys.contains("due"):
                // A phrase without a due date counts from the completion (its rule is already that mode).
                guard let rule = task.recurrence, rule.mode != .completion else { break }
                let shown = text(bytes, token.range)
                found.append(at(token, "'\(shown)' repeats from the due date, and the task has none: add a due: date, "
                                + "or write rec:\(rule.count)\(rule.unit.rawValue) to repeat from each completion"))
            case .until where task.recurrence == nil && !task.malformedKeys.contains("rec"):
                found.append(at(token, "'\(text(bytes, token.range))' ends a repetition, and the task has no rec: rule"))
            default:
                break
            }
        }
        return found
    }

    /// A `color` that `ListColor` does not accept is reported (and shown without colour).
    private mutating func checkColor() {
        guard let frontMatter, let color = frontMatter["color"], ListColor(color) == nil else { return }
        let line = (2..<frontMatter.closingLine).first { lineText($0).hasPrefix("color:") } ?? 1
        diagnostics.append(Diagnostic(line: line, column: 1,
                                      message: "unknown colour '\(color.escapingNonPrinting)': expected \(ListColor.accepted)"))
    }

    /// Blank lines between two tasks belong to the task above.
    private mutating func assignTrailingBlankLines() {
        guard !tasks.isEmpty else { return }
        var startsTask = [Bool](repeating: false, count: lines.count + 2)
        for i in tasks.indices { startsTask[tasks[i].firstLine] = true }
        for i in tasks.indices {
            var next = tasks[i].contentEndLine + 1
            while next <= lines.count, isBlank(next, quoteDepth: tasks[i].quoteDepth) { next += 1 }
            if next <= lines.count, startsTask[next], next > tasks[i].contentEndLine + 1 {
                tasks[i].lastLine = next - 1
            }
        }
    }

    private mutating func assignSections() {
        var s = 0
        var current: String? = nil
        for i in tasks.indices {
            while s < sections.count, sections[s].line < tasks[i].firstLine {
                current = sections[s].level == 1 ? nil : sections[s].text
                s += 1
            }
            tasks[i].section = current
        }
    }

    // MARK: - Lines

    /// Where the text of line `n` starts: its start, after the byte order mark on line 1.
    func textStart(_ n: Int) -> Int { lines.start(n) + (n == 1 ? bomLength : 0) }

    /// Whether line `n` holds nothing but whitespace inside `quoteDepth` block quotes (a byte
    /// order mark is not text).
    func isBlank(_ n: Int, quoteDepth: Int) -> Bool {
        var quotes = 0
        for i in textStart(n)..<lines.contentEnd(n) {
            let b = bytes[i]
            if isSpaceOrTab(b) { continue }
            if b == UInt8(ascii: ">"), quotes < quoteDepth { quotes += 1; continue }
            return false
        }
        return true
    }

    /// The visual column (0-based, tabs to the next multiple of 4) of byte `offset` on line `n`.
    /// A byte order mark on line 1 is not text and takes no column.
    func visualColumn(of offset: Int, line n: Int) -> Int {
        var column = 0
        for i in min(textStart(n), offset)..<offset {
            column = bytes[i] == 0x09 ? (column / 4 + 1) * 4 : column + 1
        }
        return column
    }

    /// The byte offset on line `n` where its text starts once `quoteDepth` block-quote markers
    /// and indentation up to visual column `column` are taken away.
    func indentEnd(line n: Int, quoteDepth: Int, column: Int) -> Int {
        var i = lines.start(n)
        let end = lines.contentEnd(n)
        var col = 0
        var quotes = 0
        while i < end, col < column {
            let b = bytes[i]
            if b == 0x20 {
                col += 1
            } else if b == 0x09 {
                col = (col / 4 + 1) * 4
            } else if b == UInt8(ascii: ">"), quotes < quoteDepth {
                quotes += 1
                col += 1
            } else {
                break
            }
            i += 1
        }
        return i
    }

    /// The index just past the last descendant of task `i` (descendants follow it contiguously).
    func descendantsEnd(_ i: Int) -> Int {
        var j = i + 1
        while j < tasks.count, tasks[j].depth > tasks[i].depth { j += 1 }
        return j
    }

    /// The lines of task `i` that are notes: after the title line up to its last content line,
    /// except the lines of its subtasks.
    func noteLines(_ i: Int) -> [Int] {
        // Fields one by one: a task is a large value, and a copy of it costs more than this does.
        let line = tasks[i].line, contentEndLine = tasks[i].contentEndLine
        guard contentEndLine > line else { return [] }
        var result: [Int] = []
        var n = line + 1
        for j in (i + 1)..<descendantsEnd(i) where tasks[j].parent == i {
            while n < tasks[j].firstLine { result.append(n); n += 1 }
            n = tasks[j].lastLine + 1
        }
        while n <= contentEndLine { result.append(n); n += 1 }
        return result
    }

    private func noteText(_ i: Int) -> String {
        let quoteDepth = tasks[i].quoteDepth, column = tasks[i].contentColumn
        let texts: [ArraySlice<UInt8>] = noteLines(i).map { n in
            bytes[indentEnd(line: n, quoteDepth: quoteDepth, column: column)..<lines.contentEnd(n)]
        }
        func blank(_ s: ArraySlice<UInt8>) -> Bool { s.allSatisfy(isSpaceOrTab) }
        // Without the leading and trailing blank lines (a slice: removing them one by one from the
        // front was quadratic in a run of blank lines).
        guard let first = texts.firstIndex(where: { !blank($0) }),
              let last = texts.lastIndex(where: { !blank($0) }) else { return "" }
        var out: [UInt8] = []
        for (k, t) in texts[first...last].enumerated() {
            if k > 0 { out.append(0x0A) }
            out.append(contentsOf: blank(t) ? [] : t)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first line ending of the file; what tick uses for lines it writes.
    public var lineEnding: LineEnding { lines.dominantEnding(in: bytes) }

    /// Number of lines.
    public var lineCount: Int { lines.count }

    /// The bytes of line `n` without its ending.
    public func lineText(_ n: Int) -> String {
        String(decoding: bytes[lines.start(n)..<lines.contentEnd(n)], as: UTF8.self)
    }

    /// Task `i`'s title line after its checkbox, as written (title and tokens), up to the line ending.
    public func titleLineText(_ i: Int) -> String {
        String(decoding: bytes[tasks[i].titleRange], as: UTF8.self)
    }

    /// The lines a task spans: from its marker to its last line (notes and subtasks included).
    public func lineRange(of i: Int) -> ClosedRange<Int> { tasks[i].firstLine...tasks[i].lastLine }
}

func isSpaceOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
