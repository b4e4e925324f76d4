/* lbm_omp_kernel.h: the names and constants of one row kernel, for the kernel files
 * (lbm_omp_pull.c, lbm_omp_aa.c). cpu/CMakeLists.txt compiles its scheme's file once per line of
 * LBM_OMP_VARIANTS (lbm_omp.h) and precision, through a generated source that defines
 * LBM_OMP_KERNEL_PREC_SP (or _DP, _FP16S, _FP16C), LBM_OMP_KERNEL_FN (the line's name),
 * LBM_OMP_KERNEL_COLLISION (bgk, trt or mrt), LBM_OMP_KERNEL_FORCED, LBM_OMP_KERNEL_NT (1:
 * non-temporal stores) and LBM_OMP_KERNEL_CS (elements between neighbouring cells: 1 SoA, 19 AoS):
 * each variant's function is compiled from the kernel text with its constants as literals. */
#ifndef LBM_OMP_KERNEL_H
#define LBM_OMP_KERNEL_H

#include <stdint.h>
#include <string.h>

#include "cpu_copy.h"
#include "lbm_omp.h"
#include "pull.h"

/* ROW_REAL: the type the update computes in; ROW_STORED: the type the lattice stores, read
 * through ROW_DECODE and written through ROW_ENCODE (for sp and dp the same type, and the two
 * macros the value itself, so that their statements are those of a plain load and store);
 * ROW_PARAMS and LBM_OMP_CP: the collision parameters and functions of ROW_REAL; LBM_OMP_P: the
 * precision's suffix in the kernels' names. */
#if defined(LBM_OMP_KERNEL_PREC_SP)
#define ROW_REAL float
#define ROW_PARAMS psp
#define LBM_OMP_P sp
#define LBM_OMP_CP sp
#elif defined(LBM_OMP_KERNEL_PREC_DP)
#define ROW_REAL double
#define ROW_PARAMS pdp
#define LBM_OMP_P dp
#define LBM_OMP_CP dp
#elif defined(LBM_OMP_KERNEL_PREC_FP16S) || defined(LBM_OMP_KERNEL_PREC_FP16C)
/* 16-bit storage, single-precision arithmetic and collision parameters (docs/storage16.md).
 * Element by element (row ends, remainders, fp16c's pull and pull_nt) both formats convert through
 * storage16.h's branch-free integer code, which GCC vectorises with the row loops (integer SIMD);
 * fp16s too, although an F16C build's default is the scalar hardware conversion (_cvtsh_ss,
 * _cvtss_sh): GCC 12 vectorises neither those calls nor _Float16 to float, and the two give the
 * same bits (tests/test_storage16.c). The rows otherwise go in blocks through row16_decode and
 * row16_encode below (aa in both formats, pull and pull_nt where ROW16_HW). */
#include "storage16.h"
#define ROW_REAL float
#define ROW_STORED uint16_t
#define ROW_PARAMS psp
#define LBM_OMP_CP sp
#if defined(LBM_OMP_KERNEL_PREC_FP16S)
#define LBM_OMP_P fp16s
#define ROW_DECODE(h) lbm_fp16s_decode_portable(h)
#define ROW_ENCODE(x) lbm_fp16s_encode_portable(x)
#else
#define LBM_OMP_P fp16c
#define ROW_DECODE(h) lbm_fp16c_decode(h)
#define ROW_ENCODE(x) lbm_fp16c_encode(x)
#endif
#else
#error "a kernel file is compiled once per variant and precision: see cpu/CMakeLists.txt"
#endif
#ifndef ROW_STORED
#define ROW_STORED ROW_REAL
#define ROW_DECODE(v) (v)
#define ROW_ENCODE(v) (v)
#define ROW_16BIT 0
#else
#define ROW_16BIT 1
/* ROW16_W cells of one direction converted at once, between the lattice and a float block that
 * the row loop then collides as sp: fp16s through the F16C (or AVX-512F) vector conversions, one
 * instruction per 8 or 16 values where the element-wise branch-free code takes a dozen per value;
 * the same bits (tests/test_storage16.c compares the hardware and the portable conversions on every
 * code and every float of the range). fp16c, and builds without F16C, convert element by element.
 */
#define ROW16_W 16
/* One block of ROW16_W cells: DEC_ fills bin[i] (row16_decode), IN_ and OUT_ move f[i] from
 * bin[i][j] and into bout[i][j] (with a step's terms), the cells collide as sp, ENC_ stores bout[i]
 * (row16_encode); each a per-direction macro for LBM_D3Q19, expanded where the block runs. */
