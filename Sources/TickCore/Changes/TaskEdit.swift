import TickFormat

// The vocabulary of changes to tasks and lists: what a command asks the folder for. `TaskFolder`
// applies them; this file is the one place where each becomes an edit of the format library.

/// A change to one task's fields, in place: its line and notes change, the task stays where it is.
public enum TaskEdit: Sendable, Equatable {
    /// Ticks the box and writes `done:` with this day (FORMAT.md §8.2). A repeating task instead
    /// moves to its next occurrence (FORMAT.md 5.10): only its `due:` token changes, its box stays
    /// open and its done subtasks open again; past its `until:` day it is completed as any task.
    case complete(on: Day)
    /// As `complete`, and a repeating task that moves on also gets a completed copy right after it
    /// (without `rec:`, `until:` and subtasks): `--keep-history`.
    case completeKeepingHistory(on: Day)
    /// As `complete`, but a repeating task in the Tasks plugin's style (FORMAT.md 11) moves on in place
    /// as tick's own do, without the completed copy the plugin writes (`obsidian.recurrence = in-place`).
    case completeInPlace(on: Day)
    /// Moves a repeating task to its next occurrence without completing it (`tick skip`): for `+`
    /// and `++` from its due date as a completion would, for the completion mode from this day.
    case skip(today: Day)
    /// Sets the `rec:` token, or removes it (nil).
    case recurrence(RecurrenceRule?)
    /// Sets the `until:` token, or removes it (nil).
    case until(Day?)
    /// Sets the `done:` day of a task, ticking its box when it is open.
    case completionDate(Day)
    /// Clears the box and removes `done:`.
    case reopen
    /// Adds (true) or removes (false) `#flag`.
    case flag(Bool)
    /// Sets the `due:` token, or removes it (nil).
    case due(DueDate?)
    /// Sets the priority token (`.none` removes it).
    case priority(Priority)
    /// Replaces the title words, keeping the tokens.
    case retitle(String)
    /// Replaces the notes ("" removes them).
    case replaceNotes(String)
    /// Adds a paragraph after the notes.
    case appendNote(String)
    /// Sets the start date (`🛫`, `[start:: …]`; FORMAT.md 11), or removes it (nil): a task that has
    /// one changes its value's bytes only.
    case start(Day?)
    /// Gives the task an `id:` token with this value (FORMAT.md 5.8); a task that has one keeps it.
    case giveID(String)

    /// The field this edit changes, as a command's report names it.
    public var field: String {
        switch self {
        case .complete, .completeKeepingHistory, .completeInPlace, .completionDate: return "done"
        case .skip: return "skipped"
        case .recurrence: return "rec"
        case .until: return "until"
        case .start: return "start"
        case .reopen: return "reopened"
        case .flag: return "flag"
        case .due: return "due"
        case .priority: return "priority"
        case .retitle: return "title"
        case .replaceNotes, .appendNote: return "notes"
        case .giveID: return "id"
        }
    }

    /// How the journal (and so `tick undo`) names a change made of this edit alone, before the
    /// tasks' titles.
    public var summary: String {
        switch self {
        case .complete, .completeKeepingHistory, .completeInPlace, .completionDate: return "completed"
        case .skip: return "skipped"
        case .recurrence(let rule): return "set rec \(rule?.description ?? "none") on"
        case .until(let day): return "set until \(day?.description ?? "none") on"
        case .start(let day): return "set start \(day?.description ?? "none") on"
        case .reopen: return "reopened"
        case .flag(let on): return on ? "flagged" : "unflagged"
        case .due(let due): return "set due \(due?.description ?? "none") on"
        case .priority(let level): return "set priority \(level.name) on"
        case .retitle, .replaceNotes, .appendNote: return "edited"
        case .giveID: return "gave an id to"
        }
    }

    /// Whether this edit would leave a task with these fields as it is: a no-op, which changes nothing.
    func leavesAsIs(_ task: TaskInfo, notes: String) -> Bool {
        switch self {
        case .complete, .completeKeepingHistory, .completeInPlace: return task.done
        case .skip: return task.done || task.recurrence == nil
        case .recurrence(let rule): return task.recurrence == rule
        case .until(let day): return task.until == day
        case .start(let day): return task.start == day
        case .completionDate(let day): return task.done && task.doneDate == day
        case .reopen: return !task.done
        case .flag(let on): return task.flagged == on
        case .due(let due): return task.due == due
        case .priority(let level): return task.priority == level
        case .retitle(let title): return task.title == title
        case .replaceNotes(let text): return notes == text
        case .appendNote(let text): return text.trimmingInvisibleSpace().isEmpty
        case .giveID: return task.id != nil
        }
    }
}

