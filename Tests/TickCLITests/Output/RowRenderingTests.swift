import Foundation
import Testing

/// One row renderer: every view renders the same text with and without colour, and fits every
/// width from 30 columns up (issue 10 item 4, issue 11 item 14).
@Suite("row rendering")
struct RowRenderingTests {
    /// Every command that prints task rows, on the `views` fixture with a list of wide titles added.
    static let commands: [[String]] = [
        ["today"], ["tomorrow"], ["upcoming", "30"], ["scheduled"], ["flagged"], ["all"], ["all", "--all"],
        ["completed"],
        ["ls", "projects"], ["ls", "projects", "--sort", "due"], ["ls", "wide"],
        ["show", "release notes"], ["show", "宿題"], ["search", "cafe"], ["search", "--all", "e"],
        ["pick", "--seed", "7"],
    ]
    static let widths = [30, 40, 60, 80, 200]

    /// The `views` fixture plus a list whose titles are CJK, emoji and long, with every row part.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("views")
        try sandbox.write("views/wide.md", """
            # Wide and long list name for narrow terminals

            - [ ] 宿題を終わらせて先生にメールで提出する 🎉🎉 !!! #flag due:2026-03-10
              Notes, so that the row has its ✎.
              - [ ] 漢字の練習を毎日三十分ずつ続ける ! due:2026-03-14T08:00
                - [ ] 👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍👍 deep
            - [ ] Re\u{301}sume\u{301} of a very long title that keeps going well past any narrow width !! due:2026-03-20
            - [ ] a                                    spaced title due:2027-02-01
            - [x] 完了した長いタスクのタイトルはここにあります done:2026-03-13

            """)
        return sandbox
    }

    @Test("styled and plain rows hold the same text, at every width and without one", arguments: commands)
    func styledMatchesPlain(arguments: [String]) throws {
        let sandbox = try Self.sandbox()
        let command = ["--dir", "views"] + arguments
        // A pick is never the current pick again: each run starts with none.
        func run(_ extra: [String] = [], environment: [String: String] = [:]) throws -> TickResult {
            if arguments.first == "pick" { _ = try sandbox.run(["--dir", "views", "pick", "--clear"]) }
            return try sandbox.run(command + extra, environment: environment)
        }
        let plain = try run()
        #expect(plain.status == 0, "\(plain)")
        #expect(!plain.stdout.contains("\u{1B}"))
        let styled = try run(["--color", "always"])
        #expect(styled.stdout.contains("\u{1B}["), "no styling at all: \(styled)")
        #expect(stripped(styled.stdout) == plain.stdout)
        for width in Self.widths {
            let columns = ["COLUMNS": String(width)]
            let fitted = try run(environment: columns)
            let fittedStyled = try run(["--color", "always"], environment: columns)
            #expect(stripped(fittedStyled.stdout) == fitted.stdout, "at \(width) columns")
            if width == 200 { #expect(fitted.stdout == plain.stdout, "nothing needs fitting at 200 columns") }
        }
    }

    @Test("no row is wider than the terminal, from 30 columns up", arguments: commands)
    func rowsFit(arguments: [String]) throws {
        let sandbox = try Self.sandbox()
        for width in Self.widths {
            let result = try sandbox.run(["--dir", "views"] + arguments, environment: ["COLUMNS": String(width)])
            let rows = result.stdout.split(separator: "\n").filter(isRow)
            #expect(!rows.isEmpty, "\(arguments) shows no rows")
            for row in rows {
                #expect(terminalColumns(String(row)) <= width, "\(width) columns: '\(row)'")
                #expect(!row.contains(" …"), "a space before the ellipsis: '\(row)'")
            }
        }
    }

    @Test("as the width falls, the list name goes first, then the due words shorten, then the title is cut")
    func whatGivesWay() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/errands.md", "- [ ] Collect the parcel from the post office !! due:2026-03-20\n")
        func row(_ width: Int) throws -> String {
            let out = try sandbox.run(["--dir", "w", "scheduled"], environment: ["COLUMNS": String(width)])
            #expect(out.status == 0)
            return String(try #require(out.stdout.split(separator: "\n").last)).replacingRef()
        }
        #expect(try row(200) == "  REF  [ ] Collect the parcel from the post office !!  due Fri  · errands")
        #expect(try row(62) == "  REF  [ ] Collect the parcel from the post office !!  due Fri")
        #expect(try row(61) == "  REF  [ ] Collect the parcel from the post office !!  Mar 20")
        #expect(try row(40) == "  REF  [ ] Collect the parce… !!  Mar 20")
        #expect(try row(30) == "  REF  [ ] Collect… !!  Mar 20")
    }

    @Test("an overdue due shortens to 'late' and the date; below six title columns the tail gives way")
    func overdueAndTail() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/a.md", "- [ ] Renew the passport before the trip !!! #flag due:2026-03-10\n  a note\n")
        func row(_ width: Int) throws -> String {
            let out = try sandbox.run(["--dir", "w", "today"], environment: ["COLUMNS": String(width)])
            return String(try #require(out.stdout.split(separator: "\n").last)).replacingRef()
        }
        #expect(try row(80) == "  REF  [ ] Renew the passport before the trip !!! ⚑  overdue Mar 10  ✎  · a")
        #expect(try row(50) == "  REF  [ ] Renew the passpo… !!! ⚑  late Mar 10  ✎")
        #expect(try row(30) == "  REF  [ ] Renew the pa… !!! ⚑")
    }

    @Test("wide characters are measured in terminal columns and never split")
    func wideCharacters() throws {
        let sandbox = try Sandbox()
        try sandbox.write("w/a.md", "- [ ] 宿題を終わらせて先生にメールで提出する\n- [ ] 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉\n")
        let out = try sandbox.run(["--dir", "w", "ls", "a"], environment: ["COLUMNS": "30"])
        let rows = out.stdout.split(separator: "\n").filter(isRow).map { String($0).replacingRef() }
        #expect(rows == ["  REF  [ ] 宿題を終わらせて先…", "  REF  [ ] 🎉🎉🎉🎉🎉🎉🎉🎉🎉…"])
    }
}

/// Whether a line of output is a task row or a search hit's note line.
private func isRow(_ line: Substring) -> Bool {
    line.contains("[ ] ") || line.contains("[x] ") || line.contains("↳")
}

/// `text` without ANSI SGR sequences.
private func stripped(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

/// The C library's `wcwidth` (which the Glibc module does not export).
@_silgen_name("wcwidth") private func cWidth(_ character: Int32) -> Int32

/// Terminal columns of `text` as the C library's `wcwidth` counts them, one grapheme at a time.
private func terminalColumns(_ text: String) -> Int {
    setlocale(LC_CTYPE, "C.UTF-8")
    return text.reduce(0) { sum, character in
        let scalars = character.unicodeScalars
        let first = Int(cWidth(Int32(bitPattern: scalars.first!.value)))
        return sum + max(first, scalars.contains { $0.value == 0xFE0F } ? 2 : 0)
    }
}

private extension String {
    /// The row with its ref (the first word) replaced by `REF`, so expectations do not depend on hashes.
    func replacingRef() -> String {
        replacingOccurrences(of: "^( *)[23456789bcdfghjkmnpqrstvwxz]{3,14}(?= )", with: "$1REF",
                             options: .regularExpression)
    }
}