#if defined(__GNUC__) && !defined(__clang__)
#define ROW16_IVDEP_ _Pragma("GCC ivdep")
#else
#define ROW16_IVDEP_
#endif
#define ROW16_BLOCK(DEC_, IN_, OUT_, ENC_)                                                         \
    {                                                                                              \
        _Alignas(64) float bin[19][ROW16_W], bout[19][ROW16_W];                                    \
        LBM_D3Q19(DEC_)                                                                            \
        ROW16_IVDEP_                                                                               \
        for (int j = 0; j < ROW16_W; j++) {                                                        \
            ROW_REAL f[19];                                                                        \
            LBM_D3Q19(IN_)                                                                         \
            ROW_COLLIDE(f, &pc, ROW_FORCED);                                                       \
            LBM_D3Q19(OUT_)                                                                        \
        }                                                                                          \
        LBM_D3Q19(ENC_)                                                                            \
    }
#if defined(LBM_OMP_KERNEL_PREC_FP16S) && defined(__F16C__) && !defined(LBM_STORAGE16_PORTABLE)
#define ROW16_HW 1 /* the blocks convert in hardware */
#include <immintrin.h>
static inline void row16_decode(float *restrict out, const uint16_t *restrict in)
{
#if defined(__AVX512F__)
    _mm512_storeu_ps(out, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)in)));
#else
    _mm256_storeu_ps(out, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)in)));
    _mm256_storeu_ps(out + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + 8))));
#endif
}
static inline void row16_encode(uint16_t *restrict out, const float *restrict in)
{
    /* nearest even whatever MXCSR says, and no floating-point exceptions raised */
#define ROW16_RN (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#if defined(__AVX512F__)
    _mm256_storeu_si256((__m256i *)out, _mm512_cvtps_ph(_mm512_loadu_ps(in), ROW16_RN));
#else
    _mm_storeu_si128((__m128i *)out, _mm256_cvtps_ph(_mm256_loadu_ps(in), ROW16_RN));
    _mm_storeu_si128((__m128i *)(out + 8), _mm256_cvtps_ph(_mm256_loadu_ps(in + 8), ROW16_RN));
#endif
#undef ROW16_RN
}
#else
#define ROW16_HW 0
static inline void row16_decode(float *restrict out, const uint16_t *restrict in)
{
    for (int k = 0; k < ROW16_W; k++)
        out[k] = ROW_DECODE(in[k]);
}
static inline void row16_encode(uint16_t *restrict out, const float *restrict in)
{
    for (int k = 0; k < ROW16_W; k++)
        out[k] = ROW_ENCODE(in[k]);
}
#endif
#endif

#if ROW_16BIT
/* the first r < ROW16_W values through a block's conversions: a zero-filled copy decoded, the
 * block encoded into a copy of which r values are stored (a row's last cells as one block: one by
 * one they took a fifth of aa fp16s's time at 256^3 on the 2-core VM) */
static inline void row16_decode_part(float *restrict out, const uint16_t *restrict in, long r)
{
    uint16_t h[ROW16_W] = {0};
    memcpy(h, in, (size_t)r * sizeof *h);
    row16_decode(out, h);
}
static inline void row16_encode_part(uint16_t *restrict out, const float *restrict in, long r)
{
    uint16_t h[ROW16_W];
    row16_encode(h, in);
    memcpy(out, h, (size_t)r * sizeof *h);
}
#endif

#define LBM_OMP_CAT_(a, b, c) a##_##b##_##c
#define LBM_OMP_CAT(a, b, c) LBM_OMP_CAT_(a, b, c)

#define ROW_COLL struct LBM_OMP_CAT(lbm, coll, LBM_OMP_CP)
#define ROW_COLLIDE LBM_OMP_CAT(lbm, LBM_OMP_KERNEL_COLLISION, LBM_OMP_CP)
#define ROW_FORCED LBM_OMP_KERNEL_FORCED
#define ROW_NT LBM_OMP_KERNEL_NT
#define ROW_CS LBM_OMP_KERNEL_CS
/* the functions, as LBM_OMP_VARIANTS names them (lbm_omp.h declares them) */
#define ROW_FN LBM_OMP_NAME(LBM_OMP_KERNEL_FN, LBM_OMP_P)
#define AA_FN_ODD LBM_OMP_AA_NAME(LBM_OMP_KERNEL_FN, odd, LBM_OMP_P)
#define AA_FN_EVEN LBM_OMP_AA_NAME(LBM_OMP_KERNEL_FN, even, LBM_OMP_P)

#endif
