import Foundation
import Testing

/// What one run of the `tick` binary produced.
struct TickResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Where the built `tick` binary is: next to the test bundle (SwiftPM puts every product of a
/// build in one folder), else `TICK_BINARY`, else the package's `.build/debug/tick`.
enum TickBinary {
    static let path: String? = {
        let fm = FileManager.default
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["TICK_BINARY"] { candidates.append(explicit) }
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("tick").path)
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tick").path)
        candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/tick").path)
        return candidates.first { fm.isExecutableFile(atPath: $0) }
    }()
}

/// Paths of the checked-in fixtures.
enum Fixtures {
    /// `Tests/TickCLITests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let packageRoot = root
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of a fixture file.
    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }
}

/// A temporary folder with a home, a data home and copies of fixture folders, where `tick` runs
/// with a pinned clock and nothing of the user's environment.
///
/// By default the folder is on a fake disk (`InMemoryFileSystem`, TickCore's, shared with
/// TickCoreTests): the helpers below write and read it, and every run is made in-process over it.
/// A sandbox made `onDisk` is a real temporary folder instead, for tests whose runs need a process
/// of their own or whose outside programs (git, an editor, a shell, a server) read the folder.
final class Sandbox {
    let root: URL
    /// The fake disk the sandbox lives on; nil when it is on the real disk.
    let disk: InMemoryFileSystem?
    /// Environment for every run; tests may add to it.
    var environment: [String: String]

    /// The pinned "now" of every run: Saturday 14 March 2026, 09:30.
    static let now = "2026-03-14T09:30"

