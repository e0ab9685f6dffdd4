import Foundation
import Testing
import TickCore

/// Many `tick` processes and editors on one folder at once (README, "Safe writes"; issue "Keep the
/// first promise", item 8). The workers are in `Support/Concurrency.swift`. Afterwards every
/// change tick acknowledged is there once, every line an editor saved is there once, nothing else
/// is, no backup file was needed, and every list reads back byte for byte.
@Suite("concurrency: tick writers, readers and editors")
struct ConcurrencyTests {
    static let lists = ["alpha", "beta", "gamma"]

    /// The length of the long soak (`make soak`), when one is asked for.
    static var soakSeconds: Double? {
        ProcessInfo.processInfo.environment["TICK_SOAK_SECONDS"].flatMap(Double.init)
    }

    @Test("8 tick processes × 30 random changes of every kind (100 in make properties) on one folder lose nothing")
    func manyWriters() throws {
        let sandbox = try Sandbox(onDisk: true)
        // Separate processes: overlapping runs on one folder, as in use (temporary names carry the process id).
        sandbox.alwaysSubprocess = true
        let folder = sandbox.path("lists")
        try sandbox.write("lists/alpha.md", "# Alpha\n\nShared by every worker.\n")
        try sandbox.write("lists/beta.md", "---\ncolor: blue\n---\n# Beta\n\n* [ ] A task nobody touches\n")
        try sandbox.write("lists/gamma.md", "# Gamma\n\n## Later\n\n1. [x] Done long ago done:2026-01-01\n")
        expectRun(try sandbox.run(["init", folder]), status: 0)
        let shared = Unchecked(sandbox)
        let writers = (0..<8).map { TickWriter(number: $0, seed: 0x7469_636B, lists: Self.lists, mix: .everything) }
        let group = DispatchGroup()
        for writer in writers {
            spawn(group) { writer.run(shared.value, folder: folder, steps: LongRuns.size(sample: 30, whole: 100), strict: true) }
        }
        group.wait()
        try expectFolderHoldsEverything(sandbox, folder: folder, lists: Self.lists, writers: writers, editors: [],
                                        others: ["A task nobody touches", "Done long ago"])
        #expect(try sandbox.read("lists/beta.md").hasPrefix("---\ncolor: blue\n---\n# Beta\n\n* [ ] A task nobody touches\n"))
        #expect(try sandbox.read("lists/alpha.md").hasPrefix("# Alpha\n\nShared by every worker.\n"))
        #expect(try sandbox.read("lists/gamma.md").contains("## Later\n"))
    }

    @Test("8 tick writers, a reader and an editor saving by rename or append, at once: nothing lost, nothing clobbered")
    func writersReadersAndAnEditor() throws {
        let sandbox = try Sandbox(onDisk: true)
        // Separate processes: overlapping runs on one folder, as in use (temporary names carry the process id).
        sandbox.alwaysSubprocess = true
        let folder = sandbox.path("lists")
        try sandbox.write("lists/alpha.md", "# Alpha\n\nShared by everyone.\n")
        try sandbox.write("lists/beta.md", "# Beta\n\n- [ ] A task nobody touches\n")
        try sandbox.write("lists/gamma.md", "# Gamma\n\n## Later\n\n- [x] Done long ago done:2026-01-01\n")
        expectRun(try sandbox.run(["init", folder]), status: 0)
        let shared = Unchecked(sandbox)
        let writers = (0..<8).map { TickWriter(number: $0, seed: 0x6564_6974, lists: Self.lists, mix: .everything) }
        let writing = DispatchGroup()
        for writer in writers {
            spawn(writing) { writer.run(shared.value, folder: folder, steps: LongRuns.size(sample: 10, whole: 25), strict: false) }
        }

        // The reader and the editor go on until every writer is done.
        let finished = Flag()
        let others = DispatchGroup()
        let readerFailures = Failures()
        let readerRuns = Counter()
        let views: [[String]] = [["today"], ["all", "--all", "--json"], ["search", "editor"], ["check", "--quiet"], []]
        spawn(others) {
            var k = 0
            while !finished.value {
                let view = views[k % views.count]
                k += 1
                readerRuns.increment()
                do {
                    let result = try shared.value.run(["--dir", folder] + view)
                    // A view answers (search may find nothing yet); check finds no problem and
                    // never a failed round trip; JSON always parses.
                    let allowed: Set<Int32> = view.first == "search" ? [0, 1] : [0]
                    if !allowed.contains(result.status) || (view.first == "check" && !result.stdout.isEmpty) {
                        readerFailures.add("\(view): \(result)")
                    } else if view.contains("--json"), (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) == nil {
                        readerFailures.add("\(view): not JSON: \(result.stdout.prefix(200))")
                    }
                } catch {
                    readerFailures.add("\(view): \(error)")
                }
            }
        }
        let editor = ListEditor(name: "editor", folder: folder, lists: Self.lists, styles: [.rename, .append], seed: 0x6564_6974_6F72)
        spawn(others) {
            var n = 0
            while !finished.value {
                n += 1
                editor.save(n)
                // Between two saves the editor looks at the folder, as a person would: a second reader.
                _ = try? shared.value.run(["--dir", folder, "today"])
            }
        }
        writing.wait()
        finished.set()
        others.wait()

        #expect(readerFailures.all.isEmpty, "\(readerFailures.all.prefix(3))")
        #expect(editor.written.count >= 5, "the editor saved only \(editor.written.count) times")
        #expect(readerRuns.value >= 10, "the reader ran only \(readerRuns.value) times")
        try expectFolderHoldsEverything(sandbox, folder: folder, lists: Self.lists, writers: writers, editors: [editor],
                                        others: ["A task nobody touches", "Done long ago"])
    }

