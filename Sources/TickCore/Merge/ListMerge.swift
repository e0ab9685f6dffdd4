import TickFormat

/// The names a conflict shows on its markers.
public struct MergeLabels: Sendable, Equatable {
    public var base: String
    public var ours: String
    public var theirs: String

    public init(base: String = "base", ours: String = "ours", theirs: String = "theirs") {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }
}

/// A line-wise three-way merge (`git merge-file`) of three texts: the merged bytes and whether
/// they hold conflicts, or nil when it could not run.
public typealias LineMerger = @Sendable (_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8]) -> (bytes: [UInt8], conflicted: Bool)?

/// The task-aware three-way merge of one list file (the merge driver's work).
///
/// Tasks are matched across the three versions and merged field by field; the lines between
/// tasks merge line-wise. A version the merge cannot read safely (not UTF-8, holding conflict
/// markers, larger than `sizeLimit`) makes `merge` return nil: the caller then merges line-wise.
public struct ListMerge: Sendable {
    /// What `merge` produced: the bytes to write and how many conflicts they hold.
    public struct Outcome: Equatable, Sendable {
        public var bytes: [UInt8]
        public var conflicts: Int
    }

    /// The largest version merged task by task.
    public static let sizeLimit = 8 * 1024 * 1024

    /// The length of the conflict markers (git's `%L`).
    public var markerSize: Int
    public var labels: MergeLabels
    /// Merges the non-task regions that both sides changed; without one, such a region is a conflict.
    public var lineMerger: LineMerger?

    public init(markerSize: Int = 7, labels: MergeLabels = MergeLabels(), lineMerger: LineMerger? = nil) {
        self.markerSize = max(1, min(markerSize, 1000))
        self.labels = labels
        self.lineMerger = lineMerger
    }

    /// Why `bytes` must be merged line-wise, or nil when the task-aware merge may read it.
    public static func lineMergeReason(_ bytes: [UInt8]) -> String? {
        if bytes.count > sizeLimit { return "larger than \(sizeLimit / (1024 * 1024)) MB" }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break decoding
            case .error: return "not valid UTF-8"
            }
        }
        if Document.conflictMarkerLine(in: bytes) != nil { return "holds conflict markers" }
        return nil
    }

    /// Merges the three versions; nil when one of them needs a line merge instead.
    public func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> Outcome? {
        for version in [base, ours, theirs] where ListMerge.lineMergeReason(version) != nil { return nil }
        if ours == theirs || theirs == base { return Outcome(bytes: ours, conflicts: 0) }
        if ours == base { return Outcome(bytes: theirs, conflicts: 0) }
        guard let b = MergeVersion(base), let o = MergeVersion(ours), let t = MergeVersion(theirs) else { return nil }
        let merger = LevelMerger(options: self, ending: o.ending)
        guard let lines = merger.merge(b.units, o.units, t.units, inBody: false) else { return nil }
        let finalNewline = o.finalNewline == b.finalNewline ? t.finalNewline : o.finalNewline
        var bytes: [UInt8] = []
        for (i, line) in lines.enumerated() {
            bytes += line.content
            if i < lines.count - 1 || finalNewline { bytes += line.ending.isEmpty ? o.ending : line.ending }
        }
        return Outcome(bytes: bytes, conflicts: merger.conflicts)
    }
}

// MARK: - Levels

/// Merges one level of a file (its top, or the body of a task) and, through `mergeTask`, the
/// levels below. Counts the conflicts it writes.
final class LevelMerger {
    let options: ListMerge
    let ending: [UInt8]
    var conflicts = 0

    init(options: ListMerge, ending: [UInt8]) {
        self.options = options
        self.ending = ending
    }

    /// One level's three versions, with each task's identity and where to find it on each side.
    private final class Level {
        var base: [MergeUnit], ours: [MergeUnit], theirs: [MergeUnit]
        var baseSymbols: [Int] = [], oursSymbols: [Int] = [], theirsSymbols: [Int] = []
        var baseNodes: [Int: TaskNode] = [:], oursNodes: [Int: TaskNode] = [:], theirsNodes: [Int: TaskNode] = [:]
        var emitted: Set<Int> = []
        /// Tasks shown as they are inside a region merged line by line: accounted for, and still
        /// merged wherever a side placed them outside it (a task is never lost to a conflict).
        var covered: Set<Int> = []
        let inBody: Bool

