/// Which task of one version is which task of another.
///
/// In order: the same `id:`; the same lines, unique in both; the same section and title (without
/// tokens and tags), unique in both; identical lines in order; and, matching loosely (base to a
/// side), a title similar enough to exactly one task and that task's best. Strictly (ours to
/// theirs, for tasks both added) only the id and identical lines count. What stays ambiguous is
/// not matched: a delete and an add, never a guess.
enum TaskMatching {
    /// Pairs of (index in `a`, index in `b`).
    static func match(_ a: [TaskNode], _ b: [TaskNode], loose: Bool) -> [Int: Int] {
        var ab: [Int: Int] = [:]
        var matchedB = Set<Int>()

        func pass(_ key: (TaskNode) -> String?) {
            var ka: [String: [Int]] = [:], kb: [String: [Int]] = [:]
            for i in a.indices where ab[i] == nil { if let k = key(a[i]) { ka[k, default: []].append(i) } }
            for j in b.indices where !matchedB.contains(j) { if let k = key(b[j]) { kb[k, default: []].append(j) } }
            for (k, i) in ka where i.count == 1 {
                guard let j = kb[k], j.count == 1 else { continue }
                ab[i[0]] = j[0]
                matchedB.insert(j[0])
            }
        }

        func inOrder(_ key: (TaskNode) -> String) {
            let ra = a.indices.filter { ab[$0] == nil }, rb = b.indices.filter { !matchedB.contains($0) }
            guard !ra.isEmpty, !rb.isEmpty else { return }
            var symbols: [String: Int] = [:]
            func symbol(_ node: TaskNode) -> Int {
                let k = key(node)
                if let s = symbols[k] { return s }
                symbols[k] = symbols.count
                return symbols.count - 1
            }
            let sa = ra.map { symbol(a[$0]) }, sb = rb.map { symbol(b[$0]) }
            guard let m = Diff.matches(sa, sb) else { return }
            for (x, y) in m.enumerated() {
                guard let y else { continue }
                ab[ra[x]] = rb[y]
                matchedB.insert(rb[y])
            }
        }

        func text(_ lines: [MergeLine]) -> String {
            String(decoding: Array(lines.map(\.content).joined(separator: [0x0A])), as: UTF8.self)
        }

        pass { $0.id.map { "id:" + $0 } }
        pass { "all:" + text($0.lines) }
        inOrder { text($0.lines) }
        if loose {
            pass { "head:" + text($0.head) }
            pass { "title:" + ($0.section ?? "") + "\u{0}" + $0.normalizedTitle }
            inOrder { text($0.head) }
            similar(a, b, &ab, &matchedB)
        }
        return ab
    }

    /// Matches retitled tasks: each remaining task of `a` to the remaining task of `b` whose title
    /// is most alike, when that is clear on both sides and alike enough.
    private static func similar(_ a: [TaskNode], _ b: [TaskNode], _ ab: inout [Int: Int], _ matchedB: inout Set<Int>) {
        let ra = a.indices.filter { ab[$0] == nil }, rb = b.indices.filter { !matchedB.contains($0) }
        guard !ra.isEmpty, !rb.isEmpty, ra.count * rb.count <= 250_000 else { return }
        let ga = ra.map { bigrams(a[$0].normalizedTitle) }, gb = rb.map { bigrams(b[$0].normalizedTitle) }
        var score = [[Double]](repeating: [Double](repeating: 0, count: rb.count), count: ra.count)
        for x in ra.indices { for y in rb.indices { score[x][y] = dice(ga[x], gb[y]) } }
        func best(_ values: [Double]) -> Int? {
            guard let top = values.max(), top >= 0.5, values.filter({ $0 == top }).count == 1 else { return nil }
            return values.firstIndex(of: top)
        }
        for x in ra.indices {
            guard let y = best(score[x]), best(ra.indices.map { score[$0][y] }) == x else { continue }
            ab[ra[x]] = rb[y]
            matchedB.insert(rb[y])
        }
    }

    private static func bigrams(_ text: String) -> [String: Int] {
        let characters = Array(text.lowercased())
        var counts: [String: Int] = [:]
        guard characters.count > 1 else {
            if let c = characters.first { counts[String(c)] = 1 }
            return counts
        }
        for i in 0..<(characters.count - 1) { counts[String(characters[i]) + String(characters[i + 1]), default: 0] += 1 }
        return counts
    }

    private static func dice(_ a: [String: Int], _ b: [String: Int]) -> Double {
        let total = a.values.reduce(0, +) + b.values.reduce(0, +)
        guard total > 0 else { return 0 }
        var shared = 0
        for (k, n) in a { shared += min(n, b[k] ?? 0) }
        return 2 * Double(shared) / Double(total)
    }
}
