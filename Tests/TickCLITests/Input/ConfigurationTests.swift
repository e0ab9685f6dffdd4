import Foundation
import Testing

/// The configuration files: `$XDG_CONFIG_HOME/tick/config` and the folder's `.tick/config` (which
/// wins), beaten by options and environment variables; what tick does not understand is a warning.
@Suite("configuration")
struct ConfigurationTests {
    /// A sandbox with `tasks/` holding an Inbox and a Work list, `.tick/` in it, and
    /// `XDG_CONFIG_HOME` set to `config/`.
    static func sandbox(user: String? = nil, folder: String? = nil) throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder(["inbox.md": "# Inbox\n", "work.md": "# Work\n\n- [ ] Ship it #flag\n"])
        try sandbox.makeFolder("tasks/.tick")
        sandbox.environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        if let user { try sandbox.write("config/tick/config", user) }
        if let folder { try sandbox.write("tasks/.tick/config", folder) }
        return sandbox
    }

    @Test("default-list sends add to that list; the folder's file beats the user's; --list beats both")
    func defaultList() throws {
        let sandbox = try Self.sandbox(user: "# my lists\ndefault-list = inbox\n", folder: "default-list = work  # this clone\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "From the folder's file"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Given", "--list", "inbox"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/work.md") == "# Work\n\n- [ ] Ship it #flag\n- [ ] From the folder's file\n")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n\n- [ ] Given\n")
        try sandbox.remove("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "From the user's file"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n\n- [ ] Given\n- [ ] From the user's file\n")
    }

    @Test("a default-list that names no list is a negative answer naming the file and line; nothing is written")
    func defaultListMissing() throws {
        let sandbox = try Self.sandbox(folder: "\ndefault-list = Someday\n")
        expectRun(try sandbox.run(["--dir", "tasks", "add", "X"]), status: 1, stdout: "",
                  stderr: "tick: no list named 'Someday'; tick list new Someday creates it (the default-list of \(sandbox.path("tasks/.tick/config")):2)\n")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n")
    }

    @Test("color = always colours output to a pipe; --color and NO_COLOR beat it")
    func color() throws {
        let sandbox = try Self.sandbox(user: "color = always\n")
        let escape = "\u{1B}["
        #expect(try sandbox.run(["--dir", "tasks", "flagged"]).stdout.contains(escape))
        #expect(!(try sandbox.run(["--dir", "tasks", "flagged", "--color", "never"]).stdout.contains(escape)))
        #expect(!(try sandbox.run(["--dir", "tasks", "flagged"], environment: ["NO_COLOR": "1"]).stdout.contains(escape)))
        try sandbox.write("tasks/.tick/config", "color = never\n")
        #expect(!(try sandbox.run(["--dir", "tasks", "flagged"]).stdout.contains(escape)))
        #expect(try sandbox.run(["--dir", "tasks", "flagged", "--color", "always"]).stdout.contains(escape))
    }

    @Test("an unknown key, a bad value or a line without = is a warning naming file, line and key; the command runs")
    func warnings() throws {
        let sandbox = try Self.sandbox(user: "colour = never\ncolor = sometimes\njust words\ncolor=never\n")
        let file = sandbox.path("config/tick/config")
        let plain = try Fixtures.folder(["work.md": "# Work\n\n- [ ] Ship it #flag\n"]).run(["--dir", "tasks", "flagged"])
        expectRun(try sandbox.run(["--dir", "tasks", "flagged"]), status: 0, stdout: plain.stdout,
                  stderr: "tick: warning: \(file):1: unknown key 'colour'; ignored\n"
                      + "tick: warning: \(file):2: bad value 'sometimes' for color (expected auto, always or never); ignored\n"
                      + "tick: warning: \(file):3: not a 'key = value' line; ignored\n")
    }

    @Test("the files are untrusted: a symbolic link or an oversized file is ignored with a warning")
    func untrusted() throws {
        let sandbox = try Self.sandbox(user: "default-list = work\n")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("tasks/.tick/config"),
                                                   withDestinationPath: sandbox.path("config/tick/config"))
        let link = sandbox.path("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Y"]), status: 0, stdout: "",
                  stderr: "tick: warning: \(link): a symbolic link, which tick does not follow for its configuration; ignored\n")
        #expect(try sandbox.read("tasks/work.md").hasSuffix("- [ ] Y\n"))
        try FileManager.default.removeItem(atPath: link)
        try sandbox.write("tasks/.tick/config", "default-list = inbox\n" + String(repeating: "# padding\n", count: 7000))
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Z"]), status: 0, stdout: "",
                  stderr: "tick: warning: \(link): larger than 64 KiB; ignored\n")
        #expect(try sandbox.read("tasks/work.md").hasSuffix("- [ ] Y\n- [ ] Z\n"))
    }
}
