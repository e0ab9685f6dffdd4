import Foundation
import Testing
import TickCore
@testable import TickLSP

/// "Same bytes as the CLI": every code action `tick lsp` offers on a task, applied to the buffer as
/// a client applies its TextEdit, equals the change the command line's `TaskFolder.edit` makes to
/// the same file with the same clock, over the spec corpus (with checkboxes) and generated nasty lists.
@Suite("LSP code actions make the CLI's bytes")
struct LSPCodeActionBytesTests {
    static let now = try! Now(parsing: "2026-12-02T10:00")
    let uri = "file:///nowhere/list.md"

    /// A task folder holding one list, written afresh for each change.
    final class CLIFolder {
        let root: URL
        let folder: Folder

        init() throws {
            // In memory where the system has a tmpfs: the writer syncs each change, which a disk makes slow.
            let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
                : FileManager.default.temporaryDirectory
            root = base.appendingPathComponent("tick-lsp-bytes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".tick"), withIntermediateDirectories: true)
            folder = Folder(location: FolderLocation(path: root.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// The list after `edit` on tasks `indexes`, as `tick done` and the other commands make it; nil when refused.
        func change(_ bytes: [UInt8], _ edit: TaskEdit, _ indexes: [Int]) -> [UInt8]? {
            let path = root.appendingPathComponent("list.md")
            try? FileManager.default.removeItem(at: root.appendingPathComponent(".tick"))
            try! FileManager.default.createDirectory(at: root.appendingPathComponent(".tick"), withIntermediateDirectories: true)
            try! Data(bytes).write(to: path)
            // A list saved a minute ago: the writer waits for a list just saved to go quiet (50 ms).
            try! FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: path.path)
            do {
                let tasks = try TaskFolder(folder, create: false, environment: [:])
                _ = try tasks.edit(indexes.map { TaskID(list: 0, index: $0) }, [edit])
                return Array(try Data(contentsOf: path))
            } catch {
                return nil
            }
        }
    }

    /// Every action on each task alone (at most `perDocument` of them) and on all tasks at once,
    /// compared with the CLI; returns how many actions were compared.
    func compare(_ bytes: [UInt8], _ cli: CLIFolder, perDocument: Int, label: String) -> Int {
        guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
        var reader = FrameReader()
        var answers: [JSON] = []
        let server = LanguageServer(ServerEnvironment(fileSystem: LocalFileSystem(), now: { Self.now }, settings: Settings(),
                                                      folder: nil, environment: [:])) { bytes in
            reader.append(bytes)
            while case .message(let body)? = reader.next() {
                var json = JSONReader(body)
                if let value = try? json.value() { answers.append(value) }
            }
        }
        server.receive(framed(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                                       "params": .object(["capabilities": .object([])])])))
        server.receive(framed(.object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"),
                                       "params": .object(["textDocument": .object(["uri": .string(uri), "version": .int(1),
                                                                                   "languageId": .string("markdown"), "text": .string(text)])])])))
        guard let document = server.documents[uri], document.buffer.taskCount > 0 else { return 0 }
        var selections = (0..<min(document.buffer.taskCount, perDocument)).map { [$0] }
        if document.buffer.taskCount > 1 { selections.append(Array(0..<document.buffer.taskCount)) }
        var compared = 0
        for selection in selections {
            // The actions as the server answers a request on the task's line (asked of its lines
            // alone when they read alone as in the list), by title.
            var answered: [String: [UInt8]] = [:]
            if selection.count == 1 {
                let line = document.buffer.task(selection[0]).line - 1
                let position: JSON = .object(["line": .int(line), "character": .int(0)])
                server.receive(framed(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/codeAction"),
                                               "params": .object(["textDocument": .object(["uri": .string(uri)]),
                                                                  "range": .object(["start": position, "end": position]),
                                                                  "context": .object(["diagnostics": .array([])])])])))
                for action in answers.last?["result"]?.array ?? [] {
                    guard let title = action["title"]?.string, let edit = action.at("edit.changes")?[uri]?.array?.first else { continue }
                    var copy = document.text
                    copy.replace(from: try! Position(edit.at("range.start")), to: try! Position(edit.at("range.end")),
                                 with: Array(edit["newText"]!.string!.utf8), .utf16)
                    answered[title] = copy.bytes
                }
            }
            for action in server.taskActions(document.buffer, selection, now: Self.now) {
                let expected = cli.change(bytes, action.edit, action.tasks) ?? nil
                let mine = try? document.buffer.applying(action.edit, to: action.tasks)
                let applied: [UInt8]? = mine.flatMap { $0 }.map { new in
                    let edit = server.textEdit(document.text, replacing: 0..<document.text.bytes.count, with: new)
                    var copy = document.text
                    copy.replace(from: try! Position(edit.at("range.start")), to: try! Position(edit.at("range.end")),
                                 with: Array(edit["newText"]!.string!.utf8), .utf16)
                    return copy.bytes
                }
                // No action (refused, or nothing to change) where the CLI writes nothing new; else the same bytes.
                let cliChanged = expected.flatMap { $0 == bytes ? nil : $0 }
                // The texts are valid UTF-8 (checked above), so comparing them as strings compares the bytes.
                let shown = { (bytes: [UInt8]?) in bytes.map { String(decoding: $0, as: UTF8.self) } }
                #expect(shown(applied) == shown(cliChanged), "\(label): '\(action.title)' on \(action.tasks)\n\(text)")
                if selection.count == 1, case .giveID = action.edit {} else if selection.count == 1 {
                    #expect(shown(answered[action.title]) == shown(cliChanged), "\(label): answered '\(action.title)' on \(action.tasks)\n\(text)")
                }
                compared += 1
                if applied != cliChanged { return compared }
            }
        }
        return compared
    }

    @Test("over the spec corpus with checkboxes")
    func specCorpus() throws {
        let cli = try CLIFolder()
        var compared = 0
        for file in SpecFile.allCases {
            for example in try SpecCorpus.examples(of: file) {
                compared += compare(example.input(.withCheckboxes).bytes, cli, perDocument: 2, label: "\(example)")
            }
        }
        print("spec corpus: \(compared) actions compared")
        #expect(compared > 1_000)
    }

    @Test("over generated nasty lists")
    func nastyLists() throws {
        let cli = try CLIFolder()
        var rng = SeededGenerator(seed: 48)
        var compared = 0
        for n in 0..<150 {
            compared += compare(NastyDocument.generate(&rng), cli, perDocument: 3, label: "nasty list \(n)")
        }
        print("nasty lists: \(compared) actions compared")
        #expect(compared > 1_000)
    }
}
