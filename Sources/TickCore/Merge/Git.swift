#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// Runs `git`, found on PATH, for the merge driver, the set-up commands and sync.
public enum Git {
    /// What a git command printed and how it ended.
    public struct Output: Sendable {
        public var status: Subprocess.Termination
        public var stdout: [UInt8]
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        public var succeeded: Bool { status == .exited(0) }
    }

    /// Runs `git` with `arguments` in `directory` (the current one when nil); its standard
    /// output is captured, its standard error passed through unless `quiet`. Nil when git could
    /// not be started.
    public static func run(_ arguments: [String], in directory: String? = nil, quiet: Bool = false) -> Output? {
        var command = ["git"]
        if let directory { command += ["-C", directory] }
        return capture("/usr/bin/env", ["env"] + command + arguments, quiet: quiet)
    }

    /// Starts `executable` with `arguments`, reads its standard output to the end and waits for it.
    public static func capture(_ executable: String, _ arguments: [String], quiet: Bool) -> Output? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &cArguments, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            return nil
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if n > 0 {
                output += buffer[0..<n]
            } else if n == 0 || tick_errno() != EINTR {
                break
            }
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard tick_errno() == EINTR else { return nil }
        }
        let signal = status & 0x7F
        return Output(status: signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal), stdout: output)
    }

    /// The installed git's version as (major, minor), or nil.
    public static func version() -> (major: Int, minor: Int)? {
        guard let out = run(["--version"], quiet: true), out.succeeded else { return nil }
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
                                 labels: MergeLabels) -> (bytes: [UInt8], conflicted: Bool)? {
        guard let folder = TemporaryFolder() else { return nil }
        defer { folder.remove() }
        let paths = ["base", "ours", "theirs"].map { folder.path + "/" + $0 }
        for (path, bytes) in zip(paths, [base, ours, theirs]) {
            guard folder.write(path, bytes) else { return nil }
        }
        guard let out = capture("/usr/bin/env", ["env", "git", "merge-file", "-p", "--marker-size=\(markerSize)",
                                                 "-L", labels.ours, "-L", labels.base, "-L", labels.theirs,
                                                 paths[1], paths[0], paths[2]], quiet: true),
              case .exited(let code) = out.status, code < 128
        else { return nil }
        return (out.stdout, code != 0)
    }
}

/// A folder of mode 0700 under `$TMPDIR` (else `/tmp`), for the files `git merge-file` reads.
struct TemporaryFolder {
    let path: String

    init?() {
        let root = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((root + "/tick-merge-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        path = String(cString: made)
    }

    func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if tick_errno() == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    func remove() {
        for name in ["base", "ours", "theirs"] { unlink(path + "/" + name) }
        rmdir(path)
    }
}
