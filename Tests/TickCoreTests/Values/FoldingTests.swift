import Foundation
import Testing
@testable import TickCore

/// The search folding against Foundation's case-, diacritic- and width-insensitive folding, letter
/// by letter over every block the generated table covers (scripts/generate-folding-table).
@Suite("search folding")
struct FoldingTests {
    /// The blocks of the generated table.
    static let blocks: [ClosedRange<UInt32>] = [
        0x00C0...0x024F, 0x0250...0x02AF, 0x0370...0x03FF, 0x0400...0x04FF,
        0x1E00...0x1EFF, 0x1F00...0x1FFF, 0xFB00...0xFB06, 0xFF01...0xFF5E,
    ]

    /// Where tick folds on purpose otherwise than Foundation, and what tick gives.
    ///
    /// - Letters Unicode does not decompose but a reader takes for a base letter with a mark, or for
    ///   two letters: tick writes the base letters (`ø` → `o`, `æ` → `ae`, `þ` → `th`); Foundation
    ///   keeps them.
    /// - Digraphs with a compatibility decomposition (`ĳ`, `ǆ`), the Greek upsilon symbol `ϒ` and
    ///   the lunate sigma `ϲ`: tick takes the compatibility decomposition; Foundation only lower-cases.
    /// - Dotless `ı`: tick folds it to `i`, so that Turkish text is found from a plain keyboard.
    static let deliberate: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for (letters, folded) in [
            ("ÆæǢǣǼǽ", "ae"), ("Œœ", "oe"), ("ØøǾǿ", "o"), ("ÐðĐđ", "d"), ("Þþ", "th"), ("Ħħ", "h"),
            ("ı", "i"), ("ŁłĿŀ", "l"), ("Ŧŧ", "t"), ("ŉ", "n"), ("Ĳĳ", "ij"), ("ǄǅǆǱǲǳ", "dz"),
            ("Ǉǈǉ", "lj"), ("Ǌǋǌ", "nj"), ("ϒϓϔ", "υ"), ("ϲϹ", "σ"),
        ] {
            for scalar in letters.unicodeScalars { table[scalar.value] = folded }
        }
        return table
    }()

    /// Foundation's folding of `text`: case, diacritics and width.
    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The letters of the blocks (and every fullwidth form), one string each.
    static var sample: [Unicode.Scalar] {
        blocks.flatMap { block in
            block.compactMap(Unicode.Scalar.init).filter { scalar in
                block.lowerBound == 0xFF01 || "\(scalar.properties.generalCategory)".hasSuffix("Letter")
            }
        }
    }

    @Test("every letter of the table's blocks folds as Foundation folds it, or as the listed difference says")
    func agreesWithFoundation() {
        var disagreements: [String] = []
        var checked = 0
        for scalar in Self.sample {
            let text = String(Character(scalar))
            let ours = String(decoding: Folding.fold(text), as: UTF8.self)
            let expected = Self.deliberate[scalar.value] ?? Self.foundation(text)
            checked += 1
            if ours != expected {
                disagreements.append(String(scalar.value, radix: 16, uppercase: true) + " \(text): tick '\(ours)', expected '\(expected)'")
            }
        }
        #expect(checked > 1_400)
        #expect(disagreements.isEmpty, Comment(rawValue: "\(disagreements.count) letters:\n" + disagreements.joined(separator: "\n")))
    }

    @Test("each listed difference is one: Foundation folds that letter otherwise")
    func differencesAreReal() {
        for (value, folded) in Self.deliberate.sorted(by: { $0.key < $1.key }) {
            let text = String(Character(Unicode.Scalar(value)!))
            #expect(Self.foundation(text) != folded, "U+\(String(value, radix: 16)) \(text)")
        }
    }

    @Test("the table records the Unicode version it was generated from")
    func version() {
        let parts = Folding.unicodeVersion.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }

    @Test("Greek final sigma, ligatures and fullwidth Latin fold to the plain letters")
    func compatibilityForms() {
        #expect(Folding.fold("ΟΔΟΣ") == Folding.fold("οδος"))
        #expect(Folding.fold("οδός") == Array("οδοσ".utf8))
        #expect(Folding.fold("ﬁle ﬂow ﬀ") == Array("file flow ff".utf8))
        #expect(Folding.fold("ＴＩＣＫ ｔｉｃｋ １２") == Array("tick tick 12".utf8))
        #expect(Folding.fold("Straße STRASSE ẞ") == Array("strasse strasse ss".utf8))
    }

    @Test("German umlauts fold to the base letter, not to a transliteration (ü is u, not ue)")
    func noGermanTransliteration() {
        #expect(Folding.fold("Müller Übung Öl Ärger") == Array("muller ubung ol arger".utf8))
    }

    @Test("search finds final sigma, ligatures and fullwidth letters from plain words, and the reverse")
    func searchFindsCompatibilityForms() {
        let library = makeLibrary([("greek.md", "- [ ] Οδός Αθηνάς\n- [ ] ﬁle the taxes\n- [ ] ＴＩＣＫ report\n- [ ] file the other taxes\n- [ ] Müller\n")])
        func titles(_ words: [String]) -> [String] { library.titles(library.search(words).map(\.id)) }
        #expect(titles(["ΟΔΟΣ"]) == ["Οδός Αθηνάς"])
        #expect(titles(["οδοσ"]) == ["Οδός Αθηνάς"])
        #expect(titles(["file"]) == ["ﬁle the taxes", "file the other taxes"])
        #expect(titles(["ﬁle", "other"]) == ["file the other taxes"])
        #expect(titles(["tick"]) == ["ＴＩＣＫ report"])
        #expect(titles(["muller"]) == ["Müller"])
        #expect(titles(["mueller"]) == [])
    }

    @Test("a hit gives the ranges of the searched words in the title, in characters")
    func titleMatches() throws {
        let library = makeLibrary([("home.md", "- [ ] Call Müller about the ﬁle\n  the number is on the fridge\n")])
        let hit = try #require(library.search(["muller", "fi", "fridge"]).first)
        let title = library.task(hit.id).title
        // "Call " is 5 characters, "Müller" 6; the ligature is the 23rd character, one character wide.
        #expect(hit.matches(in: title) == [5..<11, 22..<23])
        #expect(hit.noteLine?.matches == [21..<27])
        #expect(hit.matches(in: "nothing here") == [])
    }
}
