// Where tick remind keeps what it reported: `${XDG_STATE_HOME:-~/.local/state}/tick/`, one file per
// task folder (`remind-HASH`, HASH from the folder's absolute path, which the file also names), and
// a lock file beside it that a run holds from reading the state to saving it, so that two runs at
// once (two timers) never report a task twice.
//
// The files are untrusted: read without following a symbolic link, only as regular files of a
// bounded size, and anything that is not exactly a state file of this folder counts as nothing
// recorded. The folder is created 0700 (an existing one of ours is narrowed to it), the files 0600.

public struct ReminderStore: Sendable {
    /// `…/tick` (absolute).
    public let directory: String
    /// The task folder (absolute).
    public let folder: String

    /// The store of `folder`; nil when neither `XDG_STATE_HOME` nor `HOME` is an absolute path.
    public init?(folder: String, environment: [String: String]) {
        guard let base = ReminderStore.stateHome(environment) else { return nil }
        directory = Path.join(base, "tick")
        self.folder = folder
    }

    /// `$XDG_STATE_HOME` when absolute, else `$HOME/.local/state`.
    public static func stateHome(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg }
        if let home = environment["HOME"], home.hasPrefix("/") { return Path.join(home, ".local/state") }
        return nil
    }

    /// `remind-` and 16 hex digits of the FNV-1a hash of the folder's path.
    public var fileName: String {
        var hash = FNV1a64()
        hash.add(folder.utf8)
        let hex = String(hash.value, radix: 16)
        return "remind-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The state file's path.
    public var path: String { Path.join(directory, fileName) }

    /// The largest state file read: about 100,000 entries.
    static let sizeLimit = 8 * 1024 * 1024

    /// Creates the state folder (0700, with its parents) when missing and takes the folder's lock,
    /// waiting for another run that holds it. Released when the lock goes away.
    public func lock(fileSystem: any FileSystem) throws -> FileLock {
        _ = try createFolder(fileSystem: fileSystem)
        return try fileSystem.lock(path + ".lock")
    }

    /// The state folder, created (0700, with its parents) when missing; one of ours narrowed to 0700.
    private func createFolder(fileSystem: any FileSystem) throws {
        let parent = Path.parent(of: directory)
        if !fileSystem.isDirectory(parent) { try fileSystem.createDirectory(parent, intermediates: true, mode: 0o700) }
        try fileSystem.createStateDirectory(directory, mode: 0o700, narrowing: true)
    }

    /// What earlier runs recorded; an empty state when there is no file or any doubt about it.
    public func load(fileSystem: any FileSystem) -> ReminderState {
        guard let bytes = fileSystem.readStateFile(path, limit: ReminderStore.sizeLimit),
              let state = ReminderState.decode(bytes, folder: folder)
        else { return ReminderState() }
        return state
    }

    /// Replaces the state file atomically (mode 0600).
    public func save(_ state: ReminderState, fileSystem: any FileSystem) throws {
        try createFolder(fileSystem: fileSystem)
        try fileSystem.replaceStateFile(path, contents: state.encode(folder: folder))
    }
}
