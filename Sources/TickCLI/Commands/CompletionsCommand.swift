import TickCore

extension Commands {
    static let shellArgument = Argument(name: "SHELL", help: "bash, zsh or fish")

    static let completions: Command = Command(
        name: "completions",
        effect: .read,
        summary: "Print a Tab-completion script for bash, zsh or fish",
        discussion: "The script completes commands, options, option values (--color auto|always|never, "
            + "priorities, date words, sort orders), list names, refs and section names. It asks tick for the "
            + "candidates (tick __complete WORDS..., which walks the same command table as the parser and "
            + "--help, and reads the lists through the cache, as a view does).\n\n"
            + "Load it for this shell with: source <(tick completions bash) (zsh: the same; fish: tick "
            + "completions fish | source). make install puts it where bash-completion, zsh and fish look.",
        arguments: [shellArgument],
        run: runCompletions)

    static let completeWordsArgument = Argument(name: "WORDS", help: "The words after tick; the last is the one to complete",
                                                arity: .zeroOrMore)

    /// Hidden: not in the root's table, so neither in help nor in completions; the scripts call it.
    static let complete: Command = Command(
        name: "__complete",
        effect: .read,
        summary: "Print the completions of the last word, one a line, with a tab and a description",
        arguments: [completeWordsArgument],
        run: runComplete)
}

extension Commands {
    /// The command table with the hidden commands, for the parser alone.
    static let rootWithHidden: Command = {
        var root = Commands.root
        root.subcommands += [complete, manPage]
        return root
    }()
}

/// `tick completions bash|zsh|fish`.
@Sendable func runCompletions(_ invocation: Invocation) throws -> ExitStatus {
    let shell = invocation.value(Commands.shellArgument)!
    guard let script = CompletionScripts.script(for: shell) else {
        throw UsageError.invalidInput("unknown shell '\(Configuration.shown(shell))': expected bash, zsh or fish")
    }
    invocation.out.write(script)
    return .success
}

/// `tick __complete WORDS...`.
@Sendable func runComplete(_ invocation: Invocation) throws -> ExitStatus {
    var words = invocation.values(Commands.completeWordsArgument)
    let current = words.popLast() ?? ""
    // A --dir typed on the command line names the folder whose lists and refs complete.
    var invocation = invocation
    if let i = words.firstIndex(of: "--dir"), i + 1 < words.count { invocation.global.dir = words[i + 1] }
    if let word = words.first(where: { $0.hasPrefix("--dir=") }) { invocation.global.dir = String(word.dropFirst(6)) }
    for (word, help) in Completion.candidates(words: words, current: current, invocation: invocation) {
        invocation.out.line(help.isEmpty ? word : word + "\t" + help)
    }
    return .success
}

/// What completes a word: walks the command table over the words typed so far.
enum Completion {
    /// What an argument or option value takes.
    enum Kind { case none, files, lists, refs, doneRefs, sections, dates, words([String]), commands, keys, views }

    static let dateWords = ["today", "tomorrow", "tonight", "yesterday", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
                            "next week", "next month", "eow", "eom", "eod", "+1d", "+1w", "+1m", "none"]

    /// The keys `--sort` takes (README "Queries"), each ascending and, with `-`, descending.
    static let sortKeys = SortOrder.Field.allCases.flatMap { [$0.rawValue, "-" + $0.rawValue] }

    /// The kind of value an option with this value name, or an argument, takes.
    static func kind(valueName: String, option: Option?, command: Command, path: [Command] = []) -> Kind {
        if let option, !option.choices.isEmpty { return .words(option.choices) }
        // `tick view NAME` and `tick view rm NAME` name saved views; `view save NAME` a new one.
        if valueName == "NAME", path.count >= 2, path[1].name == Commands.view.name {
            return command.name == "save" ? .none : .views
        }
        switch valueName {
        case "KEYS": return .words(command.name == "ls" ? sortKeys + ["priority"] : sortKeys)
        case "LIST", "OLD": return .lists
        case "NAME": return command.name == "new" ? .none : .lists
        case "REF": return command.name == "reopen" ? .doneRefs : .refs
        case "DATE", "DATE[THH:MM]": return .dates
        case "LEVEL": return .words(["low", "medium", "high", "none"])
        case "FILE", "DIR", "BASE", "OURS", "THEIRS", "PATH": return .files
        case "SECTION": return .sections
        case "COMMAND": return .commands
        case "KEY": return .keys
        case "SHELL": return .words(["bash", "zsh", "fish"])
        case "COLOR": return .words(["red", "orange", "yellow", "green", "blue", "purple", "brown", "gray"])
        case "RULE": return .words(["1d", "1w", "+1w", "++1w", "1m", "+1m", "1y", "1b", "none"])
        default: return .none
        }
    }

