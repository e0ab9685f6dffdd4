import Dispatch
import TickFormat

/// The persistent cache of parsed lists: mapped into memory and used as it is.
///
/// It lives in `.tick/cache` (or `${XDG_CACHE_HOME:-~/.cache}/tick/` for a folder without `.tick/`).
/// Like git's index, each list's entry is keyed by path, size, modification and status-change times
/// in nanoseconds, inode and device. A list modified within `racyWindow` before the cache was
/// written is "racy" (a later edit could keep all of those), and so is a list that tick's own
/// write just left: such an entry is used only when the file still holds the bytes the segment
/// was built from (their length and checksum are in the segment's header), which costs a read
/// but no parse. The cache is an optimisation only: any doubt means parsing. `TICK_NO_CACHE=1`
/// turns it off.
///
/// Like git's split index, the cache is two files: the base (`cache`), written whole, and a delta
/// (`cache-delta`) that names one base by its header's checksum and length and holds a whole new
/// directory, whose entries point into the base for lists unchanged since, and the segments of
/// every list that changed since the base was written. A run that parses a few lists, and a write
/// (which builds the segments of the lists it wrote), write only the delta; once the delta's
/// segments would pass an eighth of the base, the base is written whole again and the delta
/// removed. A delta of another base is ignored.
///
/// Both files are untrusted input. They are used only when they are regular files reached without
/// a symbolic link (`FileSystem.mapStateFile`); every count, offset and length in them is checked against the
/// mapped size before use; the header, the directory and the short-ref lengths each carry a
/// checksum checked on loading, and each list's segment carries four more (of its head, its hot
/// records, its ref records, and its compressed tail), each checked when that area is first used
/// (see `SegmentProof`), so that a view reading only hot records never reads the rest; the
/// records of each area are checked against the list's counts then too. A failed check, or a
/// compressed tail that does not decompress to exactly its length, is a cache miss: the list is parsed again and the cache is
/// written anew.
///
/// Layout of each file (native byte order): a header, one directory entry per list, the list
/// paths, the short-ref lengths of every task, then segments (see `Segment`), each 8-byte aligned
/// and stored as its head (up to its cold records) followed by its tail compressed (`SegmentTail`);
/// a directory entry gives the stored length.
struct ListCache {
    struct Header {
        var magic: UInt64
        /// The layout this build writes: the strides of both record halves.
        var recordStride: UInt32
        var segmentHeaderStride: UInt32
        var created: Int64
        var listCount: UInt32
        var taskCount: UInt32
        /// The length of the whole file.
        var fileLength: UInt64
        var pathsLength: UInt64
        /// Checksum of the directory entries and the paths.
        var directorySum: UInt64
        /// Checksum of the short-ref lengths.
        var refsSum: UInt64
        /// In a delta: the `headerSum` and `fileLength` of the base it extends (0 in a base).
        var baseSum: UInt64
        var baseLength: UInt64
        /// The settings the lists were read with (`ListCache.settings`): a cache written with other
        /// settings is a miss.
        var settings: UInt64
        /// Checksum of the fields above.
        var headerSum: UInt64
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
        /// `inBase` and `mustVerify`.
        var flags: UInt32
        var spare: UInt32
        var sums: SegmentSums

        /// In a delta: the segment is in the base file.
        static let inBase: UInt32 = 1
        /// The entry was written right after tick wrote the list: it is used only when the file
        /// holds the segment's bytes.
        static let mustVerify: UInt32 = 2
    }

