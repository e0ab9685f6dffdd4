// The one interface between tick and the file system: every read and write of the folder and
// of its `.tick/` state goes through a `FileSystem`. `LocalFileSystem` is the real one; the tests
// substitute an in-memory one that can fail any call or run a hook between two calls.

// MARK: - Errors

/// A failed file-system call: the path, what tick was doing to it, and the errno.
///
/// Its message has one shape everywhere: `cannot OPERATION 'PATH': REASON`.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as tick names it to the user (relative to the task folder where tick knows one).
    public var path: String
    /// What tick was doing, as a verb phrase: "read", "write", "create", "rename", "remove", "lock"…
    public var operation: String
    /// The errno value.
    public var code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// Maps an errno value from `operation` on `path` to an error.
    public init(errno code: Int32, path: String, operation: String) {
        self.init(path: path, operation: operation, code: code)
    }

    /// The kinds of failure tick tells apart.
    public enum Kind: Equatable, Sendable {
        case notFound, permissionDenied, notADirectory, isADirectory, symlinkLoop, alreadyExists
        case noSpace, readOnlyFileSystem, nameTooLong, notEmpty, other
    }

    public var kind: Kind { Errno.kind(of: code) }

    /// What went wrong, without the path.
    public var reason: String {
        switch kind {
        case .notFound: return "no such file or folder"
        case .permissionDenied: return "permission denied"
        case .notADirectory: return "not a folder"
        case .isADirectory: return "is a folder"
        case .symlinkLoop: return "symbolic link loop, or a link where none is allowed"
        case .alreadyExists: return "already exists"
        case .noSpace: return "no space left on device"
        case .readOnlyFileSystem: return "read-only file system"
        case .nameTooLong: return "name too long"
        case .notEmpty: return "folder not empty"
        case .other:
            let text = Errno.message(code)
            return (text.first.map { String($0).lowercased() } ?? "") + text.dropFirst()
        }
    }

    public var description: String { "cannot \(operation) '\(path)': \(reason)" }

    /// The same failure, named after another path and operation (a list rather than its temporary file).
    public func named(_ path: String, _ operation: String? = nil) -> FileSystemError {
        FileSystemError(path: path, operation: operation ?? self.operation, code: code)
    }

    // `catch FileSystemError.notFound` and the like.
    public static let notFound = Kind.notFound
    public static let permissionDenied = Kind.permissionDenied
    public static let notADirectory = Kind.notADirectory
    public static let isADirectory = Kind.isADirectory
    public static let symlinkLoop = Kind.symlinkLoop
    public static let alreadyExists = Kind.alreadyExists
}

/// Matches a `FileSystemError` of this kind, so that `catch FileSystemError.notFound` reads as for an enum.
public func ~= (kind: FileSystemError.Kind, error: any Error) -> Bool {
    (error as? FileSystemError)?.kind == kind
}

/// The former name of `FileSystemError`, kept while callers move over.
public typealias IOFailure = FileSystemError

// MARK: - Status

/// What a path names, as `stat` sees it.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case file, directory, symlink, other }
    public var kind: Kind
    public var size: Int
    public var device: UInt64
    public var inode: UInt64
    /// Modification time in nanoseconds since the epoch.
    public var modified: Int64
    /// Status-change time in nanoseconds since the epoch.
    public var changed: Int64
    /// Permission bits (`0o7777` at most).
    public var mode: UInt32
    /// Number of hard links.
    public var links: Int

    public init(kind: Kind, size: Int = 0, device: UInt64 = 0, inode: UInt64 = 0,
                modified: Int64 = 0, changed: Int64 = 0, mode: UInt32 = 0o644, links: Int = 1) {
        self.kind = kind
        self.size = size
        self.device = device
        self.inode = inode
        self.modified = modified
        self.changed = changed
        self.mode = mode
        self.links = links
    }

    /// Whether two statuses name the same file (device and inode).
    public func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}

/// A lock held on a file until the value goes away.
public final class FileLock {
    private let release: () -> Void
    public init(release: @escaping () -> Void) { self.release = release }
    deinit { release() }
}

// MARK: - Interface

