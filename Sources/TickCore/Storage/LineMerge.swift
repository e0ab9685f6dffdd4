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
    /// Above this many cells (lines of one side times lines of the other, in the part where they
    /// differ) the comparison is not attempted and there is no merge.
    static let cellLimit = 4_000_000

    /// The merged bytes, or nil when the two sides changed the same lines differently (or the
    /// files are too different to compare).
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        var numbering = Numbering()
        let b = numbering.lines(base), o = numbering.lines(ours), t = numbering.lines(theirs)
        guard let toOurs = matching(b.ids, o.ids), let toTheirs = matching(b.ids, t.ids) else { return nil }

        var result: [UInt8] = []
        var (bi, oi, ti) = (0, 0, 0)
        while true {
            // The next base line both sides kept where it was: the chunks before it merge on their own.
            var stable = bi
            while stable < b.ids.count && (toOurs[stable] < 0 || toTheirs[stable] < 0) { stable += 1 }
            let oEnd = stable < b.ids.count ? toOurs[stable] : o.ids.count
            let tEnd = stable < b.ids.count ? toTheirs[stable] : t.ids.count
            let baseChunk = b.ids[bi..<stable], ourChunk = o.ids[oi..<oEnd], theirChunk = t.ids[ti..<tEnd]
            if ourChunk.elementsEqual(baseChunk) {
                result += t.bytes(ti..<tEnd)
            } else if theirChunk.elementsEqual(baseChunk) || theirChunk.elementsEqual(ourChunk) {
                result += o.bytes(oi..<oEnd)
            } else if baseChunk.isEmpty {
                // Both inserted here: one insertion that holds the other is taken alone.
                if contains(ourChunk, theirChunk) {
                    result += o.bytes(oi..<oEnd)
                } else if contains(theirChunk, ourChunk) {
                    result += t.bytes(ti..<tEnd)
                } else {
                    result += o.bytes(oi..<oEnd) + t.bytes(ti..<tEnd)
                }
            } else {
                return nil
            }
            guard stable < b.ids.count else { return result }
            result += b.bytes(stable..<stable + 1)
            (bi, oi, ti) = (stable + 1, oEnd + 1, tEnd + 1)
        }
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

    /// One file cut into lines, each numbered so that equal lines share a number.
    struct Lines {
        var bytes: [UInt8]
        /// Where each line starts, and one past the end.
        var starts: [Int]
        var ids: [Int]

        func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[starts[range.lowerBound]..<starts[range.upperBound]] }
    }

    struct Numbering {
        private var numbers: [ArraySlice<UInt8>: Int] = [:]

        mutating func lines(_ bytes: [UInt8]) -> Lines {
            var starts = [0]
            var ids: [Int] = []
            var start = 0
            for (k, byte) in bytes.enumerated() where byte == 0x0A {
                ids.append(number(bytes[start...k]))
                start = k + 1
                starts.append(start)
            }
            if start < bytes.count {
                ids.append(number(bytes[start...]))
                starts.append(bytes.count)
            }
            return Lines(bytes: bytes, starts: starts, ids: ids)
        }

        private mutating func number(_ line: ArraySlice<UInt8>) -> Int {
            if let n = numbers[line] { return n }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
    }

    /// For each line of `a`, the line of `b` it is matched with in a longest common subsequence,
    /// or -1. The common start and end are matched first; nil when the rest is too large.
    static func matching(_ a: [Int], _ b: [Int]) -> [Int]? {
        var result = [Int](repeating: -1, count: a.count)
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            result[a.count - 1 - suffix] = b.count - 1 - suffix
            suffix += 1
        }
        let n = a.count - prefix - suffix, m = b.count - prefix - suffix
        guard n > 0 && m > 0 else { return result }
        guard n * m <= cellLimit else { return nil }
        // lengths[i][j]: the longest common subsequence of a's middle from i and b's middle from j.
        let width = m + 1
        var lengths = [Int32](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * width + j] = a[prefix + i] == b[prefix + j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var (i, j) = (0, 0)
        while i < n && j < m {
            if a[prefix + i] == b[prefix + j] {
                result[prefix + i] = prefix + j
                i += 1
                j += 1
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }
}
