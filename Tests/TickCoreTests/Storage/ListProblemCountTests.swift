#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// The problems reading a list finds, which the views report (issue 49, item 8): counted when the
/// list is parsed, kept in its segment's header, read back from the cache as untrusted input.
@Suite("List cache: problem counts")
struct ListProblemCountTests {
    static let troubled = """
        # Work
        <<<<<<< HEAD
        - [ ] Call Bob due:tomorrow
        =======
        - [ ] Pay due:2026-13-01
        >>>>>>> theirs

        """

    func folder(_ path: String) -> Folder {
        Folder(location: FolderLocation(path: path, source: .option, exists: true), fileSystem: LocalFileSystem())
    }

    @Test("a conflict marker and each token like a field that is not one count once, as tick check counts them")
    func countOnParse() {
        let document = Document(Self.troubled)
        #expect(document.readingProblemCount == 3)
        #expect(document.readingProblemCount == document.checkDiagnostics().count)
        let segment = Segment.build(document, path: "work.md")
        segment.withUnsafeBytes { #expect(Segment(base: $0.baseAddress!, length: $0.count).header.problemCount == 3) }
        #expect(Document("# Clean\n- [ ] Call Bob due:2026-12-01\n").readingProblemCount == 0)
        // Front matter that is not, and a symbol too wide, count as check counts them.
        let odd = Document("---\nsymbol: 🟥🟥🟥🟥🟥\ncolor: red\n---\n- [ ] a\n")
        #expect(odd.readingProblemCount == odd.checkDiagnostics().count)
        #expect(odd.readingProblemCount == 1)
    }

    @Test("a list's count read from the cache is the count of parsing it")
    func cachedCount() throws {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("work.md", Self.troubled)
        try dir.write("home.md", "- [ ] clean\n")
        for name in ["work.md", "home.md"] {
            var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
            utimensat(AT_FDCWD, dir.path + "/" + name, &times, 0)
        }
        _ = folder(dir.path).load()
        let cached = folder(dir.path).load().library
        #expect(cached.lists.allSatisfy { $0.segment.proof != nil })
        let fresh = folder(dir.path).load(useCache: false).library
        #expect(fresh.lists.allSatisfy { $0.segment.proof == nil })
        #expect(cached.lists.map(\.problemCount) == [0, 3])
        #expect(fresh.lists.map(\.problemCount) == [0, 3])
    }

    @Test("a cached header counting more problems than its file has bytes is refused, even when its checksum holds")
    func forgedCount() throws {
        let text = "- [ ] a due:tomorrow\n"
        let length = UInt32(text.utf8.count)
        func cached(_ count: UInt32) -> Bool {
            var bytes = Segment.build(Document(text), path: "forged.md")
            let offset = MemoryLayout<SegmentHeader>.offset(of: \SegmentHeader.problemCount)!
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: count, toByteOffset: offset, as: UInt32.self) }
            return bytes.withUnsafeBytes { raw in
                let plain = Segment(base: raw.baseAddress!, length: raw.count)
                let stored = Array(UnsafeRawBufferPointer(rebasing: raw[0..<plain.coldOffset]))
                    + SegmentTail.Compressor().compress(plain.tailBytes, records: plain.taskCount)
                let proof = SegmentProof(sums: plain.sums(), context: CacheContext(rebuild: { _ in nil }, damaged: {}),
                                         tailLimit: ListCache.tailLimit(fileSize: UInt64(length)))
                return stored.withUnsafeBytes { storedRaw in
                    withExtendedLifetime(proof) {
                        Segment(cached: storedRaw.baseAddress!, storedLength: storedRaw.count, proof: proof)
                            .map { $0.header.problemCount == count } ?? false
                    }
                }
            }
        }
        #expect(cached(1))
        #expect(cached(length))
        #expect(!cached(length + 1))
        #expect(!cached(.max))
    }
}