/// The file-system calls tick makes.
///
/// Paths are plain strings; relative paths are relative to the process's working folder. Calls
/// that change a name never follow a symbolic link in its last component (they create, rename or
/// remove the link itself); reads follow one unless told not to.
public protocol FileSystem: Sendable {
    // Reading
    /// The whole content of a regular file. A folder is EISDIR, another kind of file (a FIFO, a
    /// device) is EINVAL and is never opened for blocking reads. With `followSymlinks` false, a
    /// link in the last component is ELOOP.
    func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8]
    /// The status of `path`, following a final symbolic link unless `followSymlinks` is false;
    /// nil when nothing exists there (or a followed link dangles).
    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus?
    /// The names in a folder, without `.` and `..`, in no particular order.
    func contents(ofDirectory path: String) throws -> [String]
    /// The status of each of `names` in the folder `directory`, not following a final symbolic
    /// link: what `status(directory/name, followSymlinks: false)` gives for each, in order.
    func statuses(of names: [String], in directory: String) -> [Result<FileStatus?, FileSystemError>]
    /// The absolute path with every symbolic link resolved (`realpath`).
    func resolvedPath(_ path: String) throws -> String
    /// Whether this process may write the file: false when `access(W_OK)` is refused for permission.
    func isWritable(_ path: String) -> Bool
    /// The process's working folder.
    func currentDirectory() throws -> String

    // Writing
    /// Creates a folder with `mode & ~umask`; with `intermediates`, also its missing parents, and an
    /// existing folder is fine. Without, an existing name is EEXIST.
    func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws
    /// Writes a new file that must not exist yet (EEXIST otherwise, a symbolic link included): created,
    /// written, given `mode` exactly (`0o666 & ~umask` when nil), then flushed to disk when `sync`.
    func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws
    /// Writes `contents` into the file already at `path` without replacing it, following links: for
    /// a character device, a FIFO, a socket or a pipe (`/dev/stdout`), never created or truncated. A
    /// regular file is EINVAL and a folder EISDIR, both before a byte is written.
    func writeInPlace(_ path: String, contents: [UInt8]) throws
    /// Swaps two names atomically (Linux `renameat2` with `RENAME_EXCHANGE`). EINVAL, ENOSYS or
    /// EXDEV means the file system cannot.
    func exchange(_ path: String, with other: String) throws
    /// Renames `path` to `destination`, replacing a file there.
    func rename(_ path: String, to destination: String) throws
    /// Gives the file at `path` a second name; EEXIST when `destination` is taken.
    func link(_ path: String, to destination: String) throws
    /// Removes a name that is not a folder.
    func removeFile(_ path: String) throws
    /// Removes an empty folder.
    func removeDirectory(_ path: String) throws
    /// Sets the permission bits of `path` (following a link).
    func setMode(_ path: String, _ mode: UInt32) throws
    /// Flushes a folder, so that the names just changed in it are on disk.
    func syncDirectory(_ path: String) throws
    /// Takes an exclusive lock on the file at `path` (created `0600` when missing, never through a
    /// symbolic link), waiting for other processes; released when the lock goes away.
    func lock(_ path: String) throws -> FileLock

    // State files
    /// The whole of tick's state file at `path` (`.tick/pick`, the reminder state): its bytes when it
    /// is a regular file of at most `limit` bytes in a folder that is not a symbolic link, reached
    /// without following one; nil for anything else (nothing there, a link, a FIFO, a device, a
    /// folder, a larger file, a failed read), and a FIFO or device is never opened. The size is
    /// looked at before a byte is read. A file of ours more readable than 0600 is narrowed to 0600.
    func readStateFile(_ path: String, limit: Int) -> [UInt8]?
    /// Replaces tick's state file at `path` atomically with `contents`: a new temporary file beside
    /// it (mode 0600, created exclusively, never through a link) is renamed over it. Its folder must
    /// be a folder, not a link (ELOOP). On failure the temporary file is removed and `path` is left.
    func replaceStateFile(_ path: String, contents: [UInt8]) throws
    /// Creates tick's state folder `path` with `mode` when missing (its parent must exist). An
    /// existing folder is used as it is, except that with `narrowing` one more readable than `mode`
    /// is narrowed to `mode`. A link there is ELOOP, a file ENOTDIR.
    func createStateDirectory(_ path: String, mode: UInt32, narrowing: Bool) throws
    /// Maps tick's state file at `path` (the cache) for reading, by the rules of `readStateFile`
    /// but with no limit on its size; nil for anything else, and for an empty file.
    func mapStateFile(_ path: String) -> MappedFile?
    /// Replaces tick's state file at `path` atomically, as `replaceStateFile(_:contents:)` does,
    /// with what `write` writes to the output it is given: for a file too large to build whole in
    /// memory first (the cache).
    func replaceStateFile(_ path: String, writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws
    /// Removes tick's state file at `path`, never following a link nor removing a folder, when it is
    /// still the file `mapped` maps (any file when nil). Failing is not reported: a state file left
    /// behind is checked again when it is next read.
    func removeStateFile(_ path: String, ifStill mapped: MappedFile?)

    // Confinement
    /// The file system as seen from inside the folder `root`, for tick's own state: paths given to
    /// the result are relative to `root` and normalised, and a symbolic link at any of their
    /// components is refused (ELOOP), never followed. `root`'s own path may pass through links.
    func confined(to root: String) throws -> any FileSystem

    // Time
    /// The wall clock in nanoseconds since the epoch: the clock modification times are in.
    func now() -> Int64
    /// Waits about `nanoseconds`.
    func pause(nanoseconds: Int64)
}

