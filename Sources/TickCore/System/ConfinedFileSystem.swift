#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTickSystem

/// The real file system confined to one folder, for tick's own state under `.tick/`.
///
/// Paths given to it are relative to the folder and normalised (no `/` at either end, no `.` or
/// `..`). Each is resolved one component at a time from a descriptor of the folder, every
/// component opened with `O_NOFOLLOW`: a symbolic link anywhere below the folder is ELOOP, never
/// followed, and swapping a link in for a component between two calls cannot redirect the second.
/// The folder's own path (the task folder, chosen by the user) may pass through links; it is
/// opened once, when the value is made.
struct ConfinedFileSystem: FileSystem {
    /// The folder's descriptor, closed when the last copy of the value goes.
    private final class Root: @unchecked Sendable {
        let fd: Int32
        let path: String
        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }
        deinit { close(fd) }
    }

    private let root: Root

    /// The folder at `path`, which must exist.
    init(root path: String) throws(FileSystemError) {
        let fd = try systemCall(path, "open folder") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        root = Root(fd: fd, path: path)
    }

    private func shown(_ path: String) -> String { root.path + "/" + path }

    /// Runs `body` with a descriptor of the folder holding `path`'s last component and that
    /// component's name. Every folder on the way is opened without following a link.
    @discardableResult
    private func inParent<T>(_ path: String, _ operation: String,
                             _ body: (_ fd: Int32, _ name: String) throws -> T) throws -> T {
        guard Path.isNormalisedRelative(path) else {
            throw FileSystemError(path: shown(path), operation: operation, code: EINVAL)
        }
        let components = path.split(separator: "/").map(String.init)
        var fd = root.fd
        defer { if fd != root.fd { close(fd) } }
        for component in components.dropLast() {
            let next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let code = tick_errno()
                // O_DIRECTORY reports a link as ENOTDIR: say what it is.
                throw FileSystemError(path: shown(path), operation: operation, code: Self.isLink(fd, component) ? ELOOP : code)
            }
            if fd != root.fd { close(fd) }
            fd = next
        }
        return try body(fd, components.last!)
    }

    /// Whether the entry `name` of the folder `fd` is a symbolic link.
    private static func isLink(_ fd: Int32, _ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Opens `path` itself (a link is ELOOP) with `flags`.
    private func openConfined(_ path: String, _ flags: Int32, mode: mode_t = 0, _ operation: String) throws -> Int32 {
        try inParent(path, operation) { fd, name in
            do {
                return try systemCall(shown(path), operation) { openat(fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode) }
            } catch let error as FileSystemError where error.code == ENOTDIR && Self.isLink(fd, name) {
                // O_DIRECTORY reports a link as ENOTDIR: say what it is.
                throw FileSystemError(path: shown(path), operation: operation, code: ELOOP)
            }
        }
    }

    // MARK: Reading

    func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
        let fd = try openConfined(path, O_RDONLY | O_NONBLOCK, "read")
        defer { close(fd) }
        var info = stat()
        try systemCall(shown(path), "read") { fstat(fd, &info) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw FileSystemError(path: shown(path), operation: "read", code: kind == S_IFDIR ? EISDIR : EINVAL)
        }
        return try LocalFileSystem.readAll(fd, shown(path), sizeHint: Int(info.st_size))
    }

    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        do {
            return try inParent(path, "read") { fd, name -> FileStatus? in
                var info = stat()
                while fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                    let code = tick_errno()
                    if code == EINTR { continue }
                    if code == ENOENT || code == ENOTDIR { return nil }
                    throw FileSystemError(path: shown(path), operation: "read", code: code)
                }
                return LocalFileSystem.status(info)
            }
        } catch let error as FileSystemError where error.code == ENOENT || error.code == ENOTDIR {
            return nil
        }
    }

    func contents(ofDirectory path: String) throws -> [String] {
        let fd = try openConfined(path, O_RDONLY | O_DIRECTORY, "read")
        guard let dir = fdopendir(fd) else {
            let code = tick_errno()
            close(fd)
            throw FileSystemError(path: shown(path), operation: "read", code: code)
        }
        return try LocalFileSystem.names(in: dir, shown(path))
    }

    /// The path as shown in messages: confined paths are never resolved through links.
    func resolvedPath(_ path: String) throws -> String { shown(path) }

    func isWritable(_ path: String) -> Bool {
        (try? inParent(path, "write") { fd, name in
            faccessat(fd, name, W_OK, AT_SYMLINK_NOFOLLOW) == 0 || tick_errno() != EACCES
        }) ?? true
    }

    func currentDirectory() throws -> String { root.path }

    // MARK: Writing

    func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
        if intermediates, !Path.parent(of: path).isEmpty, try status(Path.parent(of: path), followSymlinks: false) == nil {
            try createDirectory(Path.parent(of: path), intermediates: true, mode: 0o700)
        }
        try inParent(path, "create folder") { fd, name in
            if mkdirat(fd, name, mode_t(mode)) != 0 {
                let code = tick_errno()
                var info = stat()
                if code == EEXIST, intermediates, fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                   info.st_mode & S_IFMT == S_IFDIR { return }
                throw FileSystemError(path: shown(path), operation: "create folder", code: code)
            }
        }
    }

    func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
        let fd = try openConfined(path, O_WRONLY | O_CREAT | O_EXCL, mode: mode_t(mode ?? 0o666), "create")
        try LocalFileSystem.fill(fd, contents, mode: mode, sync: sync, shown(path))
    }

    /// Not offered: state files are replaced by a rename, never exchanged.
    func exchange(_ path: String, with other: String) throws {
        throw FileSystemError(path: shown(other), operation: "replace", code: ENOSYS)
    }

    func rename(_ path: String, to destination: String) throws {
        try inParent(path, "rename") { from, fromName in
            try inParent(destination, "rename '\(shown(path))' to") { to, toName in
                try systemCall(shown(destination), "rename '\(shown(path))' to") { renameat(from, fromName, to, toName) }
            }
        }
    }

    func link(_ path: String, to destination: String) throws {
        try inParent(path, "create") { from, fromName in
            try inParent(destination, "create") { to, toName in
                try systemCall(shown(destination), "create") { linkat(from, fromName, to, toName, 0) }
            }
        }
    }

    func removeFile(_ path: String) throws {
        try inParent(path, "remove") { fd, name in
            try systemCall(shown(path), "remove") { unlinkat(fd, name, 0) }
        }
    }

    func removeDirectory(_ path: String) throws {
        try inParent(path, "remove") { fd, name in
            try systemCall(shown(path), "remove") { unlinkat(fd, name, AT_REMOVEDIR) }
        }
    }

    func setMode(_ path: String, _ mode: UInt32) throws {
        // Opened without following a link, then changed through the descriptor (fchmodat cannot
        // refuse a link on Linux).
        let fd = try openConfined(path, O_RDONLY | O_NONBLOCK, "change the mode of")
        defer { close(fd) }
        try systemCall(shown(path), "change the mode of") { fchmod(fd, mode_t(mode)) }
    }

    func syncDirectory(_ path: String) throws {
        let fd = try openConfined(path, O_RDONLY | O_DIRECTORY, "flush")
        defer { close(fd) }
        try systemCall(shown(path), "flush") { fsync(fd) }
    }

    func lock(_ path: String) throws -> FileLock {
        let fd = try openConfined(path, O_RDWR | O_CREAT | O_NONBLOCK, mode: 0o600, "lock")
        return try LocalFileSystem.lock(fd, shown(path))
    }

    // MARK: State files

    func readStateFile(_ path: String, limit: Int) -> [UInt8]? {
        (try? inParent(path, "read") { fd, name in StateFileCalls.read(fd, name, limit: limit, shown: shown(path)) }) ?? nil
    }

    func replaceStateFile(_ path: String, contents: [UInt8]) throws {
        let folder = Path.parent(of: path)
        try inParent(path, "write") { fd, name in
            try StateFileCalls.replace(fd, name, shownFolder: folder.isEmpty ? root.path : shown(folder)) {
                (file, temporary) throws(FileSystemError) in try Posix.writeAll(file, contents, temporary)
            }
        }
    }

    func mapStateFile(_ path: String) -> MappedFile? {
        (try? inParent(path, "read") { fd, name in StateFileCalls.map(fd, name) }) ?? nil
    }

    func replaceStateFile(_ path: String, writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws {
        let folder = Path.parent(of: path)
        try inParent(path, "write") { fd, name in
            try StateFileCalls.replace(fd, name, shownFolder: folder.isEmpty ? root.path : shown(folder), writing: write)
        }
    }

    func removeStateFile(_ path: String, ifStill mapped: MappedFile?) {
        _ = try? inParent(path, "remove") { fd, name in StateFileCalls.remove(fd, name, ifStill: mapped) }
    }

    func createStateDirectory(_ path: String, mode: UInt32, narrowing: Bool) throws {
        try inParent(path, "create folder") { fd, name in
            close(try StateFileCalls.openFolder(fd, name, create: true, mode: mode_t(mode), narrowing: narrowing,
                                                shown: shown(path)))
        }
    }

    // MARK: Time

    func now() -> Int64 { SystemClock.nanoseconds() }

    func pause(nanoseconds: Int64) { LocalFileSystem().pause(nanoseconds: nanoseconds) }
}
