import Testing
import TickFormat
@testable import TickCore

/// Other programs saving a list between two of tick's calls, pinned by the in-memory file
/// system's hook: tick never clobbers a save, re-applies its edit on top of it, and says the
/// truth when it cannot.
@Suite("saves racing tick's writes")
struct WriterRaceTests {
    static let list = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n"

    /// A hook that runs `action` at the `occurrence`-th call of `operation` whose path contains `path`.
    static func at(_ operation: InMemoryFileSystem.Operation, _ path: String = "", occurrence: Int = 1,
                   _ action: @escaping () -> Void) -> (InMemoryFileSystem.Call) -> Void {
        var seen = 0
        return { call in
            guard call.operation == operation, path.isEmpty || call.path.contains(path) else { return }
            seen += 1
            if seen == occurrence { action() }
        }
    }

    static func key(_ title: String, in path: String = "home.md") -> TaskKey { TaskKey(path: path, title: title, occurrence: 0) }
    static let day = Day(year: 2026, month: 3, day: 14)!

    @Test("a task an editor appends between tick's read and its write is kept, and tick's edit re-applied")
    func editorAppends() throws {
        let fs = memoryFolder(["home.md": Self.list])
        let m = try openMutator(fs)
        fs.beforeCall = Self.at(.exchange) { fs.append("/tasks/home.md", "- [ ] Added in the editor\n") }
        try m.update([Self.key("Call mum")], .complete(on: Self.day))
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [x] Call mum !! done:2026-03-14\n- [ ] Buy milk\n- [ ] Added in the editor\n")
    }

    @Test("pick --done's edit re-finds the pick by its key in what is on disk when an editor inserts a task above it")
    func pickDoneDuringEdit() throws {
        let fs = memoryFolder(["inbox.md": "- [ ] Pay the bill\n- [ ] Water the plants\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let picked: PickedTask = Self.key("Water the plants", in: "inbox.md")
        fs.beforeCall = Self.at(.exchange) {
            fs.saveByRename("/tasks/inbox.md", "- [ ] Added by the editor\n- [ ] Pay the bill\n- [ ] Water the plants\n")
        }
        // The edit `tick pick --done` makes: find the pick again, complete it.
        try writer.change("complete", path: "inbox.md") { bytes in
            let document = Document(bytes: bytes ?? [])
            let index = try #require(picked.find(in: document))
            return .write(try document.settingDone(index, true, on: Self.day).document.serialize())
        }
        #expect(fs.text("/tasks/inbox.md") == "- [ ] Added by the editor\n- [ ] Pay the bill\n- [x] Water the plants done:2026-03-14\n")
    }

    @Test("an editor saving by rename meanwhile is kept: tick's edit applies on top of it")
    func editorRenames() throws {
        let fs = memoryFolder(["home.md": Self.list])
        let m = try openMutator(fs)
        fs.beforeCall = Self.at(.exchange) {
            fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk #flag\n")
        }
        try m.update([Self.key("Buy milk")], .priority(.high))
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk #flag !!!\n")
    }

    @Test("when the editor removed the task meanwhile, tick stops with a clear error and keeps the editor's file")
    func editorRemovesTheTask() throws {
        let fs = memoryFolder(["home.md": Self.list])
        let m = try openMutator(fs)
        fs.beforeCall = Self.at(.exchange) { fs.saveInPlace("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n") }
        expectError(MutationError.taskGone(Self.key("Buy milk"))) {
            try m.update([Self.key("Buy milk")], .complete(on: Self.day))
        }
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !!\n")
        #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["home.md"])
    }

    @Test("a save landing between the exchange and tick's check is swapped back and tick's edit re-applied")
    func saveAfterExchange() throws {
        let fs = memoryFolder(["home.md": Self.list])
        let m = try openMutator(fs)
        // The editor writes its version into the name tick's old copy now has.
        fs.beforeCall = Self.at(.read, ".home.md.tick-") {
            let name = fs.tree("/tasks").first { $0.hasPrefix(".home.md.tick-") }!
            fs.saveInPlace("/tasks/" + name, Self.list + "- [ ] Saved late\n")
        }
        try m.update([Self.key("Call mum")], .flag(true))
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !! #flag\n- [ ] Buy milk\n- [ ] Saved late\n")
    }

    @Test("a file that keeps changing stops tick with a clear error and keeps the other version")
    func keepsChanging() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        // Before each of tick's exchanges (not its swaps back), another "x" lands.
        var exchanges = 0
        fs.beforeCall = { call in
            guard call.operation == .exchange else { return }
            exchanges += 1
            if exchanges % 2 == 1 { fs.append("/tasks/a.md", "x") }
        }
        expectError(StorageError.changedMeanwhile(path: "a.md")) { try writer.change("add two", path: "a.md", appending("- [ ] two")) }
        #expect(fs.text("/tasks/a.md") == "- [ ] one\nxxxxxxxx")
        expectError(StorageError.nothingToUndo) { _ = try writer.undo(force: false) }
    }

    // MARK: Issue items

    /// Two saves of home.md while tick writes it: `first` by rename just before tick's exchange,
    /// `second` (by rename or in place) just after, while tick reads the file it set aside. The
    /// count says how many saves were made.
    final class Saves { var value = 0 }

    static func twoSaves(_ fs: InMemoryFileSystem, _ first: String, _ second: String, inPlace: Bool) -> Saves {
        let saves = Saves()
        fs.beforeCall = { call in
            if call.operation == .exchange, saves.value == 0 { fs.saveByRename("/tasks/home.md", first); saves.value = 1 }
            if call.operation == .read, call.path.contains(".home.md.tick-"), saves.value == 1 {
                saves.value = 2
                if inPlace { fs.saveInPlace("/tasks/home.md", second) } else { fs.saveByRename("/tasks/home.md", second) }
            }
        }
        return saves
    }

    @Test("a second save after tick's exchange is never unlinked: both saves and tick's change end up in the list")
    func secondSaveKept() throws {
        for inPlace in [false, true] {
            let fs = memoryFolder(["home.md": Self.list])
            let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
            let first = Self.list + "- [ ] First save\n"
            let second = Self.list + "- [ ] Second save\n"
            let saved = Self.twoSaves(fs, first, second, inPlace: inPlace)
            try writer.change("add", path: "home.md", appending("- [ ] From tick"))
            #expect(saved.value == 2)
            #expect(fs.text("/tasks/home.md") == Self.list + "- [ ] Second save\n- [ ] First save\n- [ ] From tick\n",
                    "in place: \(inPlace)")
            #expect(fs.tree("/tasks").filter { !$0.hasPrefix(".tick") } == ["home.md"], "in place: \(inPlace)")
        }
    }

