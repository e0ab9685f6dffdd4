import Testing
@testable import TickCore
import TickFormat

/// A library built from texts, by relative path (sorted like a scan).
func makeLibrary(_ files: [(String, String)]) -> Library {
    let lists = files.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map { path, text in
        (file: ListFile(path: path, absolutePath: "/folder/" + path), document: Document(text))
    }
    return Library(documents: lists)
}

extension Library {
    /// The titles of some tasks.
    func titles(_ ids: [TaskID]) -> [String] { ids.map { task($0).title } }

    func id(_ title: String) -> TaskID? { ids.first { task($0).title == title } }
}

/// Saturday 14 March 2026, 09:30.
let saturday = Now(day: Day(year: 2026, month: 3, day: 14)!, minutes: 9 * 60 + 30)

@Suite("views")
struct FolderViewsTests {
    let library = makeLibrary([
        ("b.md", """
            # Bee
            - [ ] B late due:2026-03-20
            - [ ] B high today !!! due:2026-03-14
            - [ ] B timed past due:2026-03-14T09:00
            - [ ] B timed later #flag due:2026-03-14T18:00
            - [x] B done today due:2026-03-14 done:2026-03-14
            - [ ] B undated #flag

            """),
        ("a.md", """
            - [ ] A overdue due:2026-03-01
            - [ ] A today due:2026-03-14
            - [ ] A today low ! due:2026-03-14
            - [ ] A undated !! #flag
            - [x] A done early done:2026-03-02
            - [x] A done undated

            """),
    ])

    @Test("Today: overdue first (a time already passed counts), then due, priority, path, line")
    func today() {
        let ids = library.tasks(in: ViewQuery(view: .today), now: saturday)
        #expect(library.titles(ids) == [
            "A overdue", "B timed past", "B high today", "A today low", "A today", "B timed later",
        ])
    }

    @Test("--all adds done tasks after the open ones")
    func includeCompleted() {
        let ids = library.tasks(in: ViewQuery(view: .today, includeCompleted: true), now: saturday)
        #expect(library.titles(ids).last == "B done today")
        #expect(ids.count == 7)
    }

    @Test("Scheduled: open tasks with a due date, earliest first")
    func scheduled() {
        let ids = library.tasks(in: ViewQuery(view: .scheduled), now: saturday)
        #expect(library.titles(ids) == [
            "A overdue", "B high today", "A today low", "A today", "B timed past", "B timed later", "B late",
        ])
    }

    @Test("Flagged: undated tasks after dated ones, then priority decides")
    func flagged() {
        let ids = library.tasks(in: ViewQuery(view: .flagged), now: saturday)
        #expect(library.titles(ids) == ["B timed later", "A undated", "B undated"])
    }

    @Test("All groups by list path, and --list narrows to one list")
    func all() {
        let ids = library.tasks(in: ViewQuery(view: .all), now: saturday)
        #expect(library.titles(ids) == [
            "A overdue", "A today low", "A today", "A undated",
            "B high today", "B timed past", "B timed later", "B late", "B undated",
        ])
        let onlyB = library.tasks(in: ViewQuery(view: .all, list: 1), now: saturday)
        #expect(onlyB.allSatisfy { $0.list == 1 } && onlyB.count == 5)
    }

    @Test("a view's levels: each row one deeper than its parent when All shows it under it, else 0")
    func levels() {
        var random = SeededRandom(seed: 21)
        let files = (0..<4).map { l -> (String, String) in
            var text = "# List \(l)\n"
            var depth = 0
            for t in 0..<30 {
                depth = t == 0 ? 0 : Int.random(in: 0...min(depth + 1, 3), using: &random)
                let box = Int.random(in: 0..<4, using: &random) == 0 ? "[x]" : "[ ]"
                let due = Bool.random(using: &random) ? " due:2026-03-\(Int.random(in: 10...20, using: &random))" : ""
                text += String(repeating: "  ", count: depth) + "- \(box) Task \(l).\(t)\(due)\n"
            }
            return ("l\(l).md", text)
        }
        let library = makeLibrary(files)
        var deepest: Int32 = 0
        for view in SmartView.allCases {
            for includeCompleted in [false, true] {
                let query = ViewQuery(view: view, includeCompleted: includeCompleted)
                let (ids, levels) = library.tasksWithLevels(in: query, now: saturday)
                #expect(ids == library.tasks(in: query, now: saturday))
                let expected = view == .all ? library.nestingLevels(ids) : [Int32](repeating: 0, count: ids.count)
                #expect(levels == expected, "\(view) \(includeCompleted)")
                deepest = max(deepest, levels.max() ?? 0)
            }
        }
        #expect(deepest >= 2)
    }

    @Test("Completed: latest done date first, undated last")
    func completed() {
        let ids = library.tasks(in: ViewQuery(view: .completed), now: saturday)
        #expect(library.titles(ids) == ["B done today", "A done early", "A done undated"])
    }

    @Test("home counts are open tasks only")
    func counts() {
        var expected = HomeCounts()
        expected.overdue = 2
        expected.today = 6
        expected.scheduled = 7
        expected.flagged = 3
        expected.all = 9
        #expect(library.counts(now: saturday) == expected)
    }

    @Test("schedule groups: overdue, today, tomorrow, the next weekdays, then dates")
    func scheduleGroups() {
        func group(_ offset: Int) -> ScheduleGroup {
            ScheduleGroup(due: DueDate(day: saturday.day.adding(days: offset)), now: saturday)
        }
        #expect(group(-1) == .overdue)
        #expect(group(0) == .today)
        #expect(ScheduleGroup(due: DueDate(day: saturday.day, minutes: 0), now: saturday) == .today)
        #expect(group(1) == .tomorrow)
        #expect(group(2).title(now: saturday) == "Monday")
        #expect(group(6).title(now: saturday) == "Friday")
        #expect(group(7).title(now: saturday) == "Sat Mar 21")
        #expect(group(300).title(now: saturday) == "Fri Jan 8 2027")
    }
}

