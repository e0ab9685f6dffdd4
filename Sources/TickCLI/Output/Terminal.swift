import TickCore

/// `--color auto|always|never`.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// What the output can do: colour, and how wide a line may be.
struct Terminal: Sendable {
    /// Whether to write ANSI colour codes.
    var color: Bool
    /// Whether `COLORTERM` announces 24-bit colour (for a list's own `#RRGGBB`).
    var trueColor: Bool
    /// Columns to fit rows into, or nil for no limit (output to a pipe or a file).
    var width: Int?

    /// The colour policy: `--color always` and `never` win; `auto` colours only when standard
    /// output is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
    static func colorEnabled(choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }

    /// The width to fit: the terminal's when standard output is one, else `COLUMNS` if set, else none.
    static func width(isTerminal: Bool, columns terminalColumns: Int?, environment: [String: String]) -> Int? {
        if isTerminal, let columns = terminalColumns { return columns }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return isTerminal ? 80 : nil
    }

    /// What standard output can do, from the run's terminal `facts`.
    static func detect(choice: ColorChoice, environment: [String: String], facts: TerminalFacts) -> Terminal {
        let isTerminal = facts.output
        let colorTerm = environment["COLORTERM"] ?? ""
        return Terminal(
            color: colorEnabled(choice: choice, isTerminal: isTerminal, environment: environment),
            trueColor: colorTerm == "truecolor" || colorTerm == "24bit",
            width: width(isTerminal: isTerminal, columns: facts.columns, environment: environment))
    }
}
