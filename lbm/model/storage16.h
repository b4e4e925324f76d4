/* storage16.h: the two 16-bit storage formats of the shifted populations g = f - w (fp16s, IEEE
 * binary16; fp16c, a 1-4-11 format for |g| < 2), their float conversions and the tolerance of a
 * 16-bit lattice against the double reference. Header-only, plain C usable from .c and .cu; the
 * lattice stores 16 bits per value, every update computes in 32-bit float (docs/storage16.md).
 *
 * fp16s: 1 sign, 5 exponent (bias 15), 10 mantissa bits; normal 2^-14 .. 65504, subnormal step
 * 2^-24, overflow to inf, NaN kept; unit roundoff u = 2^-11. Converted by hardware where the
 * build has it, chosen at build time (no dispatch): cuda_fp16 in device code, F16C on an x86 host
 * compiled with -mf16c (LBMR_NATIVE's -march=native on F16C CPUs), else the portable integer
 * code below, which gives the same bits (tests/test_storage16.c checks every code).
 *
 * fp16c: 1 sign, 4 exponent (bias 15), 11 mantissa bits; normal 2^-14 .. 2 - 2^-10, subnormal step
 * 2^-25, u = 2^-12: one bit more than fp16s everywhere below 2, no range above. The range it
 * needs: the populations stay non-negative and sum to rho, so 0 <= f_i <= rho and
 * -1/3 <= g_i = f_i - w_i < rho; rho < 2 (LBM is only meaningful at rho = 1 + O(Ma^2)) gives
 * |g| < 2. At equilibrium with the largest lid the driver accepts (|u| <= 0.5, lbm_opts.c) the
 * bound is |g_i| <= w_i (|rho - 1| + rho |3 c.u + 4.5 (c.u)^2 - 1.5 u^2|) <= 0.125 + |rho - 1|:
 * a factor of 8 below the top binade [1, 2). The same split as Lehmann et al. 2022's FP16C (Phys.
 * Rev. E 106, 015308). No inf: values beyond the range saturate at +-(2 - 2^-10) (a lattice that
 * leaves the range fails mass conservation instead of turning into inf); the one magnitude code
 * 0x7fff is NaN, so a NaN stays a NaN and lbm_check's non-finite count still sees it. */
#ifndef LBM_STORAGE16_H
#define LBM_STORAGE16_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#include <cuda_fp16.h>
#elif defined(__F16C__)
#include <immintrin.h>
#endif

/* host and device, always inlined (as collision.h's LBM_HD: the conversions sit inside the
 * kernels' vectorised loops, where a call would stop them) */
#ifdef __CUDACC__
#define LBM_S16_HD __host__ __device__ __attribute__((always_inline))
#elif defined(__GNUC__)
#define LBM_S16_HD __attribute__((always_inline))
#else
#define LBM_S16_HD
#endif

/* Which fp16s conversion this translation unit's host code uses (device code: cuda_fp16). */
#if defined(__F16C__) && !defined(LBM_STORAGE16_PORTABLE)
#define LBM_FP16S_HOST_PATH "f16c"
#else
#define LBM_FP16S_HOST_PATH "portable"
#endif

/* unit roundoff (half the spacing relative to the value in the normal range) */
#define LBM_FP16S_U (1.0 / 2048.0) /* 2^-11 */
#define LBM_FP16C_U (1.0 / 4096.0) /* 2^-12 */
/* smallest normal magnitude of both: 2^-14; below it the spacing is fixed (2^-24 fp16s, 2^-25
 * fp16c), so a stored value's absolute error is at most u * max(|g|, 2^-14) */
#define LBM_S16_TINY (1.0 / 16384.0)
#define LBM_FP16S_MAX 65504.0
#define LBM_FP16C_MAX (2.0 - 1.0 / 1024.0)
#define LBM_FP16C_NAN 0x7fffu     /* magnitude code of NaN (sign bit free) */
#define LBM_FP16C_MAXCODE 0x7ffeu /* magnitude code of LBM_FP16C_MAX */

static inline LBM_S16_HD uint32_t lbm_s16_bits(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
#endif
}

static inline LBM_S16_HD float lbm_s16_float(uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
#endif
}

