import Testing
import TickCore
@testable import TickLSP

/// The framing, the lifecycle and the errors, over byte streams into the server object.
@Suite("LSP protocol")
struct ProtocolTests {
    let uri = "file:///nowhere/home.md"

    @Test("initialize advertises only what is implemented, and utf-16 unless utf-8 is offered")
    func initialize() throws {
        let harness = ServerHarness()
        let result = try #require(harness.start()["result"])
        #expect(result.at("capabilities.positionEncoding")?.string == "utf-16")
        #expect(result.at("capabilities.textDocumentSync.change")?.int == 2)
        #expect(result.at("capabilities.inlayHintProvider") == nil)
        #expect(result.at("capabilities.renameProvider") == nil)
        #expect(result.at("capabilities.executeCommandProvider.commands")?.array?.compactMap(\.string) == ["tick.today", "tick.pick"])
        let utf8 = ServerHarness()
        #expect(utf8.start(utf8: true).at("result.capabilities.positionEncoding")?.string == "utf-8")
        let hints = ServerHarness()
        #expect(hints.start(options: .object(["inlayHints": .bool(true)])).at("result.capabilities.inlayHintProvider")?.bool == true)
    }

    @Test("a request before initialize, a second initialize and one after shutdown are errors; exit ends with 0 after shutdown")
    func lifecycle() {
        let harness = ServerHarness()
        #expect(harness.request("textDocument/hover").at("error.code")?.int == -32002)
        harness.start()
        #expect(harness.request("initialize").at("error.code")?.int == -32600)
        #expect(harness.request("shutdown")["result"] == .null)
        #expect(harness.request("textDocument/hover").at("error.code")?.int == -32600)
        #expect(harness.server.exitStatus == nil)
        harness.notify("exit")
        #expect(harness.server.exitStatus == 0)

        let abrupt = ServerHarness()
        abrupt.start()
        abrupt.notify("exit")
        #expect(abrupt.server.exitStatus == 1)
    }

    @Test("malformed frames and JSON get a JSON-RPC error and the server stays up")
    func malformed() {
        let harness = ServerHarness()
        harness.start()
        let before = harness.received.count
        harness.write(Array("Content-Type: x\r\n\r\n".utf8))
        harness.write(Array("Content-Length: nine\r\n\r\n".utf8))
        harness.write(Array("Content-Length: 5\r\n\r\n{\"a\":".utf8))
        harness.write(Array("Content-Length: 2\r\n\r\n[]".utf8))
        harness.write(Array("Content-Length: 9\r\n\r\n{\"id\":7}x".utf8))
        let errors = harness.received[before...].map { $0.at("error.code")?.int }
        #expect(errors == [-32700, -32700, -32700, -32600, -32700], "\(harness.received[before...].map(\.text))")
        #expect(harness.received[before...].allSatisfy { $0["id"] == .null })
        // Still answering.
        #expect(harness.request("workspace/executeCommand", .object(["command": .string("tick.today")]))["result"] == .array([]))
    }

    @Test("a frame split at every byte is read whole")
    func splitFrames() {
        let harness = ServerHarness()
        let message = framed(.object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"),
                                      "params": .object(["capabilities": .object([])])]))
        for byte in message + message { harness.write([byte]) }
        #expect(harness.received.count == 2)
        #expect(harness.received[0].at("result.capabilities") != nil)
        #expect(harness.received[1].at("error.code")?.int == -32600)
    }

    @Test("an unknown method is MethodNotFound; an unknown notification is ignored; an unknown document is an error")
    func unknowns() {
        let harness = ServerHarness()
        harness.start()
        #expect(harness.request("textDocument/rename").at("error.code")?.int == -32601)
        let count = harness.received.count
        harness.notify("$/setTrace", .object(["value": .string("off")]))
        harness.notify("custom/thing")
        #expect(harness.received.count == count)
        let answer = harness.request("textDocument/hover", .object(["textDocument": document("file:///nowhere/other.md"),
                                                                    "position": position(0, 0)]))
        #expect(answer.at("error.code")?.int == -32602)
        #expect(answer.at("error.message")?.string?.contains("other.md") == true)
        #expect(harness.request("textDocument/completion", .object(["textDocument": document("file:///nowhere/other.md")]))
            .at("error.code")?.int == -32602)
        #expect(harness.request("workspace/executeCommand", .object(["command": .string("tick.nothing")])).at("error.code")?.int == -32602)
    }

    @Test("$/cancelRequest cancels a request not yet answered; a late cancel changes nothing")
    func cancellation() {
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "- [ ] a due:2026-12-03\n")
        let request = framed(.object(["jsonrpc": .string("2.0"), "id": .int(50), "method": .string("textDocument/hover"),
                                      "params": .object(["textDocument": document(uri), "position": position(0, 2)])]))
        let cancel = framed(.object(["jsonrpc": .string("2.0"), "method": .string("$/cancelRequest"),
                                     "params": .object(["id": .int(50)])]))
        harness.write(request + cancel)
        let answers = harness.received.filter { $0["id"] == .int(50) }
        #expect(answers.count == 1)
        #expect(answers.first?.at("error.code")?.int == -32800)
        harness.write(framed(.object(["jsonrpc": .string("2.0"), "id": .int(51), "method": .string("textDocument/hover"),
                                      "params": .object(["textDocument": document(uri), "position": position(0, 2)])])))
        harness.write(framed(.object(["jsonrpc": .string("2.0"), "method": .string("$/cancelRequest"), "params": .object(["id": .int(51)])])))
        let late = harness.received.filter { $0["id"] == .int(51) }
        #expect(late.count == 1)
        #expect(late.first?["result"] != nil)
    }

    @Test("didClose clears the document's diagnostics and forgets it")
    func close() {
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, "- [ ] a due:2026-13-03\n")
        #expect(harness.diagnostics(uri).count == 1)
        harness.notify("textDocument/didClose", .object(["textDocument": document(uri)]))
        #expect(harness.diagnostics(uri).isEmpty)
        #expect(harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(0, 0)]))
            .at("error.code")?.int == -32602)
    }
}

