import TickFormat


// Search: every word must occur in a task's title, notes or tags, ignoring case and diacritics.
// The folded text of every task is made once, when its list is parsed, and kept in the cache.

/// A task found by a search.
public struct SearchHit: Sendable {
    public var id: TaskID
    /// When some word was found only in the notes: the first note line holding a match.
    public var noteLine: NoteLine?
    /// The searched words, folded.
    let words: [[UInt8]]

    /// The character ranges of every searched word in `text` (the task's title, to highlight it as
    /// a note line's matches are), folded as the search folds.
    public func matches(in text: String) -> [Range<Int>] { TickCore.matches(of: words, in: text) }
}

/// A note line that a search matched, and where the words are in it (worked out only when asked:
/// only highlighting needs it).
public struct NoteLine: Sendable {
    public var text: String
    let words: [[UInt8]]

    /// The character ranges of every searched word in `text`.
    public var matches: [Range<Int>] { TickCore.matches(of: words, in: text) }
}

extension Library {
    /// Tasks whose title, notes or tags contain every word, ignoring case and diacritics; open tasks
    /// only unless `includeCompleted`. Ordered like every view (due, priority, list path, line).
    public func search(_ words: [String], includeCompleted: Bool = false, list: Int? = nil) -> [SearchHit] {
        let needles = words.map { Folding.fold($0) }.filter { !$0.isEmpty }
        guard !needles.isEmpty else { return [] }
        // The longest word is looked for in a list's whole folded text at once; only the tasks
        // where it occurs are matched against every word.
        let scanned = needles.max { $0.count < $1.count }!
        let runs = inListRuns(only: list) { range in
            var hits: [(hit: SearchHit, key: ViewOrderKey)] = []
            for l in range {
                let segment = lists[l].segment
                func match(_ i: Int) {
                    let h = segment.hot(i)
                    if h.done, !includeCompleted { return }
                    if let hit = self.match(needles, task: i, of: segment, list: l) {
                        hits.append((hit, ViewOrderKey(h, list: l, now: nil)))
                    }
                }
                if !scan(segment, for: scanned, match) {
                    for i in 0..<segment.taskCount { match(i) }
                }
            }
            return hits
        }
        var hits = runs.count == 1 ? runs[0] : runs.flatMap { $0 }
        hits.sort { a, b in
            if a.key.done != b.key.done { return !a.key.done }
            return a.key.precedes(b.key)
        }
        return hits.map(\.hit)
    }

    /// Calls `candidate` with each task, in order, whose folded title or notes hold `needle`, found
    /// by one pass over the segment's whole folded text. Returns false, having called it for none,
    /// when the search records are not laid out in task order (each task's title, then its notes,
    /// after the task before), as a segment built here always is: then every task must be matched.
    private func scan(_ segment: Segment, for needle: [UInt8], _ candidate: (Int) -> Void) -> Bool {
        let count = segment.taskCount
        // The ranges of each task's folded text, checked to follow one another: a task's notes
        // (empty ones placed right after its title) end where its text ends.
        var ranges: [(title: Range<Int>, notes: Range<Int>)] = []
        ranges.reserveCapacity(count)
        var end = 0
        for i in 0..<count {
            let r = segment.search(i)
            let title = Int(r.title.offset)..<(Int(r.title.offset) + Int(r.title.length))
            guard title.lowerBound >= end else { return false }
            end = title.upperBound
            var notes = end..<end
            if r.notes.length > 0 {
                notes = Int(r.notes.offset)..<(Int(r.notes.offset) + Int(r.notes.length))
                guard notes.lowerBound >= end else { return false }
                end = notes.upperBound
            }
            ranges.append((title, notes))
        }
        let text = segment.foldedText()
        needle.withUnsafeBufferPointer { needle in
            var from = 0, i = 0
            while i < count, let at = TickCore.find(needle, in: text, from: from) {
                while i < count, ranges[i].notes.upperBound <= at { i += 1 }
                guard i < count else { break }
                func holds(_ r: Range<Int>) -> Bool { r.lowerBound <= at && at + needle.count <= r.upperBound }
                if holds(ranges[i].title) || holds(ranges[i].notes) {
                    candidate(i)
                    from = ranges[i].notes.upperBound
                    i += 1
                } else {
                    from = at + 1
                }
            }
        }
        return true
    }

