import TickCore

// `tick lsp`: the language server's state and its dispatch. Messages come in as frames
// (`receive(_:)`), answers and notifications go out through `send`. It works on the editor's
// buffers and never writes a list: every change is a WorkspaceEdit the editor applies.

/// What the server needs from the process that runs it.
public struct ServerEnvironment {
    /// The files of the task folder are read through it (never written).
    public var fileSystem: any FileSystem
    /// Today, for date words, completion and the views; read once per request.
    public var now: () -> Now
    public var settings: Settings
    /// The task folder named by `--dir` or `TICK_DIR`, if any; else the workspace root's.
    public var folder: Folder?
    /// The process environment, as the cache reads it.
    public var environment: [String: String]

    public init(fileSystem: any FileSystem, now: @escaping () -> Now, settings: Settings, folder: Folder?,
                environment: [String: String]) {
        self.fileSystem = fileSystem
        self.now = now
        self.settings = settings
        self.folder = folder
        self.environment = environment
    }
}

/// The language server.
public final class LanguageServer {
    let env: ServerEnvironment
    /// Where the server's messages go, in order: a frame, or a large response's frame in pieces.
    public var send: ([UInt8]) -> Void
    /// Set by `exit`: the status the process ends with (0 after `shutdown`, else 1).
    public private(set) var exitStatus: Int32?

    var encoding = PositionEncoding.utf16
    var initialized = false
    var shuttingDown = false
    /// Inlay hints are off until the client's `initializationOptions` turn them on.
    var inlayHints = false
    var documents: [String: OpenDocument] = [:]
    var folder: Folder?
    /// The folder's lists that are not open, as saved, loaded when first needed and dropped when a
    /// list is opened, closed or saved, or changes on disk (Workspace.swift).
    var savedLists: SavedLists? {
        didSet { savedIDs = nil; workspaceLibrary = nil }
    }
    /// The `id:` values of those lists, gathered when first needed.
    var savedIDs: Set<String>?
    /// The folder as the editor shows it: the saved lists and the open buffers, made when first
    /// needed and dropped at any change.
    var workspaceLibrary: Library?
    private var reader = FrameReader()

    public init(_ environment: ServerEnvironment, send: @escaping ([UInt8]) -> Void) {
        env = environment
        self.send = send
        folder = environment.folder
    }

    /// Sends one message.
    func post(_ body: JSON) { send(framed(body)) }

    /// Reads the frames in `bytes` (and any left from before) and answers them, in order. A
    /// `$/cancelRequest` among them cancels a request of the same batch not yet answered.
    public func receive(_ bytes: some Sequence<UInt8>) {
        reader.append(bytes)
        var frames: [FrameReader.Frame] = []
        while let frame = reader.next() { frames.append(frame) }
        var messages: [JSON?] = []
        var cancelled = Set<String>()
        for item in frames {
            switch item {
            case .malformed(let reason):
                messages.append(nil)
                post(errorResponse(id: .null, ResponseError(code: ResponseError.parseError, message: "malformed frame: " + reason)))
            case .message(let body):
                var json = JSONReader(body)
                do {
                    let value = try json.value()
                    guard json.atEnd else { throw ResponseError(code: ResponseError.parseError, message: "text after the JSON value") }
                    messages.append(value)
                    if value["method"]?.string == "$/cancelRequest", let id = value.at("params.id") { cancelled.insert(id.text) }
                } catch let error as ResponseError {
                    messages.append(nil)
                    post(errorResponse(id: .null, error))
                } catch {
                    messages.append(nil)
                    post(errorResponse(id: .null, ResponseError(code: ResponseError.parseError, message: "malformed JSON: \(error)")))
                }
            }
        }
        for case let message? in messages {
            if let id = message["id"], message["method"] != nil, cancelled.contains(id.text) {
                post(errorResponse(id: id, ResponseError(code: ResponseError.requestCancelled, message: "cancelled")))
                continue
            }
            handle(message)
            if exitStatus != nil { return }
        }
    }

    /// One message: a request is answered, a notification acted on, a response ignored.
    func handle(_ message: JSON) {
        guard case .object = message else {
            post(errorResponse(id: .null, ResponseError(code: ResponseError.invalidRequest, message: "a message is a JSON object")))
            return
        }
        let id = message["id"]
        guard let method = message["method"]?.string else {
            if id == nil || message["result"] == nil && message["error"] == nil {
                post(errorResponse(id: id ?? .null, ResponseError(code: ResponseError.invalidRequest, message: "a request needs a method")))
            }
            return
        }
        let params = message["params"] ?? .null
        guard let id else {
            notify(method, params)
            return
        }
        do {
            post(id: id, result: try request(method, params))
        } catch let error as ResponseError {
            post(errorResponse(id: id, error))
        } catch {
            post(errorResponse(id: id, ResponseError(code: ResponseError.internalError, message: "\(error)")))
        }
    }

    /// A request's result.
    func request(_ method: String, _ params: JSON) throws -> Reply {
        if method == "initialize" { return .value(try initialize(params)) }
        guard initialized else {
            throw ResponseError(code: ResponseError.serverNotInitialized, message: "the first request must be initialize")
        }
        if shuttingDown { throw ResponseError(code: ResponseError.invalidRequest, message: "the server is shutting down") }
        switch method {
        case "shutdown":
            shuttingDown = true
            return .value(.null)
        case "textDocument/completion": return .value(try completion(params))
        case "textDocument/codeAction": return .value(try codeActions(params))
        case "textDocument/hover": return .value(try hover(params))
        case "textDocument/documentSymbol": return try documentSymbols(params)
        case "textDocument/foldingRange": return try foldingRanges(params)
        case "textDocument/inlayHint": return try inlayHints(params)
        case "workspace/symbol": return try workspaceSymbols(params)
        case "workspace/executeCommand": return try executeCommand(params)
        default:
            throw ResponseError(code: ResponseError.methodNotFound, message: "tick lsp does not answer '\(method)'")
        }
    }

