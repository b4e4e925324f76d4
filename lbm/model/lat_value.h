/* lat_value.h: one stored lattice value of any precision (common/precision.h) read, written and
 * hashed by index, for the host code that walks a lattice image value by value (image.c, the CPU
 * backend's fill and check). sp and dp store the shifted population g = f - w as a float or a
 * double; fp16s and fp16c store its 16 bits through storage16.h's conversions (float in between,
 * the precision their kernels compute in). Host code only. */
#ifndef LBM_LAT_VALUE_H
#define LBM_LAT_VALUE_H

#include <stdint.h>
#include <string.h>

#include "precision.h"
#include "storage16.h"

/* lat[i] = v, rounded to the precision (16-bit: to float first, as a kernel's store) */
static inline void lat_value_put(enum prec p, void *lat, size_t i, double v)
{
    if (p == PREC_SP)
        ((float *)lat)[i] = (float)v;
    else if (p == PREC_DP)
        ((double *)lat)[i] = v;
    else if (p == PREC_FP16S)
        ((uint16_t *)lat)[i] = lbm_fp16s_encode((float)v);
    else
        ((uint16_t *)lat)[i] = lbm_fp16c_encode((float)v);
}

/* the value lat[i] holds, exactly */
static inline double lat_value_get(enum prec p, const void *lat, size_t i)
{
    if (p == PREC_SP) return (double)((const float *)lat)[i];
    if (p == PREC_DP) return ((const double *)lat)[i];
    if (p == PREC_FP16S) return (double)lbm_fp16s_decode(((const uint16_t *)lat)[i]);
    return (double)lbm_fp16c_decode(((const uint16_t *)lat)[i]);
}

/* the stored bits of lat[i] widened to 64 (the state hash's input: a float's 32, a 16-bit
 * value's 16) */
static inline uint64_t lat_value_bits(enum prec p, const void *lat, size_t i)
{
    if (p == PREC_DP) {
        uint64_t b;
        memcpy(&b, (const double *)lat + i, 8);
        return b;
    }
    if (p == PREC_SP) {
        uint32_t b;
        memcpy(&b, (const float *)lat + i, 4);
        return b;
    }
    return ((const uint16_t *)lat)[i];
}

#endif
