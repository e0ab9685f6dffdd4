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

        public init(collection: String, file: String, uid: String, id: String, base: [UInt8]?) {
            self.collection = collection
            self.file = file
            self.uid = uid
            self.id = id
            self.base = base
        }

        public var key: String { collection + "/" + file }
    }

    /// List file (relative path) → collection folder name.
    public var collections: [String: String] = [:]
    /// By `Entry.key`.
    public var entries: [String: Entry] = [:]

    public init() {}

    static let magic = "tick-vdir-state 1\n"
    /// The largest state read: 500 tasks of 4 KiB each many times over.
    public static let sizeLimit = 64 << 20
    static let maximumObject = VObject.sizeLimit

    /// The state as bytes: the magic line, then `L\tPATH\tFOLDER\n` per list and
    /// `T\tFOLDER\tFILE\tUID\tID\tLENGTH\n` per task followed by LENGTH bytes of base and `\n`
    /// (LENGTH `-` for none).
    public func encode() -> [UInt8] {
        var out = Array(Self.magic.utf8)
        for path in collections.keys.sorted() { out += Array("L\t\(path)\t\(collections[path]!)\n".utf8) }
        for key in entries.keys.sorted() {
            let e = entries[key]!
            out += Array("T\t\(e.collection)\t\(e.file)\t\(e.uid)\t\(e.id)\t\(e.base.map { String($0.count) } ?? "-")\n".utf8)
            if let base = e.base { out += base + [0x0A] }
        }
        return out
    }

    /// The state in `bytes`, or nil when anything in it is not as tick writes it.
    public static func decode(_ bytes: [UInt8]) -> VdirState? {
        guard bytes.count <= sizeLimit, bytes.starts(with: Array(magic.utf8)) else { return nil }
        var state = VdirState()
        var i = magic.utf8.count
        while i < bytes.count {
            guard let end = bytes[i...].firstIndex(of: 0x0A),
                  let line = String(validating: bytes[i..<end], as: UTF8.self) else { return nil }
            i = end + 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "L":
                guard fields.count == 3, isListPath(fields[1]), isName(fields[2]),
                      state.collections[fields[1]] == nil else { return nil }
                state.collections[fields[1]] = fields[2]
            case "T":
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
                let entry = Entry(collection: fields[1], file: fields[2], uid: fields[3], id: fields[4], base: base)
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
    public func load() -> VdirState {
        guard let state = try? fileSystem.confined(to: taskFolder),
              let bytes = state.readStateFile(Self.relativeDirectory + "/" + fileName, limit: VdirState.sizeLimit),
              let state = VdirState.decode(bytes) else { return VdirState() }
        return state
    }

    /// Replaces the state file atomically (0600, in a 0700 folder).
    public func save(_ state: VdirState) throws {
        let folder = try fileSystem.confined(to: taskFolder)
        try folder.createStateDirectory(FolderLocation.stateFolderName, mode: 0o700, narrowing: false)
        try folder.createStateDirectory(Self.relativeDirectory, mode: 0o700, narrowing: true)
        try folder.replaceStateFile(Self.relativeDirectory + "/" + fileName, contents: state.encode())
    }
}
