import Dispatch
import TickFormat

// Task refs: which hash names a task and the shortest prefixes rows show; the refs tick retired are
// RetiredRefs.swift's.
// Resolving what a user typed is `Library.resolve(ref:)`.

// MARK: - Ref

/// A task's stable reference: a 64-bit FNV-1a hash that names one task (README "Refs", FORMAT.md 5.8).
///
/// Which hash names a task (see `Ref.names(path:document:)`):
/// - a task with an `id:` token: its **id ref**, the hash of `NUL "id:" value`: it survives a new title
///   and a move to another list;
/// - else, a task whose title no other task of its list has (byte for byte): its **title ref**, the hash of
///   `path NUL title NUL "0"` (`path` relative to the task folder, `/`-separated, with `.md`): it survives
///   changes to its due date, priority, flag, completion, notes and to every other task;
/// - else (several tasks of the list share the title): its **content ref**, the hash of `path NUL title NUL
///   SOH NUL` and its due date, priority, flag, section, parent's title and notes (`contentRef`): it does not
///   depend on the order of the same-titled tasks nor on their number, so removing one never hands its ref to
///   another. Same-titled tasks that agree in all of these (twins) are told apart by their order: the first
///   is named by the content ref, the next ones by its twin refs (`twin(_:)`, `Library.shownInstead`).
/// The open task of a `rec:` rule whose same-titled tasks are all done (its history) keeps its title ref.
///
/// A title ref or content ref that tick saw stop naming its task is retired (`RetiredRefs`): a task is
/// never again shown under it, and typing it names the task tick changed (it forwards) or is an error,
/// never another task.
///
/// Written in `alphabet`, 27 symbols without vowels (nor `y`) so that a ref never reads as a word, and
/// without `0`, `1` and `l`, easily mistaken for one another and for `o`. The full ref has 14 symbols,
/// least significant base-27 digit first, so that every prefix is evenly spread; a row shows the shortest
/// prefix of at least 3 symbols that no other task of the folder (nor a retired ref) shares (see `RefIndex`).
public struct Ref: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hash: UInt64

    /// The symbols of a ref, in ascending ASCII order (so refs sort like their text).
    public static let alphabet: [UInt8] = Array("23456789bcdfghjkmnpqrstvwxz".utf8)
    /// Symbols in a full ref: 27^14 > 2^64.
    public static let fullLength = 14
    /// The shortest ref ever shown.
    public static let minimumLength = 3

    public init(hash: UInt64) { self.hash = hash }

    public init(path: String, title: String, occurrence: Int) {
        self.init(path: path.utf8, title: title.utf8, occurrence: occurrence)
    }

    public init(path: some Sequence<UInt8>, title: some Sequence<UInt8>, occurrence: Int) {
        precondition(occurrence >= 0, "occurrence count is never negative")
        var h = FNV1a64()
        h.add(path)
        h.add(0)
        h.add(title)
        h.add(0)
        h.add(decimal: occurrence)
        self.hash = h.value
    }

    /// The title ref of a task: the hash of `path NUL title NUL "0"`.
    public init(path: some Sequence<UInt8>, title: some Sequence<UInt8>) {
        self.init(path: path, title: title, occurrence: 0)
    }

    /// The id ref of a task with the token `id:value`: the hash of `NUL "id:" value` (no path, so that it
    /// survives a move; the NUL keeps it apart from every path's hash).
    public init(id value: some Sequence<UInt8>) {
        var h = FNV1a64()
        h.add(0)
        h.add(Array("id:".utf8))
        h.add(value)
        self.hash = h.value
    }

    /// The content ref of a task whose title other tasks of its list share: the hash of `path NUL title NUL
    /// SOH NUL due NUL priority NUL flag NUL section NUL parent-title NUL notes`, where `due` is written as in
    /// a `due:` token (empty without one), `priority` is 0 to 3, `flag` 0 or 1, `section` the section heading
    /// (empty without one), `parent-title` the enclosing task's title (empty for a top-level task), and
    /// `notes` the notes as tick reads them. Completion is not part of it: completing one of two same-titled
    /// tasks changes neither ref.
    public static func content(path: some Sequence<UInt8>, title: some Sequence<UInt8>, due: DueDate?, priority: Int,
                               flagged: Bool, section: String?, parentTitle: some Sequence<UInt8>,
                               notes: some Sequence<UInt8>) -> Ref {
        var h = FNV1a64()
        h.add(path)
        h.add(0)
        h.add(title)
        h.add(0)
        h.add(1)
        h.add(0)
        if let due { h.add(Array(due.description.utf8)) }
        h.add(0)
        h.add(UInt8(0x30 + max(0, min(priority, 9))))
        h.add(0)
        h.add(flagged ? 0x31 : 0x30)
        h.add(0)
        if let section { h.add(Array(section.utf8)) }
        h.add(0)
        h.add(parentTitle)
        h.add(0)
        h.add(notes)
        return Ref(hash: h.value)
    }

    /// The ref that names each task of a list (see the type's summary), in document order.
    public static func names(path: String, document: Document) -> [Ref] {
        let pathBytes = Array(path.utf8)
        let tasks = document.tasks
        // Titles shared within the list, by bytes (String equality would join canonically equivalent
        // titles): tasks chained by the hash of their title, and compared only within a chain.
        var shared = [Bool](repeating: false, count: tasks.count)
        var lastWithHash: [UInt64: Int] = [:]
        lastWithHash.reserveCapacity(tasks.count)
        var previous = [Int](repeating: -1, count: tasks.count)
        for i in tasks.indices {
            var h = FNV1a64()
            h.add(tasks[i].title.utf8)
            if let last = lastWithHash.updateValue(i, forKey: h.value) {
                previous[i] = last
                var j = last
                while j >= 0 {
                    if tasks[j].title.utf8.elementsEqual(tasks[i].title.utf8) {
                        shared[i] = true
                        shared[j] = true
                    }
                    j = previous[j]
                }
            }
        }
        // A repeating task with its history keeps its title ref: the tasks of a shared title are looked at
        // together (few, as a rule), and when one is open with a rule and all others are done, it is alone.
        var sharing: [[UInt8]: [Int]] = [:]
        for i in tasks.indices where shared[i] { sharing[Array(tasks[i].title.utf8), default: []].append(i) }
        for group in sharing.values {
            if let k = RefNaming.keepsTitle(group.map { (tasks[$0].done, tasks[$0].recurrence != nil) }) { shared[group[k]] = false }
        }
        // Twins (tasks of one content ref) are told apart by their order: the second is the content
        // ref's second twin ref, and so on (`Ref.twin`).
        var twins: [UInt64: Int] = [:]
        // Fields are read in place: a copy of a task would retain and release each of its strings.
        return tasks.withUnsafeBufferPointer { tasks in tasks.indices.map { i in
            if let id = tasks[i].id { return Ref(id: id.utf8) }
            if !shared[i] { return Ref(path: pathBytes, title: tasks[i].title.utf8) }
            let content = Ref.content(path: pathBytes, title: tasks[i].title.utf8, due: tasks[i].due,
                                      priority: tasks[i].priority.rawValue, flagged: tasks[i].flagged, section: tasks[i].section,
                                      parentTitle: tasks[i].parent.map { Array(tasks[$0].title.utf8) } ?? [],
                                      notes: document.notes[i].utf8)
            let occurrence = twins[content.hash, default: 0]
            twins[content.hash] = occurrence + 1
            return content.twin(occurrence)
        } }
    }

    /// The ref of the twin `occurrence` (from 0) of the tasks whose content ref is this one: the content ref
    /// itself for the first, else the hash of `NUL NUL "twin" NUL`, the content ref's 14 symbols, NUL and the
    /// occurrence in decimal.
    public func twin(_ occurrence: Int) -> Ref {
        guard occurrence > 0 else { return self }
        var h = FNV1a64()
        h.add(0)
        h.add(0)
        h.add(Array("twin".utf8))
        h.add(0)
        h.add(Array(description.utf8))
        h.add(0)
        h.add(decimal: occurrence)
        return Ref(hash: h.value)
    }

    /// The full 14-symbol ref.
    public var description: String { prefix(Ref.fullLength) }

    /// The first `length` symbols of the ref (at most 14).
    public func prefix(_ length: Int) -> String {
        var symbols: [UInt8] = []
        symbols.reserveCapacity(Ref.fullLength)
        append(length, to: &symbols)
        return String(decoding: symbols, as: UTF8.self)
    }

    /// Appends the first `length` symbols to `out`, without making a string: the one place a ref
    /// is spelled out.
    public func append(_ length: Int, to out: inout [UInt8]) {
        var h = hash
        for _ in 0..<max(0, min(length, Ref.fullLength)) {
            out.append(Ref.alphabet[Int(h % 27)])
            h /= 27
        }
    }

    /// Whether the ref's first symbols are `symbols`, compared digit by digit: no string is made.
    public func starts(with symbols: some Collection<UInt8>) -> Bool {
        guard symbols.count <= Ref.fullLength else { return false }
        var h = hash
        for symbol in symbols {
            guard let digit = Ref.digit(symbol), h % 27 == UInt64(digit) else { return false }
            h /= 27
        }
        return true
    }

    /// Orders refs like their full text.
    public static func < (a: Ref, b: Ref) -> Bool { SortKey(a.hash) < SortKey(b.hash) }

    /// The value of a ref symbol (0..<27), or nil for any other byte.
    static func digit(_ symbol: UInt8) -> Int? { digitOfByte[Int(symbol)] }

    private static let digitOfByte: [Int?] = {
        var table = [Int?](repeating: nil, count: 256)
        for (i, b) in alphabet.enumerated() { table[Int(b)] = i }
        return table
    }()
}

