import TickCore

/// A large buffered writer on standard output or standard error: output is gathered into one
/// buffer and written with few `write` calls, so that printing many rows costs little; it
/// streams, never holding more than one buffer.
///
/// A failed write is remembered (`failure`) and later output is dropped. A closed pipe (EPIPE,
/// `tick all | head`) is not a failure: the reader simply wanted no more.
final class Output {
    let stream: StandardStream
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// Set once the reader has gone away.
    private(set) var closed = false
    /// The first write error other than a closed pipe.
    private(set) var failure: Int32?

    init(_ stream: StandardStream, capacity: Int = 1 << 16) {
        self.stream = stream
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    func write(bytes: UnsafeBufferPointer<UInt8>) {
        if buffer.count + bytes.count > capacity { flush() }
        if bytes.count >= capacity {
            emit(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(bytes: $0) }
    }

    /// Writes `text` and a line feed.
    func line(_ text: String = "") {
        write(text)
        buffer.append(0x0A)
        if buffer.count >= capacity { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer { emit($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !closed, failure == nil else { return }
        switch stream.write(bytes) {
        case .written: break
        case .closed: closed = true
        case .failed(let code): failure = code
        }
    }
}
