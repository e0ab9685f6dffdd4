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
    public static func < (a: Ref, b: Ref) -> Bool { RefSortKey(a.hash) < RefSortKey(b.hash) }

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
let refDigitPowers: [UInt64] = (0...13).map { e in (0..<e).reduce(1) { r, _ in r * 27 } }

/// A ref's position in the order of its text: the first 13 symbols as a base-27 number (most significant
/// first; 27^13 < 2^64), then the 14th symbol (0...7).
struct RefSortKey: Comparable {
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

    static func < (a: RefSortKey, b: RefSortKey) -> Bool { (a.head, a.last) < (b.head, b.last) }
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
