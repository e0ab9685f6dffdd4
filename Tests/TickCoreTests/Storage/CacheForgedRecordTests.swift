#if canImport(Glibc)
import Glibc
#endif
import Testing
import TickFormat
@testable import TickCore

/// Caches written to deceive rather than damaged by chance: records forged with checksums that match
/// them are refused where their structure is impossible, and never change an answer.
extension CacheCorruptionTests {
    /// A segment built from `text`, with `forge` applied to its bytes and checksums that match the
    /// forged bytes: a cache written to deceive, not damaged by chance. It is stored as the cache
    /// stores it (its tail compressed); `memory` holds it.
    static func forged(_ text: String, _ forge: (UnsafeMutableRawPointer, Segment) -> Void)
        -> (segment: Segment, proof: SegmentProof, memory: UnsafeMutableRawPointer) {
        let bytes = Segment.build(Document(bytes: Array(text.utf8)), path: "forged.md")
        let built = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { built.deallocate() }
        bytes.withUnsafeBytes { built.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        forge(built, Segment(base: built, length: bytes.count))
        let plain = Segment(base: built, length: bytes.count)
        let stored = Array(UnsafeRawBufferPointer(start: built, count: plain.coldOffset))
            + SegmentTail.Compressor().compress(plain.tailBytes, records: plain.taskCount)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stored.count, alignment: 8)
        stored.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        let proof = SegmentProof(sums: plain.sums(), context: CacheContext(rebuild: { _ in nil }, damaged: {}),
                                 tailLimit: ListCache.tailLimit(fileSize: UInt64(text.utf8.count)))
        let segment = Segment(cached: memory, storedLength: stored.count, proof: proof)!
        return (segment, proof, memory)
    }

    @Test("a segment whose tail would pass the bound from its list file's size is refused on loading, before anything is allocated")
    func tailBound() throws {
        let text = "- [ ] one\n  a note\n- [ ] two\n"
        let bytes = Segment.build(Document(bytes: Array(text.utf8)), path: "bound.md")
        try bytes.withUnsafeBytes { raw in
            let plain = Segment(base: raw.baseAddress!, length: raw.count)
            let stored = Array(UnsafeRawBufferPointer(rebasing: raw[0..<plain.coldOffset]))
                + SegmentTail.Compressor().compress(plain.tailBytes, records: plain.taskCount)
            let tail = plain.length - plain.coldOffset
            let context = CacheContext(rebuild: { _ in nil }, damaged: {})
            try stored.withUnsafeBytes { storedRaw in
                // A segment does not retain its proof: each proof is kept here while its segment is read.
                func segment(limit: Int) -> (Segment?, SegmentProof) {
                    let proof = SegmentProof(sums: plain.sums(), context: context, tailLimit: limit)
                    return (Segment(cached: storedRaw.baseAddress!, storedLength: storedRaw.count, proof: proof), proof)
                }
                #expect(segment(limit: tail - 1).0 == nil)
                let (found, proof) = segment(limit: tail)
                let sound = try #require(found)
                withExtendedLifetime(proof) { #expect(sound.string(sound.cold(0).notes) == "a note") }
            }
            // A header that says its text is 4 GiB long is refused for a list of a few bytes.
            var huge = stored
            let textLength = MemoryLayout<SegmentHeader>.offset(of: \SegmentHeader.textLength)!
            huge.withUnsafeMutableBytes { $0.storeBytes(of: UInt32.max, toByteOffset: textLength, as: UInt32.self) }
            // Its head's checksum holds, so that the bound alone refuses it: without one, it loads.
            let (refused, unbounded) = huge.withUnsafeBytes { hugeRaw in
                var sums = plain.sums()
                sums.head = Checksum.of(hugeRaw.baseAddress!, count: plain.hotOffset)
                func segment(limit: Int) -> Segment? {
                    Segment(cached: hugeRaw.baseAddress!, storedLength: hugeRaw.count,
                            proof: SegmentProof(sums: sums, context: context, tailLimit: limit))
                }
                return (segment(limit: ListCache.tailLimit(fileSize: UInt64(text.utf8.count))), segment(limit: .max))
            }
            #expect(refused == nil)
            #expect(unbounded != nil)
        }
    }

    @Test("a parent record out of bounds, or of a task not marked a subtask, is refused even when its checksums match")
    func forgedParent() throws {
        let text = "- [ ] one\n  - [ ] two\n- [ ] three\n"
        // The second task's parent record: its parent past the list's end, then after the task,
        // then the record moved to the third task (not marked a subtask).
        let parent = MemoryLayout<ParentRecord>.offset(of: \ParentRecord.parent)!
        let task = MemoryLayout<ParentRecord>.offset(of: \ParentRecord.task)!
        let forgeries: [(offset: Int, value: UInt32)] = [(parent, 1_000_000), (parent, 2), (parent, 0xFFFF_FFFE), (task, 2)]
        for (offset, value) in forgeries {
            func forge(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
                #expect(plain.header.subtaskCount == 1)
                #expect(memory.load(fromByteOffset: plain.parentsOffset + task, as: UInt32.self) == 1)
                #expect(memory.load(fromByteOffset: plain.parentsOffset + parent, as: UInt32.self) == 0)
                memory.storeBytes(of: value, toByteOffset: plain.parentsOffset + offset, as: UInt32.self)
            }
            // A pass over every task's parent proves the area, finds the record unsound, and shows
            // nothing of the list (it cannot be parsed again here).
            let pass = Self.forged(text, forge)
            defer { pass.memory.deallocate() }
            #expect(pass.segment.parent(1) == -1, "\(offset) \(value)")
            #expect(pass.proof.state == .neutralized, "\(offset) \(value)")
            // A read of one task checks its parent with its cold record, and refuses it too.
            let one = Self.forged(text, forge)
            defer { one.memory.deallocate() }
            #expect(one.segment.record(1).parent == -1, "\(offset) \(value)")
            #expect(one.proof.state == .neutralized, "\(offset) \(value)")
        }
        let sound = Self.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.record(1).parent == 0)
        #expect(sound.segment.parent(1) == 0)
        #expect(sound.proof.state == .intact)
    }

