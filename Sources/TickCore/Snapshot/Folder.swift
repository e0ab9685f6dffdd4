// Where the task folder is, and which files in it are lists.
//
// The folder is found in this order: `--dir DIR`, the environment variable `TICK_DIR`, the nearest
// ancestor of the working folder that holds a `.tick/` folder, `${XDG_DATA_HOME:-$HOME/.local/share}/tick`.

import TickFormat

// MARK: - Errors

/// Why the task folder could not be found or prepared.
public enum FolderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A folder named by `--dir` or `TICK_DIR` does not exist.
    case missing(path: String, source: FolderLocation.Source)
    /// A path named as the task folder (or its `.tick`) exists but is not a folder.
    case notAFolder(path: String, source: FolderLocation.Source)
    /// Neither `XDG_DATA_HOME` nor `HOME` gives a default folder.
    case noDefaultLocation

    public var description: String {
        switch self {
        case .missing(let path, let source):
            return "task folder '\(path)'\(source.origin) does not exist"
        case .notAFolder(let path, let source):
            return "'\(path)'\(source.origin) is not a folder"
        case .noDefaultLocation:
            return "cannot find the task folder: neither XDG_DATA_HOME nor HOME is set (use --dir DIR)"
        }
    }
}

// MARK: - Location

/// The task folder's absolute path and what named it.
public struct FolderLocation: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        case option, environment, ancestor, defaultLocation, initialization

        /// " (from --dir)" and the like, for messages.
        var origin: String {
            switch self {
            case .option: return " (from --dir)"
            case .environment: return " (from TICK_DIR)"
            case .ancestor, .defaultLocation, .initialization: return ""
            }
        }
    }

    /// Absolute and lexically normalised.
    public var path: String
    public var source: Source
    /// False only for the default location before its first write.
    public var exists: Bool

    public init(path: String, source: Source, exists: Bool) {
        self.path = path
        self.source = source
        self.exists = exists
    }

    /// The name of the folder that marks a task folder and holds tick's local state.
    public static let stateFolderName = ".tick"

    /// Finds the task folder.
    ///
    /// - Parameters:
    ///   - option: the value of `--dir`, if given.
    ///   - environment: the process environment (`TICK_DIR`, `XDG_DATA_HOME`, `HOME`).
    ///   - currentDirectory: an absolute path where the ancestor search starts and relative paths resolve.
    /// - Throws: `FolderError` when `--dir` or `TICK_DIR` names something that is not a folder,
    ///   or when no default location exists; `FileSystemError` when a status cannot be read.
    public static func locate(option: String?, environment: [String: String], currentDirectory: String,
                              fileSystem: any FileSystem) throws -> FolderLocation {
        if let option {
            return try named(option, source: .option, currentDirectory: currentDirectory, fileSystem: fileSystem)
        }
        if let value = environment["TICK_DIR"], !value.isEmpty {
            return try named(value, source: .environment, currentDirectory: currentDirectory, fileSystem: fileSystem)
        }
        var dir = Path.absolute(currentDirectory, from: "/")
        while true {
            if fileSystem.isDirectory(Path.join(dir, stateFolderName)) {
                return FolderLocation(path: dir, source: .ancestor, exists: true)
            }
            if dir == "/" { break }
            dir = Path.parent(of: dir)
        }
        let path = Path.join(try defaultDataHome(environment), "tick")
        return FolderLocation(path: path, source: .defaultLocation, exists: fileSystem.isDirectory(path))
    }

    /// `${XDG_DATA_HOME:-$HOME/.local/share}`; a relative `XDG_DATA_HOME` is ignored, as the XDG
    /// specification asks.
    static func defaultDataHome(_ environment: [String: String]) throws -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return Path.absolute(xdg, from: "/")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return Path.join(Path.absolute(home, from: "/"), ".local/share")
        }
        throw FolderError.noDefaultLocation
    }

    private static func named(_ path: String, source: Source, currentDirectory: String,
                              fileSystem: any FileSystem) throws -> FolderLocation {
        guard !path.isEmpty else { throw FolderError.missing(path: path, source: source) }
        let absolute = Path.absolute(path, from: currentDirectory)
        switch try fileSystem.status(absolute)?.kind {
        case nil: throw FolderError.missing(path: path, source: source)
        case .directory?: return FolderLocation(path: absolute, source: source, exists: true)
        default: throw FolderError.notAFolder(path: path, source: source)
        }
    }
}

