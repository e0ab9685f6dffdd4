import Testing
import TickCore

@Suite("status --format templates")
struct StatusFormatTests {
    let counts = StatusCounts(overdue: 2, today: 0, flagged: 1, open: 7)

    @Test("placeholders, conditional text, nested placeholders and literal braces")
    func render() throws {
        #expect(try StatusFormat(parsing: "{overdue}/{today}/{flagged}/{open}").render(counts, next: nil) == "2/0/1/7")
        #expect(try StatusFormat(parsing: "{today?{today} today}{overdue?{overdue} late}").render(counts, next: nil) == "2 late")
        #expect(try StatusFormat(parsing: "{next?→ {next}}").render(counts, next: "Pay") == "→ Pay")
        #expect(try StatusFormat(parsing: "{next?→ {next}}").render(counts, next: nil) == "")
        #expect(try StatusFormat(parsing: "{{x}} {open}").render(counts, next: nil) == "{x} 7")
        #expect(try StatusFormat(parsing: "{next}").needsNext)
        #expect(try !StatusFormat(parsing: "{open?{flagged}}").needsNext)
        #expect(try StatusFormat(parsing: "{open?{next?{next}}}").needsNext)
        #expect(try StatusFormat(parsing: "{open?[{next?{next}}]}").render(counts, next: "Pay") == "[Pay]")
    }

    @Test("an unknown name, an unclosed brace or a stray } is refused")
    func problems() {
        for bad in ["{nope}", "{open", "{open?x", "x}", "{}", "{", "{open!}"] {
            #expect(throws: StatusFormat.Problem.self, "\(bad)") { try StatusFormat(parsing: bad) }
        }
    }
}
