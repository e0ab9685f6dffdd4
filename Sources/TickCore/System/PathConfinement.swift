/// A file system confined to the folder `root` by checking paths: each call's path must be
/// relative and normalised, and every component of it is looked at (`status` without following)
/// before the call, so that a symbolic link anywhere below `root` is refused (ELOOP). The calls
/// reach `base` with the full path.
///
/// A link swapped in between the check and the call is not seen, so the real file system uses
/// `ConfinedFileSystem`, which holds folder descriptors; this one serves file systems without
/// descriptors (the in-memory one of the tests) with the same rules.
struct PathConfinement: FileSystem {
    let base: any FileSystem
    let root: String

    /// `root/path`, once every folder on the way and (unless `last` is false) the last component
    /// are found not to be symbolic links.
    private func checked(_ path: String, _ operation: String, last: Bool = true) throws -> String {
        let full = root + "/" + path
        guard Path.isNormalisedRelative(path) else {
            throw FileSystemError(path: full, operation: operation, code: Errno.invalid)
        }
        var prefix = root
        let components = path.split(separator: "/")
        for (k, component) in components.enumerated() {
            prefix += "/" + component
            let isLast = k == components.count - 1
            if isLast && !last { break }
            guard let status = try base.status(prefix, followSymlinks: false) else {
                if isLast { break }
                throw FileSystemError(path: full, operation: operation, code: Errno.notFound)
            }
            if status.kind == .symlink { throw FileSystemError(path: full, operation: operation, code: Errno.loop) }
            if !isLast, status.kind != .directory {
                throw FileSystemError(path: full, operation: operation, code: Errno.notDirectory)
            }
        }
        return full
    }

    func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
        try base.readFile(checked(path, "read"), followSymlinks: false)
    }

    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        let full: String
        do {
            full = try checked(path, "read", last: false)
        } catch let error as FileSystemError where error.code == Errno.notFound || error.code == Errno.notDirectory {
            return nil
        }
        return try base.status(full, followSymlinks: false)
    }

    func contents(ofDirectory path: String) throws -> [String] { try base.contents(ofDirectory: checked(path, "read")) }
    func resolvedPath(_ path: String) throws -> String { try checked(path, "resolve") }
    func isWritable(_ path: String) -> Bool { (try? base.isWritable(checked(path, "write"))) ?? true }
    func currentDirectory() throws -> String { root }

    func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
        if intermediates, !Path.parent(of: path).isEmpty, try status(Path.parent(of: path), followSymlinks: false) == nil {
            try createDirectory(Path.parent(of: path), intermediates: true, mode: 0o700)
        }
        try base.createDirectory(checked(path, "create folder"), intermediates: intermediates, mode: mode)
    }

    func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
        try base.createFile(checked(path, "create"), contents: contents, mode: mode, sync: sync)
    }

    /// Not offered: state files are replaced by a rename, never exchanged.
    func exchange(_ path: String, with other: String) throws {
        throw FileSystemError(path: root + "/" + other, operation: "replace", code: Errno.notSupported)
    }

    func rename(_ path: String, to destination: String) throws {
        try base.rename(checked(path, "rename"), to: checked(destination, "rename", last: false))
    }

    func link(_ path: String, to destination: String) throws {
        try base.link(checked(path, "create"), to: checked(destination, "create"))
    }

    func removeFile(_ path: String) throws { try base.removeFile(checked(path, "remove", last: false)) }
    func removeDirectory(_ path: String) throws { try base.removeDirectory(checked(path, "remove")) }
    func setMode(_ path: String, _ mode: UInt32) throws { try base.setMode(checked(path, "change the mode of"), mode) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(checked(path, "flush")) }
    func lock(_ path: String) throws -> FileLock { try base.lock(checked(path, "lock")) }
    func confined(to root: String) throws -> any FileSystem { PathConfinement(base: base, root: self.root + "/" + root) }
    func now() -> Int64 { base.now() }
    func pause(nanoseconds: Int64) { base.pause(nanoseconds: nanoseconds) }
}