// MARK: - Lists

/// A list file of the folder.
public struct ListFile: Equatable, Sendable {
    /// Path relative to the folder, `/`-separated: the list's identity.
    public var path: String
    /// Absolute path: for a list found by a folder scan, joined from the folder's path when asked
    /// (a read served from the cache never asks).
    public var absolutePath: String {
        get { absolute ?? Path.join(folder, path) }
        set { absolute = newValue }
    }
    private var absolute: String?
    /// The folder's path, for a list found by a scan.
    private var folder = ""
    /// Its status when the folder was scanned (of the target, for a symbolic link).
    public var status: FileStatus? = nil

    public init(path: String, absolutePath: String, status: FileStatus? = nil) {
        self.path = path
        absolute = absolutePath
        self.status = status
    }

    /// The list at `path` in the folder at `folder`.
    init(path: String, inFolder folder: String, status: FileStatus?) {
        self.path = path
        self.folder = folder
        self.status = status
    }

    public static func == (a: ListFile, b: ListFile) -> Bool {
        a.path == b.path && a.status == b.status && a.absolutePath == b.absolutePath
    }

    /// The file name without `.md`: the list's name when the file has no level-1 heading.
    public var baseName: String { String(Path.name(of: path).dropLast(3)) }
}

/// Something below the folder that looks like a list but cannot be one.
public enum FolderProblem: Equatable, Sendable, CustomStringConvertible {
    /// A symbolic link whose target does not exist.
    case danglingSymlink(path: String)
    /// A symbolic link that leads back to itself or to a folder above it.
    case symlinkLoop(path: String)
    /// A `.md` name that is neither a file nor a folder (a FIFO, a socket, a device).
    case notARegularFile(path: String)
    /// A folder or status that could not be read.
    case unreadable(path: String, error: FileSystemError)

    /// Path relative to the task folder.
    public var path: String {
        switch self {
        case .danglingSymlink(let p), .symlinkLoop(let p), .notARegularFile(let p), .unreadable(let p, _): return p
        }
    }

    public var reason: String {
        switch self {
        case .danglingSymlink: return "dangling symbolic link"
        case .symlinkLoop: return "symbolic link loop"
        case .notARegularFile: return "not a regular file"
        case .unreadable(_, let error): return error.reason
        }
    }

    public var description: String { "skipped '\(path)': \(reason)" }
}

/// The lists found below a folder, and what was skipped.
public struct FolderScan: Equatable, Sendable {
    /// Sorted by path, byte by byte.
    public var lists: [ListFile] = []
    /// In the order found.
    public var problems: [FolderProblem] = []
    /// The hidden files the scan was asked to collect (`Folder.scan(leftovers:)`), relative paths:
    /// for the writer, the temporary files an interrupted tick left beside the lists.
    public var leftovers: [String] = []
}

/// A task folder: its list files and its `.tick/` state folder.
public struct Folder: Sendable {
    public let location: FolderLocation
    public let fileSystem: any FileSystem
    /// The configuration's `obsidian.global-filter` (FORMAT.md 11): every list of the folder is read
    /// with it, through `document(_:)`.
    public var globalFilter: GlobalFilter? = nil

    public init(location: FolderLocation, fileSystem: any FileSystem) {
        self.location = location
        self.fileSystem = fileSystem
    }

    /// Absolute path of the folder.
    public var path: String { location.path }

