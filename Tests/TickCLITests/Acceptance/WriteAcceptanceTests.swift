import Foundation
import Testing

/// The whole story from the command line alone, in a folder kept in git: make lists, add
/// reminders, complete, edit and delete some, look at the views, and find in `git diff` only
/// the lines those commands touched. Every step is a new `tick` process, so each one also
/// proves that the last one's changes survive a relaunch.
@Suite("acceptance story")
struct WriteAcceptanceTests {
    @Test("lists, reminders, views, search and a minimal git diff, from the command line alone")
    func story() throws {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("repo")
        func tick(_ arguments: [String], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
            let result = try sandbox.run(arguments, in: "repo", sourceLocation: sourceLocation)
            #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
            #expect(result.stderr == "", "\(arguments): \(result)", sourceLocation: sourceLocation)
            return result
        }
        func home() throws -> [String: Any] {
            let text = try tick(["--json"]).stdout
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func titles(_ arguments: [String]) throws -> [String] {
            try decodeTasks(try tick(arguments + ["--json"]).stdout).compactMap { $0["title"] as? String }
        }

        try git(["init", "-q"], in: sandbox.path("repo"))
        _ = try tick(["init"])
        _ = try tick(["list", "new", "Work"])
        _ = try tick(["list", "new", "Home", "--symbol", "🏠", "--color", "green"])
        _ = try tick(["add", "Send the invoice due:today !!", "--list", "work"])
        _ = try tick(["add", "Plan the offsite due:fri #flag", "--list", "work"])
        _ = try tick(["add", "Book the dentist", "--list", "home", "--due", "tomorrow", "--flag"])
        _ = try tick(["add", "Call the plumber", "--list", "home", "--priority", "high", "--flag",
                      "--note", "Ask about the boiler pressure"])
        _ = try tick(["add", "Renew the passport due:2026-03-10"])
        _ = try tick(["add", "Water the plants"])
        #expect(try sandbox.listFiles("repo") == ["home.md", "inbox.md", "work.md"])
        try git(["add", "."], in: sandbox.path("repo"))
        try git(["commit", "-q", "-m", "lists"], in: sandbox.path("repo"))
        #expect(try git(["status", "--porcelain"], in: sandbox.path("repo")) == "")  // .tick/ ignores itself

        var counts = try home()
        #expect(counts["today"] as? Int == 2)
        #expect(counts["scheduled"] as? Int == 4)
        #expect(counts["flagged"] as? Int == 3)
        #expect(counts["all"] as? Int == 6)
        #expect(try titles(["today"]) == ["Renew the passport", "Send the invoice"])
        #expect(try titles(["flagged"]).sorted() == ["Book the dentist", "Call the plumber", "Plan the offsite"])
        let flaggedFiles = try decodeTasks(try tick(["flagged", "--json"]).stdout).compactMap { $0["file"] as? String }
        #expect(Set(flaggedFiles) == ["home.md", "work.md"])

        // Complete two, edit one, delete one.
        _ = try tick(["done", "invoice", "passport"])
        counts = try home()
        #expect(counts["today"] as? Int == 0)
        #expect(counts["scheduled"] as? Int == 2)
        #expect(counts["all"] as? Int == 4)
        _ = try tick(["edit", "plumber", "--title", "Call the heating engineer"])
        _ = try tick(["rm", "offsite"])
        counts = try home()
        #expect(counts["flagged"] as? Int == 2)
        #expect(counts["all"] as? Int == 3)
        let lists = try #require(counts["lists"] as? [[String: Any]])
        #expect(lists.map { "\($0["name"] ?? "") \($0["open"] ?? "") \($0["done"] ?? "")" } == ["Home 2 0", "Inbox 1 1", "Work 0 1"])
        #expect(lists.first?["symbol"] as? String == "🏠")

        // A word only in the notes finds the task.
        #expect(try titles(["search", "boiler"]) == ["Call the heating engineer"])
        #expect(try titles(["completed"]).sorted() == ["Renew the passport", "Send the invoice"])
        #expect(try titles(["all"]) == ["Book the dentist", "Call the heating engineer", "Water the plants"])

        // git sees only the lines those commands touched.
        let diff = try git(["diff", "-U0", "--no-color"], in: sandbox.path("repo"))
        let changed = diff.split(separator: "\n").filter {
            ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
        }
        #expect(changed == [
            "-- [ ] Call the plumber !!! #flag",
            "+- [ ] Call the heating engineer !!! #flag",
            "-- [ ] Renew the passport due:2026-03-10",
            "+- [x] Renew the passport due:2026-03-10 done:2026-03-14",
            "-- [ ] Send the invoice !! due:2026-03-14",
            "-- [ ] Plan the offsite #flag due:2026-03-20",
            "+- [x] Send the invoice !! due:2026-03-14 done:2026-03-14",
        ])
        #expect(try git(["status", "--porcelain"], in: sandbox.path("repo")) == " M home.md\n M inbox.md\n M work.md\n")
    }

    /// Runs git in `directory` and returns its standard output.
    @discardableResult
    func git(_ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-c", "user.name=Tick Test", "-c", "user.email=test@example.invalid",
                             "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments)", sourceLocation: sourceLocation)
        return String(decoding: data, as: UTF8.self)
    }
}
