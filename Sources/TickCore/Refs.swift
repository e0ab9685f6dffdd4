// Task refs: stable short names for tasks, and resolving what a user typed to a task.

// MARK: - Ref

/// A task's stable reference: the FNV-1a 64 hash of `path NUL title NUL n`.
///
/// `path` is the list file's path relative to the task folder (`/`-separated, with `.md`), `title` the task's
/// title as the format reads it (UTF-8 bytes, exactly), and `n` in decimal ASCII how many earlier tasks of
/// the same list (in document order, subtasks and done tasks included) have a byte-identical title. So a ref
/// survives edits to other tasks and to this task's metadata, but changes when the task's title, its
/// list or the number of same-titled tasks before it changes.
///
/// Written in `alphabet`, 27 symbols without vowels (nor `y`) so that a ref never reads as a word, and
/// without `0`, `1` and `l`, easily mistaken for one another and for `o`. The full ref has 14 symbols,
/// least significant base-27 digit first, so that every prefix is evenly spread; a row shows the shortest
/// prefix of at least 3 symbols that no other task of the folder shares (see `RefIndex`).
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

    /// The refs of a list's tasks, given every title of the list in document order.
    public static func refs(path: String, titles: some Sequence<String>) -> [Ref] {
        var builder = RefBuilder(path: path)
        return titles.map { builder.next(title: $0) }
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

/// Computes the refs of one list's tasks in document order, counting repeated titles.
///
/// Titles count as the same when their bytes are identical. (Strictly, when the hash of `path NUL title`
/// is: the two differ only for a 64-bit collision, where counting the titles together keeps their refs apart.)
public struct RefBuilder {
    private let pathState: FNV1a64
    /// How many tasks so far had each `path NUL title NUL` hash state.
    private var seen: [UInt64: Int] = [:]

    public init(path: some Sequence<UInt8>) {
        var h = FNV1a64()
        h.add(path)
        h.add(0)
        pathState = h
    }

    public init(path: String) { self.init(path: path.utf8) }

    /// The ref of the next task of the list.
    public mutating func next(title: some Sequence<UInt8>) -> Ref {
        var h = pathState
        h.add(title)
        h.add(0)
        let n = seen[h.value, default: 0]
        seen[h.value] = n + 1
        h.add(decimal: n)
        return Ref(hash: h.value)
    }

    public mutating func next(title: String) -> Ref { next(title: title.utf8) }
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
private func commonPrefixLength(_ a: UInt64, _ b: UInt64) -> Int {
    var a = a, b = b, n = 0
    while n < Ref.fullLength, a % 27 == b % 27 {
        a /= 27
        b /= 27
        n += 1
    }
    return n
}

// MARK: - RefIndex

/// The refs of every task of a folder: shortest unique prefixes, and resolution of what a user typed.
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
        let entries = sortedByText(refs)
        let order = entries.map(\.position)
        var lengths = [UInt8](repeating: UInt8(Ref.minimumLength), count: refs.count)
        for i in order.indices {
            let here = refs[Int(order[i])].hash
            var shared = 0
            if i > 0 { shared = commonPrefixLength(here, refs[Int(order[i - 1])].hash) }
            if i + 1 < order.count { shared = max(shared, commonPrefixLength(here, refs[Int(order[i + 1])].hash)) }
            lengths[Int(order[i])] = UInt8(min(max(Ref.minimumLength, shared + 1), Ref.fullLength))
        }
        self.order = order
        self.keys = entries.map(\.key)
        self.lengths = lengths
    }

    public var count: Int { refs.count }

    /// The ref shown for the task at `index`: its shortest unique prefix of at least 3 symbols.
    public func shortRef(at index: Int) -> String { refs[index].prefix(Int(lengths[index])) }

    /// The shortest prefix of `ref` (at least 3 symbols) that no other ref of the index shares.
    ///
    /// For a ref of the index this is what a row shows; for any other ref it is the prefix it would need
    /// to stand apart from all of them.
    public func shortRef(for ref: Ref) -> String {
        let key = SortKey(ref.hash)
        let position = lowerBound(key)
        var shared = 0
        if position > 0 { shared = commonPrefixLength(ref.hash, refs[Int(order[position - 1])].hash) }
        var next = position
        if next < keys.count, keys[next] == key { next += 1 }  // itself
        if next < keys.count { shared = max(shared, commonPrefixLength(ref.hash, refs[Int(order[next])].hash)) }
        return ref.prefix(min(max(Ref.minimumLength, shared + 1), Ref.fullLength))
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

    /// Resolves what a user typed for REF. `titles` are the tasks' titles in the order of `refs`.
    ///
    /// In order of precedence: a ref (3 to 14 symbols, any case) that is the prefix of exactly one full ref;
    /// then an exact title, ignoring case; then a title that contains the text, ignoring case. The first rule
    /// that finds exactly one task wins; a title rule that finds several makes the text ambiguous. When no title
    /// matches, a ref prefix shared by several tasks is ambiguous too. Surrounding whitespace is ignored.
    public func resolve(_ text: String, titles: some Sequence<String>) -> RefResolution {
        let query = trimmed(text)
        guard !query.isEmpty else { return .notFound }
        let byRef = query.utf8.count >= Ref.minimumLength ? indices(withRefPrefix: query) : []
        if byRef.count == 1 { return .found(byRef[0], by: .ref) }

        let needle = Array(query.lowercased().utf8)
        var exact: [Int] = []
        var containing: [Int] = []
        for (i, title) in titles.enumerated() {
            let folded = Array(title.lowercased().utf8)
            if folded == needle {
                exact.append(i)
            } else if exact.isEmpty, contains(folded, needle) {
                containing.append(i)
            }
        }
        if exact.count == 1 { return .found(exact[0], by: .title) }
        if exact.count > 1 { return .ambiguous(exact, by: .title) }
        if containing.count == 1 { return .found(containing[0], by: .titleSubstring) }
        if containing.count > 1 { return .ambiguous(containing, by: .titleSubstring) }
        if byRef.count > 1 { return .ambiguous(byRef, by: .ref) }
        return .notFound
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

/// The refs' sort keys with their positions, in text order.
///
/// A large set is first spread by its first three symbols (a counting sort over 27^3 buckets, linear), and
/// each bucket, a handful of refs, is then sorted on its own.
private func sortedByText(_ refs: [Ref]) -> [(key: SortKey, position: Int32)] {
    var entries = refs.indices.map { (key: SortKey(refs[$0].hash), position: Int32($0)) }
    let bucketCount = 27 * 27 * 27
    guard entries.count >= 4096 else {
        entries.sort { $0.key < $1.key }
        return entries
    }
    func bucket(_ key: SortKey) -> Int { Int(key.head / powers[10]) }
    var starts = [Int](repeating: 0, count: bucketCount + 1)
    for entry in entries { starts[bucket(entry.key) + 1] += 1 }
    for b in 0..<bucketCount { starts[b + 1] += starts[b] }
    var next = starts
    var spread = entries
    for entry in entries {
        let b = bucket(entry.key)
        spread[next[b]] = entry
        next[b] += 1
    }
    for b in 0..<bucketCount where starts[b + 1] - starts[b] > 1 {
        let range = starts[b]..<starts[b + 1]
        if range.count > 32 {
            spread[range].sort { $0.key < $1.key }
            continue
        }
        // Insertion sort: buckets hold about n / 27^3 refs.
        for i in (range.lowerBound + 1)..<range.upperBound {
            let entry = spread[i]
            var j = i
            while j > range.lowerBound, entry.key < spread[j - 1].key {
                spread[j] = spread[j - 1]
                j -= 1
            }
            spread[j] = entry
        }
    }
    return spread
}

extension SortKey {
    init(head: UInt64, last: UInt8) {
        self.head = head
        self.last = last
    }
}

/// The outcome of resolving a user's REF text.
public enum RefResolution: Equatable, Sendable {
    /// Which rule matched.
    public enum Rule: Equatable, Sendable {
        case ref, title, titleSubstring
    }

    /// Exactly one task, at this position.
    case found(Int, by: Rule)
    /// Several tasks matched the first rule that matched at all: the candidates, in ascending position.
    case ambiguous([Int], by: Rule)
    /// Nothing matched.
    case notFound
}

private func trimmed(_ text: String) -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = text.firstIndex(where: { !isSpace($0) }),
          let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
    return String(text[first...last])
}

/// Whether `needle` occurs in `haystack`, byte for byte.
private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first else { return true }
    guard haystack.count >= needle.count else { return false }
    var i = 0
    let end = haystack.count - needle.count
    while i <= end {
        if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
        i += 1
    }
    return false
}
