#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

private func twinLibrary(_ text: String, retired: [Ref] = []) -> Library {
    Library(documents: [(ListFile(path: "shop.md", absolutePath: "/f/shop.md"), Document(text))], retired: RetiredRefs(retired))
}

@Suite("twins and repeating tasks have refs of their own")
struct TwinRefTests {
    @Test("every twin and every blank title is shown under a ref of its own")
    func distinctRows() {
        let library = twinLibrary("- [ ] Buy milk\n- [ ] Buy milk\n- [x] Buy milk\n- [ ] \n- [ ] \n- [ ] Buy milk !\n")
        let refs = library.ids.map(library.ref)
        #expect(Set(refs).count == refs.count, "\(refs)")
        for id in library.ids { #expect(library.resolve(ref: library.ref(id)) == .found(id)) }
    }

    @Test("a twin whose ref is retired gives it to no other twin: the others keep theirs")
    func retiredTwin() {
        let three = twinLibrary("- [ ] Buy milk\n- [ ] Buy milk\n- [ ] Buy milk\n")
        let refs = three.ids.map(three.fullRef)
        // The first one removed by tick: its ref retired, the file holds two.
        let two = twinLibrary("- [ ] Buy milk\n- [ ] Buy milk\n", retired: [refs[0]])
        #expect(two.ids.map(two.fullRef) == [refs[1], refs[2]])
        // The middle one removed.
        let ends = twinLibrary("- [ ] Buy milk\n- [ ] Buy milk\n", retired: [refs[1]])
        #expect(ends.ids.map(ends.fullRef) == [refs[0], refs[2]])
        // A new twin after a removed one takes none of the retired refs.
        let again = twinLibrary("- [ ] Buy milk\n- [ ] Buy milk\n- [ ] Buy milk\n", retired: [refs[0]])
        #expect(again.ids.map(again.fullRef) == [refs[1], refs[2], refs[0].twin(3)])
    }

    @Test("a REF names only twins when the candidates agree in every field and subtask")
    func twinsAreIdentical() {
        let library = twinLibrary("- [ ] Buy milk\n  - [ ] 2%\n- [ ] Buy milk\n  - [ ] 2%\n- [ ] Buy milk\n"
                                  + "- [x] Buy milk done:2026-03-01\n- [x] Buy milk done:2026-03-02\n")
        let milk = library.ids.filter { library.task($0).title == "Buy milk" }
        #expect(library.areTwins([milk[0], milk[1]]))
        #expect(!library.areTwins([milk[0], milk[2]]), "different subtasks")
        #expect(!library.areTwins([milk[3], milk[4]]), "different completion dates")
        #expect(!library.areTwins([milk[0]]))
    }

    @Test("the open repeating task of a title keeps its title ref beside its completed copies")
    func repeatingKeepsTitle() {
        let alone = twinLibrary("- [ ] Water plants due:2026-03-14 rec:+1w\n")
        let history = twinLibrary("- [ ] Water plants due:2026-03-21 rec:+1w\n- [x] Water plants due:2026-03-14 done:2026-03-14\n"
                                  + "- [x] Water plants due:2026-03-07 done:2026-03-07\n")
        let live = alone.fullRef(alone.ids[0])
        #expect(live == Ref(path: "shop.md", title: "Water plants", occurrence: 0))
        #expect(history.fullRef(history.ids[0]) == live)
        let refs = history.ids.map(history.fullRef)
        #expect(Set(refs).count == 3)
        // Reopening a copy makes the title shared: the live task is no longer named by it.
        let reopened = twinLibrary("- [ ] Water plants due:2026-03-21 rec:+1w\n- [ ] Water plants due:2026-03-14\n")
        #expect(reopened.fullRef(reopened.ids[0]) != live)
    }
}

@Suite("forwarding notes in .tick/retired")
struct RetiredNoteTests {
    @Test("a note reads back as written; a note that is not one is ignored and its ref stays retired")
    func untrustedNotes() {
        let a = Ref(hash: 11), b = Ref(hash: 22), c = Ref(hash: 33)
        let refs = RetiredRefs([a, b, c], notes: [a.hash: RetiredNote(to: b, title: "Buy milk"), b.hash: RetiredNote(to: nil, title: "x\ty")])
        let again = RetiredRefs(text: refs.text)
        #expect(again.refs == [a, b, c])
        #expect(again.notes[a.hash] == RetiredNote(to: b, title: "Buy milk"))
        #expect(again.notes[b.hash] == RetiredNote(to: nil, title: "x y"), "control characters are written as spaces")
        var bad: [UInt8] = []
        for note in ["zzzzzzzzzzzzzz Buy milk", "- " + String(repeating: "é", count: 150), "-", "\(c) a\u{7}b"] {
            bad += Array("\(a) \(note)\n".utf8)
        }
        bad += Array("\(b) \(c) ".utf8) + [0xFF, 0xFE] + [0x0A]
        let read = RetiredRefs(text: bad)
        #expect(read.refs == [a, b])
        #expect(read.notes.isEmpty, "\(read.notes)")
        // A chain of forwards is kept one step long.
        let chained = refs.updated(adding: [c], notes: [b.hash: RetiredNote(to: c, title: "Buy milk")])
        #expect(chained.notes[a.hash]?.to == c)
    }
}

// MARK: - The property with twins

/// tick's own changes over folders full of twins, blank titles and near-twins (retitles, moves, list
/// renames, ids, completions with history): after each change, every ref shown so far names the task it
/// was shown for (forwarded when tick changed its ref) or, for a removed task, is reported gone; a short
/// ref shown long ago may also be ambiguous with its task among the candidates; never another task; and
/// no two tasks are shown under one ref.
/// Which task is which is the test's own model. A repeating task completed with its history keeps its ref.
@Suite("twins' refs never move to another task")
struct TwinRefPropertyTests {
    static let seed: UInt64 = 0x7477_696E
    static let steps = LongRuns.size(sample: 150, whole: 400)

