/// `tick help [COMMAND...]`: the same text as `tick COMMAND --help`.
@Sendable func runHelp(_ invocation: Invocation) throws -> ExitStatus {
    var path = [Commands.root]
    if invocation.values(Commands.commandArgument) == ["query"] {
        invocation.out.write(QueryHelp.text)
        return .success
    }
    for word in invocation.values(Commands.commandArgument) {
        let current = path.last!
        guard let next = current.subcommand(named: word) else {
            throw UsageError.unknownCommand(
                word, in: ArgumentParser.commandPath(path),
                suggestion: Suggestion.closest(to: word, among: current.subcommands.map(\.name)))
        }
        path.append(next)
    }
    invocation.out.write(HelpRenderer(width: Tick.helpWidth).text(for: path))
    return .success
}

