import Foundation
import Testing
@testable import TickCore

@Suite("the state folder's .gitignore tracks itself")
struct StateGitignoreTests {
    let fs = LocalFileSystem()

    @Test("a new .tick/.gitignore ignores the state and keeps itself in git")
    func newContent() throws {
        let tmp = try FolderFixture()
        try Folder.initialize(at: tmp.path, fileSystem: fs)
        #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array("*\n!.gitignore\n".utf8))
    }

    @Test("the old '*' alone is repaired on the next preparation; the mode stays 0600")
    func repairsOld() throws {
        let tmp = try FolderFixture()
        try tmp.write(".tick/.gitignore", "*\n")
        try Folder.prepareState(in: tmp.path, fileSystem: fs)
        #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array("*\n!.gitignore\n".utf8))
        let mode = try fs.status(tmp.path + "/.tick/.gitignore")?.mode ?? 0
        #expect(mode & 0o777 == 0o600)
        #expect(try fs.contents(ofDirectory: tmp.path + "/.tick").sorted() == [".gitignore"])
    }

    @Test("a .gitignore someone wrote is kept, even one that starts with '*'")
    func keepsCustom() throws {
        let tmp = try FolderFixture()
        for custom in ["*\n\n", "* \n", "*", "*\njournal\n"] {
            try tmp.write(".tick/.gitignore", custom)
            try Folder.prepareState(in: tmp.path, fileSystem: fs)
            #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array(custom.utf8))
        }
    }

    @Test("a first write through the writer repairs the old content")
    func writerRepairs() throws {
        let tmp = try FolderFixture()
        try tmp.write("a.md", "- [ ] x\n")
        try tmp.write(".tick/.gitignore", "*\n")
        _ = try FolderWriter(root: tmp.path, fileSystem: fs)
        #expect(try fs.readFile(tmp.path + "/.tick/.gitignore") == Array("*\n!.gitignore\n".utf8))
    }
}