/// FNV-1a, 64 bits: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    public mutating func add(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            var h = value
            for b in buffer { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            value = h
        }
        if done == nil {
            for b in bytes { add(b) }
        }
    }

    /// Adds a non-negative number written in decimal ASCII.
    mutating func add(decimal n: Int) {
        precondition(n >= 0, "occurrence count is never negative")
        if n >= 10 { add(decimal: n / 10) }
        add(UInt8(0x30 + n % 10))
    }

    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h = FNV1a64()
        h.add(bytes)
        return h.value
    }
}

// MARK: - Ordering by text

/// Powers of 27 up to 27^13.
private let powers: [UInt64] = (0...13).map { e in (0..<e).reduce(1) { r, _ in r * 27 } }

/// A ref's position in the order of its text: the first 13 symbols as a base-27 number (most significant
/// first; 27^13 < 2^64), then the 14th symbol (0...7).
private struct SortKey: Comparable {
    var head: UInt64
    var last: UInt8

    init(_ hash: UInt64) {
        var h = hash
        var head: UInt64 = 0
        for _ in 0..<13 {
            head = head * 27 + h % 27
            h /= 27
        }
        self.head = head
        self.last = UInt8(h)
    }

    static func < (a: SortKey, b: SortKey) -> Bool { (a.head, a.last) < (b.head, b.last) }
}

