import Foundation
import Testing
@testable import TickCore

/// A program tick starts runs in the surroundings it is given (the run's environment and current
/// folder, not the process's) and gets no descriptor of tick's process but the standard three:
/// with the command line run in-process (the CLI tests), another thread may hold a file open
/// without close-on-exec at the moment of the start.
@Suite("programs tick starts")
struct SubprocessTests {
    /// Runs `script` with `/bin/sh` in `surroundings` and returns what it wrote to `out` in `folder`.
    static func run(_ script: String, environment: [String: String], directory: String?) throws -> Subprocess.Termination {
        try Subprocess.run("/bin/sh", arguments: ["/bin/sh", "-c", script],
                           in: Subprocess.Surroundings(environment: environment, directory: directory))
    }

    @Test("a descriptor open in tick's process without close-on-exec does not reach the child")
    func noStrayDescriptor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-subprocess-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let marker = folder + "/marker"
        // Opened without O_CLOEXEC, as a file another thread is writing might be.
        let fd = open(marker, O_WRONLY | O_CREAT, 0o600)
        try #require(fd > 2)
        defer { close(fd) }
        let termination = try Self.run("if [ -e /proc/$$/fd/\(fd) ]; then echo open; else echo closed; fi > seen",
                                       environment: ["PATH": "/usr/bin:/bin"], directory: folder)
        #expect(termination == .exited(0))
        #expect(try String(contentsOfFile: folder + "/seen", encoding: .utf8) == "closed\n")
    }

    @Test("the child gets exactly the environment and the current folder given, not the process's")
    func surroundingsAreTheGivenOnes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-subprocess-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let termination = try Self.run(#"pwd > seen; env | sort >> seen"#,
                                       environment: ["PATH": "/usr/bin:/bin", "TICK_PROBE": "given"], directory: folder)
        #expect(termination == .exited(0))
        let seen = try String(contentsOfFile: folder + "/seen", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(seen.first == folder)
        #expect(seen.contains("TICK_PROBE=given"))
        #expect(!seen.contains { $0.hasPrefix("HOME=") })
    }

    @Test("a value of the process's environment that is not UTF-8 reaches the child byte for byte; a value the run changed is the run's")
    func processBytesPassOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-subprocess-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The process's entries as they would be with a Latin-1 path (é is the one byte 0xE9), given
        // to the surroundings instead of set in this process, whose other tests run alongside.
        let latin1 = Array("TICK_PROBE=/tmp/caf".utf8) + [0xE9]
        let own = ["TICK_PROBE": CurrentProcess.Entry(bytes: latin1, valueStart: 11),
                   "TICK_PROBE_CHANGED": CurrentProcess.Entry(bytes: Array("TICK_PROBE_CHANGED=process".utf8), valueStart: 19)]
        let environment = ["PATH": "/usr/bin:/bin", "TICK_PROBE": String(decoding: latin1.dropFirst(11), as: UTF8.self),
                           "TICK_PROBE_CHANGED": "run"]
        let surroundings = Subprocess.Surroundings(environment: environment, directory: folder, own: own)
        #expect(try Subprocess.run("/bin/sh", arguments: ["/bin/sh", "-c", #"printf %s "$TICK_PROBE" > seen; printf %s "$TICK_PROBE_CHANGED" > changed"#],
                                   in: surroundings) == .exited(0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/seen")) == Data("/tmp/caf".utf8 + [0xE9]))
        #expect(try String(contentsOfFile: folder + "/changed", encoding: .utf8) == "run")
    }
}
