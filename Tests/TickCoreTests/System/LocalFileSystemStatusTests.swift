#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore

/// `LocalFileSystem.statuses`, which the folder scan reads every name's status with, answers what
/// one `status` call a name answers: looked up from the open folder, and by several threads for a
/// large folder.
@Suite("local file system: the statuses of a folder's names")
struct LocalFileSystemStatusTests {
    /// What can be compared of two answers: the kind, size and inode of each, or the error.
    static func summary(_ results: [Result<FileStatus?, FileSystemError>]) -> [String] {
        results.map { result in
            switch result {
            case .success(nil): return "none"
            case .success(let status?): return "\(status.kind) \(status.size) \(status.inode)"
            case .failure(let error): return "error: \(error.description)"
            }
        }
    }

    static func oneByOne(_ names: [String], in directory: String) -> [Result<FileStatus?, FileSystemError>] {
        names.map { name in
            Result { () throws(FileSystemError) in
                do { return try LocalFileSystem().status(directory + "/" + name, followSymlinks: false) }
                catch let error as FileSystemError { throw error }
                catch { preconditionFailure("\(error)") }
            }
        }
    }

    @Test("files, folders, links, a dangling link, a missing name and a path through a file")
    func kinds() throws {
        let folder = TemporaryFolder()
        try folder.write("a.md", "- [ ] one\n")
        try folder.write("b.txt", "")
        mkdir(folder.path + "/sub", 0o700)
        symlink("a.md", folder.path + "/link.md")
        symlink("missing.md", folder.path + "/dangling.md")
        let long = String(repeating: "n", count: 300) + ".md"
        let names = ["a.md", "b.txt", "sub", "link.md", "dangling.md", "gone.md", "a.md/inside", long]
        let batch = Self.summary(LocalFileSystem().statuses(of: names, in: folder.path))
        #expect(batch == Self.summary(Self.oneByOne(names, in: folder.path)))
        #expect(batch[0].hasPrefix("file 10 "))
        #expect(batch[2].hasPrefix("directory "))
        #expect(batch[3].hasPrefix("symlink ") && batch[4].hasPrefix("symlink "))
        #expect(batch[5] == "none" && batch[6] == "none")
        #expect(batch[7] == "error: cannot read '\(folder.path)/\(long)': name too long")
    }

    @Test("a folder of thousands of names, read by several threads, in order")
    func manyNames() throws {
        let folder = TemporaryFolder()
        let count = 2 * LocalFileSystem.statusChunk + 37
        var names: [String] = []
        for k in 0..<count {
            let name = "list-\(k).md"
            if k % 5 != 0 { try folder.write(name, String(repeating: "x", count: k % 97)) }
            names.append(name)
        }
        let batch = Self.summary(LocalFileSystem().statuses(of: names, in: folder.path))
        #expect(batch.count == count)
        #expect(batch == Self.summary(Self.oneByOne(names, in: folder.path)))
        #expect(batch.filter { $0 == "none" }.count == (count + 4) / 5)
    }

    @Test("a folder that cannot be opened answers as the paths do")
    func unopenableFolder() throws {
        let folder = TemporaryFolder()
        try folder.write("file.md", "")
        let names = ["x.md", "y.md"]
        let inside = folder.path + "/file.md"
        let batch = Self.summary(LocalFileSystem().statuses(of: names, in: inside))
        #expect(batch == Self.summary(Self.oneByOne(names, in: inside)))
        #expect(batch == ["none", "none"])
    }
}
