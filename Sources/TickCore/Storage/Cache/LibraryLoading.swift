import Dispatch
import TickFormat

// Loading a folder into a Library: from the cache where it is proven, else by parsing on all cores.
// It lives with the cache, which it reads: Storage builds on Snapshot, never the reverse.

/// A folder's lists, read and parsed (or taken from the cache), and what could not be read.
public struct LoadResult: Sendable {
    public var library: Library
    /// Things that looked like lists but were skipped (see `FolderScan`).
    public var problems: [FolderProblem]
    /// List files that could not be read.
    public var readErrors: [(file: ListFile, error: FileSystemError)]
    /// The lists read from their files in this load (the others came whole from the cache).
    public var parsedPaths: [String] = []
    /// The cache the library was loaded over, for a write to update.
    var cache: LoadedCache?
}

/// A folder's cache and what was mapped of it when the folder was loaded.
struct LoadedCache: @unchecked Sendable {
    let cache: ListCache
    let cached: CachedLists?
}

extension Folder {
    /// Reads every list: from the cache where a list is unchanged, else parsing it, on all cores.
    /// Never writes a list; it may write the cache (`useCache`), unless `saveCache` is false (a
    /// write command, which updates the cache itself after its change: `TaskFolder`). `partSize`
    /// parses a list larger than it in parts (`Document`), for a process that stays (`tick lsp`).
    public func load(useCache: Bool = true, saveCache: Bool = true, environment: [String: String] = [:],
                     scan given: FolderScan? = nil, partSize: Int? = nil) -> LoadResult {
        let scan = given ?? scan()
        let cache = useCache ? ListCache(folder: self, environment: environment) : nil
        let cached = cache?.load(rebuild: rebuilder)
        let (library, readErrors, unchanged, parsed, checked) = assemble(scan.lists, cached: cached, partSize: partSize)
        // A list checked against its bytes (changed within the racy window, or just written by
        // tick) whose change is now older than the window can be vouched for by its status alone:
        // the cache is written again so that later reads stop reading its file, as git refreshes
        // its index.
        let now = fileSystem.now()
        let settles = checked.contains { ($0.status?.modified ?? .max) < now - ListCache.racyWindow }
        if saveCache, let cache, !unchanged || settles {
            cache.save(library, created: now, over: cached)
        }
        var result = LoadResult(library: library, problems: scan.problems, readErrors: readErrors, parsedPaths: parsed)
        result.cache = cache.map { LoadedCache(cache: $0, cached: cached) }
        return result
    }

    /// Parses a list again into a segment, for a cached one found damaged.
    var rebuilder: @Sendable (ListFile) -> [UInt8]? {
        let fs = fileSystem, filter = globalFilter
        return { file in (try? fs.readFile(file.absolutePath)).map { Segment.build(Document(bytes: $0, globalFilter: filter), path: file.path) } }
    }

    /// The library of `files`: each list's segment from `cached` where the list is unchanged (or its
    /// file still holds the bytes the segment was built from), else parsed, on all cores.
    /// `unchanged` tells whether the cache held exactly these lists, soundly; `checked` names the
    /// lists whose cached segments were taken after checking them against their files' bytes.
    func assemble(_ files: [ListFile], cached: CachedLists?, partSize: Int? = nil)
        -> (library: Library, readErrors: [(file: ListFile, error: FileSystemError)], unchanged: Bool, parsed: [String],
            checked: [ListFile]) {
        var segments = [Segment?](repeating: nil, count: files.count)
        var stale: [Int] = []
        var candidates: [Segment?] = []
        let (found, samePaths) = cached?.entries(for: files) ?? (Array(repeating: nil, count: files.count), false)
        for (i, file) in files.enumerated() {
            switch cached?.lookup(file, in: found[i]) ?? .miss {
            case .hit(let segment):
                segments[i] = segment
            case .verify(let segment):
                stale.append(i)
                candidates.append(segment)
            case .miss:
                stale.append(i)
                candidates.append(nil)
            }
        }
        // Each worker builds its segment into memory of its own, so no list is held twice. A cached
        // segment that needs its file's bytes is kept when they are the same: nothing is parsed.
        enum Outcome { case verified, parsed(UnsafeMutableRawPointer, Int) }
        let slots = ResultSlots<Result<Outcome, FileSystemError>>(count: stale.count)
        let fs = fileSystem, filter = globalFilter
        let toParse = stale, toVerify = candidates
        DispatchQueue.concurrentPerform(iterations: toParse.count) { k in
            let file = files[toParse[k]]
            do {
                let bytes = try fs.readFile(file.absolutePath)
                if let candidate = toVerify[k], candidate.isBuilt(from: bytes) {
                    slots[k] = .success(.verified)
                } else {
                    let document = Document(bytes: bytes, globalFilter: filter, forCheck: false, partSize: partSize)
                    let (memory, length) = Segment.built(document, path: file.path)
                    slots[k] = .success(.parsed(memory, length))
                }
            } catch let error as FileSystemError {
                slots[k] = .failure(error)
            } catch {
                preconditionFailure("FileSystem threw \(error)")
            }
        }
        let storage = cached?.storage ?? SegmentStorage()
        var readErrors: [(file: ListFile, error: FileSystemError)] = []
        var parsed: [Int] = []
        var checked: [ListFile] = []
        for (k, i) in stale.enumerated() {
            switch slots[k]! {
            case .success(.verified):
                segments[i] = candidates[k]
                checked.append(files[i])
            case .success(.parsed(let memory, let length)):
                segments[i] = storage.adopt(memory, length: length)
                parsed.append(i)
            case .failure(let error): readErrors.append((files[i], error))
            }
        }
        var kept: [ListFile] = []
        var keptSegments: [Segment] = []
        kept.reserveCapacity(files.count)
        keptSegments.reserveCapacity(files.count)
        for (i, file) in files.enumerated() {
            if let segment = segments[i] {
                kept.append(file)
                keptSegments.append(segment)
            }
        }
        // The cached short-ref lengths stand while the lists are the same and every list parsed
        // again names its tasks by the same refs (a task completed, dated or flagged by hand).
        let sameLists = readErrors.isEmpty && samePaths && cached?.isDamaged == false
        // With the same lists, `found` holds the cached segment of each, whatever its file holds now.
        let sameRefs = sameLists && parsed.allSatisfy { i in
            found[i].map { segments[i]!.hasSameRefs(as: $0.1) } ?? false
        }
        let library = Library.assemble(files: kept, segments: keptSegments, storage: storage,
                                       shortRefLengths: sameRefs ? cached?.shortRefLengths : nil,
                                       retired: RetiredRefs.load(root: path, fileSystem: fileSystem))
        // Ref lengths that fail their checksum are computed again, and the cache written anew.
        let unchanged = parsed.isEmpty && sameLists && library.refLengths.table != nil
        return (library, readErrors, unchanged, parsed.map { files[$0].path }, checked)
    }
}
