import Foundation
import Testing
import TickCore

/// The real system calls of each write command failing in turn, under
/// `strace -f -e inject=SYSCALL:error=EIO:when=N` (issue 44, item 3): for each command, each
/// system call that touches files, and each call number N that the command makes of it. Whatever
/// tick reported, the next tick run (an `add`, which recovers first) finds the old state or the new
/// one, never a task in neither list nor in both; a change tick reported done is there; a change
/// in effect can be undone (an undo that failed can still be made); and nothing but the lists is
/// left beside them.
///
/// `make test` runs a seeded sample of the cases; `make faults` (TICK_FAULT_MATRIX=full) runs
/// every one and prints the matrix's size and result.
@Suite("real system calls failing in turn (strace inject)", .enabled(if: Strace.path != nil, "needs strace"))
struct SyscallFaultTests {
    static let syscalls = ["openat", "read", "pread64", "write", "pwrite64", "ftruncate", "fsync", "fdatasync", "fchmod",
                           "newfstatat", "statx", "getdents64", "readlink", "flock", "mkdirat", "linkat", "unlinkat",
                           "rename", "renameat", "renameat2"]
    static let files = ["inbox.md": "# Inbox\n\n- [ ] alpha\n- [ ] beta\n  a note\n",
                        "work.md": "# Work\r\n\r\n- [ ] gamma\r\n",
                        "garden.md": "Prose.\n\n1. [ ] water\n"]
    static let commands: [(name: String, arguments: [String])] = [
        ("add", ["add", "delta", "--list", "inbox"]),
        ("mv", ["mv", "beta", "work"]),
        ("rm", ["rm", "gamma"]),
        ("list rm", ["list", "rm", "garden", "--force"]),
        ("undo", ["undo"]),
        ("import", ["import", "todotxt", "IMPORT"]),
    ]
    static let probe = "- [ ] probe fault\n"

    /// A fresh folder for one case; for undo, with a move made first (the change to undo).
    static func setUp(_ sandbox: Sandbox, _ name: String, _ command: String) throws -> String {
        for (file, text) in files { try sandbox.write("\(name)/\(file)", text) }
        try sandbox.write("\(name)-import.txt", "(A) imported one +inbox\nimported two +Fresh\n")
        let folder = sandbox.path(name)
        if command == "undo" { expectRun(try sandbox.run(["--dir", folder, "--quiet", "mv", "beta", "work"]), status: 0) }
        return folder
    }

    static func arguments(_ c: Int, _ sandbox: Sandbox, _ name: String) -> [String] {
        ["--dir", sandbox.path(name), "--quiet"] + commands[c].arguments.map { $0 == "IMPORT" ? sandbox.path("\(name)-import.txt") : $0 }
    }

    /// The lists of a folder by name, the probe's line taken out.
    static func lists(_ folder: String) -> [String: String] {
        var result: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".md") {
            let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "(unreadable)"
            result[name] = text.replacingOccurrences(of: probe, with: "")
        }
        return result
    }

    struct Case: Hashable { var command: Int; var syscall: String; var call: Int }

    @Test("each failing call leaves the old state or the new one, undoable, with nothing lost, doubled or left beside the lists")
    func matrix() throws {
        let strace = try #require(Strace.path)
        let full = ProcessInfo.processInfo.environment["TICK_FAULT_MATRIX"] == "full"
        let sandbox = try Sandbox(onDisk: true)
        // Each command alone: its old and new states, and how often it makes each call.
        var states: [(old: [String: String], new: [String: String])] = []
        var cases: [Case] = []
        for c in Self.commands.indices {
            let name = "reference-\(c)"
            let folder = try Self.setUp(sandbox, name, Self.commands[c].name)
            let old = Self.lists(folder)
            let log = sandbox.path("\(name).strace")
            expectRun(try sandbox.run(Self.arguments(c, sandbox, name),
                                      launcher: [strace, "-f", "-qq", "-o", log, "-e", "trace=" + Self.syscalls.joined(separator: ",")]),
                      status: 0)
            states.append((old, Self.lists(folder)))
            #expect(states[c].old != states[c].new, "\(Self.commands[c].name) changed nothing")
            for (syscall, count) in Strace.counts(log) { cases += (1...count).map { Case(command: c, syscall: syscall, call: $0) } }
        }
        var chosen = cases
        if !full {
            var random = SeededGenerator(seed: 0x6661_756C_74)
            chosen = (0..<min(36, cases.count)).map { _ in cases[random.next(below: cases.count)] }
        }
        var failures: [String] = []
        var outcomes = (old: 0, new: 0, reported: 0)
        for (k, fault) in chosen.enumerated() {
            let name = "case-\(k)"
            let command = Self.commands[fault.command].name
            let context = "\(command) with call \(fault.call) of \(fault.syscall) failing (EIO)"
            let folder = try Self.setUp(sandbox, name, command)
            let run = try sandbox.run(Self.arguments(fault.command, sandbox, name),
                                      launcher: [strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(fault.syscall)",
                                                 "-e", "inject=\(fault.syscall):error=EIO:when=\(fault.call)"])
            // The next run recovers first, then adds its probe (taken out again below).
            let next = try sandbox.run(["--dir", folder, "--quiet", "add", "probe fault", "--list", "inbox"])
            let (old, new) = states[fault.command]
            let after = Self.lists(folder)
            let stray = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != ".tick" && !$0.hasSuffix(".md") }
            if next.status != 0 { failures.append("\(context): the next run failed: \(next)") }
            if after != old && after != new { failures.append("\(context): neither old nor new: \(after)") }
            if run.status == 0 { outcomes.reported += 1 }
            if run.status == 0 && after != new { failures.append("\(context): reported done, not there") }
            if !stray.isEmpty { failures.append("\(context): left \(stray)") }
            if after == new { outcomes.new += 1 } else { outcomes.old += 1 }
            // The probe goes; then the change in effect (for undo: the change it failed to undo) goes too.
            if next.status == 0 { _ = try sandbox.run(["--dir", folder, "--quiet", "undo"]) }
            if command == "undo" ? after == old : after == new {
                let undo = try sandbox.run(["--dir", folder, "--quiet", "undo"])
                let back = Self.lists(folder)
                if undo.status != 0 || back != (command == "undo" ? new : old) {
                    failures.append("\(context): undo did not restore: \(undo) \(back)")
                }
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
        let syscalls = Set(chosen.map(\.syscall)).count
        print("""
            syscall fault matrix\(full ? "" : " (seeded sample)"): \(chosen.count) cases \
            (\(syscalls) system calls x their call numbers x \(Set(chosen.map(\.command)).count) commands, of \(cases.count) in all); \
            \(outcomes.old) old, \(outcomes.new) new, \(outcomes.reported) reported done; \(failures.count) losses or leftovers
            """)
        for failure in failures { print("syscall fault: " + failure) }
        #expect(failures.isEmpty, "\(failures.count) of \(chosen.count): \(failures.prefix(5))")
    }
}

/// Debian's `strace`, used to fail a real system call (`-e inject`).
enum Strace {
    static let path = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// How many times each system call appears in an `strace -f -o` log (an unfinished call and
    /// its resumption counted once).
    static func counts(_ log: String) -> [(String, Int)] {
        var counts: [String: Int] = [:]
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            // "PID name(arguments) = result", or "PID <... name resumed> ...".
            guard let space = line.firstIndex(of: " ") else { continue }
            let rest = line[line.index(after: space)...].drop { $0 == " " }
            guard !rest.hasPrefix("<..."), let paren = rest.firstIndex(of: "(") else { continue }
            counts[String(rest[..<paren]), default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }
    }
}
