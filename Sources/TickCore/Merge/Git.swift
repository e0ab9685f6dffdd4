/// Runs `git`, found on PATH, for the merge driver, the set-up commands and sync.
public enum Git {
    /// What a git command printed and how it ended.
    public struct Output: Sendable {
        public var status: Subprocess.Termination
        public var stdout: [UInt8]
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        public var succeeded: Bool { status == .exited(0) }
    }

    /// Runs `git` (found on the PATH of `surroundings`) with `arguments` in `directory` (the
    /// surroundings' own when nil); its standard output is captured, its standard error passed
    /// through unless `quiet`. Nil when git could not be started.
    public static func run(_ arguments: [String], in directory: String? = nil, quiet: Bool = false,
                           surroundings: Subprocess.Surroundings) -> Output? {
        var command = ["git"]
        if let directory { command += ["-C", directory] }
        return capture("/usr/bin/env", ["env"] + command + arguments, quiet: quiet, surroundings: surroundings)
    }

    /// Starts `executable` with `arguments`, reads its standard output to the end and waits for it
    /// (`Subprocess.capture`).
    public static func capture(_ executable: String, _ arguments: [String], quiet: Bool,
                               surroundings: Subprocess.Surroundings) -> Output? {
        Subprocess.capture(executable, arguments: arguments, quiet: quiet, in: surroundings)
            .map { Output(status: $0.termination, stdout: $0.output) }
    }

    /// The installed git's version as (major, minor), or nil.
    public static func version(surroundings: Subprocess.Surroundings) -> (major: Int, minor: Int)? {
        guard let out = run(["--version"], quiet: true, surroundings: surroundings), out.succeeded else { return nil }
        // "git version 2.39.5"
        let words = out.text.split(separator: " ")
        guard words.count >= 3 else { return nil }
        let parts = words[2].split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
        guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return nil }
        return (major, minor)
    }

    /// Whether git passes conflict labels to merge drivers (`%S %X %Y`, from git 2.44).
    public static func supportsDriverLabels(_ version: (major: Int, minor: Int)) -> Bool {
        version.major > 2 || (version.major == 2 && version.minor >= 44)
    }

    /// `git merge-file` on three byte strings, through files in a private temporary folder: the
    /// merged bytes and whether they hold conflicts. Nil when git could not merge them.
    public static func mergeFile(base: [UInt8], ours: [UInt8], theirs: [UInt8], markerSize: Int,
                                 labels: MergeLabels, surroundings: Subprocess.Surroundings) -> (bytes: [UInt8], conflicted: Bool)? {
        guard let folder = TemporaryFolder(environment: surroundings.environment) else { return nil }
        defer { folder.remove() }
        let paths = ["base", "ours", "theirs"].map { folder.path + "/" + $0 }
        for (path, bytes) in zip(paths, [base, ours, theirs]) {
            guard folder.write(path, bytes) else { return nil }
        }
        guard let out = capture("/usr/bin/env", ["env", "git", "merge-file", "-p", "--marker-size=\(markerSize)",
                                                 "-L", labels.ours, "-L", labels.base, "-L", labels.theirs,
                                                 paths[1], paths[0], paths[2]], quiet: true, surroundings: surroundings),
              case .exited(let code) = out.status, code < 128
        else { return nil }
        return (out.stdout, code != 0)
    }
}
