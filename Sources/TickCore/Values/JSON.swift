/// A JSON value: what `--json` prints, the interchange formats read and write, and the language
/// server speaks. Objects keep their members in the order written, and a number is kept as its text,
/// so that what is read is written back as it was (Foundation is not linked).
public enum JSON: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
                           ExpressibleByBooleanLiteral {
    case null
    case bool(Bool)
    /// A number as written.
    case number(String)
    case string(String)
    case array([JSON])
    /// Members in the order written.
    case object([(key: String, value: JSON)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// A whole number.
    public static func int(_ n: Int) -> JSON { .number(String(n)) }

    /// A string, or null.
    public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

    /// An object whose members are written in this order.
    public static func object(_ members: KeyValuePairs<String, JSON>) -> JSON {
        .object(members.map { (key: $0.key, value: $0.value) })
    }

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    // MARK: - Reading a value

    /// The member `key` of an object (its first, when written twice).
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    /// The member at a dotted path (`textDocument.uri`).
    public func at(_ path: String) -> JSON? {
        var value: JSON? = self
        for key in path.split(separator: ".") { value = value?[String(key)] }
        return value
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }

    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }

    public var array: [JSON]? { if case .array(let items) = self { return items }; return nil }

    public var isNull: Bool { if case .null = self { return true }; return false }

    /// A whole number: written as one, or as a fraction-free number below 10^15 (`3.0`, `1e2`).
    public var int: Int? {
        guard case .number(let text) = self else { return nil }
        if let n = Int(text) { return n }
        guard let d = Double(text), d.rounded() == d, abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    // MARK: - Writing

    /// The compact text of the value, on one line.
    public var text: String {
        var out = ""
        render(into: &out)
        return out
    }

    /// Appends the compact text of the value.
    public func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.render(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(member.key, into: &out)
                out += ":"
                member.value.render(into: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string. Swift strings are valid Unicode, so text that came from
    /// invalid UTF-8 already holds U+FFFD in its place.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        var start = s.unicodeScalars.startIndex
        let scalars = s.unicodeScalars
        var i = start
        while i < scalars.endIndex {
            let c = scalars[i]
            let escape: String?
            switch c {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    let hex = String(c.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                // Appended as a Substring: appending through `out.unicodeScalars` copied all of `out`
                // each time, quadratic in a line with many escapes or many tags.
                out.append(contentsOf: Substring(scalars[start..<i]))
                out += escape
                start = scalars.index(after: i)
            }
            i = scalars.index(after: i)
        }
        out.append(contentsOf: Substring(scalars[start..<scalars.endIndex]))
        out += "\""
    }
}

/// Reads JSON text; an error names the line and column.
public struct JSONReader {
    private let b: [UInt8]
    private var i = 0
    /// Nesting deeper than this is refused rather than recursed into.
    private let maxDepth = 64

    public init(_ bytes: [UInt8]) { b = bytes }

    /// The line (1-based) of byte offset `at`.
    public func line(at offset: Int) -> Int { b[..<min(offset, b.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }

    /// Where the reader is: its byte offset.
    public var offset: Int { i }

    public var atEnd: Bool {
        mutating get { skipSpace(); return i >= b.count }
    }

    /// The next value.
    public mutating func value(depth: Int = 0) throws(InterchangeError) -> JSON {
        skipSpace()
        guard i < b.count else { throw fail("unexpected end of the file") }
        guard depth < maxDepth else { throw fail("nested too deeply") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(key: String, value: JSON)] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                let key = try string()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < b.count else { throw fail("unexpected end of the file") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSON] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < b.count else { throw fail("unexpected end of the file") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            let start = i
            while i < b.count, "+-0123456789.eE".utf8.contains(b[i]) { i += 1 }
            guard i > start else { throw fail("unexpected '\(String(decoding: [b[i]], as: UTF8.self))'") }
            return .number(String(decoding: b[start..<i], as: UTF8.self))
        }
    }

    private mutating func literal(_ word: String, _ value: JSON) throws(InterchangeError) -> JSON {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { throw fail("unexpected text") }
        i += w.count
        return value
    }

    private mutating func string() throws(InterchangeError) -> String {
        i += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                flush()
                return String(scalars)
            }
            if c < 0x20 { throw fail("a control character inside a string") }
            if c == UInt8(ascii: "\\") {
                flush()
                i += 1
                guard i < b.count else { break }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw fail("a bad escape in a string")
                }
                continue
            }
            run.append(c)
            i += 1
        }
        throw fail("a string that does not end")
    }

    private mutating func hex4() throws(InterchangeError) -> UInt32 {
        guard i + 4 <= b.count, let n = UInt32(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16) else {
            throw fail("a bad \\u escape")
        }
        i += 4
        return n
    }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private func fail(_ reason: String) -> InterchangeError {
        let lineStart = b[..<min(i, b.count)].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return InterchangeError("line \(line(at: i)), column \(i - lineStart + 1)", "not JSON: " + reason)
    }
}
