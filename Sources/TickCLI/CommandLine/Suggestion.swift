/// "Did you mean" suggestions for mistyped command and option names.
enum Suggestion {
    /// Words other tools use for a command that tick names differently, and tick's name for it:
    /// `tick complete` suggests `done`, not `completed`.
    static let synonyms = ["complete": "done", "finish": "done", "uncomplete": "reopen",
                           "delete": "rm", "remove": "rm", "move": "mv", "new": "add", "create": "add"]

    /// The candidate closest to `input`: a unique candidate that `input` is a prefix of, else the one
    /// with the smallest edit distance, if that distance is small for the input's length.
    static func closest(to input: String, among candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(input) }
        if !input.isEmpty, prefixed.count == 1 { return prefixed[0] }
        let limit = max(1, min(3, input.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let d = distance(input, candidate)
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Levenshtein distance over characters, with an adjacent swap counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
