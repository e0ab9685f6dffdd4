#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TickCore

// Several tick processes starting on a folder at the same moment, before it has its `.tick/`:
// creating it runs before the folder lock (which lives in it), so each step must accept that
// another process did it first. Threads stand in for the processes.

/// Writers that open a folder at the same moment, before it has its `.tick/`.
@Suite("Writers starting together")
struct FolderWriterStartTests {
    @Test("many writers opening a fresh folder at once all open it: creating .tick/ is not a race they can lose")
    func simultaneousFirstOpen() throws {
        let rounds = 30, writers = 8
        let failures = Messages()
        for _ in 0..<rounds {
            let folder = TemporaryFolder()
            try folder.write("a.md", "- [ ] one\n")
            let root = folder.path
            let group = DispatchGroup()
            for _ in 0..<writers {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        // Each writer holds the folder lock while it lives; the next waits for it.
                        _ = try FolderWriter(root: root, environment: [:])
                    } catch {
                        failures.add("\(error)")
                    }
                }.start()
            }
            group.wait()
            #expect(folder.read(".tick/.gitignore") == "*\n!.gitignore\n")
        }
        let all = failures.all
        #expect(all.isEmpty, "\(all.count) of \(rounds * writers) failed to open: \(all.prefix(2))")
    }
}

/// `tick init`, or a first write that creates the folder, in several processes at once.
@Suite("Folders initialised together")
struct FolderInitializeRaceTests {
    @Test("initialising a folder from several threads at once succeeds in each, and creates .tick/ once")
    func simultaneousInitialize() throws {
        let rounds = 30, threads = 8
        let failures = Messages()
        let created = Messages()
        for _ in 0..<rounds {
            let base = TemporaryFolder()
            let root = base.path + "/tasks"
            let group = DispatchGroup()
            for _ in 0..<threads {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        if try Folder.initialize(at: root, fileSystem: LocalFileSystem()) == .created { created.add(root) }
                    } catch {
                        failures.add("\(error)")
                    }
                }.start()
            }
            group.wait()
            #expect(base.read("tasks/.tick/.gitignore") == "*\n!.gitignore\n")
        }
        let all = failures.all
        #expect(all.isEmpty, "\(all.count) of \(rounds * threads) failed: \(all.prefix(2))")
        #expect(created.all.count == rounds)
    }
}

/// Messages collected from several threads.
final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    var all: [String] { lock.withLock { messages } }
    func add(_ message: String) { lock.withLock { messages.append(message) } }
}
