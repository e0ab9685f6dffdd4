#ifndef TICK_SYSTEM_H
#define TICK_SYSTEM_H

/// Atomically swaps the directory entries `from` and `to` (Linux renameat2 with
/// RENAME_EXCHANGE). Returns 0, or -1 with errno set; EINVAL or ENOSYS means the file
/// system or kernel cannot exchange.
int tick_rename_exchange(const char *from, const char *to);

#include <stddef.h>

/// glibc's memmem (a GNU extension Swift's Glibc module leaves out): where `needle` first occurs
/// in `haystack`, or NULL.
const void *tick_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// Asks the processor to start loading the cache line at `address` for a read soon: a hint that
/// never faults, whatever the address.
static inline void tick_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// errno of the calling thread (Swift cannot read the macro directly on every libc).
int tick_errno(void);

/// Asks glibc's malloc for one arena shared by all threads (mallopt M_ARENA_MAX, which Swift's
/// Glibc module leaves out). Returns 1 when set, 0 when refused or on another C library.
int tick_malloc_one_arena(void);

/// Makes a child started with `actions` change to `directory` before it runs (glibc's
/// posix_spawn_file_actions_addchdir_np, which Swift's Glibc module leaves out). Returns 0, or an
/// error number (ENOSYS on a C library without it).
int tick_spawn_add_chdir(void *actions, const char *directory);

/// Makes a child started with `actions` close every descriptor from `lowest` up before it runs
/// (glibc's posix_spawn_file_actions_addclosefrom_np): a child gets only the descriptors it is
/// given, never one another thread of tick's process has open. Returns 0, or an error number
/// (ENOSYS on a C library without it).
int tick_spawn_add_close_from(void *actions, int lowest);

#endif
