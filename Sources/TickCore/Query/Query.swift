import TickFormat

// The query language (README, "Queries"; `tick help query`): a recursive-descent parser from the
// words of QueryLexer to a tree whose dates are resolved against one `now`.
//
//   query := or
//   or    := and ("OR" and)*
//   and   := unary unary*                 (terms side by side)
//   unary := "NOT" unary | primary
//   primary := "(" or ")" | term          (a term may be `-term`, its own negation)
//
// So NOT binds tighter than AND, and AND tighter than OR: `a OR b c` is `a OR (b AND c)`.
//
// Nesting is bounded: each NOT, each leading `-` of a term and each parenthesis opens a level, and a
// query deeper than `QueryParser.maxDepth` levels is refused, so that neither the parser nor the
// tree's users (evaluation, explanation, comparison) recurse without bound.

/// A parsed query: its tree, with every date resolved.
public struct Query: Equatable, Sendable {
    public var root: QueryNode
    /// The text it was parsed from.
    public var text: String

    /// Parses `text` with dates relative to `now`; weeks (`this-week`, `next-week`) start on
    /// `weekStart` (1 = Monday … 7 = Sunday).
    public init(parsing text: String, now: Now, weekStart: Int = 1) throws(QueryError) {
        var parser = QueryParser(tokens: try QueryLexer.tokens(text), now: now, weekStart: weekStart)
        root = try parser.parse()
        self.text = text
    }

    public init(root: QueryNode, text: String = "") {
        self.root = root
        self.text = text
    }

    /// Whether some term is about completion (`is:open`, `is:done`, `done:`): a query that says
    /// nothing about it finds open tasks only.
    public var mentionsCompletion: Bool { root.mentionsCompletion }

    /// The tree, one node a line, children indented by two spaces, every date resolved.
    public var explanation: String { root.explanation(level: 0) }
}

/// A node of a query's tree.
public indirect enum QueryNode: Equatable, Sendable {
    case term(QueryTerm)
    case not(QueryNode)
    case and([QueryNode])
    case or([QueryNode])

    var mentionsCompletion: Bool {
        switch self {
        case .term(let term):
            switch term {
            case .state(.open), .state(.done), .doneDate: return true
            default: return false
            }
        case .not(let node): return node.mentionsCompletion
        case .and(let nodes), .or(let nodes): return nodes.contains { $0.mentionsCompletion }
        }
    }

    func explanation(level: Int) -> String {
        let lead = String(repeating: "  ", count: level)
        switch self {
        case .term(let term): return lead + term.description
        case .not(let node): return lead + "NOT\n" + node.explanation(level: level + 1)
        case .and(let nodes): return lead + "AND\n" + nodes.map { $0.explanation(level: level + 1) }.joined(separator: "\n")
        case .or(let nodes): return lead + "OR\n" + nodes.map { $0.explanation(level: level + 1) }.joined(separator: "\n")
        }
    }
}

/// What `is:` asks.
public enum QueryState: String, CaseIterable, Equatable, Sendable {
    case open, done, overdue, today, flagged, recurring, subtask, parent
}

/// What `has:` and `no:` ask about.
public enum QueryField: String, CaseIterable, Equatable, Sendable {
    case due, notes, tags, priority
}

/// One term of a query.
public enum QueryTerm: Equatable, Sendable, CustomStringConvertible {
    /// A bare word or a quoted phrase: a folded substring of the title, notes or tags.
    case text(String)
    /// `#tag`: a tag equal to it ignoring case and accents, or nested under it (`#work/urgent`).
    case tag(String)
    /// `list:NAME`.
    case list(String)
    /// `in:SECTION`.
    case section(String)
    case state(QueryState)
    /// `has:FIELD` (true) or `no:FIELD` (false).
    case has(QueryField, Bool)
    /// `pri:…` and `!`, `!!`, `!!!`: priorities from `lowest` through `highest` (0 none … 3 high).
    case priority(lowest: Int, highest: Int)
    case due(DateFilter)
    case doneDate(DateFilter)
    /// `scheduled:…`: the scheduled date (`⏳`, FORMAT.md 11).
    case scheduled(DateFilter)
    /// `start:…`: the start date (`🛫`, FORMAT.md 11).
    case start(DateFilter)

