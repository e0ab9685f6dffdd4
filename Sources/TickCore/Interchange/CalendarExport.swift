import TickFormat

// The calendar export (`tick export ics`, `tick export vdir`): the library's tasks as VTODOs.

/// Which tasks a calendar export holds.
public struct CalendarScope: Equatable, Sendable {
    /// Only this list (an index into `Library.lists`); nil: every list.
    public var list: Int?
    /// Leave completed tasks out.
    public var openOnly: Bool

    public init(list: Int? = nil, openOnly: Bool = false) {
        self.list = list
        self.openOnly = openOnly
    }
}

extension Library {
    /// The UID of every task, in folder order: the `id:` value when the task has one, else
    /// `tick-` and its full ref. A UID that an earlier task already has (two tasks with one id, or
    /// same-titled tasks that agree in everything) gets `-2`, `-3`… so that every UID is unique.
    public func calendarUIDs() -> [TaskID: String] {
        var result: [TaskID: String] = [:]
        var used: [String: Int] = [:]
        for id in ids {
            let base = task(id).id ?? "tick-" + fullRef(id).description
            let count = (used[base] ?? 0) + 1
            used[base] = count
            result[id] = count == 1 ? base : base + "-" + String(count)
        }
        return result
    }

    /// The tasks of `scope` as VTODOs, in folder order.
    ///
    /// - `stamp`: the list's modification time in seconds since the epoch (UTC), for `DTSTAMP`.
    /// - `utcSeconds`: local midnight of a `done:` day as seconds since the epoch (UTC), for `COMPLETED`.
    public func calendarTodos(_ scope: CalendarScope, stamp: (TaskList) -> Int,
                              utcSeconds: (Day) -> Int? = { LocalTimeZone.seconds(day: $0) }) -> [CalendarTodo] {
        let uids = calendarUIDs()
        var todos: [CalendarTodo] = []
        for id in ids where scope.list == nil || id.list == scope.list {
            let info = task(id)
            if scope.openOnly && info.done { continue }
            let list = self.list(id)
            var todo = CalendarTodo(
                uid: uids[id]!, stamp: stamp(list), summary: info.title, description: notes(id), due: info.due,
                priority: info.priority, done: info.done, completed: info.done ? info.doneDate.flatMap(utcSeconds) : nil,
                categories: info.tags + [list.name], parent: parent(of: id).flatMap { uids[$0] },
                flagged: info.flagged)
            todo.recurrence = info.recurrence
            todo.until = info.recurrence == nil ? nil : info.until
            todo.start = info.start
            todos.append(todo)
        }
        return todos
    }
}

extension TaskList {
    /// The list file's modification time in whole seconds since the epoch, as the folder scan saw it
    /// (0 when it has no status).
    public var modifiedSeconds: Int {
        guard let modified = file.status?.modified else { return 0 }
        return Int(modified >= 0 ? modified / 1_000_000_000 : (modified - 999_999_999) / 1_000_000_000)
    }
}
