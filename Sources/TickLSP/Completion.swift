import TickCore

// Completion after `due:` (and the Tasks plugin's `📅 `, Dataview's `[due:: `): date words with the
// ISO date each inserts; after `rec:` the rules in words; after `#` the folder's tags by use; after
// `!` the priorities.

extension LanguageServer {
    /// The date words offered, in this order.
    static let dateWords = ["today", "tomorrow", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
                            "in 3 days", "next week", "in 2 weeks", "next month", "eow", "eom"]
    /// The rules offered after `rec:`.
    static let rules = ["1d", "1w", "2w", "1m", "3m", "1y", "1b", "+1w", "+1m", "++1w", "++1m"]

    func completion(_ params: JSON) throws -> JSON {
        let document = try document(params)
        let position = try Position(params["position"])
        let text = document.text
        guard position.line < text.lineCount else { return .array([]) }
        let cursor = text.offset(position, encoding)
        let lineStart = text.lineStarts[position.line]
        // The word being typed: back to a space, a tab or the line's start.
        var wordStart = cursor
        while wordStart > lineStart, text.bytes[wordStart - 1] != 0x20, text.bytes[wordStart - 1] != 0x09 { wordStart -= 1 }
        let word = String(decoding: text.bytes[wordStart..<cursor], as: UTF8.self)
        let before = String(decoding: text.bytes[lineStart..<wordStart], as: UTF8.self)
        let now = env.now()

        if word.hasPrefix("due:") {
            return dateItems(document, from: wordStart + 4, to: cursor, now: now)
        }
        if before.hasSuffix("📅 ") || before.hasSuffix("[due:: ") {
            return dateItems(document, from: wordStart, to: cursor, now: now)
        }
        if word.hasPrefix("rec:") {
            let items = LanguageServer.rules.compactMap { rule -> JSON? in
                guard let parsed = RecurrenceRule(parsing: rule) else { return nil }
                return item(rule, detail: parsed.words, insert: rule, document, from: wordStart + 4, to: cursor)
            }
            return .array(items)
        }
        if word.hasPrefix("#") {
            let items = tagCounts(document).enumerated().map { rank, tag in
                var entry = item("#" + tag.name, detail: tag.count == 1 ? "1 task" : "\(tag.count) tasks", insert: "#" + tag.name,
                                 document, from: wordStart, to: cursor)
                if case .object(var members) = entry {
                    let key = String(repeating: "0", count: max(0, 6 - String(rank).count)) + String(rank)
                    members.append(("sortText", .string(key)))
                    entry = .object(members)
                }
                return entry
            }
            return .array(items)
        }
        if word.hasPrefix("!"), word.allSatisfy({ $0 == "!" }) {
            let items = [Priority.high, .medium, .low].map { level in
                item(level.marks!, detail: "priority \(level.name)", insert: level.marks!, document, from: wordStart, to: cursor)
            }
            return .array(items)
        }
        return .array([])
    }

    /// The date words as items that insert their ISO dates over the bytes `from..<to`.
    func dateItems(_ document: OpenDocument, from: Int, to: Int, now: Now) -> JSON {
        var items: [JSON] = []
        for (rank, word) in LanguageServer.dateWords.enumerated() {
            guard let date = try? DueDate(parsing: word, relativeTo: now) else { continue }
            let iso = date.description
            let detail = "\(iso) \(date.day.weekdayName), \(distance(date, from: now))"
            guard case .object(var members) = item(word, detail: detail, insert: iso, document, from: from, to: to) else { continue }
            members.append(("filterText", .string(word)))
            members.append(("sortText", .string(String(repeating: "0", count: 3 - String(rank).count) + String(rank))))
            items.append(.object(members))
        }
        return .array(items)
    }

    /// One completion item that replaces the bytes `from..<to` with `insert`.
    func item(_ label: String, detail: String, insert: String, _ document: OpenDocument, from: Int, to: Int) -> JSON {
        .object(["label": .string(label), "kind": .int(12), "detail": .string(detail),
                 "textEdit": .object(["range": document.text.range(from, to, encoding), "newText": .string(insert)])])
    }

    /// The tags of the folder's lists (each open one's from its buffer), most used first; this
    /// document's count too when it is not one of the folder's lists.
    func tagCounts(_ document: OpenDocument) -> [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        let path = uriPath(document.uri)
        var counted = false
        if let library = library() {
            for list in library.lists.indices {
                counted = counted || uriPath(uri(ofList: library.lists[list])) == path
                for i in 0..<library.lists[list].taskCount {
                    for tag in library.task(TaskID(list: list, index: i)).tags { counts[tag, default: 0] += 1 }
                }
            }
        }
        if !counted {
            for i in 0..<document.buffer.taskCount {
                for tag in document.buffer.task(i).tags { counts[tag, default: 0] += 1 }
            }
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($1.count, $0.name) < ($0.count, $1.name) }
    }

    /// A URI's path, or the URI itself when it names no file.
    func uriPath(_ uri: String) -> String { filePath(fromURI: uri) ?? uri }
}