/* A finite or infinite float (bits a, sign cleared) to the magnitude code of a format with `man`
 * mantissa bits and exponent bias `bias`, rounded to nearest, ties to even; codes above maxcode
 * become `over` (inf or the largest finite). Integer arithmetic only, so it is exact whatever the
 * floating-point environment (no flush to zero, no double rounding). */
static inline LBM_S16_HD uint32_t lbm_s16_round(uint32_t a, int man, int bias, uint32_t maxcode,
                                                uint32_t over)
{
    const int ef = (int)(a >> 23);            /* float's biased exponent; 0: subnormal */
    const int e = (ef ? ef : 1) - 127 + bias; /* the target's biased exponent */
    const uint32_t m = (a & 0x7fffffu) | (ef ? 0x800000u : 0u); /* 24-bit significand */
    const int shift = 23 - man + (e < 1 ? 1 - e : 0);           /* bits dropped */
    uint32_t q, r, half, code;
    if (shift > 25) return 0; /* below half the smallest subnormal (m < 2^24): rounds to 0 */
    q = m >> shift;
    r = m & ((1u << shift) - 1u);
    half = 1u << (shift - 1);
    q += (r > half) | ((r == half) & (q & 1u));
    /* normal: q holds the implicit bit 2^man, which the exponent field replaces (a carry out of
     * the mantissa moves into the exponent); subnormal: q is the code, 2^man the smallest normal */
    code = e < 1 ? q : ((uint32_t)e << man) + q - (1u << man);
    return code > maxcode ? over : code;
}

/* A magnitude code of a finite value (not inf, not NaN) back to float; exact. */
static inline LBM_S16_HD float lbm_s16_value(uint32_t code, int man, int bias)
{
    const uint32_t e = code >> man, m = code & ((1u << man) - 1u);
    if (e == 0) /* m * 2^(1 - bias - man): both exact in float */
        return (float)m * lbm_s16_float((uint32_t)(127 + 1 - bias - man) << 23);
    return lbm_s16_float(((e + 127u - (uint32_t)bias) << 23) | (m << (23 - man)));
}

/* x + y rounded to nearest even: the branch-free encoders' subnormal range (below). In device
 * code explicitly (__fadd_rn: never contracted, whatever the flags); on the host the default
 * rounding mode, which the suite never changes. */
static inline LBM_S16_HD float lbm_s16_add_rn(float x, float y)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(x, y);
#else
    return x + y;
#endif
}

/* cond ? x : y for the branch-free conversions, as masks: GCC (12) would otherwise sink each arm's
 * float operation into a branch of its own and then not if-convert it back (a float addition may
 * trap), which leaves the row loops unvectorised. */
static inline LBM_S16_HD uint32_t lbm_s16_select(int cond, uint32_t x, uint32_t y)
{
    const uint32_t m = 0u - (uint32_t)(cond != 0);
    return (x & m) | (y & ~m);
}

/* The generic conversions: lbm_s16_round / lbm_s16_value with a variable shift and branches. No
 * kernel calls them; they are the reference that tests/test_storage16.c holds the branch-free
 * conversions below to, bit for bit. fp16s: NaN keeps its sign and top payload bits and is made
 * quiet (as F16C does); fp16c: out of range saturates, NaN becomes the one NaN code. */
static inline LBM_S16_HD uint16_t lbm_fp16s_encode_generic(float x)
{
    const uint32_t b = lbm_s16_bits(x), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    return (uint16_t)(sign | lbm_s16_round(a, 10, 15, 0x7bffu, 0x7c00u));
}

static inline LBM_S16_HD float lbm_fp16s_decode_generic(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, c = h & 0x7fffu;
    if (c == 0x7c00u) return lbm_s16_float(sign | 0x7f800000u);
    if (c > 0x7c00u) /* NaN: payload kept, made quiet (as F16C does) */
        return lbm_s16_float(sign | 0x7fc00000u | ((c & 0x3ffu) << 13));
    return lbm_s16_float(sign | lbm_s16_bits(lbm_s16_value(c, 10, 15)));
}

static inline LBM_S16_HD uint16_t lbm_fp16c_encode_generic(float x)
{
    const uint32_t b = lbm_s16_bits(x), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | LBM_FP16C_NAN);
    return (uint16_t)(sign | lbm_s16_round(a, 11, 15, LBM_FP16C_MAXCODE, LBM_FP16C_MAXCODE));
}

