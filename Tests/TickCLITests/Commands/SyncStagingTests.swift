import Foundation
import Testing

/// What `tick sync` stages: lists, tick's own tracked files and what git already tracks; an
/// untracked file that is not a list is named with the command that adds it, never committed or
/// pushed.
@Suite("sync: what it stages")
struct SyncStagingTests {
    /// A bare remote and a clone `a` set up by `tick init --git`, with its first list synced.
    private func clone() throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        sandbox.environment = sandbox.gitEnvironment
        try sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", "remote.git"])
        try sandbox.git(["clone", "--quiet", "remote.git", "a"])
        expectRun(try sandbox.run(["init", "--git", "--quiet", "a"]), status: 0, stdout: "")
        try sandbox.write("a/groceries.md", "# Groceries\n\n- [ ] Milk\n")
        expectRun(try sandbox.run(["--dir", "a", "sync"]), status: 0, stderr: "")
        return sandbox
    }

    @Test("untracked non-list files are left out and named with the command to add them; lists and tracked files are pushed")
    func untrackedFilesLeftOut() throws {
        let sandbox = try clone()
        try sandbox.write("a/private-notes.txt", "my bank PIN\n")
        try sandbox.write("a/.obsidian/workspace.json", "{}\n")
        try sandbox.write("a/projects/work.md", "# Work\n\n- [ ] Report\n")
        try sandbox.write("a/groceries.md", "# Groceries\n\n- [ ] Milk\n- [ ] Eggs\n")
        let result = try sandbox.run(["--dir", "a", "sync"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Committed: tick sync: Groceries: 1 added; Work: 1 added\nSynced with origin/main\n")
        let root = try #require(try sandbox.git(["rev-parse", "--show-toplevel"], in: "a").stdout.split(separator: "\n").first)
        #expect(result.stderr == "tick: sync left out 2 untracked files that are not lists:\n"
                + "  .obsidian/workspace.json\n  private-notes.txt\n"
                + "To sync them too: git -C \(root) add -- .obsidian/workspace.json private-notes.txt\n")
        // The remote holds the lists and tick's own files, not the others.
        let pushed = try sandbox.git(["ls-tree", "-r", "--name-only", "main"], in: "remote.git").stdout
        #expect(pushed == ".gitattributes\n.tick/.gitignore\ngroceries.md\nprojects/work.md\n")
        #expect(try sandbox.git(["status", "--porcelain"], in: "a").stdout == "?? .obsidian/\n?? private-notes.txt\n")
    }

    @Test("a file git already tracks is committed when changed, and one deleted is deleted")
    func trackedFilesFollow() throws {
        let sandbox = try clone()
        try sandbox.write("a/notes.txt", "first\n")
        try sandbox.git(["add", "notes.txt"], in: "a")
        try sandbox.write("a/notes.txt", "second\n")
        try sandbox.remove("a/groceries.md")
        let result = try sandbox.run(["--dir", "a", "sync"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let pushed = try sandbox.git(["ls-tree", "-r", "--name-only", "main"], in: "remote.git").stdout
        #expect(pushed == ".gitattributes\n.tick/.gitignore\nnotes.txt\n")
        #expect(try sandbox.git(["show", "main:notes.txt"], in: "remote.git").stdout == "second\n")
        #expect(try sandbox.git(["status", "--porcelain"], in: "a").stdout == "")
    }

    @Test("a list git ignores is not added, and not named as left out")
    func ignoredList() throws {
        let sandbox = try clone()
        try sandbox.write("a/.gitignore", "drafts/\n")
        try sandbox.git(["add", ".gitignore"], in: "a")
        try sandbox.write("a/drafts/idea.md", "- [ ] Maybe\n")
        let result = try sandbox.run(["--dir", "a", "sync"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let pushed = try sandbox.git(["ls-tree", "-r", "--name-only", "main"], in: "remote.git").stdout
        #expect(pushed == ".gitattributes\n.gitignore\n.tick/.gitignore\ngroceries.md\n")
    }
}
