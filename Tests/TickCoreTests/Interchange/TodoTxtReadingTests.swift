import Testing
@testable import TickCore
import TickFormat

/// The todo.txt reader on seeded lines made of the words its grammar looks at, their near misses,
/// separators and the text that reads differently as characters than as bytes.
@Suite("todo.txt reading")
struct TodoTxtReadingTests {
    static let now = Now(day: Day(year: 2026, month: 3, day: 14)!, minutes: 9 * 60 + 30)

    /// Words a line is made of: every prefix the reader tests, valid and not, and the nasty ones.
    static let pool: [String] = [
        "x", "X", "(A)", "(B)", "(C)", "(D)", "(Z)", "(a)", "(AB)", "()", "2026-03-14", "2026-02-30", "2026-3-1",
        "due:2026-03-20", "due:2026-03-20T09:30", "due:2026-13-01", "due:tomorrow", "due:", "Due:2026-03-20",
        "rec:1w", "rec:+1m", "rec:++2d", "rec:bad", "rec:", "until:2026-04-01", "until:2026-02-30",
        "pri:A", "pri:B", "pri:C", "pri:D", "pri:a", "pri:AB", "pri:", "+Proj", "+Other", "+", "++", "+é",
        "@ctx", "@flag", "@Flag", "@", "@tag-x", "@é", "@a/b", "@x.y", "id:abc", "id:", "id:a/b", "id:ABC-1",
        "#flag", "#tag", "!", "!!", "!!!", "!!!!", "`code", "co`de`", "`", "word", "task", "é", "e\u{301}",
        "due:\u{301}2026-03-20", "+\u{301}x", "@\u{301}x", "id:\u{301}", "x\u{301}", "(A\u{301})", "pri:A\u{301}",
        "\u{600}", "\u{A0}", "\u{2003}", "\u{200B}", "\u{FEFF}", "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\r",
        "created:2026-01-01", "done:2026-01-01", "done:2026-01-01T10:00", "9:00", "5pm", "[x]", "- [ ]", "*", "1.",
        "[[link]]", "[due:: 2026-03-20]", "📅", "📅 2026-03-20", "🔁 every week", "ok", "a", "b", "c",
    ]
    static let separators = [" ", " ", " ", "  ", "\t", " \t ", " \u{301}", "\u{600} ", "\u{A0}"]

    static func lines(seed: UInt64, count: Int) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        var lines: [[UInt8]] = []
        for _ in 0..<count {
            var text = random.below(6) == 0 ? random.pick(separators) : ""
            for k in 0..<(1 + random.below(7)) {
                if k > 0 { text += random.below(4) == 0 ? random.pick(separators) : " " }
                // Mostly plain words, so that many lines are read through to a task.
                text += random.below(3) == 0 ? random.pick(pool) : random.pick(["task", "buy", "milk", "+Proj", "(A)",
                                                                                 "due:2026-03-20", "@home", "x"])
            }
            if random.below(8) == 0 { text += random.pick(separators) }
            var bytes = Array(text.utf8)
            if random.below(40) == 0 { bytes.insert(0xFF, at: random.below(bytes.count + 1)) }
            if random.below(6) == 0 { bytes.append(0x0D) }
            lines.append(bytes)
        }
        return lines
    }

    @Test("the byte reader reads every seeded line as the character reader did, task or error")
    func sameAsCharacters() {
        let lines = Self.lines(seed: 44, count: 20_000)
        var tasks = 0
        for line in lines {
            let new = Result { () throws(InterchangeError) in try TodoTxt.read(line, list: nil, now: Self.now) }
            let old = Result { () throws(InterchangeError) in try TodoTxt.legacyRead(line, list: nil, now: Self.now) }
            #expect(new == old, "\(String(decoding: line, as: UTF8.self).debugDescription)")
            if case .success(let reading) = new { tasks += reading.tasks.count }
        }
        // Both outcomes are well represented.
        #expect(tasks > 5_000 && tasks < 19_000, "\(tasks) of 20,000 lines read to a task")
        // Whole files: line numbers, empty lines, CRLF, --list.
        var random = SeededRandom(seed: 45)
        for _ in 0..<300 {
            let file = Self.lines(seed: random.next(), count: 1 + random.below(12))
                .map { random.below(5) == 0 ? [] : $0 }.joined(separator: [0x0A]) + (random.below(2) == 0 ? [0x0A] : [])
            let list = random.below(3) == 0 ? "Inbox" : nil
            let new = Result { () throws(InterchangeError) in try TodoTxt.read(Array(file), list: list, now: Self.now) }
            let old = Result { () throws(InterchangeError) in try TodoTxt.legacyRead(Array(file), list: list, now: Self.now) }
            #expect(new == old, "\(String(decoding: file, as: UTF8.self).debugDescription)")
        }
    }
}

extension TodoTxtReadingTests {
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
