/* cpu_copy.h: ordinary and non-temporal copies for the OpenMP backends. */
#ifndef LBMR_CPU_COPY_H
#define LBMR_CPU_COPY_H

#include <stddef.h>
#include <stdint.h>

/* Widest non-temporal store this build can issue, in bytes (0: none), and one such store of
 * CPU_NT_WIDTH bytes from any source to a CPU_NT_WIDTH-aligned destination. */
#if defined(__AVX512F__)
#define CPU_NT_WIDTH 64
#define CPU_NT_STORE(d, s) _mm512_stream_si512((void *)(d), _mm512_loadu_si512((const void *)(s)))
#elif defined(__AVX__)
#define CPU_NT_WIDTH 32
#define CPU_NT_STORE(d, s)                                                                         \
    _mm256_stream_si256((__m256i *)(d), _mm256_loadu_si256((const __m256i *)(s)))
#elif defined(__SSE2__)
#define CPU_NT_WIDTH 16
#define CPU_NT_STORE(d, s) _mm_stream_si128((__m128i *)(d), _mm_loadu_si128((const __m128i *)(s)))
#else
#define CPU_NT_WIDTH 0
#endif
#if CPU_NT_WIDTH > 0
#include <immintrin.h>
#endif

/* Ordinary loads and stores of bytes/4 words (bytes a multiple of 4). */
void cpu_plain_copy(void *restrict d, const void *restrict s, size_t bytes);
/* Non-temporal stores from the first CPU_NT_WIDTH-aligned destination byte (CPU_NT_WIDTH > 0 only).
 */
void cpu_nt_copy(void *restrict d, const void *restrict s, size_t bytes);
/* cpu_nt_copy over four interleaved quarters: more write streams in flight per core. */
void cpu_nt_copy_4way(char *d, const char *s, size_t bytes);
/* cpu_nt_copy, inline where both ends sit on cache lines and the length is whole lines (a kernel's
 * chunks: no call per direction). */
static inline void cpu_nt_copy_lines(void *restrict d, const void *restrict s, size_t bytes)
{
#if CPU_NT_WIDTH > 0
    if (((uintptr_t)d | (uintptr_t)s | bytes) % 64 == 0) {
        for (size_t i = 0; i < bytes; i += CPU_NT_WIDTH)
            CPU_NT_STORE((char *)d + i, (const char *)s + i);
        return;
    }
#endif
    cpu_nt_copy(d, s, bytes);
}
/* Orders this thread's non-temporal stores (sfence); nothing without them. */
void cpu_nt_fence(void);

#endif
