import Dispatch
import Synchronization
import TickFormat

// MARK: - Records

/// A byte range of a segment's text.
struct TextRef: Equatable {
    var offset: UInt32
    var length: UInt32

    static let none = TextRef(offset: .max, length: 0)
    var isNone: Bool { offset == .max }
}

/// One task's hot, ref and cold records joined (`Segment.record`), for a reader of a whole task,
/// with its text as ranges of the segment's text. Segments hold the three apart.
struct TaskRecord {
    var refHash: UInt64
    var dueDay: Int32          // days since 1970-01-01, or .min
    var dueMinutes: Int16      // minutes after midnight, or -1
    var flags: UInt8           // 1: done, 2: flagged, 4: a scheduled or start date (in the extra record),
                               // 8: a subtask, 16: a rule (`rec:`), 32: notes, 128: folded text
                               // (`HotRecord`)
    var priority: UInt8
    var doneDay: Int32         // or .min
    var line: UInt32
    var parent: Int32          // index in the list, or -1
    var depth: UInt16
    var idLength: UInt16
    var section: Int32         // index in the segment's sections, or -1
    var title: TextRef
    var notes: TextRef
    var tags: TextRef          // " #a #b"

    var done: Bool { flags & 1 != 0 }
    var flagged: Bool { flags & 2 != 0 }
    var due: DueDate? { DueDate(recordDay: dueDay, minutes: dueMinutes) }
}

extension DueDate {
    /// The due date a record's day and minutes stand for (`.min` and -1 for none), or nil.
    init?(recordDay day: Int32, minutes: Int16) {
        guard day != .min else { return nil }
        self.init(day: Day(daysSinceEpoch: Int(day)), minutes: minutes < 0 ? nil : Int(minutes))
    }
}

/// The part of a record that views filter and sort on, kept apart so that a query over 100,000
/// tasks reads 16 bytes of each, not all of it.
struct HotRecord {
    var dueDay: Int32
    var doneDay: Int32
    var line: UInt32
    var dueMinutes: Int16
    var flags: UInt8
    var priority: UInt8

    var done: Bool { flags & 1 != 0 }
    var flagged: Bool { flags & 2 != 0 }
    var due: DueDate? { DueDate(recordDay: dueDay, minutes: dueMinutes) }
    /// Whether the extra record holds a scheduled or start date (FORMAT.md 11), so that Today reads
    /// it only for those tasks.
    var hasPlannedDays: Bool { flags & 4 != 0 }
    /// Whether the task's title, tags or notes hold a byte beyond ASCII, so that a search reads
    /// its folded text (`FoldedRecord`) rather than its text.
    var isFolded: Bool { flags & 128 != 0 }
    /// Whether the task has a parent, a rule or notes: a row reads the cold record for those only then.
    var isSubtask: Bool { flags & 8 != 0 }
    var hasRule: Bool { flags & 16 != 0 }
    var hasNotes: Bool { flags & 32 != 0 }

    /// Whether the task is overdue at `now` (see `DueDate.isOverdue`), without making dates.
    func isOverdue(today: Int32, minutes: Int) -> Bool {
        DueDate.isOverdue(day: dueDay, minutes: dueMinutes, today: today, nowMinutes: minutes)
    }
}

/// The rest of a record (the ref and parent are in the ref record), as a segment keeps it: where
/// the task's text starts and the lengths of its parts, in 12 bytes. A task's
/// text is one run in the segment's text, right after the task before's: its title, its tags as
/// a title line's end would hold them (" #a #b", so that title and tags are searched as one
/// string), its notes, its `id:` value, then its repetition phrase. The run ends where the next
/// task's starts (the last task's, at the end of the text), so the notes' length is what the
/// other parts leave of it. The fields that few tasks have, and the lengths, section and depth
/// that do not fit here, are in an `ExtraRecord` of their own.
struct ColdRecord {
    /// Where the task's text starts in the segment's text.
    var text: UInt32
    var titleLength: UInt16
    /// The section's index in the segment's sections plus one, or 0 for none.
    var section: UInt16
    var tagsLength: UInt8
    /// The length of the `id:` value: 64 bytes at most (FORMAT.md 5.8).
    var idLength: UInt8
    var depth: UInt8
    /// 1: the task has an extra record, which then holds its title's and tags' lengths, its
    /// section and its depth (this record's are 0).
    var flags: UInt8