    @Test("a header whose open count is not its hot records' gives all's rows all the same")
    func forgedOpenCount() throws {
        let text = "- [ ] one\n  - [ ] two\n- [x] three\n- [ ] four\n"
        // The rows of `all` are written to places the headers' counts give: a header that counts
        // wrong sends the view the general way, from the hot records alone.
        func forge(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
            var header = plain.header
            #expect(header.openCount == 3)
            header.openCount = 1
            memory.storeBytes(of: header, as: SegmentHeader.self)
        }
        for forgery in [forge, { _, _ in }] as [(UnsafeMutableRawPointer, Segment) -> Void] {
            let forged = Self.forged(text, forgery)
            defer { forged.memory.deallocate() }
            let library = Library.assemble(files: [ListFile(path: "forged.md", absolutePath: "/f/forged.md")],
                                           segments: [forged.segment], storage: SegmentStorage(), retired: RetiredRefs())
            let rows = library.tasksWithLevels(in: ViewQuery(view: .all), now: Self.now)
            #expect(rows.ids.map(\.index) == [0, 1, 3])
            #expect(rows.levels == [0, 1, 0])
            #expect(library.tasks(in: ViewQuery(view: .all, includeCompleted: true), now: Self.now).map(\.index) == [0, 1, 3, 2])
        }
    }

