import TickCore

extension Commands {
    static let readmeArgument = Argument(name: "README", help: "The README.md whose sections the page includes")

    /// Hidden, like `__complete`: `make install` runs it to write `tick.1`.
    static let manPage: Command = Command(
        name: "__manpage",
        effect: .read,
        summary: "Print the man page tick.1 (roff), from the command table and the README's sections",
        arguments: [readmeArgument],
        run: runManPage)
}

/// `tick __manpage README.md`.
@Sendable func runManPage(_ invocation: Invocation) throws -> ExitStatus {
    let path = invocation.value(Commands.readmeArgument)!
    let bytes: [UInt8]
    do {
        bytes = try invocation.fileSystem.readFile(Path.absolute(path, from: invocation.context.currentDirectory))
    } catch let error as FileSystemError {
        throw CommandFailure(.usage, "cannot read '\(path)': \(error.reason)")
    }
    invocation.out.write(try ManPage.render(readme: String(decoding: bytes, as: UTF8.self)))
    return .success
}

/// The man page: NAME, SYNOPSIS, DESCRIPTION and COMMANDS from the command table, then the README's
/// sections on the format, dates, refs, environment, files and exit codes, converted to roff.
enum ManPage {
    /// README sections: the man page's section title, and where the part starts and ends (a line
    /// prefix each; the end is not included).
    static let sections: [(title: String, start: String, end: String)] = [
        ("FORMAT", "## The folder and the file format", "## Commands"),
        ("REFS", "A task is named on the command line (REF)", "```console"),
        ("DATES", "**Dates.**", "**What gets written.**"),
        ("ENVIRONMENT", "### Where the task folder is", "### JSON for scripts"),
        ("EXIT STATUS", "## Exit codes", "## Development"),
    ]

