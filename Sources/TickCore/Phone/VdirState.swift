import TickFormat

// What `tick vdir sync` remembers between runs, per vdir, in `.tick/vdir/` (0700, files 0600):
// which collection holds which list, and per synced task the object tick and the vdir last agreed
// on, the base of the next three-way merge. Untrusted like all of `.tick/`: every name, id,
// length and count is checked, and a file in any doubt is as good as none (the next sync then
// matches objects to tasks by UID and `id:`, as a clone with no state does).

public struct VdirState: Equatable, Sendable {
    /// One synced task.
    public struct Entry: Equatable, Sendable {
        /// The collection (a folder of the vdir) and the file in it.
        public var collection: String
        public var file: String
        /// The object's UID, and the task's `id:` value (the same unless the phone's UID is no `id:` value).
        public var uid: String
        public var id: String
        /// The agreed object; nil while a task made on the phone is being added.
        public var base: [UInt8]?
        /// The file's status when it last held `base` (nil: read it next time).
        public var stamp: FileStamp? = nil
        /// A hash of the task's side of the object (`VdirSync.tickHash`) when `base` was agreed.
        public var rendered: UInt64? = nil

        public init(collection: String, file: String, uid: String, id: String, base: [UInt8]?,
                    stamp: FileStamp? = nil, rendered: UInt64? = nil) {
            self.collection = collection
            self.file = file
            self.uid = uid
            self.id = id
            self.base = base
            self.stamp = stamp
            self.rendered = rendered
        }

        public var key: String { collection + "/" + file }
    }

    /// A vdir file's size, modification time (ns) and inode: a file whose three are as recorded, and
    /// whose recorded time is before the state file's own, holds what it held then (as git trusts
    /// its index; a file changed within the clock tick of the state's writing is read again).
    public struct FileStamp: Equatable, Sendable {
        public var size: Int
        public var modified: Int64
        public var inode: UInt64

        /// Nil for a time before 1970, which the state does not record.
        public init?(_ status: FileStatus) {
            guard status.modified >= 0 else { return nil }
            size = status.size
            modified = status.modified
            inode = status.inode
        }

        init(size: Int, modified: Int64, inode: UInt64) {
            self.size = size
            self.modified = modified
            self.inode = inode
        }

        var text: String { "\(size):\(modified):\(inode)" }

        init?(text: String) {
            let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count == 3, let size = Self.number(parts[0]), size <= UInt64(VObject.sizeLimit),
                  let modified = Self.number(parts[1]), modified <= UInt64(Int64.max), let inode = Self.number(parts[2])
            else { return nil }
            self.init(size: Int(size), modified: Int64(modified), inode: inode)
        }

