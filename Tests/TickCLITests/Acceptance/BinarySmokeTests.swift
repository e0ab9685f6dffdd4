import Foundation
import Testing

/// The real `tick` binary, run as a child process, against the same command line run in-process:
/// a few commands across reading, writing, errors and help must give the same exit status, the
/// same output and the same files either way. The rest of the suite runs in-process
/// (`Sandbox.run`), so these keep `main.swift` and the binary honest.
@Suite("binary smoke")
struct BinarySmokeTests {
    /// Each case: its name, the commands run one after another in a fresh copy of the `clean` folder.
    static let cases: [(String, [[String]])] = [
        ("version", [["--version"]]),
        ("help of a command", [["help", "add"]]),
        ("a view", [["--dir", "tasks", "all"]]),
        ("a query as JSON", [["--dir", "tasks", "find", "#errands", "--json"]]),
        ("add, then show", [["--dir", "tasks", "add", "Buy bread due:tomorrow", "--list", "groceries"],
                            ["--dir", "tasks", "all", "--json"]]),
        ("done, then undo", [["--dir", "tasks", "done", "Milk"], ["--dir", "tasks", "undo"],
                             ["--dir", "tasks", "all"]]),
        ("mv to another list", [["--dir", "tasks", "mv", "Milk", "work/projects"]]),
        ("an unknown option", [["--dir", "tasks", "all", "--frobnicate"]]),
        ("an unknown ref", [["--dir", "tasks", "done", "no such task anywhere"]]),
        ("check", [["--dir", "tasks", "check"]]),
        ("a missing folder", [["--dir", "missing", "all"]]),
    ]

    @Test("the binary and the in-process run agree", arguments: cases.indices)
    func binaryAgreesWithInProcess(_ index: Int) throws {
        let (name, runs) = Self.cases[index]
        let binary = try Sandbox(onDisk: true)
        let inProcess = try Sandbox(onDisk: true)
        try binary.copyFolder("clean", to: "tasks")
        try inProcess.copyFolder("clean", to: "tasks")
        for arguments in runs {
            let real = try binary.run(arguments, mode: .subprocess)
            let here = try inProcess.run(arguments)
            #expect(real.status == here.status, "\(name): \(arguments)\nbinary: \(real)\nin-process: \(here)")
            #expect(real.stdout == here.stdout, "\(name): \(arguments)")
            #expect(real.stderr == here.stderr, "\(name): \(arguments)")
        }
        #expect(try Self.lists(binary) == Self.lists(inProcess), "\(name): the lists differ")
    }

    @Test("the smoke cases cover reading, writing, errors and help")
    func casesCoverEachKind() throws {
        var statuses: Set<Int32> = []
        var wrote = false
        for (_, runs) in Self.cases {
            let sandbox = try Sandbox(onDisk: true)
            try sandbox.copyFolder("clean", to: "tasks")
            let before = try Self.lists(sandbox)
            for arguments in runs { statuses.insert(try sandbox.run(arguments, mode: .subprocess).status) }
            if try Self.lists(sandbox) != before { wrote = true }
        }
        #expect(wrote)
        #expect(statuses.isSuperset(of: [0, 1, 2]), "\(statuses.sorted())")
    }

    /// The `.md` files of the sandbox's task folder, with their bytes.
    static func lists(_ sandbox: Sandbox) throws -> [String: Data] {
        let root = sandbox.path("tasks")
        var found: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        for case let path as String in walker where path.hasSuffix(".md") && !path.hasPrefix(".tick") {
            found[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
        }
        return found
    }
}
