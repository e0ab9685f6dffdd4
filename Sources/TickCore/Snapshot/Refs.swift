import Dispatch
import TickFormat

// Task refs: which hash names a task, the shortest prefixes rows show, and the refs tick retired.
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

// MARK: - Retired refs

/// Refs that no longer name the task they named, written by the write commands to `.tick/retired`.
///
/// When a change by tick removes or moves a task, changes what its ref is made of, or gives its title to a
/// second task of the list, the refs that stop naming their task are added here (the newest last, at most
/// `capacity` kept). A retired ref is never shown for a task again, and typing a prefix of one never names
/// another task: it forwards to the task tick changed (its note), or it is gone, or the text is ambiguous.
/// Reads never write this file.
///
/// The file holds one full ref (14 symbols) per line, with its note after a space when it has one. It is
/// untrusted input: it is opened without following a symbolic link, read up to a size limit, a line that
/// does not start with a ref is ignored, and so is a note that is not one.
public struct RetiredRefs: Sendable {
    /// The refs, oldest first.
    public private(set) var refs: [Ref]
    /// The same refs, for prefix lookups.
    public let index: RefIndex
    private let members: Set<UInt64>
    /// What tick knew, when it retired a ref, of the task the ref named (`RetiredNote`), by ref: for the
    /// refs retired by tick's own changes to that task.
    public let notes: [UInt64: RetiredNote]

    /// How many refs the file keeps.
    public static let capacity = 4096
    /// `.tick/retired`.
    public static let fileName = "retired"

    public init(_ refs: [Ref] = [], notes: [UInt64: RetiredNote] = [:]) {
        var seen = Set<UInt64>()
        var kept: [Ref] = []
        for ref in refs.reversed() where seen.insert(ref.hash).inserted {
            kept.append(ref)
            if kept.count == RetiredRefs.capacity { break }
        }
        self.refs = kept.reversed()
        self.members = Set(kept.map(\.hash))
        self.index = RefIndex(self.refs)
        self.notes = notes.isEmpty ? notes : notes.filter { seen.contains($0.key) }
    }

    public var isEmpty: Bool { refs.isEmpty }

    public func contains(_ hash: UInt64) -> Bool { members.contains(hash) }

    /// These refs with `added` appended (the oldest dropped beyond `capacity`) and `revived` taken out;
    /// `notes` are added to theirs.
    /// A note that forwarded to a ref now retired with a note of its own forwards where that one does,
    /// so that a chain of changes is followed in one step.
    public func updated(adding added: [Ref], removing revived: Set<UInt64> = [],
                        notes more: [UInt64: RetiredNote] = [:]) -> RetiredRefs {
        var all = notes
        if !more.isEmpty {
            for (hash, note) in all {
                if let to = note.to, let next = more[to.hash] { all[hash] = RetiredNote(to: next.to, title: note.title) }
            }
            all.merge(more) { $1 }
        }
        return RetiredRefs(refs.filter { !revived.contains($0.hash) } + added.filter { !revived.contains($0.hash) }, notes: all)
    }

    /// The file's text: one full ref per line, followed, for a ref with a note, by a space and the note
    /// (`RetiredNote.text`).
    public var text: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(refs.count * (Ref.fullLength + 1))
        for ref in refs {
            out.append(contentsOf: ref.description.utf8)
            if let note = notes[ref.hash] {
                out.append(0x20)
                out.append(contentsOf: note.text)
            }
            out.append(0x0A)
        }
        return out
    }

    /// Reads the refs of a file's text; lines that do not start with a full ref are skipped, and a note
    /// that is not one (`RetiredNote(text:)`) is left out.
    public init(text: [UInt8]) {
        var refs: [Ref] = []
        var notes: [UInt64: RetiredNote] = [:]
        for line in text.split(separator: 0x0A) {
            let head = line.prefix { $0 != 0x20 }
            guard head.count == Ref.fullLength, let ref = Ref(fullText: head) else { continue }
            refs.append(ref)
            if head.count < line.count, let note = RetiredNote(text: line.dropFirst(head.count + 1)) {
                notes[ref.hash] = note
            }
        }
        self.init(refs, notes: notes)
    }
}

extension Ref {
    /// The ref written as its 14 symbols (lower case), or nil when the text is not one.
    init?(fullText symbols: some Collection<UInt8>) {
        guard symbols.count == Ref.fullLength else { return nil }
        var value: UInt64 = 0
        var multiplier: UInt64 = 1
        for (i, s) in symbols.enumerated() {
            guard let d = Ref.digit(s) else { return nil }
            let (part, overflow1) = UInt64(d).multipliedReportingOverflow(by: multiplier)
            let (sum, overflow2) = value.addingReportingOverflow(part)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            if i + 1 < Ref.fullLength { multiplier = multiplier &* 27 }
        }
        self.init(hash: value)
    }
}

// MARK: - The retired file