static inline LBM_S16_HD float lbm_fp16c_decode_generic(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, c = h & 0x7fffu;
    if (c == LBM_FP16C_NAN) return lbm_s16_float(sign | 0x7fc00000u);
    return lbm_s16_float(sign | lbm_s16_bits(lbm_s16_value(c, 11, 15)));
}

/* The branch-free conversions, bit-identical to the generic ones: a few integer operations and
 * selects per value, no variable shift, so a compiler vectorises them in the CPU kernels' row
 * loops and the GPU runs them in about a dozen instructions. Both formats have exponent bias 15
 * and M mantissa bits (fp16s 10, fp16c 11); the float has bias 127 and 23 mantissa bits; a is the
 * float's bits with the sign cleared.
 *
 * Encode, normal range (2^-14 <= |x|, a >= (127 - 14) << 23): |x| = 1.m 2^(E - 127) has the code
 * (E - 127 + 15) << M | m >> (23 - M), the dropped 23 - M bits rounded. As integers: a - ((127 -
 * 15) << 23) rebiases the exponent field in place, a shift right by 23 - M drops the low mantissa
 * bits and moves the exponent to bit M. Rounding to nearest even before the shift: adding half an
 * ulp less one, 2^(22 - M) - 1, plus the lowest kept bit (a >> (23 - M)) & 1 carries into the kept
 * part exactly when the dropped part is above half, or half with an odd kept part; a carry out of
 * the mantissa increments the exponent, which is the next binade's code (mantissa 0). Above the
 * range the code passes the largest finite one (inf's exponent 255 too): a min with the overflow
 * code saturates (fp16c: the largest finite code; fp16s: 0x7c00, inf).
 *
 * Encode, subnormal range (|x| < 2^-14): the code is |x| / 2^(-14 - M) rounded to nearest even.
 * In [2^(9 - M), 2^(10 - M)) (fp16s [0.5, 1), fp16c [0.25, 0.5)) floats are spaced exactly
 * 2^(-14 - M) apart, so |x| + 2^(9 - M) rounds |x| to a multiple of that spacing, ties to the
 * even one, and the sum's bits less those of 2^(9 - M) count the multiples: the code. The sum
 * stays in that binade (|x| < 2^-14 = 2^(9 - M) 2^(-23 + M) is far below it), and |x| close to
 * 2^-14 rounds up to the code 1 << M, the smallest normal's, as the generic code gives. A float
 * subnormal input (|x| < 2^-126) rounds to code 0, and so does the same input flushed to zero
 * where the arithmetic flushes (FTZ, DAZ): the result does not depend on it.
 *
 * Decode: a normal code c (c >= 1 << M) is the float with bits (c << (23 - M)) + ((127 - 15) <<
 * 23), the inverse of the shift and the rebias above; a subnormal code is c 2^(-14 - M): c < 2^11
 * and the power of two are exact in float, so is their product, itself a normal float (no flush
 * applies). NaN and (fp16s) inf by a select. */
static inline LBM_S16_HD uint16_t lbm_fp16c_encode(float x)
{
    const uint32_t b = lbm_s16_bits(x), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    const uint32_t normal = (a - (112u << 23) + 0x7ffu + ((a >> 12) & 1u)) >> 12;
    /* 0x3e800000: 0.25 = 2^(9 - 11) */
    const uint32_t sub = lbm_s16_bits(lbm_s16_add_rn(lbm_s16_float(a), 0.25f)) - 0x3e800000u;
    uint32_t c = lbm_s16_select(a < (113u << 23), sub, normal);
    c = c < LBM_FP16C_MAXCODE ? c : LBM_FP16C_MAXCODE;
    c = lbm_s16_select(a > 0x7f800000u, LBM_FP16C_NAN, c);
    return (uint16_t)(sign | c);
}

static inline LBM_S16_HD float lbm_fp16c_decode(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, c = h & 0x7fffu;
    const uint32_t normal = (c << 12) + (112u << 23);
    /* 0x33000000: 2^-25, the subnormal spacing */
    const uint32_t sub = lbm_s16_bits((float)(int32_t)c * lbm_s16_float(0x33000000u));
    uint32_t r = lbm_s16_select(c < 0x800u, sub, normal);
    r = lbm_s16_select(c == LBM_FP16C_NAN, 0x7fc00000u, r);
    return lbm_s16_float(sign | r);
}

