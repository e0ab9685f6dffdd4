import Foundation
import Testing

/// The layering that docs/ARCHITECTURE.md draws, checked on the sources themselves.
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

    @Test("only TickCore/System imports the C library; the command line and the rest of TickCore call it through System")
    func onlySystemImportsTheCLibrary() throws {
        let files = try Self.sources()
        #expect(files.count > 50)
        let importing = files.filter { file in
            file.text.split(separator: "\n").contains { $0.hasPrefix("import Glibc") || $0.hasPrefix("import Musl") }
        }.map(\.path)
        #expect(!importing.isEmpty)
        #expect(importing.filter { !$0.hasPrefix("Sources/TickCore/System/") } == [])
    }

    @Test("the command line and the language server never import the format library: they reach it through TickCore")
    func commandLineImportsTickCoreOnly() throws {
        let cli = try Self.sources().filter { $0.path.hasPrefix("Sources/tick/") || $0.path.hasPrefix("Sources/TickLSP/") }
        #expect(!cli.isEmpty)
        let imports = cli.flatMap { file in
            file.text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported") }
                .map { "\(file.path): \($0)" }
        }
        // `tick lsp` runs the server of the TickLSP target, which sits on TickCore as the command line does.
        #expect(imports.filter { !$0.hasSuffix(": import TickCore") && !$0.hasSuffix(": import TickLSP") } == [])
        #expect(imports.filter { $0.hasPrefix("Sources/TickLSP/") && $0.hasSuffix(": import TickLSP") } == [])
    }

    @Test("Package.swift builds the command line with MemberImportVisibility, so no TickFormat member leaks through TickCore")
    func memberImportVisibility() throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tick = try #require(manifest.range(of: ".executableTarget(name: \"tick\""))
        let target = manifest[tick.lowerBound...].prefix { $0 != ")" }
        #expect(target.contains("enableUpcomingFeature(\"MemberImportVisibility\""))
    }
}