    public var description: String {
        switch self {
        case .text(let text): return "text \"\(text)\""
        case .tag(let tag): return "tag #\(tag)"
        case .list(let name): return "list \"\(name)\""
        case .section(let name): return "section \"\(name)\""
        case .state(let state): return "is \(state.rawValue)"
        case .has(let field, let has): return (has ? "has " : "no ") + field.rawValue
        case .priority(let lowest, let highest):
            let names = ["none", "low", "medium", "high"]
            // `pri:>high` and `pri:<none` leave no level: a term that matches nothing.
            guard names.indices.contains(lowest), names.indices.contains(highest), lowest <= highest else {
                return "priority (no level: matches nothing)"
            }
            return lowest == highest ? "priority \(names[lowest])" : "priority \(names[lowest])..\(names[highest])"
        case .due(let filter): return "due " + filter.description
        case .doneDate(let filter): return "done " + filter.description
        case .scheduled(let filter): return "scheduled " + filter.description
        case .start(let filter): return "start " + filter.description
        }
    }
}

/// What `due:`, `done:`, `scheduled:` and `start:` accept, resolved to days.
public enum DateFilter: Equatable, Sendable, CustomStringConvertible {
    /// No date.
    case none
    /// Any date.
    case any
    /// A date from `first` through `last`, both included; nil is an open end.
    case range(first: Day?, last: Day?)

    public var description: String {
        switch self {
        case .none: return "none"
        case .any: return "any"
        case .range(let first, let last):
            if let first, let last, first == last { return first.description }
            return (first?.description ?? "") + ".." + (last?.description ?? "")
        }
    }

    /// Whether a date (days since 1970-01-01, `.min` for none) passes.
    @inline(__always) func contains(_ day: Int32) -> Bool {
        switch self {
        case .none: return day == .min
        case .any: return day != .min
        case .range(let first, let last):
            guard day != .min else { return false }
            if let first, Int(day) < first.daysSinceEpoch { return false }
            if let last, Int(day) > last.daysSinceEpoch { return false }
            return true
        }
    }
}

// MARK: - Parser

struct QueryParser {
    let tokens: [QueryToken]
    let now: Now
    let weekStart: Int
    var at = 0
    /// The levels open at the token being read: NOTs, leading dashes and parentheses.
    private var depth = 0

    /// The deepest nesting a query may have.
    static let maxDepth = 100

    init(tokens: [QueryToken], now: Now, weekStart: Int) {
        self.tokens = tokens
        self.now = now
        self.weekStart = weekStart
    }

    /// The keys of `key:value` terms.
    static let keys = ["list", "in", "is", "has", "no", "pri", "due", "done", "scheduled", "start"]

    mutating func parse() throws(QueryError) -> QueryNode {
        guard !tokens.isEmpty else { throw QueryError(column: 1, "the query is empty") }
        let node = try parseOr()
        if at < tokens.count {
            // Only a closing parenthesis stops `parseOr` early.
            throw QueryError(column: tokens[at].column, "a closing parenthesis without an opening one")
        }
        return node
    }

    private var current: QueryToken? { at < tokens.count ? tokens[at] : nil }

