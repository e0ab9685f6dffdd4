import Foundation
import Testing

/// The layering that docs/ARCHITECTURE.md draws, checked on the sources themselves. Where the code
/// does not keep a rule yet, the exceptions are listed here, each with why: a new one fails.
@Suite("system boundary")
struct SystemBoundaryTests {
    /// Every Swift file under `Sources/`, as a path relative to the package and its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(Fixtures.packageRoot.path.count + 1))
            files.append((relative, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The modules a file imports, however the line is dressed (`@preconcurrency import Glibc`,
    /// indented under `#if canImport(Glibc)`).
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[1])
        }
    }

    /// `text` without its comments, so that a type or a call named in a comment does not count.
    static func code(_ text: String) -> String {
        // Line comments first: a `///` comment may name a path such as `Storage/*`.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            // A `//` outside a string literal: an even number of quotes before it.
            var quotes = 0
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "\"" { quotes += 1 }
                if character == "/", previous == "/", quotes % 2 == 0 { return line[..<line.index(before: index)] }
                previous = character
            }
            return line
        }
        return lines.joined(separator: "\n").replacing(/\/\*[\s\S]*?\*\//, with: "")
    }

    /// `name` as a whole identifier. (Not `\b`: by Unicode's word rules `Segment.hot` is one word.)
    static func word(_ name: String) throws -> Regex<AnyRegexOutput> {
        try Regex("\\b\(name)\\b").wordBoundaryKind(.simple)
    }

    /// The files (of `files`) whose code (comments left out) matches `pattern`.
    static func files(_ files: [(path: String, text: String)], matching pattern: Regex<Substring>) -> [String] {
        files.filter { code($0.text).contains(pattern) }.map(\.path)
    }

    @Test("only TickCore/System imports the C library; the command line and the rest of TickCore call it through System")
    func onlySystemImportsTheCLibrary() throws {
        let files = try Self.sources()
        #expect(files.count > 50)
        let system: Set = ["Glibc", "Musl", "Darwin", "CTickSystem"]
        let importing = files.filter { !system.isDisjoint(with: Self.imports($0.text)) }.map(\.path)
        #expect(!importing.isEmpty)
        #expect(importing.filter { !$0.hasPrefix("Sources/TickCore/System/") } == [])
    }

    @Test("cmark is called only by TickFormat/CommonMarkConverter.swift")
    func cmarkBehindOneFile() throws {
        let files = try Self.sources()
        let converter = "Sources/TickFormat/CommonMarkConverter.swift"
        let importing = files.filter { !Set(["CCmark", "CCmarkArena"]).isDisjoint(with: Self.imports($0.text)) }.map(\.path)
        #expect(importing == [converter])
        #expect(Self.files(files, matching: /\b(?:cmark_|CMARK_)\w/.wordBoundaryKind(.simple)) == [converter])
    }

    /// The one file that compresses and decompresses the cache's tails with LZ4.
    static let lz4Codec = "Sources/TickCore/Storage/Cache/SegmentTail.swift"

    @Test("LZ4 is used only by the cache's codec file")
    func lz4BehindOneFile() throws {
        let files = try Self.sources()
        #expect(files.filter { Self.imports($0.text).contains("CLz4") }.map(\.path) == [Self.lz4Codec])
        #expect(Self.files(files, matching: /\bLZ4_\w/.wordBoundaryKind(.simple)) == [Self.lz4Codec])
    }

    /// Storage types that Snapshot files use, by file: none. Snapshot knows nothing of Storage
    /// (issue 46): a `Library` reads its lists as records (`Snapshot/Records/`: `Segment` and the
    /// record layouts), which a parsed list provides (`Segment.built`) and so does the cache, whose
    /// proof of a segment read from it is a `SegmentProving` (`Storage/Cache/SegmentProof.swift`).
    /// Loading a library, from the cache or by parsing, and measuring its short refs ahead for the
    /// cache written after a change are Storage's (`Storage/Cache/LibraryLoading.swift`,
    /// `RefLengthsAhead.swift`).
    static let snapshotUsesOfStorage: [String: Set<String>] = [:]

    @Test("Snapshot uses no Storage type beyond the listed ones (imports cannot tell two folders of a module apart: names can)")
    func snapshotKnowsNothingOfStorage() throws {
        let files = try Self.sources()
        // The types Storage declares at its top level.
        var storageTypes: Set<String> = []
        let declaration = /^(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)/
        for file in files where file.path.hasPrefix("Sources/TickCore/Storage/") {
            for line in file.text.split(separator: "\n") {
                if let match = line.prefixMatch(of: declaration) { storageTypes.insert(String(match.1)) }
            }
        }
        #expect(storageTypes.isSuperset(of: ["FolderWriter", "Journal", "ListCache"]))
        var uses: [String: Set<String>] = [:]
        for file in files where file.path.hasPrefix("Sources/TickCore/Snapshot/") {
            let code = Self.code(file.text)
            for name in storageTypes where code.contains(try Self.word(name)) { uses[file.path, default: []].insert(name) }
        }
        Self.expect(uses, listedIn: Self.snapshotUsesOfStorage, "uses Storage's")
    }

    /// Expects the names each file uses to be those listed for it: none unlisted, and (so that the
    /// list shrinks with the code) none listed that the file no longer uses.
    static func expect(_ uses: [String: Set<String>], listedIn listed: [String: Set<String>], _ verb: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        for (path, names) in uses.sorted(by: { $0.key < $1.key }) {
            let unlisted = names.subtracting(listed[path] ?? [])
            #expect(unlisted.isEmpty, "\(path) \(verb) \(unlisted.sorted().joined(separator: ", "))",
                    sourceLocation: sourceLocation)
        }
        for (path, names) in listed {
            let stale = names.subtracting(uses[path] ?? [])
            #expect(stale.isEmpty, "\(path) no longer uses \(stale.sorted().joined(separator: ", ")): take it off the list",
                    sourceLocation: sourceLocation)
        }
    }

    /// Files outside `System/` that reach the disk beside the `FileSystem` interface, and why: git's
    /// `merge-file` is given real files (`TemporaryFolder`), the writer defaults to the real disk,
    /// and the command line makes its own `LocalFileSystem` where it resolves a path for git or
    /// writes the editor's temporary file. Every state file, the mapped cache included
    /// (`FileSystem.mapStateFile`), goes through `FileSystem`.
    static let besideFileSystem: [String: Set<String>] = [
        "Sources/TickCore/Merge/Git.swift": ["TemporaryFolder"],
        "Sources/TickCore/Storage/FolderWriter.swift": ["LocalFileSystem"],
        "Sources/tick/main.swift": ["LocalFileSystem"],
        "Sources/TickCLI/Commands/GitCommands.swift": ["LocalFileSystem"],
        "Sources/TickCLI/Commands/EditCommand.swift": ["LocalFileSystem"],
    ]

    @Test("outside System, files are reached through FileSystem, but for the listed exceptions")
    func oneDoorToTheDisk() throws {
        var uses: [String: Set<String>] = [:]
        for file in try Self.sources() where !file.path.hasPrefix("Sources/TickCore/System/") {
            let code = Self.code(file.text)
            for name in ["StateFileCalls", "LocalFileSystem", "ConfinedFileSystem", "TemporaryFolder"]
            where code.contains(try Self.word(name)) {
                uses[file.path, default: []].insert(name)
            }
        }
        Self.expect(uses, listedIn: Self.besideFileSystem, "reaches the disk through")
    }

    @Test("terminal colour codes are written only by TickCLI/Output/Colors.swift")
    func coloursInOneFile() throws {
        // TickFormat/Text.swift reads escape sequences to measure a width, and writes none.
        let allowed = ["Sources/TickCLI/Output/Colors.swift", "Sources/TickFormat/Text.swift"]
        let escaping = Self.files(try Self.sources(), matching: /\\u\{(?:00)?1[Bb]\}|0x1[Bb](?![0-9A-Fa-f])|\\e\[|\\033/)
        #expect(escaping == allowed)
    }

    /// Each import line of the files under `folders`, as "PATH: LINE".
    static func importLines(under folders: [String]) throws -> [String] {
        let files = try sources().filter { file in folders.contains { file.path.hasPrefix($0) } }
        #expect(!files.isEmpty)
        return files.flatMap { file in
            file.text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported") }
                .map { "\(file.path): \($0)" }
        }
    }

    @Test("the command line and the language server never import the format library: they reach it through TickCore")
    func commandLineImportsTickCoreOnly() throws {
        let imports = try Self.importLines(under: ["Sources/TickCLI/", "Sources/TickLSP/"])
        // `tick lsp` runs the server of the TickLSP target, which sits on TickCore as the command line does.
        #expect(imports.filter { !$0.hasSuffix(": import TickCore") && !$0.hasSuffix(": import TickLSP") } == [])
        #expect(imports.filter { $0.hasPrefix("Sources/TickLSP/") && $0.hasSuffix(": import TickLSP") } == [])
        #expect(imports.contains { $0.hasPrefix("Sources/TickCLI/") && $0.hasSuffix(": import TickCore") })
    }

    @Test("the executable is main.swift alone, and it imports only the command line library and TickCore")
    func executableIsThin() throws {
        let imports = try Self.importLines(under: ["Sources/tick/"])
        #expect(Set(imports) == ["Sources/tick/main.swift: import TickCLI", "Sources/tick/main.swift: import TickCore"])
        #expect(try Self.sources().filter { $0.path.hasPrefix("Sources/tick/") }.map(\.path) == ["Sources/tick/main.swift"])
    }

    /// Where the command line library may reach the process itself: the `Context` (which gathers
    /// the process's facts for `main.swift`) and `Output` (which writes to a standard stream).
    static let processReaders: Set = ["Sources/TickCLI/CommandLine/Context.swift", "Sources/TickCLI/Output/Output.swift"]

    @Test("a run of the command line takes its environment, input, terminals, clock and binary from its Context, not the process")
    func runsTakeTheProcessFromTheContext() throws {
        let files = try Self.sources()
        let cli = files.filter { $0.path.hasPrefix("Sources/TickCLI/") }
        #expect(cli.count > 40)
        let reading = Self.files(cli, matching: /CurrentProcess\.(?:environment|executablePath)|StandardInput|StandardStream|Now\.system/)
        #expect(Set(reading) == Self.processReaders, "\(reading)")
        // A child program gets the run's environment: nothing passes the process's own `environ`.
        #expect(Self.files(files, matching: /\benviron\b/.wordBoundaryKind(.simple))
                == ["Sources/TickCore/System/CurrentProcess.swift"])
    }

    @Test("Package.swift builds the command line library and the executable with MemberImportVisibility, so no TickFormat member leaks through TickCore",
          arguments: [".target(name: \"TickCLI\"", ".executableTarget(name: \"tick\""])
    func memberImportVisibility(_ declaration: String) throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let found = try #require(manifest.range(of: declaration))
        let target = manifest[found.lowerBound...].prefix { $0 != ")" }
        #expect(target.contains("enableUpcomingFeature(\"MemberImportVisibility\""))
    }
}
