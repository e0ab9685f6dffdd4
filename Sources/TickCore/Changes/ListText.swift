import TickFormat

// The text of list files that tick writes: a new list's file name and first lines, a renamed
// heading, and front matter keys set or removed in place. The edits themselves are TickFormat's
// document edits; this file holds the naming rules and turns edit errors into `MutationError`s.

/// Rules for list names and the files they name.
public enum ListNaming {
    /// The widest symbol, in terminal columns (FORMAT.md, section 2).
    public static let maxSymbolWidth = Document.maxSymbolWidth

    /// The name, trimmed of invisible space (`isInvisibleSpace`), if it can name a list: not
    /// empty, no `/`, no `..`, no leading dot, and nothing that hides or reorders text: no
    /// control characters (U+0085 among them), line or paragraph separators (U+2028, U+2029),
    /// bidirectional embeddings, overrides or isolates (U+202A–202E, U+2066–2069), zero-width
    /// spaces (U+200B, U+2060, U+FEFF, U+180E), and no zero-width joiner or non-joiner (U+200D,
    /// U+200C) except between two visible characters, where emoji sequences and some scripts need
    /// them. The one validator for names: `fileName(for:)` builds on it.
    public static func validated(_ name: String) throws(MutationError) -> String {
        let trimmed = name.trimmingInvisibleSpace()
        func refuse(_ reason: String) -> MutationError { .badListName(name.escapingNonPrinting, reason: reason) }
        guard !trimmed.isEmpty else { throw refuse("the name is empty") }
        if trimmed.contains("/") { throw refuse("a name cannot hold '/'") }
        if trimmed.contains("..") { throw refuse("a name cannot hold '..'") }
        if trimmed.hasPrefix(".") { throw refuse("a name cannot start with '.'") }
        let scalars = Array(trimmed.unicodeScalars)
        for (k, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x2028, 0x2029:
                throw refuse("a name cannot hold a line or paragraph separator")
            case 0x202A...0x202E, 0x2066...0x2069:
                throw refuse("a name cannot hold bidirectional controls")
            case 0x200B, 0x2060, 0xFEFF, 0x180E:
                throw refuse("a name cannot hold zero-width characters")
            case 0x200C, 0x200D:
                let joins = k > 0 && k + 1 < scalars.count && !isInvisibleSpace(scalars[k - 1]) && !isInvisibleSpace(scalars[k + 1])
                if !joins { throw refuse("a name cannot hold zero-width characters") }
            default:
                if scalar.properties.generalCategory == .control { throw refuse("a name cannot hold control characters") }
            }
        }
        return trimmed
    }

    /// The file name of a list named `name`, safe on every file system a folder may be synced to:
    /// lower case; each run of spaces (any invisible space) and of the characters Windows forbids
    /// (`: * ? " < > | \`) one hyphen; no leading or trailing hyphen, dot or space; a name that
    /// ends in `.md` does not get a second one; `İ` becomes `i` (not `i` and a combining dot);
    /// a name Windows reserves (`con`, `nul`, `com1`, …) gets `-list`; letters of every script stay
    /// as they are. `Work Stuff` → `work-stuff.md`, `Q3: Plan?` → `q3-plan.md`.
    public static func fileName(for name: String) throws(MutationError) -> String {
        let valid = try validated(name)
        var out = ""
        var separator = false
        for character in valid {
            let isSeparator = character.unicodeScalars.allSatisfy { isInvisibleSpace($0) || forbiddenInFileNames.contains($0) }
            if isSeparator {
                separator = true
                continue
            }
            if separator, !out.isEmpty { out += "-" }
            separator = false
            out += character.lowercased()
        }
        out = withoutDotAboveI(out)
        if out.hasSuffix(".md") { out.removeLast(3) }
        while let last = out.last, last == "." || last == "-" || last == " " { out.removeLast() }
        while let first = out.first, first == "." || first == "-" { out.removeFirst() }
        guard !out.isEmpty else {
            throw .badListName(name.escapingNonPrinting, reason: "it leaves no letters for a file name")
        }
        let base = out.split(separator: ".").first.map(String.init) ?? out
        if reservedOnWindows.contains(base) { out = base + "-list" + out.dropFirst(base.count) }
        return out + ".md"
    }

    /// `text` without a combining dot above (U+0307) right after an `i`: `İ` lower-cases to `i` and
    /// that dot, and a file name wants the plain `i` (also for an `I` written with a separate dot).
    private static func withoutDotAboveI(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar? = nil
        for scalar in text.unicodeScalars {
            if scalar == "\u{307}", previous == "i" { continue }
            scalars.append(scalar)
            previous = scalar
        }
        return String(scalars)
    }

    /// The characters Windows does not allow in a file name (`/` is refused in names already).
    private static let forbiddenInFileNames: Set<Unicode.Scalar> = [":", "*", "?", "\"", "<", ">", "|", "\\", "/"]

    private static let reservedOnWindows: Set<String> = Set(["con", "prn", "aux", "nul"]
        + (1...9).map { "com\($0)" } + (1...9).map { "lpt\($0)" })

    /// The order of lists by name: folded (lower case, without accents, `Über` next to `U`), with
    /// the exact bytes to break ties.
    public static func sortKey(_ name: String) -> ListSortKey {
        ListSortKey(folded: Folding.fold(name), exact: Array(name.utf8))
    }

    /// What a `color` may be, for help and error messages.
    public static var acceptedColors: String { ListColor.accepted }

    /// A `--color` value as a front-matter field: nil (remove the key) when blank, else checked
    /// (`validatedColor`) without the invisible space at either end.
    public static func colorField(_ value: String) throws(MutationError) -> String? {
        let trimmed = value.trimmingInvisibleSpace()
        return trimmed.isEmpty ? nil : try validatedColor(trimmed)
    }

    /// Checks a `color` value (`ListColor`); returns it as written.
    public static func validatedColor(_ value: String) throws(MutationError) -> String {
        guard ListColor(value) != nil else {
            throw .badValue("invalid colour '\(value.escapingNonPrinting)': expected \(ListColor.accepted)")
        }
        return value
    }

    /// Checks a `symbol` value: one line without control characters, at most 8 terminal columns.
    public static func validatedSymbol(_ value: String) throws(MutationError) -> String {
        let trimmed = value.trimmingInvisibleSpace()
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            throw .badValue("invalid symbol '\(value.escapingNonPrinting)': no control characters or line breaks")
        }
        guard terminalWidth(trimmed) <= maxSymbolWidth else {
            throw .badValue("invalid symbol '\(trimmed.escapingNonPrinting)': it takes \(terminalWidth(trimmed)) columns, at most \(maxSymbolWidth)")
        }
        return trimmed
    }
}