/* fp16c through float multiplies by powers of two: the same bits as the conversions above
 * wherever float subnormals are kept (no flush to zero, no denormals-are-zero), which is how the
 * GPU backend compiles its device code (nvcc's default -ftz=false; a fast-math build stops here),
 * in fewer instructions: the decode is 3 integer operations, one multiply and the NaN select
 * instead of 11, the encode saves the subnormal range's own path and its select. The GPU kernels
 * take the device conversions below, built on these with fewer integer instructions still; these
 * stay the portable statement of the method, which test_storage16.c checks on the host. The CPU
 * kernels keep the code above: x86 cores may take a slow assist on every subnormal a multiply
 * makes.
 *
 * Decode: a code's bits moved up by 12 (the sign to bit 31) are the bits of a float whose value is
 * the code's times 2^-112: a normal code's exponent field e (bias 15) becomes the float's (bias
 * 127: 2^(e - 127) = 2^(e - 15) 2^-112), a subnormal code (e = 0) becomes a float subnormal with
 * the same 11 mantissa bits over 2^-126 = 2^-14 2^-112. The multiply by 2^112 is exact.
 *
 * Encode: |x| clamped to the largest finite value (saturation: everything from there up, inf
 * included, gives the largest code), then rounded to the format's spacing by adding and taking
 * away 2^(E + 12), E = max(exponent of |x|, -14): the sum lies in the binade of 2^(E + 12), whose
 * float spacing 2^(E - 11) is the format's at exponent E (the subnormal range's 2^-25 for every
 * E < -14), so the float addition rounds |x| to nearest even at exactly the format's last bit,
 * and the subtraction is exact. The rounded value times 2^-112 is exact (a multiple of 2^-137, at
 * most 2^-111) and has the code's bits above bit 12, as in the decode. */
#if defined(__CUDA_ARCH__) && defined(__USE_FAST_MATH__)
#error "the fp16c device conversions need float subnormals: build without --use_fast_math"
#endif
static inline LBM_S16_HD float lbm_s16_mul_rn(float x, float y)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(x, y);
#else
    return x * y;
#endif
}

#define LBM_FP16C_MAXBITS 0x3fffe000u /* float bits of LBM_FP16C_MAX, 2 - 2^-10 */

static inline LBM_S16_HD float lbm_fp16c_decode_scaled(uint16_t h)
{
    const uint32_t u = h, sign = (u & 0x8000u) << 16;
    /* 0x77800000: 2^112 */
    const float v =
        lbm_s16_mul_rn(lbm_s16_float(sign | ((u & 0x7fffu) << 12)), lbm_s16_float(0x77800000u));
    return lbm_s16_float(
        lbm_s16_select((u & 0x7fffu) == LBM_FP16C_NAN, sign | 0x7fc00000u, lbm_s16_bits(v)));
}

static inline LBM_S16_HD uint16_t lbm_fp16c_encode_scaled(float x)
{
    const uint32_t b = lbm_s16_bits(x), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    const uint32_t ac = a < LBM_FP16C_MAXBITS ? a : LBM_FP16C_MAXBITS;
    const uint32_t ex = ac & 0x7f800000u;
    /* 2^(E + 12): the float exponent field of 2^E plus 12, E at least -14 (field 113) */
    const float m = lbm_s16_float((ex > (113u << 23) ? ex : (113u << 23)) + (12u << 23));
    const float t = lbm_s16_add_rn(lbm_s16_add_rn(lbm_s16_float(ac), m), -m);
    /* 0x07800000: 2^-112 */
    const uint32_t c = lbm_s16_bits(lbm_s16_mul_rn(t, lbm_s16_float(0x07800000u))) >> 12;
    return (uint16_t)(sign | lbm_s16_select(a > 0x7f800000u, LBM_FP16C_NAN, c));
}

