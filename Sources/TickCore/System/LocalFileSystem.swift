#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem
import Dispatch

// The real file system: the only place in TickCore that makes system calls on files.

// MARK: - errno

/// errno values and their meaning, for code that must not import the C library.
public enum Errno {
    public static var current: Int32 { tick_errno() }

    public static let notFound = ENOENT
    public static let exists = EEXIST
    public static let interrupted = EINTR
    public static let invalid = EINVAL
    public static let notSupported = ENOSYS
    public static let crossDevice = EXDEV
    public static let io = EIO
    public static let noSpace = ENOSPC
    public static let permission = EACCES
    public static let notPermitted = EPERM
    public static let loop = ELOOP
    public static let isDirectory = EISDIR
    public static let notDirectory = ENOTDIR
    public static let notEmpty = ENOTEMPTY
    public static let busy = EBUSY

    static func kind(of code: Int32) -> FileSystemError.Kind {
        switch code {
        case ENOENT: return .notFound
        case EACCES, EPERM: return .permissionDenied
        case ENOTDIR: return .notADirectory
        case EISDIR: return .isADirectory
        case ELOOP: return .symlinkLoop
        case EEXIST: return .alreadyExists
        case ENOSPC, EDQUOT: return .noSpace
        case EROFS: return .readOnlyFileSystem
        case ENAMETOOLONG: return .nameTooLong
        case ENOTEMPTY: return .notEmpty
        default: return .other
        }
    }

    /// The C library's text for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Runs a system call that returns -1 and sets errno on failure: EINTR is retried, another
/// failure becomes a `FileSystemError` naming `path` and `operation`.
@discardableResult
func systemCall<T: BinaryInteger>(_ path: String, _ operation: String, _ call: () -> T) throws(FileSystemError) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = tick_errno()
        if code != EINTR { throw FileSystemError(path: path, operation: operation, code: code) }
    }
}

// MARK: - Local file system

/// The real file system, through POSIX calls.
public struct LocalFileSystem: FileSystem {
    public init() {}

