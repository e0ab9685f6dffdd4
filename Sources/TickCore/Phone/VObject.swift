// iCalendar read strictly enough for `tick vdir sync`: content lines unfolded, each with its name,
// parameters and value, grouped into components. A file that does not parse is refused whole.

/// One content line: `NAME;PARAM=VALUE:value`, kept with its raw (folded) bytes so that a property
/// tick does not model is written back exactly as it came.
public struct VProperty: Equatable, Sendable {
    /// Upper-cased.
    public var name: String
    /// Parameter names upper-cased; values without their quotes.
    public var parameters: [(String, String)]
    public var value: String
    /// The line as it was, folding and CRLF included.
    public var raw: [UInt8]

    public func parameter(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

    public static func == (a: VProperty, b: VProperty) -> Bool { a.raw == b.raw }
}

/// A `BEGIN:NAME` … `END:NAME` block.
public struct VComponent: Equatable, Sendable {
    public var name: String
    public var properties: [VProperty] = []
    public var components: [VComponent] = []
    /// Its lines as they were, from `BEGIN` to `END` inclusive.
    public var raw: [UInt8] = []

    public func first(_ name: String) -> VProperty? { properties.first { $0.name == name } }
}

/// Why a vdir file was refused.
public struct VObjectError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

public enum VObject {
    /// The largest vdir file read: a task with long notes fits many times over.
    public static let sizeLimit = 1 << 20

    /// Parses one VCALENDAR: valid UTF-8, CRLF or LF line ends, every BEGIN matched by its END,
    /// nothing after the calendar.
    public static func parse(_ bytes: [UInt8]) throws(VObjectError) -> VComponent {
        guard bytes.count <= sizeLimit else { throw VObjectError(message: "it is larger than \(sizeLimit >> 20) MiB") }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw VObjectError(message: "it is not valid UTF-8") }
        var stack: [VComponent] = []
        var root: VComponent?
        var starts: [Int] = []
        for (start, end, raw) in logicalLines(bytes) {
            if raw.isEmpty { continue }
            let property = try contentLine(raw, bytes: Array(bytes[start..<end]))
            if property.name == "BEGIN" {
                guard root == nil else { throw VObjectError(message: "it holds more than one calendar") }
                stack.append(VComponent(name: property.value.uppercased()))
                starts.append(start)
            } else if property.name == "END" {
                guard var component = stack.popLast(), component.name == property.value.uppercased() else {
                    throw VObjectError(message: "END:\(property.value) does not close what was begun")
                }
                component.raw = Array(bytes[starts.removeLast()..<end])
                if stack.isEmpty { root = component } else { stack[stack.count - 1].components.append(component) }
            } else {
                guard !stack.isEmpty else { throw VObjectError(message: "a property outside a component") }
                stack[stack.count - 1].properties.append(property)
            }
        }
        guard stack.isEmpty, let root, root.name == "VCALENDAR" else {
            throw VObjectError(message: "it is not one complete VCALENDAR")
        }
        return root
    }

    /// Each logical line: its byte range in `bytes` (continuation lines and line end included) and
    /// its unfolded content.
    static func logicalLines(_ bytes: [UInt8]) -> [(Int, Int, [UInt8])] {
        var result: [(Int, Int, [UInt8])] = []
        var i = 0
        while i < bytes.count {
            let start = i
            var content: [UInt8] = []
            while true {
                var j = i
                while j < bytes.count, bytes[j] != 0x0A { j += 1 }
                var lineEnd = j
                if lineEnd > i, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                content += bytes[i..<lineEnd]
                i = min(j + 1, bytes.count)
                if i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1; continue }
                break
            }
            result.append((start, i, content))
        }
        return result
    }

    /// `NAME *(;PARAM=VALUE) : value`.
    static func contentLine(_ line: [UInt8], bytes: [UInt8]) throws(VObjectError) -> VProperty {
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
        }
        while i < line.count, isNameByte(line[i]) { i += 1 }
        guard i > 0 else { throw VObjectError(message: "a line without a property name") }
        let name = String(decoding: line[0..<i], as: UTF8.self).uppercased()
        var parameters: [(String, String)] = []
        while i < line.count, line[i] == UInt8(ascii: ";") {
            i += 1
            let nameStart = i
            while i < line.count, isNameByte(line[i]) { i += 1 }
            guard i > nameStart, i < line.count, line[i] == UInt8(ascii: "=") else {
                throw VObjectError(message: "a malformed parameter in \(name)")
            }
            let parameter = String(decoding: line[nameStart..<i], as: UTF8.self).uppercased()
            i += 1
            var values: [String] = []
            repeat {
                if i < line.count, line[i] == UInt8(ascii: ",") { i += 1 }
                if i < line.count, line[i] == UInt8(ascii: "\"") {
                    let valueStart = i + 1
                    i += 1
                    while i < line.count, line[i] != UInt8(ascii: "\"") { i += 1 }
                    guard i < line.count else { throw VObjectError(message: "an unclosed quote in \(name)") }
                    values.append(String(decoding: line[valueStart..<i], as: UTF8.self))
                    i += 1
                } else {
                    let valueStart = i
                    while i < line.count, ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ",")].contains(line[i]) { i += 1 }
                    values.append(String(decoding: line[valueStart..<i], as: UTF8.self))
                }
            } while i < line.count && line[i] == UInt8(ascii: ",")
            parameters.append((parameter, values.joined(separator: ",")))
        }
        guard i < line.count, line[i] == UInt8(ascii: ":") else { throw VObjectError(message: "\(name) has no value") }
        return VProperty(name: name, parameters: parameters, value: String(decoding: line[(i + 1)...], as: UTF8.self),
                         raw: bytes)
    }

    /// A TEXT value with its escapes undone: `\n` a line break, `\,` `\;` `\\` themselves.
    public static func text(_ value: String) -> String {
        var out = ""
        var escaped = false
        for c in value {
            if escaped {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