extension FileSystem {
    /// Checks each component with `status` before every call (`PathConfinement`); the real file
    /// system does better, holding descriptors (`ConfinedFileSystem`).
    public func confined(to root: String) throws -> any FileSystem { PathConfinement(base: self, root: root) }

    public func readFile(_ path: String) throws -> [UInt8] { try readFile(path, followSymlinks: true) }

    // MARK: State files from the calls above

    // The real disk does these on descriptors (`StateFileCalls`); a file system without them (the
    // in-memory one of the tests, `PathConfinement` over it) checks each name with `status` first.

    public func readStateFile(_ path: String, limit: Int) -> [UInt8]? {
        guard isStateFolder(Path.parent(of: path)),
              let info = (try? status(path, followSymlinks: false)) ?? nil, info.kind == .file, info.size <= limit,
              let bytes = try? readFile(path, followSymlinks: false), bytes.count <= limit
        else { return nil }
        if info.mode & 0o077 != 0 { try? setMode(path, 0o600) }
        return bytes
    }

    public func replaceStateFile(_ path: String, contents: [UInt8]) throws {
        let folder = Path.parent(of: path)
        guard isStateFolder(folder) else {
            let found = try status(folder.isEmpty ? "." : folder, followSymlinks: false)
            let code = found == nil ? Errno.notFound : found?.kind == .symlink ? Errno.loop : Errno.notDirectory
            throw FileSystemError(path: path, operation: "write", code: code)
        }
        let temporary = "\(path).\(CurrentProcess.id).tmp"
        // A leftover of a process with the same id: removing a name never follows it.
        try? removeFile(temporary)
        try createFile(temporary, contents: contents, mode: 0o600, sync: false)
        do {
            try rename(temporary, to: path)
        } catch {
            try? removeFile(temporary)
            throw error
        }
    }

    public func createStateDirectory(_ path: String, mode: UInt32, narrowing: Bool) throws {
        do {
            try createDirectory(path, intermediates: false, mode: mode)
            return
        } catch FileSystemError.alreadyExists {
            // Used as it is, once known to be a folder.
        }
        let found = try status(path, followSymlinks: false)
        guard let found, found.kind == .directory else {
            let code = found == nil ? Errno.notFound : found?.kind == .symlink ? Errno.loop : Errno.notDirectory
            throw FileSystemError(path: path, operation: "open folder", code: code)
        }
        if narrowing, found.mode & 0o7777 & ~mode != 0 { try setMode(path, mode) }
    }

    public func mapStateFile(_ path: String) -> MappedFile? {
        guard let info = (try? status(path, followSymlinks: false)) ?? nil, info.kind == .file,
              let bytes = readStateFile(path, limit: Int.max),
              let after = (try? status(path, followSymlinks: false)) ?? nil, after.isSameFile(as: info)
        else { return nil }
        return MappedFile(copying: bytes, device: info.device, inode: info.inode)
    }

