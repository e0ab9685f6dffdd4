import TickCore

/// The table of every command. To add one: describe it here (name, summary, arguments, options)
/// with a `run` function written in its own file under `Commands/`, and add it to `root.subcommands`.
enum Commands {
    static let root: Command = Command(
        name: "tick",
        effect: .read,
        summary: "tasks in plain Markdown files",
        discussion: "Every .md file below the task folder is a list, and every GitHub checkbox item in it "
            + "(- [ ] Call the plumber !! #flag due:2026-12-03) is a task. tick reads and writes those files "
            + "and never changes a byte it was not asked to change.\n\n"
            + "Without a command, tick shows the home screen: how many open tasks are due today, scheduled, "
            + "flagged and open in all, then each list with its symbol (cut to 8 columns) and open tasks; two "
            + "lists whose names are the same ignoring case and accents are each followed by their file. With "
            + "--json: {today, scheduled, flagged, all, lists: [{name, file, symbol, color, open, done}], views: "
            + "[{name, query, count}]}. Saved views (tick view save) follow the four tiles, each with its count.",
        subcommands: [today, tomorrow, upcoming, scheduled, flagged, all, completed, lists, ls, show, search, find, q,
                      view, pick,
                      status, export, vdir, remind,
                      add, done, reopen, skip, flag, unflag, due, priority, edit, mv, rm, id, list, undo,
                      check, lsp, initialize, gitSetup, doctor, sync, mergeDriver, config, importCommand, completions, help],
        run: runHome)

    // MARK: - Reading

    static let allOption = Flag("all", help: "Include completed tasks")
    static let listOption = ValueOption(
        "list", short: "l", valueName: "LIST",
        help: "Only the list LIST: its name or file name (a unique prefix is enough) or its path")
    static let viewDiscussion = "Each row shows the task's ref, its checkbox and title, then its priority "
        + "(!, !! or !!! for low, medium or high), ⚑ when flagged, its due date in words (\"overdue\" once it has "
        + "passed), ↻ and its rule in words when it repeats (↻ every week), ✎ when it has notes, and its list. Ties break by due date, then priority, then list, "
        + "then line. With --json: an array of task objects.\n\n" + problemLine

    /// What every view, ls, find and view NAME say of the lists holding problems.
    static let problemLine = "A list holding problems (a conflict marker, a field tick cannot read such as due:tomorrow) "
        + "is named in one line on standard error, tick: 2 problems in Work (tick check work.md); not with --json."

    /// The command that shows `view`, named after it: `--all` and `--list`, and the rows explained.
    static func viewCommand(_ view: SmartView, summary: String, about: @autoclosure @escaping @Sendable () -> String = "",
                            arguments: [Argument] = []) -> Command {
        Command(name: view.rawValue, effect: .read, summary: summary,
                discussion: [about(), viewDiscussion].filter { !$0.isEmpty }.joined(separator: "\n\n"),
                arguments: arguments, options: [allOption, listOption] + queryViewOptions, run: runView(view))
    }

    static let today = viewCommand(
        .today, summary: "Open tasks due or scheduled today or earlier",
        about: "Overdue tasks first, the oldest first; a task due today at a time shows as overdue from "
            + "that time on and stays here. A task whose start date is after today is left out until that day "
            + "(tick find is:today finds the same tasks).")

    static let tomorrow = viewCommand(.tomorrow, summary: "Open tasks due tomorrow")

    static let daysArgument = Argument(name: "N", help: "How many days, today included (default 7, at most 3660)",
                                       arity: .optional)

    static let upcoming = viewCommand(
        .upcoming, summary: "Open tasks due in the next N days, by day",
        about: "The Scheduled view from today through the N-1 days after it (a week by default), grouped "
            + "under Today, Tomorrow, the weekdays, then dates. Tasks overdue from an earlier day are in "
            + "tick today, not here.",
        arguments: [daysArgument])