extension RetiredRefs {
    /// The longest file read: a full file, each ref with its longest note, and a little slack.
    static let maximumFileSize = capacity * (Ref.fullLength + 2 + RetiredNote.maximumLength) + 4096

    /// `.tick/` of the task folder at `root`.
    static func stateDirectory(root: String) -> String { root + "/" + FolderLocation.stateFolderName }

    /// The retired refs of the task folder at `root`: none when the file is missing, is not a regular file
    /// (a symbolic link is not followed) or is larger than a full one.
    public static func load(root: String) -> RetiredRefs {
        guard let bytes = StateFolder.open(stateDirectory(root: root))?.read(fileName, limit: maximumFileSize)
        else { return RetiredRefs() }
        return RetiredRefs(text: bytes)
    }

    /// Writes the refs to `.tick/retired` of the folder at `root` (0600, through a temporary file and a
    /// rename, so a reader sees the old file or the new one). The folder's writer holds its lock.
    /// Without a `.tick/` folder (or with a link in its place) nothing is written.
    func save(root: String) throws(IOFailure) {
        try StateFolder.open(RetiredRefs.stateDirectory(root: root))?.write(RetiredRefs.fileName, text)
    }
}

// MARK: - Retiring refs when tick changes lists

extension Library {
    /// This library with other retired refs (which change the refs shown instead of title refs).
    func with(retired: RetiredRefs) -> Library {
        // Retired refs do not change the lengths among the records' refs.
        Library.assemble(files: lists.map(\.file), segments: lists.map(\.segment), storage: storage,
                         shortRefLengths: refLengths.table, retired: retired)
    }

    /// The refs shown for the tasks of the lists at `paths`, in folder order.
    func shownRefs(inListsAt paths: Set<String>) -> [Ref] {
        var refs: [Ref] = []
        for (l, list) in lists.enumerated() where paths.contains(list.file.path) {
            for i in 0..<list.taskCount {
                refs.append(fullRef(TaskID(list: l, index: i), hash: list.segment.refRecord(i).refHash))
            }
        }
        return refs
    }

