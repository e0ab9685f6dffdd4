import Testing
import TickFormat
@testable import TickCore

/// A segment's cold records are 12 bytes: a title of up to 65,535 bytes, tags of up to 255, 65,534
/// sections and a depth of 255. A task beyond any of them keeps its values in an extra record, and
/// reads back whole, from a segment built here and from one read from a cache.
@Suite("Segment records")
struct SegmentRecordTests {
    /// Every cold field of every task, as `segment` reads it.
    static func fields(_ segment: Segment) -> [[String]] {
        (0..<segment.taskCount).map { i in
            let c = segment.cold(i)
            return [segment.string(c.title) ?? "", segment.string(c.tags) ?? "", segment.string(c.notes) ?? "",
                    segment.section(c.section) ?? "-", "\(c.depth)", segment.taskID(i) ?? "-",
                    segment.string(c.repeatPhrase) ?? "-", "\(c.recurrence)", "\(c.until)", "\(c.scheduled)", "\(c.start)"]
        }
    }

    /// The same fields, from the parsed document.
    static func expected(_ document: Document) -> [[String]] {
        document.tasks.indices.map { i in
            let t = document.tasks[i]
            func day(_ d: Day?) -> String { "\(d.map { Int32($0.daysSinceEpoch) } ?? .min)" }
            return [t.title, t.tags.map { " #" + $0 }.joined(), document.notes[i], t.section ?? "-",
                    "\(min(t.depth, Int(UInt16.max)))", t.id ?? "-", t.repeatPhrase ?? "-", "\(t.recurrence?.packed ?? 0)",
                    day(t.until), day(t.scheduled), day(t.start)]
        }
    }

    /// How many tasks of `document` need an extra record.
    static func extraCount(_ document: Document) -> Int {
        var sections: [String: Int] = [:]
        return document.tasks.filter { t in
            var section = -1
            if let s = t.section {
                section = sections[s] ?? sections.count
                sections[s] = section
            }
            return t.recurrence != nil || t.until != nil || t.scheduled != nil || t.start != nil || t.repeatPhrase != nil
                || t.title.utf8.count > 65_535 || t.tags.reduce(0) { $0 + 2 + $1.utf8.count } > 255
                || section >= 65_535 || t.depth > 255
        }.count
    }

    /// A title of 70,000 bytes with notes, tags of 420 bytes with notes, 300 nested levels, a task
    /// with a rule, dates and an id, one with a repetition phrase, then 65,537 sections: each task
    /// beyond a cold record for one reason alone.
    static let wide: String = {
        var text = "- [ ] before any section\n"
        text += "- [ ] " + String(repeating: "long ", count: 14_000) + "end\n  its note\n"
        text += "- [ ] tagged " + (0..<60).map { "#tag\($0 < 10 ? "0" : "")\($0)" }.joined(separator: " ") + "\n  tag note\n"
        for level in 0..<300 { text += String(repeating: "  ", count: level) + "- [ ] level \(level)\n" }
        text += "- [ ] water rec:1w due:2026-12-05 until:2027-03-01 id:water-1\n  with rain\n"
        text += "- [ ] plan 🔁 every week ⏳ 2026-12-04 🛫 2026-12-02\n"
        for k in 0..<65_537 { text += "## s\(k)\n- [ ] t\(k)\n" }
        return text
    }()

