import TickCore

// JSON-RPC 2.0 as LSP frames it (`Content-Length: N`, a blank line, N bytes of JSON): reading frames
// out of a byte stream, and the messages the server writes.

/// Reads frames out of the bytes that arrive on standard input, however they are split.
struct FrameReader {
    /// What one frame held.
    enum Frame: Equatable {
        /// The JSON body of a well-formed frame.
        case message([UInt8])
        /// A header the server cannot read: why (its bytes are skipped up to the next blank line).
        case malformed(String)
    }

    /// The largest body accepted: a 50 MB buffer, escaped, fits.
    static let maxBody = 256 << 20
    /// The longest header section accepted.
    static let maxHeader = 8 << 10

    /// The room kept for the bytes after a frame is read; a larger buffer is let go.
    static let keptCapacity = 64 << 10

    private var pending: [UInt8] = []
    private var start = 0

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start == pending.count { pending.removeAll(keepingCapacity: true); start = 0 }
        pending.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    mutating func next() -> Frame? {
        guard let headerEnd = blankLine(from: start) else {
            if pending.count - start > FrameReader.maxHeader {
                start = pending.count
                return .malformed("a header longer than \(FrameReader.maxHeader) bytes without a blank line")
            }
            return nil
        }
        let header = String(decoding: pending[start..<headerEnd.lowerBound], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                start = headerEnd.upperBound
                return .malformed("a header line without ':': '\(line.prefix(80))'")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingPrefix(" ")
            if name == "content-length" {
                guard let n = Int(value), n >= 0, n <= FrameReader.maxBody else {
                    start = headerEnd.upperBound
                    return .malformed("Content-Length '\(value.prefix(40))' is not a length from 0 to \(FrameReader.maxBody)")
                }
                length = n
            }
        }
        guard let length else {
            start = headerEnd.upperBound
            return .malformed("a frame without a Content-Length header")
        }
        guard pending.count - headerEnd.upperBound >= length else { return nil }
        let body = Array(pending[headerEnd.upperBound..<(headerEnd.upperBound + length)])
        start = headerEnd.upperBound + length
        // The room a large frame took is given back once it is read.
        if start == pending.count, pending.capacity > FrameReader.keptCapacity {
            pending = []
            start = 0
        } else if start > 1 << 20 {
            pending.removeSubrange(..<start)
            start = 0
        }
        return .message(body)
    }

    /// The range of the first `\r\n\r\n` at or after `from`.
    private func blankLine(from: Int) -> Range<Int>? {
        var i = from
        while i + 3 < pending.count {
            if pending[i] == 13, pending[i + 1] == 10, pending[i + 2] == 13, pending[i + 3] == 10 { return i..<(i + 4) }
            i += 1
        }
        return nil
    }
}

/// A frame around a JSON body.
func framed(_ body: JSON) -> [UInt8] {
    let json = Array(body.text.utf8)
    return Array("Content-Length: \(json.count)\r\n\r\n".utf8) + json
}

/// A JSON-RPC error a request is answered with.
struct ResponseError: Error {
    var code: Int
    var message: String

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let internalError = -32603
    static let serverNotInitialized = -32002
    static let requestCancelled = -32800

    static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: invalidParams, message: message) }
}

/// A response's body.
func response(id: JSON, result: JSON) -> JSON {
    .object(["jsonrpc": .string("2.0"), "id": id, "result": result])
}

/// An error response's body.
func errorResponse(id: JSON, _ error: ResponseError) -> JSON {
    .object(["jsonrpc": .string("2.0"), "id": id,
             "error": .object(["code": .int(error.code), "message": .string(error.message)])])
}

/// A notification's body.
func notification(_ method: String, _ params: JSON) -> JSON {
    .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
}