    /// "TKACHE20" for a base and "TKDELT20" for a delta (checksummed; records name tasks by the refs
    /// of FORMAT.md 5.8; hot records mark subtasks, rules, notes and folded text;
    /// ref records hold each task's ref, in 8 bytes; parent records the parent
    /// of each subtask, exactly the tasks marked so; cold records hold where a task's
    /// one run of text starts (it ends where the next task's starts), the lengths of its title,
    /// tags and `id:` value, its section and depth, in 12 bytes; each segment's tail (cold records
    /// to its end) is one LZ4 block, its cold records stored as byte planes (`SegmentTail`);
    /// extra records hold the `rec:` and `until:` of FORMAT.md 5.10, the scheduled and start
    /// days and repetition phrase of FORMAT.md 11, and the lengths, section and depth too large
    /// for a cold record, for the tasks that have them; segments hold the
    /// length and checksum of their file's bytes, the number of problems reading the list found
    /// (since 20), their list's names next to their header, and
    /// folded text only for the tasks whose text is beyond ASCII; the header names the settings the
    /// lists were read with), mixed with the folding table's fingerprint: the cache holds folded
    /// text, so a build that folds differently does not read it. A cache of an older layout is a
    /// miss.
    static let magic: UInt64 = 0x3032_4548_4341_4B54 ^ Folding.fingerprint
    static let deltaMagic: UInt64 = 0x3032_544C_4544_4B54 ^ Folding.fingerprint
    static let recordLayout = UInt32(MemoryLayout<HotRecord>.stride << 20 | MemoryLayout<RefRecord>.stride << 10
                                     | MemoryLayout<ColdRecord>.stride)
    /// Nanoseconds before the cache's writing during which a change makes an entry racy.
    static let racyWindow: Int64 = 2_000_000_000
    static let headerSumLength = MemoryLayout<Header>.offset(of: \Header.headerSum)!
    /// A delta is written while its segments stay within this share of the base (1/8), or this many bytes.
    static let deltaShare = 8
    static let deltaMinimum = 256 << 10
    /// How many segments are compressed at once, on several threads: a batch is compressed while
    /// the one before it is written, so that two batches' compressed tails are held at most.
    static let compressedBatch = 256
    /// About how many bytes of segments are written at once.
    static let writeChunk = 1 << 20

    /// The most bytes a segment's tail may take decompressed, for a list file of `fileSize` bytes:
    /// 64 times them, and 64 KiB more. A tail holds 12 bytes for a task of at least 6 (`- [ ]` and
    /// a line break), 40 more for one that has an extra record, the task's text (never longer
    /// than the file) and its folded text (at most three times longer).
    static func tailLimit(fileSize: UInt64) -> Int { Int(min(fileSize, 1 << 40)) * 64 + 64 << 10 }

    /// Compresses the tails of a batch of segments on other threads while the caller goes on:
    /// writing the batch before it, or, for the first batch of a write command's cache
    /// (`ahead(of:)`), changing its lists.
    final class TailBatch: @unchecked Sendable {
        /// The segments compressed, nil where there is nothing to compress.
        let segments: [Segment?]
        private let results: ResultSlots<[UInt8]>
        private let group = DispatchGroup()
        /// Keeps the segments' memory alive while they are compressed.
        private let storage: SegmentStorage

        /// Starts compressing `segments` on other threads; `now`: compresses them before returning,
        /// on this thread too, when there is nothing to do meanwhile.
        init(_ segments: [Segment?], in storage: SegmentStorage, now: Bool = false) {
            self.segments = segments
            self.storage = storage
            let results = ResultSlots<[UInt8]>(count: segments.count)
            self.results = results
            guard !segments.isEmpty else { return }
            let work: @Sendable () -> Void = {
                // The memory stays alive until the work is done, even when the batch is let go.
                withExtendedLifetime(storage) {
                    // Each thread writes the slots of its own positions only.
                    let parts = min(8, segments.count)
                    DispatchQueue.concurrentPerform(iterations: parts) { part in
                        let compressor = SegmentTail.Compressor()
                        for n in stride(from: part, to: segments.count, by: parts) {
                            guard let segment = segments[n] else { continue }
                            results[n] = compressor.compress(segment.tailBytes, records: segment.taskCount)
                        }
                    }
                }
            }
            if now { work() } else { DispatchQueue.global().async(group: group, execute: work) }
        }

        /// The first batch of the segments that `library` holds built in this run (not read from
        /// the cache), started before a write command changes its lists: their tails are ready,
        /// or nearly, when the cache is written after the change (`save(ahead:)`). It stops before
        /// `aheadBytes` of tails, so that compressing a huge list never adds to the memory its
        /// change takes (it is compressed when the cache is written, after the change).
        static func ahead(of library: Library, budget: Int = aheadBytes) -> TailBatch {
            var segments: [Segment?] = []
            var bytes = 0
            for list in library.lists where list.segment.proof == nil {
                bytes += list.segment.length - list.segment.coldOffset
                guard bytes <= budget, segments.count < ListCache.compressedBatch else { break }
                segments.append(list.segment)
            }
            return TailBatch(segments, in: library.storage)
        }

        /// The most bytes of tails compressed ahead of a change.
        static let aheadBytes = 16 << 20

        /// The compressed tails in order (nil for nil), once all are made.
        func tails() -> [[UInt8]?] {
            group.wait()
            return segments.indices.map { results[$0] }
        }
    }

