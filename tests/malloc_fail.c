/* malloc_fail.c: an LD_PRELOAD module for out-of-memory tests. The FAIL_N-th call of malloc or
 * realloc, counted together (1-based; 0 or unset: none), returns NULL with errno ENOMEM, as
 * glibc's do when memory runs out (realloc leaving its block as it was); every other call is
 * glibc's. realloc is counted because a growing line (getline) takes its memory there. With
 * MALLOC_COUNT_FILE set, the number of calls made is written there at exit, so that a test can try
 * every one of a run's allocations in turn. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static long calls, fail_at = -1;

/* 1 where this call is the one to fail */
static int fails_now(void)
{
    if (fail_at < 0) {
        const char *s = getenv("FAIL_N");
        fail_at = s ? atol(s) : 0;
    }
    if (++calls != fail_at) return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    static void *(*real)(size_t);
    if (!real) real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    return fails_now() ? NULL : real(n);
}

void *realloc(void *p, size_t n)
{
    static void *(*real)(void *, size_t);
    if (!real) real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    return fails_now() ? NULL : real(p, n);
}

__attribute__((destructor)) static void count_out(void)
{
    const char *path = getenv("MALLOC_COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%ld\n", calls);
    fclose(f);
}
