import Testing
@testable import TickCore
import TickFormat

/// Same-titled tasks named by their order, edited by hand between two of tick's changes (FORMAT.md 5.9):
/// at the second change, a ref that the hand edit moved to another task is retired (reported gone), never
/// left naming the other; a ref whose task was edited in place, or whose twin is alike in everything, stays.
@Suite("same-titled tasks edited by hand")
struct HandEditedTwinTests {
    /// A folder whose list `shop.md` tick writes with `text` (so that its journal holds that write), then
    /// holds `edited` as if changed in an editor, then tick adds a task to it. The full refs before, by
    /// line of `text`, and the library after.
    static func run(_ text: String, edited: String) throws -> (before: [Int: Ref], after: Library) {
        let folder = TemporaryFolder()
        try Disk.makeFolder(folder.path + "/.tick")
        try folder.write("shop.md", "# Shop\n")
        let tick = Folder(location: FolderLocation(path: folder.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        func mutator() throws -> TaskFolder { try TaskFolder(tick, create: false, environment: [:]) }
        // tick writes the list: `text` is added in one change.
        _ = try mutator().add(NewTask(title: "Bread"), toListAt: "shop.md", at: .end)
        try folder.write("shop.md", "# Shop\n\n" + text)
        _ = try mutator().add(NewTask(title: "Eggs"), toListAt: "shop.md", at: .end)
        let written = tick.load(useCache: false).library
        var before: [Int: Ref] = [:]
        for id in written.ids { before[written.task(id).line] = written.fullRef(id) }
        try folder.write("shop.md", edited)
        _ = try mutator().add(NewTask(title: "Butter"), toListAt: "shop.md", at: .end)
        return (before, tick.load(useCache: false).library)
    }

    /// The task `ref` resolves to, as `line: title` with its completion, or how it fails.
    static func named(_ ref: Ref, in library: Library) -> String {
        switch library.resolve(ref: ref.description) {
        case .found(let id): return "\(library.task(id).line) \(library.task(id).done ? "done" : "open") \(library.task(id).title)"
        case .gone, .lost, .notFound: return "gone"
        case .ambiguous: return "ambiguous"
        }
    }

    @Test("two same-titled tasks swapped by hand, one done: both refs are gone, neither names the other")
    func swappedDifferent() throws {
        let text = "- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n"
        let (before, after) = try Self.run(text + "- [ ] Bread\n", edited: "# Shop\n\n- [x] Buy milk done:2026-03-01\n- [ ] Buy milk\n- [ ] Bread\n- [ ] Eggs\n")
        #expect(Self.named(before[3]!, in: after) == "gone")
        #expect(Self.named(before[4]!, in: after) == "gone")
        // A task nobody touched keeps its ref.
        #expect(Self.named(before[5]!, in: after) == "5 open Bread")
    }

    @Test("subtasks alike under two parents of one title, the parents swapped by hand: the subtasks' refs are gone")
    func swappedParents() throws {
        let text = "- [ ] Call mum\n  - [ ] Buy milk\n- [ ] Call mum !\n  - [ ] Buy milk\n"
        let (before, after) = try Self.run(text, edited: "# Shop\n\n- [ ] Call mum !\n  - [ ] Buy milk\n- [ ] Call mum\n  - [ ] Buy milk\n- [ ] Eggs\n")
        #expect(Self.named(before[4]!, in: after) == "gone")
        #expect(Self.named(before[6]!, in: after) == "gone")
        // The parents' refs are made of what tells them apart: they follow them.
        #expect(Self.named(before[3]!, in: after) == "5 open Call mum")
        #expect(Self.named(before[5]!, in: after) == "3 open Call mum")
    }

    @Test("a task deleted by hand between two that differ from it: no ref names the wrong one")
    func deletedBetween() throws {
        let text = "- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n- [ ] Buy milk\n"
        let (before, after) = try Self.run(text, edited: "# Shop\n\n- [ ] Buy milk\n- [ ] Buy milk\n- [ ] Eggs\n")
        #expect(Self.named(before[3]!, in: after) == "3 open Buy milk")
        for line in [4, 5] { #expect(["gone", "4 open Buy milk"].contains(Self.named(before[line]!, in: after)), "line \(line)") }
        #expect(Self.named(before[4]!, in: after) == "gone", "the done task's ref")
    }

    @Test("a same-titled task edited in place keeps its ref, and twins alike in everything keep theirs")
    func inPlace() throws {
        let text = "- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n- [ ] Eggs\n- [ ] Eggs\n"
        // The done one gets another completion date by hand; the two Eggs are swapped (the same bytes).
        let (before, after) = try Self.run(text, edited: "# Shop\n\n- [ ] Buy milk\n- [x] Buy milk done:2026-03-02\n- [ ] Eggs\n- [ ] Eggs\n- [ ] Eggs\n")
        #expect(Self.named(before[3]!, in: after) == "3 open Buy milk")
        #expect(Self.named(before[4]!, in: after) == "4 done Buy milk")
        #expect(Self.named(before[5]!, in: after) == "5 open Eggs")
        #expect(Self.named(before[6]!, in: after) == "6 open Eggs")
    }
}