    public func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followSymlinks ? 0 : O_NOFOLLOW)
        let fd = try systemCall(path, "read") { open(path, flags) }
        defer { close(fd) }
        var info = stat()
        try systemCall(path, "read") { fstat(fd, &info) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw FileSystemError(path: path, operation: "read", code: kind == S_IFDIR ? EISDIR : EINVAL)
        }
        return try Self.readAll(fd, path, sizeHint: Int(info.st_size))
    }

    /// Reads to the end, into one buffer sized from the status and grown if the file grew meanwhile.
    static func readAll(_ fd: Int32, _ path: String, sizeHint: Int) throws(FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let n = try systemCall(path, "read") {
                bytes.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress! + count, buffer.count - count) }
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    public func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        try Self.status(at: AT_FDCWD, path, followSymlinks: followSymlinks, shownAs: path)
    }

    /// The status of `name` in the folder open as `fd` (a path from the current folder with
    /// `AT_FDCWD`); nil when nothing is there. EINTR is retried; an error names `shownAs`.
    private static func status(at fd: Int32, _ name: String, followSymlinks: Bool = false,
                               shownAs shown: @autoclosure () -> String) throws(FileSystemError) -> FileStatus? {
        var info = stat()
        while fstatat(fd, name, &info, followSymlinks ? 0 : AT_SYMLINK_NOFOLLOW) != 0 {
            let code = tick_errno()
            if code == EINTR { continue }
            if code == ENOENT || code == ENOTDIR { return nil }
            throw FileSystemError(path: shown(), operation: "read", code: code)
        }
        return status(info)
    }

    static func status(_ info: stat) -> FileStatus {
        let kind: FileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        return FileStatus(
            kind: kind, size: Int(info.st_size), device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            mode: UInt32(info.st_mode & 0o7777), links: Int(info.st_nlink))
    }

    /// Names are looked up from the open folder (`fstatat`), which spares the kernel a walk of
    /// the whole path for each; a folder of thousands of lists is read by several threads.
    public func statuses(of names: [String], in directory: String) -> [Result<FileStatus?, FileSystemError>] {
        let opened = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if opened >= 0 { close(opened) } }
        // A folder that cannot be opened is looked up by whole paths, which give its errors.
        let fd = opened >= 0 ? opened : AT_FDCWD
        @Sendable func status(_ k: Int) -> Result<FileStatus?, FileSystemError> {
            // The whole path is made only when it is looked up or shown in an error.
            Result { () throws(FileSystemError) in
                try Self.status(at: fd, opened >= 0 ? names[k] : Path.join(directory, names[k]),
                                shownAs: Path.join(directory, names[k]))
            }
        }
        let chunk = LocalFileSystem.statusChunk
        guard names.count >= 2 * chunk else { return names.indices.map(status) }
        let chunks = (names.count + chunk - 1) / chunk
        let slots = ResultSlots<[Result<FileStatus?, FileSystemError>]>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            slots[c] = (c * chunk..<min(names.count, (c + 1) * chunk)).map(status)
        }
        return (0..<chunks).flatMap { slots[$0]! }
    }

    /// How many names a thread looks up at a time in `statuses`.
    static let statusChunk = 1024

    public func contents(ofDirectory path: String) throws -> [String] {
        guard let dir = opendir(path) else {
            throw FileSystemError(path: path, operation: "read", code: tick_errno())
        }
        return try Self.names(in: dir, path)
    }

    /// The names an open folder lists, without `.` and `..`; closes it.
    static func names(in dir: OpaquePointer, _ path: String) throws(FileSystemError) -> [String] {
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if tick_errno() != 0 { throw FileSystemError(path: path, operation: "read", code: tick_errno()) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    public func resolvedPath(_ path: String) throws -> String {
        guard let p = realpath(path, nil) else {
            throw FileSystemError(path: path, operation: "resolve", code: tick_errno())
        }
        defer { free(p) }
        return String(cString: p)
    }

    /// False only when permission is denied to this user; another failure (an immutable file, a
    /// read-only file system) shows when the write is tried.
    public func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 || tick_errno() != EACCES }

    public func currentDirectory() throws -> String {
        guard let p = getcwd(nil, 0) else { throw FileSystemError(path: ".", operation: "read", code: tick_errno()) }
        defer { free(p) }
        return String(cString: p)
    }

    public func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
        if intermediates {
            if isDirectory(path) { return }
            let parent = Path.parent(of: path)
            if parent != path, !parent.isEmpty { try createDirectory(parent, intermediates: true, mode: 0o777) }
        }
        if mkdir(path, mode_t(mode)) != 0 {
            let code = tick_errno()
            if code == EEXIST, intermediates, isDirectory(path) { return }
            throw FileSystemError(path: path, operation: "create folder", code: code)
        }
    }

    public func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
        let fd = try systemCall(path, "create") {
            open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode ?? 0o666))
        }
        try Self.fill(fd, contents, mode: mode, sync: sync, path)
    }

    /// Writes a new file's contents, gives it `mode` exactly (when given), flushes it when `sync`,
    /// and closes it.
    static func fill(_ fd: Int32, _ contents: [UInt8], mode: UInt32?, sync: Bool, _ path: String) throws(FileSystemError) {
        var closed = false
        defer { if !closed { close(fd) } }
        try Posix.writeAll(fd, contents, path)
        if let mode { try systemCall(path, "change the mode of") { fchmod(fd, mode_t(mode)) } }
        if sync { try systemCall(path, "flush") { fsync(fd) } }
        closed = true
        try systemCall(path, "write") { close(fd) }
    }

    /// Creates a new file holding `contents` (mode 0600) in `directory`, named `prefix`, six random
    /// characters and `suffix` (`mkstemps`), and returns its path. Nothing is left behind on failure.
    public func createTemporaryFile(in directory: String, prefix: String, suffix: String,
                                    contents: [UInt8]) throws(FileSystemError) -> String {
        var template = Array((directory + "/" + prefix + "XXXXXX" + suffix).utf8CString)
        let suffixLength = Int32(suffix.utf8.count)
        let fd = try systemCall(directory, "create a temporary file in") {
            template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, suffixLength) }
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd) }
        do {
            try Posix.writeAll(fd, contents, path)
        } catch {
            unlink(path)
            throw error
        }
        return path
    }

    public func writeInPlace(_ path: String, contents: [UInt8]) throws {
        var fd = Glibc.open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        while fd == -1, tick_errno() == EINTR { fd = Glibc.open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        // A socket cannot be opened by name; `/dev/stdout` and the like name one of tick's own.
        if fd == -1, tick_errno() == ENXIO, let own = Self.descriptor(named: path) {
            fd = fcntl(own, F_DUPFD_CLOEXEC, 0)
        }
        if fd == -1 { throw FileSystemError(path: path, operation: "write", code: tick_errno()) }
        var info = stat()
        do {
            try systemCall(path, "write") { fstat(fd, &info) }
        } catch {
            close(fd)
            throw error
        }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFREG, kind != S_IFDIR else {
            close(fd)
            throw FileSystemError(path: path, operation: "write", code: kind == S_IFDIR ? EISDIR : EINVAL)
        }
        try Self.fill(fd, contents, mode: nil, sync: false, path)
    }

    /// The descriptor a path names by number, itself or through links: `/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`.
    static func descriptor(named path: String) -> Int32? {
        var path = path
        for _ in 0..<8 {
            switch path {
            case "/dev/stdout": return 1
            case "/dev/stderr": return 2
            default: break
            }
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                let digits = number.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard !number.isEmpty, number.utf8.count <= 9, digits else { return nil }
                return Int32(number)
            }
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(path, &target, target.count - 1)
            guard n > 0 else { return nil }
            let link = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = Path.absolute(link, from: Path.parent(of: path))
        }
        return nil
    }

    public func exchange(_ path: String, with other: String) throws {
        try systemCall(other, "replace") { tick_rename_exchange(path, other) }
    }

    public func rename(_ path: String, to destination: String) throws {
        try systemCall(destination, "rename '\(path)' to") { Glibc.rename(path, destination) }
    }

    public func link(_ path: String, to destination: String) throws {
        try systemCall(destination, "create") { Glibc.link(path, destination) }
    }

    public func removeFile(_ path: String) throws {
        try systemCall(path, "remove") { unlink(path) }
    }

    public func removeDirectory(_ path: String) throws {
        try systemCall(path, "remove") { rmdir(path) }
    }

    public func setMode(_ path: String, _ mode: UInt32) throws {
        try systemCall(path, "change the mode of") { chmod(path, mode_t(mode)) }
    }

    public func syncDirectory(_ path: String) throws {
        let fd = try systemCall(path, "flush") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try systemCall(path, "flush") { fsync(fd) }
    }

    public func lock(_ path: String) throws -> FileLock {
        let fd = try systemCall(path, "lock") { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600) }
        return try Self.lock(fd, path)
    }

    /// Takes an exclusive lock on the open file `fd`, which must be a regular file; the lock (and
    /// the descriptor) go with the returned value. Closes `fd` on failure.
    static func lock(_ fd: Int32, _ path: String) throws(FileSystemError) -> FileLock {
        do throws(FileSystemError) {
            var info = stat()
            try systemCall(path, "lock") { fstat(fd, &info) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw FileSystemError(path: path, operation: "lock", code: EINVAL) }
            try systemCall(path, "lock") { flock(fd, LOCK_EX) }
        } catch {
            close(fd)
            throw error
        }
        return FileLock {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }

    // MARK: State files

    /// Runs `body` with a descriptor of the folder holding `path` (opened without following a
    /// link in its last component; the current folder for a bare name) and `path`'s last name.
    private func inStateFolder<T>(_ path: String, _ body: (_ fd: Int32, _ name: String) throws -> T) throws -> T {
        let parent = Path.parent(of: path)
        let folder = parent.isEmpty ? "." : parent
        let fd = try StateFileCalls.openFolder(AT_FDCWD, folder, create: false, mode: 0, narrowing: false, shown: folder)
        defer { close(fd) }
        return try body(fd, Path.name(of: path))
    }

    public func readStateFile(_ path: String, limit: Int) -> [UInt8]? {
        (try? inStateFolder(path) { fd, name in StateFileCalls.read(fd, name, limit: limit, shown: path) }) ?? nil
    }

    public func replaceStateFile(_ path: String, contents: [UInt8]) throws {
        try inStateFolder(path) { fd, name in
            let parent = Path.parent(of: path)
            try StateFileCalls.replace(fd, name, shownFolder: parent.isEmpty ? "." : parent) {
                (file, temporary) throws(FileSystemError) in try Posix.writeAll(file, contents, temporary)
            }
        }
    }

    public func createStateDirectory(_ path: String, mode: UInt32, narrowing: Bool) throws {
        close(try StateFileCalls.openFolder(AT_FDCWD, path, create: true, mode: mode_t(mode), narrowing: narrowing, shown: path))
    }

    public func mapStateFile(_ path: String) -> MappedFile? {
        (try? inStateFolder(path) { fd, name in StateFileCalls.map(fd, name) }) ?? nil
    }

    public func replaceStateFile(_ path: String, writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws {
        try inStateFolder(path) { fd, name in
            let parent = Path.parent(of: path)
            try StateFileCalls.replace(fd, name, shownFolder: parent.isEmpty ? "." : parent, writing: write)
        }
    }

    public func removeStateFile(_ path: String, ifStill mapped: MappedFile?) {
        _ = try? inStateFolder(path) { fd, name in StateFileCalls.remove(fd, name, ifStill: mapped) }
    }

    public func confined(to root: String) throws -> any FileSystem { try ConfinedFileSystem(root: root) }

    public func now() -> Int64 { SystemClock.nanoseconds() }

    public func pause(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, tick_errno() == EINTR { request = remaining }
    }
}
