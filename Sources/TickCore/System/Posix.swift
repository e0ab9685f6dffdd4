#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The raw calls that the state files (`StateFile.swift`: the cache, the pick memory, the retired refs)
/// and `LocalFileSystem` make on open descriptors: errno becomes `FileSystemError`, EINTR is retried
/// (through `systemCall`).
enum Posix {
    static var errno: Int32 { Errno.current }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) throws(FileSystemError) -> Int32 {
        try systemCall(path, "open") { Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode) }
    }

    static func fstat(_ fd: Int32, _ path: String) throws(FileSystemError) -> Glibc.stat {
        var s = Glibc.stat()
        try systemCall(path, "read") { Glibc.fstat(fd, &s) }
        return s
    }

    static func lstat(_ path: String) -> Glibc.stat? {
        var s = Glibc.stat()
        return Glibc.lstat(path, &s) == 0 ? s : nil
    }

    static func stat(_ path: String) -> Glibc.stat? {
        var s = Glibc.stat()
        return fstatat(AT_FDCWD, path, &s, 0) == 0 ? s : nil
    }

    /// Reads a whole regular file (a FIFO or a device is EINVAL, a folder EISDIR).
    static func readFile(_ path: String) throws(FileSystemError) -> (bytes: [UInt8], stat: Glibc.stat) {
        let fd = try systemCall(path, "read") { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        defer { close(fd) }
        let info = try fstat(fd, path)
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw FileSystemError(path: path, operation: "read", code: kind == S_IFDIR ? EISDIR : EINVAL) }
        return (try LocalFileSystem.readAll(fd, path, sizeHint: Int(info.st_size)), info)
    }

    static func readAll(_ fd: Int32, _ path: String, sizeHint: Int) throws(FileSystemError) -> [UInt8] {
        try LocalFileSystem.readAll(fd, path, sizeHint: sizeHint)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ path: String) throws(FileSystemError) {
        var done = 0
        while done < bytes.count {
            done += try systemCall(path, "write") {
                bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + done, raw.count - done) }
            }
        }
    }

    /// Writes `bytes` at `offset` in the file, wherever its position is (and leaves the position).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, _ path: String) throws(FileSystemError) {
        var done = 0
        while done < bytes.count {
            done += try systemCall(path, "write") {
                bytes.withUnsafeBytes { raw in Glibc.pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done)) }
            }
        }
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ path: String) throws(FileSystemError) {
        var done = 0
        while done < buffer.count {
            done += try systemCall(path, "write") { Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done) }
        }
    }

    static func rename(_ from: String, _ to: String) throws(FileSystemError) {
        try systemCall(to, "rename '\(from)' to") { Glibc.rename(from, to) }
    }

    static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// Creates a state folder (`0700`); an existing one is fine.
    static func mkdir(_ path: String) throws(FileSystemError) {
        guard Glibc.mkdir(path, 0o700) == 0 || Errno.current == EEXIST else {
            throw FileSystemError(path: path, operation: "create folder", code: Errno.current)
        }
    }

    /// Names of the entries of a directory, without `.` and `..`.
    static func entries(_ path: String) -> [String] {
        (try? LocalFileSystem().contents(ofDirectory: path)) ?? []
    }
}