    /// The file system the cache files are reached through: confined to the task folder for
    /// `.tick/cache` (no link below the folder is followed), else the folder's own for the user's
    /// cache folder, whose state-file calls follow no link in a file's place either.
    let fileSystem: any FileSystem
    /// The folder holding the cache files (relative to the task folder for `.tick`), and the base's
    /// name in it (the delta's is `deltaPath`).
    let directory: String
    let name: String
    /// Whether `directory` is tick's folder under the user's cache folder (created 0700 when missing).
    let isUserCache: Bool
    var path: String { directory + "/" + name }
    var deltaPath: String { path + "-delta" }
    /// The settings that change what a list parses into (the global filter, FORMAT.md 11), as one
    /// number: a cache holds parsed lists, so one written with other settings is not used.
    let settings: UInt64
    /// The longest tail compressed (`SegmentTail.largest`; lower in tests).
    var largestTail = SegmentTail.largest

    init?(folder: Folder, environment: [String: String]) {
        settings = GlobalFilter.fingerprint(folder.globalFilter)
        if let off = environment["TICK_NO_CACHE"], !off.isEmpty, off != "0" { return nil }
        let state = folder.path + "/" + FolderLocation.stateFolderName
        if let found = (try? folder.fileSystem.status(state, followSymlinks: false)) ?? nil {
            // A `.tick` that is a link or a file is not followed: no cache rather than someone else's.
            guard found.kind == .directory, let confined = try? folder.fileSystem.confined(to: folder.path) else { return nil }
            fileSystem = confined
            directory = FolderLocation.stateFolderName
            name = "cache"
            isUserCache = false
        } else {
            let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? environment["HOME"].map { $0 + "/.cache" }
            guard let base else { return nil }
            fileSystem = folder.fileSystem
            directory = base + "/tick"
            var hash = FNV1a64()
            hash.add(Array(folder.path.utf8))
            name = String(hash.value, radix: 16)
            isUserCache = true
        }
    }

    /// The cache as last written, mapped; nil when missing, not a regular file, not of this
    /// build's layout, or damaged in its header or directory. `rebuild` parses a list again, for
    /// a segment found damaged later.
    func load(rebuild: @escaping @Sendable (ListFile) -> [UInt8]? = { _ in nil }) -> CachedLists? {
        guard let base = fileSystem.mapStateFile(path) else { return nil }
        let delta = fileSystem.mapStateFile(deltaPath)
        let fileSystem = fileSystem, path = path, deltaPath = deltaPath
        return ListCache.load(base, delta: delta, rebuild: rebuild, settings: settings) {
            fileSystem.removeStateFile(path, ifStill: base)
            if let delta { fileSystem.removeStateFile(deltaPath, ifStill: delta) }
        }
    }

    /// A file's header, when it is sound and of this build's layout, and where its short-ref lengths end.
    private static func header(of mapped: MappedFile, magic: UInt64, settings: UInt64) -> (header: Header, refsEnd: Int)? {
        guard mapped.length >= MemoryLayout<Header>.stride else { return nil }
        let base = UnsafeRawPointer(mapped.base)
        let length = mapped.length
        let header = base.loadUnaligned(as: Header.self)
        guard header.magic == magic,
              header.recordStride == ListCache.recordLayout,
              header.segmentHeaderStride == MemoryLayout<SegmentHeader>.stride,
              header.headerSum == Checksum.of(base, count: ListCache.headerSumLength),
              header.settings == settings,
              header.fileLength == UInt64(length), header.pathsLength <= UInt64(length),
              UInt64(header.listCount) <= UInt64(length) / UInt64(MemoryLayout<Entry>.stride)
        else { return nil }
        let entriesOffset = MemoryLayout<Header>.stride
        let refsOffset = entriesOffset + Int(header.listCount) * MemoryLayout<Entry>.stride + Int(header.pathsLength)
        let refsEnd = refsOffset + Int(header.taskCount)
        guard refsEnd <= length,
              header.directorySum == Checksum.of(base + entriesOffset, count: refsOffset - entriesOffset)
        else { return nil }
        return (header, refsEnd)
    }

