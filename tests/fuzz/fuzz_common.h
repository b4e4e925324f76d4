/* fuzz_common.h: what every fuzz harness checks besides "no crash, no hang": a refused input gets
 * exactly one line of error (non-empty, no newline). Used by libFuzzer builds and by the replay
 * test that runs the stored corpus in every build. */
#ifndef LBMR_FUZZ_COMMON_H
#define LBMR_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

static inline void fuzz_check_message(int refused, const char *err)
{
    if (refused && (err[0] == '\0' || strchr(err, '\n') != NULL))
        abort(); /* a refusal must say what is wrong, on one line */
}

/* a NUL-terminated copy of the input, at most cap bytes */
static inline char *fuzz_string(const unsigned char *data, size_t size, size_t cap)
{
    size_t n = size < cap ? size : cap;
    char *s = malloc(n + 1);
    if (!s) abort();
    memcpy(s, data, n);
    s[n] = '\0';
    return s;
}

#endif
