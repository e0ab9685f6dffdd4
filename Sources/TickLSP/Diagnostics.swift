import TickCore

// Diagnostics: what `tick check` finds in the buffer, each on its token, and a note on a due word
// typed by hand that reads as a date word (`due:tomorrow`), which a code action writes as its date.

/// One open document: its text and what tick reads in it.
struct OpenDocument {
    let uri: String
    var text: TextDocument
    let globalFilter: GlobalFilter?
    private(set) var buffer: ListBuffer
    private(set) var problems: [ListBuffer.Problem] = []

    init(uri: String, text: TextDocument, globalFilter: GlobalFilter?) {
        self.uri = uri
        self.text = text
        self.globalFilter = globalFilter
        buffer = ListBuffer(bytes: [], globalFilter: globalFilter)
    }

    /// Reads the whole text again and finds its problems.
    mutating func recheck() {
        buffer = ListBuffer(bytes: text.bytes, globalFilter: globalFilter)
        problems = buffer.problems()
    }

    /// Applies an incremental change to the text, and checks again what it touched.
    mutating func change(from: Position, to: Position, with replacement: [UInt8], _ encoding: PositionEncoding) {
        var lower = text.offset(from, encoding), upper = text.offset(to, encoding)
        if upper < lower { swap(&lower, &upper) }
        text.replace(from: from, to: to, with: replacement, encoding)
        buffer = buffer.replacing(lower..<upper, with: replacement)
        text.share(buffer.bytes)
    }

    /// Replaces the whole text.
    mutating func replaceAll(with bytes: [UInt8]) {
        text.replaceAll(with: bytes)
        buffer = ListBuffer(bytes: bytes, globalFilter: globalFilter)
    }

    /// Finds the problems of the buffer as it is now.
    mutating func refreshProblems() { problems = buffer.problems() }

    /// The byte range of the token a problem at (1-based) `line` and byte `column` starts: up to the
    /// next space, tab or the line's end.
    func tokenRange(line: Int, column: Int) -> Range<Int> {
        let l = min(max(line - 1, 0), text.lineCount - 1)
        let end = text.contentEnd(l)
        let start = min(text.lineStarts[l] + max(column - 1, 0), end)
        var i = start
        while i < end, text.bytes[i] != 0x20, text.bytes[i] != 0x09 { i += 1 }
        return start..<i
    }

    /// The due words of the text typed by hand that read as date words, each with its task's line
    /// (1-based), the word's byte range and the date it reads as.
    func dateWords(now: Now) -> [(line: Int, range: Range<Int>, date: DueDate)] {
        problems.compactMap { problem in
            let range = tokenRange(line: problem.line, column: problem.column)
            let word = String(decoding: text.bytes[range], as: UTF8.self)
            // The parser reports a malformed due date on a task's title line only.
            guard problem.message.hasPrefix("malformed due date"), word.hasPrefix("due:"),
                  let date = try? DueDate(parsing: String(word.dropFirst(4)), relativeTo: now)
            else { return nil }
            return (problem.line, range, date)
        }
    }
}

extension LanguageServer {
    /// Sends the diagnostics of an open document.
    func publishDiagnostics(_ uri: String) {
        guard let document = documents[uri] else { return }
        var items: [JSON] = []
        for problem in document.problems {
            let range = document.tokenRange(line: problem.line, column: problem.column)
            items.append(.object(["range": document.text.range(range.lowerBound, range.upperBound, encoding),
                                  "severity": .int(problem.message.hasPrefix("git conflict marker") ? 1 : 2),
                                  "source": .string("tick"), "message": .string(problem.message)]))
        }
        for word in document.dateWords(now: env.now()) {
            items.append(.object(["range": document.text.range(word.range.lowerBound, word.range.upperBound, encoding),
                                  "severity": .int(3), "source": .string("tick"),
                                  "message": .string("'\(String(decoding: document.text.bytes[word.range], as: UTF8.self))' reads as a field but is not one: "
                                                     + "tick reads due:\(word.date); the code action writes it")]))
        }
        send(framed(notification("textDocument/publishDiagnostics",
                                .object(["uri": .string(uri), "version": .int(document.text.version), "diagnostics": .array(items)]))))
    }
}
