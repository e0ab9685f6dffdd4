#ifndef TICK_SYSTEM_H
#define TICK_SYSTEM_H

/// Atomically swaps the directory entries `from` and `to` (Linux renameat2 with
/// RENAME_EXCHANGE). Returns 0, or -1 with errno set; EINVAL or ENOSYS means the file
/// system or kernel cannot exchange.
int tick_rename_exchange(const char *from, const char *to);

/// errno of the calling thread (Swift cannot read the macro directly on every libc).
int tick_errno(void);

#endif
