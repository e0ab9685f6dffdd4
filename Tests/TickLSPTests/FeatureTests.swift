import Foundation
import Testing
import TickCore
@testable import TickLSP

/// Completion, hover, the outline, folding, inlay hints, diagnostics and the folder's commands.
/// Now is Wednesday 2026-12-02 10:00.
@Suite("LSP features")
struct FeatureTests {
    let uri = "file:///nowhere/home.md"

    func completions(_ line: String, utf8: Bool = false) -> [JSON] {
        let harness = ServerHarness()
        harness.start(utf8: utf8)
        harness.open(uri, "# Home\n\n" + line + "\n")
        let character = utf8 ? line.utf8.count : line.utf16.count
        return harness.request("textDocument/completion", .object(["textDocument": document(uri), "position": position(2, character)]))["result"]?.array ?? []
    }

    @Test("after due:, 📅 and [due:: the date words are offered with the ISO dates they insert")
    func dateCompletion() throws {
        for line in ["- [ ] Call due:", "- [ ] Call due:fr", "- [ ] 😀 Call 📅 ", "- [ ] Call [due:: fr"] {
            let items = completions(line)
            let friday = try #require(items.first { $0["label"]?.string == "fri" }, "\(line)")
            #expect(friday.at("textEdit.newText")?.string == "2026-12-04")
            #expect(friday["detail"]?.string?.hasPrefix("2026-12-04 Friday") == true)
            let start = try #require(friday.at("textEdit.range.start.character")?.int)
            let end = try #require(friday.at("textEdit.range.end.character")?.int)
            let typed = line.hasSuffix("fr") ? 2 : 0
            #expect(end == line.utf16.count && start == end - typed, "\(line)")
            #expect(items.first { $0["label"]?.string == "tomorrow" }?.at("textEdit.newText")?.string == "2026-12-03")
            #expect(items.first { $0["label"]?.string == "in 3 days" }?.at("textEdit.newText")?.string == "2026-12-05")
        }
        #expect(completions("- [ ] Call me").isEmpty)
    }