    var hasExtra: Bool { flags & 1 != 0 }
}

/// What few tasks have (FORMAT.md 5.10 and 11), kept beside the cold records in the order of
/// their tasks, one for each task that has a rule, an `until:`, a scheduled or start date, or a
/// repetition phrase, or a title, tags, section or depth too large for its cold record.
struct ExtraRecord {
    var task: UInt32
    /// The `rec:` rule (`RecurrenceRule.packed`), or 0 for none.
    var recurrence: UInt32
    /// The `until:` day (days since 1970-01-01), or .min.
    var until: Int32
    /// The scheduled day (`⏳`), or .min.
    var scheduled: Int32
    /// The start day (`🛫`), or .min.
    var start: Int32
    /// The length of the Tasks plugin's repetition phrase as written (`every week`) plus one, or 0
    /// for none. It follows the task's `id:` value in the text.
    var phrase: UInt32
    var titleLength: UInt32
    var tagsLength: UInt32
    /// The section's index in the segment's sections, or -1.
    var section: Int32
    var depth: UInt16
    var spare: UInt16 = 0

    /// Whether every value is one a record can hold.
    var isSound: Bool {
        (recurrence == 0 || RecurrenceRule(packed: recurrence) != nil)
            && (until == .min || ColdRecord.days.contains(until))
            && (scheduled == .min || ColdRecord.days.contains(scheduled))
            && (start == .min || ColdRecord.days.contains(start))
    }

    /// An extra record of no rule, dates or phrase, for task `task`.
    static func plain(task: UInt32) -> ExtraRecord {
        ExtraRecord(task: task, recurrence: 0, until: .min, scheduled: .min, start: .min, phrase: 0, titleLength: 0,
                    tagsLength: 0, section: -1, depth: 0)
    }
}

/// A task's cold fields, read from its cold record and extra record, with its text as ranges of
/// the segment's text.
struct ColdFields {
    var section: Int32
    var depth: UInt16
    var idLength: UInt16
    var title: TextRef
    /// " #a #b": every tag after a space and a `#`.
    var tags: TextRef
    var notes: TextRef
    var repeatPhrase: TextRef
    var recurrence: UInt32
    var until: Int32
    var scheduled: Int32
    var start: Int32

    /// A record of no text, section or dates: what a damaged record reads as, harmlessly.
    static let empty = ColdFields(section: -1, depth: 0, idLength: 0, title: TextRef(offset: 0, length: 0),
                                  tags: TextRef(offset: 0, length: 0), notes: TextRef(offset: 0, length: 0),
                                  repeatPhrase: .none, recurrence: 0, until: .min, scheduled: .min, start: .min)

    /// Where the searched text (title, tags and notes) starts, where the title with its tags ends,
    /// and where the notes end.
    var searchSpan: (start: Int, titleEnd: Int, end: Int) {
        (Int(title.offset), Int(notes.offset), Int(notes.offset) + Int(notes.length))
    }
}

/// What a pass over every task of a list reads beside the hot records: the task's ref, in 8
/// bytes, so that such a pass proves and reads those alone rather than the compressed tail. The
/// ref is kept in two halves, so that the records need only 4-byte alignment.
struct RefRecord {
    var refLow: UInt32
    var refHigh: UInt32

    init(refHash: UInt64) {
        refLow = UInt32(truncatingIfNeeded: refHash)
        refHigh = UInt32(truncatingIfNeeded: refHash >> 32)
    }

    var refHash: UInt64 { UInt64(refHigh) << 32 | UInt64(refLow) }
}

/// A subtask's parent: kept after the ref records, one for each task whose hot record marks it a
/// subtask (`HotRecord.isSubtask`), in task order, for the passes that find parents and for a
/// row of a subtask.
struct ParentRecord {
    var task: UInt32
    /// The parent's index in the list, before the task's.
    var parent: UInt32
}

