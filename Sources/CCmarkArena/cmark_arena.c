#include "cmark_arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Each block is preceded by a 16-byte header holding its size, so that realloc knows how much to
// copy; blocks stay 16-byte aligned, as malloc's are.
enum { HEADER = 16, ALIGN = 16, FIRST_CHUNK = 64 * 1024, LARGEST_CHUNK = 1024 * 1024 };

struct chunk {
    struct chunk *previous;
    size_t size;  // bytes of `data`
    size_t used;
    size_t last;  // offset in `data` of the last block's header, or SIZE_MAX
    _Alignas(16) unsigned char data[];
};

static _Thread_local struct chunk *current;
static _Thread_local size_t next_size = FIRST_CHUNK;
static _Thread_local size_t chunk_bytes;

static _Noreturn void out_of_memory(void) {
    fputs("tick: out of memory while parsing Markdown\n", stderr);
    abort();
}

static size_t rounded(size_t n) {
    if (n > SIZE_MAX - ALIGN) out_of_memory();
    return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

static size_t *header_of(void *block) { return (size_t *)((unsigned char *)block - HEADER); }

static void new_chunk(size_t need) {
    size_t size = next_size;
    if (size < need) size = need;
    if (size > SIZE_MAX - sizeof(struct chunk)) out_of_memory();
    struct chunk *c = malloc(sizeof(struct chunk) + size);
    if (c == NULL) out_of_memory();
    c->previous = current;
    c->size = size;
    c->used = 0;
    c->last = SIZE_MAX;
    current = c;
    chunk_bytes += size;
    if (next_size < LARGEST_CHUNK) next_size *= 2;
}

static void *allocate(size_t size) {
    size_t need = HEADER + rounded(size);
    if (current == NULL || current->size - current->used < need) new_chunk(need);
    unsigned char *at = current->data + current->used;
    current->last = current->used;
    current->used += need;
    *(size_t *)at = size;
    return at + HEADER;
}

/// Whether `block` is the last block of the current chunk (which may grow or give its room back).
static int is_last(void *block) {
    return current != NULL && current->last != SIZE_MAX
        && (unsigned char *)block == current->data + current->last + HEADER;
}

static void *arena_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) out_of_memory();
    void *block = allocate(count * size);
    memset(block, 0, count * size);
    return block;
}

static void *arena_realloc(void *block, size_t size) {
    if (block == NULL) return allocate(size);
    size_t old = *header_of(block);
    if (is_last(block)) {
        size_t end = current->last + HEADER + rounded(size);
        if (end <= current->size) {
            current->used = end;
            *header_of(block) = size;
            return block;
        }
    }
    void *moved = allocate(size);
    memcpy(moved, block, old < size ? old : size);
    return moved;
}

static void arena_free(void *block) {
    if (block == NULL || !is_last(block)) return;
    current->used = current->last;
    current->last = SIZE_MAX;
}

static cmark_mem arena_mem = {arena_calloc, arena_realloc, arena_free};

cmark_mem *tick_arena_begin(void) {
    tick_arena_end();
    return &arena_mem;
}

void tick_arena_end(void) {
    while (current != NULL) {
        struct chunk *previous = current->previous;
        free(current);
        current = previous;
    }
    next_size = FIRST_CHUNK;
    chunk_bytes = 0;
}

size_t tick_arena_chunk_bytes(void) { return chunk_bytes; }
