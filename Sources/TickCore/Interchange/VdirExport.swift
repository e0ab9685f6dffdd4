// `tick export vdir DIR`: one `.ics` file per task in a folder that vdirsyncer and calendar apps
// read (the vdir storage format). Only real changes touch the folder: a file whose content is
// unchanged is not written, a changed one is replaced atomically, and a file of a task that is
// gone is removed — only when tick wrote it (it carries tick's PRODID).

/// What a vdir export did.
public struct VdirResult: Equatable, Sendable {
    /// File names written (new or changed), in the order written.
    public var written: [String] = []
    /// How many files already held what they should.
    public var unchanged = 0
    /// File names removed (tasks no longer exported).
    public var removed: [String] = []

    public init() {}
}

public enum VdirExport {
    /// The file name of a task: its UID and `.ics`.
    public static func fileName(uid: String) -> String { uid + ".ics" }

    /// Writes `todos` into the folder `directory` (created when missing, with its parents), one file
    /// each, and removes tick's files of tasks not among them. Nothing is written for a file that
    /// already holds the same bytes.
    public static func write(_ todos: [CalendarTodo], to directory: String,
                             fileSystem: any FileSystem) throws -> VdirResult {
        var result = VdirResult()
        if try fileSystem.status(directory) == nil {
            try fileSystem.createDirectory(directory, intermediates: true)
        } else if !fileSystem.isDirectory(directory) {
            throw FileSystemError(path: directory, operation: "write into", code: Errno.notDirectory)
        }
        var names = Set<String>()
        for todo in todos {
            let name = fileName(uid: todo.uid)
            names.insert(name)
            let path = Path.join(directory, name)
            let content = ICalendar.single(todo)
            if let existing = try? fileSystem.readIfPresent(path, followSymlinks: false), existing == content {
                result.unchanged += 1
                continue
            }
            try replace(path, in: directory, name: name, with: content, fileSystem: fileSystem)
            result.written.append(name)
        }
        let present = try fileSystem.contents(ofDirectory: directory).sorted()
        for name in present where name.hasSuffix(".ics") && !name.hasPrefix(".") && !names.contains(name) {
            let path = Path.join(directory, name)
            guard let bytes = try? fileSystem.readFile(path, followSymlinks: false), isTicks(bytes) else { continue }
            try fileSystem.removeFile(path)
            result.removed.append(name)
        }
        if !result.written.isEmpty || !result.removed.isEmpty { try? fileSystem.syncDirectory(directory) }
        return result
    }

    /// Writes a temporary file beside `path`, flushed, then renames it over `path`.
    private static func replace(_ path: String, in directory: String, name: String, with content: [UInt8],
                                fileSystem: any FileSystem) throws {
        let temporary = Path.join(directory, ".\(name).tick-\(CurrentProcess.id)")
        try? fileSystem.removeFile(temporary)
        try fileSystem.createFile(temporary, contents: content, mode: 0o644, sync: true)
        do {
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw error
        }
    }

    /// Whether a file is one tick wrote: a calendar whose PRODID line is tick's.
    static func isTicks(_ bytes: [UInt8]) -> Bool {
        let marker = Array("\r\nPRODID:\(ICalendar.productID)\r\n".utf8)
        guard bytes.count >= marker.count, bytes.starts(with: Array("BEGIN:VCALENDAR\r\n".utf8)) else { return false }
        let limit = min(bytes.count, 512)
        return bytes[0..<limit].indices.contains { i in
            i + marker.count <= bytes.count && bytes[i..<(i + marker.count)].elementsEqual(marker)
        }
    }
}