/* fp16c in device code: the scaled conversions above with most of their integer instructions moved
 * to float ones, because a GPU kernel that converts 38 values a cell is bound by its integer pipe
 * (half the float pipe's rate on sm_90: H100, H200). Finite values give the same bits as the
 * generic conversions; a NaN code decodes to a NaN (any payload) and a NaN encodes to the sign and
 * the NaN code, as there. They rest on two facts of the hardware, which
 * tests/test_storage16_gpu.cu checks on all 65536 codes and 2^32 floats: float subnormals are kept
 * (as for the scaled ones), and a float operation whose result is NaN returns the canonical NaN,
 * bits 0x7fffffff. The host compiles them too, for tests/test_storage16.c (in CI, which has no
 * GPU): it keeps subnormals, its min.NaN below returns the canonical NaN, and x86's fma and
 * subtraction carry a NaN operand's bits through, so it gives the device's bits for every encode
 * and every finite decode (its NaN from the NaN code has other bits).
 *
 * Decode: the code sign-extended and moved up by 12, masked to bit 31 and bits 12-26 (one integer
 * instruction), is the scaled decode's float; times 2^112 as there. The NaN code (magnitude
 * 0x7fff) becomes +-(2 - 2^-11) there, every finite code at most 2 - 2^-10: times
 * K = 2^127 (1 + 3 2^-13) only the first overflows to inf ((2 - 2^-11) K > 2^128; (2 - 2^-10) K <
 * 2^127 (2 - 2^-12)), and fma(that, 0, v) is v for a finite product (v + (+-0) with the sign of v)
 * and NaN (inf times 0) for the NaN code: two float instructions instead of a compare and a
 * select.
 *
 * Encode: |x| clamped by min.NaN (a NaN stays a NaN, canonical), then the scaled encode's rounding
 * and its multiply by 2^-112 in one fma: m = 2^(E - 100) (the clamped value's exponent field, at
 * least -14's, times 2^-100) lies 2^12 above the binade of |x| 2^-112, so fma(|x|, 2^-112, m) stays
 * in m's binade, whose spacing 2^(E - 123) is the format's at E scaled by 2^-112, and rounds there
 * once, ties to even (m is a power of two); taking m away is exact and leaves the scaled encode's
 * product (subnormal below 2^-126, kept). Its bits moved up 4 put the code's magnitude at bits
 * 16-30 (a canonical NaN's at 0x7fff, the NaN code), bit 31 takes x's sign. The code is the word's
 * high half: a pair of values packs two such halves with one byte permute. */
#define LBM_FP16C_NANTRAP 0x7f000c00u /* float bits of 2^127 (1 + 3 2^-13) */

/* x y + z rounded once */
static inline LBM_S16_HD float lbm_s16_fma_rn(float x, float y, float z)
{
#ifdef __CUDA_ARCH__
    return __fmaf_rn(x, y, z);
#else
    return fmaf(x, y, z);
#endif
}

/* x - y rounded to nearest even, never contracted (as lbm_s16_add_rn) */
static inline LBM_S16_HD float lbm_s16_sub_rn(float x, float y)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(x, y);
#else
    return x - y;
#endif
}

/* min(x, y), the canonical NaN (0x7fffffff) where either is NaN (PTX min.NaN from sm_80; before it
 * and on the host a compare and a select) */
static inline LBM_S16_HD float lbm_s16_min_nan(float x, float y)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    return r;
#else
    return x != x || y != y ? lbm_s16_float(0x7fffffffu) : x < y ? x : y;
#endif
}

/* s: a sign-extended code shifted up by 12 (bits 27-31 the sign); masked to bit 31 and the
 * magnitude's bits 12-26, it is the scaled decode's float. Without the NaN trap ("raw"): every
 * finite code's value, and +-(2 - 2^-11) for the NaN code, larger than any of them. */
static inline LBM_S16_HD float lbm_fp16c_decode_placed_raw(uint32_t s)
{
    return lbm_s16_mul_rn(lbm_s16_float(s & 0x87fff000u), lbm_s16_float(0x77800000u)); /* 2^112 */
}

/* The NaN trap: (probe K) times zero, added to v, is v where probe K is finite and NaN where it
 * overflowed to inf, that is where |probe| is past the largest finite code's value (the NaN
 * code's raw decode is). zero must make that product -0 or a zero of v's sign, so that v, -0
 * included, stays as it is. */
static inline LBM_S16_HD float lbm_fp16c_nan_trap(float v, float probe, float zero)
{
    return lbm_s16_fma_rn(lbm_s16_mul_rn(probe, lbm_s16_float(LBM_FP16C_NANTRAP)), zero, v);
}

/* v, or NaN where v is the NaN code's raw decode (the trap of one value; lbm_fp16c_trap_cell
 * below, the same once a cell): v K times +0 has the sign of v */
