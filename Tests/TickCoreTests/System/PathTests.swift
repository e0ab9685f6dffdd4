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

    @Test("byteOrder sorts strings by their UTF-8 bytes, keeping equal ones in order (300 seeded lists)")
    func order() {
        var random = SeededRandom(seed: 7)
        // Few distinct characters, and a shared 16-byte start half the time, so that equal strings,
        // prefixes, bytes past ASCII and ties past the first 16 bytes are all common.
        let pieces = ["-", ".", "/", "0", "a", "b", "é", "ü"]
        func word() -> String {
            let start = Bool.random(using: &random) ? "abcdefghijklmnop" : ""
            return start + (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<300 {
            let strings = (0..<Int.random(in: 0...12, using: &random)).map { _ in word() }
            let expected = strings.indices.sorted { a, b in
                let x = Array(strings[a].utf8), y = Array(strings[b].utf8)
                return x == y ? a < b : x.lexicographicallyPrecedes(y)
            }
            #expect(Path.byteOrder(strings) == expected, "\(strings)")
        }
        // A folder's list sorts between the list named like it and the next name.
        let paths = ["a0.md", "a/b.md", "a.md", "B.md", "é.md"]
        #expect(Path.byteOrder(paths).map { paths[$0] } == ["B.md", "a.md", "a/b.md", "a0.md", "é.md"])
    }
}
