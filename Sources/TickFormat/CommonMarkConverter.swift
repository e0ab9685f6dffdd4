import CCmark
import CCmarkArena

/// The block structure of a document as cmark sees it, reduced to what tick needs.
///
/// This file is the only place that talks to cmark. Only block start lines and the start
/// columns of list items and paragraphs are taken from cmark (after checking them in tests);
/// everything else tick computes from the original bytes.
struct BlockOutline {
    struct Item {
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

    struct Heading {
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

    /// Parses `bytes` (already stripped of a leading BOM and with front matter blanked).
    /// `columnShiftOnFirstLine` is added to columns on line 1 (the length of a stripped BOM).
    /// With `paragraphStarts`, the outline also holds where every paragraph starts, from the same
    /// parse.
    /// `arena` chooses the allocator (tests parse the same text both ways); by default, an arena
    /// up to `arenaLimit` bytes.
    static func outline(of bytes: UnsafeBufferPointer<UInt8>, columnShiftOnFirstLine shift: Int,
                        paragraphStarts: Bool = false, arena: Bool? = nil) -> BlockOutline {
        var outline = BlockOutline()
        if paragraphStarts { outline.paragraphStarts = [] }
        // A list of ordinary size is parsed in an arena (CCmarkArena): its nodes are freed at once.
        // A huge one goes through malloc, so that what cmark frees while it parses is given back.
        let arena = arena ?? (bytes.count <= arenaLimit)
        let parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, arena ? tick_arena_begin() : cmark_get_default_mem_allocator())
        defer { if arena { tick_arena_end() } }
        bytes.withMemoryRebound(to: CChar.self) { chars in cmark_parser_feed(parser, chars.baseAddress, chars.count) }
        let document = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        guard let document else { return outline }
        defer { if !arena { cmark_node_free(document) } }
        guard let iterator = cmark_iter_new(document) else { return outline }
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
            default:
                break
            }
        }
        return outline
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
