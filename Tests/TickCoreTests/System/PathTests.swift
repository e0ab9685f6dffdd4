import Testing
@testable import TickCore

/// `Path`: joining paths, and the byte order in which a folder's names and list paths are sorted.
@Suite("paths: joining, and their byte order")
struct PathTests {
    @Test("a relative path joins its base with one slash; an absolute or empty part is taken as it is")
    func join() {
        #expect(Path.join("/f", "a.md") == "/f/a.md")
        #expect(Path.join("/f/", "a.md") == "/f/a.md")
        #expect(Path.join("/", "a.md") == "/a.md")
        #expect(Path.join("/f", "/g/a.md") == "/g/a.md")
        #expect(Path.join("", "a.md") == "a.md")
        #expect(Path.join("/f", "") == "/f")
        #expect(Path.join("/Ordner/Ünter", "Einkäufe.md") == "/Ordner/Ünter/Einkäufe.md")
        #expect(Path.join("sub", "deeper/x.md") == "sub/deeper/x.md")
    }

    @Test("precedes orders byte strings as lexicographicallyPrecedes does (400 seeded pairs)")
    func order() {
        var random = SeededRandom(seed: 7)
        // Few distinct bytes, so that shared prefixes, equal strings and bytes past ASCII are common.
        let alphabet: [UInt8] = [0x2D, 0x2E, 0x2F, 0x30, 0x61, 0x62, 0xC3, 0xFF]
        func word() -> [UInt8] {
            (0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        }
        for _ in 0..<400 {
            let a = word(), b = Bool.random(using: &random) ? word() : a + word()
            #expect(Path.precedes(a, b) == a.lexicographicallyPrecedes(b), "\(a) \(b)")
            #expect(Path.precedes(b, a) == b.lexicographicallyPrecedes(a), "\(b) \(a)")
        }
        // A folder's list sorts between the list named like it and the next name.
        let paths = ["a0.md", "a/b.md", "a.md", "B.md", "é.md"].map { Array($0.utf8) }.sorted(by: Path.precedes)
        #expect(paths.map { String(decoding: $0, as: UTF8.self) } == ["B.md", "a.md", "a/b.md", "a0.md", "é.md"])
    }
}
