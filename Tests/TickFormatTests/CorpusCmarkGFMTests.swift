import Testing
import TickFormat

/// tick's tasks against the reference, `cmark-gfm -e tasklist`, on every spec example: the sequence
/// of checkbox states in document order must be the same, except on the examples listed in
/// `CorpusCmarkGFMTests.deliberateDifferences`, and on exactly those.
@Suite("spec corpus against cmark-gfm")
struct CorpusCmarkGFMTests {
    /// Every example on which tick and cmark-gfm 0.29 disagree, and why. FORMAT.md documents the
    /// reasons. On the examples as written they never disagree (the specs hold two task lists);
    /// the forms with inserted checkboxes show three of the reasons.
    static let deliberateDifferences: [(file: SpecFile, example: Int, form: ExampleForm, reason: Difference)] = [
        (.commonMark, 237, .withCheckboxes, .blockQuote),
        (.commonMark, 261, .withCheckboxes, .blockQuote),
        (.commonMark, 262, .withCheckboxes, .blockQuote),
        (.commonMark, 294, .withCheckboxes, .blockQuote),
        (.commonMark, 295, .withCheckboxes, .blockQuote),
        (.commonMark, 302, .withCheckboxes, .firstBlockIsHeading),
        (.gfm, 213, .withCheckboxes, .blockQuote),
        (.gfm, 237, .withCheckboxes, .blockQuote),
        (.gfm, 238, .withCheckboxes, .blockQuote),
        (.gfm, 270, .withCheckboxes, .blockQuote),
        (.gfm, 271, .withCheckboxes, .blockQuote),
        (.gfm, 278, .withCheckboxes, .firstBlockIsHeading),
        (.gfm, 280, .withCheckboxes, .checkboxLaterOnLine),
    ]

    struct Disagreement: Hashable, CustomStringConvertible {
        var file: SpecFile
        var example: Int
        var form: ExampleForm
        var description: String { "\(file) example \(example), \(form)" }
    }

    @Test("tasks agree with cmark-gfm -e tasklist on every example, except the listed deliberate differences",
          arguments: SpecFile.allCases)
    func agreesWithCmarkGFM(file: SpecFile) throws {
        let tool = try #require(CmarkGFM.locate(), "\(CmarkGFM.missingMessage)")
        let examples = try SpecCorpus.examples(of: file)
        let cases = examples.flatMap { example in ExampleForm.allCases.map { (example, $0, example.input($0).bytes) } }
        let reference = try tool.checkboxes(of: cases.map(\.2))

        var found: [Disagreement: String] = [:]
        var tasks: [ExampleForm: Int] = [:]
        for ((example, form, input), expected) in zip(cases, reference) {
            let states = Document(bytes: input).tasks.map(\.done)
            tasks[form, default: 0] += states.count
            if states != expected {
                found[Disagreement(file: file, example: example.number, form: form)] =
                    "tick \(states), cmark-gfm \(expected), input:\n\(String(decoding: input, as: UTF8.self))"
            }
        }

        let listed = Dictionary(uniqueKeysWithValues: Self.deliberateDifferences.filter { $0.file == file }.map {
            (Disagreement(file: $0.file, example: $0.example, form: $0.form), $0.reason)
        })
        for (disagreement, details) in found.sorted(by: { $0.key.example < $1.key.example }) {
            guard let reason = listed[disagreement] else {
                Issue.record("\(disagreement): tick and cmark-gfm disagree, and it is not a listed deliberate difference: \(details)")
                continue
            }
            let input = examples[disagreement.example - 1].input(disagreement.form).bytes
            #expect(reason.isPlausible(for: input), "\(disagreement): the input shows no sign of '\(reason.rawValue)': \(details)")
        }
        for disagreement in listed.keys where found[disagreement] == nil {
            Issue.record("\(disagreement) is listed as a deliberate difference, but tick and cmark-gfm now agree on it")
        }
        // The corpus must exercise the rule: the GFM spec's two task lists, and many inserted checkboxes.
        #expect(tasks[.withCheckboxes, default: 0] > 100)
        if file == .gfm { #expect(tasks[.asWritten, default: 0] == 6) }
    }

    @Test("each deliberate difference shows on its smallest input", arguments: Difference.allCases)
    func smallestInput(difference: Difference) throws {
        let tool = try #require(CmarkGFM.locate(), "\(CmarkGFM.missingMessage)")
        let (input, tick, cmarkGFM) = difference.smallestInput
        let bytes = Array(input.utf8)
        #expect(Document(bytes: bytes).tasks.map(\.done) == tick, "tick on \(input.debugDescription)")
        #expect(try tool.checkboxes(of: [bytes]) == [cmarkGFM], "cmark-gfm on \(input.debugDescription)")
        #expect(tick != cmarkGFM)
        #expect(difference.isPlausible(for: bytes))
    }
}

/// A reason why tick and cmark-gfm 0.29 find different tasks, on purpose: tick follows the task
/// rule of FORMAT.md (a list item whose first block is a paragraph that begins with a checkbox and
/// a space or tab); cmark-gfm matches the line that opens the list item with a pattern.
enum Difference: String, CaseIterable, Sendable, CustomStringConvertible {
    case blockQuote = "task inside a block quote: cmark-gfm does not see it, tick does"
    case checkboxLaterOnLine = "cmark-gfm marks a task done when [x] appears anywhere on its line; tick reads only the task's own checkbox"
    case firstBlockIsHeading = "the item's paragraph is underlined (--- or ===) into a setext heading: cmark-gfm keeps the task, tick sees a heading first"
    case byteOrderMark = "task on line 1 after a byte order mark: cmark-gfm does not see it, tick does"
    case checkboxOnNextLine = "the marker stands alone and the checkbox starts the next line: cmark-gfm does not see it, tick does (the first block is a paragraph that begins with the checkbox)"
    case otherWhitespaceAfterCheckbox = "a vertical tab or form feed after the checkbox: cmark-gfm takes it as whitespace, tick requires a space or tab"

