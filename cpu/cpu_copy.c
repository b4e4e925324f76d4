/* cpu_copy.c: the copies the OpenMP backends build on: ordinary stores, and non-temporal stores
 * where the instruction set has them. Built with the compiler's loop-to-memcpy rewrite off. */
#include "cpu_copy.h"

#include <stdint.h>

/* Ordinary loads and stores; the build keeps the compiler from turning this into a memcpy call
 * (glibc's memcpy switches to non-temporal stores on large copies, which is another kernel). */
void cpu_plain_copy(void *restrict d, const void *restrict s, size_t bytes)
{
    if (((uintptr_t)d | (uintptr_t)s) % 4) { /* a 16-bit lattice's ragged head or tail: its
                                                values lie on 2-byte boundaries only */
        uint16_t *restrict dh = d;
        const uint16_t *restrict sh = s;
        for (size_t i = 0; i < bytes / 2; i++)
            dh[i] = sh[i];
        return;
    }
    uint32_t *restrict dw = d;
    const uint32_t *restrict sw = s;
    size_t n = bytes / 4;
    for (size_t i = 0; i < n; i++)
        dw[i] = sw[i];
    if (bytes % 4 >= 2) /* a 16-bit lattice's or array's odd last value (lengths are whole 2-byte
                           values) */
        ((uint16_t *)d)[2 * n] = ((const uint16_t *)s)[2 * n];
}

#if CPU_NT_WIDTH > 0
/* Non-temporal stores from the first CPU_NT_WIDTH-aligned destination byte; the ragged head and
 * tail go through ordinary stores. */
void cpu_nt_copy(void *restrict d, const void *restrict s, size_t bytes)
{
    char *dc = d;
    const char *sc = s;
    size_t head = (CPU_NT_WIDTH - (uintptr_t)dc % CPU_NT_WIDTH) % CPU_NT_WIDTH;
    size_t body;
    if (head > bytes) head = bytes;
    cpu_plain_copy(dc, sc, head);
    dc += head;
    sc += head;
    bytes -= head;
    body = bytes / CPU_NT_WIDTH * CPU_NT_WIDTH;
    for (size_t i = 0; i < body; i += CPU_NT_WIDTH)
        CPU_NT_STORE(dc + i, sc + i);
    cpu_plain_copy(dc + body, sc + body, bytes - body);
}
#else
void cpu_nt_copy(void *restrict d, const void *restrict s, size_t bytes)
{
    cpu_plain_copy(d, s, bytes); /* unreachable: stream_kernel_supported refuses the nt kernels */
}
#endif

/* Non-temporal copy of four page-aligned quarters interleaved 256 bytes at a time: four write
 * streams in flight per core instead of one. On a Sapphire Rapids guest one stream reached 22-29
 * GB/s and four 32-36 (2 threads, 420 MiB arrays; 1, 2, 8 and 16 ways and 1 or 4 KiB steps were
 * slower), glibc's non-temporal memcpy 34-38 in the same minutes. */
#define NT_WAYS 4
#define NT_STEP 256
void cpu_nt_copy_4way(char *d, const char *s, size_t bytes)
{
    size_t part = bytes / NT_WAYS / 4096 * 4096;
    for (size_t off = 0; off < part; off += NT_STEP) {
        for (int q = 0; q < NT_WAYS; q++)
            cpu_nt_copy(d + (size_t)q * part + off, s + (size_t)q * part + off, NT_STEP);
    }
    cpu_nt_copy(d + NT_WAYS * part, s + NT_WAYS * part, bytes - NT_WAYS * part);
}

void cpu_nt_fence(void)
{
#if CPU_NT_WIDTH > 0
    _mm_sfence();
#endif
}
