import CCmarkArena
import Testing
@testable import TickFormat

/// cmark parses a list of ordinary size in an arena (CCmarkArena): the outline must not depend
/// on the allocator.
@Suite("cmark's arena")
struct CmarkArenaTests {
    /// The outline of `bytes` parsed in the arena and through malloc, written out.
    private func outlines(_ bytes: [UInt8]) -> (arena: String, malloc: String) {
        bytes.withUnsafeBufferPointer { b in
            let arena = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 0, paragraphStarts: true, arena: true)
            let malloc = CommonMarkConverter.outline(of: b, columnShiftOnFirstLine: 0, paragraphStarts: true, arena: false)
            return (String(describing: arena), String(describing: malloc))
        }
    }

    @Test("every spec example, in every form, has the same outline from the arena as through malloc",
          arguments: SpecFile.allCases)
    func specExamples(file: SpecFile) throws {
        for example in try SpecCorpus.examples(of: file) {
            for form in ExampleForm.allCases {
                let outlines = outlines(example.input(form).bytes)
                #expect(outlines.arena == outlines.malloc, "\(example), \(form)")
            }
        }
    }

    @Test("a list of many chunks, with a paragraph longer than the largest chunk, has the same outline both ways")
    func largeList() {
        var text = ""
        for i in 0..<4000 {
            text += "## Part \(i)\n\n- [ ] Task \(i) due:2026-12-0\(i % 9 + 1)\n  "
            text += String(repeating: "note words ", count: i % 60) + "\n\n"
        }
        // One paragraph of 2 MiB: cmark's buffer for it grows past any chunk.
        text += "- [ ] Long\n\n" + String(repeating: "word ", count: 2 << 18) + "\n"
        let bytes = Array(text.utf8)
        let outlines = outlines(bytes)
        #expect(outlines.arena == outlines.malloc)
        #expect(outlines.arena.contains("Part 3999"))
        #expect(outlines.arena.count > 100_000)
    }

    @Test("blocks are 16-byte aligned and zeroed, keep their bytes as they grow, and the last one's room is given back")
    func allocator() throws {
        let mem = try #require(tick_arena_begin()).pointee
        defer { tick_arena_end() }
        func isAligned(_ p: UnsafeMutableRawPointer?) -> Bool { p.map { Int(bitPattern: $0) % 16 == 0 } ?? false }

        let a = try #require(mem.calloc(3, 7))
        #expect(isAligned(a))
        #expect(UnsafeRawBufferPointer(start: a, count: 21).allSatisfy { $0 == 0 })
        a.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 21)

        // The last block grows where it is.
        let grown = try #require(mem.realloc(a, 100))
        #expect(grown == a)
        #expect(UnsafeRawBufferPointer(start: grown, count: 21).allSatisfy { $0 == 0xAB })

        // A block that is no longer the last moves, with all its bytes.
        let pattern = (0..<100).map { UInt8($0 * 7 & 0xFF) }
        grown.copyMemory(from: pattern, byteCount: 100)
        let b = try #require(mem.calloc(1, 10))
        #expect(isAligned(b))
        #expect(b >= grown + 100)
        let moved = try #require(mem.realloc(grown, 5000))
        #expect(moved != grown)
        #expect(isAligned(moved))
        #expect(Array(UnsafeRawBufferPointer(start: moved, count: 100)) == pattern)
        // Shrinking keeps the bytes that remain.
        let shrunk = try #require(mem.realloc(moved, 40))
        #expect(Array(UnsafeRawBufferPointer(start: shrunk, count: 40)) == Array(pattern.prefix(40)))

        // Freeing the last block gives its room to the next; freeing another is a no-op.
        mem.free(shrunk)
        let next = try #require(mem.calloc(1, 8))
        #expect(next == shrunk)
        mem.free(b)
        #expect(try #require(mem.calloc(1, 8)) > next)

        // A block larger than a chunk gets one of its own; the end gives every chunk back.
        let large = try #require(mem.calloc(1, 300_000))
        #expect(isAligned(large))
        #expect(UnsafeRawBufferPointer(start: large, count: 300_000).allSatisfy { $0 == 0 })
        #expect(tick_arena_chunk_bytes() >= 64 * 1024 + 300_000)
        tick_arena_end()
        #expect(tick_arena_chunk_bytes() == 0)
    }
}
