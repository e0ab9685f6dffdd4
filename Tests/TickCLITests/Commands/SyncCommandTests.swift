import Foundation
import Testing

@Suite("sync: commit, pull with rebase, push")
struct SyncCommandTests {
    /// A bare repository and two clones `a` and `b`, both set up, with `a`'s first list pushed.
    private func twoClones() throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        try sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", "remote.git"])
        try sandbox.git(["clone", "--quiet", "remote.git", "a"])
        expectRun(try sandbox.run(["init", "--git", "--quiet", "a"]), status: 0, stdout: "")
        try sandbox.write("a/groceries.md", "# Groceries\n\n- [ ] Milk\n- [ ] Eggs\n")
        let first = try sandbox.run(["--dir", "a", "sync"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "Committed: tick sync: Groceries: 2 added; 2 other files changed\nSynced with origin/main\n")
        try sandbox.git(["clone", "--quiet", "remote.git", "b"])
        expectRun(try sandbox.run(["--dir", "b", "git-setup", "--quiet"]), status: 0, stdout: "")
        return sandbox
    }

    @Test("two clones, interleaved changes, three rounds of sync: both end with the same files")
    func threeRounds() throws {
        let sandbox = try twoClones()
        func sync(_ clone: String) throws {
            let result = try sandbox.run(["--dir", clone, "sync"])
            #expect(result.status == 0, "\(clone): \(result)")
        }
        // Round 1: each completes an adjacent task.
        expectRun(try sandbox.run(["--dir", "a", "done", "Milk"]), status: 0)
        expectRun(try sandbox.run(["--dir", "b", "done", "Eggs"]), status: 0)
        try sync("a"); try sync("b"); try sync("a")
        // Round 2: each adds a task to the same list, and b a new list.
        expectRun(try sandbox.run(["--dir", "a", "add", "Bread", "--list", "Groceries"]), status: 0)
        expectRun(try sandbox.run(["--dir", "b", "add", "Jam", "--list", "Groceries"]), status: 0)
        try sandbox.write("b/work.md", "# Work\n\n- [ ] Report\n")
        try sync("b"); try sync("a"); try sync("b")
        // Round 3: a due date on one side, a priority on the other, on the same task.
        expectRun(try sandbox.run(["--dir", "a", "due", "Bread", "2026-03-20"]), status: 0)
        expectRun(try sandbox.run(["--dir", "b", "priority", "Bread", "high"]), status: 0)
        try sync("a"); try sync("b"); try sync("a")

        let a = try sandbox.read("a/groceries.md")
        let b = try sandbox.read("b/groceries.md")
        #expect(a == b)
        // b pushed Jam first; a's Bread was replayed on top of it, so it comes after.
        #expect(a == "# Groceries\n\n- [x] Milk done:2026-03-14\n- [x] Eggs done:2026-03-14\n"
                + "- [ ] Jam\n- [ ] Bread due:2026-03-20 !!!\n", "\(a)")
        #expect(try sandbox.read("a/work.md") == "# Work\n\n- [ ] Report\n")
        #expect(try sandbox.git(["status", "--porcelain"], in: "a").stdout == "")
        #expect(try sandbox.git(["status", "--porcelain"], in: "b").stdout == "")
        let log = try sandbox.git(["log", "--format=%s"], in: "a").stdout
        #expect(log.contains("tick sync: Groceries: 1 completed\n"))
        #expect(!log.contains("Merge"), "a rebase leaves no merge commits:\n\(log)")
    }

    @Test("sync in a fresh clone registers the merge driver that .gitattributes names, then merges with it (issue 49 item 12)")
    func freshCloneRegistersDriver() throws {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        try sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", "remote.git"])
        try sandbox.git(["clone", "--quiet", "remote.git", "a"])
        expectRun(try sandbox.run(["init", "--git", "--quiet", "a"]), status: 0, stdout: "")
        try sandbox.write("a/groceries.md", "# Groceries\n\n- [ ] Milk\n- [ ] Eggs\n")
        expectRun(try sandbox.run(["--dir", "a", "--quiet", "sync"]), status: 0)
        // b is cloned and never set up: git would merge its lists line by line.
        try sandbox.git(["clone", "--quiet", "remote.git", "b"])
        #expect(try sandbox.git(["config", "--get", "merge.tick.driver"], in: "b").status != 0)
        // Adjacent completions conflict under git's line merge; the driver merges them.
        expectRun(try sandbox.run(["--dir", "a", "done", "Milk"]), status: 0)
        expectRun(try sandbox.run(["--dir", "b", "done", "Eggs"]), status: 0)
        expectRun(try sandbox.run(["--dir", "a", "--quiet", "sync"]), status: 0)
        let synced = try sandbox.run(["--dir", "b", "sync"])
        #expect(synced.status == 0, "\(synced)")
        #expect(synced.stdout.hasPrefix("Registered the tick merge driver for this clone, as .gitattributes asks (merge.tick.driver = "),
                "\(synced)")
        #expect(try sandbox.git(["config", "--get", "merge.tick.driver"], in: "b").stdout.contains("merge-driver"))
        #expect(try sandbox.read("b/groceries.md")
                == "# Groceries\n\n- [x] Milk done:2026-03-14\n- [x] Eggs done:2026-03-14\n")
    }

    @Test("a change that truly collides is left as a conflict: exit 1, the files and the next commands")
    func conflictLeft() throws {
        let sandbox = try twoClones()
        expectRun(try sandbox.run(["--dir", "a", "due", "Milk", "2026-03-20"]), status: 0)
        expectRun(try sandbox.run(["--dir", "b", "due", "Milk", "2026-03-21"]), status: 0)
        #expect(try sandbox.run(["--dir", "a", "sync"]).status == 0)
        let result = try sandbox.run(["--dir", "b", "sync"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("tick: sync left conflicts for you to resolve in:\n  groceries.md\n"), "\(result)")
        #expect(result.stderr.contains("git rebase --continue"))
        #expect(result.stderr.contains("git rebase --abort"))
        let text = try sandbox.read("b/groceries.md")
        #expect(text.contains("due:2026-03-20") && text.contains("due:2026-03-21") && text.contains("<<<<<<<"))
        // A second sync refuses while the rebase is under way.
        let again = try sandbox.run(["--dir", "b", "sync"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("a merge or rebase is in progress"))
    }

    @Test("only the task folder's files are committed")
    func onlyTheFolder() throws {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        try sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", "remote.git"])
        try sandbox.git(["clone", "--quiet", "remote.git", "repo"])
        try sandbox.write("repo/notes.txt", "not a task file\n")
        expectRun(try sandbox.run(["init", "--git", "--quiet", "repo/tasks"]), status: 0)
        try sandbox.write("repo/tasks/home.md", "- [ ] Sweep\n")
        let result = try sandbox.run(["--dir", "repo/tasks", "sync"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.git(["status", "--porcelain"], in: "repo").stdout == "?? notes.txt\n")
        let files = try sandbox.git(["ls-files"], in: "repo").stdout
        #expect(files == "tasks/.gitattributes\ntasks/.tick/.gitignore\ntasks/home.md\n")
    }

    @Test("no repository or no remote exits 5; an unreachable remote exits 6")
    func failures() throws {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        try sandbox.write("plain/.tick/.gitignore", "*\n!.gitignore\n")
        let plain = try sandbox.run(["--dir", "plain", "sync"])
        #expect(plain.status == 5)
        #expect(plain.stderr.contains("is not in a git repository"), "\(plain)")

        expectRun(try sandbox.run(["init", "--git", "--quiet", "alone"]), status: 0)
        let alone = try sandbox.run(["--dir", "alone", "sync"])
        #expect(alone.status == 5)
        #expect(alone.stderr.contains("has no remote"), "\(alone)")

        try sandbox.git(["remote", "add", "origin", sandbox.path("missing.git")], in: "alone")
        let unreachable = try sandbox.run(["--dir", "alone", "sync"])
        #expect(unreachable.status == 6, "\(unreachable)")
        #expect(unreachable.stderr.contains("cannot reach remote 'origin'"))
    }
}

@Suite("autocommit: each tick change commits its own files")
struct AutoCommitTests {
    private func repository() throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        expectRun(try sandbox.run(["init", "--git", "--quiet", "tasks"]), status: 0)
        try sandbox.write("tasks/groceries.md", "# Groceries\n\n- [ ] Milk\n- [ ] Eggs\n")
        try sandbox.write("tasks/work.md", "# Work\n\n- [ ] Report\n")
        try sandbox.git(["add", "-A"], in: "tasks")
        try sandbox.git(["commit", "--quiet", "-m", "start"], in: "tasks")
        try sandbox.write("tasks/.tick/config", "autocommit = true\n")
        return sandbox
    }

    @Test("a change is committed with a message naming the command and the list; a hand edit is not")
    func commitsTheChange() throws {
        let sandbox = try repository()
        try sandbox.write("tasks/work.md", "# Work\n\n- [ ] Report\n- [ ] Typed by hand\n")
        expectRun(try sandbox.run(["--dir", "tasks", "done", "Milk"]), status: 0)
        #expect(try sandbox.git(["log", "-1", "--format=%s"], in: "tasks").stdout == "tick: done Milk (Groceries)\n")
        #expect(try sandbox.git(["show", "--name-only", "--format=", "HEAD"], in: "tasks").stdout == "groceries.md\n")
        #expect(try sandbox.git(["status", "--porcelain"], in: "tasks").stdout == " M work.md\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Buy bread", "--list", "Groceries"]), status: 0)
        #expect(try sandbox.git(["log", "-1", "--format=%s"], in: "tasks").stdout == "tick: add \"Buy bread\" (Groceries)\n")
        // A read command commits nothing.
        expectRun(try sandbox.run(["--dir", "tasks", "today"]), status: 0)
        #expect(try sandbox.git(["rev-list", "--count", "HEAD"], in: "tasks").stdout == "3\n")
    }

    @Test("it goes by each command's declared effect: reads and --dry-run runs start no git; pick --done commits")
    func declaredEffect() throws {
        let sandbox = try repository()
        // A git on PATH that notes each run, then runs the real one.
        try sandbox.writeProgram("bin/git", "#!/bin/sh\necho \"$*\" >> \"$GIT_RUNS\"\nexec /usr/bin/git \"$@\"\n")
        sandbox.environment["PATH"] = sandbox.path("bin") + ":" + (sandbox.environment["PATH"] ?? "")
        sandbox.environment["GIT_RUNS"] = sandbox.path("git-runs")
        func runs(_ arguments: [String]) throws -> String {
            try? sandbox.remove("git-runs")
            expectRun(try sandbox.run(["--dir", "tasks"] + arguments), status: 0)
            return (try? sandbox.read("git-runs")) ?? ""
        }
        try sandbox.write("todo.txt", "Call mum\n")
        for read in [["today"], ["find", "milk"], ["status"], ["export", "json", "-o", "export.json"],
                     ["import", "todotxt", "todo.txt", "--dry-run"], ["check"]] {
            #expect(try runs(read) == "", "tick \(read.joined(separator: " ")) ran git")
        }
        #expect(try sandbox.git(["rev-list", "--count", "HEAD"], in: "tasks").stdout == "1\n")
        expectRun(try sandbox.run(["--dir", "tasks", "pick", "--seed", "1"]), status: 0)
        #expect(try runs(["pick", "--done"]).contains("commit"))
        #expect(try sandbox.git(["log", "-1", "--format=%s"], in: "tasks").stdout.hasPrefix("tick: pick"))
    }

    @Test("without a git identity it warns, keeps the change uncommitted and exits 0")
    func noIdentity() throws {
        let sandbox = try repository()
        for key in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"] {
            sandbox.environment.removeValue(forKey: key)
        }
        let result = try sandbox.run(["--dir", "tasks", "done", "Milk"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("autocommit: no git identity"), "\(result)")
        #expect(try sandbox.git(["rev-list", "--count", "HEAD"], in: "tasks").stdout == "1\n")
        #expect(try sandbox.git(["status", "--porcelain"], in: "tasks").stdout == " M groceries.md\n")
    }

    @Test("while a merge is in progress it warns, keeps the change uncommitted and exits 0")
    func mergeInProgress() throws {
        let sandbox = try repository()
        try sandbox.git(["checkout", "--quiet", "-b", "other"], in: "tasks")
        try sandbox.write("tasks/notes.txt", "theirs\n")
        try sandbox.git(["add", "notes.txt"], in: "tasks")
        try sandbox.git(["commit", "--quiet", "-m", "other"], in: "tasks")
        try sandbox.git(["checkout", "--quiet", "-"], in: "tasks")
        try sandbox.write("tasks/notes.txt", "ours\n")
        try sandbox.git(["add", "notes.txt"], in: "tasks")
        try sandbox.git(["commit", "--quiet", "-m", "ours"], in: "tasks")
        #expect(try sandbox.git(["merge", "--quiet", "other"], in: "tasks").status != 0)
        let commits = try sandbox.git(["rev-list", "--count", "HEAD"], in: "tasks").stdout
        let result = try sandbox.run(["--dir", "tasks", "done", "Milk"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("autocommit: a merge or rebase is in progress"), "\(result)")
        #expect(try sandbox.git(["rev-list", "--count", "HEAD"], in: "tasks").stdout == commits)
    }
}
