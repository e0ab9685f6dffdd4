import TickFormat

/// The commit message of `tick sync`: what changed in each list, in tasks.
public enum SyncSummary {
    /// One changed file: its path in the task folder and its bytes before and after (nil when
    /// it did not exist).
    public struct Change: Sendable {
        public var path: String
        public var before: [UInt8]?
        public var after: [UInt8]?

        public init(path: String, before: [UInt8]?, after: [UInt8]?) {
            self.path = path
            self.before = before
            self.after = after
        }
    }

    /// `tick sync: Groceries: 2 added, 1 completed; Work: 1 edited`, lists in path order; files
    /// that are not lists, or lists whose tasks did not change, are counted as files.
    public static func message(_ changes: [Change], globalFilter: GlobalFilter? = nil) -> String {
        var parts: [String] = []
        var otherFiles = 0
        for change in changes.sorted(by: { $0.path < $1.path }) {
            guard change.path.hasSuffix(".md") else { otherFiles += 1; continue }
            let counts = count(before: change.before.map { Document(bytes: $0, globalFilter: globalFilter) },
                               after: change.after.map { Document(bytes: $0, globalFilter: globalFilter) })
            let name = (change.after ?? change.before).flatMap(listName(of:))
                ?? String(change.path.split(separator: "/").last?.dropLast(3) ?? "")
            let described = counts.filter { $0.value > 0 }.map { "\($0.value) \($0.label)" }
            if described.isEmpty { otherFiles += 1 } else { parts.append(name + ": " + described.joined(separator: ", ")) }
        }
        if otherFiles > 0 { parts.append("\(otherFiles) other file\(otherFiles == 1 ? "" : "s") changed") }
        return "tick sync: " + (parts.isEmpty ? "no changes" : parts.joined(separator: "; "))
    }

    /// The name a list file's bytes give the list (its first level-1 heading), or nil when they
    /// have none: what commit messages call it.
    public static func listName(of bytes: [UInt8]) -> String? { Document(bytes: bytes).heading }

    /// Tasks added, completed, reopened, edited and removed between two versions of a list,
    /// matched by title; then a task whose title changed (a retitle) is matched by its id, or by
    /// its place (the task right after the same matched task), and counts as edited.
    static func count(before: Document?, after: Document?) -> [(label: String, value: Int)] {
        var old: [String: [Int]] = [:]
        if let before { for (i, t) in before.tasks.enumerated() { old[t.title, default: []].append(i) } }
        var added = 0, completed = 0, reopened = 0, edited = 0
        guard let after else {
            return [("added", 0), ("completed", 0), ("reopened", 0), ("edited", 0), ("removed", before?.tasks.count ?? 0)]
        }
        // The task of `before` each task of `after` is, when one is.
        var match = [Int?](repeating: nil, count: after.tasks.count)
        for (i, t) in after.tasks.enumerated() {
            guard var list = old[t.title], !list.isEmpty else { continue }
            match[i] = list.removeFirst()
            old[t.title] = list
        }
        var unmatched = Set(old.values.joined())
        if let before, !unmatched.isEmpty {
            let byID = Dictionary(unmatched.compactMap { j in before.tasks[j].id.map { ($0, j) } }, uniquingKeysWith: { a, _ in a })
            var previous: Int? = nil  // the `before` task matched to the task before i
            for i in after.tasks.indices {
                if match[i] == nil {
                    let candidate = after.tasks[i].id.flatMap { byID[$0] } ?? (previous.map { $0 + 1 } ?? 0)
                    if unmatched.contains(candidate) {
                        match[i] = candidate
                        unmatched.remove(candidate)
                    }
                }
                if let j = match[i] { previous = j }
            }
        }
        for (i, t) in after.tasks.enumerated() {
            guard let j = match[i], let before else { added += 1; continue }
            let was = before.tasks[j]
            if !was.done && t.done {
                completed += 1
            } else if was.done && !t.done {
                reopened += 1
            } else if before.titleLineText(j) != after.titleLineText(i) || before.notes[j] != after.notes[i] {
                edited += 1
            }
        }
        return [("added", added), ("completed", completed), ("reopened", reopened), ("edited", edited),
                ("removed", unmatched.count)]
    }
}