static inline LBM_S16_HD float lbm_fp16c_trap_value(float v)
{
    return lbm_fp16c_nan_trap(v, v, 0.0f);
}

static inline LBM_S16_HD float lbm_fp16c_decode_placed(uint32_t s)
{
    return lbm_fp16c_trap_value(lbm_fp16c_decode_placed_raw(s));
}

/* h: the code sign-extended (as a signed 16-bit load gives it, with no instruction of its own) */
static inline LBM_S16_HD float lbm_fp16c_decode_dev(int32_t h)
{
    return lbm_fp16c_decode_placed((uint32_t)h << 12);
}

static inline LBM_S16_HD float lbm_fp16c_decode_dev_raw(int32_t h)
{
    return lbm_fp16c_decode_placed_raw((uint32_t)h << 12);
}

/* The NaN trap once a cell instead of once a value (two float instructions a value; a kernel
 * that decodes a cell's 19 values raw spends 18 maxima and these two instead of 38). mx must be
 * the largest magnitude (>= 0) among all 19 raw decodes of the cell, with nothing added to any of
 * them before the trap: it is past the largest finite value exactly when one of them was the NaN
 * code; then v (the cell's rest value) becomes NaN (and with it the cell's density, so every
 * value the collision makes, as one NaN value makes them), else v unchanged: (mx K) times -0,
 * added to v, is -0 (v + -0 is v for every v, -0 included) for a finite product and NaN for the
 * overflow's inf. */
static inline LBM_S16_HD float lbm_fp16c_trap_cell(float v, float mx)
{
    return lbm_fp16c_nan_trap(v, mx, -0.0f);
}

/* the code of x in the high 16 bits of the result (the low 16 bits are not defined) */
static inline LBM_S16_HD uint32_t lbm_fp16c_encode_dev_hi(float x)
{
    const float ac = lbm_s16_min_nan(fabsf(x), (float)LBM_FP16C_MAX);
    /* 2^E, E the exponent of ac and at least -14 (a NaN's: -14, its sum stays NaN) */
    const float e = lbm_s16_float(lbm_s16_bits(fmaxf(ac, (float)LBM_S16_TINY)) & 0x7f800000u);
    const float m = lbm_s16_mul_rn(e, lbm_s16_float(0x0d800000u)); /* 2^(E - 100) */
    /* ac 2^-112 + m rounded once (fma), then m taken away (exact) */
    const float u = lbm_s16_fma_rn(ac, lbm_s16_float(0x07800000u), m); /* 2^-112 */
    const uint32_t c = lbm_s16_bits(lbm_s16_sub_rn(u, m));
    /* one bitwise select: bits 16-30 from c moved up 4, the rest (the sign) from x */
    return ((c << 4) & 0x7fff0000u) | (lbm_s16_bits(x) & 0x8000ffffu);
}

static inline LBM_S16_HD uint16_t lbm_fp16c_encode_dev(float x)
{
    return (uint16_t)(lbm_fp16c_encode_dev_hi(x) >> 16);
}

#ifdef __CUDACC__
/* the two codes of a word (bits 0-15, 16-31), each sign-extended by an arithmetic shift */
static __device__ __forceinline__ float2 lbm_fp16c_decode_dev2_raw(uint32_t w)
{
    return make_float2(lbm_fp16c_decode_placed_raw((uint32_t)((int32_t)(w << 16) >> 4)),
                       lbm_fp16c_decode_placed_raw((uint32_t)((int32_t)w >> 4)));
}
static __device__ __forceinline__ float2 lbm_fp16c_decode_dev2(uint32_t w)
{
    const float2 r = lbm_fp16c_decode_dev2_raw(w);
    return make_float2(lbm_fp16c_trap_value(r.x), lbm_fp16c_trap_value(r.y));
}
#endif

/* fp16s, portable: the branch-free code above with M = 10 (NaN: quiet, payload kept, as F16C
 * does). Where the build has F16C its scalar conversions stay the default (lbm_fp16s_encode); the
 * CPU kernels take these all the same, because GCC vectorises them and not the scalar F16C calls
 * (cpu/lbm_omp_kernel.h). */
