import TickCore

// `tick init --git`, `tick git-setup` and `tick doctor`: a task folder kept in git, with the
// task-aware merge driver registered.

/// The line of `.gitattributes` that sends list files to the driver.
let gitAttributesLine = "*.md merge=tick"

/// `tick git-setup`: registers the merge driver in the repository holding the task folder.
@Sendable func runGitSetup(_ invocation: Invocation) throws -> ExitStatus {
    let root = try invocation.folder().location.path
    try setUpGit(root: root, invocation: invocation)
    return .success
}

/// What `init --git` and `git-setup` share: the state folder, `.gitattributes` and the driver.
func setUpGit(root: String, invocation: Invocation) throws {
    guard let top = invocation.git(["rev-parse", "--show-toplevel"], in: root, quiet: true), top.succeeded else {
        throw CommandFailure(.noRepository, "'\(root)' is not in a git repository (run 'tick init --git' or 'git init')")
    }
    try Folder.prepareState(in: root, fileSystem: invocation.fileSystem)
    let attributes = Path.join(root, ".gitattributes")
    let existing = try invocation.fileSystem.readIfPresent(attributes, followSymlinks: false) ?? []
    let lines = String(decoding: existing, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" })
    if !lines.contains(where: { $0.trimmingCharacters(inSet: " \t") == gitAttributesLine }) {
        var bytes = existing
        if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        bytes += Array((gitAttributesLine + "\n").utf8)
        try writeWhole(attributes, bytes, invocation: invocation)
    }
    let driver = try registerDriver(root: root, invocation: invocation)
    if !invocation.global.quiet, !invocation.global.json {
        invocation.out.line("Registered the tick merge driver in \(String(decoding: top.stdout, as: UTF8.self).trimmingNewline)")
        invocation.out.line("  merge.tick.driver = \(driver)")
        invocation.out.line("  \(gitAttributesLine) in \(attributes)")
    }
}

/// Registers the merge driver (`merge.tick.name`, `merge.tick.driver`: tick itself) in the git
/// configuration of the repository holding `root`; returns the driver's command.
func registerDriver(root: String, invocation: Invocation) throws -> String {
    let driver = driverCommand(invocation)
    for (key, value) in [("merge.tick.name", "tick: task-aware merge of list files"), ("merge.tick.driver", driver)] {
        guard let out = invocation.git(["config", key, value], in: root), out.succeeded else {
            throw CommandFailure(.io, "cannot set \(key) with git config")
        }
    }
    return driver
}

/// Whether `.gitattributes` sends list files to the driver (`merge=tick`) and whether the
/// repository has it registered: a fresh clone has the first without the second.
func driverState(root: String, invocation: Invocation) -> (routed: Bool, registered: Bool) {
    let attribute = invocation.git(["check-attr", "merge", "--", "list.md"], in: root, quiet: true)
    let driver = invocation.git(["config", "--get", "merge.tick.driver"], in: root, quiet: true)
    return (attribute?.text.hasSuffix(": merge: tick\n") ?? false, driver?.succeeded == true && driver!.text.contains("merge-driver"))
}

/// `tick merge-driver %O %A %B %L %P`, and the labels `%S %X %Y` when the installed git passes them
/// (git 2.44 and later). The binary is named `tick` when the `tick` on PATH is this binary (the
/// setting then survives upgrades and reads the same on every machine); else by its absolute path,
/// so that git runs this tick and no other.
func driverCommand(_ invocation: Invocation) -> String {
    let me = invocation.context.executable
    let program = onPath("tick", invocation).map(realPath) == realPath(me) ? "tick" : driverQuoted(me)
    var command = program + " merge-driver %O %A %B %L %P"
    if let version = Git.version(surroundings: invocation.context.surroundings), Git.supportsDriverLabels(version) { command += " %S %X %Y" }
    return command
}

private func onPath(_ name: String, _ invocation: Invocation) -> String? {
    Subprocess.find(name, searchPath: invocation.context.environment["PATH"])
}

private func realPath(_ path: String) -> String {
    (try? LocalFileSystem().resolvedPath(path)) ?? path
}

private func driverQuoted(_ text: String) -> String {
    let safe = text.utf8.allSatisfy { b in
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/._-+".utf8.contains(b)
    }
    return safe ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}

private func writeWhole(_ path: String, _ bytes: [UInt8], invocation: Invocation) throws {
    let fileSystem = invocation.fileSystem
    let temporary = path + ".tick-new"
    try? fileSystem.removeFile(temporary)
    try fileSystem.createFile(temporary, contents: bytes, mode: 0o644, sync: true)
    try fileSystem.rename(temporary, to: path)
}

// MARK: - Doctor

/// `tick doctor`: whether the task folder is in git, the driver registered, `.gitattributes`
/// routing list files to it and `.tick/` kept local; each problem with the command that fixes it.
@Sendable func runDoctor(_ invocation: Invocation) throws -> ExitStatus {
    let root = try invocation.folder().location.path
    var checks: [(ok: Bool, what: String, fix: String)] = []
    let top = invocation.git(["rev-parse", "--show-toplevel"], in: root, quiet: true)
    let inRepository = top?.succeeded ?? false
    checks.append((inRepository, inRepository ? "git repository: \(top!.text.trimmingNewline)" : "not in a git repository",
                   "tick init --git"))
    if inRepository {
        let driver = invocation.git(["config", "--get", "merge.tick.driver"], in: root, quiet: true)
        let registered = driver?.succeeded == true && driver!.text.contains("merge-driver")
        checks.append((registered, registered ? "merge driver: \(driver!.text.trimmingNewline)" : "merge driver not registered",
                       "tick git-setup"))
        let attribute = invocation.git(["check-attr", "merge", "--", "list.md"], in: root, quiet: true)
        let routed = attribute?.text.hasSuffix(": merge: tick\n") ?? false
        checks.append((routed, routed ? "list files use the driver (.gitattributes)" : "list files do not use the driver (.gitattributes)",
                       "tick git-setup"))
        let ignored = invocation.git(["check-ignore", "-q", ".tick/journal"], in: root, quiet: true)?.succeeded ?? false
        let markerTracked = !(invocation.git(["check-ignore", "-q", ".tick/.gitignore"], in: root, quiet: true)?.succeeded ?? true)
        checks.append((ignored && markerTracked,
                       ignored && markerTracked ? ".tick/ state is ignored; .tick/.gitignore is shared"
                           : (ignored ? ".tick/.gitignore is ignored: a clone will not find the task folder"
                                      : ".tick/ state is not ignored"),
                       "tick git-setup"))
    }
    let problems = checks.filter { !$0.ok }.count
    if invocation.global.json {
        invocation.out.json(.array(checks.map { check in
            .object([("ok", .bool(check.ok)), ("check", .string(check.what))] + (check.ok ? [] : [("fix", .string(check.fix))]))
        }))
    } else {
        for check in checks {
            invocation.out.line((check.ok ? "ok       " : "problem  ") + check.what + (check.ok ? "" : "; fix: \(check.fix)"))
        }
    }
    return problems == 0 ? .success : .negative
}

extension String {
    var trimmingNewline: String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" { s = s.dropLast() }
        return String(s)
    }
}

extension Substring {
    func trimmingCharacters(inSet set: String) -> Substring {
        var s = self
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return s
    }
}
