import TickCore

/// `autocommit = true`: each command that changes lists in a task folder kept in git commits the
/// files it wrote, and only those. What a command wrote is what changed in the folder's
/// uncommitted files between before and after it ran, so edits made by hand before are left out
/// (unless tick then changes the same file).
enum AutoCommit {
    struct Snapshot {
        var root: String
        /// Each uncommitted file of the folder (relative path) and its bytes (nil: deleted).
        var files: [String: [UInt8]?]
    }

    /// What the folder's uncommitted files hold before a command, when auto-commit applies: to a
    /// command that writes (its `Effect` in the command table), not given `--dry-run`.
    static func before(_ invocation: Invocation) -> Snapshot? {
        guard invocation.effect == .write, invocation.settings.autocommit == true,
              let location = try? invocation.folder().location, location.exists,
              invocation.git(["rev-parse", "--is-inside-work-tree"], in: location.path, quiet: true)?.succeeded == true
        else { return nil }
        return Snapshot(root: location.path, files: uncommitted(location.path, invocation))
    }

    /// Commits what the command wrote; a warning, never a failure, when it cannot.
    static func after(_ snapshot: Snapshot, status: ExitStatus, invocation: Invocation) {
        guard status == .success else { return }
        let now = uncommitted(snapshot.root, invocation)
        let paths = Set(now.keys).union(snapshot.files.keys).filter { path in
            guard let old = snapshot.files[path] else { return true }
            return (now[path] ?? read(path, snapshot.root, invocation)) != old
        }.sorted()
        guard !paths.isEmpty else { return }
        func git(_ arguments: [String]) -> Git.Output? { invocation.git(arguments, in: snapshot.root, quiet: true) }
        let environment = invocation.context.environment
        let hasName = environment["GIT_COMMITTER_NAME"] != nil || git(["config", "user.name"])?.succeeded == true
        let hasEmail = environment["GIT_COMMITTER_EMAIL"] != nil || environment["EMAIL"] != nil
            || git(["config", "user.email"])?.succeeded == true
        guard hasName, hasEmail else {
            invocation.warn("autocommit: no git identity (git config user.name and user.email): the change is not committed")
            return
        }
        for name in ["MERGE_HEAD", "rebase-merge", "rebase-apply"] {
            guard let out = git(["rev-parse", "--git-path", name]), out.succeeded else { continue }
            let path = Path.absolute(out.text.trimmingNewline, from: snapshot.root)
            if (try? invocation.fileSystem.status(path, followSymlinks: false)) ?? nil != nil {
                invocation.warn("autocommit: a merge or rebase is in progress: the change is not committed")
                return
            }
        }
        let message = self.message(invocation, paths: paths, root: snapshot.root)
        guard git(["add", "--all", "--"] + paths)?.succeeded == true,
              git(["commit", "--quiet", "-m", message, "--"] + paths)?.succeeded == true
        else {
            invocation.warn("autocommit: git commit failed: the change is not committed")
            return
        }
    }

    /// `tick: done "Buy milk" (Groceries)`: the command, its arguments and the lists it changed.
    static func message(_ invocation: Invocation, paths: [String], root: String) -> String {
        var words = [invocation.command.name]
        for argument in invocation.command.arguments {
            let value = invocation.values(argument).joined(separator: " ")
            guard !value.isEmpty else { continue }
            words.append(value.contains(" ") ? "\"\(value)\"" : value)
        }
        let lists = paths.filter { $0.hasSuffix(".md") }.map { path -> String in
            read(path, root, invocation).flatMap(SyncSummary.listName(of:))
                ?? String(path.split(separator: "/").last?.dropLast(3) ?? "")
        }
        return "tick: " + words.joined(separator: " ") + (lists.isEmpty ? "" : " (" + lists.joined(separator: ", ") + ")")
    }

    /// The folder's files that differ from the last commit, or are new, with their bytes.
    private static func uncommitted(_ root: String, _ invocation: Invocation) -> [String: [UInt8]?] {
        guard let out = invocation.git(["ls-files", "-z", "--modified", "--deleted", "--others", "--exclude-standard", "--", "."],
                                in: root, quiet: true), out.succeeded else { return [:] }
        var files: [String: [UInt8]?] = [:]
        for entry in out.stdout.split(separator: 0) {
            let path = String(decoding: entry, as: UTF8.self)
            files[path] = .some(read(path, root, invocation))
        }
        return files
    }

    private static func read(_ path: String, _ root: String, _ invocation: Invocation) -> [UInt8]? {
        try? invocation.fileSystem.readFile(Path.join(root, path), followSymlinks: false)
    }
}
