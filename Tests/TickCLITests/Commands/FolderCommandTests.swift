import Foundation
import Testing

/// Which folder a command works on, and `tick init`.
@Suite("task folder")
struct FolderCommandTests {
    @Test("a --dir that does not exist is an error naming it")
    func missingDir() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["--dir", "nowhere", "check"]), status: 2, stdout: "",
                  stderr: "tick: task folder 'nowhere' (from --dir) does not exist\n")
        expectRun(try sandbox.run(["check", "--dir=nowhere"]), status: 2, stdout: "",
                  stderr: "tick: task folder 'nowhere' (from --dir) does not exist\n")
    }

    @Test("a TICK_DIR that does not exist is an error naming it")
    func missingEnvironmentDir() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.path("gone")
        expectRun(try sandbox.run(["check"], environment: ["TICK_DIR": missing]), status: 2, stdout: "",
                  stderr: "tick: task folder '\(missing)' (from TICK_DIR) does not exist\n")
    }

    @Test("a --dir that names a file is an error")
    func dirIsAFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("file.md", "- [ ] x\n")
        expectRun(try sandbox.run(["--dir", "file.md", "check"]), status: 2, stdout: "",
                  stderr: "tick: 'file.md' (from --dir) is not a folder\n")
    }

    @Test("--dir wins over TICK_DIR, which wins over a .tick/ folder above")
    func precedence() throws {
        let sandbox = try Sandbox()
        try sandbox.copyFolder("clean")
        try sandbox.copyFolder("problems")
        try sandbox.makeFolder("problems/.tick")
        let inProblems = ["check", "--quiet"]
        // Found by the .tick/ folder above the working folder.
        expectRun(try sandbox.run(inProblems, in: "problems/sub"), status: 1)
        // TICK_DIR beats it, and --dir beats TICK_DIR.
        expectRun(try sandbox.run(inProblems, in: "problems/sub", environment: ["TICK_DIR": sandbox.path("clean")]),
                  status: 0, stdout: "")
        expectRun(try sandbox.run(inProblems + ["--dir", sandbox.path("problems")],
                                  environment: ["TICK_DIR": sandbox.path("clean")]), status: 1)
        // An empty TICK_DIR counts as unset.
        expectRun(try sandbox.run(inProblems, in: "problems/sub", environment: ["TICK_DIR": ""]), status: 1)
    }

    @Test("without any of them, the folder is $XDG_DATA_HOME/tick, else ~/.local/share/tick")
    func defaultLocation() throws {
        let sandbox = try Sandbox()
        // Nothing there yet: an empty folder, not an error.
        expectRun(try sandbox.run(["check"]), status: 0, stdout: "Checked 0 lists: no problems\n", stderr: "")
        try sandbox.write("data/tick/a.md", "- [ ] x due:later\n")
        expectRun(try sandbox.run(["check", "--quiet"]), status: 1,
                  stdout: "a.md:1:9: malformed due date 'due:later': expected due:YYYY-MM-DD or due:YYYY-MM-DDTHH:MM\n")
        try sandbox.write("home/.local/share/tick/b.md", "- [ ] y\n- [ ] z\n")
        var environment = sandbox.environment
        environment.removeValue(forKey: "XDG_DATA_HOME")
        sandbox.environment = environment
        expectRun(try sandbox.run(["check"]), status: 0, stdout: "Checked 1 list: no problems\n")
    }

    @Test("init creates .tick/ with a .gitignore that ignores everything in it")
    func initCreates() throws {
        let sandbox = try Sandbox()
        try sandbox.makeFolder("lists")
        expectRun(try sandbox.run(["init"], in: "lists"), status: 0,
                  stdout: "Initialized task folder \(sandbox.path("lists"))\n", stderr: "")
        let gitignore = try sandbox.read("lists/.tick/.gitignore")
        #expect(gitignore == "*\n!.gitignore\n")
        // Commands below it now find it.
        try sandbox.write("lists/deep/er/x.md", "- [ ] x !! !\n")
        expectRun(try sandbox.run(["check", "--quiet"], in: "lists/deep/er"), status: 1,
                  stdout: "deep/er/x.md:1:12: second priority ignored; the first one counts\n")
    }

    @Test("init DIR creates the folder and its parents; a second init changes nothing")
    func initDirectory() throws {
        let sandbox = try Sandbox()
        let target = sandbox.path("a/b/tasks")
        expectRun(try sandbox.run(["init", "a/b/tasks"]), status: 0, stdout: "Initialized task folder \(target)\n")
        #expect(sandbox.exists(target + "/.tick/.gitignore"))
        expectRun(try sandbox.run(["init", target]), status: 0, stdout: "\(target) is already a task folder\n")
        expectRun(try sandbox.run(["init", "--json", target]), status: 0,
                  stdout: "{\"folder\":\"\(target)\",\"created\":false}\n")
    }

    @Test("init uses --dir even when it does not exist yet, and --quiet silences it")
    func initWithDirOption() throws {
        let sandbox = try Sandbox()
        expectRun(try sandbox.run(["--dir", "fresh", "init", "--quiet"]), status: 0, stdout: "", stderr: "")
        #expect(sandbox.exists("fresh/.tick/.gitignore"))
    }

    @Test("init refuses a .tick that is a file")
    func initOverFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("odd/.tick", "not a folder\n")
        expectRun(try sandbox.run(["init", "odd"]), status: 2, stdout: "",
                  stderr: "tick: '\(sandbox.path("odd/.tick"))' is not a folder\n")
    }
}