/// How many leading symbols two refs share (14 when they are equal).
func commonPrefixLength(_ a: UInt64, _ b: UInt64) -> Int {
    var a = a, b = b, n = 0
    while n < Ref.fullLength, a % 27 == b % 27 {
        a /= 27
        b /= 27
        n += 1
    }
    return n
}

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
    private let keys: [SortKey]
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
        let key = SortKey(ref.hash)
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
        let key = SortKey(ref.hash)
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
            if i < 13 { head += UInt64(d) * powers[12 - i] } else { last = UInt8(d) }
        }
        let range: Range<Int>
        if symbols.count == Ref.fullLength {
            let key = SortKey(head: head, last: last)
            let lo = lowerBound(key)
            range = lo..<(lo < keys.count && keys[lo] == key ? lo + 1 : lo)
        } else {
            let lo = lowerBound(SortKey(head: head, last: 0))
            let hi = lowerBound(SortKey(head: head + powers[13 - symbols.count], last: 0))
            range = lo..<hi
        }
        return range.map { Int(order[$0]) }.sorted()
    }

    private func lowerBound(_ key: SortKey) -> Int {
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
        let key = SortKey(hash)
        head = key.head
        last = key.last
        self.hash = hash
        self.position = position
    }

    var key: SortKey { SortKey(head: head, last: last) }
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

extension SortKey {
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
