#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A folder of tick's own state (`.tick/`, or tick's folder in the user's cache), opened without
/// following a symbolic link, and the files in it, each opened relative to the folder.
///
/// What is found there is untrusted: a state file is used only when it is a regular file reached
/// without a symbolic link; a FIFO, a device, a folder or a link in its place is as good as
/// missing, never opened for writing, never followed. New state files are 0600, and a state file
/// of ours found more readable than that is narrowed back to 0600.
final class StateFolder: @unchecked Sendable {
    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// The folder at `path`, or nil when it is missing, not a folder, or a symbolic link.
    static func open(_ path: String) -> StateFolder? {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        return fd < 0 ? nil : StateFolder(path: path, fd: fd)
    }

    /// The folder at `path`, created with `mode` when missing. An existing folder is used as it is,
    /// except that `narrowing` a folder of ours more readable than `mode` narrows it to `mode`.
    static func create(_ path: String, mode: mode_t = 0o700, narrowing: Bool = false) throws(IOFailure) -> StateFolder {
        if Glibc.mkdir(path, mode) != 0, Posix.errno != EEXIST {
            throw IOFailure(path: path, operation: "create folder", code: Posix.errno)
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // A symbolic link (ELOOP, whatever the kernel says with O_DIRECTORY) or a file (ENOTDIR).
            let code = Posix.errno
            let isLink = Posix.lstat(path).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
            throw IOFailure(path: path, operation: "open folder", code: isLink ? ELOOP : code)
        }
        let folder = StateFolder(path: path, fd: fd)
        if narrowing, let info = try? Posix.fstat(fd, path), info.st_uid == geteuid(), info.st_mode & 0o7777 & ~mode != 0 {
            _ = fchmod(fd, mode)
        }
        return folder
    }

    /// Whether `path` is a folder (not a link to one); nil when nothing is there.
    static func isFolder(_ path: String) -> Bool? {
        Posix.lstat(path).map { $0.st_mode & S_IFMT == S_IFDIR }
    }

    /// The status of the entry `name` itself (a link is not followed).
    func status(_ name: String) -> stat? {
        var s = stat()
        return fstatat(fd, name, &s, AT_SYMLINK_NOFOLLOW) == 0 ? s : nil
    }

    /// Opens `name` for reading when it is a regular file, without blocking or following a link,
    /// and narrows its mode to 0600 when it is ours and more readable. Nil for anything else.
    func openRegular(_ name: String) -> (fd: Int32, status: stat)? {
        // Looked at first, so that a device or FIFO in the file's place is never even opened.
        guard let before = status(name), before.st_mode & S_IFMT == S_IFREG else { return nil }
        let file = openat(fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return nil }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              info.st_dev == before.st_dev, info.st_ino == before.st_ino
        else {
            close(file)
            return nil
        }
        if info.st_mode & 0o077 != 0, info.st_uid == geteuid(), fchmod(file, 0o600) == 0 {
            info.st_mode = info.st_mode & ~0o7777 | 0o600
        }
        return (file, info)
    }

    /// The whole of `name` when it is a regular file of at most `limit` bytes.
    func read(_ name: String, limit: Int) -> [UInt8]? {
        guard let (file, info) = openRegular(name) else { return nil }
        defer { close(file) }
        guard info.st_size <= limit, let bytes = try? Posix.readAll(file, path + "/" + name, sizeHint: Int(info.st_size)),
              bytes.count <= limit
        else { return nil }
        return bytes
    }

    /// `read(_:limit:)`, with the file's modification time in nanoseconds since the epoch.
    func readTimed(_ name: String, limit: Int) -> (bytes: [UInt8], modified: Int64)? {
        guard let (file, info) = openRegular(name) else { return nil }
        defer { close(file) }
        guard info.st_size <= limit, let bytes = try? Posix.readAll(file, path + "/" + name, sizeHint: Int(info.st_size)),
              bytes.count <= limit
        else { return nil }
        return (bytes, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Replaces `name` atomically: `write` fills a new temporary file (mode 0600, created
    /// exclusively, never through a link), which is then renamed over `name`. On any failure the
    /// temporary file is removed and `name` is left as it was.
    func replace(_ name: String, write: (_ fd: Int32, _ path: String) throws(IOFailure) -> Void) throws(IOFailure) {
        let temporary = "\(name).\(getpid()).tmp"
        let temporaryPath = path + "/" + temporary
        // A leftover of a process with the same id: removing an entry never follows it.
        _ = unlinkat(fd, temporary, 0)
        let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw IOFailure(path: temporaryPath, operation: "create", code: Posix.errno) }
        do throws(IOFailure) {
            defer { close(file) }
            try write(file, temporaryPath)
        } catch {
            _ = unlinkat(fd, temporary, 0)
            throw error
        }
        guard renameat(fd, temporary, fd, name) == 0 else {
            let code = Posix.errno
            _ = unlinkat(fd, temporary, 0)
            throw IOFailure(path: path + "/" + name, operation: "rename \(temporaryPath) to", code: code)
        }
    }

    /// Replaces `name` with `contents` atomically (see `replace`).
    func write(_ name: String, _ contents: [UInt8]) throws(IOFailure) {
        try replace(name) { (fd, path) throws(IOFailure) in try Posix.writeAll(fd, contents, path) }
    }

    /// Creates `name` with `contents` (mode 0600), only when nothing is there: EEXIST otherwise.
    func create(_ name: String, contents: [UInt8]) throws(IOFailure) {
        let file = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw IOFailure(path: path + "/" + name, operation: "create", code: Posix.errno) }
        defer { close(file) }
        try Posix.writeAll(file, contents, path + "/" + name)
    }

    /// Whether the entry `name` is a regular file (not a link to one); nil when nothing is there.
    func isRegularFile(_ name: String) -> Bool? {
        status(name).map { $0.st_mode & S_IFMT == S_IFREG }
    }

    /// Whether the entry `name` is a folder (not a link to one).
    func isFolder(_ name: String) -> Bool {
        status(name).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// Removes the entry `name` unless it is a folder: returns 0, or the errno.
    func remove(_ name: String) -> Int32 {
        unlinkat(fd, name, 0) == 0 ? 0 : Posix.errno
    }

    /// Maps `name` when it is a regular file (see `openRegular`).
    func map(_ name: String) -> MappedFile? {
        guard let (file, info) = openRegular(name) else { return nil }
        defer { close(file) }
        return MappedFile(fd: file, status: info)
    }

    /// Removes `name` only while it is still the file that `mapped` maps.
    func remove(_ name: String, ifStill mapped: MappedFile) {
        guard let now = status(name), now.st_dev == mapped.status.st_dev, now.st_ino == mapped.status.st_ino else { return }
        _ = unlinkat(fd, name, 0)
    }
}

extension IOFailure {
    /// Something is already there (EEXIST).
    var isAlreadyThere: Bool { code == EEXIST }
    /// Nothing is there (ENOENT, or a path through something that is not a folder).
    var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    /// A state file cannot be written here: a read-only or foreign folder, a link in the state
    /// folder's place, or a folder in the file's place.
    var meansStateNotWritable: Bool {
        code == EACCES || code == EPERM || code == EROFS || code == EISDIR || code == ELOOP
    }
}
