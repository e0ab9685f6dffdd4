import TickFormat

// The field-by-field decisions of `tick vdir sync` (VdirSync.swift): the edits that take a field
// the phone changed, the start date that is the task's or a property of the phone's, and the
// words for the parent the phone gave a task (VdirSyncParents.swift decides whether to take it).

extension VdirSync {
    /// The edits that take the phone's `field`: a completion of a repeating task is `done` (it
    /// advances by tick's rule), as is a `DUE` moved to the rule's next occurrence.
    func completionOrEdit(_ field: SyncFields.Field, phone: SyncFields, base: SyncFields, tick: SyncFields) -> [TaskEdit]? {
        switch field {
        case .completion:
            if phone.done { return [.complete(on: phone.doneDay ?? now.day)] }
            return [.reopen]
        case .title: return phone.title.isEmpty ? nil : [.retitle(phone.title)]
        case .tags: return nil  // in the merge, through the title
        case .repeats:
            // The phone's rule, when tick can write it, in the mode of tick's (from the due date without one).
            guard let rrule = phone.rrule else { return [.until(nil), .recurrence(nil)] }
            let mode = tick.rule.flatMap { $0.split(separator: " ").first }.flatMap { RecurrenceRule(value: String($0.dropFirst(4))) }?.mode ?? .due
            guard let (rule, until) = SyncFields.recurrence(rrule, mode: mode),
                  Recurrence.problem(rule: rule, due: phone.due ?? tick.due, until: until) == nil else { return nil }
            return [.recurrence(rule), .until(until)]
        case .notes: return [.replaceNotes(phone.notes)]
        case .due:
            if let rule = base.rule.flatMap({ $0.split(separator: " ").first }).flatMap({ RecurrenceRule(value: String($0.dropFirst(4))) }),
               let due = phone.due, let old = base.due,
               due.day == Recurrence.step(old.day, by: rule.count, rule.unit)
                || (try? Recurrence.next(rule, due: old, until: nil, completed: now.day, today: now.day)) == .next(due) {
                return [.complete(on: now.day)]
            }
            return [.due(phone.due)]
        case .start: return [.start(phone.start)]
        case .priority: return [.priority(phone.priority)]
        }
    }

    func event(_ field: SyncFields.Field, phone: SyncFields, list: String, title: String) -> VdirEvent {
        switch field {
        case .completion: return VdirEvent(kind: phone.done ? .completed : .reopened, list: list, title: title)
        default: return VdirEvent(kind: .edited, list: list, title: title, field: field.rawValue, detail: phone.words(field))
        }
    }

    /// Whether the start field is merged for `task`: not for a repeating task (its `DTSTART` is its
    /// due moment, which the due field reads), nor for one without a start date, where the phone's
    /// `DTSTART` is a property of the phone's, kept as it came; except that a start date tick removed
    /// since the base is tick's change, merged as any other.
    static func mergesStart(_ task: TaskInfo, tick: SyncFields, base: SyncFields?) -> Bool {
        if tick.rule != nil || base?.rule != nil { return false }
        if task.start != nil { return true }
        guard let base, base.start != nil, !base.startKept else { return false }
        return true
    }

    /// Whether the phone's `DTSTART` is kept in `task`'s object: the task has no start date, and the
    /// base's `DTSTART`, if any, was the phone's (one of tick's gone from the task is its removal).
    static func keepsPhoneStart(_ task: TaskInfo, phone: VdirObject?, base: [UInt8]?) -> Bool {
        guard task.start == nil, phone?.todo.first("DTSTART") != nil else { return false }
        guard let base, let fields = (try? VdirObject(base))?.fields else { return true }
        return fields.start == nil || fields.startKept
    }

    /// The parent of `RELATED-TO` value `uid` in words: the title of a task of list `list`, else the UID.
    static func parentWords(_ uid: String?, list: Int?, library: Library, state: VdirState, byID: [String: TaskID]) -> String {
        guard let uid else { return "no parent" }
        let value = state.entries.values.first { $0.uid == uid }?.id ?? uid
        guard let parent = byID[value], parent.list == list else { return "RELATED-TO \(uid), no task of this list" }
        return "the parent \"\(library.task(parent).title)\""
    }
}
