import Foundation
import Testing
@testable import TickCore

/// A temporary folder removed when the value goes away.
final class FolderFixture {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tick-core-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ relative: String, _ text: String = "- [ ] x\n") throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func mkdir(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/" + relative, withIntermediateDirectories: true)
    }

    func link(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path + "/" + relative, withDestinationPath: destination)
    }
}

@Suite("folder location")
struct FolderLocationTests {
    let fs = LocalFileSystem()

    func locate(option: String? = nil, environment: [String: String] = [:], cwd: String) throws -> FolderLocation {
        try FolderLocation.locate(option: option, environment: environment, currentDirectory: cwd, fileSystem: fs)
    }

    @Test("--dir wins, resolved against the working folder")
    func option() throws {
        let tmp = try FolderFixture()
        try tmp.mkdir("a/b")
        try tmp.mkdir("env")
        let location = try locate(option: "b/../b", environment: ["TICK_DIR": tmp.path + "/env"], cwd: tmp.path + "/a")
        #expect(location == FolderLocation(path: tmp.path + "/a/b", source: .option, exists: true))
    }

    @Test("TICK_DIR comes next; empty counts as unset")
    func environment() throws {
        let tmp = try FolderFixture()
        try tmp.mkdir("env/.tick")
        try tmp.mkdir("work/.tick")
        let location = try locate(environment: ["TICK_DIR": tmp.path + "/env"], cwd: tmp.path + "/work")
        #expect(location == FolderLocation(path: tmp.path + "/env", source: .environment, exists: true))
        let unset = try locate(environment: ["TICK_DIR": ""], cwd: tmp.path + "/work")
        #expect(unset.source == .ancestor)
    }

    @Test("the nearest ancestor holding .tick/ comes next")
    func ancestor() throws {
        let tmp = try FolderFixture()
        try tmp.mkdir("outer/.tick")
        try tmp.mkdir("outer/inner/.tick")
        try tmp.mkdir("outer/inner/deep/er")
        try tmp.write("outer/inner/deep/.tick", "a file named .tick does not count\n")
        let location = try locate(cwd: tmp.path + "/outer/inner/deep/er")
        #expect(location == FolderLocation(path: tmp.path + "/outer/inner", source: .ancestor, exists: true))
    }

    @Test("the default is $XDG_DATA_HOME/tick, else $HOME/.local/share/tick; a relative XDG_DATA_HOME is ignored")
    func defaultLocation() throws {
        let tmp = try FolderFixture()
        let xdg = try locate(environment: ["XDG_DATA_HOME": tmp.path + "/data", "HOME": "/home/x"], cwd: tmp.path)
        #expect(xdg == FolderLocation(path: tmp.path + "/data/tick", source: .defaultLocation, exists: false))
        try tmp.mkdir("home/.local/share/tick")
        let home = try locate(environment: ["XDG_DATA_HOME": "relative/data", "HOME": tmp.path + "/home"], cwd: tmp.path)
        #expect(home == FolderLocation(path: tmp.path + "/home/.local/share/tick", source: .defaultLocation, exists: true))
        #expect(throws: FolderError.noDefaultLocation) { try locate(environment: [:], cwd: tmp.path) }
    }

    @Test("a --dir or TICK_DIR that is missing or not a folder is an error naming it as given")
    func missing() throws {
        let tmp = try FolderFixture()
        try tmp.write("file.md")
        #expect(throws: FolderError.missing(path: "nope", source: .option)) { try locate(option: "nope", cwd: tmp.path) }
        #expect(throws: FolderError.missing(path: "", source: .option)) { try locate(option: "", cwd: tmp.path) }
        #expect(throws: FolderError.notAFolder(path: "file.md", source: .option)) {
            try locate(option: "file.md", cwd: tmp.path)
        }
        #expect(throws: FolderError.missing(path: "/no/such/dir", source: .environment)) {
            try locate(environment: ["TICK_DIR": "/no/such/dir"], cwd: tmp.path)
        }
        #expect(FolderError.missing(path: "/x", source: .environment).description
                == "task folder '/x' (from TICK_DIR) does not exist")
    }
}

