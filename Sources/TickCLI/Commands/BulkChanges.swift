import TickCore

// `--where QUERY` on the write commands: the tasks a query matches, changed as one change, asking
// first on a terminal when more than 10 match.

extension Invocation {
    /// How many tasks `--where` may change without `--yes` or a question.
    static let bulkLimit = 10

    /// The tasks a write command changes: those its REFs name, or, with `--where`, every task the
    /// query finds (as `tick find` finds them). More than `bulkLimit` need `--yes`, or a yes typed on
    /// a terminal after the list of them; without a terminal the change is refused (exit 2).
    /// `missing` is the argument to name when neither REFs nor `--where` are given.
    /// A REF that names only twins (README "Refs") names the first of them: `twins` gets how many there are.
    func targets(_ refs: [String], in library: Library, preferring: ((TaskID) -> Bool)? = nil,
                 missing: String = "REF", twins: inout [TaskID: Int]) throws -> [TaskID] {
        let text = command.options.contains(Commands.bulkWhereOption.option) ? value(Commands.bulkWhereOption) : nil
        guard let text else {
            guard !refs.isEmpty else { throw UsageError.missingArgument(missing, usage: ArgumentParser.usageLine(path)) }
            var ids: [TaskID] = []
            for text in refs {
                let (id, count) = try resolveTask(text, in: library, preferring: preferring, twins: true)
                if count > 0 { twins[id] = count }
                if !ids.contains(id) { ids.append(id) }
            }
            return ids
        }
        guard refs.isEmpty else {
            throw UsageError.invalidInput("give REFs or --where, not both (REFs given: \(refs.joined(separator: " ")))")
        }
        let ids = library.find(try query(text), now: now)
        guard !ids.isEmpty else { throw CommandFailure(.negative, "no task matches '\(text)'; nothing changed") }
        guard ids.count > Self.bulkLimit, !flag(Commands.yesOption) else { return ids }
        guard context.terminals.input else {
            throw UsageError.invalidInput("--where '\(text)' matches \(ids.count) tasks; more than \(Self.bulkLimit) "
                                          + "change only with --yes or when confirmed on a terminal; nothing changed")
        }
        var rows = TaskRows(library: library, now: now, terminal: terminal, showList: true, rows: ids)
        for id in ids { rows.write(id, to: out) }
        err.write("Change these \(ids.count) tasks (\(ArgumentParser.commandPath(path)))? [y/N] ")
        // Both are buffered: the list and the question must be on the screen before tick waits for the answer.
        out.flush()
        err.flush()
        let answer = (context.input.readLine() ?? "").trimmingCharacters(in: " \t\r").lowercased()
        guard answer == "y" || answer == "yes" else { throw CommandFailure(.negative, "nothing changed") }
        return ids
    }
}
