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
 * Element by element (row ends, pull's remainders, pull and pull_nt without ROW16_HW) both formats
 * convert through storage16.h's branch-free integer code, which GCC vectorises with the row loops
 * (integer SIMD); fp16s too, although an F16C build's default is the scalar hardware conversion
 * (_cvtsh_ss, _cvtss_sh): GCC 12 vectorises neither those calls nor _Float16 to float, and the two
 * give the same bits (tests/test_storage16.c). The rows otherwise go in blocks through
 * row16_decode and row16_encode below (aa in both formats, pull and pull_nt where ROW16_HW). */
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
/* the rows go in blocks of ROW16_W cells of each direction, converted at once (cpu/row16.h) */
#include "row16.h"
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
/* ROW16_HW: the blocks convert in vector instructions (pull and pull_nt take blocks only then;
 * aa always) */
#if defined(LBM_OMP_KERNEL_PREC_FP16S)
#define row16_decode row16_fp16s_decode
#define row16_encode row16_fp16s_encode
#define row16_decode_h row16_fp16s_decode_h
#define row16_encode_h row16_fp16s_encode_h
#define ROW16_HW ROW16_FP16S_HW
#define ROW16_H ROW16_FP16S_H
#else
#define row16_decode row16_fp16c_decode
#define row16_encode row16_fp16c_encode
#define row16_decode_h row16_fp16c_decode_h
#define row16_encode_h row16_fp16c_encode_h
#define ROW16_HW ROW16_FP16C_VEC
#define ROW16_H ROW16_FP16C_H
#endif
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