        /// 1 to 20 decimal digits that fit in 64 bits.
        static func number(_ digits: Substring.UTF8View) -> UInt64? {
            guard (1...20).contains(digits.count) else { return nil }
            var value: UInt64 = 0
            for c in digits {
                guard (0x30...0x39).contains(c) else { return nil }
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(c - 0x30))
                guard !o1, !o2 else { return nil }
                value = sum
            }
            return value
        }
    }

    /// List file (relative path) → collection folder name.
    public var collections: [String: String] = [:]
    /// By `Entry.key`.
    public var entries: [String: Entry] = [:]

    public init() {}

    static let magic = "tick-vdir-state 2\n"
    /// The first format: no stamps or hashes (every file is read on the next sync).
    static let magicOne = "tick-vdir-state 1\n"
    /// The largest state read: 500 tasks of 4 KiB each many times over.
    public static let sizeLimit = 64 << 20
    static let maximumObject = VObject.sizeLimit

    /// The state as bytes: the magic line, then `L\tPATH\tFOLDER\n` per list and
    /// `T\tFOLDER\tFILE\tUID\tID\tSTAMP\tHASH\tLENGTH\n` per task followed by LENGTH bytes of base and
    /// `\n` (STAMP `SIZE:MTIME:INODE`, HASH 16 hexadecimal digits, each `-` for none; LENGTH `-` for
    /// no base). The first format's `T` lines have no STAMP and HASH.
    public func encode() -> [UInt8] {
        var out = Array(Self.magic.utf8)
        for path in collections.keys.sorted() { out += Array("L\t\(path)\t\(collections[path]!)\n".utf8) }
        for key in entries.keys.sorted() {
            let e = entries[key]!
            let hash = e.rendered.map { String($0, radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }
            out += Array(("T\t\(e.collection)\t\(e.file)\t\(e.uid)\t\(e.id)\t\(e.stamp?.text ?? "-")\t\(hash ?? "-")\t"
                          + "\(e.base.map { String($0.count) } ?? "-")\n").utf8)
            if let base = e.base { out += base + [0x0A] }
        }
        return out
    }

    /// The state in `bytes`, or nil when anything in it is not as tick writes it.
    public static func decode(_ bytes: [UInt8]) -> VdirState? {
        let first = bytes.starts(with: Array(magicOne.utf8))
        guard bytes.count <= sizeLimit, first || bytes.starts(with: Array(magic.utf8)) else { return nil }
        var state = VdirState()
        var i = magic.utf8.count
        while i < bytes.count {
            guard let end = bytes[i...].firstIndex(of: 0x0A), String(validating: bytes[i..<end], as: UTF8.self) != nil else { return nil }
            let fields = bytes[i..<end].split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            i = end + 1
            switch fields.first {
            case "L":
                guard fields.count == 3, isListPath(fields[1]), isName(fields[2]),
                      state.collections[fields[1]] == nil else { return nil }
                state.collections[fields[1]] = fields[2]
            case "T":
                var fields = fields
                var stamp: FileStamp?
                var rendered: UInt64?
                if first {
                    guard fields.count == 6 else { return nil }
                } else {
                    guard fields.count == 8 else { return nil }
                    let (stampText, hashText) = (fields[5], fields[6])
                    if stampText != "-" {
                        guard let value = FileStamp(text: stampText) else { return nil }
                        stamp = value
                    }
                    if hashText != "-" {
                        guard hashText.utf8.count == 16, hashText.allSatisfy(\.isHexDigit), let value = UInt64(hashText, radix: 16) else { return nil }
                        rendered = value
                    }
                    fields.removeSubrange(5...6)
                }
                guard fields.count == 6, isName(fields[1]), isName(fields[2]), fields[2].hasSuffix(".ics"),
                      !fields[3].isEmpty, fields[3].utf8.count <= 1024, !fields[3].utf8.contains(where: { $0 < 0x20 }),
                      isIDValue(fields[4]) else { return nil }
                var base: [UInt8]?
                if fields[5] != "-" {
                    guard let length = Int(fields[5]), (0...maximumObject).contains(length),
                          i + length < bytes.count, bytes[i + length] == 0x0A else { return nil }
                    base = Array(bytes[i..<(i + length)])
                    i += length + 1
                }
                let entry = Entry(collection: fields[1], file: fields[2], uid: fields[3], id: fields[4], base: base,
                                  stamp: base == nil ? nil : stamp, rendered: base == nil ? nil : rendered)
                guard state.entries[entry.key] == nil else { return nil }
                state.entries[entry.key] = entry
            default:
                return nil
            }
        }
        return state
    }

    /// A name tick may use for a folder or file in the vdir: not hidden or special, no separator.
    public static func isName(_ name: String) -> Bool { VdirExport.refusal(uid: name) == nil }

    /// A relative path of a list file, inside the task folder.
    static func isListPath(_ path: String) -> Bool {
        path.hasSuffix(".md") && Path.isNormalisedRelative(path) && !path.utf8.contains(where: { $0 < 0x20 })
    }

    /// An `id:` value (FORMAT.md 5.8).
    public static func isIDValue(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        return (1...64).contains(bytes.count) && bytes.allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
        }
    }
}

/// The state file of one vdir: `.tick/vdir/MARK`, MARK naming the vdir's real path.
public struct VdirStateStore: Sendable {
    public let directory: String
    public let fileName: String
    /// The task folder, and the file system it is on.
    let taskFolder: String, fileSystem: any FileSystem

    public init(taskFolder: String, vdirRealPath: String, fileSystem: any FileSystem) {
        directory = Path.join(Path.join(taskFolder, FolderLocation.stateFolderName), "vdir")
        fileName = VdirExport.folderMark(realPath: vdirRealPath)
        (self.taskFolder, self.fileSystem) = (taskFolder, fileSystem)
    }

    /// `.tick/vdir`, relative to the task folder.
    static let relativeDirectory = FolderLocation.stateFolderName + "/vdir"

    /// The recorded state; empty when there is none or any doubt about it.
    public func load() -> VdirState { loadTimed().state }

    /// The recorded state and the state file's modification time (ns; nil with no state): a vdir
    /// file's stamp is trusted only when it is older than that. The time is looked at before the
    /// bytes are read, so a state replaced in between is judged by the older time, which trusts
    /// fewer stamps, never more.
    public func loadTimed() -> (state: VdirState, modified: Int64?) {
        let path = Self.relativeDirectory + "/" + fileName
        guard let folder = try? fileSystem.confined(to: taskFolder),
              let before = try? folder.status(path, followSymlinks: false),
              let bytes = folder.readStateFile(path, limit: VdirState.sizeLimit),
              let state = VdirState.decode(bytes) else { return (VdirState(), nil) }
        return (state, before.modified)
    }

    /// Replaces the state file atomically (0600, in a 0700 folder).
    public func save(_ state: VdirState) throws {
        let folder = try fileSystem.confined(to: taskFolder)
        try folder.createStateDirectory(FolderLocation.stateFolderName, mode: 0o700, narrowing: false)
        try folder.createStateDirectory(Self.relativeDirectory, mode: 0o700, narrowing: true)
        try folder.replaceStateFile(Self.relativeDirectory + "/" + fileName, contents: state.encode())
    }
}