static inline LBM_S16_HD uint16_t lbm_fp16s_encode_portable(float x)
{
    const uint32_t b = lbm_s16_bits(x), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    const uint32_t normal = (a - (112u << 23) + 0xfffu + ((a >> 13) & 1u)) >> 13;
    /* 0x3f000000: 0.5 = 2^(9 - 10) */
    const uint32_t sub = lbm_s16_bits(lbm_s16_add_rn(lbm_s16_float(a), 0.5f)) - 0x3f000000u;
    uint32_t c = lbm_s16_select(a < (113u << 23), sub, normal);
    c = c < 0x7c00u ? c : 0x7c00u;
    c = lbm_s16_select(a > 0x7f800000u, 0x7e00u | ((a >> 13) & 0x3ffu), c);
    return (uint16_t)(sign | c);
}

static inline LBM_S16_HD float lbm_fp16s_decode_portable(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, c = h & 0x7fffu;
    const uint32_t normal = (c << 13) + (112u << 23);
    /* 0x33800000: 2^-24, the subnormal spacing */
    const uint32_t sub = lbm_s16_bits((float)(int32_t)c * lbm_s16_float(0x33800000u));
    /* inf and NaN (c >= 0x7c00): the exponent all ones, the payload kept, a NaN made quiet */
    const uint32_t special = 0x7f800000u | (c << 13) | ((uint32_t)(c > 0x7c00u) << 22);
    uint32_t r = lbm_s16_select(c < 0x400u, sub, normal);
    r = lbm_s16_select(c >= 0x7c00u, special, r);
    return lbm_s16_float(sign | r);
}

/* fp16s as this build converts it: cuda_fp16 on the device, F16C or portable on the host */
static inline LBM_S16_HD uint16_t lbm_fp16s_encode(float x)
{
#ifdef __CUDA_ARCH__
    return __half_as_ushort(__float2half_rn(x));
#elif defined(__F16C__) && !defined(LBM_STORAGE16_PORTABLE)
    return (uint16_t)_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT); /* nearest even, not MXCSR's mode */
#else
    return lbm_fp16s_encode_portable(x);
#endif
}

static inline LBM_S16_HD float lbm_fp16s_decode(uint16_t h)
{
#ifdef __CUDA_ARCH__
    return __half2float(__ushort_as_half(h));
#elif defined(__F16C__) && !defined(LBM_STORAGE16_PORTABLE)
    return _cvtsh_ss(h);
#else
    return lbm_fp16s_decode_portable(h);
#endif
}

/* The tolerance of a 16-bit lattice against lbm/reference.c: a bound on |f - f_ref| per value
 * (absolute, lattice units; w is exact in both, so it bounds the error in g as well) after
 * `updates` updates, for a format of unit roundoff u (LBM_FP16S_U, LBM_FP16C_U) when every stored
 * |g| stays <= g_max (the reference run's largest, or a bound such as the header's).
 *   One store rounds g with absolute error <= u max(|g|, 2^-14) <= u max(g_max, 2^-14) (below
 *   2^-14 the spacing is fixed at 2 u 2^-14). The 32-bit arithmetic adds far less: the update's
 *   longest sum has 19 terms of magnitude <= g_max, off by <= 18 * 2^-24 * 19 g_max (Higham 2002,
 *   section 4.2), and the collision's other operations fewer, so 2 * 342 * 2^-24 g_max covers it.
 *   Accumulation: streaming and bounce-back move values without changing them and a collision
 *   with rates in (0, 2) damps the non-conserved part of an error and keeps the conserved part, so
 *   the errors of N updates add up at most linearly: N times the per-update error. The collision
 *   also redistributes a cell's errors over its 19 values (the rest population's equilibrium
 *   takes 1/3 of the sum of all 19): a value can collect more than its own share, and a worst case
 *   in the max norm grows geometrically, never seen with rounding errors of either sign. The
 *   safety factor K = 4 (about sqrt(19), the spread of 19 independent errors) covers it; the
 *   emulated runs of tests/lbm_accuracy.c --check stay below the bound on every geometry and
 *   collision. */
#define LBM_S16_SAFETY 4.0
static inline double lbm_storage16_tolerance(double u, double g_max, int updates)
{
    const double store = u * (g_max > LBM_S16_TINY ? g_max : LBM_S16_TINY);
    const double arith = 2.0 * 342.0 * g_max / 16777216.0; /* 2^-24 */
    return LBM_S16_SAFETY * (double)updates * (store + arith);
}

#endif