    static let scheduled = viewCommand(
        .scheduled, summary: "Open tasks with a due date, by day",
        about: "Grouped under Overdue, Today, Tomorrow, the weekdays of the coming days, then dates.")

    static let flagged = viewCommand(.flagged, summary: "Open flagged tasks")

    static let all = Command(
        name: "all",
        effect: .read,
        summary: "Every open task, grouped by list",
        discussion: "The lists in the home screen's order, each under its name as a heading, which the rows do "
            + "not repeat; in each, a subtask is indented under its parent, and a task's subtasks follow it in "
            + "the view's order. " + viewDiscussion,
        options: [allOption, listOption] + queryViewOptions,
        run: runView(.all))

    static let sinceOption = ValueOption("since", valueName: "DATE",
                                         help: "Only tasks done on DATE or later (a date word, as for tick due)")

    static let completed: Command = Command(
        name: "completed",
        effect: .read,
        summary: "Completed tasks, the latest first",
        discussion: "Ordered by their done: date, the latest first; each row shows that date (done yesterday). "
            + "--since today answers what you finished today.\n\n" + viewDiscussion,
        options: [listOption, sinceOption] + queryViewOptions,
        run: runView(.completed))

    static let lists: Command = Command(
        name: "lists",
        effect: .read,
        summary: "Every list: its name, symbol, colour, file and counts",
        discussion: "One line per list, in the home screen's order: its symbol, name, colour, file, and open and "
            + "done task counts. With --json: an array of list objects "
            + "{name, file, symbol, color, open, done}.",
        run: runLists)

    /// How a list is named on the command line.
    static let listHelp = "The list: its name or file name (a unique prefix is enough) or its path"
    static let listArgument = Argument(name: "LIST", help: listHelp)
    static let sortOption = ValueOption("sort", valueName: "KEYS",
                                        help: "Sort by KEYS, comma-separated (due,-pri,title): " + SortOrder.vocabulary)

    static let ls: Command = Command(
        name: "ls",
        effect: .read,
        summary: "One list: its open tasks, then the completed ones",
        discussion: "Tasks keep the file's order (the file is your ordering) and its section headings; "
            + "subtasks stand under their parent. With --json: an array of task objects in that order.\n\n"
            + problemLine,
        arguments: [listArgument],
        options: [sortOption, whereOption],
        run: runList)

    static let show: Command = Command(
        name: "show",
        effect: .read,
        summary: "One task in full",
        discussion: "Its list, section, every field, its notes and subtasks, and file:line. With --json: "
            + "the task object.",
        arguments: [refArgument],
        run: runShow)

    static let wordsArgument = Argument(name: "WORDS", help: "The words to look for", arity: .oneOrMore)

    static let search: Command = Command(
        name: "search",
        effect: .read,
        summary: "Find open tasks by words in their title, notes or tags",
        discussion: "A task matches when it holds every word, ignoring case and accents (cafe finds Café). "
            + "A match in the notes shows the matching note line. Exits 1 when nothing matches. With --json: "
            + "an array of task objects.",
        arguments: [wordsArgument],
        options: [allOption, listOption],
        run: runSearch)

    static let pickViewOption = ValueOption("view", valueName: "VIEW",
                                            help: "Only the tasks of a view: today, flagged or scheduled",
                                            choices: pickViews.map(\.rawValue))
    static let uniformOption = Flag("uniform", help: "Give every task the same chance, whatever its urgency")
    static let seedOption = ValueOption("seed", valueName: "N",
                                        help: "Seed the random choice with the whole number N, to make it reproducible")
    static let pickDoneOption = Flag("done", help: "Complete the current pick (writes done: with today's date)")
    static let clearOption = Flag("clear", help: "Dismiss the current pick")