    static func render(readme: String) throws -> String {
        var out = ".TH TICK 1 \"\" \"tick \(Tick.version)\" \"User Commands\"\n"
        out += ".SH NAME\ntick \\- \(text(Commands.root.summary))\n"
        out += ".SH SYNOPSIS\n.B tick\n[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR] [\\fIARGUMENTS\\fR]\n"
        out += ".SH DESCRIPTION\n" + paragraphs(Commands.root.discussion)
        out += ".SH OPTIONS\n"
        for option in GlobalOptions.table { out += ".TP\n.B \(text(option.usage))\n\(text(option.help))\n" }
        out += ".SH COMMANDS\n"
        for command in Commands.root.subcommands { out += self.command(command, path: [Commands.root]) }
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for section in sections {
            guard let start = lines.firstIndex(where: { $0.hasPrefix(section.start) }),
                  let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix(section.end) }) else {
                throw CommandFailure(.usage, "the README has no part from '\(section.start)' to '\(section.end)'")
            }
            var part = Array(lines[start..<end])
            if part.first?.hasPrefix("#") == true { part.removeFirst() }
            if section.title == "ENVIRONMENT" {
                // Everything but the configuration, which is FILES.
                let config = part.firstIndex { $0.hasPrefix("### Configuration") }
                let after = part.firstIndex { $0.hasPrefix("### The current date") }
                if let config, let after {
                    out += ".SH FILES\n" + markdown(Array(part[(config + 1)..<after]))
                    part.removeSubrange(config..<after)
                }
            }
            out += ".SH \(section.title)\n" + markdown(part)
        }
        out += ".SH SEE ALSO\n.BR git (1),\n.BR todo-txt (1),\n.BR task (1)\n"
        return out
    }

    static func command(_ command: Command, path: [Command]) -> String {
        let path = path + [command]
        var out = ".SS \(text(ArgumentParser.usageLine(path)))\n\(text(command.summary)).\n"
        if !command.discussion.isEmpty { out += paragraphs(command.discussion) }
        for argument in command.arguments { out += ".TP\n.I \(text(argument.usage))\n\(text(argument.help))\n" }
        for option in command.options { out += ".TP\n.B \(text(option.usage))\n\(text(option.help))\n" }
        for sub in command.subcommands { out += self.command(sub, path: path) }
        return out
    }

    static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { ".PP\n" + self.text(String($0)) + "\n" }.joined()
    }

    /// Markdown (as the README writes it) to roff: paragraphs, lists, tables, code blocks, headings.
    static func markdown(_ lines: [String]) -> String {
        var out = ""
        var inCode = false
        var tableRow = 0
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { out += text(paragraph.joined(separator: " ")) + "\n" }
            paragraph = []
        }
        for line in lines {
            let trimmed = line.trimmedSpaces
            if trimmed.hasPrefix("```") {
                flush()
                out += inCode ? ".fi\n.RE\n" : ".PP\n.RS\n.nf\n"
                inCode.toggle()
                continue
            }
            if inCode { out += code(line) + "\n"; continue }
            if trimmed.hasPrefix("|") {
                flush()
                tableRow += 1
                let cells = trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
                    .map { $0.trimmedSpaces }
                // The header row and the rule under it.
                if tableRow <= 2 { continue }
                out += ".TP\n" + text(cells.first ?? "") + "\n" + text(cells.dropFirst().filter { !$0.isEmpty }.joined(separator: "; ")) + "\n"
                continue
            }
            tableRow = 0
            if trimmed.isEmpty { flush(); out += ".PP\n"; continue }
            if trimmed.hasPrefix("#") {
                flush()
                out += ".SS " + text(String(trimmed.drop { $0 == "#" }).trimmedSpaces) + "\n"
                continue
            }
            if trimmed.hasPrefix("- ") || (trimmed.first?.isNumber == true && trimmed.dropFirst().hasPrefix(". ")) {
                flush()
                out += ".IP \\(bu 2\n"
                paragraph.append(String(trimmed.drop { $0 != " " }.dropFirst()))
                continue
            }
            paragraph.append(trimmed)
        }
        flush()
        if inCode { out += ".fi\n.RE\n" }
        return out
    }

    /// A line of text: Markdown's emphasis, code marks and links taken out, roff escaped.
    static func text(_ markdown: String) -> String {
        var plain = markdown.replacingAll("**", with: "").replacingAll("`", with: "")
        // [text](target) → text
        while let open = plain.indices.first(where: { plain[$0...].hasPrefix("](") }),
              let close = plain[open...].firstIndex(of: ")"),
              let bracket = plain[..<open].lastIndex(of: "[") {
            plain = String(plain[..<bracket]) + String(plain[plain.index(after: bracket)..<open])
                + String(plain[plain.index(after: close)...])
        }
        return code(plain)
    }

    /// Text as roff reads it literally: backslashes escaped, no line starting a request, and
    /// characters outside ASCII as groff names them (a symbol no font has, in words).
    static func code(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\u{2014}": out += "\\(em"
            case "\u{2013}": out += "\\(en"
            case "\u{201C}": out += "\\(lq"
            case "\u{201D}": out += "\\(rq"
            case "\u{2018}": out += "\\(oq"
            case "\u{2019}": out += "\\(cq"
            case "\u{2026}": out += "..."
            case "\u{00B7}": out += "\\(pc"
            case "\u{2192}": out += "\\(->"
            case "\u{2691}": out += "(flag)"
            case "\u{270E}": out += "(notes)"
            case "\u{21BB}": out += "(repeats)"
            case "\u{21B3}": out += "->"
            default:
                if scalar.isASCII { out.unicodeScalars.append(scalar) }
                else if scalar.value <= 0x17F { out += "\\[u" + hex(scalar.value) + "]" }
                else { out += "<U+" + hex(scalar.value) + ">" }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    static func hex(_ n: UInt32) -> String {
        let s = String(n, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmedSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension String {
    /// The text with every `target` replaced.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
