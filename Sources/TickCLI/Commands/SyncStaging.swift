import TickCore

/// What `tick sync` stages: the folder's lists, tick's own tracked files (`.gitattributes`,
/// `.tick/.gitignore`) and whatever git already tracks in the folder; never an untracked file that
/// is none of these (`private-notes.txt`, `.obsidian/workspace.json`), which it names instead.
struct SyncStaging {
    /// tick's own files that belong in the repository, relative to the task folder.
    static let ownTrackedFiles: Set<String> = [".gitattributes", ".tick/.gitignore"]
    /// How many paths one `git add` is given.
    static let pathsPerAdd = 500

    /// The untracked files left out, relative to the task folder, in git's order.
    var leftOut: [String] = []

    /// Stages the folder's changes in the repository at `root` (the task folder): every change to a
    /// tracked file (`git add --update`), and the untracked lists and own files; the other untracked
    /// files, ignored ones apart, are left out.
    static func stage(root: String, lists: [String], git: ([String]) -> Git.Output?) throws -> SyncStaging {
        guard git(["add", "--update", "--", "."])?.succeeded == true else {
            throw CommandFailure(.io, "git add failed in '\(root)'")
        }
        guard let others = git(["ls-files", "--others", "--exclude-standard", "-z", "--", "."]), others.succeeded else {
            throw CommandFailure(.io, "git ls-files failed in '\(root)'")
        }
        let listPaths = Set(lists)
        var adding: [String] = []
        var staging = SyncStaging()
        for raw in others.stdout.split(separator: 0) {
            let path = String(decoding: raw, as: UTF8.self)
            if listPaths.contains(path) || ownTrackedFiles.contains(path) { adding.append(path) } else { staging.leftOut.append(path) }
        }
        var start = 0
        while start < adding.count {
            let batch = Array(adding[start..<min(adding.count, start + pathsPerAdd)])
            guard git(["--literal-pathspecs", "add", "--"] + batch)?.succeeded == true else {
                throw CommandFailure(.io, "git add failed in '\(root)'")
            }
            start += batch.count
        }
        return staging
    }

    /// Names the files left out and the command that adds them, on standard error.
    func report(root: String, to err: Output) {
        guard !leftOut.isEmpty else { return }
        let count = leftOut.count == 1 ? "1 untracked file that is not a list" : "\(leftOut.count) untracked files that are not lists"
        err.line("tick: sync left out \(count):")
        for path in leftOut { err.line("  " + path) }
        err.line("To sync them too: git -C \(shellQuoted(root)) add -- " + leftOut.map(shellQuoted).joined(separator: " "))
    }
}
