import Dispatch
import TickFormat

// The short refs of a folder: each task's shortest unique prefix, and the tasks a prefix starts
// (the hash that makes a ref is Refs.swift's).

// MARK: - RefIndex

/// The refs of every task of a folder: shortest unique prefixes, and the tasks a prefix starts.
///
/// Built once from all full refs (a sort, then one pass comparing each ref with its neighbours in text
/// order), so it stays fast at 100,000 tasks. Tasks are named by their position in the array given to `init`.
public struct RefIndex: Sendable {
    /// The full refs, in the caller's order.
    public let refs: [Ref]
    /// Positions into `refs`, sorted by ref text.
    private let order: [Int32]
    private let keys: [RefSortKey]
    /// Length of the shortest unique prefix, by position in `refs`.
    private let lengths: [UInt8]

    public init(_ refs: [Ref]) {
        precondition(refs.count < Int(Int32.max), "too many tasks for one index")
        self.refs = refs
        let entries = sortedByText(count: refs.count) { body in for ref in refs { body(ref.hash) } }
        var lengths = [UInt8](repeating: UInt8(Ref.minimumLength), count: refs.count)
        measure(sorted: entries, into: &lengths)
        self.lengths = lengths
        self.order = entries.map(\.position)
        self.keys = entries.map(\.key)
    }

    /// The short-ref length of each of `hashes`' refs (as `shortRefLength(at:)` of an index of
    /// them), without building the index: what the cache keeps. Refs whose first three symbols
    /// differ share fewer than three, so each ref is measured among those that start like it
    /// alone, a group at a time (`PrefixSplitter`): besides the lengths, one number a ref is alive.
    static func shortRefLengths(of hashes: [UInt64]) -> [UInt8] {
        shortRefLengths(count: hashes.count) { body in for hash in hashes { body(hash) } }
    }

    /// `shortRefLengths(of:)` of the `count` hashes that `each` gives its argument, in position
    /// order (it is called twice): read from where they lie, never gathered into one array. A
    /// large set's groups are measured on several threads, each taking a share of the groups and
    /// setting the lengths of their positions alone.
    static func shortRefLengths(count: Int, each: ((UInt64) -> Void) -> Void) -> [UInt8] {
        precondition(count < Int(Int32.max), "too many tasks for one index")
        let (starts, hashes, positions) = groupedByFirstSymbols(count: count, each: each)
        var lengths = [UInt8](repeating: UInt8(Ref.minimumLength), count: count)
        let groups = starts.count - 1
        let shares = count >= parallelMinimum ? shareCount : 1
        lengths.withUnsafeMutableBufferPointer { lengths in
            let out = LengthWrites(base: lengths.baseAddress!, count: lengths.count)
            @Sendable func measure(share: Int) {
                let splitter = PrefixSplitter()
                for g in (groups * share / shares)..<(groups * (share + 1) / shares) where starts[g + 1] - starts[g] > 1 {
                    splitter.measure(hashes, positions, Int(starts[g])..<Int(starts[g + 1]), into: out)
                }
            }
            if shares == 1 { measure(share: 0) } else { DispatchQueue.concurrentPerform(iterations: shares, execute: measure) }
        }
        return lengths
    }

    /// How many hashes make `shortRefLengths` measure on several threads, and into how many shares
    /// of the groups it cuts them.
    static let parallelMinimum = 1 << 16
    static let shareCount = 8

    public var count: Int { refs.count }

    /// The ref shown for the task at `index`: its shortest unique prefix of at least 3 symbols.
    public func shortRef(at index: Int) -> String { refs[index].prefix(shortRefLength(at: index)) }

    /// The number of symbols of `shortRef(at: index)`.
    public func shortRefLength(at index: Int) -> Int { Int(lengths[index]) }

    /// The shortest prefix of `ref` (at least 3 symbols) that no other ref of the index shares.
    ///
    /// For a ref of the index this is what a row shows; for any other ref it is the prefix it would need
    /// to stand apart from all of them.
    public func shortRef(for ref: Ref) -> String {
        ref.prefix(min(max(Ref.minimumLength, sharedPrefixLength(with: ref) + 1), Ref.fullLength))
    }

    /// The most leading symbols that `ref` shares with a different ref of the index (equal ones do not count).
    public func sharedPrefixLength(with ref: Ref) -> Int {
        let key = RefSortKey(ref.hash)
        let position = lowerBound(key)
        var shared = 0
        if position > 0 { shared = commonPrefixLength(ref.hash, refs[Int(order[position - 1])].hash) }
        var next = position
        while next < keys.count, keys[next] == key { next += 1 }  // itself
        if next < keys.count { shared = max(shared, commonPrefixLength(ref.hash, refs[Int(order[next])].hash)) }
        return shared
    }

    /// Whether the index holds `ref`.
    public func contains(_ ref: Ref) -> Bool {
        let key = RefSortKey(ref.hash)
        let position = lowerBound(key)
        return position < keys.count && keys[position] == key
    }

