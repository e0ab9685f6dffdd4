import TickCore

// The command table's rows for queries: `tick find` (and `q`), `tick view`, and the options that
// views and write commands take (`--where`, `--sort`, `--group`, `--flat`, `--yes`).
extension Commands {
    static let queryHelp = "A query: words, \"phrases\", #tag, -term, list:, in:, is:, has:, no:, pri:, due:, done:, "
        + "OR, NOT and parentheses (see tick help query)"

    static let whereOption = ValueOption("where", valueName: "QUERY",
                                         help: "Only the tasks that match QUERY (see tick help query)")
    static let bulkWhereOption = ValueOption("where", valueName: "QUERY",
                                             help: "Change the tasks that QUERY finds instead of REFs (see tick help query)")
    static let groupOption = ValueOption("group", valueName: "GROUP",
                                         help: "Group by list, section, due (day), tag (the first), pri or none",
                                         choices: SavedView.groups)
    static let flatOption = Flag("flat", help: "Show a matched subtask on its own, not under its parent")
    static let yesOption = Flag("yes", help: "Change every task --where matches without asking")
    static let explainOption = Flag("explain",
                                    help: "Print the query as tick reads it, every date resolved, and find nothing")

    /// What every view takes besides its own options.
    static let queryViewOptions: [any OptionKey] = [whereOption, sortOption, groupOption, flatOption]

    static let whereRefsArgument = Argument(
        name: "REF", help: "The tasks: each a ref, an exact title (ignoring case) or a part of a title that no "
            + "other task has; none with --where", arity: .zeroOrMore)

    static let bulkDiscussion = "With --where QUERY instead of REFs, changes every open task the query matches "
        + "(tasks done too when the query is about completion, as for tick find), as one change: one tick undo "
        + "takes it all back. When more than 10 tasks match, tick lists them and asks first on a terminal; "
        + "--yes changes them without asking, and without a terminal and without --yes the change is refused "
        + "(exit status 2) and nothing changes. No match exits 1."

    static let queryArgument = Argument(
        name: "QUERY", help: "The query: one argument, or the words after -- (so that -term is not an option)",
        arity: .oneOrMore)

    static let findDiscussion = "A query is terms side by side, all of which must match: a word or a \"quoted "
        + "phrase\" (a part of the title, notes or tags, ignoring case and accents), #tag, list:NAME, in:SECTION, "
        + "is:, has:, no:, pri:, due: and done:, each negated by a leading - (-#work). OR and NOT, in capitals "
        + "only, and parentheses combine them; NOT binds tighter than side by side, which binds tighter than OR. "
        + "tick help query describes every term.\n\n"
        + "A query that says nothing about completion (is:open, is:done, done:) finds open tasks only; --all "
        + "adds the completed ones. Tasks are ordered like every view (due, priority, list, line) unless --sort "
        + "says otherwise, grouped by --group (none by default), and a matched subtask is shown under its parent, "
        + "which is dimmed when it is there only to show where the subtask is (--flat shows subtasks on their own). "
        + "Exits 1 when nothing matches. With --json: an array of the matching task objects. " + Commands.problemLine + "\n\n"
        + "Bad queries exit 2 with the column of the problem: tick find '(#work' says bad query at column 1: "
        + "this parenthesis is never closed."

    static let findOptions: [any OptionKey] = [allOption, listOption, sortOption, groupOption, flatOption, explainOption]

    static let find: Command = Command(
        name: "find",
        effect: .read,
        summary: "Find tasks with a query",
        discussion: findDiscussion,
        arguments: [queryArgument],
        options: findOptions,
        run: runFind)

    static let q: Command = Command(
        name: "q",
        effect: .read,
        summary: "Find tasks with a query (tick find)",
        discussion: findDiscussion,
        arguments: [queryArgument],
        options: findOptions,
        run: runFind)

    static let viewNameArgument = Argument(name: "NAME", help: "The saved view to show (none: list them)",
                                           arity: .optional)

    static let view: Command = Command(
        name: "view",
        effect: .read,
        summary: "Show, save or delete saved views",
        discussion: "tick view NAME shows a saved view: the tasks its query finds, sorted and grouped as it was "
            + "saved (--sort, --group and --flat given here win). tick view alone lists the saved views with "
            + "their queries and counts. Saved views are kept in the task folder's configuration, .tick/config, "
            + "as view.NAME = QUERY with view.NAME.sort and view.NAME.group, and the home screen shows each with "
            + "its count. With --json: an array of task objects (tick view NAME), or of {name, query, sort, "
            + "group, count} (tick view). " + problemLine,
        arguments: [viewNameArgument],
        options: [allOption, sortOption, groupOption, flatOption],
        subcommands: [viewSave, viewRemove],
        run: runSavedView)

    static let newViewNameArgument = Argument(
        name: "NAME", help: "The view's name: lower-case letters, digits and hyphens, starting with a letter; not "
            + "the name of a command or of a built-in view")

    static let viewSave: Command = Command(
        name: "save",
        effect: .write,
        summary: "Save a query as a view",
        discussion: "Checks the query, then writes view.NAME = QUERY (and view.NAME.sort, view.NAME.group when "
            + "given) to .tick/config, replacing a view of that name; every other line of the file stays as it "
            + "was. The query's dates are kept as words: due:today is today's date each time the view is shown.",
        arguments: [newViewNameArgument, queryArgument],
        options: [sortOption, groupOption],
        run: runSaveView)

    static let viewRemove: Command = Command(
        name: "rm",
        effect: .write,
        summary: "Delete a saved view",
        discussion: "Removes the view's lines from .tick/config. A view kept in the user's configuration file "
            + "is left there, and tick says so.",
        arguments: [Argument(name: "NAME", help: "The saved view")],
        run: runRemoveView)

    /// The names a saved view may not take: every command's, `view`'s own subcommands' and the built-in views'.
    static var reservedViewNames: Set<String> {
        Set(root.subcommands.map(\.name) + view.subcommands.map(\.name) + SmartView.allCases.map(\.rawValue) + ["home"])
    }
}
