import Foundation
import Testing

/// `tick search` end to end: what the folding finds (Greek final sigma, ligatures, fullwidth
/// Latin; no German transliteration) and the highlighting of matches in titles and note lines.
@Suite("search folding and highlighting")
struct SearchFoldingTests {
    static let folder = """
        # Errands
        - [ ] Οδός Αθηνάς
        - [ ] ﬁle the taxes
        - [ ] ＴＩＣＫ report
        - [ ] Call Müller
        - [ ] Call the plumber
          The number is on the fridge magnet.

        """

    @Test("final sigma, the fi ligature and fullwidth letters are found from plain words")
    func compatibilityForms() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/errands.md", Self.folder)
        let titles = { (words: [String]) throws -> [String?] in
            try decodeTasks(try sandbox.run(["--dir", "f", "search", "--json"] + words).stdout).map { $0["title"] as? String }
        }
        #expect(try titles(["οδοσ"]) == ["Οδός Αθηνάς"])
        #expect(try titles(["ΟΔΟΣ"]) == ["Οδός Αθηνάς"])
        #expect(try titles(["file"]) == ["ﬁle the taxes"])
        #expect(try titles(["tick"]) == ["ＴＩＣＫ report"])
        #expect(try titles(["ｔｉｃｋ"]) == ["ＴＩＣＫ report"])
        #expect(try titles(["muller"]) == ["Call Müller"])
    }

    @Test("umlauts are not transliterated: mueller does not find Müller")
    func noTransliteration() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/errands.md", Self.folder)
        expectRun(try sandbox.run(["--dir", "f", "search", "mueller"]), status: 1,
                  stdout: "No open task matches 'mueller'.\n", stderr: "")
    }

    @Test("with colour, matches in the title are in reverse video, as in the note line")
    func titleHighlight() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/errands.md", Self.folder)
        let both = try sandbox.run(["--dir", "f", "search", "plumber", "fridge", "--color", "always"])
        #expect(both.status == 0)
        #expect(both.stdout.contains("Call the \u{1B}[7mplumber\u{1B}[27m"))
        #expect(both.stdout.contains("on the \u{1B}[7mfridge\u{1B}[27m magnet."))
        let folded = try sandbox.run(["--dir", "f", "search", "MULLER", "--color", "always"])
        #expect(folded.stdout.contains("Call \u{1B}[7mMüller\u{1B}[27m"))
        let ligature = try sandbox.run(["--dir", "f", "search", "fi", "--color", "always"])
        #expect(ligature.stdout.contains("\u{1B}[7mﬁ\u{1B}[27mle the taxes"))
        let plain = try sandbox.run(["--dir", "f", "search", "plumber"])
        #expect(!plain.stdout.contains("\u{1B}["))
        #expect(plain.stdout.contains("Call the plumber"))
    }

    @Test("a fitted title keeps its highlight on the characters shown, never on the ellipsis")
    func fittedTitleHighlight() throws {
        let sandbox = try Sandbox()
        try sandbox.write("f/long.md", "- [ ] " + String(repeating: "word ", count: 20) + "plumber\n")
        let result = try sandbox.run(["--dir", "f", "search", "word", "plumber", "--color", "always"],
                                     environment: ["COLUMNS": "40"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\u{1B}[7mword\u{1B}[27m"))
        #expect(!result.stdout.contains("\u{1B}[7m…"))
        #expect(!result.stdout.contains("plumber"))
    }
}