extension Library {
    /// Whether `edit` would leave task `id` as it is (a no-op).
    public func leavesAsIs(_ edit: TaskEdit, _ id: TaskID) -> Bool { edit.leavesAsIs(task(id), notes: notes(id)) }
}

extension Priority {
    /// The priority names a command takes and prints, in the order of the raw values.
    public static let names = ["none", "low", "medium", "high"]

    /// `none`, `low`, `medium` or `high`.
    public var name: String { Priority.names[rawValue] }

    /// The priority a name (any case) gives, or nil.
    public init?(name: String) {
        guard let index = Priority.names.firstIndex(of: name.lowercased()) else { return nil }
        self.init(rawValue: index)
    }
}

/// Where a new task goes in its list.
public enum Placement: Sendable, Equatable {
    /// In the list's part outside sections: after its last task there, else before the first
    /// section heading (FORMAT.md, section 8.1).
    case end
    /// After the last task of the section under this heading.
    case section(String)
    /// As the last subtask of this task (which must be in the same list).
    case subtask(of: TaskID)

    /// The task a subtask goes under; nil for the other placements.
    var parent: TaskID? {
        if case .subtask(of: let id) = self { return id }
        return nil
    }
}

/// A change to a list file as a whole.
public enum ListChange: Sendable, Equatable {
    /// A new list file named after `name`, with front matter fields (symbol, colour) when given.
    case create(name: String, fields: [ListField])
    /// The list's heading and its file name.
    case rename(list: Int, to: String)
    /// Front matter fields set, or removed (a nil value).
    case restyle(list: Int, fields: [ListField])
    /// The file, with every task in it; refused while tasks are open unless `force`.
    case remove(list: Int, force: Bool)
}

/// One front matter key of a list, and its value (nil: remove the key).
public struct ListField: Sendable, Equatable {
    public var key: String
    public var value: String?

    public init(key: String, value: String?) {
        self.key = key
        self.value = value
    }
}

// MARK: - Onto the document

extension Document {
    /// `edit` applied to task `i`: the one place a `TaskEdit` becomes an edit of the format library.
    func applying(_ edit: TaskEdit, to i: Int) throws(EditError) -> Document {
        switch edit {
        case .complete(let day): return try completing(i, on: day, keepHistory: false)
        case .completeInPlace(let day): return try completing(i, on: day, keepHistory: false, tasksConvention: false)
        case .completeKeepingHistory(let day): return try completing(i, on: day, keepHistory: true)
        case .completionDate(let day): return try settingDone(i, true, on: day).document
        case .skip(let today): return try skipping(i, today: today)
        case .recurrence(let rule): return try settingRecurrence(i, rule).document
        case .until(let day): return try settingUntil(i, day).document
        case .start(let day): return try settingStart(i, day).document
        case .reopen: return try settingDone(i, false, on: Day(daysSinceEpoch: 0)).document
        case .flag(let on): return try settingFlag(i, on).document
        case .due(let due): return try settingDue(i, due).document
        case .priority(let level): return try settingPriority(i, level).document
        case .retitle(let title): return try retitling(i, title).document
        case .replaceNotes(let notes): return try replacingNotes(i, notes).document
        case .appendNote(let note): return try appendingNote(i, note).document
        case .giveID(let value): return try settingID(i, value).document
        }
    }
}

extension Document {
    /// `edit` of task `i` as a line edit that a change of many tasks applies together with the
    /// others (`applyingTogether(_:)`), or nil when it must be applied alone: a completion that
    /// moves a repeating task on (or is refused), a change of the title or the notes, a skip.
    func lineEdit(_ edit: TaskEdit, at i: Int) -> LineEdit? {
        switch edit {
        case .complete(let day), .completeInPlace(let day), .completeKeepingHistory(let day):
            // As `completing` decides: a task without a next occurrence is ticked, whatever the history option.
            do throws(Recurrence.Refusal) {
                if case .next? = try Recurrence.next(of: tasks[i], completed: day, today: day) { return nil }
            } catch {
                return nil
            }
            return .done(true, on: day)
        case .completionDate(let day): return .done(true, on: day)
        case .reopen: return .done(false, on: Day(daysSinceEpoch: 0))
        case .flag(let on): return .flag(on)
        case .due(let due): return .due(due)
        case .priority(let level): return .priority(level)
        case .recurrence(let rule): return .recurrence(rule)
        case .until(let day): return .until(day)
        case .start(let day): return .start(day)
        case .giveID(let value): return .id(value)
        case .skip, .retitle, .replaceNotes, .appendNote: return nil
        }
    }
}

