/* stream_values.h: the source values and what each kernel must leave, the same bits on host and
 * device. Values are exact in single precision (1 + k/65536, k < 2^16), non-zero, and differ
 * between neighbours and between arrays, so a wrong index or a swapped array shows in the check. */
#ifndef LBMR_STREAM_VALUES_H
#define LBMR_STREAM_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "stream_model.h"

#ifdef __CUDACC__
#define STREAM_HD __host__ __device__
#else
#define STREAM_HD
#endif

static inline STREAM_HD double stream_value(size_t i, unsigned array)
{
    uint64_t h =
        (uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)(array + 1) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return 1.0 + (double)(h & 0xFFFFu) * (1.0 / 65536.0);
}

/* STREAM's scalar q (McCalpin 1995 uses 3) and the value `store` writes: negative, so no source,
 * copy or sum of them can pass for it. */
#define STREAM_Q 3.0
#define STREAM_STORE_VALUE (-1.5)
/* update's scalar: -1 keeps every pass exact and bounded (3 would need 1.6 more bits a pass:
 * the 17-bit sources leave float's 24 at the fifth pass). An element then holds -v after an odd
 * number of passes and v after an even one, where an untouched array holds v too: so update's
 * check is made after an odd number (stream_update_check_pass), and a skipped or doubled element
 * shows (one updated three times in a pass does not: q = -1 cannot tell 3 from 1). The backends
 * also refuse to check an update whose destination is not its source. */
#define STREAM_UPDATE_Q (-1.0)

/* 1 if kernel k, after `passes` runs, must run once more (untimed) before its check: an in-place
 * update checked after an even number of passes could not tell done from not done. */
static inline int stream_update_check_pass(enum stream_kernel k, long passes)
{
    return k == STREAM_UPDATE && passes % 2 == 0;
}

/* What destination j of kernel k holds at index i after a run. Exact in both precisions: a
 * source is (2^16 + m) 2^-16 with m < 2^16, so s0 + q s1 = (2^16 + m0 + 3 (2^16 + m1)) 2^-16 is an
 * integer below 2^19 times 2^-16: at most 19 significant bits (float has 24), so every rounding
 * of the kernels (a fused multiply-add too) returns that exact value and a check may demand
 * equality. */
static inline STREAM_HD double stream_expect(enum stream_kernel k, size_t i, unsigned j)
{
    switch (k) {
    case STREAM_SCALE:
        return STREAM_Q * stream_value(i, 0);
    case STREAM_ADD:
        return stream_value(i, 0) + stream_value(i, 1);
    case STREAM_TRIAD:
    case STREAM_TRIAD_NT:
        return stream_value(i, 0) + STREAM_Q * stream_value(i, 1);
    case STREAM_STORE:
    case STREAM_STORE_NT:
        return STREAM_STORE_VALUE;
    case STREAM_UPDATE: /* after an odd number of passes */
        return STREAM_UPDATE_Q * stream_value(i, 0);
    default:
        return stream_value(i, j); /* the copies */
    }
}

/* The sum `load` must return over n elements of source 0, added serially in double. Exact while
 * n < 2^36: every partial sum is a multiple of 2^-16 below 2n < 2^37, so fits in 53 bits. */
static inline double stream_load_sum(size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += stream_value(i, 0);
    return s;
}

/* Relative tolerance of the load check; the kernels add in double whatever the precision. Any
 * order of n - 1 additions of positive terms in double has relative error at most (n - 1) u,
 * u = 2^-53 (Higham 2002, Accuracy and Stability of Numerical Algorithms, section 4.2); the
 * kernel's sum and the serial reference each carry it, so they may differ by 2 (n - 1) u. Below
 * n = 2^36 both sums are exact (stream_load_sum), so the tolerance is 0: a lost or doubled element
 * moves the sum by about 1/n of it, less than 2 (n - 1) u once n > 2^26, and only an exact check
 * sees it. */
static inline double stream_load_tolerance(size_t n)
{
    return n >= ((size_t)1 << 36) ? 2.0 * (double)(n - 1) * 0x1p-53 : 0.0;
}

#endif
