// What `tick check` reports beyond the diagnostics of parsing (FORMAT.md, section 9): problems
// that need a second look at the file, so only `tick check` pays for them.

extension Document {
    /// Every problem `tick check` reports for this file, in line order: the parse diagnostics,
    /// git conflict markers, text that nearly is a task, metadata tokens on a continuation line
    /// of a task's first paragraph, a `---` block that is not front matter, and a symbol wider
    /// than 8 terminal columns.
    public func checkDiagnostics() -> [Diagnostic] {
        var found = diagnostics
        if let line = Document.conflictMarkerLine(in: bytes, lines: lines) {
            found.append(Diagnostic(line: line, column: 1,
                                    message: "git conflict marker: resolve the conflict; tick writes nothing to this file until then"))
        }
        if let unrecognized = unrecognizedFrontMatter {
            found.append(Diagnostic(line: unrecognized.line, column: 1,
                                    message: "the '---' block at the top is not front matter (\(unrecognized.reason)); tick reads it as Markdown and does not write front matter into this file"))
        }
        if let frontMatter, let symbol = frontMatter["symbol"], terminalWidth(symbol) > Document.maxSymbolWidth {
            let line = (2..<frontMatter.closingLine).first { lineText($0).hasPrefix("symbol:") } ?? 1
            found.append(Diagnostic(line: line, column: 1,
                                    message: "the symbol '\(symbol.escapingNonPrinting)' takes \(terminalWidth(symbol)) columns; at most \(Document.maxSymbolWidth) are shown"))
        }
        found += nearMissBoxes()
        found += continuationTokens()
        return found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// How many problems reading the list finds (what a view reports on standard error): the
    /// parse diagnostics, a git conflict marker, a `---` block that is not front matter and a
    /// symbol too wide, each as `checkDiagnostics()` counts it. Text that nearly is a task and
    /// tokens on a continuation line need a second look at the file, so only `tick check` finds
    /// them. Cheap: the diagnostics are the parse's own, the marker scan reads each line's first bytes.
    public var readingProblemCount: Int {
        var count = diagnostics.count
        if Document.conflictMarkerLine(in: bytes, lines: lines) != nil { count += 1 }
        if unrecognizedFrontMatter != nil { count += 1 }
        if let frontMatter, let symbol = frontMatter["symbol"], terminalWidth(symbol) > Document.maxSymbolWidth { count += 1 }
        return count
    }

    /// The widest list symbol, in terminal columns (FORMAT.md, section 2).
    public static let maxSymbolWidth = 8

    /// Paragraphs that start like a task but are not one: `- [] x`, `-[ ] x`, `- [ x] x`,
    /// `- [ ]x`, `[ ] x`.
    private func nearMissBoxes() -> [Diagnostic] {
        guard Document.mayContainNearMissBox(bytes) else { return [] }
        let starts: [(line: Int, column: Int)]
        if let noted = paragraphStarts {
            starts = noted
        } else if let input = markdownWithoutFrontMatter() {
            starts = input.withUnsafeBufferPointer { CommonMarkConverter.paragraphStarts(of: $0, columnShiftOnFirstLine: 0) }
        } else {
            starts = bytes.withUnsafeBufferPointer { CommonMarkConverter.paragraphStarts(of: $0, columnShiftOnFirstLine: bomLength) }
        }
        let boxes = Set(tasks.map(\.checkbox))
        var found: [Diagnostic] = []
        for start in starts where start.line <= lines.count {
            let offset = lines.start(start.line) + start.column - 1
            guard !boxes.contains(offset), offset < lines.contentEnd(start.line) else { continue }
            let text = Array(bytes[offset..<lines.contentEnd(start.line)])
            let column = offset - textStart(start.line) + 1
            if let message = Document.nearMissMessage(text, firstBlockOfItem: isListItemStart(offset, line: start.line)) {
                found.append(Diagnostic(line: start.line, column: column, message: message))
            }
        }
        return found
    }

    /// Whether the paragraph at `offset` is the first block of a list item: only a list marker
    /// (and block-quote markers and indentation) comes before it on its line.
    private func isListItemStart(_ offset: Int, line: Int) -> Bool {
        var i = offset
        while i > textStart(line), isSpaceOrTab(bytes[i - 1]) { i -= 1 }
        guard i > textStart(line) else { return false }
        let c = bytes[i - 1]
        return c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: ")")
    }