    @Test("every shown ref names its task or is gone, rows never share a ref, a repeating task keeps its ref")
    func property() throws {
        let folder = TemporaryFolder()
        try Disk.makeFolder(folder.path + "/.tick")
        try folder.write("a.md", "# A\n")
        try folder.write("b.md", "# B\n\n## Errands\n")
        try folder.write("r.md", "# R\n\n- [ ] Water plants due:2026-03-14 rec:+1w\n")
        let location = FolderLocation(path: folder.path, source: .option, exists: true)
        let tickFolder = Folder(location: location, fileSystem: LocalFileSystem())
        var random = SeededRandom(seed: Self.seed)
        // Per list, the tasks' identities in document order; identity 0 is the repeating task.
        var lists: [String: [Int]] = ["a.md": [], "b.md": [], "r.md": [0]]
        var next = 1
        var renamed = false
        var titleOf: [Int: String] = [0: "Water plants"]
        var shown: [String: Int] = [:]
        var failures: [String] = []
        var gone = 0, checks = 0, completions = 0
        let titles = ["Buy milk", "Buy milk", "", "Call mum"]
        let day = Day(year: 2026, month: 3, day: 14)!
        let due = DueDate(day: Day(year: 2026, month: 3, day: 20)!, minutes: nil)

        func load() -> Library { tickFolder.load(useCache: false).library }
        func mutator() throws -> TaskFolder { try TaskFolder(tickFolder, create: false, environment: [:]) }
        func where_(_ identity: Int) -> (path: String, index: Int)? {
            for (path, identities) in lists { if let k = identities.firstIndex(of: identity) { return (path, k) } }
            return nil
        }
        func id(of identity: Int, in library: Library) -> TaskID? {
            guard let (path, k) = where_(identity), let l = library.list(at: path) else { return nil }
            return TaskID(list: l, index: k)
        }
        func identity(of id: TaskID, in library: Library) -> Int { lists[library.list(id).file.path]![id.index] }
        let liveRef = load().fullRef(TaskID(list: 2, index: 0))

        for step in 0..<Self.steps {
            let plain = (lists["a.md"] ?? []) + (lists["b.md"] ?? []) + (lists["c.md"] ?? [])
            let roll = plain.count < 6 ? 0 : random.below(100)
            var what = ""
            let m = try mutator()
            let paths = lists.keys.filter { $0 != "r.md" }.sorted()
            if roll < 30 {
                let path = paths[random.below(paths.count)]
                let new = NewTask(title: titles[random.below(titles.count)], due: random.below(5) == 0 ? due : nil,
                                  priority: random.below(6) == 0 ? .high : .none)
                what = "add '\(new.title)' to \(path)"
                _ = try m.add(new, toListAt: path, at: .end)
                lists[path]!.append(next)
                titleOf[next] = new.title
                next += 1
            } else if roll < 88 {
                let chosen = plain[random.below(plain.count)]
                let target = id(of: chosen, in: m.library)!
                let path = where_(chosen)!.path
                switch roll {
                case ..<45:
                    what = "rm #\(chosen)"
                    try m.remove([target])
                    lists[path]!.removeAll { $0 == chosen }
                case ..<53:
                    let destination = paths.first { $0 != path }!
                    what = "mv #\(chosen) to \(destination)"
                    _ = try m.move([target], to: m.library.list(at: destination)!)
                    lists[path]!.removeAll { $0 == chosen }
                    lists[destination]!.append(chosen)
                case ..<68:
                    let done = !m.library.task(target).done
                    what = (done ? "done #" : "reopen #") + "\(chosen)"
                    _ = try m.edit([target], [done ? .complete(on: day) : .reopen])
                case ..<74:
                    what = "due #\(chosen)"
                    _ = try m.edit([target], [.due(m.library.task(target).due == nil ? due : nil)])
                case ..<82:
                    let title = titles[random.below(titles.count)]
                    what = "retitle #\(chosen) '\(title)'"
                    _ = try m.edit([target], [.retitle(title)])
                    titleOf[chosen] = title
                default:
                    what = "id #\(chosen)"
                    if m.library.task(target).id == nil { _ = try m.edit([target], [.giveID("t\(step)")]) }
                }
            } else if roll < 95 {
                what = "done --keep-history the repeating task"
                let live = id(of: 0, in: m.library)!
                _ = try m.edit([live], [.completeKeepingHistory(on: day.adding(days: completions))])
                completions += 1
                // The completed copy goes right after it.
                lists["r.md"]!.insert(next, at: 1)
                titleOf[next] = "Water plants"
                next += 1
            } else {
                let (from, to) = renamed ? ("c.md", "B") : ("b.md", "C")
                what = "list rename \(from) to \(to)"
                let path = try m.change(.rename(list: m.library.list(at: from)!, to: to))
                lists[path] = lists.removeValue(forKey: from)
                renamed.toggle()
            }

            let library = load()
            for (path, identities) in lists {
                let l = try #require(library.list(at: path), "step \(step) (\(what)): no list \(path)")
                let found = (0..<library.lists[l].taskCount).map { library.task(TaskID(list: l, index: $0)).title }
                try #require(found == identities.map { titleOf[$0]! }, "step \(step) (\(what)): the model lost track of \(path)")
            }
            for (text, owner) in shown.sorted(by: { $0.key < $1.key }) {
                checks += 1
                switch library.resolve(ref: text) {
                case .found(let found):
                    if identity(of: found, in: library) != owner {
                        failures.append("step \(step) (\(what)): '\(text)', shown for #\(owner), names #\(identity(of: found, in: library))")
                    }
                case .ambiguous(let candidates, let retired):
                    let among = candidates.contains { identity(of: $0, in: library) == owner }
                    // A short ref shown long ago can start a newer ref too: its task must be among the candidates.
                    if !among && (where_(owner) != nil || !retired) {
                        failures.append("step \(step) (\(what)): '\(text)', shown for #\(owner), is ambiguous")
                    }
                case .gone, .notFound, .lost:
                    if where_(owner) != nil { gone += 1 }
                }
            }
            let rows = library.ids.map { (library.ref($0), identity(of: $0, in: library)) }
            if Set(rows.map(\.0)).count != rows.count {
                failures.append("step \(step) (\(what)): two rows share a ref")
            }
            for (text, owner) in rows {
                if let before = shown[text], before != owner {
                    failures.append("step \(step) (\(what)): '\(text)' shown for #\(before), now for #\(owner)")
                }
                shown[text] = owner
            }
            if library.fullRef(id(of: 0, in: library)!) != liveRef {
                failures.append("step \(step) (\(what)): the repeating task's ref changed")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5).joined(separator: "\n"))")
        // Every change here is tick's own: a ref of a task still there always leads to it.
        #expect(gone == 0, "\(gone) refs of tasks still there were reported gone")
        #expect(completions > 10 && shown.count > 100, "the run made too few completions or showed too few refs")
        #expect(checks > 20 * Self.steps, "too few shown refs were checked")
        print("twin ref property: \(Self.steps) steps, seed \(Self.seed): \(failures.count) failures, "
              + "\(completions) completions kept history, \(shown.count) refs shown, \(gone) refs of live tasks gone")
    }
}