    init(onDisk: Bool = false) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("tick-cli-tests-\(UUID().uuidString)")
        if onDisk {
            disk = nil
            try FileManager.default.createDirectory(at: root.appendingPathComponent("home"),
                                                    withIntermediateDirectories: true)
        } else {
            let fake = InMemoryFileSystem()
            fake.mkdir(root.appendingPathComponent("home").path)
            disk = fake
        }
        environment = [
            "PATH": "/usr/bin:/bin",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "TICK_NOW": Sandbox.now,
            "LC_ALL": "C.UTF-8",
        ]
    }

    deinit {
        if disk == nil { try? FileManager.default.removeItem(at: root) }
    }

    /// The absolute path of `relative` inside the sandbox.
    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Copies fixture folder `Fixtures/folders/NAME` to `destination` (default: NAME) and returns its path.
    @discardableResult
    func copyFolder(_ name: String, to destination: String? = nil) throws -> String {
        let target = root.appendingPathComponent(destination ?? name)
        let source = Fixtures.root.appendingPathComponent("folders/\(name)")
        guard let disk else {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
            return target.path
        }
        disk.mkdir(target.path)
        let files = FileManager.default.enumerator(atPath: source.path)
        while let relative = files?.nextObject() as? String {
            let from = source.appendingPathComponent(relative).path, to = target.path + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: from)
            let mode = UInt32((attributes[.posixPermissions] as? Int) ?? 0o644)
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?: disk.mkdir(to, mode: mode)
            case .typeSymbolicLink?: disk.symlink(try FileManager.default.destinationOfSymbolicLink(atPath: from), at: to)
            default: disk.putBytes(to, [UInt8](try Data(contentsOf: URL(fileURLWithPath: from))), mode: mode)
            }
        }
        return target.path
    }

    /// Writes a file inside the sandbox, creating its folders.
    func write(_ relative: String, _ text: String) throws {
        try writeBytes(relative, Array(text.utf8))
    }

    /// Writes bytes to a file inside the sandbox, creating its folders.
    func writeBytes(_ relative: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(relative)
        guard let disk else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try Data(bytes).write(to: url)
        }
        disk.putBytes(url.path, bytes)
    }

    /// Writes a program (a script) inside the sandbox, executable (0755), creating its folders. On the
    /// real disk a child shell writes it, with the text as an argument, so that this process never
    /// holds a descriptor to it or to a pipe: a child that another test starts meanwhile would inherit
    /// a descriptor open for writing the program, and starting the program would then fail with
    /// "text file busy" (ETXTBSY).
    func writeProgram(_ relative: String, _ text: String) throws {
        let url = root.appendingPathComponent(relative)
        guard let disk else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "printf '%s' \"$2\" > \"$1\" && chmod 755 \"$1\"", "sh", url.path, text]
            shell.standardInput = FileHandle.nullDevice
            try shell.run()
            shell.waitUntilExit()
            guard shell.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            return
        }
        disk.putBytes(url.path, Array(text.utf8), mode: 0o755)
    }

    /// The bytes of a file inside the sandbox: `place` is relative to it, or an absolute path in it.
    func bytes(_ place: String) throws -> [UInt8] {
        let full = place.hasPrefix("/") ? place : path(place)
        guard let disk else { return [UInt8](try Data(contentsOf: URL(fileURLWithPath: full))) }
        return try disk.readFile(full, followSymlinks: true)
    }

    /// Creates a folder inside the sandbox, with its parents.
    func makeFolder(_ relative: String) throws {
        guard let disk else {
            return try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
        }
        disk.mkdir(path(relative))
    }

    /// Whether anything (a link included) is at `place`: a path relative to the sandbox, or an
    /// absolute one inside it.
    func exists(_ place: String) -> Bool {
        let full = place.hasPrefix("/") ? place : path(place)
        guard let disk else { return (try? FileManager.default.attributesOfItem(atPath: full)) != nil }
        return disk.exists(full)
    }

    /// Removes the file `relative`.
    func remove(_ relative: String) throws {
        guard let disk else { return try FileManager.default.removeItem(atPath: path(relative)) }
        try disk.removeFile(path(relative))
    }

    /// The bytes of every file below the folder at the absolute path `folder`, by relative path.
    func fileContents(of folder: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        guard let disk else {
            let fm = FileManager.default
            guard let walker = fm.enumerator(atPath: folder) else { return result }
            for case let relative as String in walker {
                var isDirectory: ObjCBool = false
                let full = folder + "/" + relative
                if fm.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    result[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
                }
            }
            return result
        }
        for relative in disk.tree(folder) where !relative.hasSuffix("/") {
            result[relative] = try disk.readFile(folder + "/" + relative, followSymlinks: true)
        }
        return result
    }

    /// The names in a folder inside the sandbox, hidden ones included, sorted.
    func names(_ relative: String) throws -> [String] {
        guard let disk else { return try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted() }
        return try disk.contents(ofDirectory: path(relative)).sorted()
    }

    /// Every run of this sandbox starts the real binary (`.subprocess`), for tests whose runs
    /// overlap on one folder from several processes, or whose outside programs run tick.
    var alwaysSubprocess = false

    /// How a run is made: `TickCLI` inside the test process where it can be, else the binary.
    enum Mode {
        /// In-process unless the run needs a process of its own (see `needsProcess`).
        case automatic
        /// The real `tick` binary, as a child process.
        case subprocess
    }

    /// Runs `tick` with `arguments` in `directory` (relative to the sandbox; default: its root).
    /// A `launcher` (a program and its arguments) runs tick through that program. The run is made
    /// in-process (`InProcessRun`) with the same surroundings the binary would have, unless it
    /// needs a process of its own.
    func run(_ arguments: [String], in directory: String = "", environment extra: [String: String] = [:],
             launcher: [String] = [], mode: Mode = .automatic,
             sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
        let environment = self.environment.merging(extra) { $1 }
        let folder = directory.isEmpty ? root : root.appendingPathComponent(directory)
        if let disk {
            guard mode == .automatic, !alwaysSubprocess, launcher.isEmpty, !Self.needsProcess(arguments, environment) else {
                Issue.record("this run needs a process of its own, and the sandbox is on the fake disk: make it Sandbox(onDisk: true)",
                             sourceLocation: sourceLocation)
                throw CancellationError()
            }
            return InProcessRun.run(arguments, environment: environment, currentDirectory: folder.path, fileSystem: disk)
        }
        if mode == .automatic, !alwaysSubprocess, launcher.isEmpty, !Self.needsProcess(arguments, environment) {
            return InProcessRun.run(arguments, environment: environment, currentDirectory: folder.path)
        }
        return try runBinary(arguments, environment: environment, directory: folder, launcher: launcher,
                             sourceLocation: sourceLocation)
    }

    /// Whether a run needs its own process: a time zone of its own (`TZ` is read by the C library
    /// for the whole process, see `LocalTimeZone`), or `vdir` (reading a phone's `TZID` time sets
    /// `TZ` for the process during the call), or `lsp` (the server sets malloc to one arena for the
    /// process); asking for help is neither.
    static func needsProcess(_ arguments: [String], _ environment: [String: String]) -> Bool {
        let help = arguments.contains("--help") || arguments.contains("-h") || arguments.first { !$0.hasPrefix("-") } == "help"
        return environment["TZ"] != nil || !help && (arguments.contains("vdir") || arguments.contains("lsp"))
    }

    /// Runs the built `tick` binary as a child process.
    func runBinary(_ arguments: [String], environment: [String: String], directory: URL, launcher: [String],
                   sourceLocation: SourceLocation) throws -> TickResult {
        let binary = try #require(TickBinary.path, "no built tick binary found; run `swift build` first",
                                  sourceLocation: sourceLocation)
        let process = Process()
        let command = launcher + [binary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        process.currentDirectoryURL = directory
        // Output goes to files, not pipes: a large output cannot fill a pipe and stall the run.
        let outURL = root.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errURL = root.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return TickResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// Expects a run to end with `status` and exactly this output. A nil stream is not compared.
func expectRun(_ result: TickResult, status: Int32, stdout: String? = nil, stderr: String? = nil,
               sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    if let stdout { #expect(result.stdout == stdout, sourceLocation: sourceLocation) }
    if let stderr { #expect(result.stderr == stderr, sourceLocation: sourceLocation) }
}
