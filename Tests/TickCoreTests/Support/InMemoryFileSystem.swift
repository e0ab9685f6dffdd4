import Foundation
@testable import TickCore

/// A file system held in memory, for tests of the write side: every call can be made to fail
/// with a given errno, a hook runs before each call (to save a file as an editor would between
/// two of tick's calls), and a crash can be simulated at any changing call (that call and every
/// later one fail, as if the process had been killed; `restart()` is the next process).
///
/// It follows POSIX closely enough for tick: inodes with link counts, symbolic links (followed
/// in the middle of a path, in the last component only where the real call does), `rename`
/// replacing a file, `RENAME_EXCHANGE`, `link` refusing a taken name, `O_EXCL` creation.
final class InMemoryFileSystem: FileSystem, @unchecked Sendable {
    /// The calls a test can fail or watch.
    enum Operation: String, CaseIterable, Sendable {
        case read, status, list, resolve
        case createDirectory, create, write, sync, exchange, rename, link, remove, removeDirectory, setMode, syncDirectory, lock
        case pause

        /// Whether the call changes the file system (a crash can happen there).
        var changes: Bool {
            switch self {
            case .read, .status, .list, .resolve, .lock, .pause: return false
            default: return true
            }
        }
    }

    /// One call as the hook and the log see it.
    struct Call: Equatable, CustomStringConvertible {
        var operation: Operation
        var path: String
        var description: String { "\(operation.rawValue) \(path)" }
    }

    /// What a crashed process's calls throw.
    struct Crash: Error, Equatable {}

    final class Node {
        enum Kind { case file, directory, symlink, fifo }
        var kind: Kind
        var bytes: [UInt8] = []
        var children: [String: Node] = [:]
        var target = ""
        var mode: UInt32
        let inode: UInt64
        var links = 1
        var modified: Int64 = 0

        init(_ kind: Kind, mode: UInt32, inode: UInt64) {
            self.kind = kind
            self.mode = mode
            self.inode = inode
        }
    }

    private var nextInode: UInt64 = 1
    private(set) var root: Node
    var cwd = "/"
    /// The clock, in nanoseconds: each change moves it on by a microsecond, a pause by its length.
    private(set) var clock: Int64 = 1_000_000_000_000

    private struct Failure {
        var operation: Operation
        var path: String?
        var code: Int32
        var skip: Int
    }

    private var failures: [Failure] = []
    /// Runs before every call tick makes (not the calls the hook itself makes).
    var beforeCall: ((Call) -> Void)?
    /// Every call tick made, in order.
    private(set) var log: [Call] = []
    /// The number of changing calls made so far.
    private(set) var changingCalls = 0
    private var crashAt: Int?
    /// The number of calls made so far (every operation), and the one to fail, with its errno.
    private(set) var calls = 0
    private var failAtCall: (number: Int, code: Int32)?
    private(set) var crashed = false
    private var inHook = false
    /// Loading reads lists from several threads at once; a hook may call back in.
    private let mutex = NSRecursiveLock()

    init() {
        root = Node(.directory, mode: 0o755, inode: 0)
    }

    // MARK: Test controls

    /// Makes the `occurrence`-th call of `operation` (on a path containing `path`, when given) fail with `code`.
    func fail(_ operation: Operation, path: String? = nil, with code: Int32, occurrence: Int = 1) {
        failures.append(Failure(operation: operation, path: path, code: code, skip: occurrence - 1))
    }

    /// Makes the `n`-th call from now (1 = the next), whatever its operation, fail with `code`.
    func fail(call n: Int, with code: Int32) {
        failAtCall = (calls + n, code)
    }

    /// The process dies at its `n`-th changing call from now (1 = the next), before the call happens.
    func crash(atChange n: Int) {
        crashAt = changingCalls + n
    }

    /// A new process: calls work again; failures, hooks and the log are cleared.
    func restart() {
        crashed = false
        crashAt = nil
        failures = []
        failAtCall = nil
        beforeCall = nil
        log = []
    }