        init(_ base: [MergeUnit], _ ours: [MergeUnit], _ theirs: [MergeUnit], inBody: Bool) {
            self.base = base
            self.ours = ours
            self.theirs = theirs
            self.inBody = inBody
        }

        func isTask(_ symbol: Int) -> Bool { symbol >= 0 }
    }

    func merge(_ base: [MergeUnit], _ ours: [MergeUnit], _ theirs: [MergeUnit], inBody: Bool) -> [MergeLine]? {
        let bl = base.flatMap(\.lines), ol = ours.flatMap(\.lines), tl = theirs.flatMap(\.lines)
        if ol == tl || tl == bl { return ol }
        if ol == bl { return tl }

        let level = Level(base, ours, theirs, inBody: inBody)
        assignSymbols(level)
        guard let hunks = Diff.hunks(base: level.baseSymbols, ours: level.oursSymbols, theirs: level.theirsSymbols)
        else { return nil }
        var out: [MergeLine] = []
        for hunk in hunks {
            guard let lines = mergeHunk(level, base: Array(hunk.base), ours: Array(hunk.ours), theirs: Array(hunk.theirs),
                                        stable: hunk.stable)
            else { return nil }
            out += lines
        }
        // Every task of either side is placed somewhere, or accounted for as deleted.
        for id in Set(level.oursNodes.keys).union(level.theirsNodes.keys)
        where !level.emitted.contains(id) && !level.covered.contains(id) {
            return nil
        }
        return out
    }

    /// Gives each unit a symbol: a task its identity (>= 0, shared by the versions it is matched
    /// across), a line outside tasks a negative number per distinct content.
    private func assignSymbols(_ level: Level) {
        func tasks(_ units: [MergeUnit]) -> [(index: Int, node: TaskNode)] {
            units.enumerated().compactMap { i, u in if case .task(let n) = u { return (i, n) } else { return nil } }
        }
        let bt = tasks(level.base), ot = tasks(level.ours), tt = tasks(level.theirs)
        let bo = TaskMatching.match(bt.map(\.node), ot.map(\.node), loose: true)
        let bth = TaskMatching.match(bt.map(\.node), tt.map(\.node), loose: true)
        let oursOnly = ot.indices.filter { !bo.values.contains($0) }
        let theirsOnly = tt.indices.filter { !bth.values.contains($0) }
        let ott = TaskMatching.match(oursOnly.map { ot[$0].node }, theirsOnly.map { tt[$0].node }, loose: false)

        var oursIdentity = [Int](repeating: -1, count: ot.count)
        var theirsIdentity = [Int](repeating: -1, count: tt.count)
        for (b, o) in bo { oursIdentity[o] = b }
        for (b, t) in bth { theirsIdentity[t] = b }
        for (k, j) in oursOnly.enumerated() { oursIdentity[j] = bt.count + j; _ = k }
        for (ko, kt) in ott { theirsIdentity[theirsOnly[kt]] = bt.count + oursOnly[ko] }
        for (k, j) in tt.indices.enumerated() where theirsIdentity[j] < 0 { theirsIdentity[j] = bt.count + ot.count + k }

        var texts: [[UInt8]: Int] = [:]
        func symbols(_ units: [MergeUnit], identities: [Int], nodes: inout [Int: TaskNode]) -> [Int] {
            var next = 0
            return units.map { unit in
                switch unit {
                case .text(let line):
                    if let s = texts[line.content] { return s }
                    let s = -1 - texts.count
                    texts[line.content] = s
                    return s
                case .task(let node):
                    let id = identities[next]
                    next += 1
                    nodes[id] = node
                    return id
                }
            }
        }
        level.baseSymbols = symbols(level.base, identities: Array(bt.indices), nodes: &level.baseNodes)
        level.oursSymbols = symbols(level.ours, identities: oursIdentity, nodes: &level.oursNodes)
        level.theirsSymbols = symbols(level.theirs, identities: theirsIdentity, nodes: &level.theirsNodes)
    }

    private func unitLines(_ level: Level, _ units: [MergeUnit], _ symbols: [Int], _ positions: [Int]) -> [MergeLine] {
        var out: [MergeLine] = []
        for p in positions {
            if level.isTask(symbols[p]) { out += mergeTask(level, symbols[p]) } else { out += units[p].lines }
        }
        return out
    }