    /// The title refs of the titles that several tasks share in the lists at `paths`.
    ///
    /// In the order of each title's second task. No title is copied to find them: the tasks are sorted
    /// by a hash of their title, so that equal titles lie side by side, and the titles of one hash are
    /// then told apart by their bytes.
    /// `hashing` is the title hash (tests give a weak one, so that different titles share hashes).
    func sharedTitleRefs(inListsAt paths: Set<String>,
                         hashing: (UnsafeBufferPointer<UInt8>) -> UInt64 = { FNV1a64.hash($0) }) -> [Ref] {
        var refs: [Ref] = []
        for list in lists where paths.contains(list.file.path) {
            let segment = list.segment
            segment.proveRecordsAndText()
            func title(_ task: UInt32) -> UnsafeBufferPointer<UInt8> { segment.title(of: segment.cold(Int(task))) }
            var keyed: [(hash: UInt64, task: UInt32)] = []
            keyed.reserveCapacity(list.taskCount)
            for i in 0..<list.taskCount { keyed.append((hashing(title(UInt32(i))), UInt32(i))) }
            keyed.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.task < $1.task }
            var shared: [(second: UInt32, title: [UInt8])] = []
            var start = 0
            while start < keyed.count {
                var end = start + 1
                while end < keyed.count, keyed[end].hash == keyed[start].hash { end += 1 }
                // Tasks of one hash, in document order: the first one's title with every task that
                // holds it, then the same among the rest.
                var rest = keyed[start..<end].map(\.task)
                while rest.count > 1 {
                    let text = title(rest[0])
                    var same: [UInt32] = [], other: [UInt32] = []
                    for task in rest { if title(task).elementsEqual(text) { same.append(task) } else { other.append(task) } }
                    if same.count > 1, RefNaming.keepsTitle(same.map { (segment.hot(Int($0)).done, segment.hot(Int($0)).hasRule) }) == nil {
                        shared.append((same[1], Array(text)))
                    }
                    rest = other
                }
                start = end
            }
            shared.sort { $0.second < $1.second }
            let path = Array(list.file.path.utf8)
            refs += shared.map { Ref(path: path, title: $0.title) }
        }
        return refs
    }

    /// The refs shown for the tasks of `document`, the list at `path` as tick last wrote it, with
    /// this library's retired refs. The document is let go once its records are built (when
    /// nothing else holds it), so that a huge list is not held twice.
    func shownRefs(ofWritten document: consuming Document, path: String) -> [Ref] {
        let file = ListFile(path: path, absolutePath: path)
        return Library(documents: [(file, document)], retired: retired).shownRefs(inListsAt: [path])
    }

    /// The retired refs once tick has changed the lists at `paths` from `before` to this library:
    /// the title refs of titles that several tasks of those lists share (before or after: such a ref could
    /// have been shown for one of them while it was alone), then every ref shown before the change in
    /// those lists that no task of them is shown under after it.
    ///
    /// `handEdits` holds the lists edited by hand since tick last wrote them, with the refs shown in
    /// them as tick left them (`shownRefs(ofWritten:path:)`): those that no task of `before` (the
    /// folder as the change found it) is shown under are retired first (a task deleted by hand).
    ///
    /// `following` holds the tasks tick itself removed or changed, with where each is after the change
    /// (nil: removed), and `renamed` the lists it renamed (old path to new); the other tasks of the lists
    /// are matched by their fields (`matchedTasks`). The ref of a task that is not shown under it
    /// afterwards is retired before the other refs are compared, so that no other task (a twin) is shown
    /// under it, with a note that forwards it to the task's new ref (`RetiredNote`).
    func retiredRefs(after before: Library, changing paths: Set<String>,
                     handEdits: [(path: String, shown: [Ref])] = [],
                     following: [(before: TaskID, after: TaskKey?)] = [], renamed: [String: String] = [:]) -> RetiredRefs {
        var vanished: [Ref] = []
        if !handEdits.isEmpty {
            // The refs tick's last write showed there that no task of the folder as the change found
            // it is shown under (a task moved by hand keeps an id ref): one pass over the folder's
            // refs, looking only for those few.
            let shownThen = handEdits.flatMap(\.shown)
            // Most are still shown in the same lists, edited by hand around them: those are looked at
            // first, and the rest of the folder only for the refs not found there.
            let wanted = Array(Set(shownThen.map(\.hash))).sorted()
            var found = [Bool](repeating: false, count: wanted.count)
            var missing = wanted.count
            func look(inLists edited: Bool) {
                let editedPaths = Set(handEdits.map(\.path))
                for (l, list) in before.lists.enumerated() where editedPaths.contains(list.file.path) == edited {
                    for i in 0..<list.taskCount {
                        let id = TaskID(list: l, index: i)
                        let hash = before.fullRef(id, hash: list.segment.refRecord(i).refHash).hash
                        if let k = wanted.sortedIndex(of: hash), !found[k] {
                            found[k] = true
                            missing -= 1
                            if missing == 0 { return }
                        }
                    }
                }
            }
            look(inLists: true)
            if missing > 0 { look(inLists: false) }
            vanished = shownThen.filter { hash in wanted.sortedIndex(of: hash.hash).map { !found[$0] } ?? true }
        }
        let shared = before.sharedTitleRefs(inListsAt: paths) + sharedTitleRefs(inListsAt: paths)
        var first = before.retired.updated(adding: vanished + shared)
        var trial = with(retired: first)
        // Each task tick kept, with what it is after the change: one shown under another ref than before
        // gives its ref up (retired, forwarding to the new one) before any other task can be shown under
        // it. A ref given up changes the refs of its twins only: a few rounds settle it.
        let pairs = matchedTasks(before: before, changing: paths, following: following, renamed: renamed)
        let refsBefore = pairs.map { before.fullRef($0.before) }
        // The tasks tick removed: their refs go first. Others that no pair keeps are removed too when
        // their refs are not shown afterwards (below).
        let kept = Set(pairs.map(\.before))
        var removed: [(ref: Ref, title: String)] = []
        for task in following where !kept.contains(task.before) {
            removed.append((before.fullRef(task.before), before.task(task.before).title))
        }
        if !removed.isEmpty {
            first = first.updated(adding: removed.map(\.ref))
            trial = with(retired: first)
        }
        for (l, list) in before.lists.enumerated() where paths.contains(list.file.path) {
            for i in 0..<list.taskCount where !kept.contains(TaskID(list: l, index: i)) {
                let id = TaskID(list: l, index: i)
                removed.append((before.fullRef(id), before.task(id).title))
            }
        }
        for _ in 0..<4 {
            var more: [Ref] = []
            for (k, pair) in pairs.enumerated() where !first.contains(refsBefore[k].hash) {
                if trial.fullRef(pair.after) != refsBefore[k] { more.append(refsBefore[k]) }
            }
            if more.isEmpty { break }
            first = first.updated(adding: more)
            trial = with(retired: first)
        }
        var notes: [UInt64: RetiredNote] = [:]
        for (k, pair) in pairs.enumerated() where !before.retired.contains(refsBefore[k].hash) {
            let now = trial.fullRef(pair.after)
            if now != refsBefore[k] { notes[refsBefore[k].hash] = RetiredNote(to: now, title: task(pair.after).title) }
        }
        for (ref, title) in removed where notes[ref.hash] == nil && !before.retired.contains(ref.hash) {
            notes[ref.hash] = RetiredNote(to: nil, title: title)
        }
        let shownAfter = Set(trial.shownRefs(inListsAt: paths).map(\.hash))
        var gone: [Ref] = []
        var seen = Set<UInt64>()
        for ref in before.shownRefs(inListsAt: paths) where !shownAfter.contains(ref.hash) && seen.insert(ref.hash).inserted {
            gone.append(ref)
        }
        let retired = first.updated(adding: gone)
        return retired.updated(adding: [], notes: notes.filter { retired.contains($0.key) })
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