@Suite("folder scan")
struct FolderScanTests {
    func scan(_ tmp: FolderFixture) -> FolderScan {
        Folder(location: FolderLocation(path: tmp.path, source: .option, exists: true), fileSystem: LocalFileSystem()).scan()
    }

    @Test("every .md file below the folder is a list, sorted by path byte for byte")
    func recursive() throws {
        let tmp = try FolderFixture()
        for file in ["b.md", "a.md", "a/z.md", "B.md", "a/b/c.md", "notes.txt", "README", "x.MD", "é.md"] {
            try tmp.write(file)
        }
        let result = scan(tmp)
        #expect(result.lists.map(\.path) == ["B.md", "a.md", "a/b/c.md", "a/z.md", "b.md", "é.md"])
        #expect(result.lists.first?.absolutePath == tmp.path + "/B.md")
        #expect(result.lists.map(\.baseName) == ["B", "a", "c", "z", "b", "é"])
        #expect(result.problems.isEmpty)
    }

    @Test("hidden files and folders are skipped, .tick/ among them")
    func hidden() throws {
        let tmp = try FolderFixture()
        try tmp.write("visible.md")
        try tmp.write(".tick/state.md")
        try tmp.write(".git/x.md")
        try tmp.write(".hidden.md")
        try tmp.write("sub/.draft.md")
        try tmp.write("sub/.cache/y.md")
        #expect(scan(tmp).lists.map(\.path) == ["visible.md"])
    }

    @Test("a scan collects the hidden names its caller's rule picks as leftovers, at every depth; a read collects none")
    func leftovers() throws {
        let tmp = try FolderFixture()
        try tmp.write("a.md")
        try tmp.write(".a.md.tick-12-1")
        try tmp.write("sub/.b.md.tick-12-2")
        try tmp.write("sub/.draft.md")
        try tmp.write(".tick/.c.md.tick-12-3")
        let folder = Folder(location: FolderLocation(path: tmp.path, source: .option, exists: true), fileSystem: LocalFileSystem())
        #expect(folder.scan().leftovers.isEmpty)
        let picked = folder.scan(leftovers: { $0.contains(".tick-") })
        #expect(picked.leftovers == [".a.md.tick-12-1", "sub/.b.md.tick-12-2"])
        #expect(picked.lists == folder.scan().lists)
    }

    @Test("a folder named x.md is a folder, not a list")
    func folderNamedMd() throws {
        let tmp = try FolderFixture()
        try tmp.mkdir("empty.md")
        try tmp.write("full.md/inside.md")
        let result = scan(tmp)
        #expect(result.lists.map(\.path) == ["full.md/inside.md"])
        #expect(result.problems.isEmpty)
    }

    @Test("a symbolic link to a list file is a list at the link's path")
    func linkedFile() throws {
        let tmp = try FolderFixture()
        try tmp.write("real.md")
        try tmp.link("alias.md", to: "real.md")
        // A list beside the folder, outside it: not scanned, and removed when the test ends.
        let outside = "../outside-\(UUID().uuidString).md"
        try tmp.write(outside)
        defer { try? FileManager.default.removeItem(atPath: tmp.path + "/" + outside) }
        #expect(scan(tmp).lists.map(\.path) == ["alias.md", "real.md"])
    }