@Suite("one list")
struct FolderListViewTests {
    let library = makeLibrary([("home.md", """
        # Home
        - [ ] Loose
        ## Kitchen
        - [ ] Parent ! due:2026-03-20
          - [x] Done child
          - [ ] Open child !!!
            - [ ] Grandchild
          - [ ] Other child due:2026-03-15
        - [ ] Urgent !!!
        ## Garden
        - [x] Done parent
          - [ ] Open under done

        """)])

    func render(_ view: ListView) -> [String] {
        (view.active + view.completed).flatMap { group in
            ["# \(group.section ?? "-")"] + group.rows.map {
                String(repeating: "  ", count: $0.level) + library.task($0.id).title
            }
        }
    }

    @Test("file order, grouped by section, subtasks under their parent, done tasks apart")
    func fileOrder() {
        #expect(render(library.listView(0)) == [
            "# -", "Loose",
            "# Kitchen", "Parent", "  Open child", "    Grandchild", "  Other child", "Urgent",
            "# Garden", "Open under done",
            "# Kitchen", "Done child",
            "# Garden", "Done parent",
        ])
        let view = library.listView(0)
        #expect(view.active.count == 3 && view.completed.count == 2)
    }

    @Test("sorting reorders siblings and keeps subtasks under their parent")
    func sorted() {
        #expect(render(library.listView(0, order: .priority)).prefix(8) == [
            "# -", "Loose",
            "# Kitchen", "Urgent", "Parent", "  Open child", "    Grandchild", "  Other child",
        ])
        #expect(render(library.listView(0, order: .due)).prefix(8) == [
            "# -", "Loose",
            "# Kitchen", "Parent", "  Other child", "  Open child", "    Grandchild", "Urgent",
        ])
    }

    @Test("parent and children links")
    func family() throws {
        let parent = try #require(library.id("Parent"))
        #expect(library.titles(library.children(of: parent)) == ["Done child", "Open child", "Other child"])
        let grandchild = try #require(library.id("Grandchild"))
        #expect(library.parent(of: grandchild).map { library.task($0).title } == "Open child")
        #expect(library.parent(of: parent) == nil)
    }
}

@Suite("naming lists and tasks")
struct FolderNamingTests {
    let library = makeLibrary([
        ("work/projects.md", "# Projects\n- [ ] Ship it\n- [ ] Ship it\n"),
        ("work.md", "# Office\n- [ ] Water the ficus\n"),
        ("personal.md", "- [ ] Call mum\n- [ ] Call dad\n"),
    ])

    @Test("a list by path, file name, display name, or unique prefix, ignoring case")
    func lists() {
        #expect(library.resolve(list: "work/projects") == .found(2))
        #expect(library.resolve(list: "WORK/PROJECTS.MD") == .found(2))
        #expect(library.resolve(list: "work") == .found(1))
        #expect(library.resolve(list: "office") == .found(1))
        #expect(library.resolve(list: "proj") == .found(2))
        #expect(library.resolve(list: "p") == .ambiguous([0, 2]))
        #expect(library.resolve(list: "garden") == .notFound)
    }