    /// Four writers and three editors, each editor on its own list in its own style, and a blind
    /// appender (`echo LINE >> list.md`, never checked) beside the appending one (an editor saving
    /// by rename or in place would clobber its lines itself): its lines that land in a
    /// file tick set aside are merged back by the next change, which the test makes last. Inside
    /// `make test` each writer makes 10 changes; `make soak` runs it for `TICK_SOAK_SECONDS`.
    /// Only losses, duplicates, backups and round trips are asserted: how many writes tick
    /// acknowledged depends on the machine's load.
    @Test("soak: 4 tick writers with rename, in-place, append and blind-append editors: nothing acknowledged or saved is lost, nothing twice")
    func soak() throws {
        let sandbox = try Sandbox(onDisk: true)
        // Separate processes: overlapping runs on one folder, as in use (temporary names carry the process id).
        sandbox.alwaysSubprocess = true
        let folder = sandbox.path("lists")
        for list in Self.lists { try sandbox.write("lists/\(list).md", "# \(list.capitalized)\n\n- [ ] Kept by \(list)\n") }
        expectRun(try sandbox.run(["init", folder]), status: 0)
        let shared = Unchecked(sandbox)
        let deadline = Self.soakSeconds.map { Date().addingTimeInterval($0) }

        let writing = DispatchGroup()
        let writers = (0..<4).map { TickWriter(number: $0, seed: 0x736F_616B, lists: Self.lists, mix: .addCompleteNote) }
        for writer in writers {
            spawn(writing) { writer.run(shared.value, folder: folder, steps: 10, until: deadline, strict: false) }
        }
        let finished = Flag()
        let editing = DispatchGroup()
        let editors = zip([ListEditor.Style.rename, .inPlace, .append], Self.lists).enumerated().map { k, pair in
            ListEditor(name: "ed-" + pair.0.rawValue, folder: folder, lists: [pair.1], styles: [pair.0], seed: 0x6564_0000 + UInt64(k))
        } + [ListEditor(name: "ed-blind", folder: folder, lists: ["gamma"], styles: [.blindAppend], seed: 0x6564_0010)]
        for editor in editors {
            spawn(editing) {
                var n = 0
                // At least a few saves each, and on until every writer is done.
                while n < 3 || !finished.value {
                    n += 1
                    editor.save(n)
                    editor.rest()
                }
            }
        }
        writing.wait()
        finished.set()
        editing.wait()

        // The next change recovers what a blind append wrote into a file tick had set aside.
        expectRun(try shared.value.run(["--dir", folder, "--quiet", "add", "Recovery probe", "--list", "alpha"]), status: 0)
        if let dump = ProcessInfo.processInfo.environment["TICK_SOAK_DUMP"] { try? FileManager.default.copyItem(atPath: folder, toPath: dump) }
        let report = try expectFolderHoldsEverything(sandbox, folder: folder, lists: Self.lists, writers: writers, editors: editors,
                                                     others: Self.lists.map { "Kept by \($0)" } + ["Recovery probe"])
        print("soak: " + report)
    }
}
