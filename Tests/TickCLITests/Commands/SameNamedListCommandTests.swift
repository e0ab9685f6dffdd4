import Foundation
import Testing

/// Lists whose names are the same ignoring case or accents, end to end: the home screen, `all`
/// and `ls` follow each with its file, and `--list` names one by its path or exact spelling.
@Suite("lists with the same name, end to end")
struct SameNamedListCommandTests {
    static func sandbox() throws -> Sandbox {
        try Fixtures.folder(["a/work.md": "# Work\n\n- [ ] Report\n", "b/work.md": "# work\n\n- [ ] Invoice\n",
                                      "uber.md": "# Über\n\n- [ ] Ride\n", "home.md": "# Home\n\n- [ ] Dishes\n"])
    }

    @Test("the home screen follows each of two names that differ by case with its file")
    func homeScreen() throws {
        let sandbox = try Self.sandbox()
        let result = try sandbox.run(["--dir", "tasks"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  Work (a/work.md)  1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  work (b/work.md)  1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  Home              1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  Über              1\n"), "\(result.stdout)")
    }

    @Test("the headings of all and ls tell them apart too")
    func headings() throws {
        let sandbox = try Self.sandbox()
        let all = try sandbox.run(["--dir", "tasks", "all"]).stdout
        #expect(all.contains("Work (a/work.md)\n"), "\(all)")
        #expect(all.contains("work (b/work.md)\n"), "\(all)")
        #expect(all.contains("Home\n"))
        #expect(try sandbox.run(["--dir", "tasks", "ls", "b/work"]).stdout.hasPrefix("work (b/work.md)\n\n"))
    }

    @Test("--list names one by its path or its exact spelling; a name matching both is ambiguous, listing their files")
    func listOption() throws {
        let sandbox = try Self.sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "By path", "--list", "b/work"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "By spelling", "--list", "Work"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/b/work.md") == "# work\n\n- [ ] Invoice\n- [ ] By path\n")
        #expect(try sandbox.read("tasks/a/work.md") == "# Work\n\n- [ ] Report\n- [ ] By spelling\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Where", "--list", "WORK"]), status: 1, stdout: "",
                  stderr: "tick: 'WORK' names several lists: Work (a/work.md), work (b/work.md)\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Accents", "--list", "uber"]), status: 0, stderr: "")
        #expect(try sandbox.read("tasks/uber.md") == "# Über\n\n- [ ] Ride\n- [ ] Accents\n")
    }

    @Test("mv between two lists named alike, and an ambiguous REF's candidates, name each list with its file")
    func moveAndCandidates() throws {
        let sandbox = try Self.sandbox()
        let moved = try sandbox.run(["--dir", "tasks", "mv", "Report", "b/work"])
        expectRun(moved, status: 0, stderr: "")
        #expect(moved.stdout.contains(" \"Report\" from Work (a/work.md) to work (b/work.md)\n"), "\(moved.stdout)")
        try sandbox.write("tasks/a/work.md", "# Work\n\n- [ ] Report\n")
        let result = try sandbox.run(["--dir", "tasks", "show", "Report"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\"Report\" (Work (a/work.md), open)"), "\(result.stderr)")
        #expect(result.stderr.contains("\"Report\" (work (b/work.md), open)"), "\(result.stderr)")
    }
}
