// The query language's words: whitespace separates them, parentheses stand alone, a double quote
// starts text that runs to the next double quote (spaces and parentheses included), and `OR` and
// `NOT` in capitals, unquoted, are operators. Everything else is a word for the parser to read.

/// A query that cannot be read: where (a column, counting characters from 1) and why.
public struct QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The character of the query where the problem is, from 1.
    public var column: Int
    public var reason: String

    public init(column: Int, _ reason: String) {
        self.column = column
        self.reason = reason
    }

    public var description: String { "bad query at column \(column): \(reason)" }
}

/// One word of a query, with the column it starts at.
struct QueryToken: Equatable {
    enum Kind: Equatable {
        /// A word, its quotes removed. `quotedFrom` is the offset (in characters) where the first
        /// quoted part began, or nil: a key, `-` or `#` counts only before it.
        case word(String, quotedFrom: Int?)
        case open
        case close
        case or
        case not
    }

    var kind: Kind
    var column: Int
}

enum QueryLexer {
    static func tokens(_ text: String) throws(QueryError) -> [QueryToken] {
        var tokens: [QueryToken] = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c.isWhitespace {
                i += 1
                continue
            }
            if c == "(" || c == ")" {
                tokens.append(QueryToken(kind: c == "(" ? .open : .close, column: i + 1))
                i += 1
                continue
            }
            let start = i
            var word = ""
            var count = 0
            var quotedFrom: Int?
            while i < characters.count {
                let c = characters[i]
                if c.isWhitespace || c == "(" || c == ")" { break }
                if c == "\"" {
                    let open = i
                    if quotedFrom == nil { quotedFrom = count }
                    i += 1
                    while i < characters.count, characters[i] != "\"" {
                        word.append(characters[i])
                        count += 1
                        i += 1
                    }
                    guard i < characters.count else { throw QueryError(column: open + 1, "a quote that is never closed") }
                    i += 1
                    continue
                }
                word.append(c)
                count += 1
                i += 1
            }
            if quotedFrom == nil, word == "OR" {
                tokens.append(QueryToken(kind: .or, column: start + 1))
            } else if quotedFrom == nil, word == "NOT" {
                tokens.append(QueryToken(kind: .not, column: start + 1))
            } else {
                tokens.append(QueryToken(kind: .word(word, quotedFrom: quotedFrom), column: start + 1))
            }
        }
        return tokens
    }
}
