import Testing
import TickFormat
@testable import TickCore

/// A segment's tail as the cache stores it (`SegmentTail`): the cold records as byte planes with
/// their text offsets as distances, then one LZ4 block behind its checksum. It reads back byte for
/// byte, and any stored byte changed is refused.
@Suite("Segment tails")
struct SegmentTailTests {
    /// A tail of `records` seeded cold records (text offsets rising, sometimes past 2^32 - 1 so
    /// that a distance wraps) followed by `rest` bytes of seeded text.
    static func tail(records: Int, rest: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var bytes: [UInt8] = []
        var text: UInt32 = records > 2 ? UInt32.max - 40 : 0
        for _ in 0..<records {
            var record = ColdRecord(text: text, titleLength: UInt16.random(in: 0...300, using: &random),
                                    section: UInt16.random(in: 0...3, using: &random), tagsLength: 0,
                                    idLength: UInt8.random(in: 0...2, using: &random), depth: 0,
                                    flags: UInt8.random(in: 0...1, using: &random))
            text = text &+ UInt32(record.titleLength) &+ 7
            withUnsafeBytes(of: &record) { bytes.append(contentsOf: $0) }
        }
        for _ in 0..<rest { bytes.append(UInt8.random(in: 0x61...0x7A, using: &random)) }
        return bytes
    }

    static func roundTrip(_ bytes: [UInt8], records: Int) -> (stored: [UInt8], back: [UInt8]?) {
        let stored = bytes.withUnsafeBytes { SegmentTail.Compressor().compress($0, records: records) }
        var back = [UInt8](repeating: 0xEE, count: bytes.count)
        let held = stored.withUnsafeBytes { s in
            back.withUnsafeMutableBytes { SegmentTail.Decompressor().decompress(s, into: $0, records: records) }
        }
        return (stored, held ? back : nil)
    }

    @Test("tails of 0 to 300 records, with and without text, read back byte for byte", arguments: [0, 1, 2, 3, 17, 300])
    func roundTrips(records: Int) {
        for rest in [0, 1, 500] {
            let bytes = Self.tail(records: records, rest: rest, seed: UInt64(records * 1000 + rest))
            let (stored, back) = Self.roundTrip(bytes, records: records)
            #expect(back == bytes, "\(records) records, \(rest) bytes of text")
            #expect(stored.count > SegmentTail.prefix)
        }
    }

    @Test("the planes hold the first byte of every record, then the second, with text offsets as distances")
    func planes() {
        #expect(MemoryLayout<ColdRecord>.stride == SegmentTail.planeCount)
        let bytes = Self.tail(records: 3, rest: 0, seed: 5)
        var planes = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { from in
            planes.withUnsafeMutableBytes { SegmentTail.toPlanes(from.baseAddress!, records: 3, into: $0.baseAddress!) }
        }
        let records = (0..<3).map { i in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i * 12, as: ColdRecord.self) } }
        // The first record's distance is its offset; the next ones' wrap past 2^32 - 1.
        let distances = [records[0].text, records[1].text &- records[0].text, records[2].text &- records[1].text]
        #expect(distances[1] == UInt32(records[0].titleLength) + 7)
        for (i, distance) in distances.enumerated() {
            for b in 0..<4 { #expect(planes[b * 3 + i] == UInt8(truncatingIfNeeded: distance >> (8 * UInt32(b)))) }
            #expect(planes[4 * 3 + i] == UInt8(truncatingIfNeeded: records[i].titleLength))
        }
        var back = [UInt8](repeating: 0, count: bytes.count)
        planes.withUnsafeBytes { p in
            back.withUnsafeMutableBytes { SegmentTail.fromPlanes(p.baseAddress!, records: 3, into: $0.baseAddress!) }
        }
        #expect(back == bytes)
    }

    @Test("a changed stored byte, a short or long output, or too many records is refused")
    func refusals() {
        let bytes = Self.tail(records: 40, rest: 300, seed: 9)
        let (stored, back) = Self.roundTrip(bytes, records: 40)
        #expect(back == bytes)
        func decompress(_ stored: [UInt8], count: Int, records: Int = 40) -> Bool {
            var out = [UInt8](repeating: 0, count: count)
            return stored.withUnsafeBytes { s in
                out.withUnsafeMutableBytes { SegmentTail.Decompressor().decompress(s, into: $0, records: records) }
            }
        }
        for at in stride(from: 0, to: stored.count, by: 3) {
            var changed = stored
            changed[at] ^= 0x20
            #expect(!decompress(changed, count: bytes.count), "byte \(at)")
        }
        #expect(!decompress(stored, count: bytes.count - 1))
        #expect(!decompress(stored, count: bytes.count + 1))
        #expect(!decompress(stored, count: bytes.count, records: bytes.count / 12 + 1))
        #expect(!decompress(Array(stored.prefix(SegmentTail.prefix)), count: 0, records: 0))
        #expect(decompress(stored, count: bytes.count))
    }
}

/// The title lengths a segment's header keeps, so that resolving a REF as a title skips the lists
/// that cannot hold it without decompressing their tails.
@Suite("Title lengths in a segment's header")
struct TitleLengthTests {
    static func header(_ text: String) -> SegmentHeader {
        let bytes = Segment.build(Document(bytes: Array(text.utf8)), path: "lengths.md")
        return bytes.withUnsafeBytes { Segment(base: $0.baseAddress!, length: $0.count).header }
    }

    @Test("ASCII titles by their length, others apart; 63 bytes or more share the last bit")
    func masks() {
        let long = String(repeating: "x", count: 70)
        let header = Self.header("- [ ] ab\n- [ ] \u{212A}\n- [ ] \(long)\n- [ ] caf\u{E9}\n")
        #expect(header.asciiTitleLengths == UInt64(1) << 2 | UInt64(1) << 63)
        // The Kelvin sign is 3 bytes; "café" 5.
        #expect(header.otherTitleLengths == UInt64(1) << 3 | UInt64(1) << 5)
    }

    @Test("a list may hold a title lowering to n ASCII bytes: an ASCII one of n, or another of n + 1 to 3n")
    func mayHold() {
        let header = Self.header("- [ ] ab\n- [ ] \u{212A}\n")
        #expect(header.mayHoldTitle(loweringToASCII: 2))
        #expect(!header.mayHoldTitle(loweringToASCII: 3))
        // "K" (3 bytes) lowers to "k".
        #expect(header.mayHoldTitle(loweringToASCII: 1))
        #expect(!header.mayHoldTitle(loweringToASCII: 0))
        #expect(!header.mayHoldTitle(loweringToASCII: 4))
        let longer = Self.header("- [ ] \u{212A}\u{212A}\u{212A}\u{212A}\n")  // 12 bytes
        #expect(!longer.mayHoldTitle(loweringToASCII: 3))
        #expect(longer.mayHoldTitle(loweringToASCII: 4))
        #expect(longer.mayHoldTitle(loweringToASCII: 11))
        #expect(!longer.mayHoldTitle(loweringToASCII: 12))
        let long = Self.header("- [ ] \(String(repeating: "y", count: 90))\n")
        #expect(long.mayHoldTitle(loweringToASCII: 90))
        #expect(long.mayHoldTitle(loweringToASCII: 63))
        #expect(!long.mayHoldTitle(loweringToASCII: 62))
    }
}
