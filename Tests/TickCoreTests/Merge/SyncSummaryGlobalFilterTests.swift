import Testing
@testable import TickCore
import TickFormat

/// `tick sync`'s commit message counts tasks as the folder reads them: with the global filter
/// (FORMAT.md 11), a checkbox line without it is no task to count.
@Suite("Sync summary: the global filter")
struct SyncSummaryGlobalFilterTests {
    static let change = SyncSummary.Change(path: "vault.md", before: Array("# Vault\n- [ ] Pay #task\n- [ ] Milk\n".utf8),
                                           after: Array("# Vault\n- [x] Pay #task\n- [x] Milk\n- [ ] Bread\n".utf8))

    @Test("with the filter only the lines holding it are counted; without it every box is")
    func countsOnlyTasks() {
        #expect(SyncSummary.message([Self.change], globalFilter: GlobalFilter("#task")) == "tick sync: Vault: 1 completed")
        #expect(SyncSummary.message([Self.change]) == "tick sync: Vault: 1 added, 2 completed")
    }
}
