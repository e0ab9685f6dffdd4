import TickFormat


// Search: every word must occur in a task's title, notes or tags, ignoring case and diacritics.
// Text is compared folded. The text of a task that is all ASCII is compared ignoring ASCII case,
// which is how ASCII folds; every other task's folded text is made once, when its list is parsed,
// and kept in the cache (`FoldedRecord`).

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
        // The longest word is looked for in a list's whole text and folded text at once; only the tasks
        // where it occurs are matched against every word.
        let scanned = needles.max { $0.count < $1.count }!
        // Where each word is looked for first, worked out once for every list and task.
        let anchors = needles.map { $0.withUnsafeBufferPointer(rarestByte) }
        let scannedAnchor = scanned.withUnsafeBufferPointer(rarestByte)
        // A word beyond ASCII can only be in folded text: the text of every other task is ASCII.
        let isASCII = needles.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
        let runs = inListRuns(only: list) { range in
            var hits: [(hit: SearchHit, key: ViewOrderKey)] = []
            for l in range {
                let segment = lists[l].segment
                if l + 1 < lists.count {
                    lists[l + 1].segment.prefetchSearchArea()
                    lists[l + 1].segment.prefetchHotRecords()
                }
                func match(_ i: Int, _ h: HotRecord) {
                    if h.done, !includeCompleted { return }
                    if let hit = self.match(needles, anchors: anchors, task: i, hot: h, of: segment, list: l) {
                        hits.append((hit, ViewOrderKey(h, list: l, now: nil)))
                    }
                }
                if isASCII { scanText(segment, for: scanned, anchor: scannedAnchor, match) }
                scanFolded(segment, for: scanned, anchor: scannedAnchor, match)
            }
            return hits
        }
        let found = runs.count == 1 ? runs[0] : runs.flatMap { $0 }
        // The places of the hits are sorted, not the hits: a place moves as one number.
        var order = Array(found.indices)
        found.withUnsafeBufferPointer { found in
            order.sort { a, b in
                let x = found[a].key, y = found[b].key
                if x.done != y.done { return !x.done }
                return x.precedes(y)
            }
        }
        return order.map { found[$0].hit }
    }

    /// Calls `candidate` with each task, in order, that is not folded and whose title with its
    /// tags or notes hold `needle` ignoring ASCII case, found by one pass over the segment's whole
    /// text. The cold records follow task order (each task's text after the task before), as a
    /// segment built here always does and a cached one is proven to (`Segment.check`), so the task
    /// holding each place found is the first whose searched text ends after it.
    private func scanText(_ segment: Segment, for needle: [UInt8], anchor: Int, _ candidate: (Int, HotRecord) -> Void) {
        let count = segment.taskCount
        let text = segment.text()
        needle.withUnsafeBufferPointer { needle in
            var from = 0, i = 0
            while i < count, let at = TickCore.find(needle, in: text, from: from, anchor: anchor, caseless: true) {
                var (start, titleEnd, end) = segment.searchSpan(i)
                while end <= at {
                    i += 1
                    guard i < count else { return }
                    (start, titleEnd, end) = segment.searchSpan(i)
                }
                let inTitle = start <= at && at + needle.count <= titleEnd
                let inNotes = titleEnd <= at && at + needle.count <= end
                let h = segment.hot(i)
                if (inTitle || inNotes) && !h.isFolded {
                    candidate(i, h)
                    from = end
                    i += 1
                } else {
                    from = at + 1
                }
            }
        }
    }

    /// Calls `candidate` with each folded task, in order, whose folded title with its tags or
    /// notes hold `needle`, found by one pass over the segment's folded text.
    private func scanFolded(_ segment: Segment, for needle: [UInt8], anchor: Int, _ candidate: (Int, HotRecord) -> Void) {
        let count = segment.foldedCount
        let text = segment.foldedText()
        needle.withUnsafeBufferPointer { needle in
            var from = 0, k = 0
            while k < count, let at = TickCore.find(needle, in: text, from: from, anchor: anchor) {
                var r = segment.foldedRecord(k)
                while UInt64(r.offset) + r.length <= UInt64(at) {
                    k += 1
                    guard k < count else { return }
                    r = segment.foldedRecord(k)
                }
                let start = Int(r.offset), titleEnd = start + Int(r.titleLength), end = titleEnd + Int(r.notesLength)
                let inTitle = start <= at && at + needle.count <= titleEnd
                let inNotes = titleEnd <= at && at + needle.count <= end
                let i = Int(r.task)
                if (inTitle || inNotes) && i < segment.taskCount, case let h = segment.hot(i), h.isFolded {
                    candidate(i, h)
                    from = end
                    k += 1
                } else {
                    from = at + 1
                }
            }
        }
    }

    /// The hit of task `i` when its title, notes or tags, folded, hold every one of `needles` (whose
    /// rarest bytes are at `anchors`).
    private func match(_ needles: [[UInt8]], anchors: [Int], task i: Int, hot h: HotRecord, of segment: Segment,
                       list l: Int) -> SearchHit? {
        let (title, notes, caseless) = segment.searchText(i, h)
        var onlyInNotes: [[UInt8]] = []
        for (needle, anchor) in zip(needles, anchors) {
            if contains(title, needle, anchor: anchor, caseless: caseless) { continue }
            if contains(notes, needle, anchor: anchor, caseless: caseless) { onlyInNotes.append(needle); continue }
            return nil
        }
        var hit = SearchHit(id: TaskID(list: l, index: i), noteLine: nil, words: needles)
        // Folding keeps line feeds, so line k of the folded notes is line k of the notes.
        if !onlyInNotes.isEmpty, let k = firstLine(in: notes, holdingAnyOf: onlyInNotes, caseless: caseless) {
            let lines = segment.notes(i).split(separator: 0x0A, omittingEmptySubsequences: false)
            if k < lines.count {
                hit.noteLine = NoteLine(text: String(decoding: lines[k], as: UTF8.self), words: needles)
            }
        }
        return hit
    }
}

