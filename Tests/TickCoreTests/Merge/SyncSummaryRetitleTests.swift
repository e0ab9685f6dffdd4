import Testing
@testable import TickCore
import TickFormat

/// `tick sync`'s commit message counts a retitled task as edited, not as one added and one
/// removed (issue 49 item 13).
@Suite("Sync summary: a retitle is an edit")
struct SyncSummaryRetitleTests {
    /// (before, after, the message).
    static let cases: [(String, String, String)] = [
        ("# Inbox\n- [ ] Milk\n", "# Inbox\n- [ ] Oat milk\n", "tick sync: Inbox: 1 edited"),
        ("# Inbox\n- [ ] A\n- [ ] Milk\n- [ ] B\n", "# Inbox\n- [ ] New\n- [ ] A\n- [ ] Oat milk\n- [ ] B\n",
         "tick sync: Inbox: 1 added, 1 edited"),
        ("# Inbox\n- [ ] A\n- [ ] Milk id:m\n", "# Inbox\n- [ ] Oat milk id:m\n- [ ] A\n", "tick sync: Inbox: 1 edited"),
        ("# Inbox\n- [ ] Milk\n", "# Inbox\n- [x] Oat milk done:2026-03-14\n", "tick sync: Inbox: 1 completed"),
        ("# Inbox\n- [ ] A\n- [ ] Milk\n", "# Inbox\n- [ ] A\n", "tick sync: Inbox: 1 removed"),
        ("# Inbox\n- [ ] Milk\n", "# Inbox\n- [ ] Milk\n- [ ] Bread\n", "tick sync: Inbox: 1 added"),
    ]

    @Test("a retitled task is matched by its id or its place and counted as edited", arguments: cases.indices)
    func retitle(_ k: Int) {
        let (before, after, message) = Self.cases[k]
        let change = SyncSummary.Change(path: "inbox.md", before: Array(before.utf8), after: Array(after.utf8))
        #expect(SyncSummary.message([change]) == message)
    }
}
