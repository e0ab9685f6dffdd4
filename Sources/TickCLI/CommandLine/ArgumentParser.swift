import TickCore

/// The options every command accepts, before or after the command word.
struct GlobalOptions: Sendable {
    var dir: String?
    var json = false
    /// `--color`, nil when not given.
    var color: ColorChoice?
    /// `--now` as written.
    var now: String?
    /// The system clock as read while parsing validated `--now` (a date word reads it), so that the
    /// run reads it no second time; nil when it was not read.
    var clockReading: Now?
    var quiet = false
    var help = false
    var version = false

    /// A global option: its declaration, and the field its value goes to.
    struct Key: Sendable {
        var option: Option
        var set: @Sendable (inout GlobalOptions, String) -> Void

        init(_ key: some OptionKey, set: @escaping @Sendable (inout GlobalOptions, String) -> Void) {
            option = key.option
            self.set = set
        }
    }

    static let keys: [Key] = [
        Key(ValueOption("dir", valueName: "DIR",
                        help: "Use the task folder DIR (default: $TICK_DIR, else the nearest folder above holding "
                            + ".tick/, else ${XDG_DATA_HOME:-~/.local/share}/tick)")) { $0.dir = $1 },
        Key(Flag("json", help: "Print JSON for programs instead of text for people")) { options, _ in options.json = true },
        Key(ValueOption("color", valueName: "WHEN", help: "Colour the output: auto, always or never (default: auto)",
                        choices: ColorChoice.allCases.map(\.rawValue))) { $0.color = ColorChoice(rawValue: $1) ?? .auto },
        Key(ValueOption("now", valueName: "DATE[THH:MM]",
                        help: "Take this as the current date and time (default: $TICK_NOW, else the clock)")) { $0.now = $1 },
        Key(Flag("quiet", help: "Leave out the lines that only report what a command did or found (Added, "
                     + "Completed, No change, Undid, Checked ...); answers, JSON, warnings and errors still print")) {
            options, _ in options.quiet = true
        },
        Key(Flag("help", short: "h", help: "Show help")) { options, _ in options.help = true },
        Key(Flag("version", help: "Print the version")) { options, _ in options.version = true },
    ]

    /// The global options as help lists them.
    static var table: [Option] { keys.map(\.option) }

    /// The names of the global options given (an option that takes a value is given once).
    private(set) var given: Set<String> = []

    /// Records a global option.
    mutating func set(_ key: Key, value: String) {
        given.insert(key.option.name)
        key.set(&self, value)
    }
}

/// The values given to a command, looked up by argument or option name.
struct ParsedArguments: Sendable {
    fileprivate(set) var positionals: [String: [String]] = [:]
    fileprivate(set) var options: [String: [String]] = [:]

    /// The values of a repeating argument, or every value given to a repeated option.
    func values(_ name: String) -> [String] { positionals[name] ?? options[name] ?? [] }

    /// The value of an argument, or the last value given to an option.
    func value(_ name: String) -> String? { values(name).last }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { options[name] != nil }
}

/// What the command line asks for.
enum ParsedCommandLine {
    /// Run `path.last` (the root command first in `path`).
    case run(path: [Command], arguments: ParsedArguments, global: GlobalOptions)
    case help(path: [Command])
    case version
}

