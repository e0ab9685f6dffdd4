import TickFormat

// `tick remind`: which open tasks came due since the last run. Pure: the clock, the settings and
// what earlier runs reported (`ReminderState`) are parameters; `ReminderStore` keeps the state.

/// One reminder of a run.
public struct Reminder: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// Its due moment arrived in the last few minutes.
        case due
        /// Its due moment is still to come, within `--within`.
        case upcoming
        /// Its due moment passed longer ago than a timer's period, while tick remind was not running.
        case missed
    }

    public var task: TaskID
    /// The due moment: the due date and time, or the date at the reminder time of day.
    public var moment: DueDate
    public var kind: Kind
    /// Minutes from now to the moment (negative when it has passed).
    public var minutesAway: Int
}

/// What one run reports, and the state to remember afterwards.
public struct ReminderRun: Sendable {
    /// Due and missed first (the earliest first), then upcoming ones.
    public var reminders: [Reminder]
    /// Whether the missed ones are many enough (more than `ReminderRules.digestAbove`) to be told as one digest.
    public var digest: Bool
    /// When tick remind last ran for this folder, if it did.
    public var lastRun: DueDate?
    /// The state to save once the reminders are delivered.
    public var state: ReminderState
}

/// The rules of a reminder run, in one place.
public enum ReminderRules {
    /// The time of day a date-only task comes due: 09:00 (configuration: `remind.time`).
    public static let defaultTime = 9 * 60
    /// A due moment more than this many minutes ago counts as missed: two periods of the 5-minute timer.
    public static let missedAfter = 10
    /// More missed reminders than this are told as one digest.
    public static let digestAbove = 3
    /// `--within` at most: a week.
    public static let maximumWithin = 7 * 1440
}

extension DueDate {
    /// Minutes since 1970-01-01 00:00 (floating local time) of this due, at `minutes` or else `time`.
    func minuteNumber(defaultTime time: Int) -> Int { day.daysSinceEpoch * 1440 + (minutes ?? time) }
}

extension Library {
    /// The identity a reminder is recorded under: `id:VALUE` for a task with an `id:` token, else
    /// `ref:` and its full ref (which changes with its title and list; a state recorded under an
    /// earlier ref follows the ref's forwarding, `followingForwards`).
    public func reminderKey(_ id: TaskID) -> String {
        if let value = task(id).id { return "id:" + value }
        return "ref:" + fullRef(id).description
    }

    /// The reminders due at `now`: every open task whose due moment (its due time, or `time` on a
    /// date-only task) is at `now` or earlier, or within `within` minutes after it, and that `state`
    /// does not record as reported for that moment. The returned state records them, and forgets
    /// what no open task is due at any more.
    public func reminders(now: Now, within: Int, time: Int, state: ReminderState) -> ReminderRun {
        let state = followingForwards(state)
        let nowNumber = now.day.daysSinceEpoch * 1440 + now.minutes
        var reminders: [Reminder] = []
        var kept: Set<ReminderState.Entry> = []
        for id in ids {
            let info = task(id)
            guard !info.done, let due = info.due else { continue }
            let number = due.minuteNumber(defaultTime: time)
            let moment = DueDate(day: due.day, minutes: due.minutes ?? time)
            let entry = ReminderState.Entry(key: reminderKey(id), moment: moment)
            if state.reported.contains(entry) {
                kept.insert(entry)
                continue
            }
            let away = number - nowNumber
            let kind: Reminder.Kind
            if away > within { continue }
            if away > 0 {
                kind = .upcoming
            } else if -away > ReminderRules.missedAfter {
                kind = .missed
            } else {
                kind = .due
            }
            reminders.append(Reminder(task: id, moment: moment, kind: kind, minutesAway: away))
            kept.insert(entry)
        }
        reminders.sort { a, b in
            if (a.kind == .upcoming) != (b.kind == .upcoming) { return b.kind == .upcoming }
            return a.moment != b.moment ? a.moment < b.moment : a.task < b.task
        }
        let missed = reminders.filter { $0.kind == .missed }.count
        return ReminderRun(reminders: reminders, digest: missed > ReminderRules.digestAbove, lastRun: state.lastRun,
                           state: ReminderState(lastRun: now.dueDate, reported: kept))
    }
}

// MARK: - The state

