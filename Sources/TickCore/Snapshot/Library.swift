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

/// The header of a list's segment: a self-contained block of its records and text.
struct SegmentHeader {
    var taskCount: UInt32
    var openCount: UInt32
    var sectionCount: UInt32
    var textLength: UInt32
    /// The number of extra records, which follow the cold records.
    var extraCount: UInt32
    /// The number of folded records, and the length of the folded text that follows them.
    var foldedCount: UInt32
    var foldedLength: UInt32
    /// The number of parent records, which follow the ref records.
    var subtaskCount: UInt32
    var spare: UInt32 = 0
    /// The length of the names' text (heading, symbol, colour and section names), which follows
    /// the section refs, padded with zeros to 8 bytes: the refs below and the section refs point
    /// into it, so that a list's name is read next to its header.
    var namesLength: UInt32
    var heading: TextRef
    var symbol: TextRef
    var color: TextRef
    /// The length and checksum of the file's bytes that the segment was built from: a cached list
    /// whose status cannot vouch for it (changed within the racy window, or just written by tick)
    /// is used when its file still holds these bytes.
    var contentLength: UInt64
    var contentSum: UInt64
    /// The lengths of the list's titles, for resolving a REF as a title without decompressing
    /// the tail of a list that cannot hold it: bit n for a title of n bytes (bit 63 for 63 or
    /// more), in `asciiTitleLengths` for a title all ASCII, in `otherTitleLengths` for the rest.
    var asciiTitleLengths: UInt64 = 0
    var otherTitleLengths: UInt64 = 0

    static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }

    /// Whether the list may hold a title that lowers to `length` bytes of ASCII: an ASCII title of
    /// that length, or another one longer but at most three times it (lowering never removes a
    /// character, and only a three-byte one, the Kelvin sign, becomes one ASCII byte).
    func mayHoldTitle(loweringToASCII length: Int) -> Bool {
        let longer = (SegmentHeader.lengthBit(3 * length) << 1 &- 1) & ~(SegmentHeader.lengthBit(length + 1) &- 1)
        return asciiTitleLengths & SegmentHeader.lengthBit(length) != 0 || otherTitleLengths & longer != 0
    }
}

/// The checksums of a segment's areas before its tail, as the cache keeps them. The tail (cold
/// and extra records, text, folded records and folded text) is stored compressed behind a
/// checksum of its own (`SegmentTail`), checked before it is decompressed.
struct SegmentSums: Equatable {
    /// The header, the section refs and the names' text that follows them, up to the hot records
    /// (`Segment.headSum`): what a list's name and a row's section read.
    var head: UInt64
    var hot: UInt64
    var refs: UInt64
}

/// One list's block: header, section refs, the names' text (padded to 8 bytes), hot records, ref
/// records, parent records, then its tail: cold records, extra records, text, then (8-byte
/// aligned) folded records and folded text.
///
/// A segment built in this run is trusted and lies whole at `base`. One read from the cache file
/// carries a `SegmentProof`: its head (up to the cold records) lies in the mapped file, followed
/// there by its tail compressed (`SegmentTail`), which is decompressed into memory of its own on
/// first use. Its header and names were checked on loading, and each other area (hot records, ref
/// records, cold records with extra records and the text, folded records with folded text) on its first
/// use, so that a view reading only hot records never reads or decompresses the rest. A search
/// reads hot records, cold records, the text and the folded area; a view that shows a task of a
/// list reads that list's hot, ref and cold records and its text.
struct Segment: @unchecked Sendable {
    let base: UnsafeRawPointer
    /// The segment's length as built: with its tail decompressed.
    let length: Int
    /// Its length in the cache file (the head, then the compressed tail), or `length` for a
    /// segment built in this run.
    let storedLength: Int
    let header: SegmentHeader
    /// The areas not proven yet (`SegmentProof.hot` and so on), for a segment from the cache.
    private let unproven: UnsafeMutablePointer<UInt8>?
    /// For a segment from the cache: where its tail was decompressed to, once it was (nil before).
    private let tail: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// Not retained, so that a segment is plain data to copy: the storage that holds the segment's
    /// memory holds its proof too (`ListCache.load`).
    private let proofReference: Unmanaged<SegmentProof>?
    var proof: SegmentProof? { proofReference?.takeUnretainedValue() }

    init(base: UnsafeRawPointer, length: Int) {
        self.base = base
        self.length = length
        storedLength = length
        header = base.loadUnaligned(as: SegmentHeader.self)
        unproven = nil
        tail = nil
        proofReference = nil
    }

    /// A segment of the mapped cache, stored in `storedLength` bytes, or nil when its header does
    /// not fit them or fails its checksum. `base` must be 8-byte aligned; the caller keeps `proof`
    /// alive as long as the memory.
    init?(cached base: UnsafeRawPointer, storedLength: Int, proof: SegmentProof) {
        let sums = proof.sums
        guard storedLength >= MemoryLayout<SegmentHeader>.stride else { return nil }
        // The length as built follows from the header's counts (`built`); the head up to the cold
        // records must lie within the stored bytes, and a compressed tail follow it.
        // The tail's length is bounded by the list file's size (`SegmentProof.tailLimit`), so that
        // a forged header cannot make tick allocate without bound.
        let measured = Segment(base: base, length: 0)
        let built = (measured.end + 7) / 8 * 8
        guard measured.coldOffset < storedLength, built - measured.coldOffset <= proof.tailLimit else { return nil }
        let plain = Segment(base: base, length: built)
        let h = plain.header
        let names = UInt64(h.namesLength)
        func fits(_ ref: TextRef) -> Bool { ref.isNone || UInt64(ref.offset) + UInt64(ref.length) <= names }
        guard fits(h.heading), fits(h.symbol), fits(h.color), h.openCount <= h.taskCount,
              h.extraCount <= h.taskCount, h.foldedCount <= h.taskCount, h.subtaskCount <= h.taskCount,
              (0..<Int(h.sectionCount)).allSatisfy({ fits(plain.sectionRef($0)) }), plain.headSum() == sums.head
        else { return nil }
        self.base = base
        length = built
        self.storedLength = storedLength
        header = h
        unproven = proof.unproven
        tail = proof.tail
        proofReference = Unmanaged.passUnretained(proof)
    }

    /// Where the tail's areas are, at the same offsets as in a segment built whole: `base` for a
    /// segment built in this run, else the tail's decompressed memory, less the head's length. A
    /// cached segment's tail is read only once an area of it was proven, which decompresses it.
    @inline(__always) private var tailBase: UnsafeRawPointer {
        guard let tail else { return base }
        return UnsafeRawPointer(tail.pointee.unsafelyUnwrapped) - coldOffset
    }