    static let pick: Command = Command(
        name: "pick",
        effect: .write,
        summary: "Pick one open task to do now",
        discussion: "Chooses one open task at random from every list (or from --list or --view), weighted "
            + "towards urgent work: overdue (the longer, the more), due today or in the next three days, "
            + "priority and flag all add to a task's chance (the weights are in the README; the configuration "
            + "keys pick.weights.* change them, see tick config). tick remembers "
            + "the pick in .tick/pick, and the next tick pick never picks the same task again while another "
            + "one can be picked.\n\n"
            + "When nothing is open it says all clear and exits 0. With --json: the picked task object, or "
            + "null when all is clear.",
        options: [listOption, pickViewOption, uniformOption, seedOption, pickDoneOption, clearOption, keepHistoryOption],
        run: runPick)

    static let status: Command = Command(
        name: "status",
        effect: .read,
        summary: "One short line for a shell prompt",
        discussion: "How many open tasks are overdue, due later today and flagged, in words: "
            + "2 overdue · 3 today · 1 flagged. Only counts that are not zero are shown; when all are zero "
            + "it prints nothing. Files it skips are left for tick check to report: nothing goes to standard "
            + "error in normal operation. With --json: {overdue, today, flagged, open}, always.\n\n"
            + "--format FORMAT prints FORMAT with {overdue}, {today}, {flagged} and {open} replaced by those counts "
            + "and {next} by the title of the most urgent open task (the pick's weights decide, ties by due date, "
            + "priority, list and line); {NAME?TEXT} shows TEXT, which may hold placeholders, only when NAME is not "
            + "zero (for next: when a task is open); {{ is a brace, and so is }} outside {NAME?...}, inside which } always closes. When the result is empty it prints "
            + "nothing at all. Example: --format '{overdue?{overdue}! }{today?{today} today}'.\n\n"
            + "--large prints the \(largeCount) most urgent open tasks, one row each, the most urgent first, and "
            + "nothing when no task is open; with --json, an array of their task objects.",
        options: [statusFormatOption, largeOption],
        run: runStatus)

    static let statusFormatOption = ValueOption("format", valueName: "FORMAT",
                                                help: "Print FORMAT with its placeholders filled in (see below)")
    static let largeCount = 5
    static let largeOption = Flag("large", help: "The \(largeCount) most urgent open tasks, one row each")

    // MARK: - Writing

    static let refArgument = Argument(
        name: "REF", help: "The task: its ref, its exact title (ignoring case) or a part of its title that no "
            + "other task has", arity: .required)
    static let refsArgument = Argument(
        name: "REF", help: "The tasks: each a ref, an exact title (ignoring case) or a part of a title that no "
            + "other task has", arity: .oneOrMore)
    static let writeDiscussion = "Prints one line per task naming what changed and the task's ref, or, for a task "
        + "that already was so, No change to REF \"TITLE\": already ... (nothing is written then); with --json, "
        + "an array of the task objects; with --quiet, nothing. Only the lines of the tasks named change; "
        + "every other byte of the file stays as it was."
    static let dateHelp = "today, tomorrow, yesterday, tonight (today 18:00, or the date.tonight setting), eod (today 23:59, or "
        + "the date.end-of-day setting), a weekday (fri, friday, tues, weds, thurs or next friday: the next one after "
        + "today; this friday: today on a Friday), next week (next Monday), next month (its first day), "
        + "in 3 days (or weeks, months, years), +3d, -1d, +2w, +1m, +1y, eow (the coming Sunday), eom (the "
        + "month's last day), a month and day (dec 24, 24 dec, december 24: this year if still to come, else "
        + "next year), YYYY-MM-DD (2026-1-5 too) or YYYY-MM-DDTHH:MM, 12/24 or 24/12 only with the date.order "
        + "setting (mdy or dmy), each optionally followed by a time such as 9:00, 17:30, 9am, 5pm, noon or "
        + "midnight; or a time alone (today if still to come, else tomorrow)"
    static let priorityOption = ValueOption("priority", valueName: "LEVEL", help: "low, medium, high or none",
                                            choices: ["low", "medium", "high", "none"])