    /// The cache in `mapped` and, when it extends that very base, `delta`; `damaged` is called once
    /// when a segment is found damaged later.
    static func load(_ mapped: MappedFile, delta: MappedFile? = nil, rebuild: @escaping @Sendable (ListFile) -> [UInt8]?,
                     settings: UInt64 = 0, damaged: @escaping () -> Void) -> CachedLists? {
        guard let (baseHeader, baseRefsEnd) = header(of: mapped, magic: ListCache.magic, settings: settings), baseHeader.baseSum == 0 else { return nil }
        var directory = mapped, header = baseHeader, refsEnd = baseRefsEnd
        if let delta, let (h, end) = ListCache.header(of: delta, magic: ListCache.deltaMagic, settings: settings),
           h.baseSum == baseHeader.headerSum, h.baseLength == baseHeader.fileLength {
            directory = delta
            header = h
            refsEnd = end
        }
        let isDelta = directory !== mapped
        let base = UnsafeRawPointer(directory.base)
        let entriesOffset = MemoryLayout<Header>.stride
        let pathsOffset = entriesOffset + Int(header.listCount) * MemoryLayout<Entry>.stride
        let refsOffset = pathsOffset + Int(header.pathsLength)
        let context = CacheContext(rebuild: rebuild, damaged: damaged)
        let listCount = Int(header.listCount)
        // In the directory's order, nil for an entry whose segment is damaged.
        var entries: [(Entry, Segment)?] = []
        entries.reserveCapacity(listCount)
        var order: [String] = []
        order.reserveCapacity(listCount)
        var damaged = false
        // The segments' proofs live as long as their memory: in the storage.
        var proofs: [SegmentProof] = []
        proofs.reserveCapacity(listCount)
        for k in 0..<listCount {
            let entry = base.loadUnaligned(fromByteOffset: entriesOffset + k * MemoryLayout<Entry>.stride, as: Entry.self)
            // The header of the segment four lists on starts loading meanwhile (only an address is
            // taken from its entry, kept within its file).
            if k + 4 < listCount {
                let ahead = base.loadUnaligned(fromByteOffset: entriesOffset + (k + 4) * MemoryLayout<Entry>.stride, as: Entry.self)
                let file = isDelta && ahead.flags & Entry.inBase != 0 ? mapped : directory
                prefetch(UnsafeRawPointer(file.base) + Int(min(ahead.segmentOffset, UInt64(file.length - 1))))
            }
            guard UInt64(entry.pathOffset) + UInt64(entry.pathLength) <= header.pathsLength else { return nil }
            let name = String(decoding: UnsafeRawBufferPointer(start: base + pathsOffset + Int(entry.pathOffset),
                                                               count: Int(entry.pathLength)), as: UTF8.self)
            order.append(name)
            // A segment out of bounds, misaligned or with a damaged head is a miss for its list only.
            let inBase = isDelta && entry.flags & Entry.inBase != 0
            let file = inBase || !isDelta ? mapped : directory
            let start = inBase || !isDelta ? baseRefsEnd : refsEnd
            guard entry.segmentOffset % 8 == 0, entry.segmentOffset >= UInt64(start),
                  entry.segmentOffset <= UInt64(file.length), entry.segmentLength <= UInt64(file.length) - entry.segmentOffset,
                  case let proof = SegmentProof(sums: entry.sums, context: context,
                                                tailLimit: ListCache.tailLimit(fileSize: entry.size)),
                  let segment = Segment(cached: UnsafeRawPointer(file.base) + Int(entry.segmentOffset),
                                        storedLength: Int(entry.segmentLength), proof: proof)
            else {
                damaged = true
                entries.append(nil)
                continue
            }
            entries.append((entry, segment))
            proofs.append(proof)
        }
        let refs = UnsafeRawBufferPointer(start: base + refsOffset, count: Int(header.taskCount))
        let kept = [mapped] + (isDelta ? [directory] : [])
        return CachedLists(created: header.created, entries: entries, order: order, refs: refs, refsSum: header.refsSum,
                           isDamaged: damaged,
                           base: CachedLists.Base(start: UnsafeRawPointer(mapped.base), length: mapped.length,
                                                  segmentsStart: baseRefsEnd, headerSum: baseHeader.headerSum),
                           storage: SegmentStorage { withExtendedLifetime((kept, proofs)) {} })
    }

