import Testing
import TickFormat

/// The spec examples (the fixture `Fixtures/spec-examples/`): every example input, as written and
/// with checkboxes inserted, round-trips byte for byte, and the tasks found hold up against checks
/// that need no other Markdown implementation.
@Suite("spec corpus")
struct CorpusTests {
    @Test("the fixture holds every example of its spec version, in order", arguments: SpecFile.allCases)
    func holdsEveryExample(file: SpecFile) throws {
        let fixture = try SpecCorpus.fixture(file)
        #expect(fixture.spec == file.title)
        #expect(fixture.version == file.version)
        #expect(fixture.license == "CC-BY-SA 4.0")
        let examples = try SpecCorpus.examples(of: file)
        #expect(examples.count == file.exampleCount)
        #expect(examples.map(\.number) == Array(1...file.exampleCount))
        #expect(zip(examples, examples.dropFirst()).allSatisfy { $0.line < $1.line }, "spec lines must increase")
        #expect(examples.allSatisfy { $0.markdown.last == 0x0A }, "every input ends with a line feed")
        #expect(examples.contains { $0.markdown.contains(0x09) }, "→ must become a tab")
        #expect(!examples.contains { String(decoding: $0.markdown, as: UTF8.self).contains("→") })
    }

    @Test("every example round-trips byte for byte, in every form and with any line ending", arguments: SpecFile.allCases)
    func roundTrip(file: SpecFile) throws {
        for example in try SpecCorpus.examples(of: file) {
            for form in ExampleForm.allCases {
                let lf = example.input(form).bytes
                for (name, bytes) in lineEndVariants(of: lf) {
                    #expect(Document(bytes: bytes).serialize() == bytes, "\(example), \(form), \(name)")
                }
            }
        }
    }

    @Test("CRLF, lone CR or a leading BOM change none of the tasks, notes or headings", arguments: SpecFile.allCases)
    func lineEndsAndBOMChangeNothing(file: SpecFile) throws {
        for example in try SpecCorpus.examples(of: file) {
            for form in ExampleForm.allCases {
                let lf = example.input(form).bytes
                let reference = Summary(Document(bytes: lf))
                for (name, bytes) in lineEndVariants(of: lf).dropFirst() {
                    #expect(Summary(Document(bytes: bytes)) == reference, "\(example), \(form), \(name)")
                }
            }
        }
    }

    @Test("the GFM spec's expected HTML has exactly the checkboxes tick finds")
    func gfmSpecExpectedHTML() throws {
        var tasks = 0
        for example in try SpecCorpus.examples(of: .gfm) {
            let found = Document(bytes: example.markdown).tasks.map(\.done)
            #expect(found == example.checkboxes, "\(example)")
            tasks += found.count
        }
        // The task list section's two examples: 2 + 4 checkboxes.
        #expect(tasks == 6)
    }

    @Test("every task found is a checkbox that was inserted, with its state, and its title is the rest of the line",
          arguments: SpecFile.allCases)
    func tasksAreInsertedCheckboxes(file: SpecFile) throws {
        var found = 0
        for example in try SpecCorpus.examples(of: file) {
            let (bytes, inserted) = example.input(.withCheckboxes)
            let document = Document(bytes: bytes)
            let byLine = Dictionary(uniqueKeysWithValues: inserted.map { ($0.line, $0.done) })
            for task in document.tasks {
                found += 1
                #expect(byLine[task.line] == task.done, "\(example): task on line \(task.line)")
                // Where the rest of the line holds nothing that could be metadata, it is the title.
                let line = document.lineText(task.line)
                let checkbox = task.done ? "[x] " : "[ ] "
                guard let range = line.range(of: checkbox) else {
                    Issue.record("\(example): no \(checkbox) on line \(task.line)")
                    continue
                }
                let rest = line[range.upperBound...]
                if rest.unicodeScalars.allSatisfy({ $0.isASCII }), !rest.contains("!"), !rest.contains(":"),
                   !rest.lowercased().contains("#flag") {
                    #expect(task.title == rest.trimmingSpacesAndTabs(), "\(example): title of line \(task.line)")
                }
            }
        }
        #expect(found > 100, "the inserted checkboxes should give well over a hundred tasks per spec")
    }

    @Test("tasks found in the examples as written sit on checkbox lines", arguments: SpecFile.allCases)
    func tasksAsWrittenSitOnCheckboxLines(file: SpecFile) throws {
        for example in try SpecCorpus.examples(of: file) {
            let document = Document(bytes: example.markdown)
            for task in document.tasks {
                let line = document.lineText(task.line)
                let marks = task.done ? ["[x]", "[X]"] : ["[ ]"]
                #expect(marks.contains { line.contains($0) }, "\(example): line \(task.line) is \(line.debugDescription)")
            }
        }
    }
}

// MARK: - Helpers

/// What a document says about its tasks and headings, for comparing two spellings of one file.
private struct Summary: Equatable {
    var tasks: [ExpectedTask]
    var notes: [String]
    var parents: [Int?]
    var sections: [String?]
    var heading: String?

    init(_ document: Document) {
        tasks = document.tasks.map(ExpectedTask.init)
        notes = document.notes
        parents = document.tasks.map(\.parent)
        sections = document.tasks.map(\.section)
        heading = document.heading
    }
}

/// `lf` as written, with CRLF, with lone CR, and with a leading BOM.
private func lineEndVariants(of lf: [UInt8]) -> [(String, [UInt8])] {
    [
        ("LF", lf),
        ("CRLF", replacingLineFeeds(in: lf, with: [0x0D, 0x0A])),
        ("CR", replacingLineFeeds(in: lf, with: [0x0D])),
        ("BOM", [0xEF, 0xBB, 0xBF] + lf),
    ]
}

extension StringProtocol {
    fileprivate func trimmingSpacesAndTabs() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
