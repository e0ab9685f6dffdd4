#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The persistent cache of parsed lists: one file that is mapped into memory and used as it is.
///
/// It lives in `.tick/cache` (or `${XDG_CACHE_HOME:-~/.cache}/tick/` for a folder without `.tick/`).
/// Like git's index, each list's entry is keyed by path, size, modification and status-change times
/// in nanoseconds, inode and device; a list modified within `racyWindow` before the cache was
/// written is "racy" (a later edit could keep all of those) and is parsed again until the cache is
/// rewritten later. The cache is an optimisation only: any doubt means parsing. `TICK_NO_CACHE=1`
/// turns it off.
///
/// Layout (native byte order): a header, one directory entry per list, the short-ref lengths of
/// every task, the list paths, then each list's segment (see `Segment`).
struct ListCache {
    struct Header {
        var magic: UInt64
        /// The layout this build writes: the strides of both record halves.
        var recordStride: UInt32
        var segmentHeaderStride: UInt32
        var created: Int64
        var listCount: UInt32
        var taskCount: UInt32
    }

    struct Entry {
        var size: UInt64
        var modified: Int64
        var changed: Int64
        var inode: UInt64
        var device: UInt64
        var segmentOffset: UInt64
        var segmentLength: UInt64
        var pathOffset: UInt32
        var pathLength: UInt32
    }

    /// "TKACHE03" (records name tasks by the refs of FORMAT.md 5.8), mixed with the folding table's
    /// fingerprint: the cache holds folded text, so a build that folds differently does not read it.
    static let magic: UInt64 = 0x3330_4548_4341_4B54 ^ Folding.fingerprint
    static let recordLayout = UInt32(MemoryLayout<HotRecord>.stride << 16 | MemoryLayout<ColdRecord>.stride)
    /// Nanoseconds before the cache's writing during which a change makes an entry racy.
    static let racyWindow: Int64 = 2_000_000_000

    let path: String
    let directory: String

    init?(folder: Folder, environment: [String: String]) {
        if let off = environment["TICK_NO_CACHE"], !off.isEmpty, off != "0" { return nil }
        let state = folder.path + "/" + FolderLocation.stateFolderName
        if let s = Posix.stat(state), (s.st_mode & S_IFMT) == S_IFDIR {
            directory = state
            path = state + "/cache"
        } else {
            let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? environment["HOME"].map { $0 + "/.cache" }
            guard let base else { return nil }
            directory = base + "/tick"
            var hash = FNV1a64()
            hash.add(Array(folder.path.utf8))
            path = directory + "/" + String(hash.value, radix: 16)
        }
    }

    /// The cache as last written, mapped; nil when missing or not of this build's layout.
    func load() -> CachedLists? {
        guard let fd = try? Posix.open(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        guard let info = try? Posix.fstat(fd, path), info.st_size >= MemoryLayout<Header>.stride else { return nil }
        let length = Int(info.st_size)
        guard let map = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return nil }
        let base = UnsafeRawPointer(map)
        let storage = SegmentStorage { munmap(map, length) }
        let header = base.loadUnaligned(as: Header.self)
        guard header.magic == ListCache.magic,
              header.recordStride == ListCache.recordLayout,
              header.segmentHeaderStride == MemoryLayout<SegmentHeader>.stride
        else { return nil }
        let entriesOffset = MemoryLayout<Header>.stride
        let refsOffset = entriesOffset + Int(header.listCount) * MemoryLayout<Entry>.stride
        let pathsOffset = refsOffset + Int(header.taskCount)
        guard pathsOffset <= length else { return nil }
        var entries: [String: (Entry, Segment)] = [:]
        var order: [String] = []
        var racy = false
        for k in 0..<Int(header.listCount) {
            let entry = base.loadUnaligned(fromByteOffset: entriesOffset + k * MemoryLayout<Entry>.stride, as: Entry.self)
            let pathStart = pathsOffset + Int(entry.pathOffset)
            guard pathStart + Int(entry.pathLength) <= length,
                  Int(entry.segmentOffset) + Int(entry.segmentLength) <= length
            else { return nil }
            let name = String(decoding: UnsafeRawBufferPointer(start: base + pathStart, count: Int(entry.pathLength)), as: UTF8.self)
            let segment = Segment(base: base + Int(entry.segmentOffset), length: Int(entry.segmentLength))
            guard segment.isConsistent else { return nil }
            if entry.modified >= header.created - ListCache.racyWindow { racy = true }
            entries[name] = (entry, segment)
            order.append(name)
        }
        let lengths = Array(UnsafeRawBufferPointer(start: base + refsOffset, count: Int(header.taskCount)))
        return CachedLists(created: header.created, entries: entries, order: order, shortRefLengths: lengths,
                           hasRacyEntries: racy, storage: storage)
    }

