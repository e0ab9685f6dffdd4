import Testing
import TickFormat

// Helpers shared by the FormatRule*Tests files: one test per rule and example of FORMAT.md.

/// Parses `text` and checks that writing it back gives exactly its bytes.
func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Document {
    parsed(bytes: Array(text.utf8), sourceLocation: sourceLocation)
}

/// Parses `bytes` and checks that writing them back gives exactly them.
func parsed(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Document {
    let document = Document(bytes: bytes)
    #expect(document.serialize() == bytes, "round trip", sourceLocation: sourceLocation)
    return document
}

/// The one task of `text`; fails when it does not hold exactly one.
func onlyTask(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TickFormat.Task {
    let document = parsed(text, sourceLocation: sourceLocation)
    try #require(document.tasks.count == 1, "expected exactly one task in \(text.debugDescription)",
                 sourceLocation: sourceLocation)
    return document.tasks[0]
}

/// The titles of the tasks of `text`, in order.
func titles(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    parsed(text, sourceLocation: sourceLocation).tasks.map(\.title)
}

func day(_ iso: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Day {
    try #require(Day(iso: iso), sourceLocation: sourceLocation)
}

func due(_ iso: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> DueDate {
    try #require(DueDate(iso: iso), sourceLocation: sourceLocation)
}

/// Byte offsets where each line starts (LF, CRLF and lone CR end lines), plus the end of the buffer.
func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    var i = 0
    while i < bytes.count {
        if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
            i += 2
            starts.append(i)
        } else if bytes[i] == 0x0A || bytes[i] == 0x0D {
            i += 1
            starts.append(i)
        } else {
            i += 1
        }
    }
    if starts.last != bytes.count { starts.append(bytes.count) }
    return starts
}

/// Checks an edit's outcome: the exact new bytes, that the bytes outside `replaced`/`replacement`
/// are the old ones, and, when `within` names lines of the original, that the edit stayed inside them.
func expectEdit(_ result: EditResult, of original: Document, gives expected: String,
                within lines: ClosedRange<Int>? = nil, fixes: [StructureFix] = [],
                sourceLocation: SourceLocation = #_sourceLocation) {
    let old = original.serialize()
    let new = result.document.serialize()
    #expect(String(decoding: new, as: UTF8.self) == expected, sourceLocation: sourceLocation)
    #expect(new == Array(expected.utf8), "exact bytes", sourceLocation: sourceLocation)
    #expect(result.fixes == fixes, sourceLocation: sourceLocation)
    guard result.replaced.upperBound <= old.count, result.replacement.upperBound <= new.count else {
        Issue.record("replaced range out of bounds", sourceLocation: sourceLocation)
        return
    }
    if fixes.isEmpty {
        #expect(old[..<result.replaced.lowerBound] == new[..<result.replacement.lowerBound],
                "bytes before the edit unchanged", sourceLocation: sourceLocation)
        #expect(old[result.replaced.upperBound...] == new[result.replacement.upperBound...],
                "bytes after the edit unchanged", sourceLocation: sourceLocation)
    }
    if let lines {
        let starts = lineStarts(old)
        let from = starts[lines.lowerBound - 1]
        let to = lines.upperBound < starts.count ? starts[lines.upperBound] : old.count
        #expect(result.replaced.lowerBound >= from && result.replaced.upperBound <= to,
                "edit \(result.replaced) stays inside lines \(lines) (bytes \(from)..<\(to))",
                sourceLocation: sourceLocation)
    }
}

/// Checks that an edit is refused for `reason`.
func expectRefused(_ reason: EditError.Reason, sourceLocation: SourceLocation = #_sourceLocation,
                   _ edit: () throws(EditError) -> EditResult) {
    do {
        let result = try edit()
        Issue.record("expected \(reason), got \(String(decoding: result.document.serialize(), as: UTF8.self).debugDescription)",
                     sourceLocation: sourceLocation)
    } catch {
        #expect(error.reason == reason, "\(error.message)", sourceLocation: sourceLocation)
    }
}
