import Testing
import TickFormat
@testable import TickCore

/// The configuration key `date.tonight`: the time the date word `tonight` names.
@Suite("date.tonight setting")
struct TonightSettingTests {
    static func read(_ text: String) -> (settings: Settings, warnings: [String]) {
        var settings = Settings()
        var warnings: [String] = []
        Configuration.parse(Array(text.utf8), file: "/home/me/.config/tick/config", into: &settings, warnings: &warnings)
        return (settings, warnings)
    }

    @Test("HH:MM and H:MM are read as minutes after midnight; its line is its origin")
    func goodValues() {
        #expect(Self.read("date.tonight = 19:30\n").settings.tonight == 19 * 60 + 30)
        #expect(Self.read("date.tonight=7:05 # early\n").settings.tonight == 7 * 60 + 5)
        #expect(Self.read("date.tonight = 00:00\n").settings.tonight == 0)
        #expect(Self.read("date.tonight = 23:59\n").settings.tonight == 23 * 60 + 59)
        #expect(Self.read("\ndate.tonight = 21:00\n").settings.origins["date.tonight"] == "/home/me/.config/tick/config:2")
        #expect(Self.read("date.tonight = 21:00\n").warnings == [])
    }

    @Test("a bad value is a warning naming the file, the line and the key, and leaves tonight at 18:00")
    func badValues() {
        for value in ["24:00", "19:60", "7pm", "19", "19:3", "119:30", "-1:00", "19:30:00", "١٩:٣٠", "tonight"] {
            let (settings, warnings) = Self.read("color = never\ndate.tonight = \(value)\n")
            #expect(settings.tonight == nil, "\(value)")
            #expect(warnings == ["/home/me/.config/tick/config:2: bad value '\(value)' for date.tonight "
                                 + "(expected a time HH:MM, from 00:00 to 23:59); ignored"], "\(value)")
        }
        #expect(Self.read("date.tonight =\n").warnings
            == ["/home/me/.config/tick/config:1: bad value '' for date.tonight (expected a time HH:MM, from 00:00 to 23:59); ignored"])
    }

    @Test("tonight names the configured minute of today, whatever the time now; a time given with it wins")
    func tonightWord() throws {
        var now = Now(day: Day(year: 2026, month: 7, day: 17)!, minutes: 23 * 60)
        #expect(try DueDate(parsing: "tonight", relativeTo: now).description == "2026-07-17T18:00")
        now.tonight = 19 * 60 + 30
        #expect(try DueDate(parsing: "tonight", relativeTo: now).description == "2026-07-17T19:30")
        #expect(try DueDate(parsing: "TONIGHT", relativeTo: now).description == "2026-07-17T19:30")
        #expect(try DueDate(parsing: "tonight 21:00", relativeTo: now).description == "2026-07-17T21:00")
        // Other words are not moved by it.
        #expect(try DueDate(parsing: "tomorrow", relativeTo: now).description == "2026-07-18")
    }
}
