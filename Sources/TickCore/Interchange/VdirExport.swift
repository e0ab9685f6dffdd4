// `tick export vdir`: one `.ics` file per task in a folder that vdirsyncer and calendar apps
// read (the vdir storage format). Only real changes touch the folder: a file whose content is
// unchanged is not written, a changed one is replaced atomically, and a file of a task that is
// gone is removed — only when this task folder wrote it (it carries tick's PRODID and the
// folder's `X-TICK-FOLDER` mark). Files and folders are created private (0600, 0700).

/// What a vdir export did.
public struct VdirResult: Equatable, Sendable {
    /// File names written (new or changed), in the order written.
    public var written: [String] = []
    /// How many files already held what they should.
    public var unchanged = 0
    /// File names removed (tasks no longer exported).
    public var removed: [String] = []
    /// UIDs not exported because they cannot name a file safely (`VdirExport.refusal(uid:)`).
    public var refused: [String] = []

    public init() {}
}

public enum VdirExport {
    /// The file name of a task: its UID and `.ics`.
    public static func fileName(uid: String) -> String { uid + ".ics" }

    /// The longest UID that names a file: its name with `.ics` and a temporary file's prefix and
    /// suffix stay well under the 255 bytes a name may have.
    public static let maximumUIDLength = 200

    /// Why `uid` cannot name a file in a vdir, or nil when it can: empty, too long, a leading dot
    /// (a hidden or special name such as `..`), a path separator, or a control character.
    public static func refusal(uid: String) -> String? {
        if uid.isEmpty { return "it is empty" }
        if uid.utf8.count > maximumUIDLength { return "it is longer than \(maximumUIDLength) bytes" }
        if uid.hasPrefix(".") { return "it would make a hidden file name" }
        if uid.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) {
            return "it holds a path separator"
        }
        if uid.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "it holds a control character" }
        return nil
    }

    /// A mark naming a task folder in the files it writes (`X-TICK-FOLDER`): 16 hexadecimal digits
    /// of the FNV-1a hash of its real path, so that the path itself never leaves the machine.
    public static func folderMark(realPath: String) -> String {
        var hash = FNV1a64()
        hash.add(Array(realPath.utf8))
        let digits = String(hash.value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Writes `todos` into the folder `directory` (created private when missing, with its parents),
    /// one file each, marked with `folder`, and removes this folder's files of tasks not among them.
    /// A file that holds the same object apart from `DTSTAMP`, `LAST-MODIFIED` and `SEQUENCE` is
    /// left alone; a changed one gets the todo's stamp and its `SEQUENCE` one higher.
    public static func write(_ todos: [CalendarTodo], to directory: String, folder: String,
                             fileSystem: any FileSystem) throws -> VdirResult {
        var result = VdirResult()
        if try fileSystem.status(directory) == nil {
            try createPrivateDirectory(directory, fileSystem: fileSystem)
        } else if !fileSystem.isDirectory(directory) {
            throw FileSystemError(path: directory, operation: "write into", code: Errno.notDirectory)
        }
        var names = Set<String>()
        for var todo in todos {
            if refusal(uid: todo.uid) != nil {
                result.refused.append(todo.uid)
                continue
            }
            let name = fileName(uid: todo.uid)
            names.insert(name)
            let path = Path.join(directory, name)
            todo.folder = folder
            let existing = try? fileSystem.readIfPresent(path, followSymlinks: false)
            if let existing, let previous = VdirStamps(existing) {
                todo.sequence = previous.sequence
                if VdirStamps.withoutStamps(existing) == VdirStamps.withoutStamps(ICalendar.single(todo)) {
                    result.unchanged += 1
                    continue
                }
                todo.sequence = previous.sequence + 1
            }
            try replace(path, in: directory, name: name, with: ICalendar.single(todo), fileSystem: fileSystem)
            result.written.append(name)
        }
        let present = try fileSystem.contents(ofDirectory: directory).sorted()
        for name in present where name.hasSuffix(".ics") && !name.hasPrefix(".") && !names.contains(name) {
            let path = Path.join(directory, name)
            guard let bytes = try? fileSystem.readFile(path, followSymlinks: false),
                  isTicks(bytes, folder: folder) else { continue }
            try fileSystem.removeFile(path)
            result.removed.append(name)
        }
        if !result.written.isEmpty || !result.removed.isEmpty { try? fileSystem.syncDirectory(directory) }
        return result
    }

    /// Creates `directory` and its missing parents, each readable by its owner alone (0700).
    static func createPrivateDirectory(_ directory: String, fileSystem: any FileSystem) throws {
        var missing: [String] = []
        var path = directory
        while try fileSystem.status(path) == nil {
            missing.append(path)
            let parent = Path.parent(of: path)
            if parent == path || parent.isEmpty { break }
            path = parent
        }
        for path in missing.reversed() { try fileSystem.createDirectory(path, intermediates: false, mode: 0o700) }
    }

    /// Writes a private temporary file beside `path`, flushed, then renames it over `path`.
    static func replace(_ path: String, in directory: String, name: String, with content: [UInt8],
                        fileSystem: any FileSystem) throws {
        let temporary = Path.join(directory, ".\(name).tick-\(CurrentProcess.id)")
        try? fileSystem.removeFile(temporary)
        try fileSystem.createFile(temporary, contents: content, mode: 0o600, sync: true)
        do {
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw error
        }
    }

    /// Whether a file is one this task folder wrote: a calendar whose PRODID line is tick's and
    /// whose `X-TICK-FOLDER` line is `folder`.
    static func isTicks(_ bytes: [UInt8], folder: String) -> Bool {
        guard bytes.starts(with: Array("BEGIN:VCALENDAR\r\n".utf8)) else { return false }
        return contains(bytes, "\r\nPRODID:\(ICalendar.productID)\r\n", within: 512)
            && contains(bytes, "\r\nX-TICK-FOLDER:\(folder)\r\n", within: bytes.count)
    }

    private static func contains(_ bytes: [UInt8], _ text: String, within limit: Int) -> Bool {
        let marker = Array(text.utf8)
        let end = min(bytes.count, limit)
        guard end >= marker.count else { return false }
        return (0...(end - marker.count)).contains { i in bytes[i..<(i + marker.count)].elementsEqual(marker) }
    }
}

/// The `SEQUENCE` of an object tick wrote, read from its unfolded lines; nil when the bytes are
/// not one VCALENDAR that starts as tick's do.
struct VdirStamps {
    var sequence: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.starts(with: Array("BEGIN:VCALENDAR\r\n".utf8)) else { return nil }
        sequence = 0
        for line in Self.lines(bytes) where line.starts(with: Array("SEQUENCE:".utf8)) {
            let digits = line.dropFirst(9)
            guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            sequence = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }

    /// The `DTSTAMP` of an object as tick writes it (`DTSTAMP:YYYYMMDDTHHMMSSZ` on a line of its own)
    /// in seconds since the epoch, or nil.
    static func stamp(_ bytes: [UInt8]) -> Int? {
        let key = Array("\r\nDTSTAMP:".utf8)
        let limit = min(bytes.count, 4096)
        guard limit > key.count + 16 else { return nil }
        for i in 0..<(limit - key.count - 16) where bytes[i] == 0x0D && bytes[i..<(i + key.count)].elementsEqual(key) {
            let v = Array(bytes[(i + key.count)..<(i + key.count + 16)])
            guard v[8] == UInt8(ascii: "T"), v[15] == UInt8(ascii: "Z") else { return nil }
            func n(_ r: Range<Int>) -> Int? {
                v[r].allSatisfy { (0x30...0x39).contains($0) } ? v[r].reduce(0) { $0 * 10 + Int($1 - 0x30) } : nil
            }
            guard let y = n(0..<4), let mo = n(4..<6), let d = n(6..<8), let h = n(9..<11), let mi = n(11..<13),
                  let s = n(13..<15) else { return nil }
            return LocalTimeZone.utcSeconds(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        }
        return nil
    }

    /// The bytes without their `DTSTAMP`, `LAST-MODIFIED` and `SEQUENCE` lines.
    static func withoutStamps(_ bytes: [UInt8]) -> [[UInt8]] {
        lines(bytes).filter { line in
            !["DTSTAMP:", "LAST-MODIFIED:", "SEQUENCE:"].contains { line.starts(with: Array($0.utf8)) }
        }
    }

    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0D && bytes[i + 1] == 0x0A {
                result.append(Array(bytes[start..<i]))
                i += 2
                start = i
            } else {
                i += 1
            }
        }
        if start < bytes.count { result.append(Array(bytes[start...])) }
        return result
    }
}
