import CLz4

/// How the cache stores a segment's tail (its cold records, extra records, text and folded area,
/// about two thirds of its bytes): as one LZ4 block, preceded by the checksum of that block. A
/// view that reads only hot or ref records never decompresses it; one that reads a list's titles
/// decompresses that list's tail once, into memory of its own (`SegmentProof`).
///
/// Before compression the cold records are turned into byte planes: the first byte of every
/// record, then the second, and so on, with each record's text offset replaced by its distance
/// from the record before's. The planes of mostly-zero fields become long runs that LZ4 stores
/// in a few bytes, so that the tail compresses to about 0.56 of its size rather than 0.67, and
/// decompressing stays a few times faster than with an entropy coder.
///
/// The stored tail is untrusted input: it is decompressed only when its checksum holds, only into
/// a buffer of exactly the length that the segment's header gives, and used only when it fills
/// that buffer exactly. The checksum makes every stored bit matter, so that a damaged cache is
/// always found damaged, even where LZ4 would decode a changed block to the same bytes.
enum SegmentTail {
    /// The bytes before the block: its checksum (`Checksum.of`).
    static let prefix = MemoryLayout<UInt64>.stride
    /// The longest tail LZ4 compresses, a little under 2 GiB.
    static let largest = Int(LZ4_MAX_INPUT_SIZE)

    /// Compresses segment tails, reusing its buffers across the segments one thread compresses.
    final class Compressor {
        private var planes: [UInt8] = []

        init() {}

        /// `bytes` (a tail whose first `records` cold records are turned into planes) compressed,
        /// after the block's checksum.
        func compress(_ bytes: UnsafeRawBufferPointer, records: Int) -> [UInt8] {
            let stride = SegmentTail.planeCount
            precondition(records * stride <= bytes.count, "a segment's tail is shorter than its cold records")
            precondition(bytes.count <= SegmentTail.largest, "a segment's tail is too large for LZ4")
            // Never empty, so that its address is never nil.
            if planes.count < max(bytes.count, 1) { planes = [UInt8](repeating: 0, count: max(bytes.count, 1)) }
            return planes.withUnsafeMutableBytes { scratch in
                let rest = bytes.count - records * stride
                if records > 0 { SegmentTail.toPlanes(bytes.baseAddress!, records: records, into: scratch.baseAddress!) }
                if rest > 0 {
                    (scratch.baseAddress! + records * stride).copyMemory(from: bytes.baseAddress! + records * stride,
                                                                         byteCount: rest)
                }
                let bound = Int(LZ4_compressBound(Int32(bytes.count)))
                return [UInt8](unsafeUninitializedCapacity: SegmentTail.prefix + bound) { buffer, count in
                    let block = buffer.baseAddress! + SegmentTail.prefix
                    let written = scratch.withMemoryRebound(to: CChar.self) { source in
                        UnsafeMutableRawPointer(block).withMemoryRebound(to: CChar.self, capacity: bound) {
                            LZ4_compress_default(source.baseAddress, $0, Int32(bytes.count), Int32(bound))
                        }
                    }
                    // Compressing into a buffer of the bound never fails.
                    precondition(written > 0 || bytes.isEmpty, "LZ4 failed to compress a cache segment")
                    let sum = Checksum.of(UnsafeRawPointer(block), count: Int(written))
                    UnsafeMutableRawPointer(buffer.baseAddress!).storeBytes(of: sum, as: UInt64.self)
                    count = SegmentTail.prefix + Int(written)
                }
            }
        }
    }

    /// Decompresses segment tails, used by one thread at a time (`CacheContext.withDecompressor`),
    /// reusing its buffer for the cold records' planes.
    final class Decompressor: @unchecked Sendable {
        private var planes: [UInt8] = []

        init() {}

