import Dispatch
import Synchronization
import TickFormat

/// How far a cached segment is proven: the areas checked so far, and what became of a damaged one.
/// The areas (`SegmentArea`) are checked against the cache's sums; the text is any bytes, vouched
/// for by the tail's checksum, and the records are checked against it.
final class SegmentProof: SegmentProving, @unchecked Sendable {
    /// The areas in the order they are proven.
    private static let order = [SegmentArea.hot, SegmentArea.refs, SegmentArea.cold, SegmentArea.search]

    enum State { case intact, rebuilt, neutralized }

    let sums: SegmentSums
    let context: CacheContext
    /// The list the segment stands for (set when the cache hands the segment out).
    var file: ListFile?
    // `unproven` and `tail` (the tail's decompressed memory once it is) are the proof's own.
    /// The most bytes the tail may take decompressed (checked on loading): a damaged or forged
    /// cache does not make tick allocate more than a bound from its list file's size.
    let tailLimit: Int
    private(set) var state = State.intact

    init(sums: SegmentSums, context: CacheContext, tailLimit: Int) {
        self.sums = sums
        self.context = context
        self.tailLimit = tailLimit
        super.init(unproven: context.flag(SegmentArea.all), tail: context.tailSlot())
    }

    deinit { tail.pointee?.deallocate() }

    /// Checks the unproven areas among `areas`. A damaged area is a cache miss: the list is parsed
    /// again and the whole segment replaced by the result in this process's private copy of the
    /// mapped file, and the cache file is removed so that the next run writes a sound one.
    /// The checksums are worked out before taking the lock, so that threads reading lists of their
    /// own (`Library.inListRuns`) prove them at the same time; one segment is read by one thread.
    override func prove(_ areas: UInt8, of segment: Segment) {
        assert(!rendering, "a row read an area that proveForRows did not prove")
        // The tail is decompressed first; a tail that does not decompress to its length proves
        // none of its areas.
        var tailHeld = true
        if areas & SegmentArea.tailAreas != 0, tail.pointee == nil {
            if let memory = decompressedTail(of: segment, count: segment.length - segment.coldOffset) {
                context.lock.withLock {
                    if tail.pointee == nil { tail.pointee = memory } else { memory.deallocate() }
                }
            } else {
                tailHeld = false
            }
        }
        var held: UInt8 = 0
        for area in SegmentProof.order where areas & area != 0 && unproven.pointee & area != 0
            && (tailHeld || area & SegmentArea.tailAreas == 0) && segment.check(area, against: sums) {
            held |= area
        }
        context.lock.withLock {
            for area in SegmentProof.order where areas & area != 0 {
                guard unproven.pointee & area != 0 else { continue }
                if held & area != 0 {
                    unproven.pointee &= ~area
                    continue
                }
                context.reportDamage()
                // The mapped cache is read-only until a segment's head must be replaced; its tail
                // is replaced in memory of its own (taken zeroed when it did not decompress).
                let head = segment.coldOffset
                guard MappedFile.allowWrites(segment.base, count: head) else {
                    preconditionFailure("the system refused to let tick replace a damaged cache segment in its memory")
                }
                let memory = UnsafeMutableRawPointer(mutating: segment.base)
                let tailCount = segment.length - head
                if tail.pointee == nil {
                    let fresh = UnsafeMutableRawPointer.allocate(byteCount: max(tailCount, 1), alignment: 16)
                    fresh.initializeMemory(as: UInt8.self, repeating: 0, count: max(tailCount, 1))
                    tail.pointee = fresh
                }
                let tailMemory = tail.pointee!
                if let file, let fresh = context.rebuild(file), fresh.count == segment.length,
                   fresh.withUnsafeBytes({ $0.prefix(MemoryLayout<SegmentHeader>.stride).elementsEqual(
                       UnsafeRawBufferPointer(start: segment.base, count: MemoryLayout<SegmentHeader>.stride)) }) {
                    fresh.withUnsafeBytes {
                        memory.copyMemory(from: $0.baseAddress!, byteCount: head)
                        tailMemory.copyMemory(from: $0.baseAddress! + head, byteCount: tailCount)
                    }
                    state = .rebuilt
                } else {
                    segment.neutralize(head: memory, tail: tailMemory - head)
                    state = .neutralized
                }
                unproven.pointee = 0
                return
            }
        }
    }

    /// The tail of `segment` decompressed into new memory of `count` bytes, or nil when its stored
    /// bytes do not decompress to exactly that many (`SegmentTail`).
    private func decompressedTail(of segment: Segment, count: Int) -> UnsafeMutableRawPointer? {
        let stored = UnsafeRawBufferPointer(rebasing: segment.storedBytes[segment.coldOffset...])
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        let done = context.withDecompressor { $0.decompress(stored, into: UnsafeMutableRawBufferPointer(start: memory, count: count),
                                                                 records: segment.taskCount) }
        guard done else {
            memory.deallocate()
            return nil
        }
        return memory
    }
}

/// The checksums of a segment's areas before its tail, as the cache keeps them. The tail (cold
/// and extra records, text, folded records and folded text) is stored compressed behind a
/// checksum of its own (`SegmentTail`), checked before it is decompressed.
struct SegmentSums: Equatable {
    /// The header, the section refs and the names' text that follows them, up to the hot records
    /// (`Segment.headSum`): what a list's name and a row's section read.
    var head: UInt64
    var hot: UInt64
    var refs: UInt64
}
