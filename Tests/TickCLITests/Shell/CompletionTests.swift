import Foundation
import Testing

/// `tick completions bash|zsh|fish`, run in the real shells: each completes commands, an option's
/// values, list names and refs. tick is put on the shells' PATH as the scripts expect.
@Suite("tick completions")
struct CompletionTests {
    /// A sandbox with a folder of two lists, `tick` on a PATH of its own and the three scripts.
    func sandbox() throws -> Sandbox {
        let sandbox = try Fixtures.diskFolder([
            "home.md": "# Home\n\n- [ ] Call the plumber\n\n## Garden\n\n- [ ] Rake the leaves\n- [x] Mow done:2026-03-01\n",
            "health.md": "# Health\n\n- [ ] Book the dentist\n",
        ])
        try sandbox.write("tasks/.tick/config", "view.urgent = pri:high\nview.errands = #errands\n")
        try sandbox.makeFolder("bin")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("bin/tick"), withDestinationPath: try #require(TickBinary.path))
        sandbox.environment["PATH"] = sandbox.path("bin") + ":/usr/bin:/bin"
        sandbox.environment["TICK_DIR"] = sandbox.path("tasks")
        for shell in ["bash", "zsh", "fish"] {
            let result = try sandbox.run(["completions", shell])
            #expect(result.status == 0 && !result.stdout.isEmpty, "\(result)")
            try sandbox.write("scripts/" + (shell == "zsh" ? "_tick" : "tick.\(shell)"), result.stdout)
        }
        return sandbox
    }

    /// Runs `script` with the shell `shell` and returns its standard output.
    func shell(_ sandbox: Sandbox, _ shell: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + shell)
        process.arguments = arguments
        process.environment = sandbox.environment.merging(["HOME": sandbox.path("home"), "XDG_CONFIG_HOME": sandbox.path("home/.config"),
                                                           "XDG_DATA_HOME": sandbox.path("home/.data")]) { $1 }
        process.currentDirectoryURL = sandbox.root
        let out = sandbox.path(".shell-out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0, "\(shell) \(arguments)")
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    func refs(_ sandbox: Sandbox, done: Bool = false) throws -> [String] {
        let result = try sandbox.run(["--json", done ? "completed" : "all"])
        let tasks = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return tasks.compactMap { $0["ref"] as? String }.sorted()
    }

    @Test("bash: complete -p names the function, which fills COMPREPLY for COMP_WORDS and COMP_CWORD")
    func bash() throws {
        let sandbox = try sandbox()
        func complete(_ words: [String]) throws -> [String] {
            let list = words.map { "'\($0)'" }.joined(separator: " ")
            let out = try shell(sandbox, "bash", ["--norc", "--noprofile", "-c", """
                source scripts/tick.bash
                complete -p tick
                COMP_WORDS=(\(list)); COMP_CWORD=\(words.count - 1); _tick
                printf '%s\\n' "${COMPREPLY[@]}"
                """])
            let lines = out.split(separator: "\n").map(String.init)
            #expect(lines.first == "complete -F _tick tick")
            return Array(lines.dropFirst()).filter { !$0.isEmpty }
        }
        #expect(try complete(["tick", "sh"]) == ["show"])
        #expect(try complete(["tick", "li"]) == ["lists", "list"])
        #expect(try complete(["tick", "--color", ""]) == ["auto", "always", "never"])
        #expect(try complete(["tick", "priority", "x", "h"]) == ["high"])
        // After a REF, priority takes another REF or its LEVEL: both are offered.
        #expect(Set(try complete(["tick", "priority", "x", ""])) == Set(try refs(sandbox) + ["low", "medium", "high", "none"]))
        #expect(try complete(["tick", "ls", "h"]).sorted() == ["health", "home"])
        #expect(try complete(["tick", "done", ""]).sorted() == refs(sandbox))
        #expect(try complete(["tick", "add", "x", "--list", "home", "--section", ""]) == ["Garden"])
        #expect(try complete(["tick", "ls", "--s"]) == ["--sort"])
        // Saved views after view (and view rm), not lists; the README's sort keys after --sort.
        let views = try complete(["tick", "view", ""])
        #expect(views.contains("urgent") && views.contains("errands") && !views.contains("home"), "\(views)")
        #expect(try complete(["tick", "view", "rm", ""]).sorted() == ["errands", "urgent"])
        #expect(try complete(["tick", "find", "x", "--sort", "d"]) == ["due", "done"])
        #expect(try complete(["tick", "ls", "home", "--sort", "p"]) == ["pri", "priority"])
    }

    @Test("zsh: compinit registers the function from its fpath, which offers commands, option values, lists and refs")
    func zsh() throws {
        let sandbox = try sandbox()
        func complete(_ words: [String]) throws -> [String] {
            let list = words.map { "'\($0)'" }.joined(separator: " ")
            let out = try shell(sandbox, "zsh", ["-f", "-c", """
                fpath=(\(sandbox.path("scripts")) $fpath)
                autoload -U compinit && compinit -u -d \(sandbox.path(".zcompdump"))
                print -r -- "registered: $_comps[tick]"
                compadd() { print -rl -- "${@[(r)--,-1][2,-1]}" }
                _files() { print -r -- ":files" }
                words=(\(list)); CURRENT=\(words.count); _tick
                """])
            let lines = out.split(separator: "\n").map(String.init)
            #expect(lines.first == "registered: _tick")
            return Array(lines.dropFirst())
        }
        #expect(try complete(["tick", "sh"]) == ["show"])
        #expect(try complete(["tick", "--color", "a"]) == ["auto", "always"])
        #expect(try complete(["tick", "ls", "h"]).sorted() == ["health", "home"])
        #expect(try complete(["tick", "reopen", ""]) == refs(sandbox, done: true))
        #expect(try complete(["tick", "check", ""]) == [":files"])
        #expect(try complete(["tick", "view", "u"]) == ["urgent"])
        #expect(try complete(["tick", "today", "--sort", "-p"]) == ["-pri"])
    }

    @Test("fish: complete -C lists commands with their summaries, option values, lists and refs")
    func fish() throws {
        let sandbox = try sandbox()
        func complete(_ line: String) throws -> [String] {
            try shell(sandbox, "fish", ["--no-config", "-c", "source scripts/tick.fish; complete -C '\(line)'"])
                .split(separator: "\n").map(String.init)
        }
        #expect(try complete("tick sh") == ["show\tOne task in full"])
        #expect(try complete("tick ls h") == ["health\tHealth", "home\tHome"])
        #expect(try complete("tick --color n") == ["never"])
        #expect(try complete("tick done ").map { String($0.prefix { $0 != "\t" }) }.sorted() == refs(sandbox))
        #expect(try complete("tick completions ") == ["bash", "fish", "zsh"])
        #expect(try complete("tick view e") == ["errands\t#errands"])
        #expect(try complete("tick all --sort t") == ["title"])
    }

    @Test("the hidden __complete is in no help and no completion, and an unknown shell is refused")
    func hidden() throws {
        let sandbox = try sandbox()
        #expect(!(try sandbox.run(["--help"]).stdout.contains("__complete")))
        #expect(try sandbox.run(["__complete", "--", "__"]).stdout == "")
        expectRun(try sandbox.run(["completions", "tcsh"]), status: 2, stdout: "",
                  stderr: "tick: unknown shell 'tcsh': expected bash, zsh or fish\n")
    }
}