/// What earlier runs of tick remind reported for one task folder: each task's identity with the due
/// moment it was reported for, and when the last run was.
public struct ReminderState: Equatable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var moment: DueDate

        public init(key: String, moment: DueDate) {
            self.key = key
            self.moment = moment
        }
    }

    public var lastRun: DueDate?
    public var reported: Set<Entry>

    public init(lastRun: DueDate? = nil, reported: Set<Entry> = []) {
        self.lastRun = lastRun
        self.reported = reported
    }

    static let header = "tick remind state 1"

    /// The file's text: a header, the folder, the last run, then one `r KEY MOMENT` line per entry, sorted.
    func encode(folder: String) -> [UInt8] {
        var text = ReminderState.header + "\n" + "folder " + folder + "\n"
        if let lastRun { text += "last \(lastRun)\n" }
        for entry in reported.sorted(by: { ($0.key, $0.moment) < ($1.key, $1.moment) }) {
            text += "r \(entry.key) \(entry.moment)\n"
        }
        return Array(text.utf8)
    }

    /// The state in `bytes` when it is a well-formed state file of `folder`; nil at any doubt.
    static func decode(_ bytes: [UInt8], folder: String) -> ReminderState? {
        guard let text = String(validatingUTF8Bytes: bytes), text.hasSuffix("\n") else { return nil }
        var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.popFirst() == Substring(header), lines.popFirst() == Substring("folder " + folder) else { return nil }
        var state = ReminderState()
        if let first = lines.first, first.hasPrefix("last ") {
            guard let last = DueDate(iso: first.dropFirst(5).utf8), last.minutes != nil else { return nil }
            state.lastRun = last
            lines = lines.dropFirst()
        }
        for line in lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "r", isKey(fields[1]),
                  let moment = DueDate(iso: fields[2].utf8), moment.minutes != nil else { return nil }
            state.reported.insert(Entry(key: String(fields[1]), moment: moment))
        }
        return state
    }

    /// `id:` and 1 to 64 letters, digits, `-`, `_` or `.`; or `ref:` and a full ref.
    static func isKey(_ text: Substring) -> Bool {
        if text.hasPrefix("id:") {
            let value = text.utf8.dropFirst(3)
            return (1...64).contains(value.count) && value.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E
            }
        }
        if text.hasPrefix("ref:") {
            let value = text.utf8.dropFirst(4)
            return value.count == Ref.fullLength && value.allSatisfy { Ref.alphabet.contains($0) }
        }
        return false
    }
}

extension String {
    /// The text of `bytes` when they are valid UTF-8 without NUL, else nil.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        guard !bytes.contains(0) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count, Array(text.utf8) == bytes else { return nil }
        self = text
    }
}

extension Library {
    /// `state` with each entry recorded under a `ref:` that tick has since retired, forwarding it to a
    /// task (a new title, a move, a list rename, `tick id`, a twin's change: FORMAT.md 5.9), recorded
    /// under that task's key instead: such a change never repeats a reminder.
    func followingForwards(_ state: ReminderState) -> ReminderState {
        let moved = state.reported.compactMap { entry -> (entry: ReminderState.Entry, ref: Ref)? in
            guard entry.key.hasPrefix("ref:"), let ref = Ref(fullText: Array(entry.key.utf8.dropFirst(4))),
                  retired.contains(ref.hash) else { return nil }
            return (entry, ref)
        }
        guard !moved.isEmpty else { return state }
        // The tasks by the ref they are shown under, once.
        var shown: [UInt64: TaskID?] = [:]
        for (l, list) in lists.enumerated() {
            for i in 0..<list.taskCount {
                let id = TaskID(list: l, index: i)
                let hash = fullRef(id, hash: list.segment.refRecord(i).refHash).hash
                shown[hash] = shown[hash] == nil ? .some(id) : .some(nil)
            }
        }
        var state = state
        for (entry, ref) in moved {
            var at = ref
            for _ in 0..<16 {
                guard let to = retired.notes[at.hash]?.to else { break }
                at = to
                guard retired.contains(at.hash) else { break }
            }
            guard !retired.contains(at.hash), let found = shown[at.hash], let task = found else { continue }
            state.reported.remove(entry)
            state.reported.insert(ReminderState.Entry(key: reminderKey(task), moment: entry.moment))
        }
        return state
    }
}
