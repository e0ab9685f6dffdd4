import Foundation
import TickCore
@testable import TickLSP

/// A language server driven in-process with byte streams: what it sends is read back through the
/// same framing a client reads.
final class ServerHarness {
    let server: LanguageServer
    private var reader = FrameReader()
    /// Every message the server sent, in order.
    private(set) var received: [JSON] = []
    private var nextID = 1

    init(now: String = "2026-12-02T10:00", settings: Settings = Settings(), folder: String? = nil) {
        let fixed = try! Now(parsing: now)
        let fs = LocalFileSystem()
        let location = folder.map { Folder(location: FolderLocation(path: $0, source: .option, exists: true), fileSystem: fs) }
        var box: [UInt8] = []
        _ = box
        let env = ServerEnvironment(fileSystem: fs, now: { fixed }, settings: settings, folder: location, environment: [:])
        server = LanguageServer(env) { _ in }
        server.send = { [unowned self] bytes in
            self.reader.append(bytes)
            while case .message(let body)? = self.reader.next() {
                var json = JSONReader(body)
                self.received.append(try! json.value())
            }
        }
    }

    /// Sends raw bytes, as a client would write them.
    func write(_ bytes: [UInt8]) { server.receive(bytes) }

    /// Sends one message, framed.
    func write(_ message: JSON) { write(framed(message)) }

    /// A request's response (the whole message).
    @discardableResult
    func request(_ method: String, _ params: JSON = .object([])) -> JSON {
        let id = nextID
        nextID += 1
        write(.object(["jsonrpc": .string("2.0"), "id": .int(id), "method": .string(method), "params": params]))
        return received.last { $0["id"] == .int(id) } ?? .null
    }

    func notify(_ method: String, _ params: JSON = .object([])) {
        write(.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]))
    }

    /// Initializes, offering `utf-8` positions when asked.
    @discardableResult
    func start(utf8: Bool = false, options: JSON = .null) -> JSON {
        let capabilities: JSON = utf8 ? .object(["general": .object(["positionEncodings": .array([.string("utf-8"), .string("utf-16")])])]) : .object([])
        let result = request("initialize", .object(["capabilities": capabilities, "initializationOptions": options]))
        notify("initialized")
        return result
    }

    func open(_ uri: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", .object(["textDocument": .object(["uri": .string(uri), "languageId": .string("markdown"),
                                                                         "version": .int(version), "text": .string(text)])]))
    }

    /// The last diagnostics published for `uri`.
    func diagnostics(_ uri: String) -> [JSON] {
        received.last { $0["method"]?.string == "textDocument/publishDiagnostics" && $0.at("params.uri")?.string == uri }?
            .at("params.diagnostics")?.array ?? []
    }

    /// The text of an open document as the server holds it.
    func text(_ uri: String) -> String { String(decoding: server.documents[uri]!.text.bytes, as: UTF8.self) }
}

func position(_ line: Int, _ character: Int) -> JSON { .object(["line": .int(line), "character": .int(character)]) }

func range(_ a: (Int, Int), _ b: (Int, Int)) -> JSON { .object(["start": position(a.0, a.1), "end": position(b.0, b.1)]) }

func document(_ uri: String) -> JSON { .object(["uri": .string(uri)]) }

/// `text` with LSP TextEdits applied (positions in `encoding`), as a client applies them.
func applying(_ edits: [JSON], to text: String, encoding: PositionEncoding) -> String {
    var doc = TextDocument(bytes: Array(text.utf8), version: 0)
    // From the last to the first, so that earlier positions hold.
    let sorted = edits.sorted {
        let a = try! Position($0.at("range.start")), b = try! Position($1.at("range.start"))
        return (a.line, a.character) > (b.line, b.character)
    }
    for edit in sorted {
        doc.replace(from: try! Position(edit.at("range.start")), to: try! Position(edit.at("range.end")),
                    with: Array(edit["newText"]!.string!.utf8), encoding)
    }
    return String(decoding: doc.bytes, as: UTF8.self)
}
