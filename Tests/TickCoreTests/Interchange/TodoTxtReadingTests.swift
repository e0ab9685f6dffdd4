import Foundation
import Testing
@testable import TickCore
import TickFormat

/// The todo.txt reader, pinned on 3,000 nasty lines (`Fixtures/todotxt/lines.txt`): seeded lines made of
/// the words its grammar looks at (every prefix, valid and not), their near misses, separators, control
/// characters, invalid UTF-8 and text that reads differently as characters than as bytes (a space or
/// `due:` followed by a combining mark, a prepended U+0600). `expected.txt` holds, line for line, what
/// the String-based reader that the byte reader replaced read from each line alone; the byte reader
/// was compared with it on 20,000 more such lines and 300 files before it went.
@Suite("todo.txt reading")
struct TodoTxtReadingTests {
    static let now = Now(day: Day(year: 2026, month: 3, day: 14)!, minutes: 9 * 60 + 30)
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/todotxt")

    static func fixture(_ name: String) throws -> [[UInt8]] {
        let bytes = try Disk.bytes(fixtures.appendingPathComponent(name).path)
        return Array(bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init))
    }

    static func read(_ bytes: [UInt8], list: String? = nil) -> Result<ImportReading, InterchangeError> {
        Result { () throws(InterchangeError) in try TodoTxt.read(bytes, list: list, now: now) }
    }

    @Test("each pinned line reads as the String reader read it: the same task, or the same error")
    func pinnedLines() throws {
        let lines = try Self.fixture("lines.txt")
        let expected = try Self.fixture("expected.txt").map { String(decoding: $0, as: UTF8.self) }
        try #require(lines.count == 3_000 && expected.count == 3_000)
        var tasks = 0, errors = 0
        for (k, line) in lines.enumerated() {
            let result = Self.read(line)
            #expect(Self.rendered(result) == expected[k], "fixture line \(k + 1): \(String(decoding: line, as: UTF8.self).debugDescription)")
            if case .success(let reading) = result { tasks += reading.tasks.count } else { errors += 1 }
        }
        // Both outcomes are well represented.
        #expect(tasks > 1_000 && errors > 1_000, "\(tasks) tasks, \(errors) errors")
    }

    /// Most lines are read without `TitleInput` (`TodoTxt.LineReadings`); each must read as it
    /// reads them: the pinned lines, and seeded lines of title words, tokens and near misses.
    @Test("lines whose reading is known read as tick add reads them typed")
    func knownReadings() throws {
        var rng = SeededRandom(seed: 2_026)
        let words = ["task", "do", "done", "due", "rec", "until", "review", "u", "r", "d", "!", "!!", "!!!!", "#flag",
                     "#FLAG", "#home", "#flags", "@flag", "@FLAG", "@home", "+Proj", "+p", "(A)", "(D)", "x", "2026-03-01",
                     "due:2026-03-20", "due:2026-03-20T09:30", "due:2026-02-30", "rec:1w", "rec:+1m", "rec:2x", "done:2026-03-02",
                     "until:2026-05-01", "due:tomorrow", "9:00", "9am", "noon", "5pm", "`code", "a`b", "pri:B", "id:7",
                     "created:2026-01-01", "key:value", "caf\u{E9}", "\u{0B}v", "a\rdue:2026-03-20", "\u{7F}"]
        var lines = try Self.fixture("lines.txt")
        for _ in 0..<6_000 {
            lines.append(Array((0..<(1 + rng.below(7))).map { _ in rng.pick(words) }.joined(separator: " ").utf8))
        }
        var known = 0
        for line in lines {
            var typed = TodoTxt.LineReadings(typedOnly: true)
            var either = TodoTxt.LineReadings()
            let asTyped = Result { () throws(InterchangeError) in try TodoTxt.read(line, list: nil, now: Self.now, lines: &typed) }
            let read = Result { () throws(InterchangeError) in try TodoTxt.read(line, list: nil, now: Self.now, lines: &either) }
            #expect(Self.rendered(read) == Self.rendered(asTyped), "\(String(decoding: line, as: UTF8.self).debugDescription)")
            #expect(typed.known == 0)
            known += either.known
        }
        // Both ways are well represented.
        #expect(known > 1_500 && known < lines.count - 1_500, "\(known) of \(lines.count) lines known")
    }

    @Test("a file of the pinned lines that read alone gives their tasks in order, each naming its own line")
    func wholeFile() throws {
        let lines = try Self.fixture("lines.txt")
        var file: [UInt8] = []
        var expected: [ImportedTask] = []
        var lineNumber = 0
        for (k, line) in lines.enumerated() {
            guard case .success(let reading) = Self.read(line), let task = reading.tasks.first else { continue }
            // Blank and whitespace-only lines between some of them, and CRLF endings on others.
            if k % 7 == 0 { file += k % 2 == 0 ? [0x0A] : [0x20, 0x09, 0x0D, 0x0A]; lineNumber += 1 }
            file += line + (k % 3 == 0 && line.last != 0x0D ? [0x0D, 0x0A] : [0x0A])
            lineNumber += 1
            var placed = task
            placed.place = "line \(lineNumber)"
            expected.append(placed)
        }
        try #require(expected.count > 1_000)
        #expect(try Self.read(file).get().tasks == expected)
    }

    @Test("with --list every task goes to that list and its +projects stay in the title")
    func fixedList() throws {
        let tasks = try Self.read(Array("(A) task +Proj +Other due:2026-03-20\nx 2026-03-01 done one @flag\n".utf8), list: "Inbox").get().tasks
        #expect(tasks.map(\.list) == ["Inbox", "Inbox"])
        #expect(tasks.map(\.task.title) == ["task +Proj +Other", "done one"])
        #expect(tasks[0].task.priority == .high && tasks[0].task.due == DueDate(iso: "2026-03-20"))
        #expect(tasks[1].task.done && tasks[1].task.doneDate == Day(iso: "2026-03-01") && tasks[1].task.flagged)
    }

    @Test("a bad line refuses the whole file, naming its line number among blank lines")
    func badLineNamed() {
        let file = Array("task one\n\n  \r\ntask two due:2026-03-20\nbad due:2026-02-30\ntask four\n".utf8)
        #expect(Self.read(file) == .failure(InterchangeError("line 5", "'due:2026-02-30' is not a due date YYYY-MM-DD")))
        #expect(Self.read(Array("ok\n\u{FF}".utf8) + [0xFF]) == .failure(InterchangeError("line 2", "not valid UTF-8")))
    }
}

extension TodoTxtReadingTests {
    /// One line for a reading: each task's place and fields, or the error, with non-printing characters escaped.
    static func rendered(_ result: Result<ImportReading, InterchangeError>) -> String {
        switch result {
        case .failure(let error): return "error: " + error.description.escapingNonPrinting
        case .success(let reading):
            if reading.tasks.isEmpty { return "nothing" }
            return reading.tasks.map { imported in
                let t = imported.task
                return [imported.place, "id " + (imported.id ?? "-"), "list " + (imported.list ?? "-"), "title " + t.title,
                        "done \(t.done)", "due " + (t.due?.description ?? "-"), "done on " + (t.doneDate?.description ?? "-"),
                        "priority \(t.priority.rawValue)", "flagged \(t.flagged)", "rule " + (t.recurrence?.token ?? "-"),
                        "until " + (t.until?.description ?? "-"), "notes " + t.notes].joined(separator: " | ")
            }.joined(separator: " || ").escapingNonPrinting
        }
    }
}