    @Test("cold records out of task order are refused even when their checksums match")
    func forgedColdOrder() throws {
        let text = "- [ ] one plumber\n- [ ] two\n- [ ] three plumber\n  a note\n"
        let stride = MemoryLayout<ColdRecord>.stride
        // The first and last tasks' cold records change places: each range is in bounds, but a
        // search's pass over the text would find the tasks out of order.
        func forge(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
            let first = memory.load(fromByteOffset: plain.coldOffset, as: ColdRecord.self)
            let last = memory.load(fromByteOffset: plain.coldOffset + 2 * stride, as: ColdRecord.self)
            #expect(first.text < last.text)
            memory.storeBytes(of: last, toByteOffset: plain.coldOffset, as: ColdRecord.self)
            memory.storeBytes(of: first, toByteOffset: plain.coldOffset + 2 * stride, as: ColdRecord.self)
        }
        let forged = Self.forged(text, forge)
        defer { forged.memory.deallocate() }
        #expect(forged.segment.searchSpan(0).titleEnd == forged.segment.searchSpan(0).start)
        #expect(forged.proof.state == .neutralized)
        // The same segment as built passes.
        let sound = Self.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.searchSpan(0).titleEnd > sound.segment.searchSpan(0).start)
        #expect(sound.proof.state == .intact)
    }

    @Test("folded records out of task order, or not dividing the folded text, are refused even when their checksums match")
    func forgedFoldedRecords() throws {
        let text = "- [ ] Überweisung\n- [ ] two\n- [ ] Café plumber\n  a nöte\n"
        let stride = MemoryLayout<FoldedRecord>.stride
        // The two folded records change places, or one claims a byte more: every range is in
        // bounds, but a pass over the folded text would find the wrong tasks.
        func swap(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
            #expect(plain.foldedCount == 2)
            let first = memory.load(fromByteOffset: plain.foldedRecordsOffset, as: FoldedRecord.self)
            let last = memory.load(fromByteOffset: plain.foldedRecordsOffset + stride, as: FoldedRecord.self)
            memory.storeBytes(of: last, toByteOffset: plain.foldedRecordsOffset, as: FoldedRecord.self)
            memory.storeBytes(of: first, toByteOffset: plain.foldedRecordsOffset + stride, as: FoldedRecord.self)
        }
        func lengthen(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
            var first = memory.load(fromByteOffset: plain.foldedRecordsOffset, as: FoldedRecord.self)
            first.titleLength += 1
            memory.storeBytes(of: first, toByteOffset: plain.foldedRecordsOffset, as: FoldedRecord.self)
        }
        for forge in [swap, lengthen] {
            let forged = Self.forged(text, forge)
            defer { forged.memory.deallocate() }
            #expect(forged.segment.foldedRecord(0).task == .max)
            #expect(forged.proof.state == .neutralized)
        }
        let sound = Self.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.foldedRecord(0).task == 0)
        #expect(sound.segment.foldedRecord(1).task == 2)
        #expect(String(decoding: sound.segment.foldedText(), as: UTF8.self) == "uberweisungcafe plumbera note")
        #expect(sound.proof.state == .intact)
    }

    @Test("a hot record marked folded without a folded record, or a folded record of an unmarked task, is refused even when the checksums match")
    func forgedFoldedMarks() throws {
        let text = "- [ ] Überweisung\n- [ ] two\n- [ ] Café plumber\n  a nöte\n"
        let flags = MemoryLayout<HotRecord>.offset(of: \HotRecord.flags)!
        // Task `i`'s folded mark set or cleared, everything else as built.
        func mark(_ i: Int, _ folded: Bool) -> (UnsafeMutableRawPointer, Segment) -> Void {
            { memory, plain in
                let at = plain.hotOffset + i * MemoryLayout<HotRecord>.stride + flags
                let old = memory.load(fromByteOffset: at, as: UInt8.self)
                #expect((old & 128 != 0) != folded, "task \(i) was already so")
                memory.storeBytes(of: folded ? old | 128 : old & ~128, toByteOffset: at, as: UInt8.self)
            }
        }
        // "two" marked folded: a search would look for its folded record and not find it. "Café
        // plumber" unmarked: a search would read its text, and its folded record would go unread.
        for (name, forge) in [("ASCII task marked", mark(1, true)), ("folded task unmarked", mark(2, false))] {
            let forged = Self.forged(text, forge)
            defer { forged.memory.deallocate() }
            #expect(forged.segment.foldedRecord(0).task == .max, "\(name)")
            #expect(forged.proof.state == .neutralized, "\(name)")
        }
        let sound = Self.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.foldedRecord(1).task == 2)
        #expect(sound.proof.state == .intact)
    }
}