    /// The tail's bytes as built (cold records to the end), for a segment built in this run or one
    /// whose tail was decompressed.
    var tailBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: tailBase + coldOffset, count: length - coldOffset)
    }

    /// The stored bytes of a cached segment: its head and its compressed tail, as read.
    var storedBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: storedLength) }

    /// Whether this is a cached segment whose tail is still compressed.
    var isTailCompressed: Bool { tail.map { $0.pointee == nil } ?? false }

    fileprivate var sectionsOffset: Int { MemoryLayout<SegmentHeader>.stride }
    fileprivate var namesOffset: Int { sectionsOffset + Int(header.sectionCount) * MemoryLayout<TextRef>.stride }
    var hotOffset: Int { namesOffset + (Int(header.namesLength) + 7) / 8 * 8 }
    var refsOffset: Int { hotOffset + Int(header.taskCount) * MemoryLayout<HotRecord>.stride }
    var parentsOffset: Int { refsOffset + Int(header.taskCount) * MemoryLayout<RefRecord>.stride }
    var coldOffset: Int { parentsOffset + Int(header.subtaskCount) * MemoryLayout<ParentRecord>.stride }
    fileprivate var extrasOffset: Int { coldOffset + Int(header.taskCount) * MemoryLayout<ColdRecord>.stride }
    fileprivate var textOffset: Int { extrasOffset + Int(header.extraCount) * MemoryLayout<ExtraRecord>.stride }
    var foldedRecordsOffset: Int { (textOffset + Int(header.textLength) + 7) / 8 * 8 }
    fileprivate var foldedOffset: Int { foldedRecordsOffset + Int(header.foldedCount) * MemoryLayout<FoldedRecord>.stride }
    fileprivate var end: Int { foldedOffset + Int(header.foldedLength) }

    var taskCount: Int { Int(header.taskCount) }

    /// Makes sure `area` was proven before it is read (nothing to do for a segment of this run).
    @inline(__always) private func prove(_ area: UInt8) {
        if let unproven, unproven.pointee & area != 0 { proof!.prove(area, of: self) }
    }

    /// Records start 8-byte aligned: segments are padded to 8 bytes in memory and in the cache.
    @inline(__always) func hot(_ i: Int) -> HotRecord {
        prove(SegmentProof.hot)
        return base.load(fromByteOffset: hotOffset + i * MemoryLayout<HotRecord>.stride, as: HotRecord.self)
    }

    /// Every hot record of the list, proven: for a pass over every task.
    func hotRecords() -> UnsafeBufferPointer<HotRecord> {
        prove(SegmentProof.hot)
        return UnsafeBufferPointer(start: (base + hotOffset).assumingMemoryBound(to: HotRecord.self), count: taskCount)
    }

    /// Every ref record of the list, proven: for a pass over every task's ref.
    func refRecords() -> UnsafeBufferPointer<RefRecord> {
        prove(SegmentProof.refs)
        return UnsafeBufferPointer(start: (base + refsOffset).assumingMemoryBound(to: RefRecord.self), count: taskCount)
    }

    /// Task `i`'s ref record, for a pass over every task of the list: proven with the whole area.
    @inline(__always) func refRecord(_ i: Int) -> RefRecord {
        prove(SegmentProof.refs)
        return unprovenRef(i)
    }

    @inline(__always) private func unprovenRef(_ i: Int) -> RefRecord {
        base.load(fromByteOffset: refsOffset + i * MemoryLayout<RefRecord>.stride, as: RefRecord.self)
    }

    @inline(__always) private func unprovenCold(_ i: Int) -> ColdRecord {
        tailBase.load(fromByteOffset: coldOffset + i * MemoryLayout<ColdRecord>.stride, as: ColdRecord.self)
    }

    @inline(__always) private func unprovenExtra(at k: Int) -> ExtraRecord {
        tailBase.load(fromByteOffset: extrasOffset + k * MemoryLayout<ExtraRecord>.stride, as: ExtraRecord.self)
    }

    /// Task `i`'s extra record, found by halving among the extra records (in task order), or nil.
    private func unprovenExtra(of i: Int) -> ExtraRecord? {
        var low = 0, high = Int(header.extraCount)
        while low < high {
            let mid = (low + high) / 2
            let task = unprovenExtra(at: mid).task
            if task == UInt32(truncatingIfNeeded: i) { return unprovenExtra(at: mid) }
            if task < UInt32(truncatingIfNeeded: i) { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// Task `i`'s cold fields and ref record, for the reads of one task: the ref records (with the
    /// parent records) are proven with the cold records.
    @inline(__always) func coldAndRef(_ i: Int) -> (cold: ColdFields, ref: RefRecord) {
        prove(SegmentProof.rows)
        return (fields(unprovenCold(i), of: i), unprovenRef(i))
    }

    /// Task `i`'s cold fields. Its title's bytes (`title(of:)`) are proven with them.
    @inline(__always) func cold(_ i: Int) -> ColdFields {
        prove(SegmentProof.cold)
        return fields(unprovenCold(i), of: i)
    }

    /// The fields of task `i`'s cold record `c` (proven) with its extra record.
    @inline(__always) fileprivate func fields(_ c: ColdRecord, of i: Int) -> ColdFields {
        c.fields(end: end(of: i), extra: c.hasExtra ? unprovenExtra(of: i) : nil, sectionCount: Int32(header.sectionCount),
                 textLength: UInt64(header.textLength)) ?? .empty
    }

    /// Where task `i`'s text ends: where the next task's starts, or at the end of the text.
    @inline(__always) private func end(of i: Int) -> UInt64 {
        i + 1 < taskCount ? UInt64(unprovenCold(i + 1).text) : UInt64(header.textLength)
    }

    /// The text that a search compares task `i`'s words with: its title with its tags, and its
    /// notes, from the text (compared ignoring ASCII case) or from the folded text (compared as
    /// they are) for a task whose hot record `h` says it is folded.
    func searchText(_ i: Int, _ h: HotRecord) -> (title: UnsafeBufferPointer<UInt8>, notes: UnsafeBufferPointer<UInt8>,
                                                  caseless: Bool) {
        if h.isFolded, let at = foldedIndex(of: i) {
            let (r, start) = at
            let text = foldedText()
            let title = UnsafeBufferPointer(rebasing: text[start..<(start + Int(r.titleLength))])
            let notes = UnsafeBufferPointer(rebasing: text[(start + Int(r.titleLength))..<(start + Int(r.length))])
            return (title, notes, false)
        }
        let (start, titleEnd, end) = searchSpan(i)
        let text = self.text()
        return (UnsafeBufferPointer(rebasing: text[start..<titleEnd]), UnsafeBufferPointer(rebasing: text[titleEnd..<end]),
                true)
    }

    /// The folded title with its tags of task `i` (`Folding.fold` of them), for sorting by title.
    func foldedTitle(_ i: Int) -> [UInt8] {
        let (title, _, caseless) = searchText(i, hot(i))
        guard caseless else { return Array(title) }
        var folded: [UInt8] = []
        Folding.fold(title, into: &folded)
        return folded
    }

    /// Where task `i`'s searched text (title, tags and notes) starts, where its title with its
    /// tags ends, and where its notes end, for a search's pass over every task: proven with the
    /// cold records and the text.
    @inline(__always) func searchSpan(_ i: Int) -> (start: Int, titleEnd: Int, end: Int) {
        prove(SegmentProof.cold)
        return fields(unprovenCold(i), of: i).searchSpan
    }

    /// The segment's whole text, proven.
    func text() -> UnsafeBufferPointer<UInt8> {
        prove(SegmentProof.cold)
        return UnsafeBufferPointer(start: (tailBase + textOffset).assumingMemoryBound(to: UInt8.self),
                                   count: Int(header.textLength))
    }

    /// The folded record `k`, for a search's pass over every one: proven with the folded text.
    @inline(__always) func foldedRecord(_ k: Int) -> FoldedRecord {
        prove(SegmentProof.search)
        return tailBase.load(fromByteOffset: foldedRecordsOffset + k * MemoryLayout<FoldedRecord>.stride, as: FoldedRecord.self)
    }

    var foldedCount: Int { Int(header.foldedCount) }

    /// Task `i`'s folded record, found by halving among the folded records (in task order), or nil.
    private func foldedIndex(of i: Int) -> (FoldedRecord, Int)? {
        var low = 0, high = foldedCount
        while low < high {
            let mid = (low + high) / 2
            let r = foldedRecord(mid)
            if r.task == UInt32(truncatingIfNeeded: i) { return (r, Int(r.offset)) }
            if r.task < UInt32(truncatingIfNeeded: i) { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// The segment's whole folded text, which the folded records divide.
    func foldedText() -> UnsafeBufferPointer<UInt8> {
        prove(SegmentProof.search)
        return UnsafeBufferPointer(start: (tailBase + foldedOffset).assumingMemoryBound(to: UInt8.self),
                                   count: Int(header.foldedLength))
    }

    /// Proves the cold records and the text at once, before a pass over every title of the list.
    func proveRecordsAndText() { prove(SegmentProof.cold) }

    /// Proves every area that a row reads (all but the folded records and folded text) before
    /// rows are rendered on several threads, so that rendering never writes to the proof
    /// (`SegmentProof.rendering`). A row renderer must not read the folded area.
    func proveForRows() { prove(SegmentProof.rows) }

    /// Starts loading the first 2 KiB of the hot records (the processor follows on from there), for
    /// a pass over them soon (`Library.hotRecords(ofList:)`).
    func prefetchHotRecords() {
        let end = min(refsOffset, hotOffset + 2048)
        for at in stride(from: hotOffset, to: end, by: 64) { prefetch(base + at) }
    }

    /// Starts loading the first 2 KiB of the cold records and of the text, for a search's pass over
    /// them soon.
    func prefetchSearchArea() {
        guard !isTailCompressed else { return }
        let base = tailBase
        for at in stride(from: coldOffset, to: min(extrasOffset, coldOffset + 2048), by: 64) { prefetch(base + at) }
        for at in stride(from: textOffset, to: min(end, textOffset + 2048), by: 64) { prefetch(base + at) }
    }

    /// Starts loading task `i`'s hot, ref and cold records, for a read soon (`Library.prefetchRows`).
    func prefetchRecords(_ i: Int) {
        prefetch(base + hotOffset + i * MemoryLayout<HotRecord>.stride)
        prefetch(base + refsOffset + i * MemoryLayout<RefRecord>.stride)
        if !isTailCompressed { prefetch(tailBase + coldOffset + i * MemoryLayout<ColdRecord>.stride) }
    }

    /// Starts loading the start of task `i`'s title, once its cold record is loaded. The record is
    /// read unproven, for an address alone, kept within the text.
    func prefetchTitle(_ i: Int) {
        guard !isTailCompressed else { return }
        prefetch(tailBase + textOffset + min(Int(unprovenCold(i).text), Int(header.textLength)))
    }

    /// The bytes of task `i`'s notes.
    func notes(_ i: Int) -> UnsafeBufferPointer<UInt8> { bytes(cold(i).notes) }

    /// The bytes of the title of `record`, fields that `cold` returned from this segment.
    @inline(__always) func title(of record: ColdFields) -> UnsafeBufferPointer<UInt8> { unprovenBytes(record.title) }

    /// The parent index of task `i`, or -1, for a pass over tasks: the parent records are proven
    /// with the ref records, and read for a subtask only.
    @inline(__always) func parent(_ i: Int) -> Int32 {
        guard hot(i).isSubtask else { return -1 }
        prove(SegmentProof.refs)
        return unprovenParent(of: i)
    }

    /// The parent index of task `i` (whose hot record is `h`), or -1, once `coldAndRef(i)` has
    /// proven the ref records, which hold the parent records.
    @inline(__always) func parent(ofRead i: Int, _ h: HotRecord) -> Int32 {
        h.isSubtask ? unprovenParent(of: i) : -1
    }

    /// Every parent record of the list, proven: for a pass over the subtasks.
    func parentRecords() -> UnsafeBufferPointer<ParentRecord> {
        prove(SegmentProof.refs)
        return UnsafeBufferPointer(start: (base + parentsOffset).assumingMemoryBound(to: ParentRecord.self),
                                   count: Int(header.subtaskCount))
    }

    @inline(__always) private func unprovenParentRecord(_ k: Int) -> ParentRecord {
        base.load(fromByteOffset: parentsOffset + k * MemoryLayout<ParentRecord>.stride, as: ParentRecord.self)
    }

    /// Task `i`'s parent, found by halving among the parent records (in task order), or -1.
    private func unprovenParent(of i: Int) -> Int32 {
        var low = 0, high = Int(header.subtaskCount)
        while low < high {
            let mid = (low + high) / 2
            let r = unprovenParentRecord(mid)
            if r.task == UInt32(truncatingIfNeeded: i) { return Int32(truncatingIfNeeded: r.parent) }
            if r.task < UInt32(truncatingIfNeeded: i) { low = mid + 1 } else { high = mid }
        }
        return -1
    }

    /// The whole record of task `i`.
    func record(_ i: Int) -> TaskRecord {
        let h = hot(i), (c, r) = coldAndRef(i)
        return TaskRecord(refHash: r.refHash, dueDay: h.dueDay, dueMinutes: h.dueMinutes, flags: h.flags,
                          priority: h.priority, doneDay: h.doneDay, line: h.line, parent: parent(ofRead: i, h), depth: c.depth,
                          idLength: c.idLength, section: c.section, title: c.title, notes: c.notes, tags: c.tags)
    }

    @inline(__always) func bytes(_ ref: TextRef) -> UnsafeBufferPointer<UInt8> {
        if !ref.isNone { prove(SegmentProof.cold) }
        return unprovenBytes(ref)
    }

    /// The bytes of `ref`, proven or not: for a caller that proved them another way.
    @inline(__always) private func unprovenBytes(_ ref: TextRef) -> UnsafeBufferPointer<UInt8> {
        guard !ref.isNone else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: (tailBase + textOffset + Int(ref.offset)).assumingMemoryBound(to: UInt8.self),
                                   count: Int(ref.length))
    }

    func string(_ ref: TextRef) -> String? { ref.isNone ? nil : String(decoding: bytes(ref), as: UTF8.self) }

    /// The tag names of a record's tags (" #a #b").
    func tagNames(_ ref: TextRef) -> [String] {
        Segment.tagNames(in: bytes(ref)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The tag names in `tags`, every one after a space and a `#` (a name holds neither).
    static func tagNames<C: Collection<UInt8>>(in tags: C) -> [C.SubSequence] {
        tags.split(separator: 0x20).map { $0.dropFirst() }
    }

    /// The checksum of the header, the section refs and the names' text with its padding: the
    /// bytes before the hot records, in one piece.
    fileprivate func headSum() -> UInt64 { Checksum.of(base, count: hotOffset) }

    /// A name of the head (heading, symbol, colour, section), from the names' text: proven with the
    /// header on loading.
    func headName(_ ref: TextRef) -> String? {
        guard !ref.isNone else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: base + namesOffset + Int(ref.offset), count: Int(ref.length)),
                      as: UTF8.self)
    }

    fileprivate func sectionRef(_ k: Int) -> TextRef {
        base.loadUnaligned(fromByteOffset: sectionsOffset + k * MemoryLayout<TextRef>.stride, as: TextRef.self)
    }

    /// The `id:` value of task `i`, which follows its notes in the text (nil when none).
    func taskID(_ i: Int) -> String? {
        let c = cold(i)
        guard c.idLength > 0 else { return nil }
        let start = c.notes.offset &+ c.notes.length
        return String(decoding: bytes(TextRef(offset: start, length: UInt32(c.idLength))), as: UTF8.self)
    }

    func section(_ k: Int32) -> String? {
        guard k >= 0, k < header.sectionCount else { return nil }
        return headName(sectionRef(Int(k)))
    }

    /// Whether `bytes` are the bytes of the file this segment was built from.
    func isBuilt(from bytes: [UInt8]) -> Bool {
        UInt64(bytes.count) == header.contentLength && Checksum.of(bytes) == header.contentSum
    }

    /// Whether this segment's tasks have the refs of `other`'s, in the same order: a change that
    /// keeps them (completing, dating, flagging) leaves every short ref's length as it was.
    func hasSameRefs(as other: Segment) -> Bool {
        taskCount == other.taskCount
            && (0..<taskCount).allSatisfy { refRecord($0).refHash == other.refRecord($0).refHash }
    }

    /// The checksums of this segment's areas as they are in memory now.
    func sums() -> SegmentSums {
        SegmentSums(head: headSum(),
                    hot: Checksum.of(base + hotOffset, count: refsOffset - hotOffset),
                    refs: Checksum.of(base + refsOffset, count: coldOffset - refsOffset))
    }

    /// The checksums to write to a new cache: every area proven first (a damaged one is parsed
    /// again); nil when the segment could not be trusted even so.
    func provenSums() -> SegmentSums? {
        guard let proof else { return sums() }
        prove(SegmentProof.all)
        return proof.state == .intact ? proof.sums : proof.state == .rebuilt ? sums() : nil
    }

    /// Whether `area` holds what its checksum says (the areas of the tail were proven by the tail's
    /// own, `SegmentTail`), and every index and length in it is in bounds.
    fileprivate func check(_ area: UInt8, against sums: SegmentSums) -> Bool {
        switch area {
        case SegmentProof.hot:
            return Checksum.of(base + hotOffset, count: refsOffset - hotOffset) == sums.hot
        case SegmentProof.refs:
            guard Checksum.of(base + refsOffset, count: coldOffset - refsOffset) == sums.refs else { return false }
            // Parent records in task order, each of a task the list has, with a parent before it;
            // and exactly the tasks that have one marked as subtasks, which is when a read looks.
            var next: UInt32 = 0
            for k in 0..<Int(header.subtaskCount) {
                let r = unprovenParentRecord(k)
                guard r.task >= next, r.task < header.taskCount, r.task <= UInt32(Int32.max), r.parent < r.task,
                      base.load(fromByteOffset: hotOffset + Int(r.task) * MemoryLayout<HotRecord>.stride,
                                as: HotRecord.self).isSubtask
                else { return false }
                next = r.task + 1
            }
            var marked = 0
            for i in 0..<taskCount
            where base.load(fromByteOffset: hotOffset + i * MemoryLayout<HotRecord>.stride, as: HotRecord.self).isSubtask {
                marked += 1
            }
            return marked == Int(header.subtaskCount)
        case SegmentProof.cold:
            // Extra records in task order, of tasks the list has; cold records in bounds and in task
            // order, which a search's pass over the text relies on.
            let extras = Int(header.extraCount)
            for k in 0..<extras {
                let e = unprovenExtra(at: k)
                guard e.isSound, e.task < header.taskCount, k == 0 || unprovenExtra(at: k - 1).task < e.task
                else { return false }
            }
            // Each record sound with its text running to where the next one's starts (so in task
            // order), and marked as having an extra record exactly when it has one.
            let text = UInt64(header.textLength), sections = Int32(header.sectionCount)
            var k = 0
            for i in 0..<taskCount {
                let c = unprovenCold(i)
                var extra: ExtraRecord? = nil
                if k < extras, unprovenExtra(at: k).task == UInt32(i) {
                    extra = unprovenExtra(at: k)
                    k += 1
                }
                guard c.fields(end: end(of: i), extra: extra, sectionCount: sections, textLength: text) != nil
                else { return false }
            }
            return k == extras
        case SegmentProof.search:
            let tailBase = self.tailBase
            // Of tasks the list has, in task order, dividing the folded text exactly.
            var length: UInt64 = 0, next: UInt32 = 0
            func isFolded(_ i: Int) -> Bool {
                base.load(fromByteOffset: hotOffset + i * MemoryLayout<HotRecord>.stride, as: HotRecord.self).isFolded
            }
            for k in 0..<foldedCount {
                let r = tailBase.load(fromByteOffset: foldedRecordsOffset + k * MemoryLayout<FoldedRecord>.stride,
                                      as: FoldedRecord.self)
                guard r.task >= next, r.task < header.taskCount, UInt64(r.offset) == length, isFolded(Int(r.task))
                else { return false }
                next = r.task + 1
                length += r.length
            }
            // Exactly the tasks that have a folded record are marked folded: a search reads every
            // other task's text ignoring ASCII case, and would miss a marked task without one.
            var marked = 0
            for i in 0..<taskCount where isFolded(i) { marked += 1 }
            return marked == foldedCount && length == UInt64(header.foldedLength)
        default:
            preconditionFailure("no area \(area) to check")
        }
    }

    /// Fills every area with harmless records (done, no date, no text): what a damaged segment
    /// that cannot be parsed again to the same shape shows, rather than reading out of bounds.
    fileprivate func neutralize(head memory: UnsafeMutableRawPointer, tail: UnsafeMutableRawPointer) {
        for i in 0..<taskCount {
            memory.storeBytes(of: HotRecord(dueDay: .min, doneDay: .min, line: 0, dueMinutes: -1, flags: 1, priority: 0),
                              toByteOffset: hotOffset + i * MemoryLayout<HotRecord>.stride, as: HotRecord.self)
            memory.storeBytes(of: RefRecord(refHash: 0),
                              toByteOffset: refsOffset + i * MemoryLayout<RefRecord>.stride, as: RefRecord.self)
            var empty = ColdRecord.empty
            empty.text = header.textLength
            tail.storeBytes(of: empty, toByteOffset: coldOffset + i * MemoryLayout<ColdRecord>.stride, as: ColdRecord.self)
        }
        // No task has a parent, an extra record or folded text any more (every task number is past the list).
        for k in 0..<Int(header.subtaskCount) {
            memory.storeBytes(of: ParentRecord(task: .max, parent: 0),
                              toByteOffset: parentsOffset + k * MemoryLayout<ParentRecord>.stride, as: ParentRecord.self)
        }
        for k in 0..<Int(header.extraCount) {
            tail.storeBytes(of: ExtraRecord.plain(task: .max),
                            toByteOffset: extrasOffset + k * MemoryLayout<ExtraRecord>.stride, as: ExtraRecord.self)
        }
        (tail + foldedRecordsOffset).initializeMemory(as: UInt8.self, repeating: 0, count: end - foldedRecordsOffset)
        for k in 0..<foldedCount {
            tail.storeBytes(of: FoldedRecord(task: .max, offset: 0, titleLength: 0, notesLength: 0),
                            toByteOffset: foldedRecordsOffset + k * MemoryLayout<FoldedRecord>.stride, as: FoldedRecord.self)
        }
        (tail + textOffset).initializeMemory(as: UInt8.self, repeating: 0, count: Int(header.textLength))
    }

    /// Builds the segment of a parsed list, as bytes.
    static func build(_ document: Document, path: String) -> [UInt8] {
        let (memory, length) = built(document, path: path)
        defer { memory.deallocate() }
        return Array(UnsafeRawBufferPointer(start: memory, count: length))
    }

    /// Builds the segment of a parsed list straight into memory aligned for records (for
    /// `SegmentStorage.adopt`). The document given is let go (when nothing else holds it) before the
    /// areas are put together, and each area's parts are let go once copied, so that a huge list
    /// never holds its document, its areas' parts and its segment at once.
    static func built(_ document: consuming Document, path: String) -> (memory: UnsafeMutableRawPointer, length: Int) {
        let count = document.tasks.count
        var text: [UInt8] = []
        text.reserveCapacity(document.bytes.count)
        var sections: [String] = []
        var sectionIndex: [String: Int32] = [:]
        var lastSection: (name: String, index: Int32)? = nil
        var hot: [HotRecord] = [], refs: [RefRecord] = [], cold: [ColdRecord] = [], extras: [ExtraRecord] = []
        var parents: [ParentRecord] = []
        var foldedRecords: [FoldedRecord] = []
        hot.reserveCapacity(count)
        refs.reserveCapacity(count)
        cold.reserveCapacity(count)
        var names = Ref.names(path: path, document: document)
        var open: UInt32 = 0
        var foldedText: [UInt8] = []
        var asciiTitleLengths: UInt64 = 0, otherTitleLengths: UInt64 = 0
        for i in 0..<count {
            let task = document.tasks[i]
            var section: Int32 = -1
            // Tasks of a section come together: the last one's section is tried before hashing.
            if let s = task.section {
                if let (name, k) = lastSection, name == s {
                    section = k
                } else if let k = sectionIndex[s] {
                    section = k
                } else {
                    section = Int32(sections.count)
                    sectionIndex[s] = section
                    sections.append(s)
                }
                lastSection = (s, section)
            }
            if !task.done { open += 1 }
            let notes = document.notes[i]
            // The task's text: title, tags, notes, `id:` value, repetition phrase (`ColdRecord`).
            let start = text.count
            text.append(contentsOf: task.title.utf8)
            let titleEnd = text.count
            for tag in task.tags {
                text.append(contentsOf: " #".utf8)
                text.append(contentsOf: tag.utf8)
            }
            let tagsEnd = text.count
            text.append(contentsOf: notes.utf8)
            let notesEnd = text.count
            if let id = task.id { text.append(contentsOf: id.utf8) }
            let idEnd = text.count
            if let phrase = task.repeatPhrase { text.append(contentsOf: phrase.utf8) }
            // Folded text for a task whose searched text is beyond ASCII (`FoldedRecord`).
            var isFolded = false
            text.withUnsafeBufferPointer { all in
                guard all[start..<notesEnd].reduce(0, |) >= 0x80 else { return }
                isFolded = true
                let offset = foldedText.count
                Folding.fold(UnsafeBufferPointer(rebasing: all[start..<tagsEnd]), into: &foldedText)
                let titleLength = foldedText.count - offset
                Folding.fold(UnsafeBufferPointer(rebasing: all[tagsEnd..<notesEnd]), into: &foldedText)
                foldedRecords.append(FoldedRecord(task: UInt32(i), offset: UInt32(offset), titleLength: UInt32(titleLength),
                                                  notesLength: UInt32(foldedText.count - offset - titleLength)))
            }
            // A cold record holds a title of up to 65,535 bytes, tags of up to 255, 65,534 sections
            // and a depth of 255; the extra record holds the rest.
            let titleLength = titleEnd - start, tagsLength = tagsEnd - titleEnd, depth = UInt16(clamping: task.depth)
            if !isFolded || text[start..<titleEnd].allSatisfy({ $0 < 0x80 }) {
                asciiTitleLengths |= SegmentHeader.lengthBit(titleLength)
            } else {
                otherTitleLengths |= SegmentHeader.lengthBit(titleLength)
            }
            let wide = titleLength > Int(UInt16.max) || tagsLength > Int(UInt8.max) || section >= Int32(UInt16.max)
                || depth > UInt8.max
            var extra: ExtraRecord? = nil
            if task.recurrence != nil || task.until != nil || task.scheduled != nil || task.start != nil
                || task.repeatPhrase != nil || wide {
                extra = ExtraRecord(task: UInt32(i), recurrence: task.recurrence?.packed ?? 0,
                                    until: task.until.map { Int32($0.daysSinceEpoch) } ?? .min,
                                    scheduled: task.scheduled.map { Int32($0.daysSinceEpoch) } ?? .min,
                                    start: task.start.map { Int32($0.daysSinceEpoch) } ?? .min,
                                    phrase: task.repeatPhrase == nil ? 0 : UInt32(text.count - idEnd) + 1,
                                    titleLength: UInt32(titleLength), tagsLength: UInt32(tagsLength), section: section,
                                    depth: depth)
                extras.append(extra!)
            }
            let parent = task.parent.map(Int32.init) ?? -1
            hot.append(HotRecord(
                dueDay: task.due.map { Int32($0.day.daysSinceEpoch) } ?? .min,
                doneDay: task.doneDate.map { Int32($0.daysSinceEpoch) } ?? .min,
                line: UInt32(task.line), dueMinutes: task.due?.minutes.map(Int16.init) ?? -1,
                flags: (task.done ? 1 : 0) | (task.flagged ? 2 : 0) | (task.scheduled != nil || task.start != nil ? 4 : 0)
                    | (task.parent != nil ? 8 : 0) | (task.recurrence != nil ? 16 : 0) | (notes.isEmpty ? 0 : 32)
                    | (isFolded ? 128 : 0),
                priority: UInt8(task.priority.rawValue)))
            let ref = RefRecord(refHash: names[i].hash)
            refs.append(ref)
            if parent >= 0 { parents.append(ParentRecord(task: UInt32(i), parent: UInt32(parent))) }
            var c = ColdRecord(text: UInt32(start), titleLength: 0, section: 0, tagsLength: 0,
                               idLength: UInt8(idEnd - notesEnd), depth: 0, flags: extra == nil ? 0 : 1)
            if extra == nil {
                c.titleLength = UInt16(titleLength)
                c.section = UInt16(section + 1)
                c.tagsLength = UInt8(tagsLength)
                c.depth = UInt8(depth)
            }
            cold.append(c)
        }
        var headNames: [UInt8] = []
        func name(_ string: String?) -> TextRef {
            guard let string else { return .none }
            let ref = TextRef(offset: UInt32(headNames.count), length: UInt32(string.utf8.count))
            headNames.append(contentsOf: string.utf8)
            return ref
        }
        var sectionRefs = sections.map { name($0) }
        let header = SegmentHeader(taskCount: UInt32(count), openCount: open, sectionCount: UInt32(sections.count),
                                   textLength: UInt32(text.count), extraCount: UInt32(extras.count),
                                   foldedCount: UInt32(foldedRecords.count), foldedLength: UInt32(foldedText.count),
                                   subtaskCount: UInt32(parents.count), namesLength: 0, heading: name(document.heading),
                                   symbol: name(document.frontMatter?["symbol"]), color: name(document.frontMatter?["color"]),
                                   contentLength: UInt64(document.bytes.count), contentSum: Checksum.of(document.bytes))
        var sized = header
        sized.namesLength = UInt32(headNames.count)
        sized.asciiTitleLengths = asciiTitleLengths
        sized.otherTitleLengths = otherTitleLengths
        _ = consume document
        names = []

        // Header, section refs, names' text and padding to 8 bytes, hot, ref, parent, cold and
        // extra records, text; then, 8-byte aligned, folded records and folded text, and padding to 8
        // bytes (zeros, as every gap).
        func align(_ n: Int) -> Int { (n + 7) / 8 * 8 }
        let namesStart = MemoryLayout<SegmentHeader>.stride + sectionRefs.count * MemoryLayout<TextRef>.stride
        let hotStart = align(namesStart + headNames.count)
        let textStart = hotStart
            + count * (MemoryLayout<HotRecord>.stride + MemoryLayout<RefRecord>.stride + MemoryLayout<ColdRecord>.stride)
            + parents.count * MemoryLayout<ParentRecord>.stride + extras.count * MemoryLayout<ExtraRecord>.stride
        let foldedStart = align(textStart + text.count)
        let end = foldedStart + foldedRecords.count * MemoryLayout<FoldedRecord>.stride + foldedText.count
        let length = align(end)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(length, 1), alignment: 16)
        (memory + namesStart + headNames.count).initializeMemory(as: UInt8.self, repeating: 0,
                                                                 count: hotStart - namesStart - headNames.count)
        (memory + textStart + text.count).initializeMemory(as: UInt8.self, repeating: 0, count: foldedStart - textStart - text.count)
        (memory + end).initializeMemory(as: UInt8.self, repeating: 0, count: length - end)
        var at = 0
        func put<T>(_ values: inout [T]) {
            values.withUnsafeBytes { if let base = $0.baseAddress { (memory + at).copyMemory(from: base, byteCount: $0.count) } }
            at += values.count * MemoryLayout<T>.stride
            values = []
        }
        withUnsafeBytes(of: sized) { (memory + at).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        at += MemoryLayout<SegmentHeader>.stride
        put(&sectionRefs)
        put(&headNames)
        at = hotStart
        put(&hot)
        put(&refs)
        put(&parents)
        put(&cold)
        put(&extras)
        put(&text)
        at = foldedStart
        put(&foldedRecords)
        put(&foldedText)
        return (memory, length)
    }
}
/// What the segments of one mapped cache share: how to parse a list again, what to do once
/// damage is found, the lock for proving, and the decompressors of their tails.
final class CacheContext: @unchecked Sendable {
    let rebuild: @Sendable (ListFile) -> [UInt8]?
    let damaged: () -> Void
    let lock = StateLock()
    private var reported = false

    /// The proofs' unproven areas (`flag`) and the slots for their tails (`tailSlot`), freed with
    /// the context.
    private var flags = Blocks<UInt8>()
    private var slots = Blocks<UnsafeMutableRawPointer?>()
    /// Decompressors not in use, one per thread that decompressed at once (`withDecompressor`).
    private var decompressors: [SegmentTail.Decompressor] = []

    init(rebuild: @escaping @Sendable (ListFile) -> [UInt8]?, damaged: @escaping () -> Void) {
        self.rebuild = rebuild
        self.damaged = damaged
    }

    deinit {
        flags.deallocate()
        slots.deallocate()
    }

    /// Values taken one at a time from blocks of 1,024, so that loading a cache of many lists
    /// allocates once per block rather than once per list.
    private struct Blocks<Value> {
        private var blocks: [UnsafeMutablePointer<Value>] = []
        private var left = 0

        mutating func take(_ value: Value) -> UnsafeMutablePointer<Value> {
            if left == 0 {
                blocks.append(.allocate(capacity: 1024))
                left = 1024
            }
            left -= 1
            let taken = blocks[blocks.count - 1] + left
            taken.initialize(to: value)
            return taken
        }

        func deallocate() { blocks.forEach { $0.deallocate() } }
    }

    /// A slot holding nil, for one proof's decompressed tail. Called on one thread, as the cache
    /// is loaded.
    func tailSlot() -> UnsafeMutablePointer<UnsafeMutableRawPointer?> { slots.take(nil) }

    /// Runs `body` with a decompressor that no other thread uses meanwhile.
    func withDecompressor<T>(_ body: (SegmentTail.Decompressor) -> T) -> T {
        let taken = lock.withLock { decompressors.popLast() } ?? SegmentTail.Decompressor()
        defer { lock.withLock { decompressors.append(taken) } }
        return body(taken)
    }

    /// A byte holding `value`, for one proof. Called on one thread, as the cache is loaded.
    func flag(_ value: UInt8) -> UnsafeMutablePointer<UInt8> { flags.take(value) }

    /// Removes the damaged cache file (once), so that the next run writes it anew.
    func reportDamage() {
        if !reported {
            reported = true
            damaged()
        }
    }
}

/// How far a cached segment is proven: the areas checked so far, and what became of a damaged one.
final class SegmentProof: @unchecked Sendable {
    /// `cold` is the cold records, the extra records and the text: they are proven together, so
    /// that a proven record's title is too. The text is any bytes, vouched for by the tail's
    /// checksum; the records are checked against it.
    static let hot: UInt8 = 1, cold: UInt8 = 2, refs: UInt8 = 8, search: UInt8 = 16
    static let all = hot | refs | cold | search
    /// The areas in the order they are proven.
    private static let order = [hot, refs, cold, search]
    /// The areas a row is rendered from.
    static let rows = hot | refs | cold

    enum State { case intact, rebuilt, neutralized }

    /// The areas of the tail, which are decompressed before any of them is proven.
    static let tailAreas = cold | search

    let sums: SegmentSums
    let context: CacheContext
    /// The list the segment stands for (set when the cache hands the segment out).
    var file: ListFile?
    /// The areas not proven yet.
    let unproven: UnsafeMutablePointer<UInt8>
    /// The tail's decompressed memory once it is (`Segment.tailBase`), owned by the proof.
    let tail: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The most bytes the tail may take decompressed (checked on loading): a damaged or forged
    /// cache does not make tick allocate more than a bound from its list file's size.
    let tailLimit: Int
    private(set) var state = State.intact
    /// Set while rows are rendered on several threads (`Library.renderRows`), when nothing may be
    /// proven any more: a test build stops if something is.
    var rendering = false

    init(sums: SegmentSums, context: CacheContext, tailLimit: Int) {
        self.sums = sums
        self.context = context
        self.tailLimit = tailLimit
        unproven = context.flag(SegmentProof.all)
        tail = context.tailSlot()
    }

    deinit { tail.pointee?.deallocate() }

    /// Checks the unproven areas among `areas`. A damaged area is a cache miss: the list is parsed
    /// again and the whole segment replaced by the result in this process's private copy of the
    /// mapped file, and the cache file is removed so that the next run writes a sound one.
    /// The checksums are worked out before taking the lock, so that threads reading lists of their
    /// own (`Library.inListRuns`) prove them at the same time; one segment is read by one thread.
    func prove(_ areas: UInt8, of segment: Segment) {
        assert(!rendering, "a row read an area that proveForRows did not prove")
        // The tail is decompressed first; a tail that does not decompress to its length proves
        // none of its areas.
        var tailHeld = true
        if areas & SegmentProof.tailAreas != 0, tail.pointee == nil {
            if let memory = decompressedTail(of: segment, count: segment.length - segment.coldOffset) {
                context.lock.withLock {
                    if tail.pointee == nil { tail.pointee = memory } else { memory.deallocate() }
                }
            } else {
                tailHeld = false
            }
        }
        var held: UInt8 = 0
        for area in SegmentProof.order where areas & area != 0 && unproven.pointee & area != 0
            && (tailHeld || area & SegmentProof.tailAreas == 0) && segment.check(area, against: sums) {
            held |= area
        }
        context.lock.withLock {
            for area in SegmentProof.order where areas & area != 0 {
                guard unproven.pointee & area != 0 else { continue }
                if held & area != 0 {
                    unproven.pointee &= ~area
                    continue
                }
                context.reportDamage()
                // The mapped cache is read-only until a segment's head must be replaced; its tail
                // is replaced in memory of its own (taken zeroed when it did not decompress).
                let head = segment.coldOffset
                guard MappedFile.allowWrites(segment.base, count: head) else {
                    preconditionFailure("the system refused to let tick replace a damaged cache segment in its memory")
                }
                let memory = UnsafeMutableRawPointer(mutating: segment.base)
                let tailCount = segment.length - head
                if tail.pointee == nil {
                    let fresh = UnsafeMutableRawPointer.allocate(byteCount: max(tailCount, 1), alignment: 16)
                    fresh.initializeMemory(as: UInt8.self, repeating: 0, count: max(tailCount, 1))
                    tail.pointee = fresh
                }
                let tailMemory = tail.pointee!
                if let file, let fresh = context.rebuild(file), fresh.count == segment.length,
                   fresh.withUnsafeBytes({ $0.prefix(MemoryLayout<SegmentHeader>.stride).elementsEqual(
                       UnsafeRawBufferPointer(start: segment.base, count: MemoryLayout<SegmentHeader>.stride)) }) {
                    fresh.withUnsafeBytes {
                        memory.copyMemory(from: $0.baseAddress!, byteCount: head)
                        tailMemory.copyMemory(from: $0.baseAddress! + head, byteCount: tailCount)
                    }
                    state = .rebuilt
                } else {
                    segment.neutralize(head: memory, tail: tailMemory - head)
                    state = .neutralized
                }
                unproven.pointee = 0
                return
            }
        }
    }

    /// The tail of `segment` decompressed into new memory of `count` bytes, or nil when its stored
    /// bytes do not decompress to exactly that many (`SegmentTail`).
    private func decompressedTail(of segment: Segment, count: Int) -> UnsafeMutableRawPointer? {
        let stored = UnsafeRawBufferPointer(rebasing: segment.storedBytes[segment.coldOffset...])
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        let done = context.withDecompressor { $0.decompress(stored, into: UnsafeMutableRawBufferPointer(start: memory, count: count),
                                                                 records: segment.taskCount) }
        guard done else {
            memory.deallocate()
            return nil
        }
        return memory
    }
}

/// Keeps the memory of segments alive: copies it owns, or a mapped cache file.
final class SegmentStorage: @unchecked Sendable {
    private var owned: [UnsafeMutableRawPointer] = []
    private var release: (() -> Void)?

    init() {}
    init(release: @escaping () -> Void) { self.release = release }

    deinit {
        owned.forEach { $0.deallocate() }
        release?()
    }

    /// Takes over memory from `Segment.built` (made on any thread) and returns a segment over it.
    func adopt(_ memory: UnsafeMutableRawPointer, length: Int) -> Segment {
        owned.append(memory)
        return Segment(base: UnsafeRawPointer(memory), length: length)
    }

    func adopt(_ built: (memory: UnsafeMutableRawPointer, length: Int)) -> Segment {
        adopt(built.memory, length: built.length)
    }
}

// MARK: - Lists and tasks

/// One list file, as the queries see it.
public struct TaskList: Sendable {
    public let file: ListFile
    let segment: Segment
    /// Position of its first task among all tasks of the folder.
    let firstTask: Int

    /// The display name: the first level-1 heading, else the file name without `.md`.
    public var name: String { segment.headName(segment.header.heading) ?? file.baseName }
    public var symbol: String? { segment.headName(segment.header.symbol) }
    public var color: String? { segment.headName(segment.header.color) }
    public var openCount: Int { Int(segment.header.openCount) }
    public var doneCount: Int { taskCount - openCount }
    public var taskCount: Int { segment.taskCount }
}

/// A task's address: which list, and its index in that list (document order).
public struct TaskID: Hashable, Comparable, Sendable {
    /// Kept in 32 bits each, so that a million rows' ids take 8 MB, not 16.
    private let storedList: UInt32
    private let storedIndex: UInt32
    public var list: Int { Int(storedList) }
    public var index: Int { Int(storedIndex) }

    public init(list: Int, index: Int) {
        storedList = UInt32(list)
        storedIndex = UInt32(index)
    }

    /// Folder order: list path order, then document order.
    public static func < (a: TaskID, b: TaskID) -> Bool { (a.list, a.index) < (b.list, b.index) }
}

/// A task's fields, read from its record.
public struct TaskInfo: Sendable {
    public var done: Bool
    public var title: String
    public var due: DueDate?
    public var doneDate: Day?
    public var priority: Priority
    public var flagged: Bool
    /// The value of its `id:` token, or nil.
    public var id: String?
    /// The rule of its `rec:` token (FORMAT.md 5.10), or nil.
    public var recurrence: RecurrenceRule?
    /// The day of its `until:` token, or nil.
    public var until: Day?
    public var tags: [String]
    /// 1-based line of the checkbox.
    public var line: Int
    /// Index of the enclosing task in the same list.
    public var parent: Int?
    public var section: String?
    public var depth: Int
    /// Its scheduled day (`⏳`, `[scheduled:: …]`, FORMAT.md 11), or nil.
    public var scheduled: Day? = nil
    /// Its start day (`🛫`, `[start:: …]`), or nil: before it, the task is hidden from Today and `pick`.
    public var start: Day? = nil
    /// Its Tasks plugin repetition phrase as written, or nil; without `recurrence`, one tick cannot follow.
    public var repeatPhrase: String? = nil
}

// MARK: - Library

/// The short-ref lengths of every task, computed when first needed: a command that shows a few
/// tasks measures those few against the others instead.
final class RefLengths: @unchecked Sendable {
    var table: [UInt8]?
    var singles = 0
    /// The lengths measured for the rows of a view without the table (`Library.measureRefs`), by
    /// position: made before the rows are rendered, and only read while they are.
    var measured: [Int: UInt8] = [:]

    init(_ table: [UInt8]?) { self.table = table }
}

/// The short-ref lengths of a library whose lists were all parsed in this run, measured on another
/// thread while a write command changes its lists: the cache written after the change needs them,
/// and a change that keeps every ref (a completion) keeps them too (`Library.replacing`).
final class RefLengthsAhead: @unchecked Sendable {
    /// Where the library's segments lie: the lengths are for these segments' records alone.
    private let bases: [UnsafeRawPointer]
    private var table: [UInt8] = []
    private let group = DispatchGroup()

    /// Starts measuring, unless the library has its lengths, a list read from the cache (whose
    /// records are proven on first use, on the thread that uses them), or a list so large that
    /// the change, which parses its list again, should not share its peak of memory with this.
    init?(_ library: Library, largest: Int = ListCache.TailBatch.aheadBytes) {
        guard library.refLengths.table == nil,
              library.lists.allSatisfy({ $0.segment.proof == nil && $0.segment.length <= largest })
        else { return nil }
        let segments = library.lists.map(\.segment), count = library.taskCount, storage = library.storage
        bases = segments.map(\.base)
        DispatchQueue.global().async(group: group) { [self] in
            withExtendedLifetime(storage) {
                table = RefIndex.shortRefLengths(count: count) { body in
                    for segment in segments {
                        for record in segment.refRecords() { body(record.refHash) }
                    }
                }
            }
        }
    }

    /// Gives `library` the lengths once they are measured, when it holds the same segments and no
    /// lengths yet.
    func install(in library: Library) {
        group.wait()
        guard library.refLengths.table == nil, library.lists.count == bases.count,
              zip(library.lists, bases).allSatisfy({ $0.segment.base == $1 })
        else { return }
        library.refLengths.table = table
    }
}

/// Every list of a folder, as compact records, with the refs of all their tasks. Read-only.
public struct Library: Sendable {
    /// Sorted by path.
    public let lists: [TaskList]
    let refLengths: RefLengths
    let storage: SegmentStorage
    /// Number of tasks in all lists.
    public let taskCount: Int
    /// The refs that write commands retired (`.tick/retired`).
    public let retired: RetiredRefs
    /// The refs shown instead of a record's ref, by position (`Library.shownInstead`): a task named by its
    /// title ref whose title ref was retired is named by its content ref, and twins keep their refs.
    let shownInstead: [Int: UInt64]
    /// The refs shown instead, for prefix lookups.
    let insteadIndex: RefIndex
    /// From how many tasks whole-folder passes run on several threads (`inListRuns`).
    var parallelMinimum = 50_000

    init(lists: [TaskList], shortRefLengths: [UInt8]?, storage: SegmentStorage, retired: RetiredRefs) {
        self.lists = lists
        self.storage = storage
        self.retired = retired
        taskCount = lists.last.map { $0.firstTask + $0.taskCount } ?? 0
        let instead = Library.shownInstead(lists: lists, retired: retired)
        shownInstead = instead
        insteadIndex = RefIndex(instead.values.sorted().map { Ref(hash: $0) })
        // Known lengths are those among the records' refs; `refLength` adds the rest.
        self.refLengths = RefLengths(shortRefLengths)
    }

    /// The content ref of task `i` of a list (see `Ref.content`), computed from its record.
    static func contentRef(of i: Int, in list: TaskList) -> Ref {
        let segment = list.segment
        let h = segment.hot(i), c = segment.coldAndRef(i).cold, p = segment.parent(ofRead: i, h)
        let parent = p < 0 || Int(p) >= segment.taskCount ? UnsafeBufferPointer(start: nil, count: 0)
            : segment.title(of: segment.cold(Int(p)))
        return Ref.content(path: Array(list.file.path.utf8), title: segment.title(of: c), due: h.due,
                           priority: Int(h.priority), flagged: h.flagged, section: segment.section(c.section),
                           parentTitle: parent, notes: c.notes.isNone ? UnsafeBufferPointer(start: nil, count: 0) : segment.bytes(c.notes))
    }

    /// The full ref that names a task now.
    public func fullRef(_ id: TaskID) -> Ref {
        fullRef(id, hash: lists[id.list].segment.coldAndRef(id.index).ref.refHash)
    }

    /// The full ref of a task whose record's ref is `hash` (from its ref record, in a pass over every task).
    func fullRef(_ id: TaskID, hash: UInt64) -> Ref {
        if !shownInstead.isEmpty, let instead = shownInstead[position(of: id)] { return Ref(hash: instead) }
        return Ref(hash: hash)
    }

    /// Length of each task's short ref among the records' refs (retired refs and refs shown instead aside),
    /// by position (list order, then document order). The cache keeps it.
    var shortRefLengths: [UInt8] {
        if let table = refLengths.table { return table }
        // The refs are read from the records where they lie (twice), not gathered: a copy of a
        // million is eight more megabytes at a cold read's peak.
        let table = RefIndex.shortRefLengths(count: taskCount) { body in
            lists.withUnsafeBufferPointer { lists in
                for k in lists.indices {
                    for record in lists[k].segment.refRecords() { body(record.refHash) }
                }
            }
        }
        refLengths.table = table
        return table
    }

    /// The prefix length a ref needs to stand apart from every retired ref (0 for a ref that is itself retired).
    private func retiredLength(_ ref: Ref) -> Int {
        guard !retired.contains(ref.hash) else { return 0 }
        return min(max(Ref.minimumLength, retired.index.sharedPrefixLength(with: ref) + 1), Ref.fullLength)
    }

    /// Builds a library from parsed documents (tests, and lists parsed in this run).
    public init(documents: [(file: ListFile, document: Document)], retired: RetiredRefs = RetiredRefs()) {
        let storage = SegmentStorage()
        let segments = documents.map { storage.adopt(Segment.built($0.document, path: $0.file.path)) }
        self = Library.assemble(files: documents.map(\.file), segments: segments, storage: storage, retired: retired)
    }

    /// The library over `segments`; `shortRefLengths` when known (an unchanged cache), else computed.
    static func assemble(files: [ListFile], segments: [Segment], storage: SegmentStorage,
                         shortRefLengths known: [UInt8]? = nil, retired: RetiredRefs) -> Library {
        var lists: [TaskList] = []
        lists.reserveCapacity(files.count)
        var first = 0
        for (file, segment) in zip(files, segments) {
            lists.append(TaskList(file: file, segment: segment, firstTask: first))
            first += segment.taskCount
        }
        return Library(lists: lists, shortRefLengths: known?.count == first ? known : nil, storage: storage, retired: retired)
    }

    /// Every task, in folder order.
    public var ids: [TaskID] {
        lists.indices.flatMap { l in (0..<lists[l].taskCount).map { TaskID(list: l, index: $0) } }
    }

    func record(_ id: TaskID) -> TaskRecord { lists[id.list].segment.record(id.index) }

    public func list(_ id: TaskID) -> TaskList { lists[id.list] }

    public func task(_ id: TaskID) -> TaskInfo {
        let segment = lists[id.list].segment
        let r = segment.record(id.index), c = segment.cold(id.index)
        return TaskInfo(done: r.done, title: segment.string(r.title) ?? "", due: r.due,
                        doneDate: r.doneDay == .min ? nil : Day(daysSinceEpoch: Int(r.doneDay)),
                        priority: Priority(rawValue: Int(r.priority)) ?? .none, flagged: r.flagged,
                        id: segment.taskID(id.index), recurrence: RecurrenceRule(packed: c.recurrence),
                        until: c.until == .min ? nil : Day(daysSinceEpoch: Int(c.until)), tags: segment.tagNames(r.tags),
                        line: Int(r.line), parent: r.parent < 0 ? nil : Int(r.parent),
                        section: segment.section(r.section), depth: Int(r.depth),
                        scheduled: c.scheduled == .min ? nil : Day(daysSinceEpoch: Int(c.scheduled)),
                        start: c.start == .min ? nil : Day(daysSinceEpoch: Int(c.start)), repeatPhrase: segment.string(c.repeatPhrase))
    }

    public func notes(_ id: TaskID) -> String { lists[id.list].segment.string(record(id).notes) ?? "" }

    /// The position of a task among all tasks.
    public func position(of id: TaskID) -> Int { lists[id.list].firstTask + id.index }

    /// The short ref a row shows.
    public func ref(_ id: TaskID) -> String { fullRef(id).prefix(refLength(id)) }

    /// The length of a task's short ref: the shortest prefix, at least 3 symbols, that no other
    /// task's ref (equal refs aside) nor any retired ref shares.
    public func refLength(_ id: TaskID) -> Int {
        guard !retired.isEmpty else { return lengthAmongTasks(id) }
        let ref = fullRef(id)
        var length = retiredLength(ref)
        if shownInstead.isEmpty {
            length = max(length, lengthAmongTasks(id))
        } else {
            // Apart from every record's ref (a task shown instead is measured alone) and every ref shown instead.
            let own = shownInstead[position(of: id)] == nil ? lengthAmongTasks(id) : lengthAlone(id, hash: ref.hash)
            let apart = min(max(Ref.minimumLength, insteadIndex.sharedPrefixLength(with: ref) + 1), Ref.fullLength)
            length = max(length, own, apart)
        }
        return length
    }

    /// The length that sets `hash` apart from the records' refs of every other task.
    private func lengthAlone(_ id: TaskID, hash: UInt64) -> Int {
        Int(lengthsAlone([(position(of: id), hash)])[0])
    }

    /// The length that sets each hash apart from the records' refs of every task but the one at its
    /// position (and refs equal to it), in one pass over every ref. Only a ref sharing the first
    /// `Ref.minimumLength` symbols with a hash can make its length longer than that, so the pass
    /// keeps only the refs whose first symbols are those of one of the hashes (a table of 27³
    /// marks), and each hash is measured against those alone.
    func lengthsAlone(_ hashes: [(position: Int, hash: UInt64)]) -> [UInt8] {
        var modulus: UInt64 = 1
        for _ in 0..<Ref.minimumLength { modulus *= 27 }
        var wanted = [Bool](repeating: false, count: Int(modulus))
        for (_, hash) in hashes { wanted[Int(hash % modulus)] = true }
        // The records' refs that share the first symbols with one of the hashes, by those symbols.
        var near: [UInt64: [(position: Int, hash: UInt64)]] = [:]
        var position = 0
        for list in lists {
            let segment = list.segment
            for i in 0..<list.taskCount {
                let hash = segment.refRecord(i).refHash
                let key = hash % modulus
                if wanted[Int(key)] { near[key, default: []].append((position + i, hash)) }
            }
            position += list.taskCount
        }
        return hashes.map { me in
            var longest = 0
            for other in near[me.hash % modulus] ?? [] where other.position != me.position && other.hash != me.hash {
                longest = max(longest, commonPrefixLength(me.hash, other.hash))
            }
            return UInt8(min(max(Ref.minimumLength, longest + 1), Ref.fullLength))
        }
    }

    private func lengthAmongTasks(_ id: TaskID) -> Int {
        if let table = refLengths.table { return Int(table[position(of: id)]) }
        if let length = refLengths.measured[position(of: id)] { return Int(length) }
        // A few lookups measure the task against all others; many build the whole table once.
        refLengths.singles += 1
        if refLengths.singles > Library.singleRefLookups { return Int(shortRefLengths[position(of: id)]) }
        return lengthAlone(id, hash: record(id).refHash)
    }

    /// How many refs are measured one by one, each against every task, before the whole table of
    /// lengths is made instead.
    static let singleRefLookups = 32

    /// Measures the refs of `ids` among the records' refs together, in one pass over every ref,
    /// when the folder has no table of lengths and they are at most `measuredMaximum`; else makes
    /// the table. Called before rows are rendered, so that rendering only reads.
    func measureRefs(_ ids: [TaskID]) {
        guard refLengths.table == nil, !ids.isEmpty else { return }
        guard ids.count <= measuredMaximum else {
            _ = shortRefLengths
            return
        }
        let wanted = ids.map { id in (position(of: id), lists[id.list].segment.refRecord(id.index).refHash) }
            .filter { refLengths.measured[$0.0] == nil }
        for (k, length) in lengthsAlone(wanted).enumerated() { refLengths.measured[wanted[k].0] = length }
    }

    /// How many rows are measured together rather than by the table: one in 16 of the tasks, and
    /// at most 2,048, so that the refs kept for measuring them (those sharing their first three
    /// symbols: about one in ten of the tasks for 2,048 rows) stay few.
    var measuredMaximum: Int { min(2048, taskCount / 16) }

    /// The widest shown ref among `ids` (at least `Ref.minimumLength`). For more rows than
    /// `singleRefLookups`, they are measured together (`measureRefs`) rather than one by one.
    public func refWidth(of ids: [TaskID]) -> Int {
        if ids.count > Library.singleRefLookups { measureRefs(ids) }
        var widest = Ref.minimumLength
        for id in ids { widest = max(widest, refLength(id)) }
        return widest
    }

    /// The shown refs, with their titles, of the open tasks (or the done ones) whose shown ref
    /// starts with `typed`: what Tab completes. The refs are first matched as numbers, so that
    /// lengths are measured and strings made only for the few that can match.
    public func refs(startingWith typed: String, done: Bool) -> [(ref: String, title: String)] {
        let typed = Array(typed.utf8)
        var candidates: [TaskID] = []
        for l in lists.indices {
            let segment = lists[l].segment
            for i in 0..<lists[l].taskCount where segment.hot(i).done == done {
                let id = TaskID(list: l, index: i)
                if fullRef(id, hash: segment.refRecord(i).refHash).starts(with: typed) { candidates.append(id) }
            }
        }
        measureRefs(candidates)
        return candidates.compactMap { id in
            let fields = rowFields(id)
            let ref = Ref(hash: fields.refHash).prefix(fields.refLength)
            guard ref.utf8.starts(with: typed) else { return nil }
            return (ref, String(decoding: fields.title, as: UTF8.self))
        }
    }

    /// Whether every byte is below 0x80: eight at a time.
    @inline(__always) static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        var seen: UInt64 = 0
        while i + 8 <= bytes.count {
            seen |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            seen |= UInt64(base[i])
            i += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// Appends a task's title (UTF-8 as written; invalid sequences become U+FFFD) to `out`.
    public func appendTitle(_ id: TaskID, to out: inout [UInt8]) {
        let segment = lists[id.list].segment
        Library.appendText(segment.title(of: segment.cold(id.index)), to: &out)
    }

    /// Appends title bytes to `out` (UTF-8 as written; invalid sequences become U+FFFD).
    public static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isASCII(bytes) {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: String(decoding: bytes, as: UTF8.self).utf8)
        }
    }

    /// Starts loading the records of the row `ids[k + 16]` and the title of `ids[k + 8]`: a renderer
    /// of rows in order calls it before row `k`, so that a row finds what it reads loaded.
    public func prefetchRows(_ ids: [TaskID], at k: Int) {
        if k + 16 < ids.count {
            let id = ids[k + 16]
            lists[id.list].segment.prefetchRecords(id.index)
        }
        if k + 8 < ids.count {
            let id = ids[k + 8]
            lists[id.list].segment.prefetchTitle(id.index)
        }
    }

    /// List `l`'s hot records, proven, for a pass over every task of the lists in order: the next
    /// list's start loading meanwhile.
    func hotRecords(ofList l: Int) -> UnsafeBufferPointer<HotRecord> {
        if l + 1 < lists.count { lists[l + 1].segment.prefetchHotRecords() }
        return lists[l].segment.hotRecords()
    }

    /// What a row shows, read from the record once, without making dates or strings.
    public func rowFields(_ id: TaskID) -> (refHash: UInt64, refLength: Int, done: Bool, priority: Int, flagged: Bool,
                                           dueDay: Int32, dueMinutes: Int16, doneDay: Int32, hasNotes: Bool,
                                           title: UnsafeBufferPointer<UInt8>) {
        let segment = lists[id.list].segment
        let h = segment.hot(id.index), (c, r) = segment.coldAndRef(id.index)
        return (fullRef(id, hash: r.refHash).hash, refLength(id), h.done, Int(h.priority), h.flagged, h.dueDay,
                h.dueMinutes, h.doneDay, h.hasNotes, segment.title(of: c))
    }

    /// A task's due date, from its hot record alone.
    public func due(_ id: TaskID) -> DueDate? { lists[id.list].segment.hot(id.index).due }

    /// The rule of a task's `rec:` token (FORMAT.md 5.10), or nil: what a row's `↻` shows.
    public func recurrence(_ id: TaskID) -> RecurrenceRule? {
        let segment = lists[id.list].segment
        guard segment.hot(id.index).hasRule else { return nil }
        return RecurrenceRule(packed: segment.cold(id.index).recurrence)
    }

    /// The enclosing task of a subtask.
    public func parent(of id: TaskID) -> TaskID? {
        let p = record(id).parent
        return p < 0 ? nil : TaskID(list: id.list, index: Int(p))
    }

    /// The direct subtasks of a task, in document order.
    public func children(of id: TaskID) -> [TaskID] {
        let segment = lists[id.list].segment
        let depth = segment.cold(id.index).depth
        var result: [TaskID] = []
        var j = id.index + 1
        while j < segment.taskCount, segment.cold(j).depth > depth {
            if segment.parent(j) == Int32(id.index) { result.append(TaskID(list: id.list, index: j)) }
            j += 1
        }
        return result
    }

    // MARK: Naming things

    /// The task a user's REF names (README "Naming tasks"), ignoring whitespace around it.
    ///
    /// The candidates are the tasks whose ref starts with the text (3 to 14 symbols, any case) and the tasks
    /// whose title is the text, ignoring case: one candidate is found, several are ambiguous. A text that
    /// also starts a retired ref is never found: it may have been shown for a task that is gone. Only when
    /// there is no candidate and no retired ref does a part of a title count, when one task has it.
    /// `preferring` (for `done`: open tasks) settles an ambiguity when exactly one candidate satisfies it.
    public func resolve(ref text: String, preferring: ((TaskID) -> Bool)? = nil) -> TaskResolution {
        let query = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !query.isEmpty else { return .notFound }
        // A ref prefix of k symbols is the hash modulo 27^k (the first symbol is the lowest digit).
        var byRef: [TaskID] = []
        var retiredHit = false
        let symbols = Array(query.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        if symbols.count >= Ref.minimumLength, symbols.count <= Ref.fullLength,
           let digits = Optional(symbols.compactMap(Ref.digit)), digits.count == symbols.count {
            var value: UInt64 = 0
            var modulus: UInt64 = 1
            for d in digits {
                value = value &+ UInt64(d) &* modulus  // a 14-symbol text beyond 2^64 simply matches nothing
                modulus = modulus &* 27
            }
            let whole = digits.count == Ref.fullLength
            for (l, list) in lists.enumerated() {
                for i in 0..<list.taskCount {
                    let id = TaskID(list: l, index: i)
                    let h = fullRef(id, hash: list.segment.refRecord(i).refHash).hash
                    if whole ? h == value : h % modulus == value { byRef.append(id) }
                }
            }
            retiredHit = !retired.isEmpty && !retired.index.indices(withRefPrefix: String(decoding: symbols, as: UTF8.self)).isEmpty
        }
        // Exact titles (ignoring case) are candidates beside refs; a part of a title only counts alone,
        // so the folder's titles are searched for one only when nothing else matched.
        let needle = Array(query.lowercased().utf8)
        let asciiNeedle = needle.allSatisfy { $0 < 0x80 }
        // A title that lowers to an ASCII text is at most three times its length: lowering never
        // removes a character, and only a three-byte one (the Kelvin sign) becomes one ASCII byte.
        let longest = asciiNeedle ? 3 * needle.count : Int.max
        var exact: [TaskID] = []
        // A list whose titles' lengths rule out an ASCII needle is skipped: its tail is not read.
        for (l, list) in lists.enumerated()
        where !asciiNeedle || list.segment.header.mayHoldTitle(loweringToASCII: needle.count) {
            for i in 0..<list.taskCount {
                let title = list.segment.title(of: list.segment.cold(i))
                // An ASCII text equals an ASCII title of its length only, byte for byte (ignoring
                // A-Z case); a title with other characters is longer than what it lowers to, or
                // stays non-ASCII.
                if asciiNeedle {
                    if title.count == needle.count {
                        if Self.equalIgnoringASCIICase(title, needle) { exact.append(TaskID(list: l, index: i)) }
                        continue
                    }
                    if title.count < needle.count || title.count > longest || Self.isASCII(title) { continue }
                }
                if Array(String(decoding: title, as: UTF8.self).lowercased().utf8) == needle {
                    exact.append(TaskID(list: l, index: i))
                }
            }
        }
        func settle(_ candidates: [TaskID]) -> TaskResolution {
            if candidates.count == 1 && !retiredHit { return .found(candidates[0]) }
            if !retiredHit, let preferring, case let kept = candidates.filter(preferring), kept.count == 1 {
                return .found(kept[0])
            }
            return .ambiguous(candidates, retired: retiredHit)
        }
        // A retired ref that tick's own change forwarded leads to the task it became (a few are followed).
        var forwarded: [TaskID] = []
        var lost: (title: String, reason: String)?
        if retiredHit, case let hits = retired.index.indices(withRefPrefix: String(decoding: symbols, as: UTF8.self)),
           hits.count <= Library.forwardedMaximum {
            var all = true
            for hit in hits {
                let next = forward(retired.refs[hit])
                if let task = next?.task { forwarded.append(task) } else { all = false }
                if hits.count == 1, let next, next.task == nil { lost = (next.title, next.reason) }
            }
            if all { retiredHit = false }
        }
        if let lost, byRef.isEmpty, exact.isEmpty { return .lost(title: lost.title, reason: lost.reason) }
        let candidates = Set(byRef + exact + forwarded).sorted()
        if !candidates.isEmpty { return settle(candidates) }
        if retiredHit { return .gone }
        let containing = tasks(withTitleContaining: needle)
        if !containing.isEmpty { return settle(containing) }
        return .notFound
    }

    /// How many retired refs a REF may start for their forwards to be followed.
    static let forwardedMaximum = 8

    /// The tasks whose title, lowered, holds `needle` (lowered UTF-8, not empty).
    private func tasks(withTitleContaining needle: [UInt8]) -> [TaskID] {
        let asciiNeedle = needle.allSatisfy { $0 < 0x80 }
        var containing: [TaskID] = []
        for (l, list) in lists.enumerated() {
            for i in 0..<list.taskCount {
                let title = list.segment.title(of: list.segment.cold(i))
                if asciiNeedle, title.allSatisfy({ $0 < 0x80 }) {
                    // ASCII on both sides: lowering is A-Z to a-z, compared in place.
                    if Self.containsIgnoringASCIICase(title, needle) { containing.append(TaskID(list: l, index: i)) }
                    continue
                }
                let folded = Array(String(decoding: title, as: UTF8.self).lowercased().utf8)
                if folded.count >= needle.count, folded.withUnsafeBufferPointer({ contains($0, needle) }) {
                    containing.append(TaskID(list: l, index: i))
                }
            }
        }
        return containing
    }

    /// Whether `text` equals `lowered` (lowercase ASCII) once its A-Z are lowered.
    static func equalIgnoringASCIICase(_ text: UnsafeBufferPointer<UInt8>, _ lowered: [UInt8]) -> Bool {
        guard text.count == lowered.count else { return false }
        for k in 0..<text.count where text[k] | (text[k] >= 0x41 && text[k] <= 0x5A ? 0x20 : 0) != lowered[k] { return false }
        return true
    }

    /// Whether `text` holds `lowered` (lowercase ASCII, not empty) once its A-Z are lowered.
    static func containsIgnoringASCIICase(_ text: UnsafeBufferPointer<UInt8>, _ lowered: [UInt8]) -> Bool {
        guard !lowered.isEmpty, text.count >= lowered.count else { return lowered.isEmpty }
        for start in 0...(text.count - lowered.count) {
            var k = 0
            while k < lowered.count {
                let byte = text[start + k]
                if byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) != lowered[k] { break }
                k += 1
            }
            if k == lowered.count { return true }
        }
        return false
    }

    /// The list a user names: its path relative to the folder (with or without `.md`), else its file
    /// name without `.md` or its display name, ignoring case and accents, else a unique prefix of either.
    ///
    /// In order: the file's path as written (`work.md`, `home/garden`); the path ignoring case; a
    /// list's name or file name ignoring case and accents (`uber` finds `Über`), where, when several
    /// lists have such a name, the one spelled exactly as `text` wins (`Work` beside `WORK`); then
    /// the start of a name. Several lists left are ambiguous (the caller shows their files).
    public func resolve(list text: String) -> Resolution<Int> {
        let pathText = text.lowercased().hasSuffix(".md") ? text : text + ".md"
        if let exact = lists.firstIndex(where: { $0.file.path == pathText }) { return .found(exact) }
        let pathQuery = pathText.lowercased()
        let paths = lists.indices.filter { lists[$0].file.path.lowercased() == pathQuery }
        if paths.count == 1 { return .found(paths[0]) }
        if paths.count > 1 { return .ambiguous(paths) }
        let query = Folding.fold(text)
        let named = lists.indices.filter {
            Folding.fold(lists[$0].file.baseName) == query || Folding.fold(lists[$0].name) == query
        }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 {
            let exact = named.filter { lists[$0].name == text || lists[$0].file.baseName == text }
            return exact.count == 1 ? .found(exact[0]) : .ambiguous(named)
        }
        let prefixed = lists.indices.filter {
            Folding.fold(lists[$0].file.baseName).starts(with: query) || Folding.fold(lists[$0].name).starts(with: query)
        }
        if prefixed.count == 1 { return .found(prefixed[0]) }
        if prefixed.count > 1 { return .ambiguous(prefixed) }
        return .notFound
    }

    /// Each list's name, followed by its file when another list's name is the same ignoring case
    /// and accents (`Work` and `work`, `Über` and `Uber`): `Work (a/work.md)`.
    public func listLabels() -> [String] {
        /// A folded name, hashed as one run of bytes rather than byte by byte.
        struct Folded: Hashable {
            let bytes: [UInt8]
            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
        let names = lists.map(\.name)
        let folded = names.map { Folded(bytes: Folding.fold($0)) }
        var count: [Folded: Int] = Dictionary(minimumCapacity: folded.count)
        for name in folded { count[name, default: 0] += 1 }
        return names.indices.map { i in count[folded[i]]! > 1 ? "\(names[i]) (\(lists[i].file.path))" : names[i] }
    }
}

/// What a REF resolved to.
public enum TaskResolution: Equatable, Sendable {
    case found(TaskID)
    /// Several tasks match (ascending); `retired`: a retired ref starts with the text too, so it may have
    /// been shown for a task that is gone.
    case ambiguous([TaskID], retired: Bool)
    /// Only retired refs start with the text: the task it named was removed, moved or changed.
    case gone
    /// The text starts one retired ref, which tick's change forwarded, but it leads to no single task: the
    /// title of the task it last named, and why (`which tick has since removed`).
    case lost(title: String, reason: String)
    case notFound
}

/// What a name resolved to.
public enum Resolution<Value: Equatable & Sendable>: Equatable, Sendable {
    case found(Value)
    case ambiguous([Value])
    case notFound
}

// MARK: - Loading

/// A folder's lists, read and parsed (or taken from the cache), and what could not be read.
public struct LoadResult: Sendable {
    public var library: Library
    /// Things that looked like lists but were skipped (see `FolderScan`).
    public var problems: [FolderProblem]
    /// List files that could not be read.
    public var readErrors: [(file: ListFile, error: FileSystemError)]
    /// The lists read from their files in this load (the others came whole from the cache).
    public var parsedPaths: [String] = []
    /// The cache the library was loaded over, for a write to update.
    var cache: LoadedCache?
}

/// A folder's cache and what was mapped of it when the folder was loaded.
struct LoadedCache: @unchecked Sendable {
    let cache: ListCache
    let cached: CachedLists?
}

extension Folder {
    /// Reads every list: from the cache where a list is unchanged, else parsing it, on all cores.
    /// Never writes a list; it may write the cache (`useCache`), unless `saveCache` is false (a
    /// write command, which updates the cache itself after its change: `TaskFolder`).
    public func load(useCache: Bool = true, saveCache: Bool = true, environment: [String: String] = [:],
                     scan given: FolderScan? = nil) -> LoadResult {
        let scan = given ?? scan()
        let cache = useCache ? ListCache(folder: self, environment: environment) : nil
        let cached = cache?.load(rebuild: rebuilder)
        let (library, readErrors, unchanged, parsed, checked) = assemble(scan.lists, cached: cached)
        // A list checked against its bytes (changed within the racy window, or just written by
        // tick) whose change is now older than the window can be vouched for by its status alone:
        // the cache is written again so that later reads stop reading its file, as git refreshes
        // its index.
        let now = fileSystem.now()
        let settles = checked.contains { ($0.status?.modified ?? .max) < now - ListCache.racyWindow }
        if saveCache, let cache, !unchanged || settles {
            cache.save(library, created: now, over: cached)
        }
        var result = LoadResult(library: library, problems: scan.problems, readErrors: readErrors, parsedPaths: parsed)
        result.cache = cache.map { LoadedCache(cache: $0, cached: cached) }
        return result
    }

    /// Parses a list again into a segment, for a cached one found damaged.
    var rebuilder: @Sendable (ListFile) -> [UInt8]? {
        let fs = fileSystem, filter = globalFilter
        return { file in (try? fs.readFile(file.absolutePath)).map { Segment.build(Document(bytes: $0, globalFilter: filter), path: file.path) } }
    }

    /// The library of `files`: each list's segment from `cached` where the list is unchanged (or its
    /// file still holds the bytes the segment was built from), else parsed, on all cores.
    /// `unchanged` tells whether the cache held exactly these lists, soundly; `checked` names the
    /// lists whose cached segments were taken after checking them against their files' bytes.
    func assemble(_ files: [ListFile], cached: CachedLists?)
        -> (library: Library, readErrors: [(file: ListFile, error: FileSystemError)], unchanged: Bool, parsed: [String],
            checked: [ListFile]) {
        var segments = [Segment?](repeating: nil, count: files.count)
        var stale: [Int] = []
        var candidates: [Segment?] = []
        let (found, samePaths) = cached?.entries(for: files) ?? (Array(repeating: nil, count: files.count), false)
        for (i, file) in files.enumerated() {
            switch cached?.lookup(file, in: found[i]) ?? .miss {
            case .hit(let segment):
                segments[i] = segment
            case .verify(let segment):
                stale.append(i)
                candidates.append(segment)
            case .miss:
                stale.append(i)
                candidates.append(nil)
            }
        }
        // Each worker builds its segment into memory of its own, so no list is held twice. A cached
        // segment that needs its file's bytes is kept when they are the same: nothing is parsed.
        enum Outcome { case verified, parsed(UnsafeMutableRawPointer, Int) }
        let slots = ResultSlots<Result<Outcome, FileSystemError>>(count: stale.count)
        let fs = fileSystem, filter = globalFilter
        let toParse = stale, toVerify = candidates
        DispatchQueue.concurrentPerform(iterations: toParse.count) { k in
            let file = files[toParse[k]]
            do {
                let bytes = try fs.readFile(file.absolutePath)
                if let candidate = toVerify[k], candidate.isBuilt(from: bytes) {
                    slots[k] = .success(.verified)
                } else {
                    let (memory, length) = Segment.built(Document(bytes: bytes, globalFilter: filter), path: file.path)
                    slots[k] = .success(.parsed(memory, length))
                }
            } catch let error as FileSystemError {
                slots[k] = .failure(error)
            } catch {
                preconditionFailure("FileSystem threw \(error)")
            }
        }
        let storage = cached?.storage ?? SegmentStorage()
        var readErrors: [(file: ListFile, error: FileSystemError)] = []
        var parsed: [Int] = []
        var checked: [ListFile] = []
        for (k, i) in stale.enumerated() {
            switch slots[k]! {
            case .success(.verified):
                segments[i] = candidates[k]
                checked.append(files[i])
            case .success(.parsed(let memory, let length)):
                segments[i] = storage.adopt(memory, length: length)
                parsed.append(i)
            case .failure(let error): readErrors.append((files[i], error))
            }
        }
        var kept: [ListFile] = []
        var keptSegments: [Segment] = []
        kept.reserveCapacity(files.count)
        keptSegments.reserveCapacity(files.count)
        for (i, file) in files.enumerated() {
            if let segment = segments[i] {
                kept.append(file)
                keptSegments.append(segment)
            }
        }
        // The cached short-ref lengths stand while the lists are the same and every list parsed
        // again names its tasks by the same refs (a task completed, dated or flagged by hand).
        let sameLists = readErrors.isEmpty && samePaths && cached?.isDamaged == false
        // With the same lists, `found` holds the cached segment of each, whatever its file holds now.
        let sameRefs = sameLists && parsed.allSatisfy { i in
            found[i].map { segments[i]!.hasSameRefs(as: $0.1) } ?? false
        }
        let library = Library.assemble(files: kept, segments: keptSegments, storage: storage,
                                       shortRefLengths: sameRefs ? cached?.shortRefLengths : nil,
                                       retired: RetiredRefs.load(root: path))
        // Ref lengths that fail their checksum are computed again, and the cache written anew.
        let unchanged = parsed.isEmpty && sameLists && library.refLengths.table != nil
        return (library, readErrors, unchanged, parsed.map { files[$0].path }, checked)
    }
}

/// Fixed slots that concurrent workers fill, each worker its own index.
final class ResultSlots<Value>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutablePointer<Value?>.allocate(capacity: max(count, 1))
        base.initialize(repeating: nil, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(i: Int) -> Value? {
        get { base[i] }
        set { base[i] = newValue }
    }
}
