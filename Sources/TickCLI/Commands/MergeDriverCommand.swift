import TickCore

/// `tick merge-driver BASE OURS THEIRS [MARKER-SIZE [PATH [LABEL...]]]`: git's merge driver for list
/// files. Writes the result to OURS; exits 0 when clean, 1 with conflicts.
///
/// The task-aware merge runs in a child process of this one (`--in-process`), so that a trap in
/// it cannot reach git: when the child dies or fails, `git merge-file` merges the file line-wise
/// with the same marker size and labels, and its status is returned.
@Sendable func runMergeDriver(_ invocation: Invocation) throws -> ExitStatus {
    let paths = (base: invocation.value(Commands.baseArgument)!, ours: invocation.value(Commands.oursArgument)!, theirs: invocation.value(Commands.theirsArgument)!)
    var markerSize = 7
    if let given = invocation.value(Commands.markerSizeArgument) {
        guard let n = Int(given), n > 0, n <= 1000 else {
            throw UsageError.invalidValue(option: "MARKER-SIZE", value: given, reason: "expected a number from 1 to 1000")
        }
        markerSize = n
    }
    let given = invocation.values(Commands.labelArgument)
    guard given.isEmpty || given.count == 3 else {
        throw UsageError.invalidInput("merge-driver takes three labels (base, ours, theirs) or none")
    }
    let labels = given.isEmpty ? MergeLabels() : MergeLabels(base: given[0], ours: given[1], theirs: given[2])
    let absolute = { (p: String) in Path.absolute(p, from: invocation.context.currentDirectory) }

    if invocation.flag(Commands.inProcessOption) {
        return try mergeInProcess(invocation, base: absolute(paths.base), ours: absolute(paths.ours),
                                  theirs: absolute(paths.theirs), markerSize: markerSize, labels: labels)
    }

    var arguments = ["tick", "merge-driver", "--in-process", "--", paths.base, paths.ours, paths.theirs, String(markerSize),
                     invocation.value(Commands.repositoryPathArgument) ?? ""]
    if !given.isEmpty { arguments += given }
    if let child = Git.capture(invocation.context.executable, arguments, quiet: false,
                                  surroundings: invocation.context.surroundings) {
        switch child.status {
        case .exited(let code) where code == 0 || code == 1:
            do {
                try replaceContents(of: absolute(paths.ours), with: child.stdout, invocation: invocation)
                return code == 0 ? .success : .negative
            } catch {
                invocation.warn("merge-driver: cannot write '\(paths.ours)': \(error); merging line by line")
            }
        case .exited(let code) where code == childWantsLineMerge:
            break
        default:
            invocation.warn("merge-driver: the task-aware merge of '\(invocation.value(Commands.repositoryPathArgument) ?? paths.ours)' failed; "
                            + "merging line by line")
        }
    }
    return lineMerge(base: absolute(paths.base), ours: absolute(paths.ours), theirs: absolute(paths.theirs),
                     markerSize: markerSize, labels: labels, surroundings: invocation.context.surroundings)
}

/// The status of a child that found a version it does not merge task by task.
private let childWantsLineMerge: Int32 = 3

/// The child's work: merges and prints the result; exits 3 when a line merge must do instead.
private func mergeInProcess(_ invocation: Invocation, base: String, ours: String, theirs: String,
                            markerSize: Int, labels: MergeLabels) throws -> ExitStatus {
#if DEBUG
    // Test builds only: a driver child that traps, to test the fallback.
    if invocation.context.environment["TICK_TEST_MERGE_CHILD_TRAP"] == "1" { fatalError("trap requested by a test") }
#endif
    let fileSystem = invocation.fileSystem
    var versions: [[UInt8]] = []
    for path in [base, ours, theirs] {
        guard let status = try fileSystem.status(path), status.kind == .file, status.size <= ListMerge.sizeLimit else {
            return ExitStatus(rawValue: childWantsLineMerge)!
        }
        versions.append(try fileSystem.readFile(path))
    }
    let surroundings = invocation.context.surroundings
    let merge = ListMerge(markerSize: markerSize, labels: labels) { b, o, t in
        Git.mergeFile(base: b, ours: o, theirs: t, markerSize: markerSize, labels: labels, surroundings: surroundings)
    }
    guard let outcome = merge.merge(base: versions[0], ours: versions[1], theirs: versions[2]) else {
        return ExitStatus(rawValue: childWantsLineMerge)!
    }
    invocation.out.write(bytes: outcome.bytes)
    return outcome.conflicts == 0 ? .success : .negative
}

/// `git merge-file` on the three files, writing OURS; 0 when clean, 1 otherwise.
private func lineMerge(base: String, ours: String, theirs: String, markerSize: Int, labels: MergeLabels,
                       surroundings: Subprocess.Surroundings) -> ExitStatus {
    let out = Git.capture("/usr/bin/env", ["env", "git", "merge-file", "--marker-size=\(markerSize)",
                                           "-L", labels.ours, "-L", labels.base, "-L", labels.theirs,
                                           ours, base, theirs], quiet: false, surroundings: surroundings)
    if let out, out.status == .exited(0) { return .success }
    return .negative
}

/// Replaces the bytes of the file at `path` (git's temporary file for OURS) through a new file
/// renamed over it, keeping its mode.
private func replaceContents(of path: String, with bytes: [UInt8], invocation: Invocation) throws {
    let fileSystem = invocation.fileSystem
    let mode = try fileSystem.status(path, followSymlinks: false)?.mode ?? 0o644
    let temporary = path + ".tick-merge"
    try? fileSystem.removeFile(temporary)
    try fileSystem.createFile(temporary, contents: bytes, mode: mode & 0o777, sync: false)
    do {
        try fileSystem.rename(temporary, to: path)
    } catch {
        try? fileSystem.removeFile(temporary)
        throw error
    }
}