/// The folded text of a task whose title, tags or notes hold a byte beyond ASCII (its hot record
/// says so: `HotRecord.isFolded`): a search compares the text of every other task with its words
/// ignoring ASCII case, which is what folding ASCII does. Kept after the text, in task order,
/// each task's folded title with its tags, then its folded notes, right after the task before.
struct FoldedRecord {
    var task: UInt32
    /// Where the task's folded text starts in the folded text.
    var offset: UInt32
    var titleLength: UInt32
    var notesLength: UInt32

    var length: UInt64 { UInt64(titleLength) + UInt64(notesLength) }
}

extension ColdRecord {
    /// A record of no text, section or depth, starting where the text starts.
    static let empty = ColdRecord(text: 0, titleLength: 0, section: 0, tagsLength: 0, idLength: 0, depth: 0, flags: 0)

    /// The days a record's dates may hold: 0001-01-01 to 9999-12-31.
    static let days = Int32(-Day.firstDayOffset)...Int32(Day(year: 9999, month: 12, day: 31)!.daysSinceEpoch)

    /// The fields of this record, whose task's text runs to `end`, with `extra`, its extra record
    /// (given exactly when the record has one); nil when an index or length is not one that a
    /// segment with `sectionCount` sections and `textLength` bytes of text can hold.
    @inline(__always)
    func fields(end: UInt64, extra: ExtraRecord?, sectionCount: Int32, textLength: UInt64) -> ColdFields? {
        let title: UInt64, tags: UInt64, section: Int32, depth: UInt16
        if let extra {
            title = UInt64(extra.titleLength)
            tags = UInt64(extra.tagsLength)
            section = extra.section
            depth = extra.depth
        } else {
            title = UInt64(titleLength)
            tags = UInt64(tagsLength)
            section = Int32(self.section) - 1
            depth = UInt16(self.depth)
        }
        let phrase = extra.map { $0.phrase > 0 ? UInt64($0.phrase) - 1 : 0 } ?? 0
        let start = UInt64(text), parts = title + tags + UInt64(idLength) + phrase
        guard hasExtra == (extra != nil), section >= -1, section < sectionCount, idLength <= 64,
              end <= textLength, start <= end, parts <= end - start
        else { return nil }
        // Every offset is within the text, whose length fits 32 bits.
        let tagsStart = start + title, notesStart = tagsStart + tags, notesEnd = end - UInt64(idLength) - phrase
        return ColdFields(section: section, depth: depth, idLength: UInt16(idLength),
                          title: TextRef(offset: text, length: UInt32(title)),
                          tags: TextRef(offset: UInt32(tagsStart), length: UInt32(tags)),
                          notes: TextRef(offset: UInt32(notesStart), length: UInt32(notesEnd - notesStart)),
                          repeatPhrase: extra.map { $0.phrase > 0 ? TextRef(offset: UInt32(notesEnd) + UInt32(idLength),
                                                                            length: $0.phrase - 1) : .none } ?? .none,
                          recurrence: extra?.recurrence ?? 0, until: extra?.until ?? .min,
                          scheduled: extra?.scheduled ?? .min, start: extra?.start ?? .min)
    }
}

extension RecurrenceRule {
    /// The rule in 32 bits for a record: the count, the unit and the mode, never 0.
    var packed: UInt32 {
        let unit = UInt32(Unit.allCases.firstIndex(of: self.unit)!)
        let mode = UInt32(Mode.allCases.firstIndex(of: self.mode)!)
        return 1 << 31 | mode << 16 | unit << 12 | UInt32(count)
    }

    /// The rule that `packed` gave, or nil for 0 or any value it never gives.
    init?(packed: UInt32) {
        guard packed & 1 << 31 != 0, packed & 0x7FFC_0000 == 0 else { return nil }
        let mode = Int(packed >> 16 & 3), unit = Int(packed >> 12 & 0xF), count = Int(packed & 0xFFF)
        guard mode < Mode.allCases.count, unit < Unit.allCases.count else { return nil }
        self.init(count: count, unit: Unit.allCases[unit], mode: Mode.allCases[mode])
    }
}