    @Test("values beyond a cold record's fields read back whole from an extra record, built or cached")
    func wideValues() throws {
        let document = Document(bytes: Array(Self.wide.utf8))
        let expected = Self.expected(document)
        #expect(document.tasks.contains { $0.title.utf8.count >= 70_000 })
        #expect(document.tasks.contains { $0.depth >= 299 })
        #expect(document.tasks.contains { $0.repeatPhrase != nil && $0.scheduled != nil })
        let wide = Self.extraCount(document)
        // The title, the tags, levels 256 to 299, the rule, the phrase, and sections 65,535 and 65,536.
        #expect(wide == 50)

        let built = Segment.build(document, path: "wide.md")
        built.withUnsafeBytes { bytes in
            let segment = Segment(base: bytes.baseAddress!, length: bytes.count)
            #expect(Int(segment.header.extraCount) == wide)
            #expect(Self.fields(segment) == expected)
        }

        // From a cache: every record proven with its area, whether all of them are read or a few.
        let whole = CacheCorruptionTests.forged(Self.wide) { _, _ in }
        defer { whole.memory.deallocate() }
        whole.segment.proveRecordsAndText()
        #expect(Self.fields(whole.segment) == expected)
        #expect(whole.proof.state == .intact)
        let few = CacheCorruptionTests.forged(Self.wide) { _, _ in }
        defer { few.memory.deallocate() }
        for i in [0, 1, 2, 258, 302, 303, 304, 305 + 65_534, 305 + 65_535, 305 + 65_536] {
            let c = few.segment.cold(i)
            #expect(String(decoding: few.segment.title(of: c), as: UTF8.self) == document.tasks[i].title, "task \(i)")
            #expect(few.segment.section(c.section) == document.tasks[i].section, "task \(i)")
            #expect(c.depth == UInt16(document.tasks[i].depth), "task \(i)")
            #expect(Int(c.notes.length) == document.notes[i].utf8.count, "task \(i)")
        }
        #expect(few.proof.unproven.pointee & SegmentArea.cold == 0)
        #expect(few.proof.state == .intact)
    }

    @Test("a cold record marked as having an extra record without one, or the reverse, is refused even when the checksums match")
    func forgedExtraMarks() throws {
        let text = "- [ ] one plumber\n- [ ] two rec:1w due:2026-12-05\n- [ ] three\n  a note\n"
        let stride = MemoryLayout<ColdRecord>.stride, flags = MemoryLayout<ColdRecord>.offset(of: \ColdRecord.flags)!
        for task in [0, 1, 2] {
            func forge(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
                let at = plain.coldOffset + task * stride + flags
                #expect(memory.load(fromByteOffset: at, as: UInt8.self) == (task == 1 ? 1 : 0))
                memory.storeBytes(of: memory.load(fromByteOffset: at, as: UInt8.self) ^ 1, toByteOffset: at, as: UInt8.self)
            }
            // A search's pass proves the whole area and refuses it.
            let pass = CacheCorruptionTests.forged(text, forge)
            defer { pass.memory.deallocate() }
            #expect(pass.segment.searchSpan(0).titleEnd == pass.segment.searchSpan(0).start, "task \(task)")
            #expect(pass.proof.state == .neutralized, "task \(task)")
            // A read of the one task proves its area, and refuses it.
            let one = CacheCorruptionTests.forged(text, forge)
            defer { one.memory.deallocate() }
            #expect(one.segment.string(one.segment.cold(task).title) ?? "" == "", "task \(task)")
            #expect(one.proof.state == .neutralized, "task \(task)")
        }
        // The same segment as built passes.
        let sound = CacheCorruptionTests.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.string(sound.segment.cold(1).title) == "two")
        #expect(sound.segment.cold(1).recurrence != 0)
        #expect(sound.proof.state == .intact)
    }

    @Test("a record whose text starts past the text's end, or before the record before's, is refused even when the checksums match")
    func forgedRunEnd() throws {
        let text = "- [ ] one\n  first note\n- [ ] two\n  second note\n"
        let stride = MemoryLayout<ColdRecord>.stride
        let textField = MemoryLayout<ColdRecord>.offset(of: \ColdRecord.text)!
        // The second task's text starts past the text's end; then the first task's starts after
        // the second's, so that the first task's run would end before it starts.
        let forgeries: [(task: Int, start: (UInt32, UInt32) -> UInt32)] = [
            (1, { _, length in length + 1 }),
            (0, { start, _ in start + 12 }),
        ]
        for (task, start) in forgeries {
            func forge(_ memory: UnsafeMutableRawPointer, _ plain: Segment) {
                let at = plain.coldOffset + task * stride + textField
                let was = memory.load(fromByteOffset: at, as: UInt32.self)
                memory.storeBytes(of: start(was, plain.header.textLength), toByteOffset: at, as: UInt32.self)
            }
            let one = CacheCorruptionTests.forged(text, forge)
            defer { one.memory.deallocate() }
            #expect(one.segment.cold(0).notes.length == 0, "task \(task)")
            #expect(one.proof.state == .neutralized, "task \(task)")
        }
        let sound = CacheCorruptionTests.forged(text) { _, _ in }
        defer { sound.memory.deallocate() }
        #expect(sound.segment.string(sound.segment.cold(0).notes) == "first note")
        #expect(sound.proof.state == .intact)
    }
}