    public func replaceStateFile(_ path: String, writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws {
        let output = StateFileOutput()
        try write(output)
        try replaceStateFile(path, contents: output.bytes)
    }

    public func removeStateFile(_ path: String, ifStill mapped: MappedFile?) {
        guard let found = (try? status(path, followSymlinks: false)) ?? nil, found.kind != .directory else { return }
        if let mapped, found.device != mapped.device || found.inode != mapped.inode { return }
        try? removeFile(path)
    }

    /// Whether `path` (the current folder when empty) is a folder, not a link to one.
    private func isStateFolder(_ path: String) -> Bool {
        path.isEmpty || (try? status(path, followSymlinks: false))??.kind == .directory
    }

    /// Only the real file system has devices, FIFOs and sockets to write to.
    public func writeInPlace(_ path: String, contents: [UInt8]) throws {
        throw FileSystemError(path: path, operation: "write", code: Errno.invalid)
    }

    public func status(_ path: String) throws -> FileStatus? { try status(path, followSymlinks: true) }

    /// One `status` call a name.
    public func statuses(of names: [String], in directory: String) -> [Result<FileStatus?, FileSystemError>] {
        names.map { name in
            do {
                return .success(try status(Path.join(directory, name), followSymlinks: false))
            } catch let error as FileSystemError {
                return .failure(error)
            } catch {
                preconditionFailure("FileSystem threw \(error)")
            }
        }
    }

    public func isDirectory(_ path: String) -> Bool { (try? status(path))??.kind == .directory }

    public func createDirectory(_ path: String, intermediates: Bool) throws {
        try createDirectory(path, intermediates: intermediates, mode: 0o777)
    }

    public func createFile(_ path: String, contents: [UInt8]) throws {
        try createFile(path, contents: contents, mode: nil, sync: false)
    }

    /// The file's bytes, or nil when nothing is there.
    public func readIfPresent(_ path: String, followSymlinks: Bool = true) throws -> [UInt8]? {
        do {
            return try readFile(path, followSymlinks: followSymlinks)
        } catch FileSystemError.notFound {
            return nil
        }
    }

    /// Removes a folder and what it holds, never following a symbolic link (a link is removed, not
    /// its target). A missing folder is fine.
    public func removeTree(_ path: String) throws {
        guard let status = try status(path, followSymlinks: false) else { return }
        guard status.kind == .directory else { return try removeFile(path) }
        for name in try contents(ofDirectory: path) { try removeTree(path + "/" + name) }
        try removeDirectory(path)
    }
}

// MARK: - Paths

/// Plain string operations on `/`-separated paths (no file-system access).
public enum Path {
    /// `base/relative`, or `relative` alone when it is absolute.
    public static func join(_ base: String, _ relative: String) -> String {
        if relative.utf8.first == UInt8(ascii: "/") || base.isEmpty { return relative }
        if relative.isEmpty { return base }
        // Made in one buffer of the right size (a folder scan joins a path for every list).
        var joined = base
        joined.reserveCapacity(base.utf8.count + 1 + relative.utf8.count)
        if base.utf8.last != UInt8(ascii: "/") { joined.append("/") }
        joined.append(relative)
        return joined
    }

    /// The indices of `strings` in the order of their UTF-8 bytes (the order of list paths and of
    /// the names of a folder's walk), equal strings in their given order. Each string's first 16
    /// bytes, as two big-endian numbers, decide most comparisons (a shorter string is padded with
    /// zeros, which no path holds); only strings that share those are compared whole.
    public static func byteOrder(_ strings: [String]) -> [Int] {
        var keys: [(high: UInt64, low: UInt64, index: Int)] = []
        keys.reserveCapacity(strings.count)
        for (k, string) in strings.enumerated() {
            var high: UInt64 = 0, low: UInt64 = 0, shift = 120
            for byte in string.utf8.prefix(16) {
                if shift >= 64 { high |= UInt64(byte) << UInt64(shift - 64) } else { low |= UInt64(byte) << UInt64(shift) }
                shift -= 8
            }
            keys.append((high, low, k))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            let x = strings[a.index].utf8, y = strings[b.index].utf8
            if x.elementsEqual(y) { return a.index < b.index }
            return x.lexicographicallyPrecedes(y)
        }
        return keys.map(\.index)
    }

    /// The folder holding `path` (`/` for a top-level entry, "" for a bare name).
    public static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component of `path`.
    public static func name(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved lexically (symbolic links are not followed).
    public static func absolute(_ path: String, from currentDirectory: String) -> String {
        let full = path.hasPrefix("/") ? path : join(currentDirectory, path)
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `folder` when it lies inside it (both absolute and normalised), else nil.
    public static func relative(_ path: String, to folder: String) -> String? {
        if folder == "/" { return path.hasPrefix("/") && path != "/" ? String(path.dropFirst()) : nil }
        guard path.hasPrefix(folder + "/") else { return nil }
        return String(path.dropFirst(folder.count + 1))
    }

    /// Whether `path` is relative and normalised: not empty, no leading or trailing `/`, no empty,
    /// `.` or `..` component, no NUL or other control character.
    public static func isNormalisedRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasSuffix("/") else { return false }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
    }
}
