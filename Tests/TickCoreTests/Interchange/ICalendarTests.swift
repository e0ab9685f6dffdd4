import Testing
import TickCore
import TickFormat

@Suite("iCalendar text")
struct ICalendarTests {
    @Test("TEXT escapes backslash, semicolon, comma and line breaks, and drops control characters")
    func escaping() {
        #expect(ICalendar.text("a\\b;c,d\ne\r\nf\rg\u{07}h\ti") == "a\\\\b\\;c\\,d\\ne\\nf\\ng h\ti")
        #expect(ICalendar.text("Größe ✓") == "Größe ✓")
    }

    @Test("lines fold at 75 octets with CRLF and a space, never inside a UTF-8 character, and unfold to the original")
    func folding() {
        for content in [String(repeating: "x", count: 200), "SUMMARY:" + String(repeating: "ö", count: 90),
                        "DESCRIPTION:" + String(repeating: "✓a", count: 60), "SHORT:1", String(repeating: "y", count: 75),
                        String(repeating: "z", count: 76)] {
            var out: [UInt8] = []
            ICalendar.line(content, to: &out)
            let text = String(decoding: out, as: UTF8.self)
            #expect(Array(text.utf8) == out, "a character was split")
            #expect(text.hasSuffix("\r\n"))
            let lines = text.dropLast(1).components(separatedBy: "\r\n")
            for line in lines { #expect(line.utf8.count <= 75) }
            for line in lines.dropFirst() { #expect(line.hasPrefix(" ")) }
            #expect(text.dropLast(1).replacingOccurrences(of: "\r\n ", with: "") == content)
            #expect((lines.count == 1) == (content.utf8.count <= 75))
        }
    }

    @Test("dates: a date-only DUE is VALUE=DATE, a time is floating, DTSTAMP and COMPLETED are UTC")
    func dates() {
        #expect(ICalendar.dueLine(DueDate(day: Day(year: 2026, month: 3, day: 5)!)) == "DUE;VALUE=DATE:20260305")
        #expect(ICalendar.dueLine(DueDate(day: Day(year: 2026, month: 3, day: 5)!, minutes: 9 * 60 + 7)) == "DUE:20260305T090700")
        #expect(ICalendar.utc(0) == "19700101T000000Z")
        #expect(ICalendar.utc(1_773_144_000) == "20260310T120000Z")
        #expect(ICalendar.utc(-1) == "19691231T235959Z")
    }

    @Test("priorities map to 1, 5 and 9; none has no PRIORITY")
    func priorities() {
        #expect(ICalendar.priorityValue(.high) == 1)
        #expect(ICalendar.priorityValue(.medium) == 5)
        #expect(ICalendar.priorityValue(.low) == 9)
        #expect(ICalendar.priorityValue(.none) == nil)
    }

    @Test("a VTODO holds the fields it was given, and an alarm only with a due time")
    func vtodo() {
        let todo = CalendarTodo(uid: "u1", stamp: 0, summary: "S", description: "D", due: DueDate(day: Day(year: 2026, month: 1, day: 2)!),
                                priority: .medium, done: true, completed: 3600, categories: ["a,b", "Home"], parent: "p",
                                flagged: true)
        let text = String(decoding: ICalendar.calendar([todo]), as: UTF8.self)
        #expect(text == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:\(ICalendar.productID)\r\nCALSCALE:GREGORIAN\r\n"
                + "BEGIN:VTODO\r\nUID:u1\r\nDTSTAMP:19700101T000000Z\r\nSUMMARY:S\r\nDESCRIPTION:D\r\n"
                + "DUE;VALUE=DATE:20260102\r\nPRIORITY:5\r\nSTATUS:COMPLETED\r\nPERCENT-COMPLETE:100\r\n"
                + "COMPLETED:19700101T010000Z\r\nCATEGORIES:a\\,b,Home\r\nRELATED-TO;RELTYPE=PARENT:p\r\n"
                + "X-TICK-FLAGGED:TRUE\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        var timed = todo
        timed.due = DueDate(day: Day(year: 2026, month: 1, day: 2)!, minutes: 600)
        #expect(String(decoding: ICalendar.calendar([timed]), as: UTF8.self)
            .contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:S\r\nTRIGGER;RELATED=END:PT0S\r\nEND:VALARM\r\n"))
    }
}
