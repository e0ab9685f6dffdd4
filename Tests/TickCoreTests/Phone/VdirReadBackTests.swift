import Testing
@testable import TickCore
import TickFormat

/// The read-back of `DTSTART` and `RELATED-TO` in `tick vdir sync`: the start-date edit, the fields a
/// VTODO gives, and the merge's decisions (VdirSyncMerge.swift).
@Suite("vdir sync: start dates and parents read back")
struct VdirReadBackTests {
    static let day = Day(year: 2026, month: 12, day: 1)!

    func folder(_ files: [String: String]) throws -> (TemporaryFolder, TaskFolder) {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        for (name, text) in files { try dir.write(name, text) }
        let folder = Folder(location: FolderLocation(path: dir.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        return (dir, try TaskFolder(folder, create: false, environment: ["TICK_NO_CACHE": "1"]))
    }

    @Test("the start edit changes only the date of a 🛫 or [start:: …] field, removes one with its separator, and adds a 🛫 to a task without one")
    func startEdit() throws {
        let text = "- [ ] A  🛫 2026-12-03 #x\n- [ ] B  [start:: 2026-12-03]  [due:: 2026-12-09]\n- [ ] C 🛫 2026-12-03 📅 2026-12-09\n"
            + "- [ ] D due:2026-12-09\n"
        let (dir, tasks) = try folder(["a.md": text])
        let d5 = Day(year: 2026, month: 12, day: 5)!
        _ = try tasks.edit([(TaskID(list: 0, index: 0), [.start(d5)]), (TaskID(list: 0, index: 1), [.start(d5)]),
                            (TaskID(list: 0, index: 2), [.start(nil)]), (TaskID(list: 0, index: 3), [.start(d5)])], summary: "test")
        #expect(dir.read("a.md") == "- [ ] A  🛫 2026-12-05 #x\n- [ ] B  [start:: 2026-12-05]  [due:: 2026-12-09]\n- [ ] C 📅 2026-12-09\n"
                + "- [ ] D due:2026-12-09 🛫 2026-12-05\n")
        #expect(tasks.library.task(TaskID(list: 0, index: 0)).start == d5)
        #expect(TaskEdit.start(d5).leavesAsIs(tasks.library.task(TaskID(list: 0, index: 0)), notes: ""))
        #expect(!TaskEdit.start(nil).leavesAsIs(tasks.library.task(TaskID(list: 0, index: 0)), notes: ""))
    }

    static func object(_ lines: [String]) throws -> VdirObject {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:a", "SUMMARY:A"] + lines
                    + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        return try VdirObject(Array(text.utf8))
    }

    @Test("DTSTART reads as its day; after STATUS it is a kept one; RELATED-TO is the parent when its RELTYPE is PARENT or none")
    func fields() throws {
        let own = try Self.object(["DTSTART;VALUE=DATE:20261203", "DUE;VALUE=DATE:20261209", "STATUS:NEEDS-ACTION",
                                   "RELATED-TO;RELTYPE=PARENT:p1"]).fields
        #expect(own.start == Day(year: 2026, month: 12, day: 3))
        #expect(!own.startKept)
        #expect(own.parent == "p1")
        let kept = try Self.object(["STATUS:NEEDS-ACTION", "RELATED-TO;RELTYPE=CHILD:c1", "DTSTART:20261204T090000",
                                    "RELATED-TO:p2"]).fields
        #expect(kept.start == Day(year: 2026, month: 12, day: 4))
        #expect(kept.startKept)
        #expect(kept.parent == "p2")
        let none = try Self.object(["STATUS:NEEDS-ACTION", "RELATED-TO;RELTYPE=SIBLING:s"]).fields
        #expect(none.start == nil && none.parent == nil)
        #expect(!none.same(.start, as: own))
    }

    @Test("the start field is merged for a task with a start date, not for a repeating one, nor for one without (the phone's), unless tick removed it")
    func mergesStart() throws {
        let (_, tasks) = try folder(["a.md": "- [ ] A 🛫 2026-12-03\n- [ ] B\n- [ ] C rec:1w due:2026-12-09 🛫 2026-12-03\n"
                                           + "- [ ] D due:2026-12-02 🛫 2026-12-03\n"])
        let library = tasks.library
        let a = library.task(TaskID(list: 0, index: 0)), b = library.task(TaskID(list: 0, index: 1))
        let c = library.task(TaskID(list: 0, index: 2))
        var tickBase = SyncFields()
        tickBase.start = Day(year: 2026, month: 12, day: 3)
        var phoneBase = tickBase
        phoneBase.startKept = true
        #expect(VdirSync.mergesStart(a, tick: SyncFields(), base: nil))
        #expect(!VdirSync.mergesStart(b, tick: SyncFields(), base: nil))
        #expect(!VdirSync.mergesStart(b, tick: SyncFields(), base: phoneBase))
        #expect(VdirSync.mergesStart(b, tick: SyncFields(), base: tickBase))
        var repeating = SyncFields()
        repeating.rule = "rec:1w"
        #expect(!VdirSync.mergesStart(c, tick: repeating, base: tickBase))

        // The tick side of B, whose base holds the phone's DTSTART: that start, so no change of tick's.
        let fields = VdirSync.fields(of: TaskID(list: 0, index: 1), in: library, base: phoneBase)
        #expect(fields.start == phoneBase.start)
        #expect(VdirSync.fields(of: TaskID(list: 0, index: 1), in: library, base: tickBase).start == nil)
        // A repeating task's DTSTART is its due day; a start after the due date is not exported.
        #expect(VdirSync.fields(of: TaskID(list: 0, index: 2), in: library).start == Day(year: 2026, month: 12, day: 9))
        #expect(VdirSync.fields(of: TaskID(list: 0, index: 3), in: library).start == nil)
    }

    @Test("the phone's DTSTART is kept in the object of a task without a start date, not where tick removed its own")
    func keepsPhoneStart() throws {
        let (_, tasks) = try folder(["a.md": "- [ ] A 🛫 2026-12-03\n- [ ] B\n"])
        let a = tasks.library.task(TaskID(list: 0, index: 0)), b = tasks.library.task(TaskID(list: 0, index: 1))
        let phone = try Self.object(["STATUS:NEEDS-ACTION", "DTSTART;VALUE=DATE:20261204", "X-APPLE-SORT-ORDER:1"])
        let tickBase = ICalendar.single({ var t = CalendarTodo(uid: "a", stamp: 0, summary: "B"); t.start = Self.day; return t }())
        #expect(VdirSync.keepsPhoneStart(b, phone: phone, base: nil))
        #expect(!VdirSync.keepsPhoneStart(a, phone: phone, base: nil))
        #expect(!VdirSync.keepsPhoneStart(b, phone: phone, base: tickBase))
        #expect(VdirSync.keepsPhoneStart(b, phone: phone, base: Array(phone.calendar.raw)))
        let rendered = String(decoding: VdirObject.render(CalendarTodo(uid: "a", stamp: 0, summary: "B"), keeping: phone, keepingStart: true),
                              as: UTF8.self)
        #expect(rendered.contains("STATUS:NEEDS-ACTION\r\nDTSTART;VALUE=DATE:20261204\r\nX-APPLE-SORT-ORDER:1\r\n"))
        let dropped = String(decoding: VdirObject.render(CalendarTodo(uid: "a", stamp: 0, summary: "B"), keeping: phone), as: UTF8.self)
        #expect(!dropped.contains("DTSTART"))
    }
}