    /// Opens one more level of nesting for the construct at `column`, refusing one past `maxDepth`.
    private mutating func deeper(column: Int) throws(QueryError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw Self.tooDeep(column: column) }
    }

    static func tooDeep(column: Int) -> QueryError {
        QueryError(column: column, "the query nests more than \(maxDepth) levels deep (each NOT, leading '-' and parenthesis is one)")
    }

    private mutating func parseOr() throws(QueryError) -> QueryNode {
        var nodes = [try parseAnd()]
        while let token = current, token.kind == .or {
            at += 1
            guard let next = current, next.kind != .close, next.kind != .or else {
                throw QueryError(column: token.column, "OR needs a term after it")
            }
            nodes.append(try parseAnd())
        }
        return nodes.count == 1 ? nodes[0] : .or(nodes)
    }

    private mutating func parseAnd() throws(QueryError) -> QueryNode {
        var nodes: [QueryNode] = []
        while let token = current, token.kind != .or, token.kind != .close {
            nodes.append(try parseUnary())
        }
        guard !nodes.isEmpty else {
            let column = current?.column ?? (tokens.last.map { $0.column } ?? 1)
            if current?.kind == .or { throw QueryError(column: column, "OR needs a term before it") }
            throw QueryError(column: column, "a term is missing here")
        }
        return nodes.count == 1 ? nodes[0] : .and(nodes)
    }

    private mutating func parseUnary() throws(QueryError) -> QueryNode {
        let token = current!
        switch token.kind {
        case .not:
            at += 1
            guard let next = current, next.kind != .close, next.kind != .or else {
                throw QueryError(column: token.column, "NOT needs a term after it")
            }
            try deeper(column: token.column)
            defer { depth -= 1 }
            return .not(try parseUnary())
        case .open:
            at += 1
            if current?.kind == .close { throw QueryError(column: token.column, "empty parentheses") }
            guard current != nil else { throw QueryError(column: token.column, "this parenthesis is never closed") }
            try deeper(column: token.column)
            defer { depth -= 1 }
            let node = try parseOr()
            guard current?.kind == .close else { throw QueryError(column: token.column, "this parenthesis is never closed") }
            at += 1
            return node
        case .word(let word, let quotedFrom):
            at += 1
            return try term(word, quotedFrom: quotedFrom, column: token.column, depth: depth)
        case .or, .close:
            preconditionFailure("parseAnd stops before OR and )")
        }
    }

    /// One word as a term (or `-term`, its negation), at `depth` levels of nesting.
    private func term(_ word: String, quotedFrom: Int?, column: Int, depth: Int) throws(QueryError) -> QueryNode {
        let plain = quotedFrom ?? word.count  // characters before the first quote
        if plain >= 1, word.first == "-", word.count > 1 {
            guard depth < Self.maxDepth else { throw Self.tooDeep(column: column) }
            let rest = String(word.dropFirst())
            return .not(try term(rest, quotedFrom: quotedFrom.map { $0 - 1 }, column: column + 1, depth: depth + 1))
        }
        if plain == word.count, word == "!" || word == "!!" || word == "!!!" {
            return .term(.priority(lowest: word.count, highest: word.count))
        }
        if plain >= 1, word.first == "#" {
            let tag = String(word.dropFirst())
            guard !tag.isEmpty else { throw QueryError(column: column, "# needs a tag name after it") }
            // `#flag` flags a task in the files and in `tick add` (FORMAT.md 5.4): it is no tag.
            if plain == word.count, tag.lowercased() == "flag" { return .term(.state(.flagged)) }
            return .term(.tag(tag))
        }
        if let colon = word.firstIndex(of: ":"), word.distance(from: word.startIndex, to: colon) < plain {
            let key = word[..<colon]
            if !key.isEmpty, key.allSatisfy({ $0.isASCII && $0.isLetter }) {
                let value = String(word[word.index(after: colon)...])
                let valueColumn = column + key.count + 1
                return .term(try keyed(key.lowercased(), value, column: column, valueColumn: valueColumn))
            }
        }
        guard !word.isEmpty else { throw QueryError(column: column, "an empty phrase") }
        return .term(.text(word))
    }

    private func keyed(_ key: String, _ value: String, column: Int, valueColumn: Int) throws(QueryError) -> QueryTerm {
        guard Self.keys.contains(key) else {
            throw QueryError(column: column, "unknown key '\(key):' (keys: \(Self.keys.map { $0 + ":" }.joined(separator: " "))); "
                             + "put the word in quotes to look for it as text")
        }
        guard !value.isEmpty else { throw QueryError(column: valueColumn, "\(key): needs a value") }
        switch key {
        case "list": return .list(value)
        case "in": return .section(value)
        case "is":
            guard let state = QueryState(rawValue: value.lowercased()) else {
                throw QueryError(column: valueColumn, "unknown is:\(value) (expected "
                                 + QueryState.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            return .state(state)
        case "has", "no":
            guard let field = QueryField(rawValue: value.lowercased()) else {
                throw QueryError(column: valueColumn, "unknown \(key):\(value) (expected "
                                 + QueryField.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            return .has(field, key == "has")
        case "pri": return try priority(value, column: valueColumn)
        case "due": return .due(try dateFilter(value, column: valueColumn))
        case "scheduled": return .scheduled(try dateFilter(value, column: valueColumn))
        case "start": return .start(try dateFilter(value, column: valueColumn))
        default: return .doneDate(try dateFilter(value, column: valueColumn))
        }
    }

    // MARK: Priorities

    private func priority(_ value: String, column: Int) throws(QueryError) -> QueryTerm {
        let (op, rest) = Self.comparison(value)
        let names = ["none": 0, "low": 1, "medium": 2, "med": 2, "high": 3]
        guard let level = names[rest.lowercased()] ?? Int(rest).flatMap({ (0...3).contains($0) ? $0 : nil }) else {
            throw QueryError(column: column + (value.count - rest.count),
                             "unknown priority '\(rest)' (expected none, low, medium, high or 0 to 3)")
        }
        switch op {
        case "<": return .priority(lowest: 0, highest: level - 1)
        case "<=": return .priority(lowest: 0, highest: level)
        case ">": return .priority(lowest: level + 1, highest: 3)
        case ">=": return .priority(lowest: level, highest: 3)
        default: return .priority(lowest: level, highest: level)
        }
    }

    /// A leading `<`, `<=`, `>`, `>=` or `=` and the rest.
    static func comparison(_ value: String) -> (op: String, rest: String) {
        for op in ["<=", ">=", "<", ">", "="] where value.hasPrefix(op) {
            return (op, String(value.dropFirst(op.count)))
        }
        return ("", value)
    }

    // MARK: Dates

    private func dateFilter(_ value: String, column: Int) throws(QueryError) -> DateFilter {
        switch value.lowercased() {
        case "none": return .none
        case "any": return .any
        default: break
        }
        let (op, rest) = Self.comparison(value)
        if !op.isEmpty {
            let restColumn = column + op.count
            guard !rest.isEmpty else { throw QueryError(column: restColumn, "\(op) needs a date after it") }
            let p = try period(rest, column: restColumn)
            switch op {
            case "<": return .range(first: nil, last: p.first.adding(days: -1))
            case "<=": return .range(first: nil, last: p.last)
            case ">": return .range(first: p.last.adding(days: 1), last: nil)
            case ">=": return .range(first: p.first, last: nil)
            default: return .range(first: p.first, last: p.last)
            }
        }
        let characters = Array(value)
        if let dots = characters.indices.dropLast().first(where: { characters[$0] == "." && characters[$0 + 1] == "." }) {
            let a = String(characters[..<dots]), b = String(characters[(dots + 2)...])
            guard !a.isEmpty || !b.isEmpty else { throw QueryError(column: column, "a range needs at least one end") }
            let first = a.isEmpty ? nil : try period(a, column: column).first
            let last = b.isEmpty ? nil : try period(b, column: column + a.count + 2).last
            if let first, let last, last < first {
                throw QueryError(column: column, "the range \(first)..\(last) ends before it starts")
            }
            return .range(first: first, last: last)
        }
        let p = try period(value, column: column)
        return .range(first: p.first, last: p.last)
    }

    /// The days a date word or a named range covers.
    private func period(_ word: String, column: Int) throws(QueryError) -> (first: Day, last: Day) {
        let today = now.day
        let lower = word.lowercased()
        func outOfRange() -> QueryError {
            QueryError(column: column, "'\(word)' from \(today) falls outside the years 1 to 9999")
        }
        func week(_ offset: Int) throws(QueryError) -> (Day, Day) {
            let back = (today.weekday - weekStart + 7) % 7
            let start = today.adding(days: -back + 7 * offset), end = start.adding(days: 6)
            guard (1...9999).contains(start.year), (1...9999).contains(end.year) else { throw outOfRange() }
            return (start, end)
        }
        func month(_ year: Int, _ month: Int) -> (Day, Day) {
            (Day(year: year, month: month, day: 1)!, Day(year: year, month: month, day: Day.length(ofMonth: month, year: year))!)
        }
        func monthOffset(_ offset: Int) throws(QueryError) -> (Day, Day) {
            guard let first = Day(year: today.year, month: today.month, day: 1).flatMap({ $0.adding(months: offset) })
            else { throw outOfRange() }
            return month(first.year, first.month)
        }
        switch lower {
        case "this-week": return try week(0)
        case "next-week": return try week(1)
        case "last-week": return try week(-1)
        case "this-month": return try monthOffset(0)
        case "next-month": return try monthOffset(1)
        case "last-month": return try monthOffset(-1)
        default: break
        }
        let parts = lower.split(separator: "-", omittingEmptySubsequences: false)
        let digits = { (s: Substring) in !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
        if parts.count == 1, parts[0].count == 4, digits(parts[0]), let year = Int(parts[0]), year >= 1 {
            return (Day(year: year, month: 1, day: 1)!, Day(year: year, month: 12, day: 31)!)
        }
        if parts.count == 2, parts[0].count == 4, digits(parts[0]), let year = Int(parts[0]), year >= 1 {
            let second = parts[1]
            if (1...2).contains(second.count), digits(second), let m = Int(second) {
                guard (1...12).contains(m) else { throw QueryError(column: column, "no month \(m) in '\(word)'") }
                return month(year, m)
            }
            if second.first == "w", (2...3).contains(second.count), digits(second.dropFirst()), let w = Int(second.dropFirst()) {
                // ISO 8601 weeks: week 1 holds 4 January, and weeks start on Monday.
                let january4 = Day(year: year, month: 1, day: 4)!
                let monday = january4.adding(days: 1 - january4.weekday + 7 * (w - 1))
                guard w >= 1, monday.adding(days: 3).year == year else {
                    throw QueryError(column: column, "\(year) has no week \(w)")
                }
                return (monday, monday.adding(days: 6))
            }
        }
        let date: DueDate
        do {
            date = try DueDate(parsing: word, relativeTo: now)
        } catch {
            throw QueryError(column: column, error.description)
        }
        guard date.minutes == nil else {
            throw QueryError(column: column, "'\(word)' has a time; queries compare days, so leave out the time")
        }
        return (date.day, date.day)
    }
}
