#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// tick's own state files (`.tick/pick`, `.tick/retired`, the cache, the reminder and vdir state),
// reached on the real disk through a descriptor of their folder. `LocalFileSystem` and
// `ConfinedFileSystem` implement `FileSystem`'s state-file calls (`readStateFile`, `mapStateFile`,
// `replaceStateFile`, `removeStateFile`, `createStateDirectory`) with these.
//
// What is found there is untrusted: a state file is used only when it is a regular file reached
// without a symbolic link; a FIFO, a device, a folder or a link in its place is as good as
// missing, never opened for writing, never followed. New state files are 0600, and a state file
// of ours found more readable than that is narrowed back to 0600.

/// The state-file calls on the entry `name` of the folder open as `folder` (or, for
/// `createFolder`, `AT_FDCWD` and a path).
enum StateFileCalls {
    /// The status of the entry `name` itself (a link is not followed).
    static func status(_ folder: Int32, _ name: String) -> stat? {
        var s = stat()
        return fstatat(folder, name, &s, AT_SYMLINK_NOFOLLOW) == 0 ? s : nil
    }

    /// Opens `name` for reading when it is a regular file, without blocking or following a link,
    /// and narrows its mode to 0600 when it is ours and more readable. Nil for anything else.
    static func openRegular(_ folder: Int32, _ name: String) -> (fd: Int32, status: stat)? {
        // Looked at first, so that a device or FIFO in the file's place is never even opened.
        guard let before = status(folder, name), before.st_mode & S_IFMT == S_IFREG else { return nil }
        let file = openat(folder, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
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

    /// The whole of `name` when it is a regular file of at most `limit` bytes (the size is looked
    /// at before a byte is read).
    static func read(_ folder: Int32, _ name: String, limit: Int, shown: String) -> [UInt8]? {
        guard let (file, info) = openRegular(folder, name) else { return nil }
        defer { close(file) }
        guard info.st_size <= limit, let bytes = try? LocalFileSystem.readAll(file, shown, sizeHint: Int(info.st_size)),
              bytes.count <= limit
        else { return nil }
        return bytes
    }

    /// Replaces `name` atomically: `write` fills a new temporary file (mode 0600, created
    /// exclusively, never through a link), which is then renamed over `name`. On any failure the
    /// temporary file is removed and `name` is left as it was. `shownFolder` names the folder in errors.
    static func replace(_ folder: Int32, _ name: String, shownFolder: String,
                        write: (_ fd: Int32, _ path: String) throws(IOFailure) -> Void) throws(IOFailure) {
        let temporary = "\(name).\(getpid()).tmp"
        let temporaryPath = shownFolder + "/" + temporary
        // A leftover of a process with the same id: removing an entry never follows it.
        _ = unlinkat(folder, temporary, 0)
        let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw IOFailure(path: temporaryPath, operation: "create", code: Posix.errno) }
        do throws(IOFailure) {
            defer { close(file) }
            try write(file, temporaryPath)
        } catch {
            _ = unlinkat(folder, temporary, 0)
            throw error
        }
        guard renameat(folder, temporary, folder, name) == 0 else {
            let code = Posix.errno
            _ = unlinkat(folder, temporary, 0)
            throw IOFailure(path: shownFolder + "/" + name, operation: "rename \(temporaryPath) to", code: code)
        }
    }

    /// Opens the folder `name` of `folder` without following a link, creating it with `mode` when
    /// missing (unless `create` is false). An existing folder is used as it is, except that
    /// `narrowing` a folder of ours more readable than `mode` narrows it to `mode`. A link there is
    /// ELOOP, a file ENOTDIR. The caller closes the descriptor.
    static func openFolder(_ folder: Int32, _ name: String, create: Bool, mode: mode_t, narrowing: Bool,
                           shown: String) throws(IOFailure) -> Int32 {
        if create, mkdirat(folder, name, mode) != 0, Posix.errno != EEXIST {
            throw IOFailure(path: shown, operation: "create folder", code: Posix.errno)
        }
        let fd = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // A symbolic link (ELOOP, whatever the kernel says with O_DIRECTORY) or a file (ENOTDIR).
            let code = Posix.errno
            let isLink = status(folder, name).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
            throw IOFailure(path: shown, operation: "open folder", code: isLink ? ELOOP : code)
        }
        var info = stat()
        if narrowing, fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o7777 & ~mode != 0 {
            _ = fchmod(fd, mode)
        }
        return fd
    }
}

/// Where a state file being replaced is written (`FileSystem.replaceStateFile(_:writing:)`): the
/// new file's descriptor on the real disk, or bytes kept in memory for a file system without
/// descriptors (the tests' in-memory one), which then replaces the file with them whole.
public final class StateFileOutput {
    private let fd: Int32?
    /// The new file's path, for errors.
    let path: String
    /// What was written, when it is kept in memory.
    private(set) var bytes: [UInt8] = []

    /// Output kept in memory.
    init() {
        fd = nil
        path = ""
    }

    /// Output to the open file `fd`, named `path` in errors.
    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Writes `buffer` after what was written so far.
    func write(_ buffer: UnsafeRawBufferPointer) throws(FileSystemError) {
        if let fd { try Posix.writeAll(fd, buffer, path) } else { bytes.append(contentsOf: buffer) }
    }

    func write(_ buffer: [UInt8]) throws(FileSystemError) {
        if let fd { try Posix.writeAll(fd, buffer, path) } else { bytes.append(contentsOf: buffer) }
    }

    /// Writes `buffer` over the bytes at `offset`, which were written before.
    func write(_ buffer: [UInt8], at offset: Int) throws(FileSystemError) {
        if let fd { return try Posix.writeAll(fd, buffer, at: offset, path) }
        precondition(offset >= 0 && offset + buffer.count <= bytes.count, "a state file written over past its end")
        bytes.replaceSubrange(offset..<offset + buffer.count, with: buffer)
    }
}

extension StateFileCalls {
    /// Maps `name` when it is a regular file (see `openRegular`).
    static func map(_ folder: Int32, _ name: String) -> MappedFile? {
        guard let (file, info) = openRegular(folder, name) else { return nil }
        defer { close(file) }
        return MappedFile(fd: file, status: info)
    }

    /// Removes the entry `name` unless it is a folder, when it is still the file `mapped` maps (any
    /// file when nil).
    static func remove(_ folder: Int32, _ name: String, ifStill mapped: MappedFile?) {
        if let mapped {
            guard let now = status(folder, name), UInt64(now.st_dev) == mapped.device,
                  UInt64(now.st_ino) == mapped.inode else { return }
        }
        _ = unlinkat(folder, name, 0)
    }

    /// Replaces `name` atomically with what `write` writes (see `replace`).
    static func replace(_ folder: Int32, _ name: String, shownFolder: String,
                        writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws(FileSystemError) {
        try replace(folder, name, shownFolder: shownFolder) { (file, temporary) throws(FileSystemError) in
            try write(StateFileOutput(fd: file, path: temporary))
        }
    }
}

extension IOFailure {
    /// Nothing is there (ENOENT, or a path through something that is not a folder).
    var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    /// A state file cannot be written here: a read-only or foreign folder, a link in the state
    /// folder's place, or a folder in the file's place.
    var meansStateNotWritable: Bool {
        code == EACCES || code == EPERM || code == EROFS || code == EISDIR || code == ELOOP
    }
}
