import Testing
@testable import TickFormat
import TickCore

/// A list larger than cmark's arena is parsed in parts (`CommonMarkConverter.partedOutline`): the
/// outline must be the one the whole text gives, whatever the text holds where a part ends.
@Suite("Parsing in parts")
struct PartedParseTests {
    /// The outline of `bytes` parsed whole and in parts of `partSize` bytes, written out.
    private func outlines(_ bytes: [UInt8], partSize: Int = 1) -> (whole: String, parted: String) {
        bytes.withUnsafeBufferPointer { b in
            let whole = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 3, paragraphStarts: true, partSize: 0)
            let parted = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 3, paragraphStarts: true,
                                                     partSize: partSize)
            return (String(describing: whole), String(describing: parted))
        }
    }

    /// How many parts `bytes` falls into at `partSize` (before any part is parsed again with more text).
    private func splitPoints(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { b in
            var count = 0
            var at = 1
            while let next = CommonMarkConverter.splitPoint(b, from: at) {
                count += 1
                at = next + 1
            }
            return count
        }
    }

    /// Blocks that stay open, or look as if they might, across a blank line and a line in the
    /// first column.
    static let awkward: [String] = [
        "```\n- [ ] fenced\n\n- [ ] still fenced\n```\n",
        "```\n- [ ] never closed\n\n- [ ] fenced to the end\n",
        "~~~~\n\n- [ ] in\n~~~\nstill in\n\n~~~~\n",
        "- [ ] item\n  ```\n  code\n\n- [ ] next item closes the fence\n",
        "<!-- a comment\n\n- [ ] inside the comment\n-->\n",
        "<script>\n\n- [ ] in the script\n</script>\n",
        "<?php\n\n- [ ] in\n?>\n",
        "<![CDATA[\n\n- [ ] in\n]]>\n",
        "<!DOCTYPE html\n\n- [ ] in\n>\n",
        "<div>\n- [ ] html block\n\n- [ ] after it\n",
        "    indented code\n\n    more code\n\n- [ ] after\n",
        "> quoted\n>\n> - [ ] in the quote\n\n> another quote\n",
        "> ```\n> fenced in a quote\n\n- [ ] after the quote\n",
        "- [ ] loose\n\n  second paragraph\n\n- [ ] sibling\n",
        "1. [ ] ordered\n\n2. [ ] second\n\n10) [ ] other list\n",
        "Paragraph\n\n===\n\n---\n\n- [ ] after rules\n",
        "# Heading *em* `code`\n\n## Second\n\n- [ ] under it\n",
        "-\n\n  not in the empty item\n\n- [ ] x\n",
        "\t- [ ] tab indented\n\n- [ ] column one\n",
        "- [ ] a\n \n\t\n- [ ] blank lines of spaces and tabs\n",
        "- [ ] crlf\r\n\r\n- [ ] crlf too\r\n",
        "* [ ] star\n\n+ [ ] plus\n\n- [ ] minus\n",
        "- [ ] deep\n  - [ ] deeper\n    - [ ] deepest\n\n      note\n\n- [ ] top\n",
        "Paragraph\n- [ ] interrupts it\n",
        "<div>\n- [ ] in the html block\n- [ ] still in it\n",
        "```\n- [ ] in the fence\n```\n- [ ] after the fence\n",
        "> quote\n- [ ] after the quote\n* [ ] star\n+ [ ] plus\n",
        "- [ ] a\n  note\nlazy\n- [ ] b\n",
        "    code\n- [ ] after the code\n",
        "Setext\n- [ ] not an underline\n---\n",
        "1. [ ] ordered\n- [ ] bullet\n-  [ ] wide\n- [x] done\n",
        "- [ ] item\n  <!-- open comment\n- [ ] closes the item\n-->\n",
        "- [ ] item\n  ```\n- [ ] closes the item and its fence\n",
        "Title\n===\n- [ ] after a setext heading\n> Quoted\n> ---\n- [ ] after another\n",
        "- [ ] a\n\n\u{FEFF}- [ ] not an item: a byte order mark starts the line\n",
    ]

    @Test("every awkward block, alone and after every other, gives the same outline in parts as whole")
    func awkwardBlocks() {
        for a in Self.awkward {
            let alone = outlines(Array(a.utf8))
            #expect(alone.whole == alone.parted, "\(a)")
            for b in Self.awkward {
                let both = outlines(Array((a + "\n" + b).utf8))
                #expect(both.whole == both.parted, "\(a)\n\(b)")
            }
        }
    }

    @Test("a fence left open where a part would end is parsed again with the text after it")
    func openFence() {
        let text = "- [ ] one\n\n```\n\n- [ ] not a task\n\n```\n\n- [ ] two\n"
        let bytes = Array(text.utf8)
        let parted = bytes.withUnsafeBufferPointer {
            CommonMarkConverter.outline(of: $0, columnShiftOnFirstLine: 0, partSize: 1)
        }
        #expect(parted.items.map(\.line) == [1, 9])
        #expect(splitPoints(bytes) == 4)
    }

    @Test("text with a link reference definition or a lone carriage return is parsed whole")
    func wholeOnly() {
        let definition = "[foo]: /url\n\n# [foo]\n\n- [ ] x\n"
        let lone = "- [ ] a\r\r- [ ] b\n\n- [ ] c\n"
        for text in [definition, lone] {
            let bytes = Array(text.utf8)
            #expect(!bytes.withUnsafeBufferPointer(CommonMarkConverter.isPartable))
            let outlines = outlines(bytes)
            #expect(outlines.whole == outlines.parted)
        }
        // The heading's text takes the definition from the other part, as a whole parse does.
        let outline = Array(definition.utf8).withUnsafeBufferPointer {
            CommonMarkConverter.outline(of: $0, columnShiftOnFirstLine: 0, partSize: 1)
        }
        #expect(outline.headings.map(\.text) == ["foo"])
        #expect(Array("- [ ] a\r\n\r\n- [ ] b\n".utf8).withUnsafeBufferPointer(CommonMarkConverter.isPartable))
    }

    @Test("every spec example, and each spec's examples run together, give the same outline in parts as whole",
          arguments: SpecFile.allCases)
    func specExamples(file: SpecFile) throws {
        var together: [UInt8] = []
        var partable = 0
        for example in try SpecCorpus.examples(of: file) {
            for form in ExampleForm.allCases {
                let bytes = example.input(form).bytes
                let outlines = outlines(bytes)
                #expect(outlines.whole == outlines.parted, "\(example), \(form)")
                guard bytes.withUnsafeBufferPointer(CommonMarkConverter.isPartable) else { continue }
                partable += 1
                together += bytes + Array("\n\n".utf8)
            }
        }
        let outlines = outlines(together, partSize: 64)
        #expect(outlines.whole == outlines.parted)
        #expect(partable > 500)
        #expect(splitPoints(together) > 300)
    }

    @Test("random files run together give the same outline in parts as whole", arguments: Array(UInt64(1)...8))
    func randomFiles(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 104_729)
        var parted = 0
        for _ in 0..<100 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + Int(rng.next() % 12)) {
                bytes += rng.chance(3) ? Array(rng.pick(Self.awkward).utf8) : NastyDocument.generate(&rng)
                bytes += rng.pick([[], [0x0A], [0x0A, 0x0A]])
            }
            // Half the files end their lines with line feeds alone (a lone carriage return keeps a
            // file whole).
            if rng.chance(2) {
                bytes = bytes.indices.map { bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A) ? 0x0A : bytes[$0] }
            }
            for size in [1, 40, 300] {
                let outlines = outlines(bytes, partSize: size)
                #expect(outlines.whole == outlines.parted, "seed \(seed), part size \(size): \(String(decoding: bytes, as: UTF8.self))")
            }
            if bytes.withUnsafeBufferPointer(CommonMarkConverter.isPartable) && splitPoints(bytes) > 1 { parted += 1 }
        }
        #expect(parted > 40, "only \(parted) files of 100 fell into parts")
    }

    @Test("the eight-bytes-at-a-time search finds the first of two bytes as a byte-by-byte one does")
    func firstIndex() {
        var rng = SeededGenerator(seed: 31)
        for _ in 0..<2000 {
            let bytes = (0..<Int(rng.next() % 40)).map { _ in rng.pick([0x41, 0x0A, 0x0D, 0x5D, 0x3A, 0xFF, 0x00]) as UInt8 }
            let start = Int(rng.next() % UInt64(bytes.count + 1))
            let naive = bytes[start...].firstIndex { $0 == 0x0D || $0 == 0x5D } ?? bytes.count
            let found = bytes.withUnsafeBufferPointer { CommonMarkConverter.firstIndex(of: 0x0D, or: 0x5D, in: $0, from: start) }
            #expect(found == naive, "\(bytes) from \(start)")
        }
    }

    @Test("a list larger than the arena is parted by default, and reads as the whole text does")
    func largeList() {
        var text = "# Large\n\n"
        var k = 0
        while text.utf8.count < 3 << 20 {
            text += "- [ ] task \(k) #tag due:2026-03-\(k % 18 + 10)\n  a note\n"
            if k % 500 == 0 { text += "\n```\n- [ ] fenced \(k)\n\n```\n\n" }
            if k % 700 == 0 { text += "\n## Part \(k)\n\n" }
            k += 1
        }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { b in
            let byDefault = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 0)
            let whole = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 0, partSize: 0)
            #expect(String(describing: byDefault) == String(describing: whole))
            #expect(byDefault.items.count == k)
        }
        #expect(splitPoints(bytes) > 1000)
        let document = Document(bytes: bytes)
        #expect(document.tasks.count == k)
        #expect(document.serialize() == bytes)
    }
}