    @Test("two saves that change the same line while tick writes: the newest stays, the other is kept as a backup")
    func conflictingSavesKept() throws {
        for inPlace in [false, true] {
            let fs = memoryFolder(["home.md": Self.list])
            let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
            let first = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy oat milk\n"
            let second = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy soy milk\n"
            let saved = Self.twoSaves(fs, first, second, inPlace: inPlace)
            do {
                try writer.change("add", path: "home.md", appending("- [ ] From tick"))
                Issue.record("no error")
            } catch let StorageError.keptBackup(path, backup) {
                #expect(path == "home.md")
                #expect(fs.text("/tasks/" + backup) == first, "in place: \(inPlace)")
                #expect(!backup.hasSuffix(".md") && !backup.hasPrefix("."))
            }
            #expect(fs.text("/tasks/home.md") == second, "in place: \(inPlace)")
            #expect(saved.value == 2, "both saves landed, in place: \(inPlace)")
            expectError(StorageError.nothingToUndo) { _ = try writer.undo(force: false) }
        }
    }

    @Test("a save into the file tick set aside, then an append to tick's own: tick's change stands and is made, the other save is kept and named")
    func appendOnTopKeepsTheChange() throws {
        let fs = memoryFolder(["home.md": Self.list])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        let theirs = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy oat milk\n"
        var step = 0
        fs.beforeCall = { call in
            // Just before the exchange, a save in place changes the line tick changes: it lands in the file tick sets aside.
            if call.operation == .exchange, step == 0 { fs.saveInPlace("/tasks/home.md", theirs); step = 1 }
            // While tick reads what it set aside, an appender adds a line to tick's own file.
            if call.operation == .read, call.path.contains(".home.md.tick-"), step == 1 {
                fs.append("/tasks/home.md", "- [ ] Appended\n")
                step = 2
            }
        }
        let flagged = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk #flag\n"
        _ = try writer.change("flag", path: "home.md") { _ in .write(Array(flagged.utf8)) }
        fs.beforeCall = nil
        #expect(step == 2)
        #expect(fs.text("/tasks/home.md") == flagged + "- [ ] Appended\n")
        let backups = fs.tree("/tasks").filter { $0.hasPrefix("home.md.tick-backup-") }
        #expect(backups.count == 1)
        #expect(backups.first.map { fs.text("/tasks/" + $0) } == theirs)
        let note = try #require(writer.recoveryNotes.last)
        #expect(note.hasPrefix("home.md was saved twice by another program while tick wrote it; tick's change is in place"))
        #expect(note.hasSuffix("kept as " + (backups.first ?? "?")))
    }

