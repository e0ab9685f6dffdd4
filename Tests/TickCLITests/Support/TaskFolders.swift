import Foundation
import Testing

/// Task folders for the command tests.
extension Fixtures {
    /// A sandbox with a task folder `tasks/` holding `files`.
    static func folder(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.makeFolder("tasks")
        for (name, text) in files { try sandbox.write("tasks/" + name, text) }
        return sandbox
    }

    /// `folder(files)` on the real disk, for tests whose runs or outside programs need one.
    static func diskFolder(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox(onDisk: true)
        try sandbox.makeFolder("tasks")
        for (name, text) in files { try sandbox.write("tasks/" + name, text) }
        return sandbox
    }

    static let home = """
        # Home

        Some words about the house.

        - [ ] Call the plumber !! due:2026-03-20
          The number is on the fridge.
        - [ ] Paint the fence
          - [ ] Buy paint
          - [ ] Sand the boards
        - [x] Fix the light done:2026-03-01

        ## Garden

        - [ ] Water the plants #flag

        """
}

// MARK: - Helpers

extension Sandbox {
    /// The text of a file inside the sandbox.
    func read(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    /// The visible file names of a folder inside the sandbox, sorted.
    func listFiles(_ relative: String) throws -> [String] {
        try names(relative).filter { !$0.hasPrefix(".") }
    }

    /// The ref that `tick show` gives the task with this title, in the folder `dir`.
    func ref(_ title: String, dir: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(["--dir", dir, "--json", "show", title], sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["ref"] as? String, "no ref for '\(title)': \(result)", sourceLocation: sourceLocation)
    }
}
