/// A longest common subsequence of two sequences of symbols (Myers' O(ND) algorithm), the
/// alignment a three-way merge starts from.
enum Diff {
    /// For each element of `a`, the index of the element of `b` it is matched with, or nil when it
    /// is not in the common subsequence. Nil overall when the two differ by more than `maxCost`
    /// insertions and deletions (the caller then falls back to a line merge).
    static func matches(_ a: [Int], _ b: [Int], maxCost: Int = 4000) -> [Int?]? {
        var result = [Int?](repeating: nil, count: a.count)
        // Common prefix and suffix need no search.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
              a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            result[a.count - 1 - suffix] = b.count - 1 - suffix
            suffix += 1
        }
        let x = Array(a[prefix..<(a.count - suffix)]), y = Array(b[prefix..<(b.count - suffix)])
        guard let pairs = middle(x, y, maxCost: maxCost) else { return nil }
        for (i, j) in pairs { result[prefix + i] = prefix + j }
        return result
    }

    /// The matched pairs of Myers' shortest edit script between `a` and `b`.
    private static func middle(_ a: [Int], _ b: [Int], maxCost: Int) -> [(Int, Int)]? {
        let n = a.count, m = b.count
        if n == 0 || m == 0 { return [] }
        let maxD = n + m
        guard min(maxD, maxCost) >= 0 else { return nil }
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...maxD {
            if d > maxCost { return nil }
            // Only diagonals -d...d change in round d: keep a copy of those for the walk back.
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n, y >= m {
                    trace.append(Array(v[(offset - d)...(offset + d)]))
                    found = true
                    break outer
                }
                k += 2
            }
            trace.append(Array(v[(offset - d)...(offset + d)]))
        }
        guard found else { return nil }
        // Walk back through the rounds, collecting the diagonal runs (the matches).
        var pairs: [(Int, Int)] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let k = x - y
            func at(_ round: Int, _ diagonal: Int) -> Int { trace[round][diagonal + round] }
            if d == 0 {
                while x > 0, y > 0 { x -= 1; y -= 1; pairs.append((x, y)) }
                break
            }
            let previousK: Int
            if k == -d || (k != d && at(d - 1, k - 1) < at(d - 1, k + 1)) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = at(d - 1, previousK)
            let previousY = previousX - previousK
            let startX = previousK == k + 1 ? previousX : previousX + 1
            let startY = startX - k
            while x > startX, y > startY { x -= 1; y -= 1; pairs.append((x, y)) }
            x = previousX
            y = previousY
        }
        return pairs.reversed()
    }
}

/// One region of a three-way alignment: a stretch where the three versions agree, or a change.
struct Hunk {
    var base: Range<Int>
    var ours: Range<Int>
    var theirs: Range<Int>
    /// True where all three agree (matched line for line).
    var stable: Bool
}

extension Diff {
    /// Aligns `ours` and `theirs` against `base` (the regions of diff3): stable runs, where a base
    /// symbol is matched on both sides in step, and the changed regions between them.
    static func hunks(base: [Int], ours: [Int], theirs: [Int], maxCost: Int = 4000) -> [Hunk]? {
        guard let mo = matches(base, ours, maxCost: maxCost), let mt = matches(base, theirs, maxCost: maxCost) else {
            return nil
        }
        var hunks: [Hunk] = []
        var ib = 0, io = 0, it = 0
        while ib < base.count || io < ours.count || it < theirs.count {
            let stableStart = ib
            let oursStart = io, theirsStart = it
            while ib < base.count, mo[ib] == io, mt[ib] == it { ib += 1; io += 1; it += 1 }
            if ib > stableStart {
                hunks.append(Hunk(base: stableStart..<ib, ours: oursStart..<io, theirs: theirsStart..<it, stable: true))
                continue
            }
            // The next base symbol matched on both sides ends the change.
            var j = ib
            while j < base.count, mo[j] == nil || mt[j] == nil { j += 1 }
            let oe = j < base.count ? mo[j]! : ours.count
            let te = j < base.count ? mt[j]! : theirs.count
            hunks.append(Hunk(base: ib..<j, ours: io..<oe, theirs: it..<te, stable: false))
            ib = j; io = oe; it = te
        }
        return hunks
    }
}

extension Diff {
    /// The runs of `a` replaced by runs of `b` (either may be empty), in order, from the matches of
    /// `matches`; nil when the two differ by more than `maxCost`.
    static func edits(_ a: [Int], _ b: [Int], maxCost: Int = 4000) -> [(old: Range<Int>, new: Range<Int>)]? {
        guard let matched = matches(a, b, maxCost: maxCost) else { return nil }
        var edits: [(old: Range<Int>, new: Range<Int>)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, matched[i] == j {
                i += 1
                j += 1
                continue
            }
            let (oldStart, newStart) = (i, j)
            while i < a.count, matched[i] == nil { i += 1 }
            let newEnd = i < a.count ? matched[i]! : b.count
            edits.append((oldStart..<i, newStart..<newEnd))
            j = newEnd
        }
        return edits
    }
}

/// The lines of several files, each distinct line numbered once, so that comparing two lines is
/// comparing two numbers. A line keeps its line break (the last may have none): a CRLF line and
/// an LF line differ, and so does a last line with and without its break.
struct LineNumbering {
    private var numbers: [ArraySlice<UInt8>: Int] = [:]

    /// The lines of `bytes`, each with its line break.
    func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            result.append(bytes[start...i])
            start = i + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }

    /// The number of each line of `bytes`.
    mutating func ids(_ bytes: [UInt8]) -> [Int] {
        lines(bytes).map { line in
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
    }
}
