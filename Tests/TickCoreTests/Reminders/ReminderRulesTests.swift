import Testing
@testable import TickCore
import TickFormat

@Suite("reminder rules and state")
struct ReminderRulesTests {
    static func library(_ text: String) -> Library {
        Library(documents: [(file: ListFile(path: "home.md", absolutePath: "/t/home.md"), document: Document(bytes: Array(text.utf8)))])
    }

    static func now(_ text: String) -> Now { try! Now(parsing: text) }

    @Test("due, upcoming within the window, missed after ten minutes; recorded moments are not reported again")
    func kinds() {
        let library = Self.library("- [ ] A due:2026-03-14T08:00\n- [ ] B due:2026-03-14T09:25\n- [ ] C due:2026-03-14T09:40\n"
                                   + "- [ ] D due:2026-03-14\n- [ ] E due:2026-03-14T11:00\n- [x] F due:2026-03-14T08:00\n")
        let run = library.reminders(now: Self.now("2026-03-14T09:30"), within: 15, time: 9 * 60, state: ReminderState())
        #expect(run.reminders.map { library.task($0.task).title } == ["A", "D", "B", "C"])
        #expect(run.reminders.map(\.kind) == [.missed, .missed, .due, .upcoming])
        #expect(run.reminders.map(\.minutesAway) == [-90, -30, -5, 10])
        #expect(!run.digest)
        #expect(run.state.reported.count == 4)
        let next = library.reminders(now: Self.now("2026-03-14T09:45"), within: 0, time: 9 * 60, state: run.state)
        #expect(next.reminders.isEmpty)
        #expect(next.lastRun == Self.now("2026-03-14T09:30").dueDate)
    }

    @Test("the state file reads back what it wrote, and any doubt is an empty state")
    func stateText() {
        let state = ReminderState(lastRun: DueDate(iso: "2026-03-14T09:30"),
                                  reported: [.init(key: "id:abc", moment: DueDate(iso: "2026-03-14T08:00")!),
                                             .init(key: "ref:" + String(repeating: "b", count: 14), moment: DueDate(iso: "2026-03-15T09:00")!)])
        let bytes = state.encode(folder: "/t")
        #expect(ReminderState.decode(bytes, folder: "/t") == state)
        #expect(ReminderState.decode(bytes, folder: "/other") == nil)
        let text = String(decoding: bytes, as: UTF8.self)
        for bad in [text.replacingOccurrences(of: "id:abc", with: "id:a/b"), text.replacingOccurrences(of: "T08:00", with: ""),
                    text + "r id:x 2026-03-14T08:00 extra\n", String(text.dropLast()), text.replacingOccurrences(of: "tick remind state 1", with: "tick remind state 2"),
                    text + "r ref:short 2026-03-14T08:00\n"] {
            #expect(ReminderState.decode(Array(bad.utf8), folder: "/t") == nil, "\(bad)")
        }
        #expect(ReminderState.decode(Array(text.utf8) + [0xFF, 0x0A], folder: "/t") == nil)
    }
}
