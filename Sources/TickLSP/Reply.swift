import TickCore

// A request's result, written as JSON text without holding the whole of it. The outline of a
// 10,000-line list, Today of a big folder or the workspace symbols are thousands of objects: as one
// JSON tree, then its text, then its frame, they took three times the list's memory at once.
// A large array is made one element at a time instead, and the frame goes out in pieces: measured
// first, then written.

/// A result: a value, or an object or array whose parts are made as they are written.
indirect enum Reply {
    case value(JSON)
    case object([(String, Reply)])
    /// An array of `count` elements, element `i` made by `element(i)` each time it is written.
    case elements(count: Int, element: (Int) -> Reply)

    static func array(_ items: [JSON]) -> Reply { .value(.array(items)) }

    /// Writes the JSON text of the reply.
    func write(into sink: inout some JSONSink) {
        switch self {
        case .value(let value):
            sink.write(value.text.utf8)
        case .object(let members):
            sink.write(CollectionOfOne(UInt8(ascii: "{")))
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { sink.write(CollectionOfOne(UInt8(ascii: ","))) }
                var quoted = ""
                JSON.quote(key, into: &quoted)
                sink.write(quoted.utf8)
                sink.write(CollectionOfOne(UInt8(ascii: ":")))
                value.write(into: &sink)
            }
            sink.write(CollectionOfOne(UInt8(ascii: "}")))
        case .elements(let count, let element):
            sink.write(CollectionOfOne(UInt8(ascii: "[")))
            for i in 0..<count {
                if i > 0 { sink.write(CollectionOfOne(UInt8(ascii: ","))) }
                element(i).write(into: &sink)
            }
            sink.write(CollectionOfOne(UInt8(ascii: "]")))
        }
    }
}

/// Where JSON text goes.
protocol JSONSink {
    mutating func write(_ bytes: some Collection<UInt8>)
}

/// Counts the bytes written: a frame's Content-Length.
struct ByteCounter: JSONSink {
    var count = 0
    mutating func write(_ bytes: some Collection<UInt8>) { count += bytes.count }
}

/// Passes the bytes written on in pieces of about `pieceSize` bytes.
struct PieceWriter: JSONSink {
    static let pieceSize = 64 << 10
    let send: ([UInt8]) -> Void
    private var piece: [UInt8] = []

    init(send: @escaping ([UInt8]) -> Void) { self.send = send }

    mutating func write(_ bytes: some Collection<UInt8>) {
        piece.append(contentsOf: bytes)
        if piece.count >= PieceWriter.pieceSize { flush() }
    }

    mutating func flush() {
        guard !piece.isEmpty else { return }
        send(piece)
        piece.removeAll(keepingCapacity: true)
    }
}

extension LanguageServer {
    /// Sends the response to request `id`: a result that is one value as one frame; else measured
    /// first, then written in pieces, its header first.
    func post(id: JSON, result: Reply) {
        if case .value(let value) = result {
            post(response(id: id, result: value))
            return
        }
        let message = Reply.object([("jsonrpc", .value(.string("2.0"))), ("id", .value(id)), ("result", result)])
        var counter = ByteCounter()
        message.write(into: &counter)
        send(Array("Content-Length: \(counter.count)\r\n\r\n".utf8))
        var writer = PieceWriter(send: send)
        message.write(into: &writer)
        writer.flush()
    }
}
