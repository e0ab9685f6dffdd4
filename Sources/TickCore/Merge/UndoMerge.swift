/// The line arithmetic of `undo` on a file that changed since tick's change: which lines tick's
/// change touched, which lines changed since, and the file with tick's change reverted and the
/// later changes kept, when the two do not touch the same lines.
///
/// A file is a sequence of lines, each with its line break (the last may have none), compared
/// byte for byte: a CRLF line and an LF line differ, and so does a last line with and without
/// its break. The result is made of whole lines of the three versions, so that bytes nobody
/// changed come out as they were.
enum UndoMerge {
    /// A run of lines of the old version replaced by a run of the new one; one of them may be empty
    /// (an insertion before `old.lowerBound`, or a deletion).
    struct Hunk: Equatable {
        var old: Range<Int>
        var new: Range<Int>
    }

    /// Lines of a file, as they are now, that changed since tick's change (1-based).
    struct Span: Equatable, Sendable {
        /// The first line, 1-based; for a deletion, the line after the deleted ones.
        var first: Int
        /// How many lines; 0: lines were deleted just before `first`.
        var count: Int
        /// For a deletion, how many lines went.
        var deleted: Int = 0
    }

    /// `current` with the change from `before` to `after` reverted, or the spans of `current`
    /// that changed since `after` on lines that change touched (so that reverting it would undo
    /// them as well).
    static func revert(after: [UInt8], before: [UInt8], onto current: [UInt8]) -> Result<[UInt8], Conflict> {
        var table = LineNumbering()
        let a = table.ids(after), b = table.ids(before), c = table.ids(current)
        let tick = diff(a, b)
        // A line changed since exactly as the undo would change it (the box already unticked by
        // hand) is no clash: it is taken once.
        let hand = diff(a, c).filter { h in !tick.contains { $0.old == h.old && b[$0.new] == c[h.new] } }
        var clashes: [Span] = []
        for h in hand where tick.contains(where: { overlaps($0.old, h.old) }) {
            clashes.append(span(of: h, in: c.count))
        }
        guard clashes.isEmpty else {
            if let moved = revertMoved(tick, after: table.lines(after), a: a, before: table.lines(before),
                                       current: table.lines(current), c: c) {
                return .success(moved)
            }
            return .failure(Conflict(spans: clashes))
        }
        // Walk `after`, taking each hunk's lines from its own version: at one point, an insertion
        // of tick's goes before anything of the hand edit's.
        let edits = (tick.map { ($0, true) } + hand.map { ($0, false) }).sorted { x, y in
            if x.0.old.lowerBound != y.0.old.lowerBound { return x.0.old.lowerBound < y.0.old.lowerBound }
            if x.0.old.isEmpty != y.0.old.isEmpty { return x.0.old.isEmpty }
            return x.1 && !y.1
        }
        let afterLines = table.lines(after), beforeLines = table.lines(before), currentLines = table.lines(current)
        var out: [UInt8] = []
        out.reserveCapacity(current.count)
        var position = 0
        for (hunk, isTick) in edits {
            for line in afterLines[position..<hunk.old.lowerBound] { out += line }
            for line in (isTick ? beforeLines : currentLines)[hunk.new] { out += line }
            position = hunk.old.upperBound
        }
        for line in afterLines[position...] { out += line }
        return .success(out)
    }

