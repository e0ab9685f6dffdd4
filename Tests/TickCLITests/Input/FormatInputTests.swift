import Foundation
import Testing

/// What tick writes into list files and what `tick check` reports, end to end: the byte order
/// mark and lone-CR files (issue 9), titles, tokens, front matter, list names and colours
/// (issue 11). "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("format of what tick writes")
struct FormatInputTests {
    static func folder(_ files: [String: String]) throws -> Sandbox { try Fixtures.diskFolder(files) }

    // MARK: - The byte order mark and line ends

    @Test("removing or moving the first task of a file with a byte order mark keeps the mark")
    func byteOrderMark() throws {
        let sandbox = try Self.folder(["a.md": "\u{FEFF}- [ ] one\n- [ ] two\n- [ ] three\n", "b.md": "# B\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "rm", "one"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "\u{FEFF}- [ ] two\n- [ ] three\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "mv", "two", "b"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "\u{FEFF}- [ ] three\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "four", "--list", "a"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "\u{FEFF}- [ ] three\n- [ ] four\n")
    }

    @Test("a file whose conflict markers end in lone CRs is refused for writing, naming the line")
    func loneCRConflictMarkers() throws {
        let text = "# Home\r<<<<<<< HEAD\r- [ ] Call mum\r=======\r- [ ] Call dad\r>>>>>>> other\r"
        let sandbox = try Self.folder(["home.md": text])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--list", "home", "More"]), status: 1, stdout: "",
                  stderr: "tick: home.md:2: the file holds git conflict markers; resolve them before tick writes it\n")
        #expect(try sandbox.read("tasks/home.md") == text)
        let check = try sandbox.run(["--dir", "tasks", "check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("home.md:2:1: git conflict marker"), "\(check)")
    }

    // MARK: - Titles

    @Test("a title of only Unicode spaces or invisible characters is refused by add, edit --title and the editor", arguments: [
        "\u{00A0}", "\u{3000}", "\u{202F}", "\u{2003}\u{2009}", "\u{200B}", "\u{FEFF}", "\u{2060}\u{00A0}", "\u{0085}",
    ])
    func invisibleTitles(_ title: String) throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Call mum\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "add", title, "--list", "home"]), status: 2, stdout: "",
                  stderr: "tick: a task needs a title\n")
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "mum", "--title", title]), status: 2, stdout: "",
                  stderr: "tick: a task needs a title\n")
        let editor = "printf '%s\\n' '\(title)' >"
        expectRun(try sandbox.run(["--dir", "tasks", "edit", "mum"], environment: ["EDITOR": editor]), status: 2, stdout: "",
                  stderr: "tick: a task needs a title\n")
        #expect(try sandbox.read("tasks/home.md") == "- [ ] Call mum\n")
    }

    @Test("titles are trimmed of Unicode spaces and invisible characters at both ends")
    func trimmedTitles() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Call mum\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "\u{FEFF}\u{3000}Milk\u{00A0}\u{200B}", "--list", "home"]),
                  status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "edit", "mum", "--title", "\u{202F}Call dad\u{2003}"]),
                  status: 0, stderr: "")
        #expect(try sandbox.read("tasks/home.md") == "- [ ] Call dad\n- [ ] Milk\n")
    }

    @Test("a title word that tick check would report is refused, so whatever tick writes, check accepts")
    func checkAcceptsWhatTickWrites() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Call mum\n"])
        for words in [["T", "Due:fri"], ["Pack", "DONE:2026-01-01"], ["Party", "Due:2026-02-30"]] {
            let result = try sandbox.run(["--dir", "tasks", "add", "--list", "home"] + words)
            #expect(result.status == 2, "\(words): \(result)")
            #expect(result.stderr.hasPrefix("tick: cannot write this title: '\(words[1])' is not metadata: keys are lower case"),
                    "\(result)")
        }
        // A due: word takes date words; one that is no date is refused as such.
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--list", "home", "Party due:2026-02-30"]), status: 2, stdout: "",
                  stderr: "tick: no such day: '2026-02-30'\n")
        let edit = try sandbox.run(["--dir", "tasks", "edit", "mum", "--title", "due:fri"])
        #expect(edit.status == 2, "\(edit)")
        #expect(edit.stderr.contains("malformed due date 'due:fri'"), "\(edit)")
        #expect(try sandbox.read("tasks/home.md") == "- [ ] Call mum\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "--list", "home", "Wow! Issue #12 !!!! loud due:fri"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "check"]), status: 0, stdout: "Checked 1 list: no problems\n")
    }

    @Test("setting a due date replaces a malformed due: word instead of adding a second one")
    func malformedDueReplaced() throws {
        let sandbox = try Self.folder(["home.md": "- [ ] Party due:2026-11-31 !\n- [ ] Pack Done:2026-03-01\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "party", "fri"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", "pack"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/home.md") == "- [ ] Party due:2026-03-20 !\n- [x] Pack done:2026-03-14\n")
        expectRun(try sandbox.run(["--dir", "tasks", "check"]), status: 0)
    }

    // MARK: - Where add puts a task

    @Test("add --list without --section goes to the list's unsectioned part, not into its last section")
    func addToUnsectionedPart() throws {
        let sandbox = try Self.folder(["home.md": "# Home\n\n- [ ] Milk\n\n## Garden\n\n- [ ] Mow\n",
                                       "work.md": "# Work\n\n## Today\n\n- [ ] Mail\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Bread", "--list", "home"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Plan", "--list", "work"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Milk\n- [ ] Bread\n\n## Garden\n\n- [ ] Mow\n")
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Plan\n\n## Today\n\n- [ ] Mail\n")
    }

    // MARK: - Front matter

    @Test("list set refuses a file whose '---' block is not front matter, and check reports it")
    func unrecognizedFrontMatter() throws {
        let text = "---\ntags:\n- work\n---\n# Work\n- [ ] Mail\n"
        let sandbox = try Self.folder(["work.md": text])
        let result = try sandbox.run(["--dir", "tasks", "list", "set", "work", "--symbol", "💼"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("tick: the file starts with '---' but is not front matter"), "\(result)")
        #expect(try sandbox.read("tasks/work.md") == text)
        let check = try sandbox.run(["--dir", "tasks", "check"])
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("work.md:3:1: the '---' block at the top is not front matter"), "\(check)")
    }

    @Test("a symbol wider than 8 columns is refused by list new and list set, and reported by check")
    func wideSymbols() throws {
        let sandbox = try Self.folder(["work.md": "---\nsymbol: 💼💼💼💼💼\n---\n# Work\n"])
        for arguments in [["list", "new", "Home", "--symbol", "groceries"], ["list", "set", "work", "--symbol", "🛒🛒🛒🛒🛒"]] {
            let result = try sandbox.run(["--dir", "tasks"] + arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("at most 8"), "\(result)")
        }
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "new", "Home", "--symbol", "🏠"]), status: 0, stderr: "")
        let home = try sandbox.run(["--dir", "tasks"])
        #expect(home.stdout.contains("  💼💼💼… Work"), "\(home)")
        let check = try sandbox.run(["--dir", "tasks", "check"])
        #expect(check.stdout.hasPrefix("work.md:2:1: the symbol '💼💼💼💼💼' takes 10 columns; at most 8 are shown"), "\(check)")
    }

    @Test("tick check reports near-miss boxes and tokens on continuation lines")
    func checkSecondLook() throws {
        let sandbox = try Self.folder(["home.md": "# Home\n- [] a\n\n-[ ] b\n\n- [ x] c\n- [ ]d\n\n[ ] e\n\n- [ ] Pay rent\n  due:2026-12-01\n"])
        let check = try sandbox.run(["--dir", "tasks", "check"])
        #expect(check.status == 1)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix(while: { $0 != " " }) } == [
            "home.md:2:3:", "home.md:4:1:", "home.md:6:3:", "home.md:7:3:", "home.md:9:1:", "home.md:12:3:", "Checked",
        ], "\(check)")
    }

    // MARK: - List names, files and colours

    @Test("list file names work on every file system", arguments: [
        ("Q3: Plan?", "q3-plan.md"), ("notes.md", "notes.md"), ("İstanbul", "istanbul.md"), ("I\u{307}zmir", "izmir.md"), ("Покупки", "покупки.md"),
        ("a < b | c", "a-b-c.md"), ("Trailing dot.", "trailing-dot.md"), ("con", "con-list.md"), ("東京 旅行", "東京-旅行.md"),
    ])
    func fileNames(name: String, file: String) throws {
        let sandbox = try Self.folder([:])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "new", name]), status: 0, stderr: "")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("tasks/" + file)), "\(name) → \(file)")
        #expect(!file.unicodeScalars.contains("\u{307}"))
    }

    @Test("list names with bidirectional controls, line separators, zero-width or control characters are refused, escaped", arguments: [
        ("evil\u{202E}txt.md", "evil\\u{202E}txt.md", "bidirectional controls"),
        ("a\u{2066}b", "a\\u{2066}b", "bidirectional controls"),
        ("two\u{2028}lines", "two\\u{2028}lines", "a line or paragraph separator"),
        ("zero\u{200B}width", "zero\\u{200B}width", "zero-width characters"),
        ("joiner\u{200D} x", "joiner\\u{200D} x", "zero-width characters"),
        ("next\u{0085}line", "next\\u{85}line", "control characters"),
    ])
    func refusedNames(name: String, shown: String, reason: String) throws {
        let sandbox = try Self.folder(["work.md": "# Work\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "list", "new", name]), status: 2, stdout: "",
                  stderr: "tick: cannot name a list '\(shown)': a name cannot hold \(reason)\n")
        expectRun(try sandbox.run(["--dir", "tasks", "list", "rename", "work", name]), status: 2, stdout: "",
                  stderr: "tick: cannot name a list '\(shown)': a name cannot hold \(reason)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("tasks")).filter { $0.hasSuffix(".md") } == ["work.md"])
    }

    @Test("an emoji sequence joined by zero-width joiners is a fine list name")
    func emojiName() throws {
        let sandbox = try Self.folder([:])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "new", "👨‍👩‍👧 Family"]), status: 0, stderr: "")
        #expect(sandbox.exists("tasks/👨‍👩‍👧-family.md"))
    }

    @Test("colours: grey and #rgb are accepted; an unknown colour is shown without colour")
    func colours() throws {
        let sandbox = try Self.folder(["a.md": "# Apples\n- [ ] x\n", "p.md": "---\ncolor: pink\n---\n# Pinks\n- [ ] y\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "set", "apples", "--color", "grey"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "list", "new", "Sky", "--color", "#0af"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "---\ncolor: grey\n---\n# Apples\n- [ ] x\n")
        let home = try sandbox.run(["--dir", "tasks", "--color", "always"], environment: ["COLORTERM": "truecolor"])
        #expect(home.stdout.contains("\u{1B}[90mApples\u{1B}[0m"), "\(home)")
        #expect(home.stdout.contains("\u{1B}[38;2;0;170;255mSky\u{1B}[0m"), "\(home)")
        #expect(!home.stdout.contains("mPinks"), "\(home)")
        let check = try sandbox.run(["--dir", "tasks", "check"])
        #expect(check.stdout.hasPrefix("p.md:2:1: unknown colour 'pink'"), "\(check)")
    }
}
