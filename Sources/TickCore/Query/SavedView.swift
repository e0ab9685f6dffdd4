import TickFormat

// Saved views live in the configuration, not in a Markdown file (every `*.md` file is a list):
//
//   view.NAME = QUERY            the query: the rest of the line, `#` included (no comment)
//   view.NAME.sort = KEYS        as --sort
//   view.NAME.group = GROUP      as --group
//
// A view line tick cannot use is a warning naming the file and line, never a failure.

/// A query kept under a name, with how to sort and group its tasks.
public struct SavedView: Equatable, Sendable {
    public var name: String
    public var query: String
    public var sort: String?
    public var group: String?

    public init(name: String, query: String, sort: String? = nil, group: String? = nil) {
        self.name = name
        self.query = query
        self.sort = sort
        self.group = group
    }

    /// The ways `--group` can group tasks.
    public static let groups = ["list", "section", "due", "tag", "pri", "none"]

    /// Whether `name` can name a view: 1 to 40 lower-case ASCII letters, digits and hyphens, starting
    /// with a letter. (Whether it shadows a command is the command line's question.)
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 40 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Reads a `view.…` line into `settings`: nil when the line is not one, "" when it was read, else
    /// the warning for a line that was ignored.
    static func parse(line raw: Substring, place: String, into settings: inout Settings) -> String? {
        guard let eq = raw.firstIndex(of: "=") else { return nil }
        let key = String(raw[..<eq]).trimmingInvisibleSpace()
        guard key.hasPrefix("view.") else { return nil }
        let value = String(raw[raw.index(after: eq)...]).trimmingInvisibleSpace()
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        let name = parts.count > 1 ? String(parts[1]) : ""
        guard (2...3).contains(parts.count), isValidName(name) else {
            return "\(place): bad view name in '\(key.escapingNonPrinting)' (letters, digits and hyphens, starting "
                + "with a letter); ignored"
        }
        let part = parts.count == 3 ? String(parts[2]) : ""
        guard ["", "sort", "group"].contains(part) else {
            return "\(place): unknown key '\(key.escapingNonPrinting)' (view.\(name), view.\(name).sort or view.\(name).group); ignored"
        }
        guard !value.isEmpty else { return "\(place): empty value for \(key); ignored" }
        switch part {
        case "sort":
            do { _ = try SortOrder(parsing: value) } catch {
                return "\(place): bad value '\(value.escapingNonPrinting)' for \(key) (\(error.description)); ignored"
            }
        case "group":
            guard groups.contains(value) else {
                return "\(place): bad value '\(value.escapingNonPrinting)' for \(key) (expected \(groups.joined(separator: ", "))); ignored"
            }
        default: break
        }
        var view = settings.views.first { $0.name == name } ?? SavedView(name: name, query: "")
        switch part {
        case "sort": view.sort = value
        case "group": view.group = value
        default: view.query = value
        }
        if let k = settings.views.firstIndex(where: { $0.name == name }) { settings.views[k] = view } else { settings.views.append(view) }
        settings.origins[key] = place
        return ""
    }

    /// The configuration's lines for this view.
    var lines: [String] {
        var lines = ["view.\(name) = \(query)"]
        if let sort { lines.append("view.\(name).sort = \(sort)") }
        if let group { lines.append("view.\(name).group = \(group)") }
        return lines
    }

    /// `bytes` (a configuration file) with every line of view `name` taken out and, when `view` is
    /// given, its lines put where the first of them was (else at the end). Other lines keep every byte.
    public static func rewrite(_ bytes: [UInt8], name: String, with view: SavedView?) -> [UInt8] {
        var out: [UInt8] = []
        var placed = false
        var start = 0
        func isViewLine(_ line: ArraySlice<UInt8>) -> Bool {
            let text = String(decoding: line, as: UTF8.self)
            guard let eq = text.firstIndex(of: "=") else { return false }
            let key = String(text[..<eq]).trimmingInvisibleSpace()
            return key == "view.\(name)" || key == "view.\(name).sort" || key == "view.\(name).group"
        }
        func put() {
            guard let view, !placed else { return }
            placed = true
            for line in view.lines { out += Array(line.utf8) + [0x0A] }
        }
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            let next = min(end + 1, bytes.count)
            if isViewLine(line) {
                put()
            } else {
                out += bytes[start..<next]
            }
            start = next
        }
        if view != nil, !placed, let last = out.last, last != 0x0A { out.append(0x0A) }
        put()
        return out
    }
}