        /// Decompresses `stored` into `output`, whose first `records` cold records were stored as
        /// planes: true when the block's checksum holds and it decompresses to exactly
        /// `output.count` bytes.
        func decompress(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                        records: Int) -> Bool {
            let stride = SegmentTail.planeCount
            guard let source = stored.baseAddress, stored.count > SegmentTail.prefix, output.count <= Int(Int32.max),
                  records >= 0, records <= output.count / stride
            else { return false }
            let block = source + SegmentTail.prefix
            let length = stored.count - SegmentTail.prefix
            guard length <= Int(Int32.max),
                  source.loadUnaligned(as: UInt64.self) == Checksum.of(block, count: length)
            else { return false }
            let written = block.withMemoryRebound(to: CChar.self, capacity: length) { from in
                output.baseAddress!.withMemoryRebound(to: CChar.self, capacity: output.count) {
                    LZ4_decompress_safe(from, $0, Int32(length), Int32(output.count))
                }
            }
            guard written == output.count else { return false }
            let count = records * stride
            guard count > 0 else { return true }
            if planes.count < count { planes = [UInt8](repeating: 0, count: count) }
            planes.withUnsafeMutableBytes { scratch in
                scratch.baseAddress!.copyMemory(from: output.baseAddress!, byteCount: count)
                SegmentTail.fromPlanes(UnsafeRawPointer(scratch.baseAddress!), records: records,
                                       into: output.baseAddress!)
            }
            return true
        }
    }

    /// How many planes a cold record makes: one for each of its bytes.
    static let planeCount = 12

    /// Writes the planes of `records` cold records at `from` into `planes` (as many bytes): plane
    /// k holds byte k of every record, the fields taken in order (text offset as a distance,
    /// title length, section, tags length, `id:` length, depth, flags), each least significant
    /// byte first.
    static func toPlanes(_ from: UnsafeRawPointer, records: Int, into planes: UnsafeMutableRawPointer) {
        let p = planes.assumingMemoryBound(to: UInt8.self)
        let n = records
        var previous: UInt32 = 0
        for i in 0..<n {
            let r = (from + i * MemoryLayout<ColdRecord>.stride).loadUnaligned(as: ColdRecord.self)
            let distance = r.text &- previous
            previous = r.text
            for k in 0..<4 { p[k * n + i] = UInt8(truncatingIfNeeded: distance >> (8 * UInt32(k))) }
            p[4 * n + i] = UInt8(truncatingIfNeeded: r.titleLength)
            p[5 * n + i] = UInt8(truncatingIfNeeded: r.titleLength >> 8)
            p[6 * n + i] = UInt8(truncatingIfNeeded: r.section)
            p[7 * n + i] = UInt8(truncatingIfNeeded: r.section >> 8)
            p[8 * n + i] = r.tagsLength
            p[9 * n + i] = r.idLength
            p[10 * n + i] = r.depth
            p[11 * n + i] = r.flags
        }
    }

    /// The inverse of `toPlanes`: `records` cold records from their planes. Each record is put
    /// together in registers from its twelve bytes and stored whole, its text offset summed on
    /// the way.
    static func fromPlanes(_ planes: UnsafeRawPointer, records: Int, into output: UnsafeMutableRawPointer) {
        let p = planes.assumingMemoryBound(to: UInt8.self)
        let n = records
        @inline(__always) func byte(_ plane: Int, _ i: Int) -> UInt32 { UInt32(p[plane * n + i]) }
        var text: UInt32 = 0
        for i in 0..<n {
            text = text &+ (byte(0, i) | byte(1, i) << 8 | byte(2, i) << 16 | byte(3, i) << 24)
            let record = ColdRecord(text: text, titleLength: UInt16(truncatingIfNeeded: byte(4, i) | byte(5, i) << 8),
                                    section: UInt16(truncatingIfNeeded: byte(6, i) | byte(7, i) << 8),
                                    tagsLength: p[8 * n + i], idLength: p[9 * n + i], depth: p[10 * n + i],
                                    flags: p[11 * n + i])
            (output + i * MemoryLayout<ColdRecord>.stride).storeBytes(of: record, as: ColdRecord.self)
        }
    }
}
