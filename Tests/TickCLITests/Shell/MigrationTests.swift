import Foundation
import Testing

/// Moving in from todo.txt and Taskwarrior and back out, in the spirit of a storage migration:
/// the fixtures (`Fixtures/interchange/`) hold every field, Unicode, duplicate titles, empty values
/// and odd spacing; an import followed by an export must give back everything the README's mapping
/// tables say maps, and the real `todo-txt` and `task` must read what tick exports.
@Suite("import and export: todo.txt and Taskwarrior")
struct MigrationTests {
    /// A sandbox whose runs convert UTC in a zone with summer time.
    func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder([:])
        sandbox.environment["TZ"] = "Europe/Berlin"
        return sandbox
    }

    func fixture(_ name: String) -> String { Fixtures.root.appendingPathComponent("interchange/" + name).path }

    /// Runs a program with `arguments` and returns its exit status and standard output.
    func tool(_ arguments: [String], environment: [String: String], in directory: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = directory + "/.tool-out"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOfFile: out, encoding: .utf8))
    }

    @Test("todo.txt: import then export gives back every line, with only the changes the mapping table names")
    func todoTxtRoundTrip() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "import", "todotxt", fixture("todo.txt")]), status: 0, stdout: """
            Imported 8 tasks
              Family (family.md, new list): 1
              Home (home.md, new list): 4
              Books (books.md, new list): 1
              Inbox (inbox.md, new list): 2

            """, stderr: "")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            - [x] Pay the rent t:2026-03-05 created:2026-03-01 !! done:2026-03-10
            - [ ] Water the plants
            - [ ] Water the plants
            - [ ] Tab separated key:value url:https://example.org/a?b=c ! due:2026-03-18T09:30

            """)
        let export = try sandbox.run(["--dir", "tasks", "export", "todotxt"])
        expectRun(export, status: 0, stderr: "")
        // The mapping: the first +project is the list (written as its file name, so lower case), a further
        // one stays in the title and comes back verbatim, a project still; a line's words may change places;
        // runs of spaces and tabs become one space.
        func mapped(_ line: String) -> [String] {
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { word in
                word.hasPrefix("+") ? word.lowercased() : String(word)
            }.sorted()
        }
        let input = try String(contentsOfFile: fixture("todo.txt"), encoding: .utf8).split(separator: "\n")
            .filter { !$0.allSatisfy { $0 == " " } }.map { mapped(String($0)) }
        var inputWithInbox = input
        for i in inputWithInbox.indices where !inputWithInbox[i].contains(where: { $0.hasPrefix("+") }) {
            inputWithInbox[i] = (inputWithInbox[i] + ["+inbox"]).sorted()
        }
        let output = export.stdout.split(separator: "\n").map { mapped(String($0)) }
        #expect(output.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
                == inputWithInbox.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") })
        // Importing the export again into a new folder gives the same lists.
        // (The list's heading is its file name now: "+home" names it.)
        try sandbox.write("exported.txt", export.stdout)
        try sandbox.makeFolder("again")
        expectRun(try sandbox.run(["--dir", "again", "--quiet", "import", "todotxt", "exported.txt"]), status: 0, stdout: "")
        #expect(try sandbox.read("again/home.md").split(separator: "\n").dropFirst()
                == sandbox.read("tasks/home.md").split(separator: "\n").dropFirst())
    }

    @Test("todo.txt: the real todo-txt reads tick's export: every task, its priority, projects and contexts")
    func todoTxtReadByTodoTxtCLI() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "todotxt", fixture("todo.txt")]), status: 0)
        try sandbox.makeFolder("td")
        expectRun(try sandbox.run(["--dir", "tasks", "export", "todotxt", "-o", sandbox.path("td/todo.txt")]), status: 0)
        try sandbox.write("td/done.txt", "")
        try sandbox.write("td/config", """
            export TODO_DIR=\(sandbox.path("td"))
            export TODO_FILE=$TODO_DIR/todo.txt
            export DONE_FILE=$TODO_DIR/done.txt
            export REPORT_FILE=$TODO_DIR/report.txt

            """)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": sandbox.path("home"), "LC_ALL": "C.UTF-8"]
        let config = sandbox.path("td/config")
        let (status, list) = try tool(["todo-txt", "-d", config, "-p", "ls"], environment: environment, in: sandbox.root.path)
        #expect(status == 0, "\(list)")
        #expect(list.hasSuffix("--\nTODO: 8 of 8 tasks shown\n"), "\(list)")
        #expect(list.contains("(D) Read “Преступление и наказание” +Russian +books @flag due:2026-03-20 rec:+1w\n"), "\(list)")
        let (_, priorityA) = try tool(["todo-txt", "-d", config, "-p", "listpri", "A"], environment: environment, in: sandbox.root.path)
        #expect(priorityA.contains("(A) 2026-03-01 Call mum @phone +family due:2026-03-16\n") && priorityA.contains("TODO: 1 of 8"), "\(priorityA)")
        let (_, projects) = try tool(["todo-txt", "-d", config, "-p", "listproj"], environment: environment, in: sandbox.root.path)
        #expect(projects == "+Russian\n+books\n+family\n+home\n+inbox\n")
        let (_, contexts) = try tool(["todo-txt", "-d", config, "-p", "listcon"], environment: environment, in: sandbox.root.path)
        #expect(contexts == "@errands\n@flag\n@phone\n")
    }

    @Test("Taskwarrior: import maps every field, skips deleted tasks and generated instances, and counts what it could not map")
    func taskwarriorImport() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "import", "taskwarrior", fixture("taskwarrior.json"), "--keep-ids"]), status: 0, stdout: """
            Imported 8 tasks
              Family (family.md, new list): 1
              Home (home.md, new list): 4
              Books.Russian (books.russian.md, new list): 1
              Inbox (inbox.md, new list): 2
              skipped, deleted: 1
              skipped, instances of a repeating task: 1
              not mapped, recur without a tick rule (kept in the notes): 1
              not mapped, scheduled: 1
              not mapped, tags that are not tick tags (kept in the notes): 1
              not mapped, wait: 1

            """, stderr: "")
        #expect(try sandbox.read("tasks/home.md") == """
            # Home

            - [x] Pay the rent !! done:2026-03-10 id:44467c3e-783d-4295-8292-292576c23b29
            - [ ] Water the plants id:ed42183e-46d7-4fce-85d2-5d255a56821f
            - [ ] Water the plants id:ed42183e-46d7-4fce-85d2-5d255a56821e
            - [ ] Fix the gate #diy due:2026-03-17T09:30 id:0f8fad5b-d9cb-469f-a165-70867728950e
              Taskwarrior tags: home.garden
              2026-03-02 The hinge is rusty
              2026-03-03 Bought oil

            """)
        #expect(try sandbox.read("tasks/family.md") == "# Family\n\n- [ ] Call mum #phone !!! #flag due:2026-03-16 id:f2531765-9318-442a-8f9a-f9afac0d2a81\n")
        #expect(try sandbox.read("tasks/books.russian.md").contains("- [ ] Read “Преступление и наказание” ! due:2026-03-20 rec:+1w id:4e779bbc"))
    }

    @Test("Taskwarrior: the real task imports tick's export, and its counts and fields are those of the folder")
    func taskwarriorReadByTask() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "taskwarrior", fixture("taskwarrior.json"), "--keep-ids"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "export", "taskwarrior", "-o", sandbox.path("tw.json")]), status: 0, stderr: "")
        try sandbox.makeFolder("twdata")
        try sandbox.write("taskrc", "data.location=\(sandbox.path("twdata"))\nconfirmation=off\nverbose=nothing\n")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": sandbox.path("home"), "LC_ALL": "C.UTF-8", "TZ": "Europe/Berlin",
                           "TASKRC": sandbox.path("taskrc"), "TASKDATA": sandbox.path("twdata")]
        let options = ["rc.confirmation=off", "rc.recurrence=off", "rc.verbose=nothing", "rc.hooks=off"]
        let (status, log) = try tool(["task"] + options + ["import", sandbox.path("tw.json")], environment: environment, in: sandbox.root.path)
        #expect(status == 0, "\(log)")
        let (_, exported) = try tool(["task"] + options + ["export"], environment: environment, in: sandbox.root.path)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [[String: Any]], "\(exported)")
        #expect(records.count == 8)
        func record(_ uuid: String) -> [String: Any]? { records.first { $0["uuid"] as? String == uuid } }
        let mum = try #require(record("f2531765-9318-442a-8f9a-f9afac0d2a81"))
        // The tags are in tags only: the description comes back as Taskwarrior wrote it.
        #expect(mum["description"] as? String == "Call mum")
        #expect(mum["priority"] as? String == "H" && mum["project"] as? String == "Family")
        #expect(mum["due"] as? String == "20260315T230000Z")
        #expect((mum["tags"] as? [String])?.sorted() == ["next", "phone"])
        let rent = try #require(record("44467c3e-783d-4295-8292-292576c23b29"))
        #expect(rent["status"] as? String == "completed" && rent["end"] as? String == "20260309T230000Z")
        let gate = try #require(record("0f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(gate["due"] as? String == "20260317T083000Z")
        #expect((gate["annotations"] as? [[String: Any]])?.compactMap { $0["description"] as? String }.sorted()
                == ["Bought oil", "Taskwarrior tags: home.garden", "The hinge is rusty"])
        let book = try #require(record("4e779bbc-57b8-4b63-806c-06c6860d0d7b"))
        #expect(book["recur"] as? String == "1w" && book["description"] as? String == "Read “Преступление и наказание”")
        #expect(records.filter { $0["description"] as? String == "Water the plants" }.count == 2)
        #expect(records.filter { $0["status"] as? String == "completed" }.count == 1)
    }

    @Test("Taskwarrior: import, export and import again into a new folder gives the same lists, byte for byte")
    func taskwarriorRoundTrip() throws {
        let sandbox = try sandbox()
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "taskwarrior", fixture("taskwarrior.json"), "--keep-ids"]), status: 0)
        expectRun(try sandbox.run(["--dir", "tasks", "export", "taskwarrior", "-o", sandbox.path("tw.json")]), status: 0, stderr: "")
        try sandbox.makeFolder("again")
        expectRun(try sandbox.run(["--dir", "again", "import", "taskwarrior", sandbox.path("tw.json"), "--keep-ids"]), status: 0, stdout: """
            Imported 8 tasks
              Books.Russian (books.russian.md, new list): 1
              Family (family.md, new list): 1
              Home (home.md, new list): 4
              Inbox (inbox.md, new list): 2

            """)
        #expect(try sandbox.listFiles("again") == sandbox.listFiles("tasks"))
        for file in try sandbox.listFiles("tasks") {
            #expect(try sandbox.read("again/" + file) == sandbox.read("tasks/" + file), "\(file)")
        }
    }

    @Test("an import is one change: one undo takes it all back; --dry-run writes nothing")
    func oneUndoAndDryRun() throws {
        let sandbox = try sandbox()
        try sandbox.write("tasks/home.md", "# Home\n\n- [ ] Mine\n")
        expectRun(try sandbox.run(["--dir", "tasks", "import", "todotxt", fixture("todo.txt"), "--dry-run"]), status: 0, stdout: """
            Would import 8 tasks (nothing written)
              Family (family.md, new list): 1
              Home (home.md): 4
              Books (books.md, new list): 1
              Inbox (inbox.md, new list): 2

            """)
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
        expectRun(try sandbox.run(["--dir", "tasks", "--quiet", "import", "todotxt", fixture("todo.txt")]), status: 0, stdout: "")
        #expect(try sandbox.listFiles("tasks") == ["books.md", "family.md", "home.md", "inbox.md"])
        expectRun(try sandbox.run(["--dir", "tasks", "undo"]), status: 0, stdout: "Undid: imported 8 tasks from todo.txt\n")
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
        #expect(try sandbox.read("tasks/home.md") == "# Home\n\n- [ ] Mine\n")
    }

    @Test("a file in the wrong format is refused with the line or record that failed, status 2, nothing written",
          arguments: [("todotxt", "a.txt", "Fine +Home\nBad due:someday\n", "line 2: 'due:someday' is not a due date YYYY-MM-DD"),
                      ("todotxt", "a.txt", "Fine\nrec:often Stretch\n", "line 2: 'rec:often' is not a rule tick reads (1w, +1w, ++1w; d, w, m, y, b)"),
                      ("taskwarrior", "a.json", "[{\"description\":\"ok\"},\n{\"description\": 3}]", "record 2: description is not a string"),
                      ("taskwarrior", "a.json", "[{\"description\":\"ok\",\"status\":\"pending\"},\n {\"status\":\"gone\"}]", "record 2: unknown status 'gone'"),
                      ("taskwarrior", "a.json", "[{\"description\":\"ok\"},\n {\"description\" \"x\"}]", "line 2, column 17: not JSON: expected ':'"),
                      ("taskwarrior", "a.json", "[{\"description\":\"ok\", \"due\":\"tomorrow\"}]", "record 1: due 'tomorrow' is not a date YYYYMMDDTHHMMSSZ")])
    func wrongFormat(format: String, file: String, text: String, message: String) throws {
        let sandbox = try sandbox()
        try sandbox.write("tasks/home.md", "# Home\n")
        try sandbox.write(file, text)
        let kind = format == "todotxt" ? "todo.txt" : "Taskwarrior"
        expectRun(try sandbox.run(["--dir", "tasks", "import", format, file]), status: 2, stdout: "",
                  stderr: "tick: '\(file)' is not a \(kind) file: \(message)\n")
        #expect(try sandbox.listFiles("tasks") == ["home.md"])
        #expect(try sandbox.read("tasks/home.md") == "# Home\n")
    }
}
