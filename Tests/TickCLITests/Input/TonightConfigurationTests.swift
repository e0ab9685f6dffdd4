import Foundation
import Testing

/// `date.tonight` in the configuration files, end to end: `tonight` in a DATE argument and in a
/// title's `due:` token names that time; a bad value is a warning and tonight stays 18:00.
@Suite("date.tonight configuration")
struct TonightConfigurationTests {
    @Test("date.tonight sets the time of tonight for add and due; the folder's file beats the user's")
    func configuredTonight() throws {
        let sandbox = try ConfigurationTests.sandbox(user: "date.tonight = 21:00\n", folder: "date.tonight = 19:30\n")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Call mum due:tonight"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Cook"]), status: 0, stdout: "", stderr: "")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "Cook", "tonight"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md")
            == "# Inbox\n\n- [ ] Call mum due:2026-03-14T19:30\n- [ ] Cook due:2026-03-14T19:30\n")
        try sandbox.remove("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "due", "Cook", "tonight"]), status: 0, stdout: "", stderr: "")
        #expect(try sandbox.read("tasks/inbox.md").contains("- [ ] Cook due:2026-03-14T21:00\n"))
    }

    @Test("a bad date.tonight is a warning naming the file, the line and the key; tonight stays 18:00")
    func badTonight() throws {
        let sandbox = try ConfigurationTests.sandbox(folder: "# evenings\ndate.tonight = 7pm\n")
        let file = sandbox.path("tasks/.tick/config")
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "add", "Cook due:tonight"]), status: 0, stdout: "",
                  stderr: "tick: warning: \(file):2: bad value '7pm' for date.tonight (expected a time HH:MM, from 00:00 to 23:59); ignored\n")
        #expect(try sandbox.read("tasks/inbox.md") == "# Inbox\n\n- [ ] Cook due:2026-03-14T18:00\n")
    }
}
