/* precision.h: the two floating-point precisions every benchmark sweeps (C and CUDA). */
#ifndef LBMR_PRECISION_H
#define LBMR_PRECISION_H

#include <stddef.h>

enum prec { PREC_SP = 0, PREC_DP = 1, PREC_COUNT = 2 };

static inline const char *prec_name(enum prec p)
{
    return p == PREC_SP ? "sp" : "dp";
}

/* bytes per value */
static inline size_t prec_size(enum prec p)
{
    return p == PREC_SP ? 4u : 8u;
}

#endif
