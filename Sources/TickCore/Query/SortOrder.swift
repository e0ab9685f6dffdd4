import TickFormat

// `--sort KEY,KEY…`: one vocabulary for `tick ls`, `tick find`, every view and saved views.

/// What tasks are sorted by: keys in order, each ascending or, with `-`, descending.
public struct SortOrder: Equatable, Sendable, CustomStringConvertible {
    public enum Field: String, CaseIterable, Sendable {
        /// Due date and time, earliest first; no due date last in either direction.
        case due
        /// Priority, none and low first (`-pri`: high first).
        case pri
        /// List, in the home screen's order.
        case list
        /// Title, by its folded text.
        case title
        /// The file's order: list, then line.
        case file
        /// The `done:` date, earliest first; none last.
        case done
    }

    public struct Key: Equatable, Sendable {
        public var field: Field
        public var descending: Bool
    }

    public var keys: [Key]

    public init(keys: [Key]) { self.keys = keys }

    /// The words `--sort` takes, for help: `ls`'s old `priority` means `-pri`.
    public static let vocabulary = "due, pri, list, title, file, done, each reversed by a leading - "
        + "(-pri: high first); priority is -pri"

    /// Parses `due,-pri,list`; nil for an unknown key (`reason` says which).
    public init(parsing text: String) throws(SortOrderError) {
        var keys: [Key] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var word = Substring(part)
            var descending = false
            if word.first == "-" {
                descending = true
                word = word.dropFirst()
            }
            if word == "priority" {
                keys.append(Key(field: .pri, descending: !descending))
                continue
            }
            guard let field = Field(rawValue: String(word)) else { throw SortOrderError(word: String(part)) }
            keys.append(Key(field: field, descending: descending))
        }
        self.keys = keys
    }

    public var description: String {
        keys.map { ($0.descending ? "-" : "") + $0.field.rawValue }.joined(separator: ",")
    }
}

/// A `--sort` key that is not one.
public struct SortOrderError: Error, Equatable, Sendable, CustomStringConvertible {
    public var word: String
    public var description: String { "unknown sort key '\(word)' (expected \(SortOrder.vocabulary))" }
}

extension Library {
    /// `ids` sorted by `order`; ties keep the order they came in.
    public func sorted(_ ids: [TaskID], by order: SortOrder) -> [TaskID] {
        guard !order.keys.isEmpty else { return ids }
        let needsTitle = order.keys.contains { $0.field == .title }
        struct Item {
            var id: TaskID
            var position: Int
            var due: Int64
            var priority: UInt8
            var line: UInt32
            var done: Int32
            var title: [UInt8]
        }
        let items = ids.enumerated().map { position, id -> Item in
            let segment = lists[id.list].segment
            let h = segment.hot(id.index)
            let title = needsTitle ? segment.foldedTitle(id.index) : []
            return Item(id: id, position: position,
                        due: h.dueDay == .min ? .max : Int64(h.dueDay) * 1441 + Int64(h.dueMinutes) + 1,
                        priority: h.priority, line: h.line, done: h.doneDay, title: title)
        }
        func compare(_ a: Item, _ b: Item, _ key: SortOrder.Key) -> Int {
            func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x > y ? 1 : 0 }
            var c: Int
            switch key.field {
            case .due:
                // No due date is last whichever way.
                if (a.due == .max) != (b.due == .max) { return a.due == .max ? 1 : -1 }
                c = sign(a.due, b.due)
            case .done:
                if (a.done == .min) != (b.done == .min) { return a.done == .min ? 1 : -1 }
                c = sign(a.done, b.done)
            case .pri: c = sign(a.priority, b.priority)
            case .list: c = sign(a.id.list, b.id.list)
            case .title: c = a.title.lexicographicallyPrecedes(b.title) ? -1 : b.title.lexicographicallyPrecedes(a.title) ? 1 : 0
            case .file: c = a.id.list != b.id.list ? sign(a.id.list, b.id.list) : sign(a.line, b.line)
            }
            return key.descending ? -c : c
        }
        return items.sorted { a, b in
            for key in order.keys {
                let c = compare(a, b, key)
                if c != 0 { return c < 0 }
            }
            return a.position < b.position
        }.map(\.id)
    }
}
