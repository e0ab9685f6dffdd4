import Testing
import TickCore

/// The command-independent pieces of the write side: titles as typed, list names, and the text
/// tick writes into list files for `list new`, `list rename` and `list set`.
@Suite("titles, list names and front matter as typed")
struct TitleAndListTextTests {
    static let now = Now(day: Day(year: 2026, month: 3, day: 14)!, minutes: 9 * 60 + 30)

    @Test("a typed title line splits into the title and its metadata, keeping the title's spacing")
    func titleInput() throws {
        let input = try TitleInput(parsing: "!! Call  mum due:fri #FLAG about #garden", now: Self.now)
        #expect(input.title == "Call  mum about #garden")
        #expect(input.due == DueDate(day: Day(year: 2026, month: 3, day: 20)!))
        #expect(input.priority == .medium)
        #expect(input.flagged)
        let timed = try TitleInput(parsing: "Meet due:tomorrow 9:00 at noon done:yesterday", now: Self.now)
        #expect(timed.title == "Meet at noon")
        #expect(timed.due == DueDate(day: Day(year: 2026, month: 3, day: 15)!, minutes: 9 * 60))
        #expect(timed.doneDate == Day(year: 2026, month: 3, day: 13))
        let code = try TitleInput(parsing: "Explain `due:x !` and ``#flag`` here", now: Self.now)
        #expect(code == TitleInput(title: "Explain `due:x !` and ``#flag`` here"))
        #expect(try TitleInput(parsing: "!!!! wow", now: Self.now).title == "!!!! wow")
    }

    @Test("an ASCII title line splits at the same separators as one with other characters", arguments: [
        "Call\tmum due:fri\r\n!!", "  `code due:x`\tand due:sat  ", "a\r\n#flag\nb\rc", "``#flag`` ! x`y due:mon`",
        "Meet due:tomorrow\t9:00 done:yesterday", "tabs\t\t!!!\t",
    ])
    func asciiWords(line: String) throws {
        // A non-ASCII word at the end takes the general path; the ASCII line the fast one.
        let ascii = try TitleInput(parsing: line, now: Self.now)
        var other = try TitleInput(parsing: line + " é", now: Self.now)
        // The same title, then the separators before the added word, and the word.
        #expect(other.title.hasPrefix(ascii.title))
        let rest = other.title.dropFirst(ascii.title.count)
        #expect(rest.hasSuffix("é") && rest.dropLast().allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
        other.title = ascii.title
        #expect(ascii == other)
    }

    @Test("a Unicode space separator splits a typed title line's words")
    func unicodeSpaceSeparatesWords() throws {
        let input = try TitleInput(parsing: "Call\u{00A0}due:fri\u{2003}!!", now: Self.now)
        #expect(input.title == "Call")
        #expect(input.due == DueDate(day: Day(year: 2026, month: 3, day: 20)!))
        #expect(input.priority == .medium)
    }

