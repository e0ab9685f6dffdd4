#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tick_system.h"

int tick_rename_exchange(const char *from, const char *to) {
#ifdef RENAME_EXCHANGE
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
#elif defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int tick_errno(void) { return errno; }

#ifdef __GLIBC__
#include <malloc.h>
#endif

int tick_malloc_one_arena(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return mallopt(M_ARENA_MAX, 1);
#else
    return 0;
#endif
}

const void *tick_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#include <spawn.h>

int tick_spawn_add_chdir(void *actions, const char *directory) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, directory);
#else
    (void)actions;
    (void)directory;
    return ENOSYS;
#endif
}

int tick_spawn_add_close_from(void *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}
