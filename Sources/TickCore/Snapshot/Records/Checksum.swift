/// A fast checksum: a multiply-rotate over 8-byte words, in four independent lanes.
///
/// Not cryptographic: it finds damage (a flipped bit or a changed word is always found, other
/// damage nearly always), not forgery; what a forged cache could do is bounded by the checks of
/// every index and length.
enum Checksum {
    private static let k0: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let k1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let k2: UInt64 = 0x1656_67B1_9E37_79F9

    static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, count: $0.count) }
    }

    static func of(_ p: UnsafeRawPointer, count: Int) -> UInt64 {
        @inline(__always) func round(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let x = h ^ w
            return ((x << 29) | (x >> 35)) &* k0
        }
        var a: UInt64 = k1, b: UInt64 = k2, c: UInt64 = ~k1, d: UInt64 = ~k2
        var i = 0
        while i + 32 <= count {
            a = round(a, p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            b = round(b, p.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            c = round(c, p.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            d = round(d, p.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        while i + 8 <= count {
            a = round(a, p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        // The last bytes, fewer than eight, as a little-endian number.
        var tail: UInt64 = 0
        let rest = count - i
        #if _endian(little)
        if rest > 0, count >= 8 {
            // The last eight bytes, of which the first were read already.
            tail = p.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64(8 * (8 - rest))
        } else if rest > 0 {
            var k = 0
            if rest & 4 != 0 {
                tail = UInt64(p.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                k = 4
            }
            if rest & 2 != 0 {
                tail |= UInt64(p.loadUnaligned(fromByteOffset: i + k, as: UInt16.self)) << UInt64(8 * k)
                k += 2
            }
            if rest & 1 != 0 { tail |= UInt64(p.load(fromByteOffset: i + k, as: UInt8.self)) << UInt64(8 * k) }
        }
        #else
        for k in 0..<rest { tail |= UInt64(p.load(fromByteOffset: i + k, as: UInt8.self)) << UInt64(8 * k) }
        #endif
        var h = round(round(round(round(round(UInt64(count) &* k2, a), b), c), d), tail)
        h ^= h >> 33
        h = h &* k1
        h ^= h >> 29
        return h
    }
}
