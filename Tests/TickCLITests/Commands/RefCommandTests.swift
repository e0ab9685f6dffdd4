import Foundation
import Testing

/// Refs end to end (README "Naming tasks", FORMAT.md 5.8 and 5.9): a ref shown for a task never names
/// another one, a ref and a title that collide are ambiguous, ambiguity errors tell the candidates apart,
/// and `id:` tokens.
@Suite("refs and ids")
struct RefCommandTests {
    static let milk = "# Groceries\n\n- [ ] Buy milk\n- [ ] Buy milk due:2026-03-20\n- [ ] Bread\n"

    /// The refs `tick ls LIST` shows, by row, with the rows' text.
    static func rows(_ sandbox: Sandbox, _ list: String) throws -> [(ref: String, text: String)] {
        try sandbox.run(["--dir", "tasks", "ls", list]).stdout.split(separator: "\n").dropFirst().compactMap { line in
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { return nil }
            return (String(words[0]), String(words[1]))
        }
    }

    @Test("repeating rm with a same-titled task's ref never deletes the other one")
    func repeatedRemove() throws {
        let sandbox = try Fixtures.folder(["groceries.md": Self.milk])
        let refs = try Self.rows(sandbox, "groceries")
        let first = refs[0].ref
        expectRun(try sandbox.run(["--dir", "tasks", "rm", first]), status: 0)
        let after = try sandbox.read("tasks/groceries.md")
        #expect(after == "# Groceries\n\n- [ ] Buy milk due:2026-03-20\n- [ ] Bread\n")
        expectRun(try sandbox.run(["--dir", "tasks", "rm", first]), status: 1, stdout: "",
                  stderr: "tick: '\(first)' named \"Buy milk\", which tick has since removed; no task has that ref now\n")
        #expect(try sandbox.read("tasks/groceries.md") == after)
        // The survivor keeps its ref.
        #expect(try Self.rows(sandbox, "groceries")[0].ref == refs[1].ref)
    }

    @Test("after mv, done or a hand edit of same-titled tasks, each ref names its own task or none")
    func sameTitledChanges() throws {
        let sandbox = try Fixtures.folder(["groceries.md": Self.milk, "other.md": "# Other\n"])
        let refs = try Self.rows(sandbox, "groceries")
        // done of the first: the second keeps its ref.
        expectRun(try sandbox.run(["--dir", "tasks", "done", refs[0].ref]), status: 0)
        #expect(try Self.rows(sandbox, "groceries").map(\.ref).contains(refs[1].ref))
        // mv of the first: its old ref follows it to its new list, the second still named by its own.
        expectRun(try sandbox.run(["--dir", "tasks", "mv", refs[0].ref, "other"]), status: 0)
        let moved = try sandbox.run(["--dir", "tasks", "show", refs[0].ref])
        #expect(moved.status == 0 && moved.stdout.contains("Other"), "\(moved.stdout)")
        expectRun(try sandbox.run(["--dir", "tasks", "due", refs[1].ref, "2026-03-21"]), status: 0)
        #expect(try sandbox.read("tasks/groceries.md").contains("- [ ] Buy milk due:2026-03-21"))
    }

    @Test("a same-titled task deleted by hand gives its ref to nobody, even after tick writes the list")
    func handDelete() throws {
        let sandbox = try Fixtures.folder(["groceries.md": Self.milk])
        // tick writes the list once, so that its journal knows what it left there.
        expectRun(try sandbox.run(["--dir", "tasks", "flag", "bread"]), status: 0)
        let refs = try Self.rows(sandbox, "groceries")
        try sandbox.write("tasks/groceries.md", "# Groceries\n\n- [ ] Buy milk due:2026-03-20\n- [ ] Bread #flag\n")
        expectRun(try sandbox.run(["--dir", "tasks", "show", refs[0].ref]), status: 1)
        // Adding a task identical to the deleted one: the old ref must not name it.
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Buy milk", "--list", "groceries"]), status: 0)
        let result = try sandbox.run(["--dir", "tasks", "rm", refs[0].ref])
        #expect(result.status == 1)
        #expect(try sandbox.read("tasks/groceries.md").contains("- [ ] Buy milk\n"))
    }

    @Test("a ref and an exact title that collide are ambiguous, and nothing is written")
    func refTitleCollision() throws {
        let sandbox = try Fixtures.folder(["home.md": "# Home\n\n- [ ] Call the plumber\n"])
        let ref = try sandbox.ref("Call the plumber", dir: "tasks")
        try sandbox.write("tasks/home.md", "# Home\n\n- [ ] Call the plumber\n- [ ] \(ref.uppercased())\n")
        let text = try sandbox.read("tasks/home.md")
        let result = try sandbox.run(["--dir", "tasks", "rm", ref])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tick: '\(ref)' matches several tasks: "))
        #expect(result.stderr.contains("\"Call the plumber\" (Home, open)"))
        #expect(result.stderr.contains("\"\(ref.uppercased())\" (Home, open)"))
        #expect(try sandbox.read("tasks/home.md") == text)
    }

