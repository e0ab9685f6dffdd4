import Foundation
import TickCLI
import TickCore

/// A run of the command line inside the test process: `TickCLI`'s entry with a `Context` of the
/// sandbox's environment and folder, the real disk (behind `AbsolutePathsOnly`), outputs kept in
/// memory, no input and no terminal; what the binary would see when run by `Sandbox.runBinary`
/// (standard input /dev/null, outputs to files).
enum InProcessRun {
    static func run(_ arguments: [String], environment: [String: String], currentDirectory: String,
                    fileSystem: (any FileSystem)? = nil, input: [UInt8] = []) -> TickResult {
        let out = Output.memory()
        let err = Output.memory(capacity: 4096)
        let context = Context(
            environment: environment,
            fileSystem: fileSystem ?? AbsolutePathsOnly(LocalFileSystem()),
            currentDirectory: currentDirectory,
            out: out, err: err,
            input: Input(bytes: input),
            terminals: .none,
            executable: TickBinary.path ?? "/nonexistent/tick")
        let status = Tick.main(arguments: arguments, context: context)
        return TickResult(status: status.rawValue,
                          stdout: String(decoding: out.captured, as: UTF8.self),
                          stderr: String(decoding: err.captured, as: UTF8.self))
    }
}

/// The real disk, refusing every relative path: a run inside the test process shares the
/// process's working folder (the package's), so a path the command line forgot to make absolute
/// would land there. The binary resolves such a path against its own folder; here it is an error
/// that fails the test.
struct AbsolutePathsOnly: FileSystem {
    let base: any FileSystem

    init(_ base: any FileSystem) { self.base = base }

    private func check(_ paths: String...) throws {
        for path in paths where !path.hasPrefix("/") {
            throw FileSystemError(path: path, operation: "reach a relative path in-process", code: 22)
        }
    }

    func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
        try check(path)
        return try base.readFile(path, followSymlinks: followSymlinks)
    }
    func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
        try check(path)
        return try base.status(path, followSymlinks: followSymlinks)
    }
    func contents(ofDirectory path: String) throws -> [String] {
        try check(path)
        return try base.contents(ofDirectory: path)
    }
    func statuses(of names: [String], in directory: String) -> [Result<FileStatus?, FileSystemError>] {
        guard directory.hasPrefix("/") else {
            return names.map { .failure(FileSystemError(path: directory + "/" + $0, operation: "reach a relative path in-process", code: 22)) }
        }
        return base.statuses(of: names, in: directory)
    }
    func resolvedPath(_ path: String) throws -> String {
        try check(path)
        return try base.resolvedPath(path)
    }
    func isWritable(_ path: String) -> Bool { path.hasPrefix("/") && base.isWritable(path) }
    func currentDirectory() throws -> String {
        throw FileSystemError(path: ".", operation: "read the process's folder in-process", code: 22)
    }
    func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
        try check(path)
        try base.createDirectory(path, intermediates: intermediates, mode: mode)
    }
    func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
        try check(path)
        try base.createFile(path, contents: contents, mode: mode, sync: sync)
    }
    func writeInPlace(_ path: String, contents: [UInt8]) throws {
        try check(path)
        try base.writeInPlace(path, contents: contents)
    }
    func exchange(_ path: String, with other: String) throws {
        try check(path, other)
        try base.exchange(path, with: other)
    }
    func rename(_ path: String, to destination: String) throws {
        try check(path, destination)
        try base.rename(path, to: destination)
    }
    func link(_ path: String, to destination: String) throws {
        try check(path, destination)
        try base.link(path, to: destination)
    }
    func removeFile(_ path: String) throws {
        try check(path)
        try base.removeFile(path)
    }
    func removeDirectory(_ path: String) throws {
        try check(path)
        try base.removeDirectory(path)
    }
    func setMode(_ path: String, _ mode: UInt32) throws {
        try check(path)
        try base.setMode(path, mode)
    }
    func syncDirectory(_ path: String) throws {
        try check(path)
        try base.syncDirectory(path)
    }
    func lock(_ path: String) throws -> FileLock {
        try check(path)
        return try base.lock(path)
    }
    func readStateFile(_ path: String, limit: Int) -> [UInt8]? {
        path.hasPrefix("/") ? base.readStateFile(path, limit: limit) : nil
    }
    func replaceStateFile(_ path: String, contents: [UInt8]) throws {
        try check(path)
        try base.replaceStateFile(path, contents: contents)
    }
    func createStateDirectory(_ path: String, mode: UInt32, narrowing: Bool) throws {
        try check(path)
        try base.createStateDirectory(path, mode: mode, narrowing: narrowing)
    }
    func mapStateFile(_ path: String) -> MappedFile? { path.hasPrefix("/") ? base.mapStateFile(path) : nil }
    func replaceStateFile(_ path: String, writing write: (StateFileOutput) throws(FileSystemError) -> Void) throws {
        try check(path)
        try base.replaceStateFile(path, writing: write)
    }
    func removeStateFile(_ path: String, ifStill mapped: MappedFile?) {
        if path.hasPrefix("/") { base.removeStateFile(path, ifStill: mapped) }
    }
    func confined(to root: String) throws -> any FileSystem {
        try check(root)
        return try base.confined(to: root)
    }
    func now() -> Int64 { base.now() }
    func pause(nanoseconds: Int64) { base.pause(nanoseconds: nanoseconds) }
}