    /// Base tasks of `basePositions` that `side` no longer has anywhere: deleted, or deleted
    /// against an edit (a conflict).
    private func deletions(_ level: Level, basePositions: [Int], sideNodes: [Int: TaskNode]) -> [MergeLine] {
        var out: [MergeLine] = []
        for p in basePositions {
            let s = level.baseSymbols[p]
            if level.isTask(s), sideNodes[s] == nil { out += mergeTask(level, s) }
        }
        return out
    }

    private func mergeHunk(_ level: Level, base: [Int], ours: [Int], theirs: [Int], stable: Bool) -> [MergeLine]? {
        if stable { return unitLines(level, level.ours, level.oursSymbols, ours) }
        let bs = base.map { level.baseSymbols[$0] }, os = ours.map { level.oursSymbols[$0] }
        let ts = theirs.map { level.theirsSymbols[$0] }
        if os == bs {
            return unitLines(level, level.theirs, level.theirsSymbols, theirs)
                + deletions(level, basePositions: base, sideNodes: level.theirsNodes)
        }
        if ts == bs || os == ts {
            return unitLines(level, level.ours, level.oursSymbols, ours)
                + deletions(level, basePositions: base, sideNodes: level.oursNodes)
        }
        let onlyTasks = (bs + os + ts).allSatisfy(level.isTask)
        if onlyTasks { return arrangeTasks(level, base: bs, ours: os, theirs: ts) }
        if base.isEmpty {
            // Both sides inserted here: what they inserted alike is kept once, and the
            // differences between are merged as smaller insertions.
            let common = commonSubsequence(os, ts)
            if !common.isEmpty {
                return mergeInsertions(level, ours: ours, theirs: theirs, common: common)
            }
            if level.inBody {
                // Notes added at the same place on both sides: both kept, ours first.
                return unitLines(level, level.ours, level.oursSymbols, ours)
                    + unitLines(level, level.theirs, level.theirsSymbols, theirs)
            }
        }
        return lineConflict(level, base: base, ours: ours, theirs: theirs)
    }

    /// The longest common subsequence of two symbol runs, as pairs of positions.
    private func commonSubsequence(_ a: [Int], _ b: [Int]) -> [(Int, Int)] {
        guard let m = Diff.matches(a, b) else { return [] }
        return m.enumerated().compactMap { i, j in j.map { (i, $0) } }
    }

    /// Two insertions at the same place that share some units: the shared units are kept once, in
    /// order, and each stretch between is merged as an insertion on both sides.
    private func mergeInsertions(_ level: Level, ours: [Int], theirs: [Int], common: [(Int, Int)]) -> [MergeLine]? {
        var out: [MergeLine] = []
        var io = 0, it = 0
        for (co, ct) in common + [(ours.count, theirs.count)] {
            let o = Array(ours[io..<co]), t = Array(theirs[it..<ct])
            if !o.isEmpty || !t.isEmpty {
                guard let lines = mergeHunk(level, base: [], ours: o, theirs: t, stable: false) else { return nil }
                out += lines
            }
            if co < ours.count { out += unitLines(level, level.ours, level.oursSymbols, [ours[co]]) }
            io = co + 1
            it = ct + 1
        }
        return out
    }

    /// A region where both sides changed only tasks: every task either side has is kept, in the
    /// order of the side that reordered (ours when both or neither did), and the other side's new
    /// tasks go after the task that precedes them there, after ours's own new ones.
    private func arrangeTasks(_ level: Level, base: [Int], ours: [Int], theirs: [Int]) -> [MergeLine] {
        let inBoth = Set(ours).intersection(theirs)
        func order(_ s: [Int]) -> [Int] { s.filter { base.contains($0) && inBoth.contains($0) } }
        let baseOrder = order(base)
        let theirsReordered = order(theirs) != baseOrder, oursReordered = order(ours) != baseOrder
        let carrierIsOurs = !(theirsReordered && !oursReordered)
        var result = carrierIsOurs ? ours : theirs
        let other = carrierIsOurs ? theirs : ours
        let carrierNodes = carrierIsOurs ? level.oursNodes : level.theirsNodes
        let baseSet = Set(base)
        for (index, id) in other.enumerated() where !result.contains(id) {
            // A task the carrier side placed elsewhere is merged there.
            if carrierNodes[id] != nil { continue }
            var position = 0
            if let before = other[..<index].last(where: { result.contains($0) }), let at = result.firstIndex(of: before) {
                position = at + 1
            }
            while position < result.count, !baseSet.contains(result[position]), carrierNodes[result[position]] != nil,
                  !other.contains(result[position]) {
                position += 1
            }
            result.insert(id, at: position)
        }
        var out: [MergeLine] = []
        for id in result { out += mergeTask(level, id) }
        for id in base where !result.contains(id) && (level.oursNodes[id] == nil || level.theirsNodes[id] == nil) {
            out += mergeTask(level, id)
        }
        return out
    }

