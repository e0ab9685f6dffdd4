import CCmark
import CCmarkArena

/// The block structure of a document as cmark sees it, reduced to what tick needs.
///
/// This file is the only place that talks to cmark. Only block start lines and the start
/// columns of list items and paragraphs are taken from cmark (after checking them in tests);
/// everything else tick computes from the original bytes.
struct BlockOutline: Sendable {
    struct Item: Sendable {
        /// 1-based line and byte column of the list marker.
        var line: Int
        var column: Int
        /// cmark's end line: an upper bound (it swallows trailing blank lines).
        var endLine: Int
        /// How many block quotes contain the item.
        var quoteDepth: Int
        /// The nearest enclosing list item, as an index into `items`.
        var parent: Int?
        var ordered: Bool
        /// When the item's first block is a paragraph: its start line and column, and end line.
        var paragraph: (line: Int, column: Int, endLine: Int)?
    }

    struct Heading: Sendable {
        var line: Int
        var endLine: Int
        var level: Int
        var text: String
        /// Headings inside list items do not start sections.
        var insideListItem: Bool
    }

    var items: [Item] = []
    var headings: [Heading] = []
    /// The start of every paragraph (1-based line and byte column), when asked for.
    var paragraphStarts: [(line: Int, column: Int)]? = nil
}

enum CommonMarkConverter {
    /// The largest list, in bytes, parsed in an arena.
    static let arenaLimit = 1 << 20
    /// A list larger than `arenaLimit` is parsed in parts of about this many bytes (see
    /// `partedOutline`), so that cmark's tree of a huge list is never held whole.
    static let partSize = 512 << 10

    /// Parses `bytes` (already stripped of a leading BOM and with front matter blanked).
    /// `columnShiftOnFirstLine` is added to columns on line 1 (the length of a stripped BOM).
    /// With `paragraphStarts`, the outline also holds where every paragraph starts, from the same
    /// parse.
    /// `arena` chooses the allocator (tests parse the same text both ways); by default, an arena
    /// up to `arenaLimit` bytes. `partSize` parts the parse (tests part small text, and 0 parses
    /// it whole); by default, a list larger than `arenaLimit` is parted at `partSize`.
    static func outline(of bytes: UnsafeBufferPointer<UInt8>, columnShiftOnFirstLine shift: Int,
                        paragraphStarts: Bool = false, arena: Bool? = nil, partSize: Int? = nil) -> BlockOutline {
        let size = partSize ?? (bytes.count > arenaLimit ? Self.partSize : 0)
        if size > 0, isPartable(bytes) {
            return partedOutline(of: bytes, columnShiftOnFirstLine: shift, paragraphStarts: paragraphStarts,
                                 arena: arena, partSize: size)
        }
        return wholeOutline(of: bytes, columnShiftOnFirstLine: shift, paragraphStarts: paragraphStarts, arena: arena).outline
    }