    @Test("tasks by ref in any case, exact title, or unique part of a title")
    func tasks() throws {
        let ficus = try #require(library.id("Water the ficus"))
        #expect(library.resolve(ref: library.ref(ficus).uppercased()) == .found(ficus))
        #expect(library.resolve(ref: "water THE ficus") == .found(ficus))
        #expect(library.resolve(ref: "ficus") == .found(ficus))
        guard case .ambiguous(let calls, retired: false) = library.resolve(ref: "call") else {
            Issue.record("'call' should be ambiguous")
            return
        }
        #expect(library.titles(calls) == ["Call mum", "Call dad"])
        #expect(library.resolve(ref: "zebra") == .notFound)
    }

    @Test("an exact title is found whatever its case, also when lowering it shortens it (the Kelvin sign)")
    func exactTitleLoweringShorter() throws {
        // "\u{212A}" (3 bytes) lowers to "k": the title is 6 bytes, the text typed 4. Both tasks hold
        // "kiwi", so only the exact title settles it.
        let kelvin = makeLibrary([("fruit.md", "- [ ] \u{212A}iwi\n- [ ] Buy kiwi jam\n- [ ] \u{212A}\u{212A}iwi\n")])
        let one = try #require(kelvin.id("\u{212A}iwi"))
        #expect(kelvin.resolve(ref: "KIWI") == .found(one))
        let two = try #require(kelvin.id("\u{212A}\u{212A}iwi"))
        #expect(kelvin.resolve(ref: "kkiwi") == .found(two))
    }

    @Test("refs are at least 3 symbols and unique, identical same-titled tasks (twins) included")
    func refs() {
        let refs = library.ids.map(library.ref)
        // The two "Ship it" tasks of work/projects.md agree in everything a ref is made of: twins.
        #expect(refs[library.ids.firstIndex { library.task($0).title == "Ship it" }!] != refs[library.ids.lastIndex { library.task($0).title == "Ship it" }!])
        #expect(Set(refs).count == refs.count)
        #expect(refs.allSatisfy { $0.count >= 3 })
    }
}

@Suite("loading a folder")
struct FolderLoadTests {
    /// The real file system, except that reading one path fails.
    struct FailingReads: FileSystem {
        let failing: String
        let base = LocalFileSystem()

        func readFile(_ path: String, followSymlinks: Bool) throws -> [UInt8] {
            if path.hasSuffix(failing) { throw FileSystemError(path: path, operation: "read", code: Errno.permission) }
            return try base.readFile(path, followSymlinks: followSymlinks)
        }
        func status(_ path: String, followSymlinks: Bool) throws -> FileStatus? {
            try base.status(path, followSymlinks: followSymlinks)
        }
        func contents(ofDirectory path: String) throws -> [String] { try base.contents(ofDirectory: path) }
        func resolvedPath(_ path: String) throws -> String { try base.resolvedPath(path) }
        func isWritable(_ path: String) -> Bool { base.isWritable(path) }
        func createDirectory(_ path: String, intermediates: Bool, mode: UInt32) throws {
            try base.createDirectory(path, intermediates: intermediates, mode: mode)
        }
        func createFile(_ path: String, contents: [UInt8], mode: UInt32?, sync: Bool) throws {
            try base.createFile(path, contents: contents, mode: mode, sync: sync)
        }
        func exchange(_ path: String, with other: String) throws { try base.exchange(path, with: other) }
        func rename(_ path: String, to destination: String) throws { try base.rename(path, to: destination) }
        func link(_ path: String, to destination: String) throws { try base.link(path, to: destination) }
        func removeFile(_ path: String) throws { try base.removeFile(path) }
        func removeDirectory(_ path: String) throws { try base.removeDirectory(path) }
        func setMode(_ path: String, _ mode: UInt32) throws { try base.setMode(path, mode) }
        func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
        func lock(_ path: String) throws -> FileLock { try base.lock(path) }
        func now() -> Int64 { base.now() }
        func pause(nanoseconds: Int64) { base.pause(nanoseconds: nanoseconds) }
        func currentDirectory() throws -> String { try base.currentDirectory() }
    }