// MARK: - Repeating tasks

extension TaskEdit {
    /// Whether this edit completes a task (`done`, `pick --done`, the editor).
    public var isCompletion: Bool {
        switch self {
        case .complete, .completeKeepingHistory, .completeInPlace: return true
        default: return false
        }
    }

    /// A completion without its kept history: what a parent's open subtasks get.
    var plain: TaskEdit {
        if case .completeKeepingHistory(let day) = self { return .complete(on: day) }
        if case .completeInPlace(let day) = self { return .complete(on: day) }
        return self
    }
}

extension TaskInfo {
    /// Whether completing this task on `day` moves it to a next occurrence (it repeats, and its
    /// `until:` day is not passed), rather than ticking it.
    public func advances(completedOn day: Day) -> Bool {
        guard !done, let rule = recurrence else { return false }
        guard case .next? = try? Recurrence.next(rule, due: due, until: until, completed: day, today: day) else { return false }
        return true
    }
}

extension Document {
    /// Completes task `i` on `day`: a repeating task moves to its next occurrence (and, keeping
    /// history, gets a completed copy after it); any other one, or one whose `until:` day has come,
    /// is ticked. A repeating task tick cannot advance (a malformed rule or date, `+` without a due
    /// date) is refused, with nothing changed.
    ///
    /// A task in the Tasks plugin's style (FORMAT.md 11) follows the plugin's convention unless
    /// `tasksConvention` is false: the completed copy is kept (`🏁 delete` drops it), so that the open
    /// occurrence stays above the done one. A phrase without a `rec:` equivalent is not advanced: the
    /// task is ticked.
    func completing(_ i: Int, on day: Day, keepHistory: Bool, tasksConvention: Bool = true) throws(EditError) -> Document {
        guard tasks.indices.contains(i) else { throw EditError.noSuchTask(i) }
        let task = tasks[i]
        let keepHistory = keepHistory
            || (tasksConvention && task.style != .tick && task.onCompletion?.lowercased() != "delete")
        let outcome: Recurrence.Outcome?
        do throws(Recurrence.Refusal) {
            outcome = try Recurrence.next(of: task, completed: day, today: day)
        } catch {
            throw EditError.badValue("'\(task.title)' (line \(task.line)) repeats, but " + error.message + "; nothing changed",
                                     line: task.line)
        }
        guard case .next(let due)? = outcome else { return try settingDone(i, true, on: day).document }
        // The copy first, with the old due date; it goes after the task, so the task keeps its index.
        let recorded = keepHistory ? try recordingCompletion(i, on: day).document : self
        return try recorded.advancingRecurrence(i, to: due).document
    }

    /// Moves repeating task `i` to the occurrence after its current one, without completing it:
    /// only its `due:` token changes. Refused for a task that does not repeat, and when the next
    /// occurrence would pass its `until:` day.
    func skipping(_ i: Int, today: Day) throws(EditError) -> Document {
        guard tasks.indices.contains(i) else { throw EditError.noSuchTask(i) }
        let task = tasks[i]
        let outcome: Recurrence.Outcome?
        do throws(Recurrence.Refusal) {
            outcome = try Recurrence.skip(of: task, today: today)
        } catch {
            throw EditError.badValue("'\(task.title)' (line \(task.line)) repeats, but " + error.message + "; nothing changed",
                                     line: task.line)
        }
        switch outcome {
        case nil:
            throw EditError.badValue("'\(task.title)' does not repeat: give it a rule with tick edit REF --rec 1w", line: task.line)
        case .ended?:
            throw EditError.badValue("the next occurrence of '\(task.title)' would fall after its until:\(task.until!) day; "
                                     + "complete it with tick done, or change until: with tick edit REF --until DATE",
                                     line: task.line)
        case .next(let due)?:
            return try settingDue(i, due).document
        }
    }
}

// MARK: - The Tasks plugin's styles

extension NewTask {
    /// This task in the style of the list it goes into (FORMAT.md 11): that of its first task written
    /// with signifiers or Dataview fields; tick's when its tasks use tick's tokens only; its own
    /// `style` (the configuration's `obsidian.new-task-style`) in a list without tasks.
    public func styled(like document: Document) -> NewTask {
        guard !document.tasks.isEmpty else { return self }
        var task = self
        task.style = document.tasks.first { $0.style != .tick }?.style ?? .tick
        return task
    }
}

extension Day {
    /// The day in words relative to `now`, as a due date without a time reads (`today`, `Fri`).
    public func relativeText(to now: Now) -> String { DueDate(day: self).relativeText(to: now) }
}
