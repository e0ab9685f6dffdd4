import Dispatch
import Synchronization
import TickFormat

extension Segment {
    /// The cache's proof of a segment read from it (nil for one built in this run).
    var cacheProof: SegmentProof? { proof as? SegmentProof }

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
              UInt64(h.problemCount) <= h.contentLength,
              (0..<Int(h.sectionCount)).allSatisfy({ fits(plain.sectionRef($0)) }), plain.headSum() == sums.head
        else { return nil }
        self.init(proven: base, length: built, storedLength: storedLength, header: h, proof: proof)
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
        guard let proof = cacheProof else { return sums() }
        prove(SegmentArea.all)
        return proof.state == .intact ? proof.sums : proof.state == .rebuilt ? sums() : nil
    }

    /// Whether `area` holds what its checksum says (the areas of the tail were proven by the tail's
    /// own, `SegmentTail`), and every index and length in it is in bounds.
    func check(_ area: UInt8, against sums: SegmentSums) -> Bool {
        switch area {
        case SegmentArea.hot:
            return Checksum.of(base + hotOffset, count: refsOffset - hotOffset) == sums.hot
        case SegmentArea.refs:
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
        case SegmentArea.cold:
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
        case SegmentArea.search:
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
    func neutralize(head memory: UnsafeMutableRawPointer, tail: UnsafeMutableRawPointer) {
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
}