    @Test("every list is parsed, in path order; an unreadable one is reported, not fatal")
    func load() throws {
        let tmp = try FolderFixture()
        for i in 0..<40 { try tmp.write("list\(i < 10 ? "0" : "")\(i).md", "# L\(i)\n- [ ] Task \(i)\n") }
        try tmp.write("sub/locked.md", "- [ ] Secret\n")
        let location = FolderLocation(path: tmp.path, source: .option, exists: true)
        let result = Folder(location: location, fileSystem: FailingReads(failing: "/sub/locked.md")).load()
        #expect(result.library.lists.map(\.name) == (0..<40).map { "L\($0)" })
        #expect(result.library.ids.count == 40)
        #expect(result.readErrors.map(\.file.path) == ["sub/locked.md"])
        #expect(result.readErrors.first?.error == FileSystemError(path: tmp.path + "/sub/locked.md", operation: "read", code: Errno.permission))
    }
}

@Suite("search")
struct FolderSearchTests {
    let library = makeLibrary([("a.md", """
        - [ ] Order coffee from the Café du Coin #errands
        - [ ] Call the plumber
          The number is on the fridge magnet.
          Ask about the STRASSE address.
        - [x] Buy a cafetière
        - [ ] Write notes
          naïve approach first, then café crème

        """)])

    func titles(_ words: [String], all: Bool = false) -> [String] {
        library.titles(library.search(words, includeCompleted: all).map(\.id))
    }

    @Test("case and accents are ignored, both ways")
    func folding() {
        #expect(titles(["cafe"]) == ["Order coffee from the Café du Coin #errands", "Write notes"])
        #expect(titles(["CAFÉ", "coin"]) == ["Order coffee from the Café du Coin #errands"])
        #expect(titles(["naive"]) == ["Write notes"])
        #expect(titles(["straße"]) == ["Call the plumber"])
    }

    @Test("every word must occur somewhere: title, notes or tags")
    func everyWord() {
        #expect(titles(["plumber", "magnet"]) == ["Call the plumber"])
        #expect(titles(["plumber", "coffee"]) == [])
        #expect(titles(["#errands"]) == ["Order coffee from the Café du Coin #errands"])
    }

    @Test("completed tasks only with includeCompleted")
    func completed() {
        #expect(titles(["cafetiere"]) == [])
        #expect(titles(["cafetiere"], all: true) == ["Buy a cafetière"])
    }

    @Test("a hit only in the notes carries the note line and where the words are")
    func noteLine() throws {
        let hits = library.search(["fridge", "plumber"])
        let note = try #require(hits.first?.noteLine)
        #expect(note.text == "The number is on the fridge magnet.")
        #expect(note.matches == [21..<27])
        let crème = try #require(library.search(["CAFE", "creme"]).first?.noteLine)
        #expect(crème.text == "naïve approach first, then café crème")
        #expect(crème.matches == [27..<31, 32..<37])
        #expect(library.search(["coffee"]).first?.noteLine == nil)
    }

    @Test("a task all ASCII is searched ignoring ASCII case alone, every other task by its folded text")
    func asciiAndFolded() {
        let library = makeLibrary([("b.md", """
            - [ ] Fix the A[B] switch
            - [ ] Ünïcode TITLE #Tag
              Notes with 日本 and CAPS
            - [ ] PLAIN #Tag
              other caps words

            """)])
        func titles(_ words: [String]) -> [String] { library.titles(library.search(words).map(\.id)) }
        let segment = library.lists[0].segment
        #expect((0..<3).map { segment.hot($0).isFolded } == [false, true, false])
        #expect(String(decoding: segment.foldedText(), as: UTF8.self) == "unicode title #tag #tagnotes with 日本 and caps")
        #expect(titles(["a[b]"]) == ["Fix the A[B] switch"])
        // `{` is `[` with the bit that sets a capital apart: no capital of it.
        #expect(titles(["a{b}"]) == [])
        #expect(titles(["title"]) == ["Ünïcode TITLE #Tag"])
        #expect(titles(["#tag"]) == ["Ünïcode TITLE #Tag", "PLAIN #Tag"])
        #expect(titles(["caps"]) == ["Ünïcode TITLE #Tag", "PLAIN #Tag"])
        #expect(titles(["日本"]) == ["Ünïcode TITLE #Tag"])
        #expect(titles(["日本", "plain"]) == [])
        #expect(titles(["UNICODE", "with"]) == ["Ünïcode TITLE #Tag"])
        // Title with tags and notes are searched apart.
        #expect(titles(["tagnotes"]) == [])
        #expect(titles(["tagother"]) == [])
    }