    /// Writes the cache for `library` (atomically: a reader sees the old file or the new one).
    /// Failing to write is not an error: the next run parses again.
    func save(_ library: Library) {
        _ = try? Posix.mkdir(directory)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let created = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        var paths: [UInt8] = []
        var entries: [Entry] = []
        let entriesOffset = MemoryLayout<Header>.stride
        let refsOffset = entriesOffset + library.lists.count * MemoryLayout<Entry>.stride
        let pathsOffset = refsOffset + library.shortRefLengths.count
        let pathBytes = library.lists.reduce(0) { $0 + $1.file.path.utf8.count }
        var offset = (pathsOffset + pathBytes + 7) / 8 * 8
        for list in library.lists {
            guard let status = list.file.status else { return }
            let name = Array(list.file.path.utf8)
            entries.append(Entry(size: UInt64(status.size), modified: status.modified, changed: status.changed,
                                 inode: status.inode, device: status.device, segmentOffset: UInt64(offset),
                                 segmentLength: UInt64(list.segment.length), pathOffset: UInt32(paths.count),
                                 pathLength: UInt32(name.count)))
            paths.append(contentsOf: name)
            offset += (list.segment.length + 7) / 8 * 8
        }
        // The head (header, directory, ref lengths, paths) in one buffer; the segments are written
        // straight from where they are, so the cache is never held twice in memory.
        var head: [UInt8] = []
        let header = Header(magic: ListCache.magic, recordStride: ListCache.recordLayout,
                            segmentHeaderStride: UInt32(MemoryLayout<SegmentHeader>.stride), created: created,
                            listCount: UInt32(entries.count), taskCount: UInt32(library.shortRefLengths.count))
        withUnsafeBytes(of: header) { head.append(contentsOf: $0) }
        entries.withUnsafeBytes { head.append(contentsOf: $0) }
        head.append(contentsOf: library.shortRefLengths)
        head.append(contentsOf: paths)
        while head.count % 8 != 0 { head.append(0) }
        let temporary = path + ".tmp-\(getpid())"
        guard let fd = try? Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC) else { return }
        var written = (try? Posix.writeAll(fd, head, temporary)) != nil
        let padding = [UInt8](repeating: 0, count: 8)
        for list in library.lists where written {
            let bytes = UnsafeRawBufferPointer(start: list.segment.base, count: list.segment.length)
            written = (try? Posix.writeAll(fd, bytes, temporary)) != nil
            let pad = (8 - list.segment.length % 8) % 8
            if written, pad > 0 { written = (try? Posix.writeAll(fd, Array(padding[0..<pad]), temporary)) != nil }
        }
        close(fd)
        if written { _ = try? Posix.rename(temporary, path) } else { Posix.unlink(temporary) }
    }
}

/// A mapped cache: the segments of the lists it holds, for those still unchanged.
struct CachedLists {
    let created: Int64
    let entries: [String: (ListCache.Entry, Segment)]
    let order: [String]
    let shortRefLengths: [UInt8]
    let hasRacyEntries: Bool
    let storage: SegmentStorage

    /// The cached segment of `file`, when the file is unchanged since and its entry is not racy.
    func segment(for file: ListFile) -> Segment? {
        guard let (entry, segment) = entries[file.path], let status = file.status,
              entry.size == UInt64(status.size), entry.modified == status.modified, entry.changed == status.changed,
              entry.inode == status.inode, entry.device == status.device,
              entry.modified < created - ListCache.racyWindow
        else { return nil }
        return segment
    }

    /// Whether the cache holds exactly these lists, in this order.
    func matches(files: [ListFile]) -> Bool {
        order.count == files.count && zip(order, files).allSatisfy { $0 == $1.path }
    }
}
