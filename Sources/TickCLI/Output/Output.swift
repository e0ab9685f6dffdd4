import TickCore

/// A large buffered writer on standard output or standard error, or into memory (a run inside
/// another program, which reads `captured` after it): output is gathered into one
/// buffer and written with few `write` calls, so that printing many rows costs little; it
/// streams, never holding more than one buffer.
///
/// A failed write is remembered (`failure`) and later output is dropped. A closed pipe (EPIPE,
/// `tick all | head`) is not a failure: the reader simply wanted no more.
public final class Output {
    private enum Sink {
        case stream(StandardStream)
        case memory
    }

    private let sink: Sink
    /// What was written to an in-memory output, and flushed.
    public private(set) var captured: [UInt8] = []
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// Set once the reader has gone away.
    public private(set) var closed = false
    /// The first write error other than a closed pipe.
    public private(set) var failure: Int32?

    /// Output to `stream`, written in pieces of about `capacity` bytes.
    public init(_ stream: StandardStream, capacity: Int = 1 << 16) {
        sink = .stream(stream)
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Output kept in memory (`captured`), buffered as a stream's is.
    public static func memory(capacity: Int = 1 << 16) -> Output { Output(memoryCapacity: capacity) }

    private init(memoryCapacity capacity: Int) {
        sink = .memory
        self.capacity = capacity
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        if buffer.count + bytes.count > capacity { flush() }
        if bytes.count >= capacity {
            emit(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(bytes: $0) }
    }

    /// Writes `text` and a line feed.
    public func line(_ text: String = "") {
        write(text)
        buffer.append(0x0A)
        if buffer.count >= capacity { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer { emit($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !closed, failure == nil else { return }
        guard case .stream(let stream) = sink else {
            captured.append(contentsOf: bytes)
            return
        }
        switch stream.write(bytes) {
        case .written: break
        case .closed: closed = true
        case .failed(let code): failure = code
        }
    }
}

extension Output {
    /// Writes one JSON value on its own line.
    func json(_ value: JSON) {
        line(value.text)
    }

    /// Writes a JSON array with one element per line, streaming: elements are rendered one at a time.
    func jsonArray<S: Sequence>(_ elements: S, _ transform: (S.Element) -> JSON) {
        var first = true
        var text = ""
        for element in elements {
            text.removeAll(keepingCapacity: true)
            text += first ? "[\n" : ",\n"
            first = false
            transform(element).render(into: &text)
            write(text)
        }
        line(first ? "[]" : "\n]")
    }
}