/// Whether `needle` occurs in `haystack` (`anchor` and `caseless`: as for `find`).
func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], anchor: Int? = nil, caseless: Bool = false) -> Bool {
    needle.withUnsafeBufferPointer { find($0, in: haystack, from: 0, anchor: anchor, caseless: caseless) != nil }
}

/// Where `needle` first occurs in `haystack` at or after `start`. Eight bytes at a time are
/// looked over for the needle's least common byte (by English letter frequency; `anchor`, its index
/// as `rarestByte` gives it, when the caller worked it out once for many calls), and each place
/// found is then compared whole. `caseless`: the haystack's ASCII capitals are compared as small
/// letters (the needle is folded: it has none), which is how ASCII text folds.
func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int,
          anchor given: Int? = nil, caseless: Bool = false) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
    let last = haystack.count - needle.count
    let anchor = given ?? rarestByte(of: needle), byte = needle[anchor]
    @inline(__always) func same(_ b: UInt8, _ n: UInt8) -> Bool {
        b == n || (caseless && b &- 0x41 < 26 && b | 0x20 == n)
    }
    @inline(__always) func isMatch(_ k: Int) -> Bool {
        var j = 0
        while j < needle.count, same(base[k + j], needle[j]) { j += 1 }
        return j == needle.count
    }
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    let pattern = UInt64(byte) &* ones
    // Ignoring case, a small letter is looked for with the bit that sets capitals apart set in
    // every byte (some other bytes then look like it, and each place is compared).
    let fold: UInt64 = caseless && byte &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
    // A high bit for each byte of `at`'s eight equal to the anchor byte (and perhaps for some after
    // one: each place is compared).
    @inline(__always) func marks(_ at: Int) -> UInt64 {
        let x = (UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) | fold) ^ pattern
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
            if same(base[k + anchor], byte), isMatch(k) { return k }
            found &= found &- 1
        }
        q += 8
    }
    while q - anchor <= last {
        if same(base[q], byte), isMatch(q - anchor) { return q - anchor }
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

/// The index of the first line of `text` (split at line feeds) holding any of `needles`
/// (`caseless`: as for `find`).
func firstLine(in text: UnsafeBufferPointer<UInt8>, holdingAnyOf needles: [[UInt8]], caseless: Bool = false) -> Int? {
    var best: Int? = nil
    for needle in needles {
        if let at = needle.withUnsafeBufferPointer({ find($0, in: text, from: 0, caseless: caseless) }), at < (best ?? .max) {
            best = at
        }
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