    /// Every `*.md` file below the folder, recursively.
    ///
    /// Hidden files and folders (a name starting with `.`, so `.tick/` too) are skipped. A folder
    /// named `x.md` is a folder, not a list. A folder below with a `.tick/` of its own is another
    /// task folder: the walk does not enter it. Symbolic links are followed, to files and to folders;
    /// a folder already visited (a loop, or a second link to it) is not entered again.
    ///
    /// `isLeftover` picks the hidden names to collect in `leftovers`: the writer passes its rule for
    /// the temporary files it makes, so that it can recover from the one scan; a read collects none.
    public func scan(leftovers isLeftover: ((String) -> Bool)? = nil) -> FolderScan {
        var result = FolderScan()
        guard location.exists else { return result }
        var visited = Set<FileID>()
        if let root = try? fileSystem.status(path), root.kind == .directory {
            visited.insert(FileID(root))
        }
        walk(relative: "", ancestors: visited, visited: &visited, into: &result, isLeftover: isLeftover)
        // Paths sort by their bytes; each folder was walked in that order, but "a/b.md" must come
        // after "a.md" and before "a0.md" as bytes, which a depth-first walk does not guarantee.
        let lists = result.lists
        result.lists = Path.byteOrder(lists.map(\.path)).map { lists[$0] }
        return result
    }

    /// A list's bytes read as this folder reads its lists (with its global filter): the one way
    /// views, changes and `tick check` parse a list.
    func document(_ bytes: [UInt8]) -> Document { Document(bytes: bytes, globalFilter: globalFilter) }

    /// The list file `bytes` read to be edited (`Document.init(editing:globalFilter:)`).
    func editableDocument(_ bytes: [UInt8]) -> Document { Document(editing: bytes, globalFilter: globalFilter) }

    /// The absolute path of a path relative to the folder.
    public func absolute(_ relative: String) -> String { Path.join(path, relative) }

    /// How to show `absolutePath` to the user: relative to the folder when it is inside, else as is.
    public func display(_ absolutePath: String) -> String {
        Path.relative(absolutePath, to: path) ?? absolutePath
    }

    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ status: FileStatus) { device = status.device; inode = status.inode }
    }

    private func walk(relative: String, ancestors: Set<FileID>, visited: inout Set<FileID>,
                      into result: inout FolderScan, isLeftover: ((String) -> Bool)?) {
        let names: [String]
        do {
            names = try fileSystem.contents(ofDirectory: absolute(relative))
        } catch let error as FileSystemError {
            result.problems.append(.unreadable(path: relative.isEmpty ? "." : relative, error: error))
            return
        } catch {
            preconditionFailure("FileSystem threw \(error)")
        }
        if !relative.isEmpty, names.contains(FolderLocation.stateFolderName),
           (try? fileSystem.status(absolute(relative + "/" + FolderLocation.stateFolderName), followSymlinks: false))??.kind == .directory {
            return
        }
        let sorted = Path.byteOrder(names).map { names[$0] }
        // The status of every name that is not hidden, at once (see `FileSystem.statuses`).
        var statuses = fileSystem.statuses(of: sorted.filter { !$0.hasPrefix(".") }, in: absolute(relative))
            .makeIterator()
        for name in sorted {
            let child = relative.isEmpty ? name : relative + "/" + name
            if name.hasPrefix(".") {
                if let isLeftover, isLeftover(name) { result.leftovers.append(child) }
                continue
            }
            let isListName = name.hasSuffix(".md")
            let linkStatus = statuses.next()!
            let status: FileStatus
            do {
                guard let link = try linkStatus.get() else { continue }
                if link.kind == .symlink {
                    guard let target = try fileSystem.status(absolute(child), followSymlinks: true) else {
                        if isListName { result.problems.append(.danglingSymlink(path: child)) }
                        continue
                    }
                    status = target
                } else {
                    status = link
                }
            } catch FileSystemError.symlinkLoop {
                if isListName { result.problems.append(.symlinkLoop(path: child)) }
                continue
            } catch let error as FileSystemError {
                result.problems.append(.unreadable(path: child, error: error))
                continue
            } catch {
                preconditionFailure("FileSystem threw \(error)")
            }
            switch status.kind {
            case .directory:
                let id = FileID(status)
                if ancestors.contains(id) {
                    result.problems.append(.symlinkLoop(path: child))
                    continue
                }
                guard visited.insert(id).inserted else { continue }
                var inner = ancestors
                inner.insert(id)
                walk(relative: child, ancestors: inner, visited: &visited, into: &result, isLeftover: isLeftover)
            case .file:
                if isListName { result.lists.append(ListFile(path: child, inFolder: path, status: status)) }
            case .symlink, .other:
                if isListName { result.problems.append(.notARegularFile(path: child)) }
            }
        }
    }
}

