import Foundation
import Testing
@testable import TickCore
import TickFormat

/// The ref check held in over the generated nasty corpus (`NastyDocument`): for random open tasks, twins
/// and blank titles included, the ref a row shows names that task alone, completing it by that ref changes
/// its own line and its open subtasks' lines and nothing before or after its block, and `undo` gives
/// back the bytes.
@Suite("done by ref over the nasty corpus")
struct RefDoneCorpusTests {
    static let seed: UInt64 = 0x6E61_7374
    static let tasks = 60

    @Test("60 random open tasks: done by their shown ref changes their block alone, undo restores the bytes")
    func doneByRef() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tick-refcorpus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/.tick", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = Folder(location: FolderLocation(path: root, source: .option, exists: true), fileSystem: LocalFileSystem())
        var rng = SeededGenerator(seed: Self.seed)
        var checked = 0, twins = 0, blank = 0, lineChecked = 0, subtasksChecked = 0
        var failures: [String] = [], refused: [String] = []
        while checked < Self.tasks {
            let bytes = NastyDocument.generate(&rng)
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/n.md"))
            let library = folder.load(useCache: false).library
            let open = library.ids.filter { !library.task($0).done }
            guard !open.isEmpty else { continue }
            let id = open[Int(rng.next() % UInt64(open.count))]
            let title = library.task(id).title
            if title.trimmingCharacters(in: .whitespaces).isEmpty { blank += 1 }
            if library.ids.filter({ $0 != id }).contains(where: { library.areTwins([id, $0]) }) { twins += 1 }
            let refs = library.ids.map(library.ref)
            if Set(refs).count != refs.count { failures.append("case \(checked): two rows share a ref") }
            let ref = library.ref(id)
            guard library.resolve(ref: ref) == .found(id) else {
                failures.append("case \(checked): '\(ref)' does not name its task: \(library.resolve(ref: ref))")
                checked += 1
                continue
            }
            let line = library.task(id).line
            let lines = Array(bytes.split(separator: 0x0A, omittingEmptySubsequences: false))
            // The block ends where the next task after its subtasks starts (or at the end of the file).
            let after = library.ids.first { $0.index > id.index + library.descendants(of: id).count }
            let end = after.map { library.task($0).line - 1 } ?? lines.count
            let m = try TaskFolder(folder, create: false, environment: [:])
            do {
                _ = try m.edit([id], [.complete(on: Day(year: 2026, month: 3, day: 14)!)])
            } catch {
                // A completion tick refuses for the task's own content (a malformed rule, an edit that would
                // change the list's structure) is not about refs: it must leave the file as it was.
                refused.append("case \(checked): \(error)")
                let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/n.md")))
                if after != bytes { failures.append("case \(checked): a refused done changed the file") }
                checked += 1
                continue
            }
            let done = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/n.md")))
            let changed = Array(done.split(separator: 0x0A, omittingEmptySubsequences: false))
            // Lines as the parser counts them end in LF, CR LF or CR: the check reads LF-ended lines, so a
            // file with a bare CR is checked as a whole (changed at all) rather than line by line.
            if line - 1 < lines.count, end <= lines.count, end >= line, !bytes.contains(0x0D) {
                if changed.count != lines.count || changed[..<(line - 1)] != lines[..<(line - 1)]
                    || changed[end...] != lines[end...] || changed[line - 1] == lines[line - 1] {
                    failures.append("case \(checked): done '\(ref)' \"\(title)\" changed more than its block, or not its line")
                }
                // Its open subtasks are completed with it (FORMAT.md 8.2), unless it repeats and moves on (5.10).
                if library.task(id).recurrence == nil, changed.count == lines.count {
                    for sub in library.descendants(of: id) where !library.task(sub).done {
                        let k = library.task(sub).line - 1
                        if k < lines.count, changed[k] == lines[k] {
                            failures.append("case \(checked): done '\(ref)' \"\(title)\" left its open subtask on line \(k + 1) as it was")
                        }
                        subtasksChecked += 1
                    }
                }
                lineChecked += 1
            } else if done == bytes {
                failures.append("case \(checked): done '\(ref)' \"\(title)\" changed nothing")
            }
            _ = try m.undo(force: false)
            let back = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/n.md")))
            if back != bytes { failures.append("case \(checked): undo did not restore the bytes") }
            checked += 1
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5).joined(separator: "\n"))")
        #expect(blank > 0 || twins > 0, "the corpus gave neither twins nor blank titles")
        #expect(refused.count <= Self.tasks / 10, "\(refused.count) refused: \(refused.joined(separator: "\n"))")
        #expect(subtasksChecked > 0, "no open subtask was checked")
        #expect(lineChecked > Self.tasks / 2, "only \(lineChecked) tasks were checked line by line")
        print("done by ref over the nasty corpus: \(checked) tasks, \(twins) twins, \(blank) blank titles, \(lineChecked) checked line by line, \(subtasksChecked) open subtasks, \(refused.count) refused, \(failures.count) failures")
    }
}