    /// Writes the cache for `library` (atomically: a reader sees the old files or the new ones),
    /// stamped `created` (nanoseconds since the epoch, by the clock file times are in: the caller's
    /// `FileSystem.now()`; lists changed within `racyWindow` before it are racy). `cached` is the
    /// cache the library was loaded over: when it holds a sound base, only a delta is written while
    /// it stays small. The lists at `verify` (just written by tick) are marked to be checked
    /// against their bytes. Failing to write is not an error: the next run parses again.
    func save(_ library: Library, created: Int64, over cached: CachedLists? = nil, verify: Set<String> = [],
              ahead: TailBatch? = nil) {
        if isUserCache {
            guard (try? fileSystem.createStateDirectory(directory, mode: 0o700, narrowing: true)) != nil else { return }
        }
        // The lists whose segments are still the base file's own bytes, at their offsets in it.
        var inBase = [Int?](repeating: nil, count: library.lists.count)
        var deltaBytes = 0
        // Damage anywhere in what was loaded (a segment, the short-ref lengths) writes the base anew.
        let sound = cached.map { !$0.isDamaged && $0.shortRefLengths != nil } ?? false
        if let base = cached?.base, sound {
            for (k, list) in library.lists.enumerated() {
                let offset = list.segment.base - base.start
                if list.segment.cacheProof?.state == .intact, offset >= base.segmentsStart,
                   offset <= base.length - list.segment.storedLength {
                    inBase[k] = offset
                } else {
                    deltaBytes += (list.segment.storedLength + 7) / 8 * 8
                }
            }
        }
        let writesDelta = sound && deltaBytes <= max(ListCache.deltaMinimum, cached!.base.length / ListCache.deltaShare)
        if !writesDelta { inBase = inBase.map { _ in nil } }
        // Every byte written was built in this run, proven against its checksum (a damaged
        // segment is parsed again first), or is a cached segment copied as it was read (`copied`),
        // which keeps the checksums it was read with, as one left in the base does: the next reader
        // proves it. A segment that could not be trusted is not written at all.
        var sums: [SegmentSums] = []
        var copied = [Bool](repeating: false, count: library.lists.count)
        for (k, list) in library.lists.enumerated() {
            if let proof = list.segment.cacheProof, proof.state == .intact {
                copied[k] = inBase[k] == nil
                sums.append(proof.sums)
                continue
            }
            guard let s = list.segment.provenSums() else { return }
            sums.append(s)
        }
        let refLengths = library.shortRefLengths
        var paths: [UInt8] = []
        let entriesOffset = MemoryLayout<Header>.stride
        let pathsOffset = entriesOffset + library.lists.count * MemoryLayout<Entry>.stride
        let pathBytes = library.lists.reduce(0) { $0 + $1.file.path.utf8.count }
        let refsOffset = pathsOffset + pathBytes
        let headLength = (refsOffset + refLengths.count + 7) / 8 * 8
        guard library.lists.allSatisfy({ $0.file.status != nil }) else { return }
        // The head (header, directory, paths, ref lengths) is written last, over zeros at the
        // start of the file, once the segments' stored lengths are known; the segments are
        // written from where they are, their tails compressed a batch at a time, so that the
        // cache is never held twice in memory.
        var placed = [(offset: Int, length: Int)](repeating: (0, 0), count: library.lists.count)
        for k in library.lists.indices {
            if let at = inBase[k] { placed[k] = (at, library.lists[k].segment.storedLength) }
        }
        let written = library.lists.indices.filter { inBase[$0] == nil }
        // LZ4 takes blocks below 2 GiB: a folder holding a list whose tail is larger is not cached.
        guard written.allSatisfy({ k in
            copied[k] || library.lists[k].segment.length - library.lists[k].segment.coldOffset <= largestTail
        }) else { return }
        // The tails compressed ahead, by where their segments lie; those of the lists changed since
        // were not, and are compressed with the rest.
        var early: [UnsafeRawPointer: [UInt8]] = [:]
        if let ahead {
            for (segment, tail) in zip(ahead.segments, ahead.tails()) {
                if let segment, let tail { early[segment.base] = tail }
            }
        }
        let batches = stride(from: 0, to: written.count, by: ListCache.compressedBatch).map {
            Array(written[$0..<min($0 + ListCache.compressedBatch, written.count)])
        }
        func compressing(_ batch: [Int], now: Bool = false) -> TailBatch {
            TailBatch(batch.map { k in
                let segment = library.lists[k].segment
                return copied[k] || early[segment.base] != nil ? nil : segment
            }, in: library.storage, now: now)
        }
        do {
            try fileSystem.replaceStateFile(writesDelta ? deltaPath : path) { (file) throws(FileSystemError) in
                try file.write([UInt8](repeating: 0, count: headLength))
                var offset = headLength
                // Segments are gathered into writes of about 1 MiB, rather than a few small ones a list.
                var pending: [UInt8] = []
                pending.reserveCapacity(ListCache.writeChunk + (64 << 10))
                func flush() throws(IOFailure) {
                    guard !pending.isEmpty else { return }
                    try file.write(pending)
                    pending.removeAll(keepingCapacity: true)
                }
                /// Counts `count` bytes as written: a large piece is written as it is, after what is
                /// pending; a small one is gathered (`gather`).
                func place(_ count: Int, whole: () throws(IOFailure) -> Void, gather: () -> Void) throws(IOFailure) {
                    if count >= ListCache.writeChunk {
                        try flush()
                        try whole()
                    } else {
                        gather()
                        if pending.count >= ListCache.writeChunk { try flush() }
                    }
                    offset += count
                }
                func write(_ bytes: UnsafeRawBufferPointer) throws(IOFailure) {
                    try place(bytes.count, whole: { () throws(IOFailure) in try file.write(bytes) },
                              gather: { pending.append(contentsOf: bytes) })
                }
                func write(_ bytes: [UInt8]) throws(IOFailure) {
                    try place(bytes.count, whole: { () throws(IOFailure) in try file.write(bytes) },
                              gather: { pending.append(contentsOf: bytes) })
                }
                // Each batch is compressed while the one before it is written.
                var next = batches.first.map { compressing($0, now: true) }
                for (b, batch) in batches.enumerated() {
                    let tails = next!.tails()
                    next = b + 1 < batches.count ? compressing(batches[b + 1]) : nil
                    for (n, k) in batch.enumerated() {
                        let segment = library.lists[k].segment
                        let begin = offset
                        if copied[k] {
                            try write(segment.storedBytes)
                        } else {
                            try write(UnsafeRawBufferPointer(start: segment.base, count: segment.coldOffset))
                            try write(tails[n] ?? early.removeValue(forKey: segment.base)!)
                        }
                        placed[k] = (begin, offset - begin)
                        let pad = (8 - offset % 8) % 8
                        if pad > 0 { try write([UInt8](repeating: 0, count: pad)) }
                    }
                }
                try flush()
                var entries: [Entry] = []
                for (k, (list, sums)) in zip(library.lists, sums).enumerated() {
                    let status = list.file.status!
                    let name = Array(list.file.path.utf8)
                    var flags: UInt32 = verify.contains(list.file.path) ? Entry.mustVerify : 0
                    if inBase[k] != nil { flags |= Entry.inBase }
                    entries.append(Entry(size: UInt64(status.size), modified: status.modified, changed: status.changed,
                                         inode: status.inode, device: status.device, segmentOffset: UInt64(placed[k].offset),
                                         segmentLength: UInt64(placed[k].length), pathOffset: UInt32(paths.count),
                                         pathLength: UInt32(name.count), flags: flags, spare: 0, sums: sums))
                    paths.append(contentsOf: name)
                }
                var head: [UInt8] = []
                var header = Header(magic: writesDelta ? ListCache.deltaMagic : ListCache.magic,
                                    recordStride: ListCache.recordLayout,
                                    segmentHeaderStride: UInt32(MemoryLayout<SegmentHeader>.stride), created: created,
                                    listCount: UInt32(entries.count), taskCount: UInt32(refLengths.count),
                                    fileLength: UInt64(offset), pathsLength: UInt64(paths.count), directorySum: 0,
                                    refsSum: Checksum.of(refLengths), baseSum: writesDelta ? cached!.base.headerSum : 0,
                                    baseLength: writesDelta ? UInt64(cached!.base.length) : 0, settings: settings,
                                    headerSum: 0)
                entries.withUnsafeBytes { head.append(contentsOf: $0) }
                head.append(contentsOf: paths)
                header.directorySum = Checksum.of(head)
                header.headerSum = withUnsafeBytes(of: header) { Checksum.of($0.baseAddress!, count: ListCache.headerSumLength) }
                withUnsafeBytes(of: header) { head.insert(contentsOf: $0, at: 0) }
                head.append(contentsOf: refLengths)
                while head.count % 8 != 0 { head.append(0) }
                precondition(head.count == headLength, "the cache's head changed length while its segments were written")
                try file.write(head, at: 0)
            }
        } catch {
            return
        }
        // A new base makes any delta one of another base: it goes.
        if !writesDelta { fileSystem.removeStateFile(deltaPath, ifStill: nil) }
    }
}

/// What a cached entry is worth for a list file as it is now.
enum CacheLookup {
    /// Unchanged since the cache was written: the segment as it is.
    case hit(Segment)
    /// Its status matches, but the entry is racy or was just written by tick: the segment, if the
    /// file still holds its bytes (`Segment.isBuilt(from:)`).
    case verify(Segment)
    case miss
}