    @Test("dangling links and link loops named .md are reported, others ignored")
    func brokenLinks() throws {
        let tmp = try FolderFixture()
        try tmp.write("ok.md")
        try tmp.link("gone.md", to: "nowhere.md")
        try tmp.link("gone.txt", to: "nowhere.txt")
        try tmp.link("loop.md", to: "loop.md")
        try tmp.link("ping.md", to: "pong.md")
        try tmp.link("pong.md", to: "ping.md")
        let result = scan(tmp)
        #expect(result.lists.map(\.path) == ["ok.md"])
        #expect(result.problems == [.danglingSymlink(path: "gone.md"), .symlinkLoop(path: "loop.md"),
                                    .symlinkLoop(path: "ping.md"), .symlinkLoop(path: "pong.md")])
        #expect(result.problems[0].description == "skipped 'gone.md': dangling symbolic link")
    }

    @Test("a linked folder is entered once; a link back to an ancestor is a loop, not a hang")
    func linkedFolders() throws {
        let tmp = try FolderFixture()
        try tmp.write("projects/a.md")
        try tmp.link("projects/again", to: "..")
        try tmp.link("projects/self", to: ".")
        try tmp.link("shortcut", to: "projects")
        let result = scan(tmp)
        #expect(result.lists.map(\.path) == ["projects/a.md"])
        #expect(result.problems == [.symlinkLoop(path: "projects/again"), .symlinkLoop(path: "projects/self")])
    }

    @Test("a folder that cannot be read is reported and the rest is scanned",
          .enabled(if: getuid() != 0, "root reads every folder"))
    func unreadableFolder() throws {
        let tmp = try FolderFixture()
        try tmp.write("a.md")
        try tmp.write("locked/b.md")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: tmp.path + "/locked")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.path + "/locked") }
        let result = scan(tmp)
        #expect(result.lists.map(\.path) == ["a.md"])
        #expect(result.problems == [.unreadable(path: "locked", error: FileSystemError(path: tmp.path + "/locked", operation: "read", code: Errno.permission))])
    }

    @Test("a FIFO named .md is not read")
    func fifo() throws {
        let tmp = try FolderFixture()
        #expect(mkfifo(tmp.path + "/pipe.md", 0o644) == 0)
        let result = scan(tmp)
        #expect(result.lists.isEmpty)
        #expect(result.problems == [.notARegularFile(path: "pipe.md")])
    }

    @Test("a default folder that does not exist yet has no lists")
    func missingDefault() {
        let folder = Folder(location: FolderLocation(path: "/nonexistent/tick", source: .defaultLocation, exists: false),
                            fileSystem: LocalFileSystem())
        #expect(folder.scan() == FolderScan())
    }

    @Test("paths are shown relative to the folder when inside it")
    func display() {
        let folder = Folder(location: FolderLocation(path: "/t/lists", source: .option, exists: true),
                            fileSystem: LocalFileSystem())
        #expect(folder.display("/t/lists/a/b.md") == "a/b.md")
        #expect(folder.display("/t/listsx/b.md") == "/t/listsx/b.md")
        #expect(folder.display("/elsewhere.md") == "/elsewhere.md")
    }
}

@Suite("folder initialisation")
struct FolderInitTests {
    let fs = LocalFileSystem()

    @Test("creates the folder, .tick/ and .tick/.gitignore holding '*'")
    func creates() throws {
        let tmp = try FolderFixture()
        let target = tmp.path + "/new/tasks"
        #expect(try Folder.initialize(at: target, fileSystem: fs) == .created)
        #expect(try fs.readFile(target + "/.tick/.gitignore") == Array("*\n!.gitignore\n".utf8))
        #expect(try Folder.initialize(at: target, fileSystem: fs) == .alreadyInitialized)
    }

    @Test("an existing .tick/ keeps its content and gets a missing .gitignore")
    func existing() throws {
        let tmp = try FolderFixture()
        try tmp.write(".tick/journal", "keep me\n")
        #expect(try Folder.initialize(at: tmp.path, fileSystem: fs) == .alreadyInitialized)
        #expect(try fs.readFile(tmp.path + "/.tick/journal") == Array("keep me\n".utf8))
        #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array("*\n!.gitignore\n".utf8))
        try tmp.write(".tick/.gitignore", "custom\n")
        try Folder.initialize(at: tmp.path, fileSystem: fs)
        #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array("custom\n".utf8))
    }

    @Test("a file named .tick is refused")
    func fileInTheWay() throws {
        let tmp = try FolderFixture()
        try tmp.write(".tick", "")
        #expect(throws: FolderError.notAFolder(path: tmp.path + "/.tick", source: .initialization)) {
            try Folder.initialize(at: tmp.path, fileSystem: fs)
        }
    }
}

@Suite("list names")
struct ListNameOrderTests {
    @Test("lists sort by a folded, accent-insensitive key: Über next to U, case ignored")
    func sortKey() {
        let names = ["Zeta", "Über", "apple", "Under", "uber", "Éclair", "eclair"]
        #expect(names.sorted { ListNaming.sortKey($0) < ListNaming.sortKey($1) }
                == ["apple", "eclair", "Éclair", "uber", "Über", "Under", "Zeta"])
    }
}
