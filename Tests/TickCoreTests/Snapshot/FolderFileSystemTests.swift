import Foundation
import Testing
@testable import TickCore

@Suite("local file system")
struct FolderFileSystemTests {
    let fs = LocalFileSystem()

    @Test("reads a file's exact bytes, empty or larger than one read")
    func readsBytes() throws {
        let tmp = try FolderFixture()
        try tmp.write("empty.md", "")
        #expect(try fs.readFile(tmp.path + "/empty.md") == [])
        var big: [UInt8] = []
        var state: UInt32 = 12345
        for _ in 0..<300_000 {
            state = state &* 1_103_515_245 &+ 12345
            big.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        try Data(big).write(to: URL(fileURLWithPath: tmp.path + "/big.md"))
        #expect(try fs.readFile(tmp.path + "/big.md") == big)
    }

    @Test("errno becomes a named error carrying the path")
    func namedErrors() throws {
        let tmp = try FolderFixture()
        try tmp.mkdir("dir")
        try tmp.write("file.md")
        try tmp.link("loop.md", to: "loop.md")
        #expect(throws: FileSystemError(path: tmp.path + "/missing.md", operation: "read", code: ENOENT)) {
            try fs.readFile(tmp.path + "/missing.md")
        }
        #expect(throws: FileSystemError(path: tmp.path + "/dir", operation: "read", code: EISDIR)) { try fs.readFile(tmp.path + "/dir") }
        #expect(throws: FileSystemError(path: tmp.path + "/file.md/x", operation: "read", code: ENOTDIR)) {
            try fs.readFile(tmp.path + "/file.md/x")
        }
        #expect(throws: FileSystemError(path: tmp.path + "/loop.md", operation: "read", code: ELOOP)) { try fs.readFile(tmp.path + "/loop.md") }
        #expect(throws: FileSystemError(path: tmp.path + "/file.md", operation: "create", code: EEXIST)) {
            try fs.createFile(tmp.path + "/file.md", contents: [])
        }
        #expect(throws: FileSystemError(path: tmp.path + "/file.md", operation: "read", code: ENOTDIR)) {
            try fs.contents(ofDirectory: tmp.path + "/file.md")
        }
        // One shape of message for every failure: the operation, the path, the reason.
        #expect(FileSystemError(path: "/x", operation: "write", code: EACCES).description == "cannot write '/x': permission denied")
        #expect(FileSystemError(errno: EIO, path: "/x", operation: "read").description
                == "cannot read '/x': input/output error")
        #expect(FileSystemError(path: "/x", operation: "read", code: ENOENT).kind == .notFound)
        do {
            _ = try fs.readFile(tmp.path + "/missing.md")
            Issue.record("read a missing file")
        } catch FileSystemError.notFound {
            // `catch FileSystemError.notFound` matches the kind.
        }
    }

    @Test("status tells files, folders and links apart and returns nil for nothing")
    func status() throws {
        let tmp = try FolderFixture()
        try tmp.write("file.md", "12345")
        try tmp.link("link.md", to: "file.md")
        try tmp.link("dangling.md", to: "nothing.md")
        #expect(try fs.status(tmp.path + "/file.md")?.kind == .file)
        #expect(try fs.status(tmp.path + "/file.md")?.size == 5)
        #expect(try fs.status(tmp.path)?.kind == .directory)
        #expect(try fs.status(tmp.path + "/link.md", followSymlinks: false)?.kind == .symlink)
        #expect(try fs.status(tmp.path + "/link.md")?.kind == .file)
        #expect(try fs.status(tmp.path + "/dangling.md") == nil)
        #expect(try fs.status(tmp.path + "/nothing/at/all") == nil)
        #expect(try fs.status(tmp.path + "/file.md/below") == nil)
    }

    @Test("lists a folder without . and ..")
    func listing() throws {
        let tmp = try FolderFixture()
        try tmp.write("a.md")
        try tmp.mkdir("sub")
        #expect(try fs.contents(ofDirectory: tmp.path).sorted() == ["a.md", "sub"])
    }

    @Test("creates folders with their parents; an existing one is fine only with intermediates")
    func createDirectory() throws {
        let tmp = try FolderFixture()
        try fs.createDirectory(tmp.path + "/a/b/c", intermediates: true)
        #expect(fs.isDirectory(tmp.path + "/a/b/c"))
        try fs.createDirectory(tmp.path + "/a/b/c", intermediates: true)
        #expect(throws: FileSystemError(path: tmp.path + "/a", operation: "create folder", code: EEXIST)) {
            try fs.createDirectory(tmp.path + "/a", intermediates: false)
        }
    }
}

@Suite("paths")
struct FolderPathTests {
    @Test("absolute resolves . and .. lexically")
    func absolute() {
        #expect(Path.absolute("a/./b/../c", from: "/x/y") == "/x/y/a/c")
        #expect(Path.absolute("../../..", from: "/x") == "/")
        #expect(Path.absolute("/p//q/", from: "/ignored") == "/p/q")
    }

    @Test("parent, name, join and relative")
    func pieces() {
        #expect(Path.parent(of: "/a/b") == "/a")
        #expect(Path.parent(of: "/a") == "/")
        #expect(Path.parent(of: "a") == "")
        #expect(Path.name(of: "/a/b.md") == "b.md")
        #expect(Path.join("/a", "b") == "/a/b")
        #expect(Path.join("/a/", "b") == "/a/b")
        #expect(Path.join("/a", "/b") == "/b")
        #expect(Path.relative("/a/b/c.md", to: "/a") == "b/c.md")
        #expect(Path.relative("/ab/c.md", to: "/a") == nil)
        #expect(Path.relative("/a", to: "/a") == nil)
        #expect(Path.relative("/a/b", to: "/") == "a/b")
    }
}
