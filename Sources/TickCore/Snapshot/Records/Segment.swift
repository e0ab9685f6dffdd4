import Dispatch
import Synchronization
import TickFormat

/// One list's block: header, section refs, the names' text (padded to 8 bytes), hot records, ref
/// records, parent records, then its tail: cold records, extra records, text, then (8-byte
/// aligned) folded records and folded text. These are the records a `Library` reads: a list
/// parsed in this run provides them (`Segment.built`), and so does the cache (Storage/Cache).
///
/// A segment built in this run is trusted and lies whole at `base`. One read from the cache
/// carries a proof (`SegmentProving`): its head (up to the cold records) lies in the mapped file,
/// followed there by its tail compressed, which is decompressed into memory of its own on first
/// use. Its header and names were checked on loading, and each other area (hot records, ref
/// records, cold records with extra records and the text, folded records with folded text) on its
/// first use, so that a view reading only hot records never reads or decompresses the rest. A
/// search reads hot records, cold records, the text and the folded area; a view that shows a task
/// of a list reads that list's hot, ref and cold records and its text.
struct Segment: @unchecked Sendable {
    let base: UnsafeRawPointer
    /// The segment's length as built: with its tail decompressed.
    let length: Int
    /// Its length where it is stored (for the cache, the head, then the compressed tail), or
    /// `length` for a segment built in this run.
    let storedLength: Int
    let header: SegmentHeader
    /// The areas not proven yet (`SegmentArea`), for a segment with a proof.
    private let unproven: UnsafeMutablePointer<UInt8>?
    /// For a segment with a proof: where its tail was decompressed to, once it was (nil before).
    private let tail: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// Not retained, so that a segment is plain data to copy: what holds the segment's memory
    /// holds its proof too.
    private let proofReference: Unmanaged<SegmentProving>?
    var proof: SegmentProving? { proofReference?.takeUnretainedValue() }

    init(base: UnsafeRawPointer, length: Int) {
        self.base = base
        self.length = length
        storedLength = length
        header = base.loadUnaligned(as: SegmentHeader.self)
        unproven = nil
        tail = nil
        proofReference = nil
    }

    /// A segment whose areas `proof` proves on first use: `unproven` holds the areas not proven
    /// yet, and `tail` where the tail is once decompressed. The caller has checked the header.
    init(proven base: UnsafeRawPointer, length: Int, storedLength: Int, header: SegmentHeader, proof: SegmentProving) {
        self.base = base
        self.length = length
        self.storedLength = storedLength
        self.header = header
        unproven = proof.unproven
        tail = proof.tail
        proofReference = Unmanaged.passUnretained(proof)
    }

    /// Where the tail's areas are, at the same offsets as in a segment built whole: `base` for a
    /// segment built in this run, else the tail's decompressed memory, less the head's length. A
    /// cached segment's tail is read only once an area of it was proven, which decompresses it.
    @inline(__always) var tailBase: UnsafeRawPointer {
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
    var extrasOffset: Int { coldOffset + Int(header.taskCount) * MemoryLayout<ColdRecord>.stride }
    var textOffset: Int { extrasOffset + Int(header.extraCount) * MemoryLayout<ExtraRecord>.stride }
    var foldedRecordsOffset: Int { (textOffset + Int(header.textLength) + 7) / 8 * 8 }
    fileprivate var foldedOffset: Int { foldedRecordsOffset + Int(header.foldedCount) * MemoryLayout<FoldedRecord>.stride }
    var end: Int { foldedOffset + Int(header.foldedLength) }

    var taskCount: Int { Int(header.taskCount) }

    /// Makes sure `area` was proven before it is read (nothing to do for a segment of this run).
    @inline(__always) func prove(_ area: UInt8) {
        if let unproven, unproven.pointee & area != 0 { proof!.prove(area, of: self) }
    }

    /// Records start 8-byte aligned: segments are padded to 8 bytes in memory and in the cache.
    @inline(__always) func hot(_ i: Int) -> HotRecord {
        prove(SegmentArea.hot)
        return base.load(fromByteOffset: hotOffset + i * MemoryLayout<HotRecord>.stride, as: HotRecord.self)
    }

    /// Every hot record of the list, proven: for a pass over every task.
    func hotRecords() -> UnsafeBufferPointer<HotRecord> {
        prove(SegmentArea.hot)
        return UnsafeBufferPointer(start: (base + hotOffset).assumingMemoryBound(to: HotRecord.self), count: taskCount)
    }

    /// Every ref record of the list, proven: for a pass over every task's ref.
    func refRecords() -> UnsafeBufferPointer<RefRecord> {
        prove(SegmentArea.refs)
        return UnsafeBufferPointer(start: (base + refsOffset).assumingMemoryBound(to: RefRecord.self), count: taskCount)
    }

    /// Task `i`'s ref record, for a pass over every task of the list: proven with the whole area.
    @inline(__always) func refRecord(_ i: Int) -> RefRecord {
        prove(SegmentArea.refs)
        return unprovenRef(i)
    }

    @inline(__always) private func unprovenRef(_ i: Int) -> RefRecord {
        base.load(fromByteOffset: refsOffset + i * MemoryLayout<RefRecord>.stride, as: RefRecord.self)
    }

    @inline(__always) func unprovenCold(_ i: Int) -> ColdRecord {
        tailBase.load(fromByteOffset: coldOffset + i * MemoryLayout<ColdRecord>.stride, as: ColdRecord.self)
    }

    @inline(__always) func unprovenExtra(at k: Int) -> ExtraRecord {
        tailBase.load(fromByteOffset: extrasOffset + k * MemoryLayout<ExtraRecord>.stride, as: ExtraRecord.self)
    }

    /// Task `i`'s extra record, found by halving among the extra records (in task order), or nil.
    func unprovenExtra(of i: Int) -> ExtraRecord? {
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
        prove(SegmentArea.rows)
        return (fields(unprovenCold(i), of: i), unprovenRef(i))
    }

    /// Task `i`'s cold fields. Its title's bytes (`title(of:)`) are proven with them.
    @inline(__always) func cold(_ i: Int) -> ColdFields {
        prove(SegmentArea.cold)
        return fields(unprovenCold(i), of: i)
    }

    /// The fields of task `i`'s cold record `c` (proven) with its extra record.
    @inline(__always) fileprivate func fields(_ c: ColdRecord, of i: Int) -> ColdFields {
        c.fields(end: end(of: i), extra: c.hasExtra ? unprovenExtra(of: i) : nil, sectionCount: Int32(header.sectionCount),
                 textLength: UInt64(header.textLength)) ?? .empty
    }

    /// Where task `i`'s text ends: where the next task's starts, or at the end of the text.
    @inline(__always) func end(of i: Int) -> UInt64 {
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
        prove(SegmentArea.cold)
        return fields(unprovenCold(i), of: i).searchSpan
    }

    /// The segment's whole text, proven.
    func text() -> UnsafeBufferPointer<UInt8> {
        prove(SegmentArea.cold)
        return UnsafeBufferPointer(start: (tailBase + textOffset).assumingMemoryBound(to: UInt8.self),
                                   count: Int(header.textLength))
    }

    /// The folded record `k`, for a search's pass over every one: proven with the folded text.
    @inline(__always) func foldedRecord(_ k: Int) -> FoldedRecord {
        prove(SegmentArea.search)
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
        prove(SegmentArea.search)
        return UnsafeBufferPointer(start: (tailBase + foldedOffset).assumingMemoryBound(to: UInt8.self),
                                   count: Int(header.foldedLength))
    }

    /// Proves the cold records and the text at once, before a pass over every title of the list.
    func proveRecordsAndText() { prove(SegmentArea.cold) }

    /// Proves every area that a row reads (all but the folded records and folded text) before
    /// rows are rendered on several threads, so that rendering never writes to the proof
    /// (the cache's proof stops a test build that proves while rendering). A row renderer must not
    /// read the folded area.
    func proveForRows() { prove(SegmentArea.rows) }

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
        prove(SegmentArea.refs)
        return unprovenParent(of: i)
    }

