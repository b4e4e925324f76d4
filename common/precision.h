/* precision.h: the precisions every benchmark sweeps (C and CUDA): sp and dp store and compute in
 * 4- and 8-byte IEEE floats; fp16s and fp16c store 2-byte values (IEEE binary16, and the 1-4-11
 * format of lbm/model/storage16.h) and compute in 4-byte floats. */
#ifndef LBMR_PRECISION_H
#define LBMR_PRECISION_H

#include <stddef.h>

enum prec { PREC_SP = 0, PREC_DP = 1, PREC_FP16S = 2, PREC_FP16C = 3, PREC_COUNT = 4 };

static inline const char *prec_name(enum prec p)
{
    return p == PREC_SP ? "sp" : p == PREC_DP ? "dp" : p == PREC_FP16S ? "fp16s" : "fp16c";
}

/* bytes per stored value */
static inline size_t prec_size(enum prec p)
{
    return p == PREC_SP ? 4u : p == PREC_DP ? 8u : 2u;
}

/* 1 for the 16-bit storage formats, whose arithmetic is single precision */
static inline int prec_is_16bit(enum prec p)
{
    return p == PREC_FP16S || p == PREC_FP16C;
}

#endif
