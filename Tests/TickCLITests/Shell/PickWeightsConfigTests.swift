import Foundation
import Testing

/// The `pick.weights.*` configuration keys: each one's effect on the task `tick pick` chooses, how
/// `tick config` shows and sets them, and the warning for a bad value. "Now" is pinned to Saturday
/// 14 March 2026, 09:30, and every pick is seeded.
@Suite("pick weights from the configuration")
struct PickWeightsConfigTests {
    /// One task for each kind of urgency, and one with none.
    static let tasks = """
        # Home

        - [ ] Plain
        - [ ] Late a day due:2026-03-13
        - [ ] Late ten days due:2026-03-04
        - [ ] Due today due:2026-03-14
        - [ ] Due soon due:2026-03-16
        - [ ] Low one !
        - [ ] Medium one !!
        - [ ] High one !!!
        - [ ] Flagged one #flag

        """

    static let allTitles: Set<String> = ["Plain", "Late a day", "Late ten days", "Due today", "Due soon",
                                         "Low one", "Medium one", "High one", "Flagged one"]

    static let names = ["open", "overdue", "overdue-per-day", "overdue-per-day-max", "today", "soon", "low", "medium",
                        "high", "flagged"]

    /// A configuration with every weight 0 except those given.
    static func config(_ weights: [String: Int]) -> String {
        names.map { "pick.weights.\($0) = \(weights[$0] ?? 0)\n" }.joined()
    }

    static let seeds = 0..<12

