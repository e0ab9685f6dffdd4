import Testing
import TickCore
import TickFormat

// The date words peers read that tick reads too (issue 49 item 10). Friday 17 July 2026, 10:30.

private func at(_ text: String) -> Now {
    guard let now = try? Now(parsing: text) else { fatalError("bad test now \(text)") }
    return now
}

private let friday = at("2026-07-17T10:30")

@Suite("peers' date words")
struct PeerDateWordsTests {
    /// (word, now, the due date written).
    static let words: [(String, String, String)] = [
        ("this friday", "2026-07-17T10:30", "2026-07-17"),   // today is a Friday
        ("this-friday", "2026-07-17T10:30", "2026-07-17"),
        ("this monday", "2026-07-17T10:30", "2026-07-20"),
        ("this saturday", "2026-07-17T10:30", "2026-07-18"),
        ("tues", "2026-07-17T10:30", "2026-07-21"),
        ("weds", "2026-07-17T10:30", "2026-07-22"),
        ("thur", "2026-07-17T10:30", "2026-07-23"),
        ("thurs", "2026-07-17T10:30", "2026-07-23"),
        ("next thurs", "2026-07-17T10:30", "2026-07-23"),
        ("noon", "2026-07-17T10:30", "2026-07-17T12:00"),
        ("noon", "2026-07-17T12:00", "2026-07-18T12:00"),    // that minute has come: tomorrow
        ("tomorrow noon", "2026-07-17T10:30", "2026-07-18T12:00"),
        ("friT17:30", "2026-07-17T10:30", "2026-07-24T17:30"),
        ("midnight", "2026-07-17T10:30", "2026-07-18T00:00"),
        ("dec 24 midnight", "2026-07-17T10:30", "2026-12-24T00:00"),
        ("eod", "2026-07-17T10:30", "2026-07-17T23:59"),
        ("EOD", "2026-07-17T23:59", "2026-07-17T23:59"),
    ]

    @Test("this WEEKDAY, tues, weds, thurs, noon, midnight and eod", arguments: words.indices)
    func word(_ k: Int) throws {
        let (word, now, expected) = Self.words[k]
        #expect(try DueDate(parsing: word, relativeTo: at(now)).description == expected, "'\(word)' at \(now)")
    }

    @Test("eod names the date.end-of-day minute when one is set")
    func configuredEndOfDay() throws {
        var now = friday
        now.endOfDay = 17 * 60 + 30
        #expect(try DueDate(parsing: "eod", relativeTo: now).description == "2026-07-17T17:30")
    }

    @Test("12/24 and 24/12 are refused as ambiguous, naming ISO, without date.order", arguments: ["12/24", "24/12", "1/2/2027"])
    func ambiguous(_ word: String) {
        #expect(throws: DateError.ambiguous(word)) { try DueDate(parsing: word, relativeTo: friday) }
        #expect(DateError.ambiguous(word).description.contains("YYYY-MM-DD (ISO)"))
    }

    /// (word, order, the day, or nil when no such day).
    static let ordered: [(String, DateOrder, String?)] = [
        ("12/24", .mdy, "2026-12-24"),
        ("24/12", .dmy, "2026-12-24"),
        ("7/1", .mdy, "2027-07-01"),          // gone this year: next year
        ("1/7", .dmy, "2027-07-01"),
        ("7/17", .mdy, "2026-07-17"),         // today counts
        ("1/2/2027", .mdy, "2027-01-02"),
        ("1/2/2027", .dmy, "2027-02-01"),
        ("24/12", .mdy, nil),
        ("2/30", .mdy, nil),
        ("2/29/2027", .mdy, nil),
    ]

    @Test("with date.order the numbers read as it says", arguments: ordered.indices)
    func withOrder(_ k: Int) {
        let (word, order, expected) = Self.ordered[k]
        var now = friday
        now.dateOrder = order
        let result = try? DueDate(parsing: word, relativeTo: now)
        #expect(result?.description == expected, "'\(word)' \(order)")
    }
}
