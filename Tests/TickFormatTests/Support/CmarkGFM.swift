import Foundation

/// The reference implementation of GitHub's task-list rule, `cmark-gfm -e tasklist`, run as a
/// subprocess.
struct CmarkGFM {
    /// What a test says when the tool is missing: a missing reference is a failure, never a skip.
    static let missingMessage = """
        cmark-gfm is not installed (no executable named cmark-gfm on PATH). The tasks tests compare \
        tick with `cmark-gfm -e tasklist`; `make test` installs it (Debian package cmark-gfm).
        """

    let executable: URL

    /// The `cmark-gfm` found on `PATH`, or nil.
    static func locate() -> CmarkGFM? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("cmark-gfm")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return CmarkGFM(executable: candidate) }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        /// The exit status, or -1 when cmark-gfm could not be run.
        var status: Int32
        var stderr: String
        var description: String { "cmark-gfm failed (status \(status)): \(stderr)" }
    }

    /// Renders the Markdown file at `input` to HTML with the tasklist extension and nothing else.
    /// The file is passed by path (not through a pipe) so the input is byte-exact and no writer
    /// thread is needed.
    func html(ofFile input: URL, scratch: URL) throws -> String {
        let errors = scratch.appendingPathComponent("cmark-gfm.stderr")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw Failure(status: -1, stderr: "cannot create \(errors.path)")
        }
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["-e", "tasklist", input.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = FileManager.default.contents(atPath: errors.path).map { String(decoding: $0, as: UTF8.self) }
            throw Failure(status: process.terminationStatus, stderr: message ?? "")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The checkbox states that cmark-gfm renders for each of `inputs`, one subprocess per input
    /// (exact: no input can leak into another's parse), working in a temporary folder.
    func checkboxes(of inputs: [[UInt8]]) throws -> [[Bool]] {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("tick-cmark-gfm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("input.md")
        return try inputs.map { input in
            try Data(input).write(to: file)
            return CmarkGFM.checkboxes(inHTML: try html(ofFile: file, scratch: scratch))
        }
    }

    /// The checkbox states in `html`, in document order: one per `<input ... type="checkbox" ...>`
    /// element, true when it carries `checked=""`. Works for cmark-gfm's output
    /// (`<input type="checkbox" checked="" disabled="" />`) and the GFM spec's expected HTML
    /// (`<input checked="" disabled="" type="checkbox">`).
    static func checkboxes(inHTML html: String) -> [Bool] {
        var states: [Bool] = []
        var rest = html[...]
        while let start = rest.range(of: "<input") {
            let tail = rest[start.upperBound...]
            guard let end = tail.firstIndex(of: ">") else { break }
            let attributes = tail[..<end]
            if attributes.contains("type=\"checkbox\"") {
                states.append(attributes.contains("checked=\"\""))
            }
            rest = tail[end...]
        }
        return states
    }
}