    @Test("sorting by title compares folded titles, kept folded beyond ASCII or folded as they are read")
    func sortByFoldedTitle() throws {
        let library = makeLibrary([("s.md", "- [ ] Zeta\n- [ ] Ápple\n- [ ] banana #Fruit\n- [ ] Apricot\n- [ ] APPLE #b\n")])
        let sorted = library.sorted(library.ids, by: try SortOrder(parsing: "title"))
        #expect(library.titles(sorted) == ["Ápple", "APPLE #b", "Apricot", "banana #Fruit", "Zeta"])
        #expect(library.lists[0].segment.foldedTitle(4) == Array("apple #b #b".utf8))
        #expect(library.lists[0].segment.foldedTitle(1) == Array("apple".utf8))
    }

    @Test("a word found across the end of one task's text and the start of the next is no hit")
    func acrossTasks() {
        let library = makeLibrary([("a.md", """
            - [ ] abc
              def
            - [ ] ghi
            - [ ] jk
              lm jkl
            - [ ] xyz plumb

            """)])
        func titles(_ words: [String]) -> [String] { library.titles(library.search(words).map(\.id)) }
        // The text runs "abc", "def", "ghi", "jk", "lm jkl", "xyz plumb" with nothing between.
        #expect(Array(library.lists[0].segment.text()) == Array("abcdefghijklm jklxyz plumb".utf8))
        #expect(titles(["cd"]) == [])
        #expect(titles(["fg"]) == [])
        #expect(titles(["ijk"]) == [])
        #expect(titles(["klm"]) == [])
        #expect(titles(["jkl"]) == ["jk"])
        #expect(titles(["jk"]) == ["jk"])
        // The longest word leads the pass over the text; every word is still needed.
        #expect(titles(["plumb", "x"]) == ["xyz plumb"])
        #expect(titles(["plumb", "q"]) == [])
        #expect(titles(["def", "abc"]) == ["abc"])
    }

    @Test("find agrees with a plain byte-by-byte search, from every start, with and without ASCII case",
          arguments: [false, true])
    func findAgrees(caseless: Bool) {
        var random = SeededGenerator(seed: 0x66_696E_64)
        // Few distinct bytes, so that partial matches, repeats and matches at the ends are common;
        // capitals, and the bytes that differ from small letters or capitals by the case bit alone
        // (`@`, `[`, backquote, `{`), in the text only: a needle is folded.
        let small: [UInt8] = Array("abk z{`".utf8) + [0xC3, 0xA9]
        let alphabet = small + Array("ABK@[".utf8)
        func text(_ count: Int, _ from: [UInt8]) -> [UInt8] {
            (0..<count).map { _ in from[Int(random.next() % UInt64(from.count))] }
        }
        func lowered(_ b: UInt8) -> UInt8 { caseless && b >= 0x41 && b <= 0x5A ? b + 32 : b }
        func plain(_ needle: [UInt8], _ haystack: [UInt8], from start: Int) -> Int? {
            guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
            return (start...(haystack.count - needle.count)).first {
                haystack[$0..<($0 + needle.count)].map(lowered).elementsEqual(needle)
            }
        }
        var compared = 0, found = 0, foundOnlyIgnoringCase = 0
        for _ in 0..<400 {
            let haystack = text(Int(random.next() % 40), alphabet)
            let needle = text(1 + Int(random.next() % 4), small)
            for start in 0...haystack.count {
                let expected = plain(needle, haystack, from: start)
                let actual = needle.withUnsafeBufferPointer { n in
                    haystack.withUnsafeBufferPointer { find(n, in: $0, from: start, caseless: caseless) }
                }
                #expect(actual == expected, "\(needle) in \(haystack) from \(start)")
                compared += 1
                if let at = expected {
                    found += 1
                    if !haystack[at..<(at + needle.count)].elementsEqual(needle) { foundOnlyIgnoringCase += 1 }
                }
            }
        }
        // Both outcomes were tried many times, and ignoring case found what plain bytes do not.
        #expect(found > 1000)
        #expect(compared - found > 1000)
        #expect(caseless ? foundOnlyIgnoringCase > 100 : foundOnlyIgnoringCase == 0)
    }

    @Test("folding maps matches back to characters, whatever their length in bytes")
    func matchRanges() {
        #expect(Folding.fold("Ünïcödé") == Array("unicode".utf8))
        #expect(Folding.fold("ÉCOLE Ørsted Œuvre Ŀ Ђ Ёлка Άλφα") == Array("ecole orsted oeuvre l ђ елка αλφα".utf8))
        #expect(matches(of: [Array("e".utf8)], in: "été") == [0..<1, 2..<3])
        #expect(matches(of: [Array("ss".utf8)], in: "Straße!") == [4..<5])
        #expect(matches(of: [Array("ab".utf8), Array("bc".utf8)], in: "abc") == [0..<3])
    }
}
