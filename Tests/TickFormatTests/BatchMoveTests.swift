import Testing
@testable import TickFormat
import TickCore

/// The two halves of a move of many tasks (`removingTogether`, `insertingAtEnd`) on seeded random
/// files full of awkward constructs: what they write is, byte for byte, what removing or inserting
/// the tasks one at a time writes, and they do write together most of the time.
@Suite("Moves of many tasks at once")
struct BatchMoveTests {
    static let seeds: [UInt64] = Array(1...6)
    static let casesPerSeed = 300

    /// Tasks of `document`, none inside another, each taken with one chance in `odds` of being left
    /// out (a subtask can be taken when its parent is not).
    static func someOutermost(_ document: Document, _ rng: inout SeededGenerator, odds: UInt64) -> [Int] {
        var result: [Int] = []
        var i = 0
        while i < document.tasks.count {
            if rng.chance(odds) {
                i += 1
            } else {
                result.append(i)
                i = document.descendantsEnd(i)
            }
        }
        return result
    }

    /// A list as people keep them: one marker throughout (`-`, `*`, `+`, `1.`, `1)`), LF or CRLF,
    /// sections, subtasks, notes, items apart by blank lines, sometimes no final line ending.
    static func plainList(_ rng: inout SeededGenerator) -> [UInt8] {
        let eol = rng.chance(3) ? "\r\n" : "\n"
        let bullet = rng.pick(["-", "*", "+", ".", ")"])
        var text = "# List" + eol + eol
        var number = 1
        for k in 0..<(2 + Int(rng.next() % 12)) {
            if rng.chance(6) { text += (text.hasSuffix(eol + eol) ? "" : eol) + "## Section \(k % 3)" + eol + eol; number = 1 }
            let marker = bullet == "." || bullet == ")" ? "\(number)\(bullet)" : bullet
            number += 1
            let pad = String(repeating: " ", count: marker.count + 1)
            text += marker + " [" + rng.pick([" ", "x"]) + "] task \(k)" + (rng.chance(4) ? " #x" : "") + eol
            if rng.chance(4) { text += pad + "a note" + eol }
            for s in 0..<(rng.chance(3) ? 1 + Int(rng.next() % 3) : 0) {
                text += pad + "- [ ] sub \(k).\(s)" + eol
                if rng.chance(4) { text += pad + "  - [ ] deeper" + eol }
            }
            if rng.chance(4) { text += eol }
        }
        if rng.chance(5) { text = String(text.dropLast(eol.count)) }
        return Array(text.utf8)
    }

    @Test("many tasks removed together: the bytes of removing them one at a time from the last",
          arguments: seeds.map { ($0, true) } + seeds.map { ($0, false) })
    func removedTogether(seed: UInt64, nasty: Bool) throws {
        var rng = SeededGenerator(seed: seed &* 6_007)
        var together = 0, cases = 0, outsideCases = 0
        while cases < Self.casesPerSeed {
            let document = Document(bytes: nasty ? NastyDocument.generate(&rng) : Self.plainList(&rng))
            guard document.tasks.count >= 2 else { continue }
            let indexes = Self.someOutermost(document, &rng, odds: 2 + rng.next() % 3)
            guard indexes.count >= 2 else { continue }
            cases += 1
            let outside = indexes.allSatisfy { document.tasks[$0].parent == nil }
            if outside { outsideCases += 1 }
            var alone: Document? = document
            var refusal: EditError? = nil
            for i in indexes.reversed() {
                do {
                    alone = try alone!.removing(i).document
                } catch {
                    refusal = error
                    alone = nil
                    break
                }
            }
            guard let result = try document.removingTogether(indexes) else { continue }
            if outside { together += 1 }
            #expect(refusal == nil, "together wrote what one at a time refuses: \(String(describing: refusal))")
            #expect(result.serialize() == alone?.serialize(),
                    "\(indexes) of \(String(reflecting: String(decoding: document.serialize(), as: UTF8.self)))")
        }
        // Awkward files are mostly removed from one at a time (there the point is that together
        // never writes other bytes); from plain lists, tasks outside others are removed together.
        if !nasty { #expect(together * 10 > outsideCases * 9, "together \(together) of \(outsideCases)") }
    }

    @Test("many tasks inserted together at the end: the bytes of inserting them one at a time", arguments: seeds)
    func insertedTogether(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 15_013)
        var together = 0, cases = 0
        while cases < Self.casesPerSeed {
            let source = Document(bytes: NastyDocument.generate(&rng))
            let picked = Self.someOutermost(source, &rng, odds: 3)
            guard picked.count >= 2 else { continue }
            let fragments = try picked.map { try source.extracting($0) }
            let document = Document(bytes: NastyDocument.generate(&rng))
            var alone = document
            var indexes: [Int] = []
            do {
                for fragment in fragments {
                    let result = try alone.inserting(fragment, at: .end)
                    alone = result.document
                    indexes.append(result.task!)
                }
            } catch {
                // A list where one insertion has no blank line to keep the structure: not a case here.
                continue
            }
            cases += 1
            let result = try document.insertingAtEnd(fragments)
            #expect(result.document.serialize() == alone.serialize(),
                    "\(String(reflecting: String(decoding: document.serialize(), as: UTF8.self)))")
            #expect(result.tasks == indexes)
            // The part written together, on its own: after the first task, as `insertingAtEnd` does.
            let first = try document.inserting(fragments[0], at: .end)
            if let written = first.document.following(first.task!, withFragments: fragments.dropFirst()) {
                together += 1
                #expect(written.document.serialize() == alone.serialize())
                #expect([first.task!] + written.tasks == indexes)
            }
        }
        #expect(together * 10 > cases * 7, "together \(together) of \(cases)")
    }

    /// `make fuzz` found it: a lone CR ending before the removed tasks met the LF after them and
    /// made one CRLF, so the splice together kept one byte less than removing them one at a time.
    @Test("a file with a lone CR ending is removed from one task at a time, never together")
    func loneCarriageReturn() throws {
        let bytes: [UInt8] = [
            45, 32, 91, 32, 93, 32, 255, 255, 255, 255, 87, 97, 116, 101, 114, 32, 197, 114, 148, 48, 58,
            43, 49, 119, 32, 100, 117, 101, 58, 50, 48, 122, 52, 45, 141, 32, 93, 32, 91, 103, 110, 33, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 15, 227, 227, 227, 227, 227, 227, 227, 227, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 32, 93, 32, 87, 97, 116, 101,
            114, 32, 114, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 45, 32, 91, 32, 93, 32, 80, 97,
            101, 13, 45, 32, 91, 32, 93, 32, 116, 119, 45, 36, 91, 32, 93, 32, 47, 110, 101, 13, 45, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227,
            227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 227, 10, 10, 32, 100,
            117, 101, 0, 101, 50, 52, 45, 48, 32, 32, 11, 0, 110, 116, 105, 108,
        ]
        let document = Document(bytes: bytes)
        #expect(document.tasks.count == 2)
        var one = document
        for k in [1, 0] { one = try one.removing(k).document }
        let together = try document.removingTogether([0, 1])
        #expect(together == nil || together!.serialize() == one.serialize())
    }
}
