import TickCore

/// The list that `tick add` uses without `--list`.
let defaultListName = "Inbox"

/// `tick add TITLE...`: a new task at the end of a list, a section or a task's subtasks.
@Sendable func runAdd(_ invocation: Invocation) throws -> ExitStatus {
    // Everything that can be checked without the folder is checked before taking its lock.
    let now = try invocation.now()
    let typed = invocation.values("TITLE").joined(separator: " ")
    var input = try TitleInput(parsing: typed, now: now)
    input.title = try TaskTitle.validated(input.title, besidesMetadata: !typed.trimmingInvisibleSpace().isEmpty)
    if let due = invocation.value("due") {
        guard input.due == nil else { throw UsageError.invalidInput("the due date is given twice: in the title and with --due") }
        input.due = try invocation.dueDate(due)
    }
    if let level = invocation.value("priority") {
        guard input.priority == nil else { throw UsageError.invalidInput("the priority is given twice: in the title and with --priority") }
        input.priority = try priority(named: level, argument: "--priority")
    }
    if invocation.flag("flag") { input.flagged = true }
    let section = invocation.value("section")
    let parentText = invocation.value("parent")
    if section != nil, parentText != nil {
        throw UsageError.invalidInput("a subtask goes under its parent: --section and --parent cannot go together")
    }
    let task = NewTask(title: input.title, done: input.doneDate != nil, due: input.due, doneDate: input.doneDate,
                       priority: input.priority ?? .none, flagged: input.flagged, notes: invocation.value("note") ?? "")

    let listText = invocation.value("list")
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
        placement = .subtask(of: library.key(parent))
    } else if let listText, !toInbox {
        path = library.lists[try invocation.resolveList(listText, in: library)].file.path
    } else {
        // The default list: one named Inbox exactly, else inbox.md, created on demand.
        let named = library.lists.filter {
            $0.file.path.lowercased() == "inbox.md" || $0.name.lowercased() == defaultListName.lowercased()
        }
        path = named.first { $0.file.path.lowercased() == "inbox.md" }?.file.path ?? named.first?.file.path ?? "inbox.md"
        heading = defaultListName
    }

    let mutator = try session.writing()
    let key: TaskKey
    do {
        key = try mutator.insert(task, into: path, at: placement, createWithHeading: heading,
                                 summary: "added \"\(task.title)\"")
    } catch let error as EditError where error.reason == .noSuchSection {
        let name = mutator.library.list(at: path).map { mutator.library.lists[$0].name } ?? path
        throw CommandFailure(.negative, "no section '\(section ?? "")' in the list \(name)")
    }
    let after = mutator.library
    let id = after.id(of: key)!
    var line = "Added \(describe(id, in: after)) to \(after.list(id).name)"
    if let parent = after.parent(of: id) { line += " under \(describe(parent, in: after))" }
    invocation.report([line], tasks: [id], in: after)
    return session.loaded.status
}
