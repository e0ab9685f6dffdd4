import Dispatch
import Synchronization
import TickFormat

extension Segment {
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
        sized.problemCount = UInt32(clamping: document.readingProblemCount)
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
