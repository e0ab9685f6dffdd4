import TickFormat

// Imports that do not duplicate: a record whose task the folder has already is skipped, or, matched by
// its id, updates that task (README "Importing").

/// What an import does with one record.
public enum ImportMatch: Sendable, Equatable {
    /// The folder has no such task: it is added.
    case add
    /// The folder has it as the record says: nothing to do.
    case unchanged
    /// The folder has it, matched by its `id:`, with other fields: these edits bring it in line.
    case update(TaskID, [TaskEdit])
}

/// The folder's tasks as an import looks them up: by `id:` value, and by list, title, due date and status.
/// A class: an import asks it once a record, and its folder is not copied for each question.
public final class ImportIndex: Sendable {
    private let byID: [String: TaskID]
    private let alike: Set<[UInt8]>
    private let library: Library

    public init(_ library: Library) {
        self.library = library
        var byID: [String: TaskID] = [:]
        var alike: Set<[UInt8]> = []
        for id in library.ids {
            let task = library.task(id)
            if let value = task.id, byID[value] == nil { byID[value] = id }
            alike.insert(ImportIndex.key(path: library.list(id).file.path, title: task.title, due: task.due, done: task.done))
        }
        self.byID = byID
        self.alike = alike
    }

    private static func key(path: String, title: String, due: DueDate?, done: Bool) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(path.utf8.count + title.utf8.count + 20)
        key += path.utf8
        key.append(0)
        key += title.utf8
        key.append(0)
        if let due { key += due.description.utf8 }
        key += [0, done ? 1 : 0]
        return key
    }

    /// What to do with `record`, bound for the list at `path`. With `byID` (Taskwarrior's `--keep-ids`), a
    /// record whose `id:` a task has updates it: its title, due date, priority, flag, notes and status
    /// (completed on the record's day, else `today`). Otherwise a task of that list with the record's title,
    /// due date and status makes the record unchanged.
    public func match(_ record: ImportedTask, path: String, byID: Bool, today: Day) -> ImportMatch {
        let new = record.task
        if byID, let value = record.id, let id = self.byID[value] {
            let task = library.task(id)
            var edits: [TaskEdit] = []
            if task.title != new.title { edits.append(.retitle(new.title)) }
            if task.due != new.due { edits.append(.due(new.due)) }
            if task.priority != new.priority { edits.append(.priority(new.priority)) }
            if task.flagged != new.flagged { edits.append(.flag(new.flagged)) }
            if library.notes(id) != new.notes { edits.append(.replaceNotes(new.notes)) }
            if task.done != new.done { edits.append(new.done ? .completionDate(new.doneDate ?? today) : .reopen) }
            return edits.isEmpty ? .unchanged : .update(id, edits)
        }
        if !alike.isEmpty, alike.contains(ImportIndex.key(path: path, title: new.title, due: new.due, done: new.done)) { return .unchanged }
        return .add
    }
}
