/// The table of every command. To add one: describe it here (name, summary, arguments, options)
/// with a `run` function written in its own file under `Commands/`, and add it to `root.subcommands`.
enum Commands {
    static let root: Command = Command(
        name: "tick",
        summary: "tasks in plain Markdown files",
        discussion: "Every .md file below the task folder is a list, and every GitHub checkbox item in it "
            + "(- [ ] Call the plumber !! #flag due:2026-12-03) is a task. tick reads and writes those files "
            + "and never changes a byte it was not asked to change.",
        subcommands: [check, initialize, help],
        run: runHome)

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
