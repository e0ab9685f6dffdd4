import Dispatch
import Synchronization
import TickFormat

/// What the segments of one mapped cache share: how to parse a list again, what to do once
/// damage is found, the lock for proving, and the decompressors of their tails.
final class CacheContext: @unchecked Sendable {
    let rebuild: @Sendable (ListFile) -> [UInt8]?
    let damaged: () -> Void
    let lock = StateLock()
    private var reported = false

    /// The proofs' unproven areas (`flag`) and the slots for their tails (`tailSlot`), freed with
    /// the context.
    private var flags = Blocks<UInt8>()
    private var slots = Blocks<UnsafeMutableRawPointer?>()
    /// Decompressors not in use, one per thread that decompressed at once (`withDecompressor`).
    private var decompressors: [SegmentTail.Decompressor] = []

    init(rebuild: @escaping @Sendable (ListFile) -> [UInt8]?, damaged: @escaping () -> Void) {
        self.rebuild = rebuild
        self.damaged = damaged
    }

    deinit {
        flags.deallocate()
        slots.deallocate()
    }

    /// Values taken one at a time from blocks of 1,024, so that loading a cache of many lists
    /// allocates once per block rather than once per list.
    private struct Blocks<Value> {
        private var blocks: [UnsafeMutablePointer<Value>] = []
        private var left = 0

        mutating func take(_ value: Value) -> UnsafeMutablePointer<Value> {
            if left == 0 {
                blocks.append(.allocate(capacity: 1024))
                left = 1024
            }
            left -= 1
            let taken = blocks[blocks.count - 1] + left
            taken.initialize(to: value)
            return taken
        }

        func deallocate() { blocks.forEach { $0.deallocate() } }
    }

    /// A slot holding nil, for one proof's decompressed tail. Called on one thread, as the cache
    /// is loaded.
    func tailSlot() -> UnsafeMutablePointer<UnsafeMutableRawPointer?> { slots.take(nil) }

    /// Runs `body` with a decompressor that no other thread uses meanwhile.
    func withDecompressor<T>(_ body: (SegmentTail.Decompressor) -> T) -> T {
        let taken = lock.withLock { decompressors.popLast() } ?? SegmentTail.Decompressor()
        defer { lock.withLock { decompressors.append(taken) } }
        return body(taken)
    }

    /// A byte holding `value`, for one proof. Called on one thread, as the cache is loaded.
    func flag(_ value: UInt8) -> UnsafeMutablePointer<UInt8> { flags.take(value) }

    /// Removes the damaged cache file (once), so that the next run writes it anew.
    func reportDamage() {
        if !reported {
            reported = true
            damaged()
        }
    }
}
