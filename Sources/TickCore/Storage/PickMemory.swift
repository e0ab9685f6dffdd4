/// Where the current do-now pick is remembered: `.tick/pick` in the task folder.
///
/// The file is state, not a list: a few `key: value` lines naming the picked task by its key
/// (list path, title, occurrence), with `\`, line feed and carriage return escaped as
/// `\\`, `\n` and `\r`. A missing or unreadable file means no current pick.
public struct PickMemory: Sendable {
    /// The task folder (absolute).
    public let root: String

    public init(root: String) { self.root = root }

    var stateDirectory: String { root + "/" + FolderLocation.stateFolderName }
    /// `.tick/pick`.
    public var path: String { stateDirectory + "/pick" }

    /// The current pick, or nil when there is none (or the file makes no sense, or is not a
    /// regular file: a link, FIFO, device or folder at `.tick/pick` is never followed or opened).
    public func load() -> PickedTask? {
        guard let bytes = StateFolder.open(stateDirectory)?.read("pick", limit: PickMemory.sizeLimit) else { return nil }
        return PickMemory.decode(bytes)
    }

    /// The largest pick file read: a few short lines, so anything far larger is not ours.
    static let sizeLimit = 64 * 1024

    /// Remembers `pick` in a file of mode 0600, creating `.tick/` (mode 0700, with its
    /// `.gitignore`) when missing. Returns false, without an error, when the folder cannot be
    /// written (read-only, or not ours: a link, or a folder in the file's place): the pick is then
    /// simply not remembered. Other failures throw.
    @discardableResult
    public func save(_ pick: PickedTask) throws(IOFailure) -> Bool {
        do throws(IOFailure) {
            let folder = try StateFolder.create(stateDirectory, mode: 0o700)
            if folder.status(".gitignore") == nil {
                do throws(IOFailure) {
                    try folder.create(".gitignore", contents: Folder.stateGitignore)
                } catch where error.isAlreadyThere {
                    // Another tick process created it at the same moment.
                }
            }
            try folder.write("pick", PickMemory.encode(pick))
            return true
        } catch {
            if error.meansStateNotWritable { return false }
            throw error
        }
    }

    /// Forgets the current pick. Returns whether there was one. Something else at `.tick/pick`
    /// (a link, a FIFO) is removed without being followed; a folder there is left alone.
    @discardableResult
    public func clear() throws(IOFailure) -> Bool {
        guard let folder = StateFolder.open(stateDirectory), let regular = folder.isRegularFile("pick"),
              !folder.isFolder("pick")
        else { return false }
        let code = folder.remove("pick")
        if code == 0 { return regular }
        let failure = IOFailure(path: path, operation: "remove", code: code)
        if failure.isMissing { return false }
        throw failure
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
