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
        let runs = inListRuns(only: list) { range in
            var hits: [(hit: SearchHit, key: ViewOrderKey)] = []
            for l in range {
                let segment = lists[l].segment
                for i in 0..<segment.taskCount {
                    let h = segment.hot(i)
                    if h.done, !includeCompleted { continue }
                    let r = segment.search(i)
                    let title = segment.folded(r.title)
                    let notes = segment.folded(r.notes)
                    var onlyInNotes: [[UInt8]] = []
                    var all = true
                    for needle in needles {
                        if contains(title, needle) { continue }
                        if contains(notes, needle) { onlyInNotes.append(needle); continue }
                        all = false
                        break
                    }
                    guard all else { continue }
                    var hit = SearchHit(id: TaskID(list: l, index: i), noteLine: nil, words: needles)
                    // Folding keeps line feeds, so line k of the folded notes is line k of the notes.
                    if !onlyInNotes.isEmpty, let k = firstLine(in: notes, holdingAnyOf: onlyInNotes) {
                        let lines = segment.bytes(segment.cold(i).notes).split(separator: 0x0A, omittingEmptySubsequences: false)
                        if k < lines.count {
                            hit.noteLine = NoteLine(text: String(decoding: lines[k], as: UTF8.self), words: needles)
                        }
                    }
                    hits.append((hit, ViewOrderKey(h, list: l, now: nil)))
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
}

/// Whether `needle` occurs in `haystack`.
func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    needle.withUnsafeBufferPointer { find($0, in: haystack, from: 0) != nil }
}

/// Where `needle` first occurs in `haystack` at or after `start`.
func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    let last = haystack.count - needle.count
    var i = start
    while i <= last {
        if haystack[i] == first {
            var j = 1
            while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
            if j == needle.count { return i }
        }
        i += 1
    }
    return nil
}

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
