import Foundation

/// The spec examples of the test fixture `Tests/TickFormatTests/Fixtures/spec-examples/`: the
/// example inputs of the CommonMark and GFM specs, extracted from the spec texts by the `extract`
/// script beside them (the fixture's README names the versions, the source and the licence).
enum SpecFile: String, CaseIterable, Sendable, CustomStringConvertible {
    case commonMark = "commonmark.json"
    case gfm = "gfm.json"

    /// The spec, as the fixture file's `spec` field names it.
    var title: String {
        switch self {
        case .commonMark: "CommonMark Spec"
        case .gfm: "GitHub Flavored Markdown Spec"
        }
    }

    /// The version of the spec the examples come from.
    var version: String {
        switch self {
        case .commonMark: "0.31.2"
        case .gfm: "0.29"
        }
    }

    /// How many examples that version of the spec has (opening fences in its spec text).
    var exampleCount: Int {
        switch self {
        case .commonMark: 655
        case .gfm: 673
        }
    }

    var description: String {
        switch self {
        case .commonMark: "CommonMark \(version)"
        case .gfm: "GFM \(version)"
        }
    }
}

/// One example of a spec: its Markdown input and the checkboxes of the HTML the spec expects.
struct SpecExample: Sendable, CustomStringConvertible {
    var file: SpecFile
    /// 1-based number, counted over every example of the spec (extension examples included),
    /// as the specs' own test runners number them.
    var number: Int
    /// 1-based line of the opening fence in the spec text.
    var line: Int
    /// The input, with the spec's `→` replaced by a tab.
    var markdown: [UInt8]
    /// The task-list checkboxes of the spec's expected HTML, in order: true when checked.
    var checkboxes: [Bool]

    var description: String { "\(file) example \(number) (spec line \(line))" }
}

/// One fixture file, as `extract` writes it.
struct SpecFixture: Decodable {
    struct Example: Decodable {
        var example: Int
        var line: Int
        var markdown: String
        var checkboxes: [Bool]
    }

    var spec: String
    var version: String
    var source: String
    var license: String
    var examples: [Example]
}

enum SpecCorpusError: Error, CustomStringConvertible {
    case unreadable(path: String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read the spec examples fixture \(path)"
        }
    }
}

enum SpecCorpus {
    /// The fixture folder: `Fixtures/spec-examples` in the test target, found from this file.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/spec-examples")

    /// The fixture file of `file`, decoded.
    static func fixture(_ file: SpecFile) throws -> SpecFixture {
        let path = directory.appendingPathComponent(file.rawValue).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SpecCorpusError.unreadable(path: path)
        }
        return try JSONDecoder().decode(SpecFixture.self, from: data)
    }

    /// Every example of `file`, in order.
    static func examples(of file: SpecFile) throws -> [SpecExample] {
        try fixture(file).examples.map {
            SpecExample(file: file, number: $0.example, line: $0.line, markdown: Array($0.markdown.utf8),
                        checkboxes: $0.checkboxes)
        }
    }
}

// MARK: - Derived inputs

/// The spec examples hold only two task lists. To put the task rule to work on every construct
/// the specs exercise (lazy lines, block quotes, code, HTML, tabs, nesting), each example also
/// comes in a form with a checkbox inserted after every list-marker-looking line start.
enum ExampleForm: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The input as the spec writes it.
    case asWritten = "as written"
    /// Every line that starts (after spaces, tabs and `>`) with `-`, `*`, `+` or 1–9 digits and
    /// `.` or `)`, followed by a space or tab, gets `[ ] ` (odd lines) or `[x] ` (even lines)
    /// after that run of spaces and tabs.
    case withCheckboxes = "with checkboxes"

    var description: String { rawValue }
}

/// A checkbox that `ExampleForm.withCheckboxes` inserted: its line and whether it is `[x]`.
struct InsertedCheckbox: Hashable, Sendable {
    var line: Int
    var done: Bool
}

extension SpecExample {
    /// The input in `form`, with the checkboxes inserted to make it.
    func input(_ form: ExampleForm) -> (bytes: [UInt8], checkboxes: [InsertedCheckbox]) {
        switch form {
        case .asWritten: return (markdown, [])
        case .withCheckboxes: return SpecExample.insertingCheckboxes(into: markdown)
        }
    }

    static func insertingCheckboxes(into markdown: [UInt8]) -> (bytes: [UInt8], checkboxes: [InsertedCheckbox]) {
        func isSpaceOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var out: [UInt8] = []
        var inserted: [InsertedCheckbox] = []
        // The inputs end with a line feed, so the last piece of the split is empty.
        for (index, line) in markdown.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
            var i = line.startIndex
            while i < line.endIndex, isSpaceOrTab(line[i]) || line[i] == UInt8(ascii: ">") { i += 1 }
            var j = i
            if j < line.endIndex, line[j] == UInt8(ascii: "-") || line[j] == UInt8(ascii: "*") || line[j] == UInt8(ascii: "+") {
                j += 1
            } else {
                while j < line.endIndex, j - i < 9, isDigit(line[j]) { j += 1 }
                if j > i, j < line.endIndex, line[j] == UInt8(ascii: ".") || line[j] == UInt8(ascii: ")") { j += 1 } else { j = i }
            }
            if j > i, j < line.endIndex, isSpaceOrTab(line[j]) {
                while j < line.endIndex, isSpaceOrTab(line[j]) { j += 1 }
                let done = index % 2 == 1
                out += line[..<j] + Array((done ? "[x] " : "[ ] ").utf8) + line[j...]
                inserted.append(InsertedCheckbox(line: index + 1, done: done))
            } else {
                out += line
            }
            out.append(0x0A)
        }
        return (out, inserted)
    }
}

/// `bytes` with every line feed replaced by `ending`.
func replacingLineFeeds(in bytes: [UInt8], with ending: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 16)
    for b in bytes {
        if b == 0x0A { out += ending } else { out.append(b) }
    }
    return out
}
