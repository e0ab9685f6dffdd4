/// A list's `color` (FORMAT.md, section 2): a colour name, or `#RGB` / `#RRGGBB`.
///
/// The one place that says which colours exist: validation, `tick check`, help text and terminal
/// colours (TickCore's `ListDisplayColor`) all derive from it. A value it does not accept is shown without colour.
public enum ListColor: Equatable, Sendable {
    case named(Name)
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    public enum Name: String, CaseIterable, Sendable {
        case red, orange, yellow, green, blue, purple, brown, gray
    }

    /// Other spellings of a name.
    static let aliases: [String: Name] = ["grey": .gray]

    /// Reads a value as written (quotes already removed): a name in any letter case, `grey` for
    /// `gray`, or `#` with three or six hex digits. Anything else is nil.
    public init?(_ value: String) {
        let lower = value.lowercased()
        if let name = Name(rawValue: lower) ?? ListColor.aliases[lower] {
            self = .named(name)
            return
        }
        let digits = Array(lower.utf8.dropFirst())
        let isHex = { (c: UInt8) in (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }
        guard lower.hasPrefix("#"), digits.count == 3 || digits.count == 6, digits.allSatisfy(isHex),
              let n = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
        if digits.count == 3 {
            // #rgb is #rrggbb with each digit doubled, as in CSS.
            let r = UInt8((n >> 8) & 0xF), g = UInt8((n >> 4) & 0xF), b = UInt8(n & 0xF)
            self = .rgb(red: r * 17, green: g * 17, blue: b * 17)
        } else {
            self = .rgb(red: UInt8(n >> 16), green: UInt8((n >> 8) & 0xFF), blue: UInt8(n & 0xFF))
        }
    }

    /// What a `color` may be, for help and error messages.
    public static let accepted = Name.allCases.map(\.rawValue).joined(separator: ", ") + " (or grey), #RGB or #RRGGBB"
}
