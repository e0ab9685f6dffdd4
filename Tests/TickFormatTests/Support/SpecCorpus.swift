import Foundation

/// The spec files of the shared test corpus, read from `../shared/corpus/` beside the package root.
enum SpecFile: String, CaseIterable, Sendable, CustomStringConvertible {
    case commonMark = "commonmark-spec.txt"
    case gfm = "gfm-spec.txt"

    var description: String { rawValue }
}

/// One example of a spec file: the Markdown input and the HTML the spec expects for it.
struct SpecExample: Sendable, CustomStringConvertible {
    var file: SpecFile
    /// 1-based number, counted over every example of the file (extension examples included),
    /// as the specs' own test runners number them.
    var number: Int
    /// 1-based line of the opening fence in the spec file.
    var line: Int
    /// The input, with `→` replaced by a tab.
    var markdown: [UInt8]
    var html: String

    var description: String { "\(file) example \(number) (line \(line))" }
}

enum SpecCorpusError: Error, CustomStringConvertible {
    case packageRootNotFound(from: String)
    case unreadable(path: String)
    case unterminatedExample(file: SpecFile, line: Int)

    var description: String {
        switch self {
        case .packageRootNotFound(let from):
            "no Package.swift in any folder above \(from)"
        case .unreadable(let path):
            "cannot read the spec corpus file \(path) (expected at ../shared/corpus/ from the package root)"
        case .unterminatedExample(let file, let line):
            "\(file):\(line): example without a closing fence"
        }
    }
}

enum SpecCorpus {
    /// A line of 32 backticks: the closing fence, and the start of every opening fence.
    static let fence = [UInt8](repeating: UInt8(ascii: "`"), count: 32)
    static let openingFence = fence + Array(" example".utf8)

    /// The corpus folder: `../shared/corpus` from the package root, which is the nearest folder
    /// above `testFile` that holds a `Package.swift`.
    static func directory(testFile: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { throw SpecCorpusError.packageRootNotFound(from: testFile) }
            folder = parent
        }
        return folder.deletingLastPathComponent().appendingPathComponent("shared/corpus").standardizedFileURL
    }

    /// Every example of `file`, in order.
    static func examples(of file: SpecFile, testFile: String = #filePath) throws -> [SpecExample] {
        try examples(in: rawContents(of: file, testFile: testFile), file: file)
    }

    /// The bytes of `file`.
    static func rawContents(of file: SpecFile, testFile: String = #filePath) throws -> [UInt8] {
        let path = try directory(testFile: testFile).appendingPathComponent(file.rawValue).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SpecCorpusError.unreadable(path: path)
        }
        return [UInt8](data)
    }

    /// Splits a spec file into its examples: an opening fence (32 backticks, ` example`, and an
    /// optional extension name), the input lines, a line `.`, the HTML lines, a closing fence.
    static func examples(in bytes: [UInt8], file: SpecFile) throws -> [SpecExample] {
        enum State { case prose, markdown, html }
        let tab: [UInt8] = [0x09]
        let arrow = Array("→".utf8)

        var examples: [SpecExample] = []
        var state = State.prose
        var markdown: [UInt8] = []
        var html: [UInt8] = []
        var openedAt = 0
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            switch state {
            case .prose:
                if line.starts(with: openingFence), line.count == openingFence.count || line[line.startIndex + openingFence.count] == 0x20 {
                    state = .markdown
                    openedAt = index + 1
                    markdown = []
                    html = []
                }
            case .markdown:
                if line.elementsEqual([UInt8(ascii: ".")]) {
                    state = .html
                } else {
                    markdown += replacing(arrow, with: tab, in: Array(line)) + [0x0A]
                }
            case .html:
                if line.elementsEqual(fence) {
                    state = .prose
                    examples.append(SpecExample(file: file, number: examples.count + 1, line: openedAt,
                                                markdown: markdown, html: String(decoding: html, as: UTF8.self)))
                } else {
                    html += line + [0x0A]
                }
            }
        }
        guard state == .prose else { throw SpecCorpusError.unterminatedExample(file: file, line: openedAt) }
        return examples
    }

    private static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in line: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.count)
        var i = 0
        while i < line.count {
            if line[i...].starts(with: pattern) {
                out += replacement
                i += pattern.count
            } else {
                out.append(line[i])
                i += 1
            }
        }
        return out
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
