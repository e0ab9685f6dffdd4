import TickCore

/// A JSON value whose objects keep their keys in the order written.
enum JSON: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(key: String, value: JSON)])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    /// A string, or null.
    static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

    /// Compact text on one line.
    var text: String {
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.render(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, field) in fields.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(field.key, into: &out)
                out += ":"
                field.value.render(into: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string (`JSONValue.quote`, shared with the interchange formats).
    static func quote(_ s: String, into out: inout String) { JSONValue.quote(s, into: &out) }
}

extension Output {
    /// Writes one JSON value on its own line.
    func json(_ value: JSON) {
        line(value.text)
    }

    /// Writes a JSON array with one element per line, streaming: elements are rendered one at a time.
    func jsonArray<S: Sequence>(_ elements: S, _ transform: (S.Element) -> JSON) {
        var first = true
        var text = ""
        for element in elements {
            text.removeAll(keepingCapacity: true)
            text += first ? "[\n" : ",\n"
            first = false
            transform(element).render(into: &text)
            write(text)
        }
        line(first ? "[]" : "\n]")
    }
}
