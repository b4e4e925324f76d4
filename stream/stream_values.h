/* stream_values.h: the source values, the same bits on host and device. Values are exact in
 * single precision (1 + k/65536, k < 2^16), non-zero, and differ between neighbours and between
 * the 19 arrays of copy19, so a wrong index or a swapped array shows in the check. */
#ifndef SUITE_STREAM_VALUES_H
#define SUITE_STREAM_VALUES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define STREAM_HD __host__ __device__
#else
#define STREAM_HD
#endif

static inline STREAM_HD double stream_value(size_t i, unsigned array)
{
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)(array + 1) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return 1.0 + (double)(h & 0xFFFFu) * (1.0 / 65536.0);
}

#endif