    var description: String { rawValue }

    /// The smallest input that shows the difference, and the checkbox states each tool finds.
    var smallestInput: (input: String, tick: [Bool], cmarkGFM: [Bool]) {
        switch self {
        case .blockQuote: ("> - [ ] a\n", [false], [])
        case .checkboxLaterOnLine: ("- [ ] a [x]\n", [false], [true])
        case .firstBlockIsHeading: ("- [ ] a\n  ---\n", [], [false])
        case .byteOrderMark: ("\u{FEFF}- [ ] a\n", [false], [])
        case .checkboxOnNextLine: ("-\n  [ ] a\n", [false], [])
        case .otherWhitespaceAfterCheckbox: ("- [ ]\u{0B}a\n", [], [false])
        }
    }

    /// A cheap check that `input` has the feature this reason names, so that a table entry with
    /// the wrong reason fails.
    func isPlausible(for input: [UInt8]) -> Bool {
        let lines = String(decoding: input, as: UTF8.self).split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
        func trimmed(_ line: Substring) -> Substring { line.drop { $0 == " " || $0 == "\t" } }
        switch self {
        case .blockQuote:
            return lines.contains { trimmed($0).hasPrefix(">") && ($0.contains("[ ]") || $0.contains("[x]")) }
        case .checkboxLaterOnLine:
            return lines.contains { line in
                guard let first = line.range(of: "] ") else { return false }
                return line[first.upperBound...].contains("[x]") || line[first.upperBound...].contains("[X]")
            }
        case .firstBlockIsHeading:
            return lines.contains { line in
                let rest = trimmed(line)
                return !rest.isEmpty && (rest.allSatisfy { $0 == "-" } || rest.allSatisfy { $0 == "=" })
                    && (line.first == " " || line.first == "\t")
            }
        case .byteOrderMark:
            return input.starts(with: [0xEF, 0xBB, 0xBF])
        case .checkboxOnNextLine:
            return zip(lines, lines.dropFirst()).contains { ["-", "*", "+"].contains(String(trimmed($0.0))) && trimmed($0.1).hasPrefix("[") }
        case .otherWhitespaceAfterCheckbox:
            return input.contains(0x0B) || input.contains(0x0C)
        }
    }
}
