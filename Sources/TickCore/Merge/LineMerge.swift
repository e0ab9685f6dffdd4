/// A three-way merge of a file's lines, for the rare save by another program that lands while
/// tick writes a list (see `FolderWriter.settle`): both versions were made from the same base, and
/// their changes are combined where they touch different lines.
///
/// Lines keep their line endings, so a merge of files that agree on them keeps them. Where both
/// sides inserted lines at the same place, both insertions are kept, ours first: two people adding
/// tasks at the end of a list is the common case, and neither addition may be lost (an insertion
/// that holds the other, as when one side re-applied the other's change, is taken once). Where both
/// sides changed the same base lines differently, there is no merge.
enum LineMerge {
    /// The merged bytes, or nil when the two sides changed the same lines differently (or the
    /// files are too different to compare).
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        var numbering = LineNumbering()
        let b = numbering.ids(base), o = numbering.ids(ours), t = numbering.ids(theirs)
        let baseLines = numbering.lines(base), ourLines = numbering.lines(ours), theirLines = numbering.lines(theirs)
        guard let hunks = Diff.hunks(base: b, ours: o, theirs: t) else { return nil }
        var result: [UInt8] = []
        func take(_ lines: [ArraySlice<UInt8>], _ range: Range<Int>) { for line in lines[range] { result += line } }
        for hunk in hunks {
            let baseChunk = b[hunk.base], ourChunk = o[hunk.ours], theirChunk = t[hunk.theirs]
            if hunk.stable || ourChunk.elementsEqual(baseChunk) {
                take(hunk.stable ? baseLines : theirLines, hunk.stable ? hunk.base : hunk.theirs)
            } else if theirChunk.elementsEqual(baseChunk) || theirChunk.elementsEqual(ourChunk) {
                take(ourLines, hunk.ours)
            } else if baseChunk.isEmpty {
                // Both inserted here: one insertion that holds the other is taken alone.
                if contains(ourChunk, theirChunk) {
                    take(ourLines, hunk.ours)
                } else if contains(theirChunk, ourChunk) {
                    take(theirLines, hunk.theirs)
                } else {
                    take(ourLines, hunk.ours)
                    take(theirLines, hunk.theirs)
                }
            } else {
                return nil
            }
        }
        return result
    }

    /// Whether `part` occurs in `whole` as a run of consecutive lines.
    static func contains(_ whole: ArraySlice<Int>, _ part: ArraySlice<Int>) -> Bool {
        guard part.count <= whole.count else { return false }
        if part.isEmpty { return true }
        var start = whole.startIndex
        while start + part.count <= whole.endIndex {
            if whole[start..<start + part.count].elementsEqual(part) { return true }
            start += 1
        }
        return false
    }
}
