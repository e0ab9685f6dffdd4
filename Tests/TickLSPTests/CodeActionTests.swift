import Testing
import TickCore
@testable import TickLSP

@Suite("code actions")
struct CodeActionTests {
    let uri = "file:///nowhere/home.md"

    /// The action titled `title` applied to `text` at `line`.
    func apply(_ title: String, line: Int, to text: String, utf8: Bool = false, to last: Int? = nil) -> String? {
        let harness = ServerHarness()
        harness.start(utf8: utf8)
        harness.open(uri, text)
        let result = harness.request("textDocument/codeAction", .object([
            "textDocument": document(uri), "range": range((line, 0), (last ?? line, 0)), "context": .object(["diagnostics": .array([])])]))
        guard let action = result["result"]?.array?.first(where: { $0["title"]?.string?.hasPrefix(title) == true }) else { return nil }
        let edits = action.at("edit.changes")?[uri]?.array ?? []
        return applying(edits, to: text, encoding: utf8 ? .utf8 : .utf16)
    }

    @Test("complete on a repeating task moves it to its next occurrence in place")
    func completeRepeating() throws {
        let text = "# Home\n\n- [ ] Weekly review due:2026-12-01 rec:1w #work !!\n  - [x] sub done:2026-11-01\n"
        let out = try #require(apply("Complete", line: 2, to: text))
        #expect(out == "# Home\n\n- [ ] Weekly review due:2026-12-09 rec:1w #work !!\n  - [ ] sub\n")
    }
}