    @Test("done considers only open tasks and reopen only done ones before calling a REF ambiguous")
    func doneAndReopenPrefer() throws {
        let sandbox = try Fixtures.folder(["a.md": "- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "done", "buy milk"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "- [x] Buy milk done:2026-03-14\n- [x] Buy milk done:2026-03-01\n")
        let both = try sandbox.run(["--dir", "tasks", "reopen", "buy milk"])
        #expect(both.status == 1)
        #expect(both.stderr.contains("(a, done)"))
        try sandbox.write("tasks/a.md", "- [ ] Buy milk\n- [x] Buy milk done:2026-03-01\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "reopen", "buy milk"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/a.md") == "- [ ] Buy milk\n- [ ] Buy milk\n")
    }

    @Test("tick id writes an id on each task without one, in one change; the id ref survives a retitle and a move")
    func mintIDs() throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n\n- [ ] One\n- [ ] Two id:mine\n", "b.md": "# B\n"])
        let before = try sandbox.ref("One", dir: "tasks")
        let result = try sandbox.run(["--dir", "tasks", "id", "one", "two"])
        #expect(result.status == 0)
        let text = try sandbox.read("tasks/a.md")
        let minted = try #require(text.split(separator: "\n").first { $0.hasPrefix("- [ ] One id:") })
        let value = String(minted.dropFirst("- [ ] One id:".count))
        #expect(value.count == 10 && value.allSatisfy { "23456789bcdfghjkmnpqrstvwxz".contains($0) })
        #expect(text.hasSuffix("- [ ] Two id:mine\n"))
        let one = try sandbox.ref("One", dir: "tasks")
        #expect(result.stdout == "Gave id:\(value) to \(one) \"One\"\n\(try sandbox.ref("Two", dir: "tasks")) \"Two\" has an id already (id:mine)\n"
                + "Renamed: \(before) is now \(one)\n")
        // JSON carries the id, null without one.
        let json = try sandbox.run(["--dir", "tasks", "--json", "show", one]).stdout
        #expect(json.contains("\"id\":\"\(value)\""))
        // A new title and a move keep the ref.
        expectRun(try sandbox.run(["--dir", "tasks", "edit", one, "--title", "One, renamed"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "mv", one, "b"]), status: 0)
        #expect(try sandbox.ref("One, renamed", dir: "tasks") == one)
        #expect(try sandbox.read("tasks/b.md").contains("- [ ] One, renamed id:\(value)"))
        // One undo per command: the move, the retitle, then the ids.
        for _ in 0..<3 { expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "undo"]), status: 0) }
        #expect(try sandbox.read("tasks/a.md") == "# A\n\n- [ ] One\n- [ ] Two id:mine\n")
    }

    @Test("check reports a duplicate id and a malformed one; an id is not part of the title")
    func checkIDs() throws {
        let sandbox = try Fixtures.folder([
            "a.md": "- [ ] One id:x1\n- [ ] Two id:\n",
            "b.md": "- [ ] Three id:x1\n- [ ] Four ID:x2\n- [ ] Five id:a/b\n",
        ])
        let result = try sandbox.run(["--dir", "tasks", "check"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("a.md:2:11: malformed id 'id:'"))
        #expect(result.stdout.contains("b.md:1:13: duplicate id 'id:x1': a.md:1 has it too"))
        #expect(result.stdout.contains("b.md:2:12: 'ID:x2' is not metadata: keys are lower case ('id:')"))
        #expect(result.stdout.contains("b.md:3:12: malformed id 'id:a/b'"))
        let json = try sandbox.run(["--dir", "tasks", "--json", "show", "one"]).stdout
        #expect(json.contains("\"id\":\"x1\"") && json.contains("\"title\":\"One\""))
        #expect(try sandbox.run(["--dir", "tasks", "--json", "show", "four"]).stdout.contains("\"id\":null"))
        // A title given to add may not hold an id token.
        expectRun(try sandbox.run(["--dir", "tasks", "add", "Six id:x9", "--list", "a"]), status: 2)
    }
}

/// How the write commands find the tasks their REFs name. "Now" is pinned to Saturday 14 March 2026, 09:30.
@Suite("REF arguments of the write commands")
struct RefArgumentTests {

    @Test("an unknown or ambiguous REF is refused with status 1 and a list of candidates; nothing is written")
    func badRefs() throws {
        let sandbox = try Fixtures.folder(["home.md": Fixtures.home])
        for command in [["done"], ["reopen"], ["flag"], ["unflag"], ["rm"], ["edit"], ["due"], ["priority"], ["mv"], ["id"]] {
            let tail: [String] = command == ["due"] ? ["today"] : command == ["priority"] ? ["low"] : command == ["mv"] ? ["home"] :
                command == ["edit"] ? ["--title", "X"] : []
            expectRun(try sandbox.run(["--dir", "tasks"] + command + ["nothing like it"] + tail), status: 1, stdout: "",
                      stderr: "tick: no task matches 'nothing like it'\n")
            // `reopen` considers only done tasks, and "Fix the light" is the one done task with "the".
            guard command != ["reopen"] else { continue }
            let ambiguous = try sandbox.run(["--dir", "tasks"] + command + ["the"] + tail)
            #expect(ambiguous.status == 1)
            #expect(ambiguous.stderr.hasPrefix("tick: 'the' matches several tasks: "))
            // Each candidate with its ref, list, status and due date.
            #expect(ambiguous.stderr.contains(#""Call the plumber" (Home, open, due 2026-03-20)"#))
            #expect(ambiguous.stderr.contains(#""Fix the light" (Home, done)"#))
        }
        // One bad REF among good ones: nothing changes.
        expectRun(try sandbox.run(["--dir", "tasks", "done", "plumber", "nothing like it"]), status: 1)
        #expect(try sandbox.read("tasks/home.md") == Fixtures.home)
    }
}
