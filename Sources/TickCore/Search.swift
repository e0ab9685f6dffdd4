import Foundation

// Search: every word must occur in a task's title, notes or tags, ignoring case and diacritics.

// MARK: - Folding

/// Folds text for matching: lower case, no diacritics (`Café` → `cafe`, `Straße` → `strasse`).
///
/// ASCII takes a fast path; any other character is folded once by Foundation and remembered.
public struct TextFolder {
    private var cache: [Character: String] = [:]

    public init() {}

    /// The folded text.
    public mutating func fold(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text { out += fold(character) }
        return out
    }

    /// One character folded: possibly empty (a lone combining mark) or several characters.
    public mutating func fold(_ character: Character) -> String {
        if let ascii = character.asciiValue {
            return String(UnicodeScalar(ascii >= 0x41 && ascii <= 0x5A ? ascii + 32 : ascii))
        }
        if let known = cache[character] { return known }
        let folded = String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        cache[character] = folded
        return folded
    }

    /// The character ranges (as offsets in `Array(text)`) where any of the folded `words` occurs.
    public mutating func matches(of words: [String], in text: String) -> [Range<Int>] {
        var folded: [UInt8] = []
        var origin: [Int] = []  // for each folded byte, the index of the character it came from
        for (i, character) in text.enumerated() {
            let f = fold(character)
            folded.append(contentsOf: f.utf8)
            origin.append(contentsOf: repeatElement(i, count: f.utf8.count))
        }
        var ranges: [Range<Int>] = []
        for word in words {
            let needle = Array(word.utf8)
            guard !needle.isEmpty, needle.count <= folded.count else { continue }
            var start = 0
            while let at = firstOccurrence(of: needle, in: folded, from: start) {
                ranges.append(origin[at]..<(origin[at + needle.count - 1] + 1))
                start = at + needle.count
            }
        }
        return merged(ranges)
    }
}

/// Offset of the first occurrence of `needle` in `haystack` at or after `start`.
func firstOccurrence(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var i = start
    let end = haystack.count - needle.count
    while i <= end {
        if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        i += 1
    }
    return nil
}

/// Overlapping or touching ranges joined, sorted.
private func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = result.last, r.lowerBound <= last.upperBound {
            result[result.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
        } else {
            result.append(r)
        }
    }
    return result
}

// MARK: - Search

/// A task found by a search.
public struct SearchHit: Sendable {
    public var id: TaskID
    /// When some word was found only in the notes: the first note line holding a match, with the
    /// character ranges of every word found in it.
    public var noteLine: (text: String, matches: [Range<Int>])?
}

extension Library {
    /// Tasks whose title, notes or tags contain every word, ignoring case and diacritics; open tasks
    /// only unless `includeCompleted`. Ordered like every view (due, priority, list path, line).
    public func search(_ words: [String], includeCompleted: Bool = false, list: Int? = nil) -> [SearchHit] {
        var folder = TextFolder()
        let needles = words.map { folder.fold($0) }.filter { !$0.isEmpty }.map { Array($0.utf8) }
        guard !needles.isEmpty else { return [] }
        var hits: [SearchHit] = []
        for id in ids {
            if let list, id.list != list { continue }
            let task = task(id)
            if task.done, !includeCompleted { continue }
            let title = Array(folder.fold(task.title).utf8)
            let tags = Array(folder.fold(task.tags.map { "#" + $0 }.joined(separator: " ")).utf8)
            let notes = notes(id)
            let foldedNotes = notes.isEmpty ? [] : Array(folder.fold(notes).utf8)
            var onlyInNotes: [String] = []
            var all = true
            for needle in needles {
                if firstOccurrence(of: needle, in: title) != nil || firstOccurrence(of: needle, in: tags) != nil {
                    continue
                }
                if firstOccurrence(of: needle, in: foldedNotes) != nil {
                    onlyInNotes.append(String(decoding: needle, as: UTF8.self))
                    continue
                }
                all = false
                break
            }
            guard all else { continue }
            var hit = SearchHit(id: id, noteLine: nil)
            if !onlyInNotes.isEmpty {
                let wordsText = needles.map { String(decoding: $0, as: UTF8.self) }
                for line in notes.split(separator: "\n", omittingEmptySubsequences: true) {
                    let text = String(line)
                    if !folder.matches(of: onlyInNotes, in: text).isEmpty {
                        hit.noteLine = (text, folder.matches(of: wordsText, in: text))
                        break
                    }
                }
            }
            hits.append(hit)
        }
        hits.sort { a, b in
            if task(a.id).done != task(b.id).done { return !task(a.id).done }
            return precedes(a.id, b.id)
        }
        return hits
    }
}