    private func enter(_ operation: Operation, _ path: String) throws {
        if crashed { throw Crash() }
        guard !inHook else { return }
        log.append(Call(operation: operation, path: path))
        calls += 1
        if let hook = beforeCall {
            inHook = true
            hook(Call(operation: operation, path: path))
            inHook = false
        }
        if let failAt = failAtCall, calls == failAt.number {
            failAtCall = nil
            throw FileSystemError(path: path, operation: operation.rawValue, code: failAt.code)
        }
        if operation.changes {
            changingCalls += 1
            if let crashAt, changingCalls >= crashAt {
                crashed = true
                throw Crash()
            }
        }
        if let i = failures.firstIndex(where: { $0.operation == operation && ($0.path.map { path.contains($0) } ?? true) }) {
            if failures[i].skip > 0 {
                failures[i].skip -= 1
            } else {
                let code = failures.remove(at: i).code
                throw FileSystemError(path: path, operation: operation.rawValue, code: code)
            }
        }
    }

    private func newNode(_ kind: Node.Kind, mode: UInt32) -> Node {
        nextInode += 1
        let node = Node(kind, mode: mode, inode: nextInode)
        clock += 1_000
        node.modified = clock
        return node
    }

    private func touch(_ node: Node) {
        clock += 1_000
        node.modified = clock
    }

    func now() -> Int64 {
        mutex.lock()
        defer { mutex.unlock() }
        return clock
    }

    /// Moves the clock on; the hook sees the pause (an in-place writer can write its next piece then).
    func pause(nanoseconds: Int64) {
        mutex.lock()
        defer { mutex.unlock() }
        try? enter(.pause, "\(nanoseconds)")
        clock += max(nanoseconds, 0)
    }

    /// The file at `path` as a program that opened it holds it: writes reach it whatever its name becomes.
    func open(_ path: String) -> Node {
        direct { try! locate(path, followFinal: true, .read).node! }
    }

    /// Writes through an open file (an in-place writer's next piece), or truncates it first.
    func write(_ node: Node, _ text: String, truncating: Bool = false) {
        mutex.lock()
        defer { mutex.unlock() }
        if truncating { node.bytes = [] }
        node.bytes += Array(text.utf8)
        touch(node)
    }

    // MARK: Paths

    private func components(_ path: String) -> [String] {
        let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
        return absolute.split(separator: "/").map(String.init)
    }

    private func error(_ path: String, _ operation: Operation, _ code: Int32) -> FileSystemError {
        FileSystemError(path: path, operation: operation.rawValue, code: code)
    }