    static let titleArgument = Argument(name: "TITLE", help: "The title, with any metadata; several words are "
                                        + "joined with spaces", arity: .oneOrMore)
    static let addListOption = ValueOption(
        "list", short: "l", valueName: "LIST",
        help: "Add to the list LIST (default: Inbox): its name or file name (a unique prefix is enough) or its path")
    static let addDueOption = ValueOption("due", valueName: "DATE", help: "Due on DATE (see below)")
    static let flagOption = Flag("flag", help: "Flag the task")
    static let addNoteOption = ValueOption("note", valueName: "TEXT", help: "Notes for the task (lines below its title)")
    static let sectionOption = ValueOption("section", valueName: "SECTION", help: "Add it under the list's heading SECTION")
    static let parentOption = ValueOption("parent", valueName: "REF", help: "Add it as the last subtask of the task REF")
    static let addRecOption = ValueOption(
        "rec", valueName: "RULE", help: "Repeat by RULE (1w, +1w, ++1w; see tick help done), as rec:RULE in the title does")
    static let addUntilOption = ValueOption("until", valueName: "DATE", help: "End the repetition on DATE (as for --due)")
    static let createListOption = Flag(
        "create", help: "Create the list LIST (as tick list new LIST) when no list has that name, in the same change")

    static let add: Command = Command(
        name: "add",
        effect: .write,
        summary: "Add a task",
        discussion: "The title's words may carry metadata as in the files: a priority (!, !! or !!!), #flag, "
            + "and a due date with any date word (due:fri, due:+3d, due:tomorrow 9:00; the words of a longer "
            + "form joined with hyphens: due:in-3-days, due:dec-24T9am), written as "
            + "due:YYYY-MM-DD; a rule rec:1w, rec:+1w or rec:++1w and its end until:DATE make it repeat (see "
            + "tick help done). Without --list the task goes to the list named Inbox (inbox.md, created with a "
            + "# Inbox heading when missing). It goes after the last task of the list or of its section; with "
            + "--parent, after the last subtask of that task. A title that starts with - goes after -- "
            + "(tick add -- \"-x\"); one that starts with a dash and a digit needs no --.\n\n"
            + "Dates: \(dateHelp).\n\n" + writeDiscussion,
        arguments: [titleArgument],
        options: [addListOption, createListOption, addDueOption, priorityOption, flagOption, addNoteOption, sectionOption,
                  parentOption, addRecOption, addUntilOption],
        run: runAdd)

    static let keepHistoryOption = Flag(
        "keep-history",
        help: "Also keep a completed copy of a repeating task (- [x] ... done:DATE) after it "
            + "(the configuration key recurrence.keep-history = true does the same)")
    static let recurrenceDiscussion = "A repeating task (rec: in its title line) is not ticked: only its due: date "
        + "moves to the next occurrence, in place, its box stays open and its done subtasks open again, and the line "
        + "says when: Completed REF \"Water the plants\": next due Mon Dec 7. rec:1w counts a week from today (so "
        + "completing it twice the same day gives the same date), rec:+1w a week from the old due date (twice the "
        + "same day moves it two weeks), rec:++1w to the first of its weekly dates after today. A month or year step keeps the day "
        + "of the month, clamped to a shorter month: rec:+1m from Jan 31 gives Feb 28, then Mar 28; rec:1m completed "
        + "Feb 28 gives Mar 28. When the next date would pass its until: date, it is completed as any task. Without --keep-history no done: date is written, "
        + "so tick completed does not list it. A rule tick cannot read (tick check shows it), a + or ++ rule "
        + "without a due date, or a malformed due: or until: date is refused (exit 2), with nothing changed."