    @Test("a typed title line with a bad date or a repeated token is refused")
    func titleInputErrors() {
        #expect(throws: TitleInputError.date(.notADate("soon"))) { try TitleInput(parsing: "X due:soon", now: Self.now) }
        #expect(throws: TitleInputError.date(.notADate("due:"))) { try TitleInput(parsing: "X due:", now: Self.now) }
        #expect(throws: TitleInputError.repeated("priority")) { try TitleInput(parsing: "X ! !!", now: Self.now) }
        #expect(throws: TitleInputError.repeated("due date")) { try TitleInput(parsing: "X due:fri due:sat", now: Self.now) }
        #expect(throws: TitleInputError.date(.notADate("done:friT10:00"))) {
            try TitleInput(parsing: "X done:friT10:00", now: Self.now)
        }
    }

    @Test("a list's file name is its name in lower case with hyphens for spaces", arguments: [
        ("Work Stuff", "work-stuff.md"), ("  Groceries ", "groceries.md"), ("Café  Trips", "café-trips.md"),
        ("Q3  Plan B", "q3-plan-b.md"), ("x.md", "x.md"), ("Notes.MD", "notes.md"), ("con", "con-list.md"), ("Aux.txt", "aux-list.txt.md"),
        ("?Plan:", "plan.md"), ("I\u{307}stanbul", "istanbul.md"),
    ])
    func fileNames(name: String, file: String) throws {
        #expect(try ListNaming.fileName(for: name) == file)
    }

    @Test("a name made only of characters a file name cannot hold is refused")
    func noLettersLeft() {
        #expect(throws: MutationError.badListName("???", reason: "it leaves no letters for a file name")) {
            try ListNaming.fileName(for: "???")
        }
    }

    @Test("renaming keeps every byte but the heading's text", arguments: [
        ("# Old\n\n- [ ] a\n", "# New name\n\n- [ ] a\n"),
        ("  #   Old   ##  \r\n- [ ] a\r\n", "  #   New name   ##  \r\n- [ ] a\r\n"),
        ("\u{FEFF}# Old\n", "\u{FEFF}# New name\n"),
        ("Old\n===\n\ntext\n", "New name\n===\n\ntext\n"),
        ("---\nsymbol: x\n---\n# Old\n", "---\nsymbol: x\n---\n# New name\n"),
        ("- [ ] a\n", "# New name\n\n- [ ] a\n"),
        ("---\ncolor: red\n---\n- [ ] a\n", "---\ncolor: red\n---\n# New name\n\n- [ ] a\n"),
        ("", "# New name\n"),
        ("text", "# New name\n\ntext"),
        ("## Section\r- [ ] a\r", "# New name\r\r## Section\r- [ ] a\r"),
    ])
    func rename(before: String, after: String) throws {
        #expect(String(decoding: try ListText.renamed(Array(before.utf8), to: "New name"), as: UTF8.self) == after)
    }

    @Test("a name that would not read back as the heading is refused")
    func renameRefused() {
        #expect(throws: MutationError.self) { try ListText.renamed(Array("# Old\n".utf8), to: "*New*") }
        #expect(throws: MutationError.self) { try ListText.new(name: "New #", fields: []) }
    }

    @Test("front matter keys change in place, are added before the closing fence, or the block is added or removed")
    func frontMatter() throws {
        func set(_ text: String, _ fields: [(key: String, value: String?)]) throws -> String {
            String(decoding: try ListText.settingFields(Array(text.utf8), fields), as: UTF8.self)
        }
        #expect(try set("---\ncolor: red\nother: 1\n---\n# L\n", [("color", "blue")]) == "---\ncolor: blue\nother: 1\n---\n# L\n")
        #expect(try set("---\nother: 1\n---\n# L\n", [("symbol", "🛒")]) == "---\nother: 1\nsymbol: 🛒\n---\n# L\n")
        #expect(try set("# L\r\n\r\n- [ ] a\r\n", [("color", "#2a9d8f")]) == "---\r\ncolor: \"#2a9d8f\"\r\n---\r\n# L\r\n\r\n- [ ] a\r\n")
        #expect(try set("---\ncolor: red\nother: 1\n---\n# L\n", [("color", nil)]) == "---\nother: 1\n---\n# L\n")
        #expect(try set("---\ncolor: red\n---\n# L\n", [("color", nil)]) == "# L\n")
        #expect(try set("# L\n", [("color", nil)]) == "# L\n")
    }

    @Test("colours are names (grey too), #RGB or #RRGGBB; symbols are one line")
    func values() throws {
        #expect(try ListNaming.validatedColor("Blue") == "Blue")
        #expect(try ListNaming.validatedColor("grey") == "grey")
        #expect(try ListNaming.validatedColor("#a0C") == "#a0C")
        #expect(try ListNaming.validatedColor("#A0b1C2") == "#A0b1C2")
        #expect(throws: MutationError.self) { try ListNaming.validatedColor("#12345") }
        #expect(throws: MutationError.self) { try ListNaming.validatedColor("teal") }
        #expect(throws: MutationError.self) { try ListNaming.validatedSymbol("a\nb") }
        #expect(try ListNaming.validatedSymbol(" 🛒 ") == "🛒")
    }
}