    /// Positions (ascending) of the tasks whose full ref starts with `text` (lower-cased, 1 to 14 symbols).
    /// Empty when `text` holds a byte outside the ref alphabet.
    public func indices(withRefPrefix text: String) -> [Int] {
        let symbols = Array(text.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        guard !symbols.isEmpty, symbols.count <= Ref.fullLength else { return [] }
        var head: UInt64 = 0
        var last: UInt8 = 0
        for (i, s) in symbols.enumerated() {
            guard let d = Ref.digit(s) else { return [] }
            if i < 13 { head += UInt64(d) * refDigitPowers[12 - i] } else { last = UInt8(d) }
        }
        let range: Range<Int>
        if symbols.count == Ref.fullLength {
            let key = RefSortKey(head: head, last: last)
            let lo = lowerBound(key)
            range = lo..<(lo < keys.count && keys[lo] == key ? lo + 1 : lo)
        } else {
            let lo = lowerBound(RefSortKey(head: head, last: 0))
            let hi = lowerBound(RefSortKey(head: head + refDigitPowers[13 - symbols.count], last: 0))
            range = lo..<hi
        }
        return range.map { Int(order[$0]) }.sorted()
    }

    private func lowerBound(_ key: RefSortKey) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// A ref's sort key, its hash and its position, packed in 24 bytes (a tuple of the three takes 32).
/// The hash rides along so that comparing neighbours reads the entries in order, not the caller's
/// array at random (a million refs' hashes do not stay in the processor's caches).
private struct SortEntry {
    var head: UInt64
    var hash: UInt64
    var position: Int32
    var last: UInt8

    init(hash: UInt64, position: Int32) {
        let key = RefSortKey(hash)
        head = key.head
        last = key.last
        self.hash = hash
        self.position = position
    }

    var key: RefSortKey { RefSortKey(head: head, last: last) }
}

/// Sets the length of the shortest unique prefix (at least 3 symbols) of each ref of `entries`
/// (sorted by text; every ref sharing three symbols or more with one of them is among them) at its
/// position in `lengths`.
private func measure(sorted entries: [SortEntry], into lengths: inout [UInt8]) {
    for i in entries.indices {
        let here = entries[i].hash
        // Equal refs (tasks that agree in everything their ref is made of) share their short ref:
        // compare with the nearest different ref on each side.
        var shared = 0
        var j = i - 1
        while j >= 0, entries[j].hash == here { j -= 1 }
        if j >= 0 { shared = commonPrefixLength(here, entries[j].hash) }
        var k = i + 1
        while k < entries.count, entries[k].hash == here { k += 1 }
        if k < entries.count { shared = max(shared, commonPrefixLength(here, entries[k].hash)) }
        lengths[Int(entries[i].position)] = UInt8(min(max(Ref.minimumLength, shared + 1), Ref.fullLength))
    }
}

/// The lengths array that `RefIndex.shortRefLengths`'s threads set, each at the positions of its
/// own groups' refs, which no other thread sets.
private struct LengthWrites: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    /// Sets the length of the ref at `position` to one symbol more than the `shared` symbols it
    /// shares with another ref, within 3 and 14.
    @inline(__always) func set(_ position: Int32, shared: Int) {
        precondition(position >= 0 && Int(position) < count, "a position beyond the refs")
        base[Int(position)] = UInt8(min(max(Ref.minimumLength, shared + 1), Ref.fullLength))
    }
}

/// Measures a group of refs sharing their first three symbols by splitting it on each next symbol
/// in turn (a radix sort that stops where refs stand apart), with no comparison sort: once a ref is
/// alone in its part, or only with copies of itself, it shares exactly the symbols read so far
/// with another ref of the group, and no more. Refs are kept as the symbols not read yet (their
/// hash divided by 27 for each symbol read), the lowest digit being the next symbol.
private final class PrefixSplitter {
    private var capacity = 0
    /// Two pairs of buffers (rests and positions): a split reads one pair and writes the other.
    private var rests = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var positions = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private var spareRests = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var sparePositions = UnsafeMutablePointer<Int32>.allocate(capacity: 0)

    deinit { release() }

    private func release() {
        rests.deallocate()
        positions.deallocate()
        spareRests.deallocate()
        sparePositions.deallocate()
    }

    /// Sets the lengths of the refs `hashes[range]` (at `at[range]`), which share their first three symbols.
    func measure(_ hashes: [UInt64], _ at: [Int32], _ range: Range<Int>, into out: LengthWrites) {
        let n = range.count
        if n > capacity {
            release()
            capacity = max(n, 2 * capacity, 64)
            rests = .allocate(capacity: capacity)
            positions = .allocate(capacity: capacity)
            spareRests = .allocate(capacity: capacity)
            sparePositions = .allocate(capacity: capacity)
        }
        let first = hashes[range.lowerBound]
        var allEqual = true
        for (k, i) in range.enumerated() {
            rests[k] = hashes[i] / (27 * 27 * 27)
            positions[k] = at[i]
            allEqual = allEqual && hashes[i] == first
        }
        // Copies of one ref share fewer than three symbols with any other: the least length, already set.
        guard !allEqual else { return }
        split(rests, positions, into: spareRests, sparePositions, count: n, depth: 3, out: out)
    }

