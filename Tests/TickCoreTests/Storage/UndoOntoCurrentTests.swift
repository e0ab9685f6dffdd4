import Testing
import TickFormat
@testable import TickCore

/// `undo` on lists edited since tick's change, on the in-memory file system: the inverse of
/// tick's change applied to what the files hold now, refused only when tick's very lines changed,
/// and `--force` restoring the old files while saying what it throws away. The undo keeps the
/// writer's guarantees: journalled, finished after a crash, and never replacing a file that
/// changed after undo read it.
@Suite("undo onto the current file")
struct UndoOntoCurrentTests {
    static let home = "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  oat, not cow\n- [ ] Paint the fence\n"
    static let day = Day(year: 2026, month: 3, day: 14)!
    static func key(_ title: String, in path: String = "home.md") -> TaskKey { TaskKey(path: path, title: title, occurrence: 0) }

    @Test("a hand edit elsewhere in the file is kept, and the task goes back as it was")
    func handEditElsewhereKept() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).update([Self.key("Buy milk")], .complete(on: Self.day))
        let done = try #require(fs.text("/tasks/home.md"))
        #expect(done.contains("- [x] Buy milk done:2026-03-14\n"))
        // By hand: a new task on top, the note of the completed task and another task edited.
        fs.saveByRename("/tasks/home.md", done.replacingOccurrences("# Home\n", "# Home\n\n- [ ] Typed first\n")
            .replacingOccurrences("oat, not cow", "oat or soy").replacingOccurrences("Paint the fence", "Paint the gate"))
        let undone = try openMutator(fs).folder.undoLast(force: false)
        #expect(undone.summary == "completed \"Buy milk\"")
        #expect(undone.merged == ["home.md"])
        #expect(undone.discarded == [])
        #expect(fs.text("/tasks/home.md")
            == "# Home\n\n- [ ] Typed first\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  oat or soy\n- [ ] Paint the gate\n")
        // The undo is done and forgotten: nothing is left to undo.
        expectError(StorageError.nothingToUndo) { _ = try openMutator(fs).undo(force: false) }
    }

    @Test("a hand edit of the very task is refused, naming its line in the file as it is now; nothing is written")
    func handEditOfTheTaskRefused() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).update([Self.key("Buy milk")], .complete(on: Self.day))
        let edited = "# Home\n\n- [ ] Call mum !!\n- [x] Buy oat milk done:2026-03-14\n  oat, not cow\n- [ ] Paint the fence\n"
        fs.saveByRename("/tasks/home.md", edited)
        expectError(StorageError.changedLines(path: "home.md", lines: "line 4")) { _ = try openMutator(fs).undo(force: false) }
        #expect(fs.text("/tasks/home.md") == edited)
        #expect(StorageError.changedLines(path: "home.md", lines: "line 4").description
            == "home.md changed since tick's last change on the lines undo would revert (line 4); "
            + "use --force to restore the old file, discarding what changed since")
        // The change stays undoable: with --force, the old file comes back and the result says what went.
        let forced = try openMutator(fs).folder.undoLast(force: true)
        #expect(fs.text("/tasks/home.md") == Self.home)
        #expect(forced.discarded == [.init(path: "home.md", lines: 1, which: "line 4")])
        #expect(forced.merged == [])
    }

    @Test("a task tick completed and someone moved elsewhere in the file since is found there and reopened")
    func movedTaskFound() throws {
        let fs = memoryFolder(["home.md": Self.home + "\n## Later\n\n- [ ] Sort the shed\n"])
        try openMutator(fs).update([Self.key("Buy milk")], .complete(on: Self.day))
        // By hand: the completed task, with its note, cut and pasted under Later.
        fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n- [ ] Paint the fence\n\n## Later\n\n- [ ] Sort the shed\n"
            + "- [x] Buy milk done:2026-03-14\n  oat, not cow\n")
        #expect(try openMutator(fs).folder.undoLast(force: false).merged == ["home.md"])
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !!\n- [ ] Paint the fence\n\n## Later\n\n- [ ] Sort the shed\n"
            + "- [ ] Buy milk\n  oat, not cow\n")
    }

    @Test("a task deleted by tick comes back between the lines edited since")
    func removedTaskComesBack() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).remove([Self.key("Buy milk")])
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !!\n- [ ] Paint the fence\n")
        fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !! #flag\n- [ ] Paint the fence\n- [ ] Typed\n")
        _ = try openMutator(fs).folder.undoLast(force: false)
        #expect(fs.text("/tasks/home.md") == "# Home\n\n- [ ] Call mum !! #flag\n- [ ] Buy milk\n  oat, not cow\n- [ ] Paint the fence\n- [ ] Typed\n")
    }

    @Test("a move is undone in both files, each keeping its own hand edits")
    func moveUndoneInBothFiles() throws {
        let fs = memoryFolder(["home.md": Self.home, "work.md": "# Work\n\n- [ ] Report\n"])
        try openMutator(fs).move([Self.key("Buy milk")], to: "work.md")
        #expect(fs.text("/tasks/work.md") == "# Work\n\n- [ ] Report\n- [ ] Buy milk\n  oat, not cow\n")
        fs.saveByRename("/tasks/work.md", "# Work\n\n- [ ] Report !!!\n- [ ] Buy milk\n  oat, not cow\n")
        fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n- [ ] Paint the fence\n- [ ] Typed at home\n")
        let undone = try openMutator(fs).folder.undoLast(force: false)
        #expect(Set(undone.merged) == ["home.md", "work.md"])
        #expect(fs.lists("/tasks") == [
            "home.md": "# Home\n\n- [ ] Call mum !!\n- [ ] Buy milk\n  oat, not cow\n- [ ] Paint the fence\n- [ ] Typed at home\n",
            "work.md": "# Work\n\n- [ ] Report !!!\n",
        ])
    }

    @Test("a move whose moved task was edited in one file is refused as a whole: neither file is written")
    func moveRefusedAsAWhole() throws {
        let fs = memoryFolder(["home.md": Self.home, "work.md": "# Work\n"])
        try openMutator(fs).move([Self.key("Buy milk")], to: "work.md")
        fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !!\n- [ ] Paint the fence\n- [ ] Typed\n")
        fs.saveByRename("/tasks/work.md", "# Work\n\n- [ ] Buy milk #flag\n  oat, not cow\n")
        let before = fs.lists("/tasks")
        expectError(StorageError.changedLines(path: "work.md", lines: "line 3")) { _ = try openMutator(fs).undo(force: false) }
        #expect(fs.lists("/tasks") == before)
        // --force puts both files back as they were before the move, and names what it discards in each.
        let forced = try openMutator(fs).folder.undoLast(force: true)
        #expect(fs.lists("/tasks") == ["home.md": Self.home, "work.md": "# Work\n"])
        #expect(forced.discarded.map(\.path).sorted() == ["home.md", "work.md"])
        #expect(forced.discarded.first { $0.path == "work.md" } == .init(path: "work.md", lines: 1, which: "line 3"))
        #expect(forced.discarded.first { $0.path == "home.md" } == .init(path: "home.md", lines: 1, which: "line 5"))
    }

    @Test("a list tick created and someone wrote to since is not deleted: refused without --force")
    func createdListKept() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).change(.create(name: "Garden", fields: []))
        let created = try #require(fs.text("/tasks/garden.md"))
        fs.append("/tasks/garden.md", "- [ ] Typed\n")
        expectError(StorageError.changedSinceLastChange(path: "garden.md")) { _ = try openMutator(fs).undo(force: false) }
        #expect(fs.text("/tasks/garden.md") == created + "- [ ] Typed\n")
        let forced = try openMutator(fs).folder.undoLast(force: true)
        #expect(!fs.exists("/tasks/garden.md"))
        #expect(forced.discarded == [.init(path: "garden.md", lines: 1, which: "line \(UndoMerge.lineCount(Array(created.utf8)) + 1)")])
    }

    @Test("a list deleted by hand since tick's change is refused; --force brings back the old file and says so")
    func deletedListRefused() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).update([Self.key("Buy milk")], .complete(on: Self.day))
        let done = try #require(fs.text("/tasks/home.md"))
        try fs.removeFile("/tasks/home.md")
        expectError(StorageError.changedSinceLastChange(path: "home.md")) { _ = try openMutator(fs).undo(force: false) }
        #expect(!fs.exists("/tasks/home.md"))
        let forced = try openMutator(fs).folder.undoLast(force: true)
        #expect(fs.text("/tasks/home.md") == Self.home)
        #expect(forced.discarded == [.init(path: "home.md", lines: UndoMerge.lineCount(Array(done.utf8)), which: "(deleted since)")])
    }

    @Test("a save landing between undo's check and its write is kept; the next undo applies onto it")
    func saveDuringUndoKept() throws {
        let fs = memoryFolder(["home.md": Self.home])
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        try writer.change("add", path: "home.md") { bytes in .write((bytes ?? []) + Array("- [ ] Added\n".utf8)) }
        fs.append("/tasks/home.md", "- [ ] Typed first\n")
        // After undo's check, as its journal entry is written: another line lands.
        fs.beforeCall = WriterRaceTests.at(.create, "journal/") { fs.append("/tasks/home.md", "- [ ] Typed meanwhile\n") }
        #expect(throws: StorageError.changedMeanwhile(path: "home.md")) { _ = try writer.undo(force: false) }
        #expect(fs.text("/tasks/home.md") == Self.home + "- [ ] Added\n- [ ] Typed first\n- [ ] Typed meanwhile\n")
        fs.beforeCall = nil
        #expect(try writer.undoLast(force: false).merged == ["home.md"])
        #expect(fs.text("/tasks/home.md") == Self.home + "- [ ] Typed first\n- [ ] Typed meanwhile\n")
    }

    @Test("an undo onto edited files, killed between its two files, is finished by the next run with the merged content")
    func mergedUndoFinishedAfterACrash() throws {
        let fs = memoryFolder(["home.md": Self.home, "work.md": "# Work\n"])
        try openMutator(fs).move([Self.key("Buy milk")], to: "work.md")
        fs.append("/tasks/work.md", "- [ ] Typed at work\n")
        fs.append("/tasks/home.md", "- [ ] Typed at home\n")
        let writer = try FolderWriter(root: "/tasks", fileSystem: fs)
        fs.beforeCall = WriterRaceTests.at(.exchange, occurrence: 2) { fs.crash(atChange: 1) }
        #expect(throws: (any Error).self) { _ = try writer.undo(force: false) }
        fs.restart()
        let next = try FolderWriter(root: "/tasks", fileSystem: fs)
        #expect(next.recoveryNotes.contains { $0.hasPrefix("finished an interrupted change: undo: moved") }, "\(next.recoveryNotes)")
        #expect(fs.lists("/tasks") == [
            "home.md": Self.home + "- [ ] Typed at home\n",
            "work.md": "# Work\n- [ ] Typed at work\n",
        ])
        expectError(StorageError.nothingToUndo) { _ = try next.undo(force: false) }
    }

    @Test("an undo onto edited files killed at each changing call: after recovery, the old state or the merged one, never half")
    func mergedUndoKilledAtEveryStep() throws {
        func setUp() throws -> InMemoryFileSystem {
            let fs = memoryFolder(["home.md": Self.home, "work.md": "# Work\n\n- [ ] Report\n"])
            try openMutator(fs).move([Self.key("Buy milk")], to: "work.md")
            fs.append("/tasks/work.md", "- [ ] Typed at work\n")
            fs.saveByRename("/tasks/home.md", "# Home\n\n- [ ] Call mum !! #flag\n- [ ] Paint the fence\n")
            return fs
        }
        let reference = try setUp()
        let old = reference.lists("/tasks")
        let writer = try FolderWriter(root: "/tasks", fileSystem: reference)
        let first = reference.changingCalls
        #expect(try writer.undoLast(force: false).merged == ["work.md", "home.md"])
        let steps = reference.changingCalls - first
        let new = reference.lists("/tasks")
        #expect(new == ["home.md": "# Home\n\n- [ ] Call mum !! #flag\n- [ ] Buy milk\n  oat, not cow\n- [ ] Paint the fence\n",
                        "work.md": "# Work\n\n- [ ] Report\n- [ ] Typed at work\n"])
        var outcomes: Set<Bool> = []
        for step in 1...steps {
            let context = "killed at changing call \(step) of \(steps)"
            let fs = try setUp()
            let w = try FolderWriter(root: "/tasks", fileSystem: fs)
            fs.crash(atChange: step)
            #expect(throws: (any Error).self, "\(context)") { _ = try w.undo(force: false) }
            fs.restart()
            _ = try FolderWriter(root: "/tasks", fileSystem: fs)
            let after = fs.lists("/tasks")
            #expect(after == old || after == new, "\(context): \(after)")
            outcomes.insert(after == new)
            #expect(try FolderWriter(root: "/tasks", fileSystem: fs).recoveryNotes == [], "\(context)")
            #expect(fs.lists("/tasks") == after, "\(context): the second recovery changed a list")
        }
        #expect(outcomes == [false, true])
    }

    @Test("a file holding conflict markers is not merged into")
    func conflictMarkersRefused() throws {
        let fs = memoryFolder(["home.md": Self.home])
        try openMutator(fs).update([Self.key("Call mum")], .complete(on: Self.day))
        fs.append("/tasks/home.md", "<<<<<<< ours\n- [ ] a\n=======\n- [ ] b\n>>>>>>> theirs\n")
        #expect(throws: StorageError.self) { _ = try openMutator(fs).undo(force: false) }
        #expect(fs.text("/tasks/home.md")?.hasSuffix(">>>>>>> theirs\n") == true)
    }
}

private extension String {
    /// Every occurrence of `target` replaced (the tests do not rely on Foundation here).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
