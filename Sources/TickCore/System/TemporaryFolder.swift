#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// A folder of mode 0700 under `TMPDIR` (of the environment given: the run's, not the process's;
/// else `/tmp`), for the files `git merge-file` reads.
struct TemporaryFolder {
    let path: String

    init?(environment: [String]) {
        let given = environment.last { $0.hasPrefix("TMPDIR=") }.map { String($0.dropFirst("TMPDIR=".count)) }
        let root = given.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
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
