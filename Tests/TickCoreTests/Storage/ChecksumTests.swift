import Testing
@testable import TickCore

/// The cache's checksum reads its input eight bytes at a time where it can; the value must be the
/// one its definition gives, read a byte at a time, for every length and alignment.
@Suite("Checksum")
struct ChecksumTests {
    /// The checksum as defined: four lanes over 32-byte blocks of little-endian words, then the
    /// remaining words into the first lane, then the last bytes as one little-endian number.
    static func defined(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let k0: UInt64 = 0x9E37_79B9_7F4A_7C15, k1: UInt64 = 0xC2B2_AE3D_27D4_EB4F, k2: UInt64 = 0x1656_67B1_9E37_79F9
        func round(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let x = h ^ w
            return ((x << 29) | (x >> 35)) &* k0
        }
        func word(_ at: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(0) { $0 | UInt64(bytes[bytes.startIndex + at + $1]) << UInt64(8 * $1) }
        }
        var lanes = [k1, k2, ~k1, ~k2]
        var i = 0
        while i + 32 <= bytes.count {
            for lane in 0..<4 { lanes[lane] = round(lanes[lane], word(i + 8 * lane, 8)) }
            i += 32
        }
        while i + 8 <= bytes.count {
            lanes[0] = round(lanes[0], word(i, 8))
            i += 8
        }
        var h = round(lanes.reduce(UInt64(bytes.count) &* k2, round), word(i, bytes.count - i))
        h ^= h >> 33
        h = h &* k1
        h ^= h >> 29
        return h
    }

    @Test("every length from 0 to 100 bytes, at every alignment, gives the defined value")
    func lengths() {
        var random = SeededRandom(seed: 11)
        let bytes = (0..<120).map { _ in UInt8.random(in: 0...255, using: &random) }
        var compared = 0
        bytes.withUnsafeBytes { raw in
            for start in 0..<8 {
                for count in 0...100 {
                    #expect(Checksum.of(raw.baseAddress! + start, count: count) == Self.defined(bytes[start..<(start + count)]),
                            "start \(start), count \(count)")
                    compared += 1
                }
            }
        }
        #expect(compared == 808)
        // A change to any one byte changes the value.
        let whole = Checksum.of(bytes)
        for k in bytes.indices {
            var changed = bytes
            changed[k] ^= 0x10
            #expect(Checksum.of(changed) != whole, "byte \(k)")
        }
    }
}