    /// Whether the parts of `bytes` may be parsed apart: only block structure then crosses a
    /// part's end, and `partedOutline` takes care of it. A link reference definition (`[a]: /url`)
    /// reaches every heading's text wherever it stands, and it cannot be written without `]:`; a
    /// carriage return alone ends a line as a line feed does, which `partedOutline`'s line count
    /// would miss. Text holding either is parsed whole.
    static func isPartable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = firstIndex(of: 0x0D, or: 0x5D, in: bytes, from: 0)
        while i < bytes.count {
            let next: UInt8 = i + 1 < bytes.count ? bytes[i + 1] : 0
            if bytes[i] == 0x0D ? next != 0x0A : next == 0x3A { return false }
            i = firstIndex(of: 0x0D, or: 0x5D, in: bytes, from: i + 1)
        }
        return true
    }

    /// The index of the first byte at or after `start` that is `a` or `b`, or `bytes.count`: eight
    /// bytes at a time, for the scans of a huge list (a 100 MB line is one line).
    static func firstIndex(of a: UInt8, or b: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let pa = ones &* UInt64(a), pb = ones &* UInt64(b)
        var i = start
        while i + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let xa = word ^ pa, xb = word ^ pb
            // A byte of `xa` or `xb` is zero where `word` holds `a` or `b`.
            if (xa &- ones) & ~xa & highs != 0 || (xb &- ones) & ~xb & highs != 0 { break }
            i += 8
        }
        while i < bytes.count, bytes[i] != a, bytes[i] != b { i += 1 }
        return i
    }

    /// The outline of `bytes` parsed in parts, the same as the whole's (tests hold them to it).
    ///
    /// A part ends before a line that starts in its first column and either follows a blank line
    /// and starts with neither a space nor a tab, or starts a task's list item (`- [`, `* [` or
    /// `+ [`). At such a line, every block that was open is closed, whatever contained it: a
    /// paragraph ends at a blank line and is interrupted by a list item that is not empty; a
    /// block quote ends at a line without `>` that is not a paragraph's lazy continuation (a list
    /// item is not); a list item ends at a line indented less than its content; an indented code
    /// block at a line indented less than four columns. Only a fenced code block or an HTML block
    /// stays open there, and cmark ends a setext heading on the line after its underline; so a
    /// part whose last line falls in a code block, an HTML block or a heading is parsed again with
    /// more text, twice as much each time, until none does or the text ends. A part never starts
    /// with a byte order mark, which cmark would drop. A part's lines
    /// are counted by its line feeds (`isPartable` holds no lone carriage return).
    private static func partedOutline(of bytes: UnsafeBufferPointer<UInt8>, columnShiftOnFirstLine shift: Int,
                                      paragraphStarts: Bool, arena: Bool?, partSize: Int) -> BlockOutline {
        var outline = BlockOutline()
        if paragraphStarts { outline.paragraphStarts = [] }
        var start = 0
        var lineBefore = 0
        while start < bytes.count {
            var want = max(partSize, 1)
            var end: Int
            var part: (outline: BlockOutline, rawBlockEnd: Int)
            var lines = 0
            while true {
                end = want >= bytes.count - start ? bytes.count : splitPoint(bytes, from: start + want) ?? bytes.count
                let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
                part = wholeOutline(of: piece, columnShiftOnFirstLine: start == 0 ? shift : 0,
                                    paragraphStarts: paragraphStarts, arena: arena)
                if end == bytes.count { break }
                lines = 0
                var at = firstIndex(of: 0x0A, or: 0x0A, in: piece, from: 0)
                while at < piece.count {
                    lines += 1
                    at = firstIndex(of: 0x0A, or: 0x0A, in: piece, from: at + 1)
                }
                if part.rawBlockEnd < lines { break }
                want *= 2
            }
            let first = outline.items.count
            for var item in part.outline.items {
                item.line += lineBefore
                item.endLine += lineBefore
                item.parent = item.parent.map { $0 + first }
                if let p = item.paragraph { item.paragraph = (p.line + lineBefore, p.column, p.endLine + lineBefore) }
                outline.items.append(item)
            }
            for var heading in part.outline.headings {
                heading.line += lineBefore
                heading.endLine += lineBefore
                outline.headings.append(heading)
            }
            if paragraphStarts {
                outline.paragraphStarts! += part.outline.paragraphStarts!.map { ($0.line + lineBefore, $0.column) }
            }
            lineBefore += lines
            start = end
        }
        return outline
    }

    /// The start of the first line at or after `offset` where a part may start (see
    /// `partedOutline`); nil when the text has none.
    static func splitPoint(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        // To the start of a line.
        var i = offset > 0 && offset <= bytes.count && bytes[offset - 1] != 0x0A
            ? firstIndex(of: 0x0A, or: 0x0A, in: bytes, from: offset) + 1 : offset
        var blank = false
        while i < bytes.count {
            let b = bytes[i]
            // Not at a byte order mark, which cmark drops at the start of its text.
            if blank && b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0xEF { return i }
            if b == 0x2D || b == 0x2A || b == 0x2B, i + 2 < bytes.count, bytes[i + 1] == 0x20, bytes[i + 2] == 0x5B {
                return i
            }
            // Whether this line is blank, and on to the next.
            var j = i
            while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0D) { j += 1 }
            blank = j < bytes.count && bytes[j] == 0x0A
            i = firstIndex(of: 0x0A, or: 0x0A, in: bytes, from: j) + 1
        }
        return nil
    }

    /// The outline of `bytes` parsed at once, and the last line of any code block, HTML block or
    /// heading in it (0 for none).
    private static func wholeOutline(of bytes: UnsafeBufferPointer<UInt8>, columnShiftOnFirstLine shift: Int,
                                     paragraphStarts: Bool, arena: Bool?) -> (outline: BlockOutline, rawBlockEnd: Int) {
        var outline = BlockOutline()
        var rawBlockEnd = 0
        if paragraphStarts { outline.paragraphStarts = [] }
        // A list of ordinary size is parsed in an arena (CCmarkArena): its nodes are freed at once.
        // A huge one goes through malloc, so that what cmark frees while it parses is given back.
        let arena = arena ?? (bytes.count <= arenaLimit)
        let parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, arena ? tick_arena_begin() : cmark_get_default_mem_allocator())
        defer { if arena { tick_arena_end() } }
        bytes.withMemoryRebound(to: CChar.self) { chars in cmark_parser_feed(parser, chars.baseAddress, chars.count) }
        let document = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        guard let document else { return (outline, 0) }
        defer { if !arena { cmark_node_free(document) } }
        guard let iterator = cmark_iter_new(document) else { return (outline, 0) }
        defer { if !arena { cmark_iter_free(iterator) } }

        var itemStack: [Int] = []
        var quoteDepth = 0
        func column(_ node: OpaquePointer) -> Int {
            let line = Int(cmark_node_get_start_line(node))
            return Int(cmark_node_get_start_column(node)) + (line == 1 ? shift : 0)
        }

        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            switch (type, event) {
            case (CMARK_NODE_BLOCK_QUOTE, CMARK_EVENT_ENTER):
                quoteDepth += 1
            case (CMARK_NODE_BLOCK_QUOTE, CMARK_EVENT_EXIT):
                quoteDepth -= 1
            case (CMARK_NODE_ITEM, CMARK_EVENT_ENTER):
                let list = cmark_node_parent(node)
                var item = BlockOutline.Item(
                    line: Int(cmark_node_get_start_line(node)),
                    column: column(node),
                    endLine: Int(cmark_node_get_end_line(node)),
                    quoteDepth: quoteDepth,
                    parent: itemStack.last,
                    ordered: list.map { cmark_node_get_list_type($0) == CMARK_ORDERED_LIST } ?? false)
                if let first = cmark_node_first_child(node), cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH {
                    item.paragraph = (Int(cmark_node_get_start_line(first)), column(first),
                                      Int(cmark_node_get_end_line(first)))
                }
                itemStack.append(outline.items.count)
                outline.items.append(item)
            case (CMARK_NODE_ITEM, CMARK_EVENT_EXIT):
                itemStack.removeLast()
            case (CMARK_NODE_HEADING, CMARK_EVENT_ENTER):
                outline.headings.append(.init(
                    line: Int(cmark_node_get_start_line(node)),
                    endLine: Int(cmark_node_get_end_line(node)),
                    level: Int(cmark_node_get_heading_level(node)),
                    text: plainText(of: node),
                    insideListItem: !itemStack.isEmpty))
            case (CMARK_NODE_PARAGRAPH, CMARK_EVENT_ENTER) where paragraphStarts:
                outline.paragraphStarts!.append((Int(cmark_node_get_start_line(node)), column(node)))
            // A setext heading ends, for cmark, on the line after its underline.
            case (CMARK_NODE_CODE_BLOCK, _), (CMARK_NODE_HTML_BLOCK, _), (CMARK_NODE_HEADING, _):
                rawBlockEnd = max(rawBlockEnd, Int(cmark_node_get_end_line(node)))
            default:
                break
            }
        }
        return (outline, rawBlockEnd)
    }

    /// The start (1-based line and byte column) of every paragraph, for `tick check`'s look at
    /// text that nearly is a task. Same input as `outline(of:columnShiftOnFirstLine:)`.
    static func paragraphStarts(of bytes: UnsafeBufferPointer<UInt8>, columnShiftOnFirstLine shift: Int) -> [(line: Int, column: Int)] {
        outline(of: bytes, columnShiftOnFirstLine: shift, paragraphStarts: true).paragraphStarts ?? []
    }

    /// The literal text of a heading's inlines (emphasis and link markup dropped).
    private static func plainText(of heading: OpaquePointer) -> String {
        var bytes: [UInt8] = []
        var child = cmark_node_first_child(heading)
        var stack: [OpaquePointer] = []
        while let node = child {
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE {
                if let literal = cmark_node_get_literal(node) {
                    var p = literal
                    while p.pointee != 0 { bytes.append(UInt8(bitPattern: p.pointee)); p += 1 }
                }
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                bytes.append(0x20)
            }
            if let first = cmark_node_first_child(node) {
                if let next = cmark_node_next(node) { stack.append(next) }
                child = first
            } else {
                child = cmark_node_next(node) ?? stack.popLast()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
