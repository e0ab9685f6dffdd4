#if canImport(Glibc)
import Glibc
#endif

/// What the tests look at and arrange on the real disk, beside the code under test: a folder made,
/// a file's bytes, its status (mode, kind, inode), a name removed. Plain C calls, so that a test does
/// not check tick's file system with itself.
enum Disk {
    /// A failed call, with its path and errno.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let path: String
        let code: Int32
        var description: String { "\(call) '\(path)': \(String(cString: strerror(code)))" }
    }

    /// Makes a folder of mode 0700 (as tick makes `.tick/`); one already there is a failure.
    static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw Failure(call: "mkdir", path: path, code: errno) }
    }

    /// The status of `path` itself (a final symbolic link is not followed); nil when nothing is there.
    static func linkStatus(_ path: String) -> stat? {
        var s = stat()
        return lstat(path, &s) == 0 ? s : nil
    }

    /// The status of what `path` leads to; nil when nothing is there (or a link dangles).
    static func status(_ path: String) -> stat? {
        var s = stat()
        return stat(path, &s) == 0 ? s : nil
    }

    /// The bytes of a regular file, following a final link. Anything else (a FIFO, a folder) is a
    /// failure, and is never waited on.
    static func bytes(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open", path: path, code: errno) }
        defer { close(fd) }
        var s = stat()
        guard fstat(fd, &s) == 0 else { throw Failure(call: "fstat", path: path, code: errno) }
        guard s.st_mode & S_IFMT == S_IFREG else { throw Failure(call: "read", path: path, code: EINVAL) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Failure(call: "read", path: path, code: errno) }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    /// Creates or truncates a file of mode 0600 (not through a final link) and writes `bytes` to it.
    static func write(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(call: "open", path: path, code: errno) }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(call: "write", path: path, code: n < 0 ? errno : EIO) }
            done += n
        }
    }

    /// Removes a file or link; a missing one is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw Failure(call: "unlink", path: path, code: errno) }
    }

    /// The names in a folder, without `.` and `..`, sorted; none when it cannot be read.
    static func names(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