    /// The titles `tick pick --seed S --json` chooses for each seed, with the folder's `.tick/config`
    /// set to `config`; the current pick is forgotten before each run, so that it is never excluded.
    func picks(_ config: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let sandbox = try Fixtures.folder(["home.md": Self.tasks])
        try sandbox.write("tasks/.tick/config", config)
        var titles: [String] = []
        for seed in Self.seeds {
            try? sandbox.remove("tasks/.tick/pick")
            let result = try sandbox.run(["--dir", "tasks", "pick", "--json", "--seed", "\(seed)"])
            expectRun(result, status: 0, stderr: "", sourceLocation: sourceLocation)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            titles.append(try #require(object?["title"] as? String, "\(result)", sourceLocation: sourceLocation))
        }
        #expect(try sandbox.read("tasks/home.md") == Self.tasks, "a pick changes no list", sourceLocation: sourceLocation)
        return titles
    }

    /// For each key: the weights that make only `targets` weigh more than 0, and the same weights with
    /// the key at 0 (or, for `open`, at 1), under which other tasks are picked too.
    @Test("each pick.weights key draws the pick to the tasks it describes, and only its value does", arguments: [
        ("open", ["flagged": 1], ["open": 1, "flagged": 1], ["Flagged one"]),
        ("overdue", ["overdue": 5], [:], ["Late a day", "Late ten days"]),
        ("overdue-per-day", ["overdue-per-day": 1, "overdue-per-day-max": 1000], ["overdue-per-day-max": 1000],
         ["Late a day", "Late ten days"]),
        ("overdue-per-day-max", ["overdue-per-day": 1, "overdue-per-day-max": 5], ["overdue-per-day": 1],
         ["Late a day", "Late ten days"]),
        ("today", ["today": 5], [:], ["Due today"]),
        ("soon", ["soon": 5], [:], ["Due soon"]),
        ("low", ["low": 5], [:], ["Low one"]),
        ("medium", ["medium": 5], [:], ["Medium one"]),
        ("high", ["high": 5], [:], ["High one"]),
        ("flagged", ["flagged": 5], [:], ["Flagged one"]),
    ])
    func eachKey(key: String, weights: [String: Int], without: [String: Int], targets: [String]) throws {
        let chosen = try picks(Self.config(weights))
        #expect(Set(chosen).isSubset(of: Set(targets)), "pick.weights.\(key): \(chosen)")
        // Without the key's weight, the same seeds pick other tasks too (every weight 0: a uniform choice).
        let control = try picks(Self.config(without))
        #expect(!Set(control).isSubset(of: Set(targets)), "pick.weights.\(key) (control): \(control)")
        #expect(Set(control).isSubset(of: Self.allTitles))
    }

    @Test("the configured weights also order tick status's {next} and --large")
    func statusFollowsTheWeights() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.tasks])
        expectRun(try sandbox.run(["--dir", "tasks", "status", "--format", "{next}"]), status: 0,
                  stdout: "Late ten days\n", stderr: "")
        try sandbox.write("tasks/.tick/config", "pick.weights.high = 1000\n")
        expectRun(try sandbox.run(["--dir", "tasks", "status", "--format", "{next}"]), status: 0,
                  stdout: "High one\n", stderr: "")
        let large = try sandbox.run(["--dir", "tasks", "--json", "status", "--large"])
        let objects = try JSONSerialization.jsonObject(with: Data(large.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.first?["title"] as? String == "High one", "\(large)")
    }

    @Test("config shows each pick weight with where it came from, and writes one in the folder's file")
    func configShowsAndSets() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.tasks])
        try sandbox.write("home/.config/tick/config", "pick.weights.high = 12\n")
        try sandbox.write("tasks/.tick/config", "# mine\npick.weights.today = 9   # today matters\n")
        let user = sandbox.path("home/.config/tick/config"), folder = sandbox.path("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.today"]), status: 0,
                  stdout: "pick.weights.today = 9  # \(folder):2\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.high"]), status: 0,
                  stdout: "pick.weights.high = 12  # \(user):1\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.overdue-per-day-max"]), status: 0,
                  stdout: "pick.weights.overdue-per-day-max = 6  # tick's default\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--json", "config", "pick.weights.soon"]), status: 0,
                  stdout: "{\"key\":\"pick.weights.soon\",\"value\":\"1\",\"origin\":null}\n", stderr: "")

        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.today", "0"]), status: 0,
                  stdout: "Set pick.weights.today = 0 in \(folder)\n", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "config", "pick.weights.flagged", "1000"]), status: 0,
                  stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/.tick/config")
                == "# mine\npick.weights.today = 0   # today matters\npick.weights.flagged = 1000\n")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.flagged"]), status: 0,
                  stdout: "pick.weights.flagged = 1000  # \(folder):3\n", stderr: "")
    }

    @Test("config refuses a pick weight that is not a whole number from 0 to 1000, with the file unchanged",
          arguments: ["1001", "2.5", "ten", "+3", "0x10", "99999"])
    func configRefusesBadWeights(value: String) throws {
        let sandbox = try Fixtures.folder(["home.md": Self.tasks])
        try sandbox.write("tasks/.tick/config", "pick.weights.low = 2\n")
        expectRun(try sandbox.run(["--dir", "tasks", "config", "pick.weights.low", value]), status: 2, stdout: "",
                  stderr: "tick: bad value '\(value)' for pick.weights.low (expected a whole number from 0 to 1000)\n")
        #expect(try sandbox.read("tasks/.tick/config") == "pick.weights.low = 2\n")
    }

    @Test("a bad pick weight in a file is a warning naming the file, the line and the key, and the default stays")
    func badWeightWarns() throws {
        let sandbox = try Fixtures.folder(["home.md": Self.tasks])
        // Every weight 0 but today's; today's line is bad, so its default (4) applies and Due today is the only pick.
        let config = Self.config([:]).replacingOccurrences(of: "pick.weights.today = 0", with: "pick.weights.today = -4")
        try sandbox.write("tasks/.tick/config", config)
        let file = sandbox.path("tasks/.tick/config")
        let line = try #require(config.split(separator: "\n").firstIndex { $0.hasPrefix("pick.weights.today") }) + 1
        expectRun(try sandbox.run(["--dir", "tasks", "pick", "--seed", "5"]), status: 0, stdout: """
            Do now
              \(try sandbox.ref("Due today", dir: "tasks"))  [ ] Due today  due today  · Home

            When it is done: tick pick --done. Another one: tick pick.

            """, stderr: "tick: warning: \(file):\(line): bad value '-4' for pick.weights.today "
                + "(expected a whole number from 0 to 1000); ignored\n")
        let shown = try sandbox.run(["--dir", "tasks", "config", "pick.weights.today"])
        #expect(shown.stdout == "pick.weights.today = 4  # tick's default\n", "\(shown)")
    }
}
