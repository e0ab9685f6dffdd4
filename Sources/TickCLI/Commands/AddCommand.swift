import TickCore

/// The list that `tick add` uses without `--list`.
let defaultListName = "Inbox"

/// `tick add TITLE...`: a new task at the end of a list, a section or a task's subtasks.
@Sendable func runAdd(_ invocation: Invocation) throws -> ExitStatus {
    // Everything that can be checked without the folder is checked before taking its lock.
    let now = invocation.now
    let typed = invocation.values(Commands.titleArgument).joined(separator: " ")
    var input = try TitleInput(parsing: typed, now: now)
    input.title = try TaskTitle.validated(input.title, besidesMetadata: !typed.isBlank)
    if let due = invocation.value(Commands.addDueOption) {
        guard input.due == nil else { throw UsageError.invalidInput("the due date is given twice: in the title and with --due") }
        input.due = try invocation.dueDate(due)
    }
    if let level = invocation.value(Commands.priorityOption) {
        guard input.priority == nil else { throw UsageError.invalidInput("the priority is given twice: in the title and with --priority") }
        input.priority = try priority(named: level, argument: "--priority")
    }
    if invocation.flag(Commands.flagOption) { input.flagged = true }
    let section = invocation.value(Commands.sectionOption)
    let parentText = invocation.value(Commands.parentOption)
    if section != nil, parentText != nil {
        throw UsageError.invalidInput("a subtask goes under its parent: --section and --parent cannot go together")
    }
    if let rule = invocation.value(Commands.addRecOption) {
        guard input.recurrence == nil else { throw UsageError.invalidInput("the rule is given twice: in the title and with --rec") }
        input.recurrence = try recurrenceRule(rule)
    }
    if let until = invocation.value(Commands.addUntilOption) {
        guard input.until == nil else { throw UsageError.invalidInput("the end date is given twice: in the title and with --until") }
        input.until = try invocation.untilDay(until)
    }
    if let problem = Recurrence.problem(rule: input.recurrence, due: input.due, until: input.until) {
        throw UsageError.invalidInput(problem)
    }
    let task = input.newTask(notes: invocation.value(Commands.addNoteOption) ?? "", style: invocation.settings.newTaskStyle)

    // --list, else the configuration's default-list, else Inbox.
    let configured = invocation.value(Commands.addListOption) == nil ? invocation.settings.defaultList : nil
    let listText = invocation.value(Commands.addListOption) ?? configured
    let toInbox = parentText == nil && (listText == nil || listText?.lowercased() == defaultListName.lowercased())
    // Only the default list may be the first write that creates the folder.
    let session = try invocation.openForWriting(create: toInbox)
    let library = session.library
    var path: String
    var heading: String? = nil
    var placement = section.map(Placement.section) ?? .end
    if let parentText {
        let parent = try invocation.resolveTask(parentText, in: library)
        path = library.list(parent).file.path
        if let listText, try invocation.resolveList(listText, in: library) != parent.list {
            throw UsageError.invalidInput("--parent names a task in \(library.list(parent).name), not in '\(listText)'")
        }
        placement = .subtask(of: parent)
    } else if let listText, !toInbox {
        do {
            if invocation.flag(Commands.createListOption), case .notFound = library.resolve(list: listText) {
                // A new list, created by the same change as its first task (one undo removes both).
                let new = try TaskFolder.newList(listText, fields: [])
                path = new.path
                heading = new.name
            } else {
                path = library.lists[try invocation.resolveList(listText, in: library, creating: true)].file.path
            }
        } catch let failure as CommandFailure where configured != nil {
            let origin = invocation.settings.origins["default-list"].map { " (the default-list of \($0))" } ?? ""
            throw CommandFailure(failure.exitStatus, failure.message + origin)
        }
    } else {
        // The default list: one named Inbox exactly, else inbox.md, created on demand.
        path = session.folder.defaultListPath(named: defaultListName)
        heading = defaultListName
    }

    let (after, id) = try session.folder.add(task, toListAt: path, at: placement, createWithHeading: heading)
    var line = "Added \(describe(id, in: after)) to \(after.list(id).name)"
    if let parent = after.parent(of: id) { line += " under \(describe(parent, in: after))" }
    invocation.report([line], tasks: [id], changed: [true], in: after)
    return session.loaded.status
}
