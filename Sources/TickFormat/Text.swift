// Unicode rules for text that tick takes from the user and shows: what counts as invisible
// space, how a message shows characters that do not print, and how wide text is on a terminal.

/// Unicode scalars that show nothing: every White_Space character (spaces, tabs, line breaks,
/// U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F, U+205F, U+3000), the zero-width
/// characters (U+200B–200D, U+2060, U+FEFF), the Mongolian vowel separator U+180E, the invisible
/// operators U+2061–2064, the left-to-right and right-to-left marks, and the Hangul fillers.
public func isInvisibleSpace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isWhitespace { return true }
    switch scalar.value {
    case 0x200B...0x200F, 0x2060...0x2064, 0xFEFF, 0x180E, 0x115F, 0x1160, 0x3164, 0xFFA0: return true
    default: return false
    }
}

extension String {
    /// Without invisible space (`isInvisibleSpace`) at either end.
    public func trimmingInvisibleSpace() -> String {
        // A printable ASCII character at both ends is no space: nothing to trim.
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isInvisibleSpace($0) }),
              let last = scalars.lastIndex(where: { !isInvisibleSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// The text with every character that does not print escaped as `\u{…}` (`\t`, `\n`, `\r` for
    /// those three): controls (U+0085 among them), format characters such as bidirectional
    /// overrides and zero-width characters, line and paragraph separators, spaces other than
    /// U+0020, and code points that are unassigned, private or surrogates. For one-line messages.
    public var escapingNonPrinting: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate:
                    out += escaped(scalar)
                case .spaceSeparator where scalar != " ":
                    out += escaped(scalar)
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// `\u{…}` with at least two upper-case hex digits, as Swift writes it (`\u{01}`, `\u{202E}`).
private func escaped(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
}

// MARK: - Terminal width

/// Columns `text` takes on a terminal: wide (East Asian) and emoji characters two, combining
/// marks, controls and invisible format characters none, everything else one. ANSI colour
/// sequences count nothing. The one width rule: list symbols and the rows `tick` prints both use it.
public func terminalWidth(_ text: String) -> Int {
    // Printable ASCII alone, the common case: a column a byte.
    let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
    }
    if let ascii, let ascii { return ascii }
    var width = 0
    var inEscape = false
    for character in text {
        if inEscape {
            if character == "m" { inEscape = false }
            continue
        }
        if character == "\u{1B}" {
            inEscape = true
            continue
        }
        width += terminalWidth(of: character)
    }
    return width
}

/// Columns one character (a grapheme cluster) takes on a terminal (see `terminalWidth(_:)`).
public func terminalWidth(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let scalar = scalars.first else { return 0 }
    if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
    if scalar.value < 0xA0 { return 0 }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    // An emoji (alone, with a variation selector, a skin tone or joined into one) is two columns;
    // a text-style selector (U+FE0E) keeps it at one.
    if scalars.contains(where: { $0.value == 0xFE0E }) { return 1 }
    if properties.isEmojiPresentation || scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    if (0x1F1E6...0x1F1FF).contains(scalar.value) { return 2 }  // a regional-indicator flag
    switch scalar.value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
         0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
         0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
         0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}