    /// A cheap test before asking cmark: a near-miss needs `[` followed within four bytes by `]`.
    static func mayContainNearMissBox(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "["), bytes[(i + 1)..<min(i + 5, bytes.count)].contains(UInt8(ascii: "]")) { return true }
            i += 1
        }
        return false
    }

    /// Why the paragraph text `text` (from its first byte to the end of its line) is a near-miss
    /// task, or nil when it is not one.
    static func nearMissMessage(_ text: [UInt8], firstBlockOfItem: Bool) -> String? {
        let shown = String(decoding: text.prefix(24), as: UTF8.self).escapingNonPrinting
        // `-[ ] x`: a bullet glued to a box.
        if text.count >= 2, text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "*") || text[0] == UInt8(ascii: "+"),
           case let rest = Array(text.dropFirst()), let box = boxLike(rest), box.inside == 1 {
            return "'\(shown)' is not a task: a list marker needs a space before the box"
        }
        guard let box = boxLike(text) else { return nil }
        let next: UInt8? = box.end < text.count ? text[box.end] : nil
        // `[x](url)`, `[x][ref]`, `[x]: url` are links; `[]` and `[  ]` can be too.
        if let next, next == UInt8(ascii: "(") || next == UInt8(ascii: "[") || next == UInt8(ascii: ":") { return nil }
        if box.inside != 1 {
            return "'\(shown)' is not a task: a box holds exactly one space, x or X"
        }
        guard let next else {
            return firstBlockOfItem ? "'\(shown)' is not a task: a box needs a space or tab after it" : nil
        }
        if !isSpaceOrTab(next) {
            return "'\(shown)' is not a task: a box needs a space or tab after it"
        }
        return firstBlockOfItem ? nil : "'\(shown)' is not a task: a box starts a task only right after a list marker"
    }

    /// `[`, up to three spaces, `x` or `X`, then `]`: how many there are inside, and the offset after `]`.
    private static func boxLike(_ text: [UInt8]) -> (inside: Int, end: Int)? {
        guard text.first == UInt8(ascii: "[") else { return nil }
        var i = 1
        while i < text.count, i <= 4, text[i] == 0x20 || text[i] == UInt8(ascii: "x") || text[i] == UInt8(ascii: "X") { i += 1 }
        guard i < text.count, text[i] == UInt8(ascii: "]") else { return nil }
        return (i - 1, i + 1)
    }

    /// Metadata tokens on a continuation line of a task's first paragraph: they are notes, and
    /// a reader would expect them to count.
    private func continuationTokens() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for task in tasks where task.paragraphEndLine > task.line {
            for n in (task.line + 1)...task.paragraphEndLine {
                let from = indentEnd(line: n, quoteDepth: task.quoteDepth, column: task.contentColumn)
                let rest = n < task.paragraphEndLine ? lines.start(n + 1)..<lines.contentEnd(task.paragraphEndLine) : 0..<0
                let scan = TitleLine(bytes: bytes, range: from..<lines.contentEnd(n), continuation: rest)
                for token in scan.tokens + scan.duplicates {
                    let word = text(bytes, token.range).escapingNonPrinting
                    found.append(Diagnostic(line: n, column: token.range.lowerBound - lines.start(n) + 1,
                                            message: "'\(word)' is on a continuation line, so it is part of the notes, not metadata; move it to the task's first line"))
                }
            }
        }
        return found
    }
}
