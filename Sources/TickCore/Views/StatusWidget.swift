import TickFormat

// What status bars and widgets show: `tick status --format` and `tick status --large`.

// MARK: - Urgency order

extension Library {
    /// The `count` most urgent open tasks (subtasks included) at `now`: the highest pick weight first
    /// (`weights`: the configured ones, else `PickWeights.standard`), ties in the views' order (due,
    /// priority, list, line). One pass over the records, keeping only `count` of them.
    public func mostUrgent(_ count: Int, now: Now, list: Int? = nil, weights: PickWeights = .standard) -> [TaskID] {
        guard count > 0 else { return [] }
        var best: [(weight: Int, key: ViewOrderKey, id: TaskID)] = []
        func before(_ a: (weight: Int, key: ViewOrderKey, id: TaskID), _ b: (weight: Int, key: ViewOrderKey, id: TaskID)) -> Bool {
            a.weight != b.weight ? a.weight > b.weight : a.key.precedes(b.key)
        }
        for (l, taskList) in lists.enumerated() where list == nil || l == list {
            let segment = taskList.segment
            for i in 0..<segment.taskCount {
                let r = segment.hot(i)
                guard !r.done else { continue }
                let weight = weights.weight(due: r.due, priority: Priority(rawValue: Int(r.priority)) ?? .none,
                                            flagged: r.flagged, at: now)
                let entry = (weight: weight, key: ViewOrderKey(r, list: l, now: now), id: TaskID(list: l, index: i))
                if best.count == count, let last = best.last, !before(entry, last) { continue }
                let at = best.firstIndex { before(entry, $0) } ?? best.count
                best.insert(entry, at: at)
                if best.count > count { best.removeLast() }
            }
        }
        return best.map(\.id)
    }
}

// MARK: - --format

/// A `tick status --format` template: text with placeholders `{overdue}`, `{today}`, `{flagged}`,
/// `{open}` and `{next}`, and `{NAME?TEXT}`, which shows TEXT (itself a template) only when NAME is
/// not zero (for `next`: when there is an open task). `{{` is a literal brace, and so is `}}` outside
/// `{NAME?…}`, inside which a `}` always closes.
public struct StatusFormat: Equatable, Sendable {
    public enum Field: String, CaseIterable, Sendable {
        case overdue, today, flagged, open, next
    }

    enum Part: Equatable, Sendable {
        case text(String)
        case field(Field)
        case when(Field, [Part])
    }

    let parts: [Part]

    /// Why a template was refused.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Whether the template names `{next}` anywhere (only then is the most urgent task looked for).
    public var needsNext: Bool {
        func uses(_ parts: [Part]) -> Bool {
            parts.contains {
                switch $0 {
                case .text: return false
                case .field(let f): return f == .next
                case .when(let f, let inner): return f == .next || uses(inner)
                }
            }
        }
        return uses(parts)
    }

    public init(parsing template: String) throws(Problem) {
        var scalars = Array(template.unicodeScalars)[...]
        parts = try StatusFormat.parse(&scalars, nested: false)
    }

    private static func parse(_ input: inout ArraySlice<Unicode.Scalar>, nested: Bool) throws(Problem) -> [Part] {
        var parts: [Part] = []
        var text = ""
        func flush() {
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
        }
        while let c = input.first {
            input = input.dropFirst()
            if c == "{" {
                if input.first == "{" {
                    input = input.dropFirst()
                    text += "{"
                    continue
                }
                var name = ""
                while let n = input.first, n != "}", n != "?", n != "{" {
                    name.unicodeScalars.append(n)
                    input = input.dropFirst()
                }
                guard let field = Field(rawValue: name) else {
                    throw Problem(description: name.isEmpty
                        ? "'{' without a placeholder name (write '{{' for a brace)" : "unknown placeholder '{\(name)}' (use "
                            + Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") + ")")
                }
                flush()
                switch input.first {
                case "}":
                    input = input.dropFirst()
                    parts.append(.field(field))
                case "?":
                    input = input.dropFirst()
                    let inner = try parse(&input, nested: true)
                    parts.append(.when(field, inner))
                default:
                    throw Problem(description: "placeholder '{\(name)' is not closed with '}'")
                }
            } else if c == "}" {
                // Inside `{NAME?…}` a `}` always closes, so that `{open?{next?{next}}}` nests.
                if !nested, input.first == "}" {
                    input = input.dropFirst()
                    text += "}"
                    continue
                }
                guard nested else { throw Problem(description: "'}' without '{' (write '}}' for a brace)") }
                flush()
                return parts
            } else {
                text.unicodeScalars.append(c)
            }
        }
        guard !nested else { throw Problem(description: "'{NAME?' is not closed with '}'") }
        flush()
        return parts
    }

    /// The template with `counts` and `next` (the most urgent open task's title, or nil) filled in.
    public func render(_ counts: StatusCounts, next: String?) -> String {
        func value(_ field: Field) -> String {
            switch field {
            case .overdue: return String(counts.overdue)
            case .today: return String(counts.today)
            case .flagged: return String(counts.flagged)
            case .open: return String(counts.open)
            case .next: return next ?? ""
            }
        }
        func shown(_ field: Field) -> Bool {
            switch field {
            case .overdue: return counts.overdue != 0
            case .today: return counts.today != 0
            case .flagged: return counts.flagged != 0
            case .open: return counts.open != 0
            case .next: return next != nil
            }
        }
        func render(_ parts: [Part]) -> String {
            var out = ""
            for part in parts {
                switch part {
                case .text(let text): out += text
                case .field(let field): out += value(field)
                case .when(let field, let inner): if shown(field) { out += render(inner) }
                }
            }
            return out
        }
        return render(parts)
    }
}
