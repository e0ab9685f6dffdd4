import Dispatch
import Synchronization
import TickFormat

/// Keeps the memory of segments alive: copies it owns, or a mapped cache file.
final class SegmentStorage: @unchecked Sendable {
    private var owned: [UnsafeMutableRawPointer] = []
    private var release: (() -> Void)?

    init() {}
    init(release: @escaping () -> Void) { self.release = release }

    deinit {
        owned.forEach { $0.deallocate() }
        release?()
    }

    /// Takes over memory from `Segment.built` (made on any thread) and returns a segment over it.
    func adopt(_ memory: UnsafeMutableRawPointer, length: Int) -> Segment {
        owned.append(memory)
        return Segment(base: UnsafeRawPointer(memory), length: length)
    }

    func adopt(_ built: (memory: UnsafeMutableRawPointer, length: Int)) -> Segment {
        adopt(built.memory, length: built.length)
    }
}