    static let done: Command = Command(
        name: "done",
        effect: .write,
        summary: "Complete tasks",
        discussion: "Ticks the box and writes done:YYYY-MM-DD with today's date. A parent's open subtasks are "
            + "completed with it, in the same change (one tick undo reopens them all), and its line says how many.\n\n"
            + recurrenceDiscussion + "\n\n" + writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument],
        options: [keepHistoryOption, bulkWhereOption, yesOption],
        run: runDone(true))

    static let reopen: Command = Command(
        name: "reopen",
        effect: .write,
        summary: "Reopen completed tasks",
        discussion: "Clears the box and removes done:. A parent's subtasks stay as they are. A repeating task "
            + "that is open (tick done moved it on) stays as it is, and the line says so: tick undo takes a "
            + "completion back. " + writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument],
        options: [bulkWhereOption, yesOption],
        run: runDone(false))

    static let skip: Command = Command(
        name: "skip",
        effect: .write,
        summary: "Move repeating tasks to their next date, not completing them",
        discussion: "For \"not this time\": only the task's due: date changes. rec:+1w and rec:++1w move on from the "
            + "due date as a completion would; rec:1w moves to a week from today. The line says when: Skipped REF "
            + "\"Water the plants\": next due Mon Dec 7. A task that does not repeat, or whose next occurrence would "
            + "pass its until: date, is refused (exit 2), with nothing changed. " + writeDiscussion,
        arguments: [refsArgument],
        run: runSkip)

    static let flag: Command = Command(
        name: "flag",
        effect: .write,
        summary: "Flag tasks",
        discussion: "Adds #flag to the title line. " + writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument],
        options: [bulkWhereOption, yesOption],
        run: runFlag(true))

    static let unflag: Command = Command(
        name: "unflag",
        effect: .write,
        summary: "Remove the flag from tasks",
        discussion: writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument],
        options: [bulkWhereOption, yesOption],
        run: runFlag(false))

    static let dateArgument = Argument(name: "DATE", help: "The date (several words are joined), or none",
                                       arity: .oneOrMore)

    static let due: Command = Command(
        name: "due",
        effect: .write,
        summary: "Set or remove a task's due date",
        discussion: "DATE is one of: \(dateHelp); or none to remove the due date. It is written as "
            + "due:YYYY-MM-DD (due:YYYY-MM-DDTHH:MM with a time). With several REFs, DATE is the longest run "
            + "of words at the end that reads as a date.\n\n" + writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument, dateArgument],
        options: [bulkWhereOption, yesOption],
        run: runDue)

    static let levelArgument = Argument(name: "LEVEL", help: "low, medium, high or none")

    static let priority: Command = Command(
        name: "priority",
        effect: .write,
        summary: "Set or remove a task's priority",
        discussion: "Writes !, !! or !!! for low, medium or high; none removes it. " + writeDiscussion + "\n\n"
            + bulkDiscussion,
        arguments: [whereRefsArgument, levelArgument],
        options: [bulkWhereOption, yesOption],
        run: runPriority)

    static let titleOption = ValueOption("title", valueName: "TITLE", help: "The new title (without metadata)")
    static let editNoteOption = ValueOption("note", valueName: "TEXT", help: "Replace the notes with TEXT (\"\" removes them)")
    static let appendNoteOption = ValueOption("append-note", valueName: "TEXT", help: "Add TEXT after the notes")
    static let editDueOption = ValueOption("due", valueName: "DATE", help: "The due date (as for tick due), or none")
    static let editRecOption = ValueOption(
        "rec", valueName: "RULE",
        help: "Repeat by RULE (1w: a week after each completion; +1w: a week after the due date; ++1w: the "
            + "next weekly date after today; units d, w, m, y, b), or none to stop (removing until: too)")
    static let editUntilOption = ValueOption("until", valueName: "DATE",
                                             help: "End the repetition on DATE (as for tick due), or none")

    static let edit: Command = Command(
        name: "edit",
        effect: .write,
        summary: "Change a task's title, notes, due date, priority or rule",
        discussion: "With options, changes what they name. With several REFs, the options apply to each task, in one "
            + "change (one tick undo takes it all back); a task the options would leave with a rule tick check "
            + "reports is refused, naming it, and then no task changes. With one REF and no option (--keep-history "
            + "alone counts as none), opens $VISUAL (else $EDITOR, else vi) on the "
            + "task's title line (title and metadata, as in the file), a blank line and its notes; what you save is "
            + "written back to that task only, field by field. Leaving the text unchanged, or an editor that "
            + "exits with an error, changes nothing. When the text cannot be applied (the task changed meanwhile), "
            + "the message names the file that keeps it. The editor opens on one task only: several REFs without "
            + "an option are refused (exit 2), with nothing changed.\n\n" + writeDiscussion,
        arguments: [refsArgument],
        options: [titleOption, editNoteOption, appendNoteOption, editDueOption, priorityOption, editRecOption,
                  editUntilOption, keepHistoryOption],
        run: runEdit)

    static let destinationArgument = Argument(name: "LIST", help: "The destination list: its name or file name "
                                              + "(a unique prefix is enough) or its path")

    static let mvDryRunOption = Flag(Option.dryRun, help: "Print what would move, and write nothing")

    static let mv: Command = Command(
        name: "mv",
        effect: .write,
        summary: "Move tasks to the end of another list",
        discussion: "Each task moves with its notes and subtasks. The destination is written first, then the "
            + "list it came from, so that an interruption leaves a task in both lists (the next tick run "
            + "finishes the move), never in neither. A LIST that no list is names tick list new LIST; with --create it "
            + "is made (as tick list new makes it) by the same change, which one tick undo reverts whole.\n\n"
            + writeDiscussion + "\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument, destinationArgument],
        options: [createListOption, mvDryRunOption, bulkWhereOption, yesOption],
        run: runMove)

    static let rm: Command = Command(
        name: "rm",
        effect: .write,
        summary: "Delete tasks",
        discussion: "Each task goes with its notes and subtasks. With --json, prints the deleted task objects as "
            + "they were. tick undo brings them back.\n\n" + bulkDiscussion,
        arguments: [whereRefsArgument],
        options: [bulkWhereOption, yesOption],
        run: runRemove)

    static let id: Command = Command(
        name: "id",
        effect: .write,
        summary: "Give tasks a stable id",
        discussion: "Writes id: and 10 random letters and digits on each task's title line (a task that has an "
            + "id keeps it). A task with an id is named by a ref made from it, which stays the same when its "
            + "title changes or it moves to another list. All the tasks change at once: one tick undo takes it "
            + "back. " + writeDiscussion,
        arguments: [refsArgument],
        run: runID)

    static let listNameArgument = Argument(name: "NAME", help: listHelp)
    static let symbolOption = ValueOption("symbol", valueName: "SYMBOL",
                                          help: "An emoji or short word shown beside the list's name, at most "
                                             + "\(ListNaming.maxSymbolWidth) columns (\"\" removes it)")
    static let colorOption = ValueOption("color", valueName: "COLOR", help: ListNaming.acceptedColors + " (\"\" removes it)")

    static let list: Command = Command(
        name: "list",
        effect: .write,
        summary: "Create, rename, restyle or delete lists",
        discussion: "Each list is a .md file of the task folder. With --json, the list commands print the list "
            + "as an object {name, file, symbol, color, open, done}.",
        subcommands: [listNew, listRename, listSet, listRemove])

    static let newListNameArgument = Argument(name: "NAME", help: "The list's name")

    static let listNew: Command = Command(
        name: "new",
        effect: .write,
        summary: "Create a list",
        discussion: "The file name comes from the name: lower case, spaces as hyphens (Work Stuff is "
            + "work-stuff.md). The file starts with a # NAME heading, after front matter when a symbol or colour "
            + "is given. A name that holds /, .., control characters or starts with a dot, or whose file name "
            + "another list has (ignoring case), is refused (exit status 2).",
        arguments: [newListNameArgument],
        options: [symbolOption, colorOption],
        run: runListNew)

    static let oldNameArgument = Argument(name: "OLD", help: listHelp)
    static let newNameArgument = Argument(name: "NEW", help: "Its new name")

    static let listRename: Command = Command(
        name: "rename",
        effect: .write,
        summary: "Rename a list: its heading and its file",
        discussion: "The new file (named as for list new, in the same folder) is written first, then the old "
            + "one is removed. The same rules as for list new apply to the new name.",
        arguments: [oldNameArgument, newNameArgument],
        run: runListRename)

    static let listSet: Command = Command(
        name: "set",
        effect: .write,
        summary: "Set a list's symbol or colour",
        discussion: "Changes the keys in the file's front matter in place, adding the front matter when the "
            + "file has none.",
        arguments: [listNameArgument],
        options: [symbolOption, colorOption],
        run: runListSet)

    static let forceListOption = Flag("force", help: "Delete the list even though it has open tasks")

    static let listRemove: Command = Command(
        name: "rm",
        effect: .write,
        summary: "Delete a list and every task in it",
        discussion: "Refuses (exit status 2) while the list has open tasks, and says how many, unless --force "
            + "is given. tick undo brings the file back.",
        arguments: [listNameArgument],
        options: [forceListOption],
        run: runListRemove)

    static let forceUndoOption = Flag("force", help: "Restore the files as they were, discarding what changed since")

    static let undo: Command = Command(
        name: "undo",
        effect: .write,
        summary: "Revert the last change tick made",
        discussion: "tick keeps a journal of its own changes under .tick/ (the last 20). undo reverts the latest "
            + "one and forgets it, so a second undo reverts the one before. When a file has changed since that "
            + "change, undo reverts only the lines the change touched (found where they are now, when moved "
            + "whole) and keeps the rest as it is now; it refuses "
            + "(exit status 1), naming the lines, when those very lines changed since, or when the change created "
            + "or deleted a file that has changed since. --force puts back the files as they were before the "
            + "change and warns how many lines changed since it discards, and which.",
        options: [forceUndoOption],
        run: runUndo)

    // MARK: - The folder

    static let commandArgument = Argument(name: "COMMAND", help: "The command to describe (with its subcommand, "
                                          + "if any)", arity: .zeroOrMore)

    static let help: Command = Command(
        name: "help",
        effect: .read,
        summary: "Show help for tick or for one command",
        discussion: "tick help query describes the query language of tick find, --where and saved views.",
        arguments: [commandArgument],
        run: runHelp)

    static let fileArgument = Argument(name: "FILE", help: "A list file to check (default: every list of the folder)",
                                       arity: .zeroOrMore)

    static let check: Command = Command(
        name: "check",
        effect: .read,
        summary: "Check list files for format problems",
        discussion: "Parses each list file (every list of the folder when no FILE is given) and prints each "
            + "format problem as file:line:column: message, with paths relative to the task folder. It also "
            + "verifies that every file reads back byte for byte; a file that does not is reported as a bug "
            + "in tick (exit status 4).\n\n"
            + "Exits 0 when every file is clean and 1 when it found problems. With --json it prints an array "
            + "of {file, line, column, message} objects.",
        arguments: [fileArgument],
        run: runCheck)

    static let dirArgument = Argument(name: "DIR", help: "The folder to make a task folder", arity: .optional)
    static let gitOption = Flag("git", help: "Also keep the folder in git, with the task-aware merge driver")

    static let initialize: Command = Command(
        name: "init",
        effect: .managesGit,
        summary: "Make a folder a task folder",
        discussion: "Creates DIR (default: the --dir folder, else the working folder) if needed, and in it the "
            + ".tick/ folder that marks it as a task folder and holds tick's local state, with its own "
            + ".gitignore so that the state stays out of version control. Commands run anywhere below DIR "
            + "then find it. Running it again changes nothing.\n\n"
            + "With --git, DIR is also kept in git: git init when it is not in a repository yet, then what "
            + "git-setup does.",
        arguments: [dirArgument],
        options: [gitOption],
        run: runInit)

    static let gitSetup: Command = Command(
        name: "git-setup",
        effect: .managesGit,
        summary: "Register the task-aware merge driver in git",
        discussion: "Writes *.md merge=tick to the task folder's .gitattributes (kept when present) and sets "
            + "merge.tick.name and merge.tick.driver in the repository's config. Git ignores a driver that is "
            + "not configured, and the config is not cloned: run it once in every clone. The driver is "
            + "'tick merge-driver %O %A %B %L %P', with the labels %S %X %Y when git is 2.44 or later; the binary "
            + "is named tick when the tick on PATH is this one, else by its absolute path.\n\n"
            + "Exits 5 when the folder is not in a git repository.",
        run: runGitSetup)

    static let doctor: Command = Command(
        name: "doctor",
        effect: .read,
        summary: "Check the task folder's git set-up",
        discussion: "Reports whether the folder is in a git repository, whether the merge driver is registered, "
            + "whether .gitattributes sends list files to it and whether .tick/ stays local while its "
            + ".gitignore is shared, each problem with the command that fixes it. Exits 0 when all is well, "
            + "1 when it found a problem. With --json: an array of {ok, check, fix} objects.",
        run: runDoctor)

    static let sync: Command = Command(
        name: "sync",
        effect: .managesGit,
        summary: "Commit the task folder, pull with rebase and push",
        discussion: "Stages and commits the task folder's lists, tick's own .gitattributes and .tick/.gitignore, "
            + "and changes to files git already tracks in the folder (other changes in the repository are left "
            + "alone), with a message that counts the tasks added, completed, reopened, edited and removed in "
            + "each list. An untracked file that is not a list is never committed: tick names each one it left "
            + "out, and the git add command that adds them. Then git pull --rebase from the branch's upstream (else origin, or the only remote, "
            + "and the branch of the same name), where the merge driver merges each replayed commit, and git "
            + "push. It never forces. With the vdir.pair setting, it first syncs the phone: vdirsyncer, tick vdir "
            + "sync and vdirsyncer again, as tick vdir sync --vdirsyncer does.\n\n"
            + "Exits 5 when the folder is not in a git repository or the repository has no remote, 6 when the "
            + "network fails, and 1 when the pull left conflicts: it then prints the files and the commands "
            + "that finish or undo the rebase.",
        run: runSync)

    static let baseArgument = Argument(name: "BASE", help: "The common ancestor (git's %O)")
    static let oursArgument = Argument(name: "OURS", help: "Our version, replaced by the result (git's %A)")
    static let theirsArgument = Argument(name: "THEIRS", help: "Their version (git's %B)")
    static let markerSizeArgument = Argument(name: "MARKER-SIZE", help: "The length of conflict markers (git's %L)",
                                             arity: .optional)
    static let repositoryPathArgument = Argument(name: "PATH", help: "The file's path in the repository (git's %P)",
                                                 arity: .optional)
    static let labelArgument = Argument(name: "LABEL", help: "The labels of base, ours and theirs (git's %S %X %Y)",
                                        arity: .zeroOrMore)
    static let inProcessOption = Flag("in-process",
                                      help: "Merge in this process and print the result (what the driver's child runs)")

    static let mergeDriver: Command = Command(
        name: "merge-driver",
        effect: .managesGit,
        summary: "Merge three versions of a list file (git's merge driver)",
        discussion: "What git runs for a list file that both sides changed (set up by git-setup). Tasks are "
            + "matched across the versions and merged field by field; lines outside tasks merge line by line "
            + "with git merge-file. The result is written to OURS, with conflict markers of MARKER-SIZE "
            + "(default 7) around the smallest span that conflicts. A version that is not UTF-8, holds conflict "
            + "markers or is larger than 8 MB is merged line by line, as is every file when the task-aware "
            + "merge fails.\n\n"
            + "Exits 0 when the merge is clean and 1 when it left conflicts.",
        arguments: [baseArgument, oursArgument, theirsArgument, markerSizeArgument, repositoryPathArgument,
                    labelArgument],
        options: [inProcessOption],
        run: runMergeDriver)
}
