import Foundation
import Testing

/// Conflict markers longer than seven characters (git's `conflict-marker-size`, set for a path in
/// `.gitattributes`) are conflict markers too: tick refuses to write such a list and `tick check`
/// reports them.
@Suite("conflict markers of any size from seven")
struct ConflictMarkerSizeTests {
    static let text = "# Home\n\n<<<<<<<<<< HEAD\n- [ ] Call mum !!\n==========\n- [ ] Call mum !!!\n>>>>>>>>>> other\n"

    @Test("a list holding ten-character markers is refused for writing, unchanged")
    func refusedForWriting() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.text])
        expectRun(try sandbox.run(["--dir", "tasks", "add", "--list", "home", "More"]), status: 1, stdout: "",
                  stderr: "tick: home.md:3: the file holds git conflict markers; resolve them before tick writes it\n")
        #expect(try sandbox.read("tasks/home.md") == Self.text)
    }

    @Test("tick check reports ten-character markers at their first line")
    func reportedByCheck() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.text])
        let result = try sandbox.run(["--dir", "tasks", "check"])
        #expect(result.status != 0, "\(result)")
        #expect((result.stdout + result.stderr).contains("home.md:3:1: git conflict marker"), "\(result)")
    }
}