    /// A notification: unknown ones are ignored, as LSP asks.
    func notify(_ method: String, _ params: JSON) {
        if method == "exit" {
            exitStatus = shuttingDown ? 0 : 1
            return
        }
        guard initialized, !shuttingDown else { return }
        switch method {
        case "textDocument/didOpen": didOpen(params)
        case "textDocument/didChange": didChange(params)
        case "textDocument/didSave": didSave(params)
        case "textDocument/didClose": didClose(params)
        case "workspace/didChangeWatchedFiles": savedLists = nil
        default: break
        }
    }

    // MARK: - Lifecycle

    func initialize(_ params: JSON) throws -> JSON {
        guard !initialized else { throw ResponseError(code: ResponseError.invalidRequest, message: "initialize was sent already") }
        initialized = true
        let offered = params.at("capabilities.general.positionEncodings")?.array?.compactMap(\.string) ?? []
        encoding = offered.contains("utf-8") ? .utf8 : .utf16
        inlayHints = params.at("initializationOptions.inlayHints")?.bool ?? false
        if folder == nil {
            let root = params["rootUri"]?.string.flatMap(filePath(fromURI:))
                ?? params.at("workspaceFolders")?.array?.first?["uri"]?.string.flatMap(filePath(fromURI:))
                ?? params["rootPath"]?.string
            if let root { folder = taskFolder(holding: root, isFolder: true) }
        }
        var capabilities: [(key: String, value: JSON)] = [
            ("positionEncoding", .string(encoding.rawValue)),
            ("textDocumentSync", .object(["openClose": .bool(true), "change": .int(2),
                                          "save": .object(["includeText": .bool(false)])])),
            ("completionProvider", .object(["triggerCharacters": .array([":", "#", "!", " "].map(JSON.string))])),
            ("codeActionProvider", .object(["codeActionKinds": .array([.string("quickfix"), .string("refactor.rewrite")])])),
            ("hoverProvider", .bool(true)),
            ("documentSymbolProvider", .bool(true)),
            ("workspaceSymbolProvider", .bool(true)),
            ("foldingRangeProvider", .bool(true)),
            ("executeCommandProvider", .object(["commands": .array(LanguageServer.commands.map(JSON.string))])),
        ]
        if inlayHints { capabilities.append(("inlayHintProvider", .bool(true))) }
        return .object(["capabilities": .object(capabilities),
                        "serverInfo": .object(["name": .string("tick")])])
    }

    // MARK: - Documents

    func didOpen(_ params: JSON) {
        guard let uri = params.at("textDocument.uri")?.string, let text = params.at("textDocument.text")?.string else { return }
        if folder == nil, let path = filePath(fromURI: uri) { folder = taskFolder(holding: path, isFolder: false) }
        savedLists = nil
        var document = OpenDocument(uri: uri, text: TextDocument(bytes: Array(text.utf8), version: params.at("textDocument.version")?.int ?? 0),
                                    globalFilter: folder?.globalFilter ?? env.settings.globalFilter)
        document.recheck()
        documents[uri] = document
        publishDiagnostics(uri)
    }

    func didChange(_ params: JSON) {
        guard let uri = params.at("textDocument.uri")?.string, var document = documents.removeValue(forKey: uri) else { return }
        for change in params["contentChanges"]?.array ?? [] {
            guard let text = change["text"]?.string else { continue }
            if let range = change["range"], let start = try? Position(range["start"]), let end = try? Position(range["end"]) {
                document.change(from: start, to: end, with: Array(text.utf8), encoding)
            } else {
                document.replaceAll(with: Array(text.utf8))
            }
        }
        if let version = params.at("textDocument.version")?.int { document.text.version = version }
        document.refreshProblems()
        documents[uri] = document
        workspaceLibrary = nil
        publishDiagnostics(uri)
    }

    func didSave(_ params: JSON) {
        savedLists = nil
    }

    func didClose(_ params: JSON) {
        guard let uri = params.at("textDocument.uri")?.string else { return }
        documents[uri] = nil
        savedLists = nil
        post(notification("textDocument/publishDiagnostics", .object(["uri": .string(uri), "diagnostics": .array([])])))
    }

    /// The open document a request names; an error for one the server does not know.
    func document(_ params: JSON) throws -> OpenDocument {
        guard let uri = params.at("textDocument.uri")?.string else { throw ResponseError.invalidParams("textDocument.uri is missing") }
        guard let document = documents[uri] else {
            throw ResponseError.invalidParams("'\(uri)' is not open: send textDocument/didOpen first")
        }
        return document
    }
}

// MARK: - URIs

/// The path of a `file://` URI, percent-decoded; nil for another scheme.
func filePath(fromURI uri: String) -> String? {
    guard uri.hasPrefix("file://") else { return nil }
    var bytes: [UInt8] = []
    let raw = Array(uri.utf8.dropFirst(7))
    var i = 0
    while i < raw.count {
        if raw[i] == UInt8(ascii: "%"), i + 2 < raw.count, let n = UInt8(String(decoding: raw[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
            bytes.append(n)
            i += 3
        } else {
            bytes.append(raw[i])
            i += 1
        }
    }
    let path = String(decoding: bytes, as: UTF8.self)
    return path.hasPrefix("/") ? path : nil
}

/// The `file://` URI of an absolute path, with the bytes a URI cannot hold percent-encoded.
func fileURI(_ path: String) -> String {
    var out = "file://"
    for b in path.utf8 {
        if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/-._~".utf8.contains(b) {
            out.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
        }
    }
    return out
}