// MARK: - Initialisation

extension Folder {
    /// What `initialize` found.
    public enum Initialization: Equatable, Sendable {
        case created, alreadyInitialized
    }

    /// The content of `.tick/.gitignore`: tick's local state stays out of version control, and the
    /// `.gitignore` itself is tracked, so that a clone of the repository is a task folder.
    public static let stateGitignore: [UInt8] = Array("*\n!.gitignore\n".utf8)

    /// What tick wrote before the `.gitignore` tracked itself: a folder holding exactly this is
    /// repaired on its next write.
    static let oldStateGitignore: [UInt8] = Array("*\n".utf8)

    /// Makes `path` a task folder: creates it (and its parents) if needed, then its state folder.
    @discardableResult
    public static func initialize(at path: String, fileSystem: any FileSystem) throws -> Initialization {
        try fileSystem.createDirectory(path, intermediates: true)
        return try prepareState(in: path, fileSystem: fileSystem)
    }

    /// The one place `.tick/` is made: created `0700` with its own `.gitignore` (`0600`) when
    /// missing. An existing `.tick/` is kept, its mode repaired to `0700` when others could read
    /// it, and a missing `.gitignore` added. A `.tick` that is not a folder of its own (a file, or
    /// a symbolic link, which could lead tick's state out of the folder) is refused.
    @discardableResult
    public static func prepareState(in root: String, fileSystem: any FileSystem) throws -> Initialization {
        let state = Path.join(root, FolderLocation.stateFolderName)
        let outcome: Initialization
        switch try fileSystem.status(state, followSymlinks: false) {
        case nil:
            do {
                try fileSystem.createDirectory(state, intermediates: false, mode: 0o700)
                outcome = .created
            } catch FileSystemError.alreadyExists {
                // Another tick process (a first write, or tick init) created it at the same moment.
                guard try fileSystem.status(state, followSymlinks: false)?.kind == .directory else {
                    throw FolderError.notAFolder(path: state, source: .initialization)
                }
                outcome = .alreadyInitialized
            }
        case let status? where status.kind == .directory:
            if status.mode & 0o077 != 0 { try fileSystem.setMode(state, status.mode & 0o700 | 0o700) }
            outcome = .alreadyInitialized
        default:
            throw FolderError.notAFolder(path: state, source: .initialization)
        }
        let gitignore = Path.join(state, ".gitignore")
        if try fileSystem.status(gitignore, followSymlinks: false) == nil {
            do {
                try fileSystem.createFile(gitignore, contents: stateGitignore, mode: 0o600, sync: false)
            } catch FileSystemError.alreadyExists {
                // Created at the same moment by another tick process.
            }
        } else {
            repairStateGitignore(gitignore, fileSystem: fileSystem)
        }
        return outcome
    }

    /// Replaces a `.gitignore` that still holds the old `*` alone (which ignored itself, so a clone
    /// lost its task folder) with the current content. Any other content is the user's and is
    /// kept. Best effort: a folder that cannot be written keeps the old file.
    static func repairStateGitignore(_ gitignore: String, fileSystem: any FileSystem) {
        guard let status = try? fileSystem.status(gitignore, followSymlinks: false), status.kind == .file,
              status.size == oldStateGitignore.count,
              (try? fileSystem.readFile(gitignore, followSymlinks: false)) == oldStateGitignore
        else { return }
        let temporary = gitignore + ".new"
        try? fileSystem.removeFile(temporary)
        do {
            try fileSystem.createFile(temporary, contents: stateGitignore, mode: 0o600, sync: false)
            try fileSystem.rename(temporary, to: gitignore)
        } catch {
            try? fileSystem.removeFile(temporary)
        }
    }
}
