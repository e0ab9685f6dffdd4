import TickCore

/// The table of every command. To add one: describe it here (name, summary, arguments, options)
/// with a `run` function written in its own file under `Commands/`, and add it to `root.subcommands`.
enum Commands {
    static let root: Command = Command(
        name: "tick",
        summary: "tasks in plain Markdown files",
        discussion: "Every .md file below the task folder is a list, and every GitHub checkbox item in it "
            + "(- [ ] Call the plumber !! #flag due:2026-12-03) is a task. tick reads and writes those files "
            + "and never changes a byte it was not asked to change.\n\n"
            + "Without a command, tick shows the home screen: how many open tasks are due today, scheduled, "
            + "flagged and open in all, then each list with its open tasks. With --json: {today, scheduled, "
            + "flagged, all, lists: [{name, file, symbol, color, open, done}]}.",
        subcommands: [today, scheduled, flagged, all, completed, ls, show, search, pick, status, check, initialize,
                      help],
        run: runHome)

    // MARK: - Reading

    static let allOption = Option(name: "all", help: "Include completed tasks")
    static let listOption = Option(
        name: "list", short: "l", valueName: "LIST",
        help: "Only the list LIST: its name or file name (a unique prefix is enough) or its path")
    static let viewDiscussion = "Each row shows the task's ref, its checkbox and title, then its priority "
        + "(!, !! or !!! for low, medium or high), ⚑ when flagged, its due date in words (\"overdue\" once it has "
        + "passed), ✎ when it has notes, and its list. Ties break by due date, then priority, then list, "
        + "then line. With --json: an array of task objects."

    static let today: Command = Command(
        name: "today",
        summary: "Open tasks due today or earlier",
        discussion: "Overdue tasks first, the oldest first; a task due today at a time shows as overdue from "
            + "that time on and stays here.\n\n" + viewDiscussion,
        options: [allOption, listOption],
        run: runView(.today))

    static let scheduled: Command = Command(
        name: "scheduled",
        summary: "Open tasks with a due date, by day",
        discussion: "Grouped under Overdue, Today, Tomorrow, the weekdays of the coming days, then dates.\n\n"
            + viewDiscussion,
        options: [allOption, listOption],
        run: runView(.scheduled))

    static let flagged: Command = Command(
        name: "flagged",
        summary: "Open flagged tasks",
        discussion: viewDiscussion,
        options: [allOption, listOption],
        run: runView(.flagged))

    static let all: Command = Command(
        name: "all",
        summary: "Every open task, grouped by list",
        discussion: viewDiscussion,
        options: [allOption, listOption],
        run: runView(.all))

    static let completed: Command = Command(
        name: "completed",
        summary: "Completed tasks, the latest first",
        discussion: "Ordered by their done: date, the latest first.\n\n" + viewDiscussion,
        options: [listOption],
        run: runView(.completed))

    static let ls: Command = Command(
        name: "ls",
        summary: "One list: its open tasks, then the completed ones",
        discussion: "Tasks keep the file's order (the file is your ordering) and its section headings; "
            + "subtasks stand under their parent. With --json: an array of task objects in that order.",
        arguments: [Argument(name: "LIST", help: "The list: its name or file name (a unique prefix is enough) "
                             + "or its path")],
        options: [Option(name: "sort", valueName: "ORDER",
                         help: "file (the default), priority (high first) or due (earliest first)",
                         choices: ListOrder.allCases.map(\.rawValue))],
        run: runList)

    static let show: Command = Command(
        name: "show",
        summary: "One task in full",
        discussion: "Its list, section, every field, its notes and subtasks, and file:line. With --json: "
            + "the task object.",
        arguments: [Argument(name: "REF", help: "The task: its ref, its exact title (ignoring case) or a part "
                             + "of its title that no other task has")],
        run: runShow)

    static let search: Command = Command(
        name: "search",
        summary: "Find open tasks by words in their title, notes or tags",
        discussion: "A task matches when it holds every word, ignoring case and accents (cafe finds Café). "
            + "A match in the notes shows the matching note line. Exits 1 when nothing matches. With --json: "
            + "an array of task objects.",
        arguments: [Argument(name: "WORDS", help: "The words to look for", arity: .oneOrMore)],
        options: [allOption, listOption],
        run: runSearch)

    static let pick: Command = Command(
        name: "pick",
        summary: "Pick one open task to do now",
        discussion: "Chooses one open task at random from every list (or from --list or --view), weighted "
            + "towards urgent work: overdue (the longer, the more), due today or in the next three days, "
            + "priority and flag all add to a task's chance (the weights are in the README). tick remembers "
            + "the pick in .tick/pick, and the next tick pick never picks the same task again while another "
            + "one can be picked.\n\n"
            + "When nothing is open it says all clear and exits 0. With --json: the picked task object, or "
            + "null when all is clear.",
        options: [
            listOption,
            Option(name: "view", valueName: "VIEW", help: "Only the tasks of a view: today, flagged or scheduled",
                   choices: pickViews.map(\.rawValue)),
            Option(name: "uniform", help: "Give every task the same chance, whatever its urgency"),
            Option(name: "seed", valueName: "N",
                   help: "Seed the random choice with the whole number N, to make it reproducible"),
            Option(name: "done", help: "Complete the current pick (writes done: with today's date)"),
            Option(name: "clear", help: "Dismiss the current pick"),
        ],
        run: runPick)

    static let status: Command = Command(
        name: "status",
        summary: "One short line for a shell prompt",
        discussion: "How many open tasks are overdue, due later today and flagged, in words: "
            + "2 overdue · 3 today · 1 flagged. Only counts that are not zero are shown; when all are zero "
            + "it prints nothing. With --json: {overdue, today, flagged, open}, always.",
        run: runStatus)

    // MARK: - The folder

    static let help: Command = Command(
        name: "help",
        summary: "Show help for tick or for one command",
        arguments: [Argument(name: "COMMAND", help: "The command to describe (with its subcommand, if any)",
                             arity: .zeroOrMore)],
        run: runHelp)

    static let check: Command = Command(
        name: "check",
        summary: "Check list files for format problems",
        discussion: "Parses each list file (every list of the folder when no FILE is given) and prints each "
            + "format problem as file:line:column: message, with paths relative to the task folder. It also "
            + "verifies that every file reads back byte for byte; a file that does not is reported as a bug "
            + "in tick (exit status 4).\n\n"
            + "Exits 0 when every file is clean and 1 when it found problems. With --json it prints an array "
            + "of {file, line, column, message} objects.",
        arguments: [Argument(name: "FILE", help: "A list file to check (default: every list of the folder)",
                             arity: .zeroOrMore)],
        run: runCheck)

    static let initialize: Command = Command(
        name: "init",
        summary: "Make a folder a task folder",
        discussion: "Creates DIR (default: the --dir folder, else the working folder) if needed, and in it the "
            + ".tick/ folder that marks it as a task folder and holds tick's local state, with its own "
            + ".gitignore so that the state stays out of version control. Commands run anywhere below DIR "
            + "then find it. Running it again changes nothing.",
        arguments: [Argument(name: "DIR", help: "The folder to make a task folder", arity: .optional)],
        run: runInit)
}
