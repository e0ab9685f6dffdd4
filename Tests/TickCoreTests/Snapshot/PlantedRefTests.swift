#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// A folder as users have it, without ids, and its hidden copy, where every task carries a planted
/// `id:p…` token: tick makes each change in both, at the same place, and the copy says which task is
/// which, so that the refs of the folder are judged as users see them, never by a model of the test's own.
fileprivate final class PlantedFolders {
    let real = TemporaryFolder(), copy = TemporaryFolder()
    let realFolder: Folder, copyFolder: Folder
    private var planted = 0

    init(_ lists: [String: String]) throws {
        for folder in [real, copy] { try Disk.makeFolder(folder.path + "/.tick") }
        for (path, text) in lists {
            try real.write(path, text)
            try copy.write(path, text)
        }
        realFolder = Folder(location: FolderLocation(path: real.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        copyFolder = Folder(location: FolderLocation(path: copy.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        try plant()
    }

    func load() -> (real: Library, copy: Library) {
        (realFolder.load(useCache: false).library, copyFolder.load(useCache: false).library)
    }

    func mutators() throws -> (real: TaskFolder, copy: TaskFolder) {
        (try TaskFolder(realFolder, create: false, environment: [:]), try TaskFolder(copyFolder, create: false, environment: [:]))
    }

    /// Gives every task of the copy without an id (a new task, a completed copy `--keep-history` left)
    /// a planted id of its own, at the end of its first line.
    func plant() throws {
        let library = copyFolder.load(useCache: false).library
        for list in library.lists.indices {
            let lines = Set(library.ids.filter { $0.list == list && library.task($0).id == nil }.map { library.task($0).line - 1 })
            guard !lines.isEmpty else { continue }
            let path = library.lists[list].file.path
            let bytes = try Disk.bytes(copy.path + "/" + path)
            var text = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            for line in lines.sorted() {
                planted += 1
                while text[line].last == 0x20 { text[line].removeLast() }
                text[line] += Array(" id:p\(planted)".utf8)
            }
            try copy.write(path, String(decoding: Array(text.joined(separator: [0x0A])), as: UTF8.self))
        }
    }

    /// The planted id of each task of `real`, by position, once the two folders are checked to hold the
    /// same lists with the same titles, depths and completion at every position.
    func identities(_ real: Library, _ copy: Library) throws -> [TaskID: String] {
        var identity: [TaskID: String] = [:]
        try #require(real.lists.map(\.file.path) == copy.lists.map(\.file.path), "the copy has other lists")
        for id in real.ids {
            let theirs = copy.task(id), ours = real.task(id)
            try #require(theirs.title == ours.title && theirs.depth == ours.depth && theirs.done == ours.done,
                         "the copy lost track at \(real.lists[id.list].file.path):\(ours.line)")
            identity[id] = try #require(theirs.id, "no planted id at \(copy.lists[id.list].file.path):\(theirs.line)")
        }
        try #require(Set(identity.values).count == identity.count, "a planted id twice")
        try #require(real.ids.count == copy.ids.count)
        return identity
    }
}

/// FORMAT.md 5.9's promise, judged by ids planted in a hidden copy of the folder: after each change tick
/// makes (adds of twins, near-twins and blank titles, completions of repeating tasks with and without
/// history, skips, retitles, moves with subtasks, list renames, `tick id`, removals, due changes), every ref
/// printed before it (its short form as a row shows it, and its full form as `--json` gives it) names the
/// task it was printed for or, once that task is removed, is reported gone with the reason; no ref ever
/// names another task, and no two rows share a ref.
@Suite("refs judged by ids planted in a hidden copy")
struct PlantedRefTests {
    static let seed: UInt64 = 0x706C_616E_7465_64
    static let steps = 100

    /// Twins, near-twins (another due date, section or parent), blank titles, and repeating tasks with and
    /// without a completed copy beside them.
    static let lists = [
        "a.md": """
            # A

            - [ ] Buy milk
            - [ ] Buy milk
            - [ ] Buy milk due:2026-12-04
            - [ ]
            - [ ]
            - [ ] Water plants due:2026-12-01 rec:+1w
            - [ ] Call mum
              - [ ] Buy milk
            - [ ] Call mum !
              - [ ] Buy milk

            ## Errands

            - [ ] Buy milk
            - [ ] Buy milk

            """,
        "b.md": """
            # B

            - [ ] Pay rent due:2026-12-01 rec:+1m
            - [x] Pay rent done:2026-11-01
            - [ ] Buy milk
            - [x] Buy milk done:2026-11-30

            """,
    ]

    /// Every ref text printed so far, with the planted id of the task it was printed for.
    typealias Printed = [String: String]

    /// What breaks the promise in `real`, judged by the planted ids: a printed ref that names another task,
    /// a live task's ref that does not lead to it, a removed task's ref that is not reported gone, a ref
    /// shown for two tasks.
    static func violations(_ real: Library, identity: [TaskID: String], printed: Printed, after what: String)
        -> [(text: String, why: String)] {
        var found: [(text: String, why: String)] = []
        let alive = Set(identity.values)
        for (text, owner) in printed.sorted(by: { $0.key < $1.key }) {
            let full = text.count == Ref.fullLength
            let outcome = real.resolve(ref: text)
            switch outcome {
            case .found(let id):
                if identity[id] != owner { found.append((text, "\(what): '\(text)', printed for \(owner), names \(identity[id]!)")) }
            case .ambiguous(let candidates, let retired):
                // A short ref that a later task's ref starts too is ambiguous with its task among the candidates.
                let among = candidates.contains { identity[$0] == owner }
                if full || (alive.contains(owner) ? !among : !retired) {
                    found.append((text, "\(what): '\(text)', printed for \(owner), is ambiguous among \(candidates.map { identity[$0]! })"))
                }
            case .gone, .notFound, .lost:
                if alive.contains(owner) { found.append((text, "\(what): '\(text)', printed for \(owner), no longer leads to it (\(outcome))")) }
                else if case .lost(_, let reason) = outcome, reason.isEmpty { found.append((text, "\(what): '\(text)' is gone without a reason")) }
                else if case .notFound = outcome { found.append((text, "\(what): '\(text)', printed for removed \(owner), is unknown")) }
            }
        }
        var rows: [String: String] = [:]
        for id in real.ids {
            if let other = rows.updateValue(identity[id]!, forKey: real.ref(id)) {
                found.append((real.ref(id), "\(what): two rows show \(real.ref(id)) (\(other) and \(identity[id]!))"))
            }
        }
        return found
    }

    /// One seeded change, made in both folders at the same place; a description of it, or nil when there
    /// was nothing to do.
    fileprivate static func change(_ pair: PlantedFolders, _ random: inout SeededRandom, minted: inout Int) throws -> String? {
        let day = Day(year: 2026, month: 12, day: 2)!
        let dues: [DueDate?] = [nil, DueDate(day: Day(year: 2026, month: 12, day: 4)!, minutes: nil),
                                DueDate(day: Day(year: 2026, month: 12, day: 9)!, minutes: 540)]
        let titles = ["Buy milk", "Buy milk", "", "Call mum", "Water plants", "Pay rent"]
        let (real, copy) = try pair.mutators()
        let library = real.library
        let roll = library.ids.count < 6 ? 0 : random.below(100)
        let paths = library.lists.map(\.file.path)
        let path = random.pick(paths)
        let l = library.list(at: path)!, cl = copy.library.list(at: path)!
        func both(_ id: TaskID) -> (TaskID, TaskID) { (id, TaskID(list: cl, index: id.index)) }
        if roll < 22 {
            let title = random.pick(titles)
            var task = NewTask(title: title, due: random.pick(dues), priority: Priority(rawValue: random.below(4) == 0 ? 1 : 0)!)
            if title == "Water plants" || title == "Pay rent" {
                task.recurrence = RecurrenceRule(value: "+1w")
                if task.due == nil { task.due = dues[1] }
            }
            let inList = library.ids.filter { $0.list == l }
            var placement = Placement.end, copyPlacement = Placement.end, where_ = "end"
            switch random.below(3) {
            case 0 where inList.contains { library.task($0).section == "Errands" }:
                placement = .section("Errands")
                copyPlacement = placement
                where_ = "Errands"
            case 1 where !inList.isEmpty:
                let parent = random.pick(inList)
                placement = .subtask(of: parent)
                copyPlacement = .subtask(of: both(parent).1)
                where_ = "under line \(library.task(parent).line)"
            default: break
            }
            _ = try real.add(task, toListAt: path, at: placement)
            _ = try copy.add(task, toListAt: path, at: copyPlacement)
            return "add '\(title)' to \(path) (\(where_))"
        }
        let inList = library.ids.filter { $0.list == l }
        guard !inList.isEmpty || roll >= 90 else { return nil }
        if roll < 90 {
            // Completions go to a repeating task half the time.
            let repeating = inList.filter { !library.task($0).done && library.task($0).recurrence != nil }
            let target = roll >= 32 && roll < 48 && !repeating.isEmpty && random.below(2) == 0 ? random.pick(repeating) : random.pick(inList)
            let (r, c) = both(target)
            let task = library.task(target)
            let at = "\(path):\(task.line) '\(task.title)'"
            if roll < 32 {
                _ = try real.remove([r])
                _ = try copy.remove([c])
                return "rm \(at)"
            }
            if roll < 48 {
                let edit: TaskEdit
                if task.done {
                    edit = .reopen
                } else if task.recurrence != nil {
                    edit = [TaskEdit.complete(on: day), .completeKeepingHistory(on: day), .skip(today: day)][random.below(3)]
                } else {
                    edit = .complete(on: day)
                }
                _ = try real.edit([r], [edit])
                _ = try copy.edit([c], [edit])
                return "\(edit) \(at)"
            }
            if roll < 60 {
                let title = random.pick(titles)
                _ = try real.edit([r], [.retitle(title)])
                _ = try copy.edit([c], [.retitle(title)])
                return "retitle \(at) to '\(title)'"
            }
            if roll < 66 {
                // A repeating task keeps a due date: rec:+1w counts from it.
                let due = random.pick(task.recurrence == nil ? dues : Array(dues.dropFirst()))
                _ = try real.edit([r], [.due(due)])
                _ = try copy.edit([c], [.due(due)])
                return "due \(at) \(due.map(String.init(describing:)) ?? "none")"
            }
            if roll < 80 {
                let others = paths.filter { $0 != path }
                guard !others.isEmpty else { return nil }
                let destination = random.pick(others)
                _ = try real.move([r], to: library.list(at: destination)!)
                _ = try copy.move([c], to: copy.library.list(at: destination)!)
                return "mv \(at) (\(library.subtaskCount(of: r)) subtasks) to \(destination)"
            }
            // `tick id`: the copy's task has its planted id already, and keeps it.
            guard task.id == nil else { return nil }
            minted += 1
            _ = try real.edit([r], [.giveID("k\(minted)")])
            return "id \(at)"
        }
        let names = ["Alpha", "Beta", "Gamma", "Delta"].filter { !paths.contains($0.lowercased() + ".md") }
        let name = random.pick(names)
        _ = try real.change(.rename(list: l, to: name))
        _ = try copy.change(.rename(list: cl, to: name))
        return "list rename \(path) to \(name)"
    }

    /// Runs the seeded changes, checking the promise after each; returns the folders, what was printed and
    /// the violations.
    fileprivate static func run(steps: Int) throws -> (pair: PlantedFolders, printed: Printed, violations: [String], kinds: Set<String>) {
        let pair = try PlantedFolders(lists)
        var random = SeededRandom(seed: seed)
        var printed: Printed = [:], broken: [String] = [], kinds = Set<String>()
        var minted = 0
        func record(_ real: Library, _ identity: [TaskID: String]) {
            for id in real.ids {
                printed[real.ref(id)] = identity[id]!
                printed[real.fullRef(id).description] = identity[id]!
            }
        }
        var (real, copy) = pair.load()
        record(real, try pair.identities(real, copy))
        for step in 0..<steps {
            guard let what = try change(pair, &random, minted: &minted) else { continue }
            kinds.insert(String(what.prefix { $0 != " " && $0 != "(" }))
            try pair.plant()
            (real, copy) = pair.load()
            let identity = try pair.identities(real, copy)
            // Each broken ref once: it is judged no more.
            for (text, why) in violations(real, identity: identity, printed: printed, after: "step \(step) (\(what))") {
                printed[text] = nil
                broken.append(why)
            }
            record(real, identity)
        }
        return (pair, printed, broken, kinds)
    }

    @Test("every printed ref names its task or is reported gone, checked by planted ids, after each of tick's changes")
    func plantedIDs() throws {
        let (pair, printed, violations, kinds) = try PlantedRefTests.run(steps: PlantedRefTests.steps)
        let count = violations.count
        #expect(count == 0, "\(count) broken refs, first: \(violations.prefix(5).joined(separator: "\n"))")
        // The run did what it claims: every kind of change, and refs of removed and forwarded tasks.
        for kind in ["add", "rm", "complete", "completeKeepingHistory", "skip", "reopen", "retitle", "due", "mv", "id", "list"] {
            #expect(kinds.contains(kind), "no \(kind) in \(PlantedRefTests.steps) steps: \(kinds.sorted())")
        }
        let (real, copy) = pair.load()
        let identity = try pair.identities(real, copy)
        let alive = Set(identity.values)
        #expect(printed.values.filter { !alive.contains($0) }.count > 10, "too few removed tasks to judge")
        let forwarded = real.retired.notes.values.filter { $0.to != nil }.count
        #expect(forwarded > 20, "too few forwarded refs to judge")
        print("planted ids: \(PlantedRefTests.steps) steps, seed \(PlantedRefTests.seed): \(printed.count) printed refs judged, "
              + "\(printed.values.filter { !alive.contains($0) }.count) of removed tasks, \(forwarded) forwarding notes, \(count) broken")
    }

    @Test("the planted-id check catches a forward to another task")
    func catchesWrongForward() throws {
        let (pair, printed, violations, _) = try PlantedRefTests.run(steps: 40)
        try #require(violations.count == 0, "\(violations.first ?? "")")
        var (real, copy) = pair.load()
        var identity = try pair.identities(real, copy)
        // A note that forwards a ref to a task other than the one it named: every other task's full ref.
        let forwarded = try #require(real.retired.notes.first { note in
            note.value.to.map { to in real.ids.contains { real.fullRef($0) == to } } ?? false
        })
        let other = try #require(real.ids.first { real.fullRef($0) != forwarded.value.to })
        let text = try Disk.bytes(pair.real.path + "/.tick/retired")
        let line = Ref(hash: forwarded.key).description
        var lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let k = try #require(lines.firstIndex { $0.hasPrefix(line + " ") })
        lines[k] = "\(line) \(real.fullRef(other)) \(real.task(other).title)"
        try pair.real.write(".tick/retired", lines.joined(separator: "\n"))
        (real, copy) = pair.load()
        identity = try pair.identities(real, copy)
        let caught = PlantedRefTests.violations(real, identity: identity, printed: printed, after: "a wrong note")
        let named = caught.filter { $0.text == line && $0.why.hasSuffix(", names \(identity[other]!)") }
        #expect(named.count == 1, "\(caught.map(\.why))")
    }
}