    /// The hit of task `i` when its folded title, notes or tags hold every one of `needles`.
    private func match(_ needles: [[UInt8]], task i: Int, of segment: Segment, list l: Int) -> SearchHit? {
        let r = segment.search(i)
        let title = segment.folded(r.title)
        let notes = segment.folded(r.notes)
        var onlyInNotes: [[UInt8]] = []
        for needle in needles {
            if contains(title, needle) { continue }
            if contains(notes, needle) { onlyInNotes.append(needle); continue }
            return nil
        }
        var hit = SearchHit(id: TaskID(list: l, index: i), noteLine: nil, words: needles)
        // Folding keeps line feeds, so line k of the folded notes is line k of the notes.
        if !onlyInNotes.isEmpty, let k = firstLine(in: notes, holdingAnyOf: onlyInNotes) {
            let lines = segment.notes(i).split(separator: 0x0A, omittingEmptySubsequences: false)
            if k < lines.count {
                hit.noteLine = NoteLine(text: String(decoding: lines[k], as: UTF8.self), words: needles)
            }
        }
        return hit
    }
}

/// Whether `needle` occurs in `haystack`.
func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    needle.withUnsafeBufferPointer { find($0, in: haystack, from: 0) != nil }
}

/// Where `needle` first occurs in `haystack` at or after `start`. Eight bytes at a time are
/// looked over for the needle's least common byte (by English letter frequency), and each place
/// found is then compared whole.
func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
    let last = haystack.count - needle.count
    let anchor = rarestByte(of: needle), byte = needle[anchor]
    @inline(__always) func isMatch(_ k: Int) -> Bool {
        var j = 0
        while j < needle.count, base[k + j] == needle[j] { j += 1 }
        return j == needle.count
    }
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    let pattern = UInt64(byte) &* ones
    // A high bit for each byte of `at`'s eight equal to the anchor byte (and perhaps for some after
    // one: each place is compared).
    @inline(__always) func marks(_ at: Int) -> UInt64 {
        let x = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) ^ pattern
        return (x &- ones) & ~x & highs
    }
    // `q` walks the places of the anchor byte: a match starts `anchor` bytes before it. Sixteen
    // bytes at a time while no place is marked, which is most of the text.
    var q = max(start, 0) + anchor
    while q + 8 <= haystack.count, q - anchor <= last {
        var found = marks(q)
        if found == 0, q + 16 <= haystack.count {
            let next = marks(q + 8)
            if next == 0 {
                q += 16
                continue
            }
            q += 8
            found = next
        }
        while found != 0 {
            let k = q + found.trailingZeroBitCount / 8 - anchor
            if k > last { return nil }
            if base[k + anchor] == byte, isMatch(k) { return k }
            found &= found &- 1
        }
        q += 8
    }
    while q - anchor <= last {
        if base[q] == byte, isMatch(q - anchor) { return q - anchor }
        q += 1
    }
    return nil
}

/// The index in `needle` of its least common byte in English text: letters by their frequency,
/// the space and punctuation as common, every other byte (digits, other scripts) as rare.
private func rarestByte(of needle: UnsafeBufferPointer<UInt8>) -> Int {
    func commonness(_ b: UInt8) -> Int {
        switch b {
        case 0x20, 0x2C, 0x2E, 0x0A: return 30
        case 0x61...0x7A: return letterCommonness[Int(b - 0x61)]
        default: return 0
        }
    }
    var best = 0, lowest = Int.max
    for (k, b) in needle.enumerated() where commonness(b) < lowest {
        best = k
        lowest = commonness(b)
    }
    return best
}

/// a to z: 26 for the most common letter in English text (e), 1 for the least (z).
private let letterCommonness = [24, 7, 15, 17, 26, 11, 10, 19, 22, 4, 5, 16, 13, 21, 23, 8, 2, 18, 20, 25, 14, 6, 12, 3, 9, 1]

/// The index of the first line of `text` (split at line feeds) holding any of `needles`.
func firstLine(in text: UnsafeBufferPointer<UInt8>, holdingAnyOf needles: [[UInt8]]) -> Int? {
    var best: Int? = nil
    for needle in needles {
        if let at = needle.withUnsafeBufferPointer({ find($0, in: text, from: 0) }), at < (best ?? .max) { best = at }
    }
    guard let best else { return nil }
    var line = 0
    for i in 0..<best where text[i] == 0x0A { line += 1 }
    return line
}

/// The character ranges (offsets in `Array(text)`) where any of the folded `words` occurs.
func matches(of words: [[UInt8]], in text: String) -> [Range<Int>] {
    let (folded, origin) = Folding.foldWithOrigins(text)
    var ranges: [Range<Int>] = []
    for needle in words where !needle.isEmpty && needle.count <= folded.count {
        var i = 0
        while i + needle.count <= folded.count {
            if folded[i..<(i + needle.count)].elementsEqual(needle) {
                ranges.append(origin[i]..<(origin[i + needle.count - 1] + 1))
                i += needle.count
            } else {
                i += 1
            }
        }
    }
    var merged: [Range<Int>] = []
    for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = merged.last, r.lowerBound <= last.upperBound {
            merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
        } else {
            merged.append(r)
        }
    }
    return merged
}
