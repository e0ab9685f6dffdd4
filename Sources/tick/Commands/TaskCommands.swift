import TickCore

// Commands that change tasks named by REF: done, reopen, flag, unflag, due, priority, mv, rm.

/// `tick done REF...` and `tick reopen REF...`.
func runDone(_ done: Bool) -> Command.Run {
    { invocation in
        let day = try invocation.now().day
        let session = try invocation.openForWriting(create: false)
        let before = session.library
        // `done` settles an ambiguous REF by its open tasks, `reopen` by its done ones.
        let ids = try invocation.resolveTasks(invocation.values("REF"), in: before) { before.task($0).done != done }
        let changing = ids.filter { before.task($0).done != done }
        var lines: [String] = []
        var keys: [TaskKey] = []
        if !changing.isEmpty {
            let verb = done ? "completed" : "reopened"
            keys = try session.writing().update(changing.map(before.key), summary: "\(verb) " + summaryTitles(changing, in: before)) {
                try $0.settingDone($1, done, on: day).document
            }
        }
        let after = session.library
        var changed: [TaskID] = []
        for id in ids {
            if let k = changing.firstIndex(of: id), let new = after.id(of: keys[k]) {
                changed.append(new)
                lines.append((done ? "Completed " : "Reopened ") + describe(new, in: after))
            } else if let same = after.id(of: before.key(id)) {
                changed.append(same)
                lines.append(describe(same, in: after) + (done ? " was done already" : " was open already"))
            }
        }
        invocation.report(lines, tasks: changed, in: after)
        return session.loaded.status
    }
}

/// `tick flag REF...` and `tick unflag REF...`.
func runFlag(_ flagged: Bool) -> Command.Run {
    updating(summary: flagged ? "flagged" : "unflagged", line: { flagged ? "Flagged " + $0 : "Unflagged " + $0 }) {
        try $0.settingFlag($1, flagged).document
    }
}

/// `tick due REF DATE|none`.
@Sendable func runDue(_ invocation: Invocation) throws -> ExitStatus {
    let due = try invocation.dueDate(invocation.values("DATE").joined(separator: " "))
    let text = due?.description ?? "none"
    return try updating(summary: "set due \(text) on", line: { due == nil ? "Removed the due date of \($0)" : "Due \(text): \($0)" }) {
        try $0.settingDue($1, due).document
    }(invocation)
}

/// `tick priority REF LEVEL`.
@Sendable func runPriority(_ invocation: Invocation) throws -> ExitStatus {
    let level = try priority(named: invocation.value("LEVEL")!, argument: "LEVEL")
    let name = priorityNames[level.rawValue]
    return try updating(summary: "set priority \(name) on",
                        line: { level == .none ? "Removed the priority of \($0)" : "Priority \(name): \($0)" }) {
        try $0.settingPriority($1, level).document
    }(invocation)
}

/// A command that applies one in-place edit to each task its REF arguments name.
private func updating(summary: String, line: @escaping @Sendable (String) -> String,
                      _ edit: @escaping @Sendable (Document, Int) throws -> Document) -> Command.Run {
    { invocation in
        let session = try invocation.openForWriting(create: false)
        let before = session.library
        let ids = try invocation.resolveTasks(invocation.values("REF"), in: before)
        let keys = try session.writing().update(ids.map(before.key), summary: "\(summary) " + summaryTitles(ids, in: before), edit)
        let after = session.library
        let changed = keys.compactMap(after.id)
        invocation.report(changed.map { line(describe($0, in: after)) }, tasks: changed, in: after)
        return session.loaded.status
    }
}

/// `tick rm REF...`: deletes tasks with their notes and subtasks.
@Sendable func runRemove(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let ids = try invocation.resolveTasks(invocation.values("REF"), in: before)
    try session.writing().remove(ids.map(before.key), summary: "deleted " + summaryTitles(ids, in: before))
    var lines: [String] = []
    for id in ids {
        let subtasks = before.subtaskCount(of: id)
        lines.append("Deleted \(describe(id, in: before))" + (subtasks == 0 ? "" : " with \(subtasks) subtask\(subtasks == 1 ? "" : "s")"))
    }
    invocation.report(lines, tasks: ids, in: before)
    return session.loaded.status
}

/// `tick mv REF... LIST`: moves tasks with their notes and subtasks to the end of another list.
@Sendable func runMove(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let ids = try invocation.resolveTasks(invocation.values("REF"), in: before)
    let list = before.lists[try invocation.resolveList(invocation.value("LIST")!, in: before)]
    let keys = try session.writing().move(ids.map(before.key), to: list.file.path,
                                          summary: "moved \(summaryTitles(ids, in: before)) to \(list.name)")
    let after = session.library
    var lines: [String] = []
    var moved: [TaskID] = []
    for (id, key) in zip(ids, keys) {
        guard let key, let new = after.id(of: key) else {
            lines.append("Moved \(describe(id, in: before)) with its parent")
            continue
        }
        moved.append(new)
        let from = before.list(id).file.path == list.file.path ? "" : " from \(before.list(id).name)"
        lines.append("Moved \(describe(new, in: after))\(from) to \(after.list(new).name)")
    }
    invocation.report(lines, tasks: moved, in: after)
    return session.loaded.status
}
