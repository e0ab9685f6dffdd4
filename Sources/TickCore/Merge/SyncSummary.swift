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
    /// matched by title.
    static func count(before: Document?, after: Document?) -> [(label: String, value: Int)] {
        var old: [String: [Int]] = [:]
        if let before { for (i, t) in before.tasks.enumerated() { old[t.title, default: []].append(i) } }
        var added = 0, completed = 0, reopened = 0, edited = 0
        if let after {
            for (i, t) in after.tasks.enumerated() {
                guard var list = old[t.title], !list.isEmpty, let before else { added += 1; continue }
                let j = list.removeFirst()
                old[t.title] = list
                let was = before.tasks[j]
                if !was.done && t.done {
                    completed += 1
                } else if was.done && !t.done {
                    reopened += 1
                } else if before.titleLineText(j) != after.titleLineText(i) || before.notes[j] != after.notes[i] {
                    edited += 1
                }
            }
        }
        let removed = old.values.reduce(0) { $0 + $1.count }
        return [("added", added), ("completed", completed), ("reopened", reopened), ("edited", edited), ("removed", removed)]
    }
}
