import Testing
import TickFormat

// Edits of a list as a whole (FORMAT.md, section 2), the list colour type, the title check that
// every write path shares (sections 5 and 8.1), and malformed tokens replaced by the edit that
// sets their field (section 8.2).

@Suite("2. Front matter: list edits")
struct ListEditTests {
    @Test("a '---' block that is not front matter is refused by a front-matter edit, and no second block is written", arguments: [
        "---\ntags:\n- work\n---\n# L\n", "---\nSome text\n---\n", "---\n# L\n", "\u{FEFF}---\ntags:\n- work\n---\n",
    ])
    func refusesUnrecognizedFrontMatter(_ text: String) {
        let document = parsed(text)
        #expect(document.frontMatter == nil)
        expectRefused(.badValue) { () throws(EditError) in try document.settingFrontMatter([("symbol", "x")]) }
    }

    @Test("a rename without a heading goes after a '---' block that is not front matter, keeping it on line 1")
    func renameAfterUnrecognizedBlock() throws {
        let document = parsed("---\ntags:\n- work\n---\n- [ ] a\n")
        let result = try document.renamingList(to: "Work")
        #expect(String(decoding: result.document.serialize(), as: UTF8.self) == "---\ntags:\n- work\n---\n# Work\n\n- [ ] a\n")
        #expect(result.document.heading == "Work")
    }

    @Test("a rename keeps the byte order mark, also without a heading", arguments: [
        ("\u{FEFF}# Old\n", "\u{FEFF}# New\n"), ("\u{FEFF}- [ ] a\n", "\u{FEFF}# New\n\n- [ ] a\n"), ("\u{FEFF}", "\u{FEFF}# New\n"),
    ])
    func renameKeepsByteOrderMark(before: String, after: String) throws {
        #expect(String(decoding: try parsed(before).renamingList(to: "New").document.serialize(), as: UTF8.self) == after)
    }

    @Test("front matter added to a file with a byte order mark goes after it")
    func frontMatterAfterByteOrderMark() throws {
        let result = try parsed("\u{FEFF}# L\n").settingFrontMatter([("color", "red")])
        #expect(String(decoding: result.document.serialize(), as: UTF8.self) == "\u{FEFF}---\ncolor: red\n---\n# L\n")
        let removed = try result.document.settingFrontMatter([("color", nil)])
        #expect(String(decoding: removed.document.serialize(), as: UTF8.self) == "\u{FEFF}# L\n")
    }

    @Test("a new list reads back with its name and fields")
    func newList() throws {
        let document = try Document.newList(name: "Groceries", fields: [("symbol", "🛒"), ("color", "#2a9d8f")])
        #expect(String(decoding: document.serialize(), as: UTF8.self) == "---\nsymbol: 🛒\ncolor: \"#2a9d8f\"\n---\n# Groceries\n")
        #expect(throws: EditError.self) { try Document.newList(name: "*Bold*", fields: []) }
    }
}

@Suite("2. Front matter: colours")
struct ListColorTests {
    @Test("names in any case, grey for gray, #RGB and #RRGGBB", arguments: [
        ("red", ListColor.named(.red)), ("Blue", .named(.blue)), ("grey", .named(.gray)), ("GRAY", .named(.gray)),
        ("#2a9d8f", .rgb(red: 0x2A, green: 0x9D, blue: 0x8F)), ("#F0a", .rgb(red: 0xFF, green: 0x00, blue: 0xAA)),
    ])
    func accepted(value: String, color: ListColor) {
        #expect(ListColor(value) == color)
    }

    @Test("anything else is not a colour", arguments: ["pink", "teal", "#12345", "#ggg", "#+ff", "# fff", "", "#", "red "])
    func refused(_ value: String) {
        #expect(ListColor(value) == nil)
    }

    @Test("check accepts what the type accepts and names the accepted forms otherwise")
    func check() {
        #expect(parsed("---\ncolor: grey\n---\n").checkDiagnostics().isEmpty)
        #expect(parsed("---\ncolor: \"#abc\"\n---\n").checkDiagnostics().isEmpty)
        #expect(parsed("---\ncolor: pink\n---\n").checkDiagnostics().map(\.description)
                == ["2:1: unknown colour 'pink': expected \(ListColor.accepted)"])
    }
}

@Suite("8.1 and 8.2: what a title may hold")
struct TitleProblemTests {
    @Test("a title holding a word tick check would report, or a token, is refused", arguments: [
        "T Due:fri", "due:fri", "Party due:2026-02-30", "DONE:2026-01-01 x", "x !!", "x #FLAG", "a\nb",
    ])
    func refused(_ title: String) {
        #expect(Document.titleProblem(title) != nil, "\(title.debugDescription)")
        let document = parsed("- [ ] a\n")
        expectRefused(.badValue) { () throws(EditError) in try document.inserting(NewTask(title: title), at: .end) }
        expectRefused(.badValue) { () throws(EditError) in try document.retitling(0, title) }
    }

    @Test("ordinary titles pass", arguments: ["Call mum", "Wow!", "!!!! loud", "Issue #123", "`due:fri` in code", "C# basics"])
    func accepted(_ title: String) {
        #expect(Document.titleProblem(title) == nil)
    }
}

@Suite("8.2 Edits: a malformed token is replaced, not duplicated")
struct MalformedTokenTests {
    @Test("setting a due date replaces a malformed one", arguments: [
        ("- [ ] Party due:2026-11-31 !\n", "- [ ] Party due:2026-12-04 !\n"),
        ("- [ ] Party Due:2026-12-01\n", "- [ ] Party due:2026-12-04\n"),
        ("- [ ] Party due:soon later due:2026-02-30\n", "- [ ] Party due:2026-12-04 later\n"),
        ("- [ ] Party due:2026-12-01 due:soon\n", "- [ ] Party due:2026-12-04\n"),
    ])
    func setDue(before: String, after: String) throws {
        let document = parsed(before)
        let result = try document.settingDue(0, try due("2026-12-04"))
        expectEdit(result, of: document, gives: after)
        #expect(result.document.checkDiagnostics().isEmpty)
    }

    @Test("clearing a due date removes malformed ones too")
    func clearDue() throws {
        let document = parsed("- [ ] Party due:2026-11-31 now\n")
        expectEdit(try document.settingDue(0, nil), of: document, gives: "- [ ] Party now\n")
    }

    @Test("completing replaces a malformed done: word; reopening removes it")
    func done() throws {
        let document = parsed("- [ ] Pack done:2026-13-01\n")
        expectEdit(try document.settingDone(0, true, on: try day("2026-11-30")), of: document, gives: "- [x] Pack done:2026-11-30\n")
        expectEdit(try document.settingDone(0, false, on: try day("2026-11-30")), of: document, gives: "- [ ] Pack\n")
    }

    @Test("a due date inside code is not malformed and stays")
    func codeStays() throws {
        let document = parsed("- [ ] Explain `due:soon`\n")
        expectEdit(try document.settingDue(0, try due("2026-12-04")), of: document, gives: "- [ ] Explain `due:soon` due:2026-12-04\n")
    }
}