    /// The candidates for `current`, after `words` (the words after `tick`).
    static func candidates(words: [String], current: String, invocation: Invocation) -> [(String, String)] {
        var path = [Commands.root]
        var positionals = 0
        var pending: Option? = nil
        var optionsEnded = false
        var listGiven: String? = nil
        for word in words {
            let command = path.last!
            if let option = pending {
                if option.name == "list" { listGiven = word }
                pending = nil
                continue
            }
            if !optionsEnded, word == "--" { optionsEnded = true; continue }
            if !optionsEnded, word.hasPrefix("-"), word.count > 1, !(word.dropFirst().first?.isASCIIDigit ?? false) {
                let (_, inline, found) = ArgumentParser.lookUp(word, in: command)
                if let (option, _) = found, !option.isFlag, inline == nil { pending = option }
                continue
            }
            if positionals == 0, let sub = command.subcommand(named: word) {
                path.append(sub)
                continue
            }
            positionals += 1
        }
        let command = path.last!
        var kind: Kind = .none
        var out: [(String, String)] = []
        if let option = pending {
            kind = Completion.kind(valueName: option.valueName ?? "", option: option, command: command, path: path)
        } else if !optionsEnded, current.hasPrefix("-") {
            for option in command.options + GlobalOptions.table {
                out.append(("--" + option.name, option.help))
            }
        } else {
            if positionals == 0 {
                for sub in command.subcommands { out.append((sub.name, sub.summary)) }
            }
            // After a word of a repeated argument, the next may be one more of it or the argument after it.
            for argument in arguments(at: positionals, of: command) {
                out += values(Completion.kind(valueName: argument.name, option: nil, command: command, path: path),
                              current: current, listGiven: listGiven, invocation: invocation)
            }
        }
        out += values(kind, current: current, listGiven: listGiven, invocation: invocation)
        // Sized up front: at 100,000 tasks, growing the set was a fifth of the time.
        var seen = Set<String>(minimumCapacity: out.count)
        return out.filter { $0.0.hasPrefix(current) && seen.insert($0.0).inserted }
    }

    /// The arguments that the positional word number `index` (from 0) may fill: one, or, from the second
    /// word of a repeated argument on (from its first when it may be empty), also the argument after it.
    static func arguments(at index: Int, of command: Command) -> [Argument] {
        var taken = 0
        for (k, argument) in command.arguments.enumerated() {
            switch argument.arity {
            case .required, .optional:
                if index == taken { return [argument] }
                taken += 1
            case .zeroOrMore, .oneOrMore:
                let next = k + 1 < command.arguments.count ? command.arguments[k + 1] : nil
                let mayEnd = index > taken || argument.arity == .zeroOrMore
                return [argument] + (mayEnd ? next.map { [$0] } ?? [] : [])
            }
        }
        return []
    }

    /// The values of `kind`; refs only those that start with `current` (the caller filters the rest).
    static func values(_ kind: Kind, current: String, listGiven: String?, invocation: Invocation) -> [(String, String)] {
        switch kind {
        case .none: return []
        case .files: return [(":files", "")]
        case .words(let words): return words.map { ($0, "") }
        case .dates: return dateWords.map { ($0, "") }
        case .commands: return Commands.root.subcommands.map { ($0.name, $0.summary) }
        case .keys: return Configuration.keys.map { ($0.name, $0.values) }
        case .views: return invocation.settings.views.map { ($0.name, $0.query) }
        case .lists, .refs, .doneRefs, .sections:
            // The lists as a view reads them: through the cache, without warnings.
            guard let library = try? invocation.load(warnings: false).library else { return [] }
            switch kind {
            case .lists:
                return library.lists.map { (String($0.file.path.dropLast(3)), $0.name) }
            case .refs, .doneRefs:
                let done = { if case .doneRefs = kind { return true } else { return false } }()
                return library.refs(startingWith: current, done: done).map { ($0.ref, $0.title) }
            default:
                let lists = listGiven.flatMap { name -> [Int]? in
                    if case .found(let index) = library.resolve(list: name) { return [index] }
                    return nil
                } ?? Array(library.lists.indices)
                var seen: Set<String> = []
                var out: [(String, String)] = []
                for id in library.ids where lists.contains(id.list) {
                    if let section = library.task(id).section, seen.insert(section).inserted {
                        out.append((section, library.list(id).name))
                    }
                }
                return out
            }
        }
    }
}
