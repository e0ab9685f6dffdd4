#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// The current pick, or nil when there is none (or the file makes no sense).
    public func load() -> PickedTask? {
        guard let bytes = try? Posix.readFile(path).bytes else { return nil }
        return PickMemory.decode(bytes)
    }

    /// Remembers `pick`, creating `.tick/` (with its `.gitignore`) when missing. Returns false,
    /// without an error, when the folder cannot be written (read-only, or not ours): the pick is
    /// then simply not remembered. Other failures throw.
    @discardableResult
    public func save(_ pick: PickedTask) throws(IOFailure) -> Bool {
        do throws(IOFailure) {
            try Posix.mkdir(stateDirectory)
            let ignore = stateDirectory + "/.gitignore"
            if Posix.lstat(ignore) == nil {
                do throws(IOFailure) {
                    let fd = try Posix.open(ignore, O_WRONLY | O_CREAT | O_EXCL)
                    defer { close(fd) }
                    try Posix.writeAll(fd, Folder.stateGitignore, ignore)
                } catch where error.code == EEXIST {
                    // Another tick process created it at the same moment.
                }
            }
            let temporary = "\(path).\(getpid()).tmp"
            let fd = try Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
            do throws(IOFailure) {
                try Posix.writeAll(fd, PickMemory.encode(pick), temporary)
                close(fd)
                try Posix.rename(temporary, path)
            } catch {
                close(fd)
                Posix.unlink(temporary)
                throw error
            }
            return true
        } catch {
            if PickMemory.meansReadOnly(error.code) { return false }
            throw error
        }
    }

    /// Forgets the current pick. Returns whether there was one.
    @discardableResult
    public func clear() throws(IOFailure) -> Bool {
        if unlink(path) == 0 { return true }
        let code = Posix.errno
        if code == ENOENT || code == ENOTDIR { return false }
        throw IOFailure(path: path, operation: "remove", code: code)
    }

    private static func meansReadOnly(_ code: Int32) -> Bool {
        code == EACCES || code == EPERM || code == EROFS
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