    /// A region both sides changed with lines outside tasks: merged line-wise, as git would.
    private func lineConflict(_ level: Level, base: [Int], ours: [Int], theirs: [Int]) -> [MergeLine] {
        for (positions, symbols) in [(base, level.baseSymbols), (ours, level.oursSymbols), (theirs, level.theirsSymbols)] {
            for p in positions where level.isTask(symbols[p]) { level.covered.insert(symbols[p]) }
        }
        let b = base.flatMap { level.base[$0].lines }, o = ours.flatMap { level.ours[$0].lines }
        let t = theirs.flatMap { level.theirs[$0].lines }
        if let merger = options.lineMerger, let merged = merger(bytes(b), bytes(o), bytes(t)) {
            if merged.conflicted { conflicts += 1 }
            return MergeLine.split(merged.bytes)
        }
        return conflict(ours: o, theirs: t)
    }

    private func bytes(_ lines: [MergeLine]) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines { out += line.content + (line.ending.isEmpty ? ending : line.ending) }
        return out
    }

    // MARK: - Tasks

    /// The merged lines of the task with identity `id`, once: later calls give nothing.
    private func mergeTask(_ level: Level, _ id: Int) -> [MergeLine] {
        guard !level.emitted.contains(id) else { return [] }
        level.emitted.insert(id)
        let b = level.baseNodes[id], o = level.oursNodes[id], t = level.theirsNodes[id]
        switch (b, o, t) {
        case (nil, let o?, nil): return o.lines
        case (nil, nil, let t?): return t.lines
        case (nil, let o?, let t?): return o.lines == t.lines ? o.lines : conflict(ours: o.lines, theirs: t.lines)
        case (let b?, nil, let t?): return t.lines == b.lines ? [] : conflict(ours: [], theirs: t.lines)
        case (let b?, let o?, nil): return o.lines == b.lines ? [] : conflict(ours: o.lines, theirs: [])
        case (let b?, let o?, let t?): return mergeNode(b, o, t)
        default: return []
        }
    }

    private func mergeNode(_ b: TaskNode, _ o: TaskNode, _ t: TaskNode) -> [MergeLine] {
        let ol = o.lines, tl = t.lines, bl = b.lines
        if ol == tl || tl == bl { return ol }
        if ol == bl { return tl }
        let head: [MergeLine]
        if o.head == t.head || t.head == b.head {
            head = o.head
        } else if o.head == b.head {
            head = t.head
        } else if let merged = TitleMerge.merge(base: b, ours: o, theirs: t) {
            head = [merged]
        } else {
            head = conflict(ours: o.head, theirs: t.head)
        }
        let body = merge(b.body, o.body, t.body, inBody: true)
            ?? conflict(ours: o.body.flatMap(\.lines), theirs: t.body.flatMap(\.lines))
        return head + body
    }

    /// Standard conflict markers of the marker size, around `ours` and `theirs`.
    func conflict(ours: [MergeLine], theirs: [MergeLine]) -> [MergeLine] {
        conflicts += 1
        func marker(_ c: Character, _ label: String?) -> MergeLine {
            let text = String(repeating: c, count: options.markerSize) + (label.map { " " + $0 } ?? "")
            return MergeLine(content: Array(text.utf8), ending: ending)
        }
        func ended(_ lines: [MergeLine]) -> [MergeLine] {
            lines.map { $0.ending.isEmpty ? MergeLine(content: $0.content, ending: ending) : $0 }
        }
        return [marker("<", options.labels.ours)] + ended(ours) + [marker("=", nil)] + ended(theirs)
            + [marker(">", options.labels.theirs)]
    }
}

extension MergeLine {
    /// The lines of `bytes`, split at LF, CRLF or a lone CR.
    static func split(_ bytes: [UInt8]) -> [MergeLine] {
        var out: [MergeLine] = []
        var start = 0, i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                let end = (b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? i + 2 : i + 1
                out.append(MergeLine(content: Array(bytes[start..<i]), ending: Array(bytes[i..<end])))
                i = end
                start = end
            } else {
                i += 1
            }
        }
        if start < bytes.count { out.append(MergeLine(content: Array(bytes[start...]), ending: [])) }
        return out
    }
}
