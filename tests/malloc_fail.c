/* malloc_fail.c: an LD_PRELOAD module for out-of-memory tests. The FAIL_N-th call of malloc
 * (1-based; 0 or unset: none) returns NULL with errno ENOMEM, as glibc's does when memory runs
 * out; every other call is glibc's. With MALLOC_COUNT_FILE set, the number of calls made is
 * written there at exit, so that a test can try every one of a run's allocations in turn. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static long calls, fail_at = -1;

void *malloc(size_t n)
{
    static void *(*real)(size_t);
    if (!real) real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    if (fail_at < 0) {
        const char *s = getenv("FAIL_N");
        fail_at = s ? atol(s) : 0;
    }
    if (++calls == fail_at) {
        errno = ENOMEM;
        return NULL;
    }
    return real(n);
}

__attribute__((destructor)) static void count_out(void)
{
    const char *path = getenv("MALLOC_COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%ld\n", calls);
    fclose(f);
}
