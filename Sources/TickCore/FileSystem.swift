#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Errors

/// A failed file-system call, named after its errno, with the path it concerned.
public enum FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case permissionDenied(path: String)
    case notADirectory(path: String)
    case isADirectory(path: String)
    case symlinkLoop(path: String)
    case alreadyExists(path: String)
    case noSpace(path: String)
    case readOnlyFileSystem(path: String)
    case nameTooLong(path: String)
    /// Any other errno, with the operation that failed.
    case other(path: String, operation: String, errno: Int32)

    /// Maps an errno value from `operation` on `path` to a named error.
    public init(errno code: Int32, path: String, operation: String) {
        switch code {
        case ENOENT: self = .notFound(path: path)
        case EACCES, EPERM: self = .permissionDenied(path: path)
        case ENOTDIR: self = .notADirectory(path: path)
        case EISDIR: self = .isADirectory(path: path)
        case ELOOP: self = .symlinkLoop(path: path)
        case EEXIST: self = .alreadyExists(path: path)
        case ENOSPC, EDQUOT: self = .noSpace(path: path)
        case EROFS: self = .readOnlyFileSystem(path: path)
        case ENAMETOOLONG: self = .nameTooLong(path: path)
        default: self = .other(path: path, operation: operation, errno: code)
        }
    }

    public var path: String {
        switch self {
        case .notFound(let p), .permissionDenied(let p), .notADirectory(let p), .isADirectory(let p),
             .symlinkLoop(let p), .alreadyExists(let p), .noSpace(let p), .readOnlyFileSystem(let p),
             .nameTooLong(let p), .other(let p, _, _):
            return p
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .notFound: return "no such file or folder"
        case .permissionDenied: return "permission denied"
        case .notADirectory: return "not a folder"
        case .isADirectory: return "is a folder"
        case .symlinkLoop: return "symbolic link loop"
        case .alreadyExists: return "already exists"
        case .noSpace: return "no space left on device"
        case .readOnlyFileSystem: return "read-only file system"
        case .nameTooLong: return "name too long"
        case .other(_, let operation, let code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    public var description: String { "'\(path)': \(reason)" }
}

// MARK: - Interface

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
    public var mode: UInt32

    public init(kind: Kind, size: Int = 0, device: UInt64 = 0, inode: UInt64 = 0,
                modified: Int64 = 0, changed: Int64 = 0, mode: UInt32 = 0o644) {
        self.kind = kind
        self.size = size
        self.device = device
        self.inode = inode
        self.modified = modified
        self.changed = changed
        self.mode = mode
    }
}

/// The file-system calls tick makes, so that tests can substitute their own.
///
/// Paths are plain strings; relative paths are relative to the process's working folder.
public protocol FileSystem: Sendable {
    /// The whole content of a regular file (following symbolic links).
    func readFile(_ path: String) throws -> [UInt8]
    /// The status of `path`, following a final symbolic link unless `followSymlinks` is false;
    /// nil when nothing exists there (or a followed link dangles).
    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus?
    /// The names in a folder, without `.` and `..`, in no particular order.
    func contents(ofDirectory path: String) throws -> [String]
    /// Creates a folder; with `intermediates`, also its missing parents, and an existing folder is fine.
    func createDirectory(_ path: String, intermediates: Bool) throws
    /// Writes a new file that must not exist yet (`O_EXCL`), with permissions `0666 & ~umask`.
    func createFile(_ path: String, contents: [UInt8]) throws
    /// The process's working folder.
    func currentDirectory() throws -> String
}

extension FileSystem {
    public func status(_ path: String) throws -> FileStatus? { try status(path, followSymlinks: true) }

    public func isDirectory(_ path: String) -> Bool { (try? status(path))??.kind == .directory }
}

// MARK: - Local file system

/// The real file system, through POSIX calls: errno becomes `FileSystemError`, EINTR is retried.
public struct LocalFileSystem: FileSystem {
    public init() {}

    public func readFile(_ path: String) throws -> [UInt8] {
        do {
            return try Posix.readFile(path).bytes
        } catch {
            throw FileSystemError(errno: error.code, path: path, operation: error.operation)
        }
    }

    public func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        var info = stat()
        while true {
            let rc = followSymlinks ? stat(path, &info) : lstat(path, &info)
            if rc == 0 { break }
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT || code == ENOTDIR { return nil }
            throw FileSystemError(errno: code, path: path, operation: followSymlinks ? "stat" : "lstat")
        }
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
            mode: UInt32(info.st_mode & 0o7777))
    }

    public func contents(ofDirectory path: String) throws -> [String] {
        guard let dir = opendir(path) else {
            throw FileSystemError(errno: errno, path: path, operation: "opendir")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw FileSystemError(errno: errno, path: path, operation: "readdir") }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    public func createDirectory(_ path: String, intermediates: Bool) throws {
        if intermediates {
            if isDirectory(path) { return }
            let parent = Path.parent(of: path)
            if parent != path, !parent.isEmpty { try createDirectory(parent, intermediates: true) }
        }
        while mkdir(path, 0o777) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EEXIST, intermediates, isDirectory(path) { return }
            throw FileSystemError(errno: code, path: path, operation: "mkdir")
        }
    }

    public func createFile(_ path: String, contents: [UInt8]) throws {
        let fd = try retrying(path, "open") { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
        var closed = false
        defer { if !closed { close(fd) } }
        var written = 0
        while written < contents.count {
            let n = try contents.withUnsafeBytes { raw in
                try retrying(path, "write") { write(fd, raw.baseAddress! + written, contents.count - written) }
            }
            written += n
        }
        closed = true
        if close(fd) != 0 { throw FileSystemError(errno: errno, path: path, operation: "close") }
    }

    public func currentDirectory() throws -> String {
        guard let p = getcwd(nil, 0) else { throw FileSystemError(errno: errno, path: ".", operation: "getcwd") }
        defer { free(p) }
        return String(cString: p)
    }

    /// Runs a system call until it does not fail with EINTR; another failure throws.
    private func retrying<T: BinaryInteger>(_ path: String, _ operation: String, _ call: () -> T) throws -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw FileSystemError(errno: code, path: path, operation: operation) }
        }
    }
}

// MARK: - Paths

/// Plain string operations on `/`-separated paths (no file-system access).
public enum Path {
    /// `base/relative`, or `relative` alone when it is absolute.
    public static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || base.isEmpty { return relative }
        if relative.isEmpty { return base }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
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
}
