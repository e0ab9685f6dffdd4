import Foundation
import Testing
@testable import TickCore

/// `FileSystem.writeInPlace`: what `-o` writes through to, never replacing it.
@Suite("writing in place")
struct WriteInPlaceTests {
    @Test("the descriptors that paths name by number, directly or through links", arguments: [
        ("/dev/stdout", Int32?(1)), ("/dev/stderr", 2), ("/dev/fd/7", 7), ("/proc/self/fd/12", 12),
        ("/dev/fd/+7", nil), ("/dev/fd/", nil), ("/dev/fd/1x", nil), ("/dev/fd/9999999999", nil), ("/tmp/stdout", nil),
    ])
    func descriptors(_ path: String, _ expected: Int32?) {
        #expect(LocalFileSystem.descriptor(named: path) == expected)
    }

    @Test("a link to /dev/stdout, or to a link to it, names descriptor 1")
    func descriptorThroughLinks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-in-place-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/out", withDestinationPath: "/dev/stdout")
        try FileManager.default.createSymbolicLink(atPath: folder + "/again", withDestinationPath: "out")
        #expect(LocalFileSystem.descriptor(named: folder + "/out") == 1)
        #expect(LocalFileSystem.descriptor(named: folder + "/again") == 1)
    }

    @Test("a regular file or a folder is refused before a byte is written; /dev/null takes the bytes")
    func refusals() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-in-place-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/file"
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: file))
        let fileSystem = LocalFileSystem()
        #expect(throws: FileSystemError(path: file, operation: "write", code: Errno.invalid)) {
            try fileSystem.writeInPlace(file, contents: Array("new\n".utf8))
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept\n")
        #expect(throws: FileSystemError(path: folder, operation: "write", code: Errno.isDirectory)) {
            try fileSystem.writeInPlace(folder, contents: [])
        }
        try fileSystem.writeInPlace("/dev/null", contents: Array("gone\n".utf8))
        #expect(try fileSystem.status("/dev/null", followSymlinks: false)?.kind == .other)
    }
}
