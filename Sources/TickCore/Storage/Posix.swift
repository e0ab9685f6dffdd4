#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// An I/O failure, with the path and the operation that failed.
public struct IOFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String {
        "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }
}

/// Thin wrappers over the POSIX calls the storage layer needs: errno becomes `IOFailure`,
/// and EINTR is retried.
enum Posix {
    static var errno: Int32 { tick_errno() }

    static func retrying(_ body: () -> Int) -> Int {
        while true {
            let r = body()
            if r >= 0 || errno != EINTR { return r }
        }
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o644) throws(IOFailure) -> Int32 {
        let fd = Int32(retrying { Int(Glibc.open(path, flags | O_CLOEXEC, mode)) })
        guard fd >= 0 else { throw IOFailure(path: path, operation: "open", code: errno) }
        return fd
    }

    static func fstat(_ fd: Int32, _ path: String) throws(IOFailure) -> Glibc.stat {
        var s = Glibc.stat()
        guard Glibc.fstat(fd, &s) == 0 else { throw IOFailure(path: path, operation: "stat", code: errno) }
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

    /// Reads the whole file into one buffer, sized from its status and grown if it grew meanwhile.
    /// A folder is EISDIR; another file that is not a regular one (a FIFO would block) is EINVAL.
    static func readFile(_ path: String) throws(IOFailure) -> (bytes: [UInt8], stat: Glibc.stat) {
        let fd = try open(path, O_RDONLY | O_NONBLOCK)
        defer { close(fd) }
        let info = try fstat(fd, path)
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw IOFailure(path: path, operation: "read", code: kind == S_IFDIR ? EISDIR : EINVAL) }
        return (try readAll(fd, path, sizeHint: Int(info.st_size)), info)
    }

    static func readAll(_ fd: Int32, _ path: String, sizeHint: Int) throws(IOFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                retrying { Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count) }
            }
            if n < 0 { throw IOFailure(path: path, operation: "read", code: errno) }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ path: String) throws(IOFailure) {
        var failure: IOFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(IOFailure) { try writeAll(fd, buffer, path) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ path: String) throws(IOFailure) {
        var done = 0
        while done < buffer.count {
            let n = retrying { Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done) }
            if n < 0 { throw IOFailure(path: path, operation: "write", code: errno) }
            done += n
        }
    }

    static func fsync(_ fd: Int32, _ path: String) throws(IOFailure) {
        guard retrying({ Int(Glibc.fsync(fd)) }) == 0 else { throw IOFailure(path: path, operation: "flush", code: errno) }
    }

    /// Flushes a directory, so a rename in it is on disk.
    static func fsyncDirectory(_ path: String) {
        guard let fd = try? open(path, O_RDONLY | O_DIRECTORY) else { return }
        _ = Glibc.fsync(fd)
        close(fd)
    }

    static func rename(_ from: String, _ to: String) throws(IOFailure) {
        guard Glibc.rename(from, to) == 0 else { throw IOFailure(path: to, operation: "rename \(from) to", code: errno) }
    }

    static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    static func mkdir(_ path: String) throws(IOFailure) {
        guard Glibc.mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw IOFailure(path: path, operation: "create folder", code: errno)
        }
    }

    static func realpath(_ path: String) -> String? {
        guard let p = Glibc.realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Names of the entries of a directory, without `.` and `..`.
    static func entries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Runs `command` with /bin/sh and waits for it (test hooks only).
    static func runShell(_ command: String, environment extra: [String: String] = [:]) {
        var pid: pid_t = 0
        var env = extra.map { "\($0.key)=\($0.value)" }
        var e = environ
        while let p = e.pointee { env.append(String(cString: p)); e += 1 }
        let args = ["/bin/sh", "-c", command]
        var cArgs = args.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &cArgs, &cEnv) == 0 else { return }
        var status: Int32 = 0
        _ = retrying { Int(waitpid(pid, &status, 0)) }
    }
}

/// Splits a path into its folder and file name.
func splitPath(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
}