    /// Splits the `count` refs at `rests` and `positions`, which share `depth` symbols and are not
    /// all equal, by their next symbol into `toRests` and `toPositions`, and measures each part.
    /// `rests` and `positions` are then free for the parts' own splits.
    private func split(_ rests: UnsafeMutablePointer<UInt64>, _ positions: UnsafeMutablePointer<Int32>,
                       into toRests: UnsafeMutablePointer<UInt64>, _ toPositions: UnsafeMutablePointer<Int32>,
                       count: Int, depth: Int, out: LengthWrites) {
        // Distinct hashes differ within 14 symbols, so refs that are not all equal share fewer.
        precondition(depth < Ref.fullLength, "equal refs split again")
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 28) { starts in
            starts.initialize(repeating: 0)
            for k in 0..<count { starts[Int(rests[k] % 27) + 1] += 1 }
            for d in 0..<27 { starts[d + 1] += starts[d] }
            for k in 0..<count {
                let d = Int(rests[k] % 27)
                let slot = starts[d]
                toRests[slot] = rests[k] / 27
                toPositions[slot] = positions[k]
                starts[d] = slot + 1
            }
            // Each part now ends where `starts` says and begins where the one before ends.
            var low = 0
            for d in 0..<27 {
                let high = starts[d], size = high - low
                defer { low = high }
                guard size > 0 else { continue }
                let first = toRests[low]
                var allEqual = true
                for k in (low + 1)..<high where toRests[k] != first { allEqual = false; break }
                if allEqual {
                    // Alone, or with its copies: it shares `depth` symbols with a ref of another part.
                    for k in low..<high { out.set(toPositions[k], shared: depth) }
                } else if size == 2 {
                    let shared = depth + 1 + commonPrefixLength(first, toRests[low + 1])
                    out.set(toPositions[low], shared: shared)
                    out.set(toPositions[low + 1], shared: shared)
                } else {
                    split(toRests + low, toPositions + low, into: rests + low, positions + low,
                          count: size, depth: depth + 1, out: out)
                }
            }
        }
    }
}

/// The `count` hashes that `each` gives its argument (twice, in position order) with their
/// positions, grouped by the first three symbols of their refs, the groups in text order (a
/// counting sort over 27^3 groups, linear): group `g` is `hashes[starts[g]..<starts[g + 1]]` at
/// the same `positions`. Refs of different groups share fewer than three symbols. Each group's
/// hashes lie together, so that a group is read in order: a million hashes read at random
/// positions miss the processor's caches at nearly every read.
private func groupedByFirstSymbols(count: Int, each: ((UInt64) -> Void) -> Void)
    -> (starts: [Int32], hashes: [UInt64], positions: [Int32]) {
    let groups = 27 * 27 * 27
    // The first three symbols are the hash's three lowest digits in base 27, the lowest first.
    @inline(__always) func group(_ hash: UInt64) -> Int {
        let low = Int(hash % UInt64(groups))
        return low % 27 * 729 + low / 27 % 27 * 27 + low / 729
    }
    var starts = [Int32](repeating: 0, count: groups + 1)
    var given = 0
    each { hash in
        starts[group(hash) + 1] += 1
        given += 1
    }
    precondition(given == count, "the hashes given are not the count")
    for g in 0..<groups { starts[g + 1] += starts[g] }
    var next = starts
    var hashes = [UInt64](repeating: 0, count: count)
    var positions = [Int32](repeating: 0, count: count)
    var position: Int32 = 0
    each { hash in
        let g = group(hash)
        let at = Int(next[g])
        hashes[at] = hash
        positions[at] = position
        next[g] += 1
        position += 1
    }
    precondition(Int(position) == count, "the hashes given the second time are not the first")
    return (starts, hashes, positions)
}

/// The sort keys of the `count` refs whose hashes `each` gives its argument, with their positions,
/// in text order: for a large set, each group of `groupedByFirstSymbols`, a handful of refs, sorted
/// on its own.
private func sortedByText(count: Int, each: ((UInt64) -> Void) -> Void) -> [SortEntry] {
    guard count >= 4096 else {
        var entries: [SortEntry] = []
        entries.reserveCapacity(count)
        each { entries.append(SortEntry(hash: $0, position: Int32(entries.count))) }
        entries.sort { $0.key < $1.key }
        return entries
    }
    let (starts, hashes, positions) = groupedByFirstSymbols(count: count, each: each)
    var entries = zip(hashes, positions).map { SortEntry(hash: $0, position: $1) }
    for g in 0..<(starts.count - 1) where starts[g + 1] - starts[g] > 1 {
        entries[Int(starts[g])..<Int(starts[g + 1])].sort { $0.key < $1.key }
    }
    return entries
}

extension RefSortKey {
    init(head: UInt64, last: UInt8) {
        self.head = head
        self.last = last
    }
}

extension Array where Element == UInt64 {
    /// The index of `value` in this ascending array, by binary search, or nil.
    func sortedIndex(of value: UInt64) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value ? low : nil
    }
}