    @Test("undo replaces only the exact bytes it checked: a save landing while it runs is kept")
    func undoKeepsASave() throws {
        let fs = memoryFolder(["a.md": "- [ ] one\n"])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add two", path: "a.md", appending("- [ ] two"))
        // After undo's check, before its replace: the save lands as the undo's journal entry is written.
        fs.beforeCall = Self.at(.create, "journal/") { fs.append("/tasks/a.md", "- [ ] typed meanwhile\n") }
        #expect(throws: StorageError.self) { _ = try writer.undo(force: false) }
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] two\n- [ ] typed meanwhile\n")
        fs.beforeCall = nil
        // The change is still undoable, and undo now keeps the typed line.
        #expect(try writer.undo(force: false) == "add two")
        #expect(fs.text("/tasks/a.md") == "- [ ] one\n- [ ] typed meanwhile\n")
    }

    @Test("a move whose source changed meanwhile is rolled back: the task is in one list only, and the message says nothing was written")
    func moveAllOrNothing() throws {
        let fs = memoryFolder(["home.md": Self.list, "work.md": "# Work\n"])
        let m = try openMutator(fs)
        // The source is edited (the moved task's text changes) just before tick replaces it.
        fs.beforeCall = Self.at(.exchange, "/home.md") {
            fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  oat, not cow\n")
        }
        do {
            try m.move([Self.key("Buy milk")], to: "work.md")
            Issue.record("the move succeeded")
        } catch let error as MutationError {
            #expect(error.description == "'Buy milk' changed in home.md while tick moved it to work.md; nothing written")
        }
        #expect(fs.text("/tasks/work.md") == "# Work\n")
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  oat, not cow\n")
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes == [])
        #expect(fs.text("/tasks/work.md") == "# Work\n")
    }

    @Test("an undo of a move killed between its two files is finished by the next run: no duplicate")
    func undoOfMoveIsJournalled() throws {
        let fs = memoryFolder(["home.md": Self.list, "work.md": "# Work\n"])
        try openMutator(fs).move([Self.key("Buy milk")], to: "work.md")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        // Killed at the second file's exchange.
        fs.beforeCall = Self.at(.exchange, occurrence: 2) { fs.crash(atChange: 1) }
        #expect(throws: (any Error).self) { _ = try writer.undo(force: false) }
        #expect(fs.text("/tasks/home.md") == Self.list)
        #expect(fs.text("/tasks/work.md") == "# Work\n\n- [ ] Buy milk\n")
        fs.restart()
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes.contains { $0.hasPrefix("finished an interrupted change: undo: moved") }, "\(next.recoveryNotes)")
        #expect(fs.lists("/tasks") == ["home.md": Self.list, "work.md": "# Work\n"])
        // The move is undone once: nothing is left to undo.
        expectError(StorageError.nothingToUndo) { _ = try next.undo(force: false) }
    }

    @Test("a stale staging folder from a killed begin is never reused: its files do not become the next entry's")
    func staleStagingFolder() throws {
        let fs = memoryFolder(["inbox.md": "# Inbox\n"])
        _ = try FolderWriter(root: "/tasks", fileSystem: fs)
        // A begin killed half-way: a staging folder with another change's files.
        fs.put("/tasks/.tick/journal/.00000001/0.before", "# Someone else's list\n")
        fs.put("/tasks/.tick/journal/.00000001/1.after", "# Stale\n")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("rename", [("later.md", { _ in .write(Array("# Later\n".utf8)) }), ("inbox.md", { _ in .delete })])
        #expect(fs.lists("/tasks") == ["later.md": "# Later\n"])
        #expect(try writer.undo(force: false) == "rename")
        #expect(fs.lists("/tasks") == ["inbox.md": "# Inbox\n"])
    }

    @Test("a staging folder that is a link to a folder outside is removed, never written through")
    func linkedStagingFolder() throws {
        let fs = memoryFolder(["inbox.md": "# Inbox\n"])
        _ = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.mkdir("/tasks/.tick/journal", mode: 0o700)
        fs.symlink("/outside", at: "/tasks/.tick/journal/.00000001")
        let outside = fs.fingerprint("/outside")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add", path: "inbox.md", appending("- [ ] one"))
        _ = try writer.undo(force: false)
        #expect(fs.fingerprint("/outside") == outside)
        #expect(fs.text("/tasks/inbox.md") == "# Inbox\n")
    }
}
