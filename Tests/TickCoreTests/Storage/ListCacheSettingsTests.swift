#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore
import TickFormat

/// The cache holds parsed lists, so it names the settings they were parsed with (the global filter,
/// FORMAT.md 11): a cache written with one setting is never used with another.
@Suite("List cache: settings")
struct ListCacheSettingsTests {
    static let vault = "# Vault\n- [ ] #task Pay rent 📅 2026-12-01\n- [ ] Buy milk\n  - [ ] Oat milk #task\n"

    func folder(_ path: String, filter: String?) -> Folder {
        var folder = Folder(location: FolderLocation(path: path, source: .option, exists: true), fileSystem: LocalFileSystem())
        folder.globalFilter = filter.flatMap(GlobalFilter.init)
        return folder
    }

    func titles(_ library: Library) -> [String] {
        library.tasks(in: ViewQuery(view: .all, includeCompleted: true),
                      now: Now(day: Day(year: 2026, month: 11, day: 30)!, minutes: 600)).map { library.task($0).title }
    }

    /// A folder whose list is older than the racy window, so that an unchanged cache serves it whole.
    func vault() throws -> TemporaryFolder {
        let dir = TemporaryFolder()
        try Disk.makeFolder(dir.path + "/.tick")
        try dir.write("vault.md", Self.vault)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, dir.path + "/vault.md", &times, 0)
        return dir
    }

    @Test("a change of the global filter is a cache miss: the views change at once, and the cache is written anew")
    func filterChangeIsAMiss() throws {
        let dir = try vault()
        let unfiltered = folder(dir.path, filter: nil).load()
        #expect(unfiltered.parsedPaths == ["vault.md"])
        #expect(titles(unfiltered.library) == ["#task Pay rent", "Buy milk", "Oat milk #task"])
        // Unchanged setting: served from the cache.
        #expect(folder(dir.path, filter: nil).load().parsedPaths == [])

        let filtered = folder(dir.path, filter: "#task").load()
        #expect(filtered.parsedPaths == ["vault.md"])
        #expect(titles(filtered.library) == ["#task Pay rent", "Oat milk #task"])
        #expect(filtered.library.task(TaskID(list: 0, index: 1)).depth == 0)
        // Titles of their own: the same refs with and without the filter (FORMAT.md 11).
        #expect(filtered.library.fullRef(TaskID(list: 0, index: 0)) == unfiltered.library.fullRef(TaskID(list: 0, index: 0)))
        #expect(filtered.library.fullRef(TaskID(list: 0, index: 1)) == unfiltered.library.fullRef(TaskID(list: 0, index: 2)))
        // Written anew with the filter: the next filtered load is a hit with the same answer.
        let again = folder(dir.path, filter: "#task").load()
        #expect(again.parsedPaths == [])
        #expect(titles(again.library) == titles(filtered.library))

        // Another filter, and back to none: each a miss.
        let other = folder(dir.path, filter: "#todo").load()
        #expect(other.parsedPaths == ["vault.md"])
        #expect(titles(other.library) == [])
        let back = folder(dir.path, filter: nil).load()
        #expect(back.parsedPaths == ["vault.md"])
        #expect(titles(back.library) == titles(unfiltered.library))
    }

    @Test("the cache file records the filter's fingerprint in its checksummed header")
    func headerNamesTheSetting() throws {
        let dir = try vault()
        _ = folder(dir.path, filter: "#task").load()
        let withFilter = try #require(ListCache(folder: folder(dir.path, filter: "#task"), environment: [:]))
        let without = try #require(ListCache(folder: folder(dir.path, filter: nil), environment: [:]))
        #expect(withFilter.settings == GlobalFilter.fingerprint(GlobalFilter("#task")))
        #expect(without.settings == 0)
        #expect(withFilter.load() != nil)
        #expect(without.load() == nil)
    }

    @Test("a damaged segment parsed again is parsed with the folder's filter")
    func rebuildUsesTheFilter() throws {
        let dir = try vault()
        let file = try #require(folder(dir.path, filter: "#task").scan().lists.first)
        let bytes = try #require(folder(dir.path, filter: "#task").rebuilder(file))
        let segment = bytes.withUnsafeBytes { Segment(base: $0.baseAddress!, length: $0.count).taskCount }
        #expect(segment == 2)
    }
}