@Suite("LSP large input")
struct LargeInputTests {
    @Test("a 1 MB line and a 2 MB buffer are opened, changed and answered")
    func largeBuffer() throws {
        let uri = "file:///nowhere/big.md"
        let long = "- [ ] " + String(repeating: "word ", count: 200_000) + "due:2026-13-01"
        let many = (0..<40_000).map { "- [ ] task \($0) due:2026-12-0\($0 % 9 + 1)" }.joined(separator: "\n")
        let harness = ServerHarness()
        harness.start()
        harness.open(uri, long + "\n" + many + "\n")
        let diagnostics = harness.diagnostics(uri)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.at("range.start.character")?.int == 6 + 1_000_000)
        harness.notify("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(uri), "version": .int(2)]),
            "contentChanges": .array([.object(["range": range((0, 6 + 1_000_000 + 4), (0, 6 + 1_000_000 + 14)), "text": .string("2026-12-01")])])]))
        #expect(harness.diagnostics(uri).isEmpty)
        let hover = harness.request("textDocument/hover", .object(["textDocument": document(uri), "position": position(0, 1_000_010)]))
        #expect(hover.at("result.contents.value")?.string?.hasPrefix("Tuesday Dec 1 2026") == true)
        let actions = harness.request("textDocument/codeAction", .object(["textDocument": document(uri), "range": range((20_000, 0), (20_000, 0)),
                                                                          "context": .object(["diagnostics": .array([])])]))
        #expect(actions["result"]?.array?.contains { $0["title"]?.string == "Complete" } == true)
    }

    @Test("a large result goes out in pieces that make one frame holding every symbol")
    func largeResultInPieces() throws {
        let uri = "file:///nowhere/outline.md"
        let text = "# Home\n\n" + (0..<3_000).map { "- [ ] task \($0) \"quoted\" é\n  - [x] sub \($0)" }.joined(separator: "\n") + "\n"
        var pieces: [[UInt8]] = []
        let env = ServerEnvironment(fileSystem: LocalFileSystem(), now: { try! Now(parsing: "2026-12-02T10:00") }, settings: Settings(),
                                    folder: nil, environment: [:])
        let server = LanguageServer(env) { pieces.append($0) }
        for message: JSON in [
            .object(["jsonrpc": .string("2.0"), "id": .int(1), "method": .string("initialize"), "params": .object(["capabilities": .object([])])]),
            .object(["jsonrpc": .string("2.0"), "method": .string("initialized"), "params": .object([])]),
            .object(["jsonrpc": .string("2.0"), "method": .string("textDocument/didOpen"), "params": .object(["textDocument": .object([
                "uri": .string(uri), "languageId": .string("markdown"), "version": .int(1), "text": .string(text)])])]),
        ] { server.receive(framed(message)) }
        pieces.removeAll()
        server.receive(framed(.object(["jsonrpc": .string("2.0"), "id": .int(2), "method": .string("textDocument/documentSymbol"),
                                       "params": .object(["textDocument": document(uri)])])))
        #expect(pieces.count > 3)
        var reader = FrameReader()
        reader.append(pieces.joined())
        guard case .message(let body)? = reader.next() else {
            Issue.record("no whole frame")
            return
        }
        #expect(reader.next() == nil)
        var json = JSONReader(body)
        let reply = try json.value()
        let home = try #require(reply.at("result")?.array?.first)
        let tasks = try #require(home["children"]?.array)
        #expect(tasks.count == 3_000)
        #expect(tasks[7]["name"]?.string == "[ ] task 7 \"quoted\" é")
        #expect(tasks[7]["children"]?.array?.first?["name"]?.string == "[x] sub 7")
        #expect(tasks[7].at("range.start.line")?.int == 2 + 2 * 7 && tasks[7].at("range.end.line")?.int == 3 + 2 * 7)
    }
}