/// Where a list goes when lists are sorted by name (`ListNaming.sortKey(_:)`).
public struct ListSortKey: Comparable, Sendable {
    var folded: [UInt8]
    var exact: [UInt8]

    public static func < (a: ListSortKey, b: ListSortKey) -> Bool {
        a.folded != b.folded ? a.folded.lexicographicallyPrecedes(b.folded) : a.exact.lexicographicallyPrecedes(b.exact)
    }
}

/// The bytes of list files: a new list, a new name, new front matter (TickFormat's list edits,
/// with their errors as `MutationError`s).
public enum ListText {
    /// A new list: front matter when a symbol or colour is given, then `# name`.
    public static func new(name: String, fields: [(key: String, value: String)]) throws(MutationError) -> [UInt8] {
        do {
            return try Document.newList(name: name, fields: fields).serialize()
        } catch {
            throw .badListName(name.escapingNonPrinting, reason: error.message)
        }
    }

    /// `bytes` with the list's level-1 heading renamed to `name` (a heading added at the top, after
    /// any front matter, when it has none). Every other byte stays.
    public static func renamed(_ bytes: [UInt8], to name: String) throws(MutationError) -> [UInt8] {
        do {
            return try Document(bytes: bytes).renamingList(to: name).document.serialize()
        } catch {
            throw .badListName(name.escapingNonPrinting, reason: error.message)
        }
    }

    /// `bytes` with front matter keys set (a nil value removes the key); see
    /// `Document.settingFrontMatter(_:)`.
    public static func settingFields(_ bytes: [UInt8], _ fields: [(key: String, value: String?)]) throws(MutationError) -> [UInt8] {
        do {
            return try Document(bytes: bytes).settingFrontMatter(fields).document.serialize()
        } catch {
            throw .badValue(error.message)
        }
    }
}
