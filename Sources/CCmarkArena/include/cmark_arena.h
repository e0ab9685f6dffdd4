#ifndef TICK_CMARK_ARENA_H
#define TICK_CMARK_ARENA_H

#include <cmark.h>
#include <stddef.h>

/// An allocator for one cmark parse on the calling thread: every block comes from a few large
/// chunks, a free of anything but the last block is a no-op, and `tick_arena_end` gives the chunks
/// back at once. A parse makes and frees hundreds of thousands of small nodes and buffers; this
/// turns that into pointer bumps and one free per chunk. cmark's allocator has no context
/// pointer, so the arena is the calling thread's: begin, parse and end on one thread, and do not
/// nest.
///
/// Returns the allocator to give `cmark_parser_new_with_mem`.
cmark_mem *tick_arena_begin(void);

/// Frees every block the arena gave out since `tick_arena_begin`. Nodes made in it are gone:
/// do not call `cmark_node_free` on them after this.
void tick_arena_end(void);

/// The bytes the arena holds in chunks now (for tests).
size_t tick_arena_chunk_bytes(void);

#endif
