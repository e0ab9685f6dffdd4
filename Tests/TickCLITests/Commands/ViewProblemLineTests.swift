import Foundation
import Testing

/// Views over a list that holds problems say so in one line on standard error (issue 49, item 8):
/// `tick: 2 problems in Work (tick check work.md)`; not `tick status`, not `--json`, and the exit
/// status is the view's own.
@Suite("views: the problem line")
struct ViewProblemLineTests {
    static let work = """
        # Work
        - [ ] Call Bob due:tomorrow
        - [ ] Pay rent due:2026-13-01
        - [ ] Send the report #flag due:2026-03-14

        """
    static let home = """
        # Home
        <<<<<<< HEAD
        - [ ] Water plants due:2026-03-14
        =======
        - [ ] Water the plants
        >>>>>>> theirs

        """
    static let shop = """
        # Shop
        - [ ] Milk #flag due:2026-03-14

        """

    /// The views, each over every list.
    static let views = [["today"], ["scheduled"], ["flagged"], ["all"], ["upcoming"], ["find", "due:<=today"],
                        ["view", "soon"]]

    func sandbox(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Fixtures.folder(files)
        try sandbox.write("tasks/.tick/config", "view.soon = due:<=today\n")
        return sandbox
    }

    func tick(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> TickResult {
        try sandbox.run(["--dir", "tasks"] + arguments, environment: environment)
    }

    @Test("tokens that look like fields but are not: one line naming the list and the check to run")
    func fieldLikeTokens() throws {
        let sandbox = try sandbox(["work.md": Self.work, "shop.md": Self.shop])
        for view in Self.views + [["ls", "work"], ["today", "--list", "work"], ["find", "--list", "work", "report"]] {
            let run = try tick(sandbox, view)
            #expect(run.status == 0, "\(view): \(run)")
            #expect(run.stderr == "tick: 2 problems in Work (tick check work.md)\n", "\(view): \(run)")
        }
        // The command it names finds them.
        let check = try tick(sandbox, ["check", "work.md"])
        #expect(check.stdout.contains("Checked 1 list: 2 problems in 1 file"), "\(check)")
    }

    @Test("merge-conflict markers: one problem, the view's exit status unchanged")
    func conflictMarkers() throws {
        let sandbox = try sandbox(["home.md": Self.home, "shop.md": Self.shop])
        for view in Self.views + [["ls", "home"]] {
            let run = try tick(sandbox, view)
            #expect(run.status == 0, "\(view): \(run)")
            #expect(run.stderr == "tick: 1 problem in Home (tick check home.md)\n", "\(view): \(run)")
        }
        // A query that matches nothing still exits 1, as it does on a clean folder.
        let none = try tick(sandbox, ["find", "zzz"])
        #expect(none.status == 1, "\(none)")
        #expect(none.stderr == "tick: 1 problem in Home (tick check home.md)\n")
    }

    @Test("several lists with problems: one summary line; a view of one clean list among them: nothing")
    func severalLists() throws {
        let sandbox = try sandbox(["work.md": Self.work, "home.md": Self.home, "shop.md": Self.shop])
        let run = try tick(sandbox, ["today"])
        #expect(run.status == 0)
        #expect(run.stderr == "tick: 3 problems in 2 lists: Home, Work (tick check)\n", "\(run)")
        for view in [["ls", "shop"], ["today", "--list", "shop"], ["find", "--list", "shop", "milk"]] {
            let clean = try tick(sandbox, view)
            #expect(clean.status == 0, "\(view): \(clean)")
            #expect(clean.stderr == "", "\(view): \(clean)")
        }
    }

    @Test("clean lists print nothing on standard error")
    func cleanLists() throws {
        let sandbox = try sandbox(["shop.md": Self.shop])
        for view in Self.views + [["ls", "shop"]] {
            let run = try tick(sandbox, view)
            #expect(run.status == 0, "\(view): \(run)")
            #expect(run.stderr == "", "\(view): \(run)")
        }
    }

    @Test("--json and tick status print nothing on standard error")
    func jsonAndStatus() throws {
        let sandbox = try sandbox(["work.md": Self.work, "home.md": Self.home])
        for arguments in Self.views.map({ ["--json"] + $0 }) + [["--json", "ls", "work"], ["status"], ["--json", "status"]] {
            let run = try tick(sandbox, arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stderr == "", "\(arguments): \(run)")
            #expect(!run.stdout.isEmpty, "\(arguments): \(run)")
        }
    }

    @Test("the cache and TICK_NO_CACHE=1 give the same line")
    func cacheAgrees() throws {
        let sandbox = try sandbox(["work.md": Self.work, "home.md": Self.home, "shop.md": Self.shop])
        let first = try tick(sandbox, ["today"])
        #expect(sandbox.exists("tasks/.tick/cache"))
        let cached = try tick(sandbox, ["today"])
        let uncached = try tick(sandbox, ["today"], environment: ["TICK_NO_CACHE": "1"])
        #expect(first.stderr == "tick: 3 problems in 2 lists: Home, Work (tick check)\n", "\(first)")
        #expect(cached.stderr == first.stderr)
        #expect(uncached.stderr == first.stderr)
        #expect(cached.stdout == uncached.stdout)
        // A list fixed since the cache was written: its count goes with it.
        try sandbox.write("tasks/work.md", Self.shop.replacingOccurrences(of: "Shop", with: "Work"))
        #expect(try tick(sandbox, ["today"]).stderr == "tick: 1 problem in Home (tick check home.md)\n")
        #expect(try tick(sandbox, ["today"], environment: ["TICK_NO_CACHE": "1"]).stderr
                == "tick: 1 problem in Home (tick check home.md)\n")
    }
}