/// A small parser for tick's command line, driven by the command table.
///
/// Long options as `--name value` or `--name=value`; flags; `-h`-style short options from the
/// table; `--` ends options; a lone `-`, a word of a dash and a digit (`-1d`), and a word with a space
/// before any `=` (`'-milk #work'`), is a positional. Global options may stand anywhere;
/// a command's own options after the command word. `--help` and `--version` win over every
/// error found after the command word has been resolved.
enum ArgumentParser {
    static func parse(_ words: [String], root: Command, clock: () -> Now) throws -> ParsedCommandLine {
        var path = [root]
        var command = root
        var global = GlobalOptions()
        var parsed = ParsedArguments()
        var positionals: [String] = []
        var deferredError: UsageError?
        var optionsEnded = false
        var i = 0

        func remember(_ error: UsageError) { if deferredError == nil { deferredError = error } }

        while i < words.count {
            let word = words[i]
            i += 1
            // No option starts with a digit: `-1d` (a date) and `-5` are words, not options. Nor does
            // one hold a space before any `=`: a query in one argument (`'-milk #work'`) is a word.
            if optionsEnded || word == "-" || !word.hasPrefix("-") || word.dropFirst().first?.isASCIIDigit == true
                || word.prefix(while: { $0 != "=" }).contains(where: \.isWhitespace) {
                if positionals.isEmpty, !command.subcommands.isEmpty {
                    if let sub = command.subcommand(named: word) {
                        command = sub
                        path.append(sub)
                        continue
                    }
                    if command.run == nil || command.arguments.isEmpty {
                        // A misspelt option before it (`--dri DIR today`) left its value here: name the option.
                        if let deferredError { throw deferredError }
                        let names = command.subcommands.map(\.name)
                        let suggestion = Suggestion.synonyms[word].flatMap { names.contains($0) ? $0 : nil }
                            ?? Suggestion.closest(to: word, among: names)
                        if command.subcommandsAreFormats {
                            throw UsageError.unknownFormat(word, in: commandPath(path), formats: names, suggestion: suggestion)
                        }
                        throw UsageError.unknownCommand(word, in: commandPath(path), suggestion: suggestion)
                    }
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }

            let (name, inline, found) = lookUp(word, in: command)
            guard let (option, globalKey) = found else {
                let known = (command.options + GlobalOptions.table).map(\.name)
                let spelled = word.hasPrefix("--") ? word.split(separator: "=", maxSplits: 1)[0] : Substring(word)
                remember(.unknownOption(String(spelled),
                                      suggestion: Suggestion.closest(to: name, among: known).map { "--" + $0 }))
                continue
            }

            var value = ""
            if let valueName = option.valueName {
                if let inline {
                    value = inline
                } else if i < words.count {
                    value = words[i]
                    i += 1
                } else {
                    remember(.missingValue(option: option.name, valueName: valueName))
                    continue
                }
                if !option.choices.isEmpty, !option.choices.contains(value) {
                    remember(.invalidChoice(option: option.name, value: value, choices: option.choices,
                                          suggestion: Suggestion.closest(to: value, among: option.choices)))
                    continue
                }
            } else if inline != nil {
                remember(.unexpectedValue(option: option.name))
                continue
            }
            // An option that takes a value takes one: a second one is a mistake, not an override.
            if !option.isFlag, globalKey != nil ? global.given.contains(option.name) : parsed.options[option.name] != nil {
                remember(.repeatedOption(option.name))
                continue
            }
            if let globalKey {
                global.set(globalKey, value: value)
            } else {
                parsed.options[option.name, default: []].append(value)
            }
        }

        if global.help { return .help(path: path) }
        if global.version { return .version }
        if let deferredError { throw deferredError }
        if let now = global.now {
            var reading: Now?
            _ = try Now(option: now, clock: {
                let now = reading ?? clock()
                reading = now
                return now
            })
            global.clockReading = reading
        }
        guard command.run != nil else {
            throw UsageError.missingSubcommand(in: commandPath(path), choices: command.subcommands.map(\.name))
        }
        parsed.positionals = try assign(positionals, to: command.arguments, usage: usageLine(path))
        return .run(path: path, arguments: parsed, global: global)
    }

    /// The option a word names, the command's own before the global ones: its name as written,
    /// a value given with `=`, and the option with its global key when it is global (nil when unknown).
    static func lookUp(_ word: String, in command: Command)
        -> (name: String, inline: String?, found: (Option, GlobalOptions.Key?)?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            var name = String(body)
            var inline: String?
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                inline = String(body[body.index(after: eq)...])
            }
            if let own = command.option(named: name) { return (name, inline, (own, nil)) }
            return (name, inline, GlobalOptions.keys.first { $0.option.name == name }.map { ($0.option, $0) })
        }
        let name = String(word.dropFirst())
        guard name.count == 1, let letter = name.first else { return (name, nil, nil) }
        if let own = command.option(short: letter) { return (name, nil, (own, nil)) }
        return (name, nil, GlobalOptions.keys.first { $0.option.short == letter }.map { ($0.option, $0) })
    }

    /// Hands positional words to the arguments in order: a repeating argument takes all it can
    /// while leaving one word for each required argument after it.
    static func assign(_ words: [String], to arguments: [Argument], usage: String) throws -> [String: [String]] {
        // Too few words: the first argument that filling from the left leaves empty is missing.
        var needed = 0
        for argument in arguments where argument.arity == .required || argument.arity == .oneOrMore {
            needed += 1
            if needed > words.count { throw UsageError.missingArgument(argument.name, usage: usage) }
        }
        var result: [String: [String]] = [:]
        var next = 0
        for (index, argument) in arguments.enumerated() {
            let requiredAfter = arguments[(index + 1)...].filter {
                $0.arity == .required || $0.arity == .oneOrMore
            }.count
            let available = max(0, words.count - next - requiredAfter)
            let take: Int
            switch argument.arity {
            case .required, .oneOrMore:
                guard available >= 1 else { throw UsageError.missingArgument(argument.name, usage: usage) }
                take = argument.arity == .required ? 1 : available
            case .optional: take = min(1, available)
            case .zeroOrMore: take = available
            }
            result[argument.name] = Array(words[next..<(next + take)])
            next += take
        }
        if next < words.count { throw UsageError.unexpectedArgument(words[next], usage: usage) }
        return result
    }

    /// `tick list new`.
    static func commandPath(_ path: [Command]) -> String { path.map(\.name).joined(separator: " ") }

    /// `tick check [FILE...] [OPTIONS]`.
    static func usageLine(_ path: [Command]) -> String {
        let command = path.last!
        var parts = [commandPath(path)]
        if command.run == nil {
            parts.append("COMMAND")
        } else {
            if !command.subcommands.isEmpty { parts.append("[COMMAND]") }
            parts += command.arguments.map(\.usage)
        }
        parts.append("[OPTIONS]")
        return parts.joined(separator: " ")
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
