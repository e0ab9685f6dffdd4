/// Where the current do-now pick is remembered: `.tick/pick` in the task folder.
///
/// The file is state, not a list: a few `key: value` lines naming the picked task by its key
/// (list path, title, occurrence), with `\`, line feed and carriage return escaped as
/// `\\`, `\n` and `\r`. A missing or unreadable file means no current pick.
public struct PickMemory: Sendable {
    /// The task folder (absolute).
    public let root: String
    /// The file system the task folder is on.
    let fileSystem: any FileSystem

    public init(root: String, fileSystem: any FileSystem) {
        self.root = root
        self.fileSystem = fileSystem
    }

    /// `.tick/pick`, relative to the task folder.
    static let relativePath = FolderLocation.stateFolderName + "/pick"
    /// `.tick/pick`.
    public var path: String { root + "/" + PickMemory.relativePath }

    /// The current pick, or nil when there is none (or the file makes no sense, or is not a
    /// regular file: a link, FIFO, device or folder at `.tick/pick` is never followed or opened).
    public func load() -> PickedTask? {
        guard let bytes = (try? fileSystem.confined(to: root))?.readStateFile(PickMemory.relativePath, limit: PickMemory.sizeLimit)
        else { return nil }
        return PickMemory.decode(bytes)
    }

    /// The largest pick file read: a few short lines, so anything far larger is not ours.
    static let sizeLimit = 64 * 1024

    /// Remembers `pick` in a file of mode 0600, creating `.tick/` (mode 0700, with its
    /// `.gitignore`) when missing. Returns false, without an error, when the folder cannot be
    /// written (read-only, or not ours: a link, or a folder in the file's place): the pick is then
    /// simply not remembered. Other failures throw.
    @discardableResult
    public func save(_ pick: PickedTask) throws -> Bool {
        do {
            let state = try fileSystem.confined(to: root)
            try state.createStateDirectory(FolderLocation.stateFolderName, mode: 0o700, narrowing: false)
            let gitignore = FolderLocation.stateFolderName + "/.gitignore"
            if try state.status(gitignore, followSymlinks: false) == nil {
                do {
                    try state.createFile(gitignore, contents: Folder.stateGitignore, mode: 0o600, sync: false)
                } catch FileSystemError.alreadyExists {
                    // Another tick process created it at the same moment.
                }
            }
            try state.replaceStateFile(PickMemory.relativePath, contents: PickMemory.encode(pick))
            return true
        } catch let error as FileSystemError where error.meansStateNotWritable {
            return false
        }
    }

    /// Forgets the current pick. Returns whether there was one. Something else at `.tick/pick`
    /// (a link, a FIFO) is removed without being followed; a folder there is left alone.
    @discardableResult
    public func clear() throws -> Bool {
        guard let state = try? fileSystem.confined(to: root),
              let found = (try? state.status(PickMemory.relativePath, followSymlinks: false)) ?? nil, found.kind != .directory
        else { return false }
        do {
            try state.removeFile(PickMemory.relativePath)
            return found.kind == .file
        } catch let error as FileSystemError where error.isMissing {
            return false
        }
    }

    // MARK: - The file's text

    static func encode(_ pick: PickedTask) -> [UInt8] {
        Array("list: \(escape(pick.path))\ntitle: \(escape(pick.title))\noccurrence: \(pick.occurrence)\n".utf8)
    }

    static func decode(_ bytes: [UInt8]) -> PickedTask? {
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            fields[String(line[..<colon])] = unescape(value)
        }
        guard let path = fields["list"], !path.isEmpty, let title = fields["title"],
              let occurrence = fields["occurrence"].flatMap({ Int($0) }), occurrence >= 0 else { return nil }
        return PickedTask(path: path, title: title, occurrence: occurrence)
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func unescape(_ text: Substring) -> String {
        var out = ""
        var escaped = false
        for c in text.unicodeScalars {
            if escaped {
                switch c {
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
