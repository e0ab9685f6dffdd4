/// Renders help text from the command table: `tick --help`, `tick help COMMAND`, `tick COMMAND --help`.
struct HelpRenderer {
    /// Columns to wrap at.
    var width: Int

    /// The left column of a two-column table never grows past this; longer entries put their
    /// help on the next line.
    private let maxLeftColumn = 24

    /// The help for the last command of `path` (the root first).
    func text(for path: [Command]) -> String {
        path.count == 1 ? rootHelp(path[0]) : commandHelp(path)
    }

    private func rootHelp(_ root: Command) -> String {
        var out = "\(root.name) \(Tick.version): \(root.summary)\n"
        section("USAGE", into: &out)
        out += "  " + ArgumentParser.usageLine([root]) + "\n"
        if !root.discussion.isEmpty {
            out += "\n" + paragraphs(root.discussion)
        }
        section("COMMANDS", into: &out)
        out += table(root.subcommands.map { ($0.name, $0.summary) })
        section("OPTIONS", into: &out)
        out += table(GlobalOptions.table.map { ($0.usage, $0.help) })
        section("EXIT STATUS", into: &out)
        out += table(ExitStatus.allCases.map { (String($0.rawValue), $0.meaning) })
        out += "\n" + wrap("Run '\(root.name) help COMMAND' or '\(root.name) COMMAND --help' for a command's "
                           + "arguments and options.", indent: 0)
        return out
    }

    private func commandHelp(_ path: [Command]) -> String {
        let command = path.last!
        let name = ArgumentParser.commandPath(path)
        var out = "\(name): \(command.summary)\n"
        section("USAGE", into: &out)
        out += "  " + ArgumentParser.usageLine(path) + "\n"
        if !command.discussion.isEmpty {
            out += "\n" + paragraphs(command.discussion)
        }
        if !command.arguments.isEmpty {
            section("ARGUMENTS", into: &out)
            out += table(command.arguments.map { ($0.usage, $0.help) })
        }
        if !command.subcommands.isEmpty {
            section("COMMANDS", into: &out)
            out += table(command.subcommands.map { ($0.name, $0.summary) })
        }
        if !command.options.isEmpty {
            section("OPTIONS", into: &out)
            out += table(command.options.map { ($0.usage, $0.help) })
        }
        section("GLOBAL OPTIONS", into: &out)
        out += wrap(GlobalOptions.table.map(\.usage).joined(separator: ", ")
                    + " (see '\(path[0].name) --help')", indent: 2)
        return out
    }

    // MARK: - Layout

    private func section(_ title: String, into out: inout String) {
        out += "\n\(title):\n"
    }

    /// Blank-line separated paragraphs, each wrapped.
    private func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { wrap(String($0), indent: 2) }
            .joined(separator: "\n")
    }

    /// Two columns: a term, and its help wrapped beside it.
    private func table(_ rows: [(String, String)]) -> String {
        let left = min(maxLeftColumn, (rows.map(\.0.count).max() ?? 0) + 2)
        var out = ""
        for (term, help) in rows {
            let lines = wrapLines(help, width: width - 2 - left)
            if term.count + 2 > left {
                out += "  \(term)\n"
                for line in lines { out += String(repeating: " ", count: 2 + left) + line + "\n" }
            } else {
                let pad = String(repeating: " ", count: left - term.count)
                out += "  \(term)\(pad)\(lines.first ?? "")\n"
                for line in lines.dropFirst() { out += String(repeating: " ", count: 2 + left) + line + "\n" }
            }
        }
        return out
    }

    /// `text` wrapped to the width with every line indented.
    private func wrap(_ text: String, indent: Int) -> String {
        wrapLines(text, width: width - indent)
            .map { String(repeating: " ", count: indent) + $0 + "\n" }
            .joined()
    }

    /// Greedy word wrap; a word longer than the width stands alone on its line.
    private func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
