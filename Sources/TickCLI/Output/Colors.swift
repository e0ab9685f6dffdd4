import TickCore

// Every terminal colour code tick writes, and only here: the styles of rows and messages, a list's
// own colour, and the reverse video of a search hit. Whether to colour at all is `Terminal`'s.

/// The terminal's own 16-colour palette (so light and dark themes both read well), as SGR codes.
enum Style: String, Sendable {
    case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    case gray = "90"

    /// `text` wrapped in this style when `enabled`, else `text` unchanged.
    func apply(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// Writes ANSI styles into a row's bytes, or nothing at all when colour is off.
struct Styler: Sendable {
    let enabled: Bool

    func begin(_ style: Style, _ b: inout [UInt8]) {
        guard enabled else { return }
        b.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        b.append(contentsOf: style.rawValue.utf8)
        b.append(UInt8(ascii: "m"))
    }

    func end(_ b: inout [UInt8]) {
        guard enabled else { return }
        b.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")])
    }

    /// `text` in `style`.
    func wrap(_ text: StaticString, _ style: Style, _ b: inout [UInt8]) {
        begin(style, &b)
        b.append(text)
        end(&b)
    }
}

// MARK: - List colours

extension Terminal {
    /// A list's name in its own colour (`ListDisplayColor`): a named colour from the 16-colour
    /// palette, a hex colour only where the terminal announces true colour; an unknown colour
    /// shows none.
    func listColored(_ text: String, color: String?) -> String {
        guard self.color, let code = Self.code(ListDisplayColor(color: color), trueColor: trueColor) else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// The SGR parameters of a list's colour; nil for none, or for an exact colour without true colour.
    static func code(_ color: ListDisplayColor?, trueColor: Bool) -> String? {
        switch color {
        case nil: return nil
        case .palette(let palette)?:
            let style: Style
            switch palette {
            case .red: style = .red
            case .green: style = .green
            case .yellow: style = .yellow
            case .blue: style = .blue
            case .magenta: style = .magenta
            case .gray: style = .gray
            }
            return style.rawValue
        case .exact(let r, let g, let b)?: return trueColor ? "38;2;\(r);\(g);\(b)" : nil
        }
    }
}

// MARK: - Search hits

/// `text` with the character ranges shown in reverse video (turned off alone, so that a hit inside
/// a styled title keeps the title's style after it).
func highlighted(_ text: String, _ ranges: [Range<Int>], enabled: Bool) -> String {
    guard enabled, !ranges.isEmpty else { return text }
    let characters = Array(text)
    var out = ""
    var at = 0
    for range in ranges {
        out += String(characters[at..<range.lowerBound])
        out += "\u{1B}[7m" + String(characters[range]) + "\u{1B}[27m"
        at = range.upperBound
    }
    return out + String(characters[at...])
}