    /// When the lines tick's change wrote were moved since (a task cut and pasted elsewhere in the
    /// file): `current` with each run of those lines, found exactly once and whole, replaced by what
    /// was there before. Nil when any run was not written by tick's change alone (an insertion has
    /// no lines of its own to find), is missing or changed, or appears more than once.
    private static func revertMoved(_ tick: [Hunk], after: [ArraySlice<UInt8>], a: [Int], before: [ArraySlice<UInt8>],
                                    current: [ArraySlice<UInt8>], c: [Int]) -> [UInt8]? {
        guard !tick.isEmpty, tick.allSatisfy({ !$0.old.isEmpty }) else { return nil }
        func starts(of run: ArraySlice<Int>, in lines: [Int]) -> [Int] {
            guard run.count <= lines.count else { return [] }
            return (0...(lines.count - run.count)).filter { lines[$0..<($0 + run.count)].elementsEqual(run) }
        }
        var found: [(at: Range<Int>, hunk: Hunk)] = []
        for hunk in tick {
            let run = a[hunk.old]
            // Only where tick's file held it, and only once now: else it may be another task's lines.
            guard starts(of: run, in: a) == [hunk.old.lowerBound] else { return nil }
            let now = starts(of: run, in: c)
            guard now.count == 1 else { return nil }
            found.append((now[0]..<(now[0] + run.count), hunk))
        }
        found.sort { $0.at.lowerBound < $1.at.lowerBound }
        for (x, y) in zip(found, found.dropFirst()) where x.at.upperBound > y.at.lowerBound { return nil }
        var out: [UInt8] = []
        var position = 0
        for (at, hunk) in found {
            for line in current[position..<at.lowerBound] { out += line }
            for line in before[hunk.new] { out += line }
            position = at.upperBound
        }
        for line in current[position...] { out += line }
        return out
    }

    /// Why a revert was refused: the lines of the current file, changed since, that tick's change touched.
    struct Conflict: Error, Equatable {
        var spans: [Span]
    }

    /// The spans of `current` that differ from `after`: what restoring an older file throws away.
    static func changes(from after: [UInt8], to current: [UInt8]) -> [Span] {
        var table = LineNumbering()
        let a = table.ids(after), c = table.ids(current)
        return diff(a, c).map { span(of: $0, in: c.count) }
    }

    /// Whether two hunks of the same old version touch the same lines: their ranges share a line,
    /// or one is an insertion strictly inside the other's lines. Two insertions at the same point
    /// do not clash (tick's goes first).
    static func overlaps(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
        if x.isEmpty && y.isEmpty { return false }
        if x.isEmpty { return y.lowerBound < x.lowerBound && x.lowerBound < y.upperBound }
        if y.isEmpty { return x.lowerBound < y.lowerBound && y.lowerBound < x.upperBound }
        return x.lowerBound < y.upperBound && y.lowerBound < x.upperBound
    }

    private static func span(of hunk: Hunk, in count: Int) -> Span {
        Span(first: hunk.new.lowerBound + 1, count: hunk.new.count, deleted: hunk.new.isEmpty ? hunk.old.count : 0)
    }

    /// How many lines `bytes` holds (a last line without a line break counts).
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
    }

    /// `spans` in words: `line 7`, `lines 7-9`, `1 line deleted before line 4`, joined by commas.
    static func describe(_ spans: [Span], lastLine: Int) -> String {
        spans.map { span in
            if span.count == 1 { return "line \(span.first)" }
            if span.count > 1 { return "lines \(span.first)-\(span.first + span.count - 1)" }
            let what = span.deleted == 1 ? "1 line deleted" : "\(span.deleted) lines deleted"
            return span.first > lastLine ? what + " at the end" : what + " before line \(span.first)"
        }.joined(separator: ", ")
    }

    // MARK: - Diff

    /// The hunks that turn `a` into `b`, in order (`Diff.edits`). Beyond `maxDistance` edits (by
    /// default 2,000, fewer for long files, so that the work stays near 20 million steps), the part
    /// between the common first and last lines is one hunk: still a correct difference, only
    /// coarser (so a revert is refused, never wrong).
    static func diff(_ a: [Int], _ b: [Int], maxDistance: Int? = nil) -> [Hunk] {
        let limit = maxDistance ?? min(2_000, max(16, 20_000_000 / max(a.count + b.count, 1)))
        if let edits = Diff.edits(a, b, maxCost: limit) { return edits.map { Hunk(old: $0.old, new: $0.new) } }
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        return [Hunk(old: prefix..<(a.count - suffix), new: prefix..<(b.count - suffix))]
    }
}

