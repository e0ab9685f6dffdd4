import Foundation
import Testing

/// `tick view save` never pushes `.tick/config` past the configuration's 64 KiB limit (past which
/// every run ignores the file, settings and all); `tick view rm` still works on a file past it.
@Suite("saved views and the configuration's size limit")
struct SavedViewLimitTests {
    static func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Call #x\n"])
        try sandbox.write("tasks/.tick/config", "default-list = home\n")
        return sandbox
    }

    /// A query of about `bytes` bytes that tick accepts: many words ORed together.
    static func longQuery(bytes: Int) -> String {
        var words: [String] = []
        var length = 0
        var k = 0
        while length < bytes {
            let word = "word\(k)"
            words.append(word)
            length += word.utf8.count + 4
            k += 1
        }
        return words.joined(separator: " OR ")
    }

    @Test("a save that would make .tick/config larger than 64 KiB is refused and writes nothing")
    func saveRefusedPastLimit() throws {
        let sandbox = try Self.sandbox()
        let before = try sandbox.read("tasks/.tick/config")
        let query = Self.longQuery(bytes: 95_000)
        let result = try sandbox.run(["--dir", "tasks", "view", "save", "big", query])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stdout == "")
        let config = sandbox.path("tasks/.tick/config")
        #expect(result.stderr.hasPrefix("tick: cannot save view 'big': \(config) would be "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" bytes, over its limit of 64 KiB (65536 bytes); nothing was written\n"))
        #expect(try sandbox.read("tasks/.tick/config") == before)
        // The folder's settings still hold: the next run reads the file without a warning.
        expectRun(try sandbox.run(["--dir", "tasks", "config", "default-list"]), status: 0, stderr: "")
        // A view that fits is still saved.
        expectRun(try sandbox.run(["--dir", "tasks", "view", "save", "small", "#x"]), status: 0, stderr: "")
    }

    @Test("view rm takes a view out of a .tick/config already past 64 KiB, bringing it back under")
    func removeFromOverLimit() throws {
        let sandbox = try Self.sandbox()
        let query = Self.longQuery(bytes: 95_000)
        try sandbox.write("tasks/.tick/config", "default-list = home\nview.big = \(query)\nview.small = #x\n")
        let result = try sandbox.run(["--dir", "tasks", "view", "rm", "big"])
        #expect(result.status == 0, "\(result.status) \(result.stderr)")
        #expect(result.stdout == "Deleted view big\n")
        #expect(try sandbox.read("tasks/.tick/config") == "default-list = home\nview.small = #x\n")
        expectRun(try sandbox.run(["--dir", "tasks", "view", "small"]), status: 0, stderr: "")
    }

    @Test("tick config KEY VALUE that would make .tick/config larger than 64 KiB is refused and writes nothing")
    func configSetRefusedPastLimit() throws {
        let sandbox = try Self.sandbox()
        let before = try sandbox.read("tasks/.tick/config")
        let lists = (0..<9_000).map { "list\($0)" }.joined(separator: ",")
        let result = try sandbox.run(["--dir", "tasks", "config", "vdir.lists", lists])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        let config = sandbox.path("tasks/.tick/config")
        #expect(result.stderr.hasPrefix("tick: cannot set vdir.lists: \(config) would be "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" bytes, over its limit of 64 KiB (65536 bytes); nothing was written\n"))
        #expect(try sandbox.read("tasks/.tick/config") == before)
        expectRun(try sandbox.run(["--dir", "tasks", "config", "vdir.lists", "home"]), status: 0, stderr: "")
    }
}