    /// The parent index of task `i` (whose hot record is `h`), or -1, once `coldAndRef(i)` has
    /// proven the ref records, which hold the parent records.
    @inline(__always) func parent(ofRead i: Int, _ h: HotRecord) -> Int32 {
        h.isSubtask ? unprovenParent(of: i) : -1
    }

    /// Every parent record of the list, proven: for a pass over the subtasks.
    func parentRecords() -> UnsafeBufferPointer<ParentRecord> {
        prove(SegmentArea.refs)
        return UnsafeBufferPointer(start: (base + parentsOffset).assumingMemoryBound(to: ParentRecord.self),
                                   count: Int(header.subtaskCount))
    }

    @inline(__always) func unprovenParentRecord(_ k: Int) -> ParentRecord {
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
        if !ref.isNone { prove(SegmentArea.cold) }
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
    func headSum() -> UInt64 { Checksum.of(base, count: hotOffset) }

    /// A name of the head (heading, symbol, colour, section), from the names' text: proven with the
    /// header on loading.
    func headName(_ ref: TextRef) -> String? {
        guard !ref.isNone else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: base + namesOffset + Int(ref.offset), count: Int(ref.length)),
                      as: UTF8.self)
    }

    func sectionRef(_ k: Int) -> TextRef {
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

}

/// The areas of a segment that a proof checks on first use, as bits. `cold` is the cold records,
/// the extra records and the text: they are proven together, so that a proven record's title is
/// too.
enum SegmentArea {
    static let hot: UInt8 = 1, cold: UInt8 = 2, refs: UInt8 = 8, search: UInt8 = 16
    static let all = hot | refs | cold | search
    /// The areas a row is rendered from.
    static let rows = hot | refs | cold
    /// The areas of the tail, which are decompressed before any of them is proven.
    static let tailAreas = cold | search
}

/// What proves a segment that was not built in this run, area by area on first use: the cache's
/// `SegmentProof` (Storage/Cache), a subclass. A segment keeps it unretained.
class SegmentProving: @unchecked Sendable {
    /// The areas not proven yet (`SegmentArea` bits).
    let unproven: UnsafeMutablePointer<UInt8>
    /// The tail's decompressed memory once it is (`Segment.tailBase`).
    let tail: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Set while rows are rendered on several threads (`Library.renderRows`), when nothing may be
    /// proven any more: a test build stops if something is.
    var rendering = false

    init(unproven: UnsafeMutablePointer<UInt8>, tail: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        self.unproven = unproven
        self.tail = tail
    }

    /// Checks the unproven areas among `areas` of `segment`, clearing their bits in `unproven`.
    func prove(_ areas: UInt8, of segment: Segment) {
        preconditionFailure("a segment's proof proves its areas")
    }
}
