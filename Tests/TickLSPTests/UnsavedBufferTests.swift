import Foundation
import Testing
import TickCore
@testable import TickLSP

/// The folder's questions (tags, workspace symbols, `tick.today`, `tick.pick`) read a list open in
/// the editor from its unsaved buffer, and every other list from its file. Now is Wednesday
/// 2026-12-02 10:00.
@Suite("LSP unsaved buffers of other lists")
struct UnsavedBufferTests {
    /// A task folder holding `home.md` and `work.md` as saved, and a server started on it.
    final class Workspace {
        let root: URL
        let harness = ServerHarness()

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("tick-lsp-unsaved-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".tick"), withIntermediateDirectories: true)
            try write("home.md", "# Home\n\n- [ ] Water the plants #home\n- [ ] \n")
            try write("work.md", "# Work\n\n- [ ] Filed report #old due:2026-12-02\n- [ ] Filed call #old\n")
            harness.request("initialize", .object(["rootUri": .string("file://" + root.path), "capabilities": .object([])]))
            harness.notify("initialized")
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func uri(_ name: String) -> String { "file://" + root.appendingPathComponent(name).path }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }

        func saved(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: root.appendingPathComponent(name)), as: UTF8.self)
        }

        /// Replaces the whole text of an open document, unsaved.
        func change(_ name: String, to text: String, version: Int) {
            harness.notify("textDocument/didChange", .object([
                "textDocument": .object(["uri": .string(uri(name)), "version": .int(version)]),
                "contentChanges": .array([.object(["text": .string(text)])])]))
        }

        /// The tag labels offered after `#` on line 3 of home.md (`- [ ] #`), in their order.
        func tags() -> [String] {
            let items = harness.request("textDocument/completion", .object([
                "textDocument": document(uri("home.md")), "position": position(3, 7)]))["result"]?.array ?? []
            return items.sorted { ($0["sortText"]?.string ?? "") < ($1["sortText"]?.string ?? "") }.compactMap { $0["label"]?.string }
        }

        func symbols(_ query: String) -> [String] {
            (harness.request("workspace/symbol", .object(["query": .string(query)]))["result"]?.array ?? []).compactMap { $0["name"]?.string }
        }

        /// The locations a command returns, as `file.md:line` (1-based).
        func command(_ name: String) -> [String] {
            (harness.request("workspace/executeCommand", .object(["command": .string(name)]))["result"]?.array ?? []).compactMap { location in
                guard let uri = location["uri"]?.string, let line = location.at("range.start.line")?.int else { return nil }
                return "\(uri.split(separator: "/").last!):\(line + 1)"
            }
        }
    }

    static let unsavedWork = "# Work\n\n- [ ] Unsaved plan #urgent #home\n- [ ] Unsaved budget #urgent due:2026-12-02\n- [ ] Unsaved deck #urgent !!!\n"

    @Test("tags after # count the other open list's unsaved text, not its file")
    func tags() throws {
        let workspace = try Workspace()
        workspace.harness.open(workspace.uri("home.md"), "# Home\n\n- [ ] Water the plants #home\n- [ ] #\n")
        #expect(workspace.tags() == ["#old", "#home"])
        workspace.harness.open(workspace.uri("work.md"), try workspace.saved("work.md"))
        workspace.change("work.md", to: Self.unsavedWork, version: 2)
        #expect(workspace.tags() == ["#urgent", "#home"])
        #expect(try workspace.saved("work.md").contains("#old"))
        // Closed without saving: its file counts again.
        workspace.harness.notify("textDocument/didClose", .object(["textDocument": document(workspace.uri("work.md"))]))
        #expect(workspace.tags() == ["#old", "#home"])
    }

    @Test("workspace symbols find the unsaved titles of an open list and no longer its saved ones")
    func workspaceSymbols() throws {
        let workspace = try Workspace()
        workspace.harness.open(workspace.uri("home.md"), try workspace.saved("home.md"))
        #expect(Set(workspace.symbols("filed")) == ["Filed report #old", "Filed call #old"])
        workspace.harness.open(workspace.uri("work.md"), try workspace.saved("work.md"))
        workspace.change("work.md", to: Self.unsavedWork, version: 2)
        #expect(workspace.symbols("filed").isEmpty)
        #expect(Set(workspace.symbols("unsaved")) == ["Unsaved plan #urgent #home", "Unsaved budget #urgent", "Unsaved deck #urgent"])
        // An unsaved change to home.md, the list asked from, counts too.
        workspace.change("home.md", to: "# Home\n\n- [ ] Unsaved watering\n", version: 2)
        #expect(Set(workspace.symbols("unsaved")) == ["Unsaved plan #urgent #home", "Unsaved budget #urgent", "Unsaved deck #urgent", "Unsaved watering"])
        #expect(workspace.symbols("plants").isEmpty)
    }

    @Test("tick.today and tick.pick return the unsaved tasks of an open list, at their lines in the buffer")
    func commands() throws {
        let workspace = try Workspace()
        workspace.harness.open(workspace.uri("home.md"), try workspace.saved("home.md"))
        #expect(workspace.command("tick.today") == ["work.md:3"])
        workspace.harness.open(workspace.uri("work.md"), try workspace.saved("work.md"))
        workspace.change("work.md", to: Self.unsavedWork, version: 2)
        #expect(workspace.command("tick.today") == ["work.md:4"])
        let pick = workspace.command("tick.pick")
        #expect(Set(pick) == ["home.md:3", "home.md:4", "work.md:3", "work.md:4", "work.md:5"])
        // Saved as it is in the buffer, then changed again: the buffer still wins.
        try workspace.write("work.md", Self.unsavedWork)
        workspace.harness.notify("textDocument/didSave", .object(["textDocument": document(workspace.uri("work.md"))]))
        workspace.change("work.md", to: "# Work\n\n- [ ] Later due:2026-12-02\n\n- [ ] Now due:2026-12-01\n", version: 3)
        #expect(Set(workspace.command("tick.today")) == ["work.md:3", "work.md:5"])
    }

    @Test("a hover shows a task's ref while the saved file holds the same task at the same place")
    func hoverRef() throws {
        let workspace = try Workspace()
        let folder = Folder(location: FolderLocation(path: workspace.root.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        let saved = folder.load(saveCache: false).library
        let list = try #require(saved.lists.firstIndex { $0.file.path == "work.md" })
        let ref = saved.ref(TaskID(list: list, index: 1))
        let uri = workspace.uri("work.md")
        func hoverRef(line: Int) -> String? {
            let text = workspace.harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(line, 3)]))
                .at("result.contents.value")?.string ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("Ref: ") }.map { String($0.dropFirst(5)) }
        }
        workspace.harness.open(uri, try workspace.saved("work.md"))
        #expect(hoverRef(line: 3) == ref)
        // Another task changed, unsaved: this one is still the saved one.
        workspace.change("work.md", to: "# Work\n\n- [ ] Filed report #old due:2026-12-03\n- [ ] Filed call #old\n", version: 2)
        #expect(hoverRef(line: 3) == ref)
        // This one retitled, unsaved: the saved file does not hold it.
        workspace.change("work.md", to: "# Work\n\n- [ ] Filed report #old due:2026-12-03\n- [ ] Filed phone call #old\n", version: 3)
        #expect(hoverRef(line: 3) == nil)
    }
}
