#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The raw calls that the cache, `StateFile.swift`, `LocalFileSystem` and `ConfinedFileSystem` make
/// on open descriptors, and `LocalTimeZone`'s look at a zone file: errno becomes `FileSystemError`,
/// EINTR is retried (through `systemCall`).
enum Posix {
    static var errno: Int32 { Errno.current }

    static func stat(_ path: String) -> Glibc.stat? {
        var s = Glibc.stat()
        return fstatat(AT_FDCWD, path, &s, 0) == 0 ? s : nil
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
}
