/* cpu_copy.h: ordinary and non-temporal copies for the OpenMP backends. */
#ifndef SUITE_CPU_COPY_H
#define SUITE_CPU_COPY_H

#include <stddef.h>

/* Widest non-temporal store this build can issue, in bytes (0: none). */
#if defined(__AVX512F__)
#define NT_WIDTH 64
#elif defined(__AVX__)
#define NT_WIDTH 32
#elif defined(__SSE2__)
#define NT_WIDTH 16
#else
#define NT_WIDTH 0
#endif

/* Ordinary loads and stores of bytes/4 words (bytes a multiple of 4). */
void plain_copy(void *restrict d, const void *restrict s, size_t bytes);
/* Non-temporal stores from the first NT_WIDTH-aligned destination byte (NT_WIDTH > 0 only). */
void nt_copy(void *restrict d, const void *restrict s, size_t bytes);
/* nt_copy over four interleaved quarters: more write streams in flight per core. */
void nt_copy_4way(char *d, const char *s, size_t bytes);
/* Orders this thread's non-temporal stores (sfence); nothing without them. */
void nt_fence(void);

#endif
