import Foundation
import Testing

/// Queries nested deeper than the parser's bound (issue 44, item 7): 10,000 leading dashes or
/// 20,000 NOTs once overflowed the stack, and a saved view holding one crashed every run.
@Suite("deeply nested queries")
struct DeepQueryTests {
    static let dashes = String(repeating: "-", count: 10_000) + "milk"
    static let nots = String(repeating: "NOT ", count: 20_000) + "milk"
    static let parentheses = String(repeating: "(", count: 5_000) + "milk" + String(repeating: ")", count: 5_000)

    @Test("find refuses a query nested past 100 levels: one line naming the column, exit 2", arguments: [
        (dashes, 101), (nots, 401), (parentheses, 101),
    ])
    func refused(query: String, column: Int) throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n- [ ] milk\n"])
        let before = try sandbox.read("tasks/a.md")
        let result = try sandbox.run(["--dir", "tasks", "find", "--", query])
        #expect(result.status == 2, "\(result.status) \(result.stderr.prefix(300))")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tick: bad query at column \(column): the query nests more than 100 levels deep"),
                "\(result.stderr.prefix(300))")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1 && result.stderr.count < 400, "\(result.stderr.prefix(600))")
        #expect(try sandbox.read("tasks/a.md") == before)
        // --where takes the same parser: refused before anything is changed.
        let done = try sandbox.run(["--dir", "tasks", "done", "--where=" + query, "--yes"])
        #expect(done.status == 2 && done.stderr.contains("nests more than 100 levels"), "\(done.stderr.prefix(300))")
        #expect(try sandbox.read("tasks/a.md") == before)
    }

    @Test("100 levels of NOTs, dashes or parentheses still parse")
    func deepestAccepted() throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n- [ ] milk\n- [ ] bread\n"])
        for query in [String(repeating: "-", count: 100) + "milk", String(repeating: "NOT ", count: 100) + "milk",
                      String(repeating: "(", count: 100) + "milk" + String(repeating: ")", count: 100)] {
            let result = try sandbox.run(["--dir", "tasks", "find", "--json", "--", query])
            // An even number of negations finds the task; the parentheses find it too.
            #expect(result.status == 0 && result.stdout.contains("\"milk\""), "\(result.status) \(result.stderr.prefix(300))")
        }
        let odd = try sandbox.run(["--dir", "tasks", "find", "--json", "--", String(repeating: "-", count: 99) + "milk"])
        #expect(odd.status == 0 && odd.stdout.contains("\"bread\"") && !odd.stdout.contains("\"milk\""), "\(odd)")
    }

    @Test("a saved view nested too deep: its own command fails naming it, the home screen warns, other commands run")
    func savedView() throws {
        let sandbox = try Fixtures.folder(["a.md": "# A\n- [ ] milk\n"])
        try sandbox.makeFolder("tasks/.tick")
        // (10,000 dashes: 20,000 NOTs would pass the configuration's 64 KiB.)
        try sandbox.write("tasks/.tick/config", "view.deep = \(Self.dashes)\nview.fine = milk\n")
        let view = try sandbox.run(["--dir", "tasks", "view", "deep"])
        #expect(view.status == 2 && view.stdout.isEmpty, "\(view.status) \(view.stderr.prefix(300))")
        #expect(view.stderr.hasPrefix("tick: saved view 'deep': bad query at column 101: the query nests more than 100 levels"),
                "\(view.stderr.prefix(300))")
        #expect(view.stderr.filter { $0 == "\n" }.count == 1 && view.stderr.count < 400)
        let home = try sandbox.run(["--dir", "tasks"])
        #expect(home.status == 0 && home.stdout.contains("fine"), "\(home.status) \(home.stderr.prefix(300))")
        #expect(home.stderr.hasPrefix("tick: warning: saved view 'deep': bad query at column 101"), "\(home.stderr.prefix(300))")
        let listing = try sandbox.run(["--dir", "tasks", "view"])
        #expect(listing.status == 0 && listing.stdout.contains("fine"), "\(listing.status) \(listing.stderr.prefix(300))")
        expectRun(try sandbox.run(["--dir", "tasks", "view", "fine", "--json"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "all", "--json"]), status: 0, stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "view", "rm", "deep"]), status: 0, stdout: "Deleted view deep\n")
        #expect(try sandbox.read("tasks/.tick/config") == "view.fine = milk\n")
    }
}
