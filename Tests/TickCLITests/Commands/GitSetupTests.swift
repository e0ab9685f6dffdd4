import Foundation
import Testing

@Suite("init --git, git-setup and doctor")
struct GitSetupTests {
    @Test("init --git makes a repository, .gitattributes and the driver's config")
    func initGit() throws {
        let sandbox = try Sandbox(onDisk: true)
        let result = try sandbox.run(["init", "--git", "tasks"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Initialized task folder \(sandbox.path("tasks"))\nRegistered the tick merge driver in "))
        #expect(try sandbox.read("tasks/.gitattributes") == "*.md merge=tick\n")
        #expect(try sandbox.git(["config", "--get", "merge.tick.name"], in: "tasks").stdout == "tick: task-aware merge of list files\n")
        let driver = try sandbox.git(["config", "--get", "merge.tick.driver"], in: "tasks").stdout
        // This tick is not on the sandbox's PATH: the driver names it by its absolute path.
        #expect(driver.hasSuffix("/tick merge-driver %O %A %B %L %P\n") || driver.hasSuffix("/tick merge-driver %O %A %B %L %P %S %X %Y\n"),
                "\(driver)")
        #expect(driver.hasPrefix("/") || driver.hasPrefix("'/"))
        let attribute = try sandbox.git(["check-attr", "merge", "--", "list.md"], in: "tasks").stdout
        #expect(attribute == "list.md: merge: tick\n")
        // .tick/ stays local, its .gitignore is shared.
        #expect(try sandbox.git(["check-ignore", "-q", ".tick/journal"], in: "tasks").status == 0)
        #expect(try sandbox.git(["check-ignore", "-q", ".tick/.gitignore"], in: "tasks").status == 1)
    }

    @Test("the driver gets the labels %S %X %Y only from git 2.44 on")
    func labelsFollowTheVersion() throws {
        let sandbox = try Sandbox(onDisk: true)
        expectRun(try sandbox.run(["init", "--git", "--quiet", "tasks"]), status: 0, stdout: "")
        let version = try sandbox.git(["--version"]).stdout.split(separator: " ")[2].split(separator: ".").compactMap { Int($0) }
        let labels = version[0] > 2 || (version[0] == 2 && version[1] >= 44)
        let driver = try sandbox.git(["config", "--get", "merge.tick.driver"], in: "tasks").stdout
        #expect(driver.hasSuffix(" %S %X %Y\n") == labels, "git \(version): \(driver)")
    }

    @Test("git-setup keeps an existing .gitattributes and adds its line once")
    func keepsAttributes() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.git(["init", "--quiet", "tasks"])
        try sandbox.write("tasks/.tick/.gitignore", "*\n")
        try sandbox.write("tasks/.gitattributes", "*.png binary")
        expectRun(try sandbox.run(["--dir", "tasks", "git-setup", "--quiet"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "git-setup", "--quiet"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/.gitattributes") == "*.png binary\n*.md merge=tick\n")
        // The old .gitignore, which ignored itself, is repaired.
        #expect(try sandbox.read("tasks/.tick/.gitignore") == "*\n!.gitignore\n")
    }

    @Test("git-setup outside a repository exits 5 and changes nothing")
    func setupWithoutRepository() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("tasks/.tick/.gitignore", "*\n!.gitignore\n")
        let result = try sandbox.run(["--dir", "tasks", "git-setup"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("is not in a git repository"), "\(result)")
        #expect(!sandbox.exists("tasks/.gitattributes"))
    }

    @Test("doctor names each problem with its fix, and is content after the fixes")
    func doctor() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.write("tasks/.tick/.gitignore", "*\n!.gitignore\n")
        let outside = try sandbox.run(["--dir", "tasks", "doctor"])
        #expect(outside.status == 1)
        #expect(outside.stdout == "problem  not in a git repository; fix: tick init --git\n", "\(outside)")

        try sandbox.git(["init", "--quiet", "tasks"])
        let bare = try sandbox.run(["--dir", "tasks", "doctor"])
        #expect(bare.status == 1)
        #expect(bare.stdout.contains("problem  merge driver not registered; fix: tick git-setup\n"), "\(bare)")
        #expect(bare.stdout.contains("problem  list files do not use the driver (.gitattributes); fix: tick git-setup\n"))
        #expect(bare.stdout.contains("ok       .tick/ state is ignored; .tick/.gitignore is shared\n"))

        expectRun(try sandbox.run(["--dir", "tasks", "git-setup", "--quiet"]), status: 0)
        let fixed = try sandbox.run(["--dir", "tasks", "doctor", "--json"])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(!fixed.stdout.contains("\"ok\":false"), "\(fixed)")
    }

    @Test("doctor sees a .gitignore that ignores itself")
    func doctorSeesOldGitignore() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.git(["init", "--quiet", "tasks"])
        try sandbox.write("tasks/.tick/.gitignore", "*\n")
        let result = try sandbox.run(["--dir", "tasks", "doctor"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("problem  .tick/.gitignore is ignored: a clone will not find the task folder; fix: tick git-setup\n"),
                "\(result)")
    }
}

@Suite("a clone of a task folder")
struct CloneTests {
    @Test("a fresh clone is a task folder: tick run inside it finds its lists, not the default folder")
    func cloneIsATaskFolder() throws {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        expectRun(try sandbox.run(["init", "--git", "--quiet", "origin"]), status: 0)
        try sandbox.write("origin/home.md", "# Home\n\n- [ ] Sweep\n")
        try sandbox.git(["add", "-A"], in: "origin")
        try sandbox.git(["commit", "--quiet", "-m", "start"], in: "origin")
        try sandbox.git(["clone", "--quiet", "origin", "copy"])
        try sandbox.write("copy/deep/er/.keep", "")
        let lists = try sandbox.run(["lists", "--json"], in: "copy/deep/er")
        #expect(lists.status == 0, "\(lists)")
        #expect(lists.stdout.contains("\"file\":\"home.md\""), "\(lists)")
        // The driver is per clone: doctor says so until git-setup runs there.
        let doctor = try sandbox.run(["doctor"], in: "copy")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("merge driver not registered; fix: tick git-setup"), "\(doctor)")
        expectRun(try sandbox.run(["git-setup", "--quiet"], in: "copy"), status: 0, stdout: "")
        #expect(try sandbox.run(["doctor"], in: "copy").status == 0)
    }
}