    @Test("after rec: the rules with their meaning; after ! the priorities; after # the tags by use")
    func otherCompletions() throws {
        let rules = completions("- [ ] Water rec:")
        #expect(rules.first { $0["label"]?.string == "1w" }?["detail"]?.string == "a week after done")
        #expect(rules.first { $0["label"]?.string == "+1m" }?["detail"]?.string == "every month")
        #expect(completions("- [ ] Pay !").compactMap { $0["label"]?.string } == ["!!!", "!!", "!"])
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "- [ ] a #home\n- [ ] b #work\n- [ ] c #home #x\n- [ ] d #\n")
        let tags = harness.request("textDocument/completion", .object(["textDocument": document(uri), "position": position(3, 9)]))["result"]?.array ?? []
        #expect(tags.compactMap { $0["label"]?.string }.prefix(1) == ["#home"])
        #expect(Set(tags.compactMap { $0["label"]?.string }) == ["#home", "#work", "#x"])
    }

    @Test("the hover of a task tells it in words; the hover of a date its weekday and distance")
    func hover() throws {
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "# Home\n\n## Work\n\n- [ ] Review due:2026-11-30 rec:+1w !! #flag\n")
        let task = harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(4, 3)]))
        let text = try #require(task.at("result.contents.value")?.string)
        #expect(text.contains("**Review**"))
        #expect(text.contains("overdue"))
        #expect(text.contains("every week (rec:+1w); next: 2026-12-07, 2026-12-14, 2026-12-21"))
        #expect(text.contains("Priority: medium"))
        #expect(text.contains("List: Home, section Work"))
        let date = harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(4, 20)]))
        #expect(date.at("result.contents.value")?.string?.hasPrefix("Monday Nov 30 2026") == true)
        #expect(harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(1, 0)]))["result"] == .null)
    }

    @Test("document symbols nest tasks under sections and subtasks under tasks; folding covers notes and subtasks")
    func outline() throws {
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "- [ ] loose\n# Home\n\n- [ ] a\n  notes\n  - [x] b\n\n## Later\n- [ ] c\n")
        let symbols = try #require(harness.request("textDocument/documentSymbol", .object(["textDocument": document(uri)]))["result"]?.array)
        #expect(symbols.compactMap { $0["name"]?.string } == ["[ ] loose", "Home", "Later"])
        let home = symbols[1]["children"]?.array ?? []
        #expect(home.compactMap { $0["name"]?.string } == ["[ ] a"])
        #expect(home.first?["children"]?.array?.compactMap { $0["name"]?.string } == ["[x] b"])
        #expect(symbols[2]["children"]?.array?.compactMap { $0["name"]?.string } == ["[ ] c"])
        let folds = try #require(harness.request("textDocument/foldingRange", .object(["textDocument": document(uri)]))["result"]?.array)
        #expect(folds.map { [$0["startLine"]?.int, $0["endLine"]?.int] } == [[3, 5]])
    }

    @Test("inlay hints are off unless turned on, then one after each open task's due token")
    func inlayHints() throws {
        let off = ServerHarness()
        off.start()
        off.open(uri, "- [ ] a due:2026-12-05\n")
        #expect(off.request("textDocument/inlayHint", .object(["textDocument": document(uri)]))["result"] == .array([]))
        let on = ServerHarness()
        on.start(options: .object(["inlayHints": .bool(true)]))
        on.open(uri, "- [ ] 😀 due:2026-12-05\n- [x] b due:2026-12-01 done:2026-12-01\n- [ ] c due:2026-11-30\n")
        let hints = try #require(on.request("textDocument/inlayHint", .object(["textDocument": document(uri)]))["result"]?.array)
        #expect(hints.map { $0["label"]?.string } == ["in 3 days", "overdue 2 days"])
        #expect(hints.first?.at("position.character")?.int == 6 + 2 + 1 + 14)
    }

    @Test("diagnostics: every tick check problem on its token, and a note on a hand-typed date word")
    func diagnostics() throws {
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "- [ ] a due:tomorrow\n- [] b\n- [ ] c id:x1\n- [ ] d id:x1\n")
        let found = harness.diagnostics(uri)
        #expect(found.map { $0["severity"]?.int } == [2, 2, 2, 3])
        #expect(found.map { $0.at("range.start.line")?.int } == [0, 1, 3, 0])
        #expect(found[0]["message"]?.string?.hasPrefix("malformed due date 'due:tomorrow'") == true)
        #expect(found[0].at("range.start.character")?.int == 8 && found[0].at("range.end.character")?.int == 20)
        #expect(found[2]["message"]?.string?.hasPrefix("duplicate id 'id:x1'") == true)
        #expect(found[3]["message"]?.string?.contains("due:2026-12-03") == true)
    }

    @Test("workspace symbols search the folder's open tasks; tick.today and tick.pick return locations")
    func folder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tick-lsp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".tick"), withIntermediateDirectories: true)
        try Data("# Home\n\n- [ ] Call the plumber due:2026-12-01\n- [ ] Café order !!!\n- [x] Done thing\n".utf8)
            .write(to: root.appendingPathComponent("home.md"))
        try Data("- [ ] Cafe visit #flag\n".utf8).write(to: root.appendingPathComponent("work.md"))
        let harness = ServerHarness()
        harness.request("initialize", .object(["rootUri": .string("file://" + root.path), "capabilities": .object([])]))
        harness.notify("initialized")
        let symbols = try #require(harness.request("workspace/symbol", .object(["query": .string("cafe")]))["result"]?.array)
        #expect(Set(symbols.compactMap { $0["name"]?.string }) == ["Café order", "Cafe visit"])
        let today = try #require(harness.request("workspace/executeCommand", .object(["command": .string("tick.today")]))["result"]?.array)
        #expect(today.map { $0["uri"]?.string } == ["file://" + root.appendingPathComponent("home.md").path])
        #expect(today.first?.at("range.start.line")?.int == 2)
        let pick = try #require(harness.request("workspace/executeCommand", .object(["command": .string("tick.pick")]))["result"]?.array)
        #expect(pick.count == 3)
        #expect(pick.first?.at("range.start.line")?.int == 2)
        // A saved change is seen after didChangeWatchedFiles.
        try Data("- [ ] Cafe visit #flag due:2026-12-02\n".utf8).write(to: root.appendingPathComponent("work.md"))
        harness.notify("workspace/didChangeWatchedFiles", .object(["changes": .array([])]))
        let after = try #require(harness.request("workspace/executeCommand", .object(["command": .string("tick.today")]))["result"]?.array)
        #expect(after.count == 2)
    }
}
