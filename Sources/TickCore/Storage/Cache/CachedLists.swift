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
        segment.cacheProof?.file = file
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
