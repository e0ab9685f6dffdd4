import Dispatch
import TickFormat

// The cache as read: the mapped base and delta files and the segments of the lists they hold
// (the file itself, its writing and its checks are ListCache.swift's).

/// A mapped cache: the segments of the lists it holds, for those still unchanged.
struct CachedLists {
    /// Where the base file is mapped, where its segments start, and its header's checksum.
    struct Base {
        let start: UnsafeRawPointer
        let length: Int
        let segmentsStart: Int
        let headerSum: UInt64
    }

    let created: Int64
    /// The entry and segment of each list, in `order`: nil for a damaged one.
    let entries: [(ListCache.Entry, Segment)?]
    /// The lists' paths, in the directory's order.
    let order: [String]
    let refs: UnsafeRawBufferPointer
    let refsSum: UInt64
    /// Whether a segment was found damaged on loading (its list is then parsed again).
    let isDamaged: Bool
    let base: Base
    let storage: SegmentStorage

    /// The entry of each of `files`, and whether the cache lists exactly their paths in their order.
    /// A folder whose lists were not added, removed or renamed since is looked up by position,
    /// without hashing a path; otherwise by path.
    func entries(for files: [ListFile]) -> (entries: [(ListCache.Entry, Segment)?], samePaths: Bool) {
        if order.count == files.count, zip(order, files).allSatisfy({ $0 == $1.path }) { return (entries, true) }
        var byPath: [String: Int] = Dictionary(minimumCapacity: order.count)
        for (k, path) in order.enumerated() { byPath[path] = k }
        return (files.map { file in byPath[file.path].flatMap { entries[$0] } }, false)
    }

    /// The cached segment of `file`, and whether it must be checked against the file's bytes.
    func lookup(_ file: ListFile) -> CacheLookup {
        lookup(file, in: order.firstIndex(of: file.path).flatMap { entries[$0] })
    }

    /// `lookup` for `file`, whose entry is `found` (`entries(for:)`).
    func lookup(_ file: ListFile, in found: (ListCache.Entry, Segment)?) -> CacheLookup {
        guard let (entry, segment) = found, let status = file.status,
              entry.size == UInt64(status.size), entry.modified == status.modified, entry.changed == status.changed,
              entry.inode == status.inode, entry.device == status.device
        else { return .miss }
        segment.proof?.file = file
        let racy = entry.modified >= created - ListCache.racyWindow || entry.flags & ListCache.Entry.mustVerify != 0
        return racy ? .verify(segment) : .hit(segment)
    }

    /// The short-ref lengths of every task, when their checksum holds and each is a possible length.
    var shortRefLengths: [UInt8]? {
        guard Checksum.of(refs.baseAddress!, count: refs.count) == refsSum else { return nil }
        // The smallest and largest length, in a loop without branches.
        var low = UInt8.max, high = UInt8.min
        for length in refs {
            low = min(low, length)
            high = max(high, length)
        }
        guard refs.isEmpty || (Int(low) >= Ref.minimumLength && Int(high) <= Ref.fullLength) else { return nil }
        return Array(refs)
    }
}

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
