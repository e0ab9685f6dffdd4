import TickFormat

/// How a list's `color` (`ListColor`, FORMAT.md 2) shows on a terminal, without the terminal's
/// codes (those are the command line's, in `tick/Output/Colors.swift`): the nearest colour of a
/// terminal's 16-colour palette for a name, the exact colour for a hex value.
public enum ListDisplayColor: Equatable, Sendable {
    case palette(Palette)
    case exact(red: UInt8, green: UInt8, blue: UInt8)

    /// The colours of a terminal's palette that a list's colour names come nearest to.
    public enum Palette: Equatable, Sendable {
        case red, green, yellow, blue, magenta, gray
    }

    /// The display colour of a list's `color` value; nil for none, or a colour tick does not know.
    public init?(color: String?) {
        guard let color, let value = ListColor(color) else { return nil }
        switch value {
        case .named(let name):
            switch name {
            case .red: self = .palette(.red)
            case .orange, .yellow, .brown: self = .palette(.yellow)
            case .green: self = .palette(.green)
            case .blue: self = .palette(.blue)
            case .purple: self = .palette(.magenta)
            case .gray: self = .palette(.gray)
            }
        case .rgb(let red, let green, let blue): self = .exact(red: red, green: green, blue: blue)
        }
    }
}