    /// The real components of `path` (every link on the way followed; the last one too when
    /// `followFinal`). The last component may not exist; every one before must be a folder.
    private func canonical(_ path: String, followFinal: Bool, _ operation: Operation) throws -> [String] {
        var resolved: [String] = []
        var pending = Array(components(path).reversed())
        var links = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
                continue
            }
            let folder = try node(at: resolved, path, operation)
            guard folder.kind == .directory else { throw error(path, operation, Errno.notDirectory) }
            guard let child = folder.children[part] else {
                if pending.isEmpty { return resolved + [part] }
                throw error(path, operation, Errno.notFound)
            }
            if child.kind == .symlink, !pending.isEmpty || followFinal {
                links += 1
                if links > 40 { throw error(path, operation, Errno.loop) }
                if child.target.hasPrefix("/") { resolved = [] }
                pending.append(contentsOf: child.target.split(separator: "/").map(String.init).reversed())
                continue
            }
            if !pending.isEmpty, child.kind != .directory { throw error(path, operation, Errno.notDirectory) }
            resolved.append(part)
        }
        return resolved
    }

    private func node(at parts: [String], _ path: String, _ operation: Operation) throws -> Node {
        var current = root
        for part in parts {
            guard current.kind == .directory, let next = current.children[part] else { throw error(path, operation, Errno.notFound) }
            current = next
        }
        return current
    }

    /// The folder holding the last component, its name, and what is there.
    private func locate(_ path: String, followFinal: Bool, _ operation: Operation) throws -> (folder: Node, name: String, node: Node?) {
        let parts = try canonical(path, followFinal: followFinal, operation)
        guard let name = parts.last else { return (root, "", root) }
        let folder = try node(at: Array(parts.dropLast()), path, operation)
        guard folder.kind == .directory else { throw error(path, operation, Errno.notDirectory) }
        return (folder, name, folder.children[name])
    }

    // MARK: Reading

    func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.read, path)
        guard let node = try locate(path, followFinal: followSymlinks, .read).node else { throw error(path, .read, Errno.notFound) }
        switch node.kind {
        case .file: return node.bytes
        case .directory: throw error(path, .read, Errno.isDirectory)
        case .symlink: throw error(path, .read, Errno.loop)
        case .fifo: throw error(path, .read, Errno.invalid)
        }
    }

    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.status, path)
        let found: Node?
        do {
            found = try locate(path, followFinal: followSymlinks, .status).node
        } catch let failure as FileSystemError where failure.code == Errno.notFound || failure.code == Errno.notDirectory {
            return nil
        }
        guard let node = found else { return nil }
        let kind: FileStatus.Kind = switch node.kind {
        case .file: .file
        case .directory: .directory
        case .symlink: .symlink
        case .fifo: .other
        }
        return FileStatus(kind: kind, size: node.kind == .file ? node.bytes.count : 0, device: 1, inode: node.inode,
                          modified: node.modified, changed: node.modified, mode: node.mode, links: node.links)
    }

    func contents(ofDirectory path: String) throws -> [String] {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.list, path)
        guard let node = try locate(path, followFinal: true, .list).node else { throw error(path, .list, Errno.notFound) }
        guard node.kind == .directory else { throw error(path, .list, Errno.notDirectory) }
        return node.children.keys.sorted()
    }

    func resolvedPath(_ path: String) throws -> String {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.resolve, path)
        let parts = try canonical(path, followFinal: true, .resolve)
        guard try locate("/" + parts.joined(separator: "/"), followFinal: false, .resolve).node != nil else {
            throw error(path, .resolve, Errno.notFound)
        }
        return "/" + parts.joined(separator: "/")
    }

    func isWritable(_ path: String) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard let node = try? locate(path, followFinal: true, .status).node else { return false }
        return node.mode & 0o200 != 0
    }

    func currentDirectory() throws -> String { cwd }

    // MARK: Writing

    func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.createDirectory, path)
        if intermediates {
            let parts = components(path)
            for k in 1...max(parts.count, 1) where k <= parts.count {
                let prefix = "/" + parts.prefix(k).joined(separator: "/")
                let (folder, name, existing) = try locate(prefix, followFinal: true, .createDirectory)
                if let existing {
                    guard existing.kind == .directory else { throw error(path, .createDirectory, Errno.exists) }
                    continue
                }
                folder.children[name] = newNode(.directory, mode: mode & 0o755)
            }
            return
        }
        let (folder, name, existing) = try locate(path, followFinal: false, .createDirectory)
        guard existing == nil else { throw error(path, .createDirectory, Errno.exists) }
        folder.children[name] = newNode(.directory, mode: mode & 0o755)
        touch(folder)
    }

    func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.create, path)
        let (folder, name, existing) = try locate(path, followFinal: false, .create)
        guard existing == nil else { throw error(path, .create, Errno.exists) }
        let node = newNode(.file, mode: (mode ?? 0o666) & (mode == nil ? 0o644 : 0o7777))
        folder.children[name] = node
        touch(folder)
        try enter(.write, path)
        node.bytes = contents
        touch(node)
        if sync { try enter(.sync, path) }
    }

    func exchange(_ path: String, with other: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.exchange, other)
        let a = try locate(path, followFinal: false, .exchange)
        let b = try locate(other, followFinal: false, .exchange)
        guard let first = a.node, let second = b.node else { throw error(other, .exchange, Errno.notFound) }
        a.folder.children[a.name] = second
        b.folder.children[b.name] = first
        touch(a.folder)
        touch(b.folder)
    }

    func rename(_ path: String, to destination: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.rename, destination)
        let from = try locate(path, followFinal: false, .rename)
        let to = try locate(destination, followFinal: false, .rename)
        guard let moving = from.node else { throw error(destination, .rename, Errno.notFound) }
        if from.folder === to.folder, from.name == to.name { return }
        if let replaced = to.node {
            if replaced.kind == .directory {
                guard moving.kind == .directory else { throw error(destination, .rename, Errno.isDirectory) }
                guard replaced.children.isEmpty else { throw error(destination, .rename, Errno.notEmpty) }
            } else if moving.kind == .directory {
                throw error(destination, .rename, Errno.notDirectory)
            }
            replaced.links -= 1
        }
        from.folder.children[from.name] = nil
        to.folder.children[to.name] = moving
        touch(from.folder)
        touch(to.folder)
    }

    func link(_ path: String, to destination: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.link, destination)
        guard let node = try locate(path, followFinal: false, .link).node else { throw error(destination, .link, Errno.notFound) }
        guard node.kind != .directory else { throw error(destination, .link, Errno.notPermitted) }
        let to = try locate(destination, followFinal: false, .link)
        guard to.node == nil else { throw error(destination, .link, Errno.exists) }
        to.folder.children[to.name] = node
        node.links += 1
        touch(to.folder)
    }

    func removeFile(_ path: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.remove, path)
        let found = try locate(path, followFinal: false, .remove)
        guard let node = found.node else { throw error(path, .remove, Errno.notFound) }
        guard node.kind != .directory else { throw error(path, .remove, Errno.isDirectory) }
        found.folder.children[found.name] = nil
        node.links -= 1
        touch(found.folder)
    }

    func removeDirectory(_ path: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.removeDirectory, path)
        let found = try locate(path, followFinal: false, .removeDirectory)
        guard let node = found.node else { throw error(path, .removeDirectory, Errno.notFound) }
        guard node.kind == .directory else { throw error(path, .removeDirectory, Errno.notDirectory) }
        guard node.children.isEmpty else { throw error(path, .removeDirectory, Errno.notEmpty) }
        found.folder.children[found.name] = nil
        touch(found.folder)
    }

    func setMode(_ path: String, _ mode: UInt32) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.setMode, path)
        guard let node = try locate(path, followFinal: true, .setMode).node else { throw error(path, .setMode, Errno.notFound) }
        node.mode = mode
    }

    func syncDirectory(_ path: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.syncDirectory, path)
        guard try locate(path, followFinal: true, .syncDirectory).node?.kind == .directory else {
            throw error(path, .syncDirectory, Errno.notDirectory)
        }
    }

    func lock(_ path: String) throws -> FileLock {
        mutex.lock()
        defer { mutex.unlock() }
        try enter(.lock, path)
        let found = try locate(path, followFinal: false, .lock)
        switch found.node?.kind {
        case nil: found.folder.children[found.name] = newNode(.file, mode: 0o600)
        case .file?: break
        default: throw error(path, .lock, Errno.loop)
        }
        return FileLock {}
    }

    // MARK: Direct access for tests (no hook, no log, no failure)

    private func direct<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        let saved = (inHook, crashed)
        inHook = true
        crashed = false
        defer { (inHook, crashed) = saved }
        return try body()
    }

    /// Writes a file, creating its folders; an existing file is rewritten in place (same inode).
    func put(_ path: String, _ text: String, mode: UInt32 = 0o644) { putBytes(path, Array(text.utf8), mode: mode) }

    func putBytes(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) {
        direct {
            try! createDirectory(Path.parent(of: absolute(path)), intermediates: true, mode: 0o755)
            if let node = try! locate(path, followFinal: true, .write).node, node.kind == .file {
                node.bytes = bytes
                touch(node)
            } else {
                try! createFile(path, contents: bytes, mode: mode, sync: false)
            }
        }
    }

    /// An editor saving by writing a new file and renaming it over the old one.
    func saveByRename(_ path: String, _ text: String) {
        direct {
            let temporary = Path.parent(of: absolute(path)) + "/.editor-save"
            try! createFile(temporary, contents: Array(text.utf8), mode: 0o644, sync: false)
            try! rename(temporary, to: path)
        }
    }

    /// Sets a file's modification time (a file synced from a machine whose clock is ahead).
    func setModified(_ path: String, to time: Int64) {
        direct { try! locate(path, followFinal: true, .status).node!.modified = time }
    }

    /// An editor saving in place: the same inode gets new bytes.
    func saveInPlace(_ path: String, _ text: String) { put(path, text) }

    func append(_ path: String, _ text: String) {
        direct {
            let node = try! locate(path, followFinal: true, .write).node!
            node.bytes += Array(text.utf8)
            touch(node)
        }
    }

    func symlink(_ target: String, at path: String) {
        direct {
            let found = try! locate(path, followFinal: false, .create)
            precondition(found.node == nil, "\(path) exists")
            let node = newNode(.symlink, mode: 0o777)
            node.target = target
            found.folder.children[found.name] = node
        }
    }

    /// A FIFO at `path` (reading one on the real disk would block).
    func mkfifo(_ path: String) {
        direct {
            let found = try! locate(path, followFinal: false, .create)
            precondition(found.node == nil, "\(path) exists")
            found.folder.children[found.name] = newNode(.fifo, mode: 0o600)
        }
    }

    func mkdir(_ path: String, mode: UInt32 = 0o755) {
        direct { try! createDirectory(path, intermediates: true, mode: mode) }
    }

    func text(_ path: String) -> String? {
        direct { (try? readFile(path, followSymlinks: true)).map { String(decoding: $0, as: UTF8.self) } }
    }

    func mode(_ path: String) -> UInt32? {
        direct { (try? locate(path, followFinal: false, .status))?.node?.mode }
    }

    func exists(_ path: String) -> Bool {
        direct { (try? locate(path, followFinal: false, .status))?.node != nil }
    }

    /// Every name below `path` (not following links), relative, sorted; folders end in `/`.
    func tree(_ path: String) -> [String] {
        direct {
            guard let start = try? locate(path, followFinal: true, .list).node else { return [] }
            var names: [String] = []
            func walk(_ node: Node, _ prefix: String) {
                for (name, child) in node.children {
                    names.append(prefix + name + (child.kind == .directory ? "/" : ""))
                    if child.kind == .directory { walk(child, prefix + name + "/") }
                }
            }
            walk(start, "")
            return names.sorted()
        }
    }

    /// The `.md` files below `path` outside hidden folders (as tick sees lists), with their text.
    func lists(_ path: String) -> [String: String] {
        var result: [String: String] = [:]
        for name in tree(path) where name.hasSuffix(".md") && !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            result[name] = text(path + "/" + name)
        }
        return result
    }

    /// A hash of every name, kind and content below `path`, links not followed: equal before and
    /// after when nothing there changed.
    func fingerprint(_ path: String) -> [String: String] {
        direct {
            var result: [String: String] = [:]
            for name in tree(path) {
                let node = try! locate(path + "/" + name.trimmingSuffixSlash, followFinal: false, .status).node!
                switch node.kind {
                case .file: result[name] = "file \(node.mode) " + String(decoding: node.bytes, as: UTF8.self)
                case .directory: result[name] = "folder \(node.mode)"
                case .symlink: result[name] = "link " + node.target
                case .fifo: result[name] = "fifo \(node.mode)"
                }
            }
            return result
        }
    }

    private func absolute(_ path: String) -> String { "/" + components(path).joined(separator: "/") }
}

private extension String {
    var trimmingSuffixSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
