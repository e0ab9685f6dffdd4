import Testing
import TickFormat

/// `terminalWidth`: the one width rule, for list symbols (`tick check`, `list set --symbol`) and
/// for the rows tick prints.
@Suite("terminal width")
struct TerminalWidthTests {
    @Test("columns of one character", arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("\u{85}", 0), ("\u{9F}", 0), ("\u{200B}", 0),
        ("界", 2), ("ｱ", 1), ("Ａ", 2), ("🙂", 2), ("☺\u{FE0F}", 2), ("☺\u{FE0E}", 1), ("☺", 1),
        ("🇫🇷", 2), ("👍🏽", 2), ("⌚", 2), ("〈", 2), ("︐", 2), ("ꥠ", 2),
    ])
    func character(_ text: String, _ columns: Int) {
        #expect(terminalWidth(of: Character(text)) == columns)
    }

    @Test("a string's columns add its characters' and skip colour sequences")
    func string() {
        #expect(terminalWidth("ab界🇫🇷") == 6)
        #expect(terminalWidth("\u{1B}[31mred\u{1B}[0m") == 3)
        #expect(terminalWidth("") == 0)
    }

    @Test("text of printable ASCII is a column a byte, as its characters one by one say (FORMAT.md's `groceries`: 9)")
    func printableASCII() {
        let printable = String((0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
        // Controls and DEL are not printable: such text takes the character-by-character rule.
        for text in [printable, "groceries", "a\tb", "a\u{7F}b", "x\u{1F}"] {
            #expect(terminalWidth(text) == text.reduce(0) { $0 + terminalWidth(of: $1) }, "\(text.debugDescription)")
        }
        #expect(terminalWidth(printable) == 95)
        #expect(terminalWidth("groceries") == 9)
    }
}
