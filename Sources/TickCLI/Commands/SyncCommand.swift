import TickCore

/// `tick sync`: commits the task folder's files, pulls with rebase (the merge driver merging each
/// replayed commit) and pushes. Never forces.
@Sendable func runSync(_ invocation: Invocation) throws -> ExitStatus {
    // With vdir.pair set, the phone's round first, so that its changes are committed with the rest.
    if invocation.settings.vdirPair != nil {
        let (report, _) = try vdirRound(invocation, directory: nil, driving: true, dryRun: false)
        if !invocation.global.json { printVdirReport(report, invocation, dryRun: false) }
    }
    let folder = try invocation.folder()
    let root = folder.location.path
    func git(_ arguments: [String], quiet: Bool = true) -> Git.Output? { invocation.git(arguments, in: root, quiet: quiet) }
    guard git(["rev-parse", "--show-toplevel"])?.succeeded == true else {
        throw CommandFailure(.noRepository, "'\(root)' is not in a git repository (run 'tick init --git')")
    }
    if operationInProgress(root, invocation) {
        throw CommandFailure(.negative, "a merge or rebase is in progress: finish it (see 'git status'), then run tick sync again")
    }
    let remotes = git(["remote"])?.text.split(separator: "\n").map(String.init) ?? []
    guard !remotes.isEmpty else {
        throw CommandFailure(.noRepository, "the repository has no remote to sync with (add one: git remote add origin URL)")
    }
    guard let head = git(["symbolic-ref", "--quiet", "--short", "HEAD"]), head.succeeded else {
        throw CommandFailure(.negative, "HEAD is not on a branch: check one out, then run tick sync again")
    }
    let branch = head.text.trimmingNewline
    var remote = remotes.contains("origin") ? "origin" : remotes[0]
    var remoteBranch = branch
    if let upstream = git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]), upstream.succeeded {
        let name = upstream.text.trimmingNewline
        if let match = remotes.sorted(by: { $0.count > $1.count }).first(where: { name.hasPrefix($0 + "/") }) {
            remote = match
            remoteBranch = String(name.dropFirst(match.count + 1))
        }
    }

    // A clone whose .gitattributes sends list files to the driver that it has not registered
    // would merge them line by line, and conflict where the driver would not: register it first.
    let driver = driverState(root: root, invocation: invocation)
    if driver.routed, !driver.registered {
        let command = try registerDriver(root: root, invocation: invocation)
        invocation.say("Registered the tick merge driver for this clone, as .gitattributes asks (merge.tick.driver = \(command))")
    }

    // 1. Commit the task folder's lists, tick's own files and what git already tracks, and nothing else.
    let lists = folder.scan().lists.map(\.path)
    let staging = try SyncStaging.stage(root: root, lists: lists) { git($0, quiet: false) }
    staging.report(root: root, to: invocation.err)
    let staged = git(["diff", "--cached", "--name-only", "--relative", "-z", "--", "."])?.stdout ?? []
    let paths = staged.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    if !paths.isEmpty {
        let hasHead = git(["rev-parse", "--quiet", "--verify", "HEAD"])?.succeeded ?? false
        let changes = paths.map { path -> SyncSummary.Change in
            let before = hasHead ? git(["show", "HEAD:./" + path]).flatMap { $0.succeeded ? $0.stdout : nil } : nil
            let after = git(["show", ":./" + path]).flatMap { $0.succeeded ? $0.stdout : nil }
            return SyncSummary.Change(path: path, before: before, after: after)
        }
        let message = SyncSummary.message(changes, globalFilter: invocation.settings.globalFilter)
        guard git(["commit", "--quiet", "-m", message, "--", "."], quiet: false)?.succeeded == true else {
            throw CommandFailure(.negative, "git commit failed (is a git identity set? git config user.name and user.email)")
        }
        if !invocation.global.quiet { invocation.out.line("Committed: \(message)") }
    }

    // 2. Pull with rebase, when the remote has the branch.
    guard let heads = git(["ls-remote", "--heads", remote, remoteBranch], quiet: false), heads.succeeded else {
        throw CommandFailure(.network, "cannot reach remote '\(remote)'")
    }
    if !heads.stdout.isEmpty {
        let pulled = git(["pull", "--quiet", "--rebase", "--autostash", "--no-edit", remote, remoteBranch], quiet: false)
        if pulled?.succeeded != true {
            let unmerged = git(["diff", "--name-only", "--diff-filter=U", "--relative"])?.text
                .split(separator: "\n").map(String.init) ?? []
            if !unmerged.isEmpty || operationInProgress(root, invocation) {
                invocation.err.line("tick: sync left conflicts for you to resolve in:")
                for file in unmerged { invocation.err.line("  " + file) }
                invocation.err.line("Edit them, then run: git add FILE... && git rebase --continue && tick sync")
                invocation.err.line("Or go back to where you were: git rebase --abort")
                return .negative
            }
            throw CommandFailure(.network, "cannot pull from '\(remote)' (branch \(remoteBranch))")
        }
    }

    // 3. Push.
    guard git(["push", "--quiet", remote, "HEAD:refs/heads/" + remoteBranch], quiet: false)?.succeeded == true else {
        throw CommandFailure(.network, "cannot push to '\(remote)' (branch \(remoteBranch))")
    }
    if !invocation.global.quiet { invocation.out.line("Synced with \(remote)/\(remoteBranch)") }
    return .success
}

/// Whether a merge, rebase or cherry-pick is under way in the repository holding `root`.
private func operationInProgress(_ root: String, _ invocation: Invocation) -> Bool {
    for name in ["MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD"] {
        guard let out = invocation.git(["rev-parse", "--git-path", name], in: root, quiet: true), out.succeeded else { continue }
        let path = Path.absolute(out.text.trimmingNewline, from: root)
        if (try? invocation.fileSystem.status(path, followSymlinks: false)) ?? nil != nil { return true }
    }
    return false
}
