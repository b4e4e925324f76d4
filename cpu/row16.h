/* row16.h: the CPU kernels' block conversions of the 16-bit lattices: ROW16_W values of one
 * direction between the lattice and a float block, which the row loop then collides as sp. The
 * same bits as storage16.h's element-wise conversions (tests/test_storage16.c compares them on
 * every code and on the floats it compares those with); chosen at build time, no dispatch:
 *   fp16s: F16C's (or AVX-512F's) vector conversion, one instruction per 8 or 16 values;
 *   fp16c: storage16.h's branch-free code written in AVX-512F vectors, 16 values per instruction,
 *          10 instructions a block to decode and 16 to encode; GCC (12) vectorises the element-wise
 *          code itself only on 256-bit halves with their widening and narrowing, about 45 and 60
 *          instructions a block, which left aa fp16c at a third of fp16s's rate;
 *   without them the element-wise loop (ROW16_FP16S_HW, ROW16_FP16C_VEC say which).
 * Where the block's codes are a 256-bit register (ROW16_FP16S_H, ROW16_FP16C_H: AVX-512F), the
 * conversions take and give that register too, for the masked partial blocks below. */
#ifndef LBM_ROW16_H
#define LBM_ROW16_H

#include <stdint.h>

#include "storage16.h"

#define ROW16_W 16 /* cells of one direction in a block */

/* a format's block conversions element by element through storage16.h's DEC_ and ENC_ */
#define ROW16_ELEMENTWISE_(fmt, DEC_, ENC_)                                                        \
    static inline void row16_##fmt##_decode(float *restrict out, const uint16_t *restrict in)      \
    {                                                                                              \
        for (int k = 0; k < ROW16_W; k++)                                                          \
            out[k] = DEC_(in[k]);                                                                  \
    }                                                                                              \
    static inline void row16_##fmt##_encode(uint16_t *restrict out, const float *restrict in)      \
    {                                                                                              \
        for (int k = 0; k < ROW16_W; k++)                                                          \
            out[k] = ENC_(in[k]);                                                                  \
    }

#if (defined(__F16C__) || defined(__AVX512F__)) && !defined(LBM_STORAGE16_PORTABLE)
#include <immintrin.h>
#endif

#if defined(__F16C__) && !defined(LBM_STORAGE16_PORTABLE)
#define ROW16_FP16S_HW 1
/* nearest even whatever MXCSR says, and no floating-point exceptions raised */
#define ROW16_RN_ (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#if defined(__AVX512F__)
#define ROW16_FP16S_H 1
/* a block's 16 codes in a register to floats, and floats to codes in a register */
static inline void row16_fp16s_decode_h(float *restrict out, __m256i h)
{
    _mm512_storeu_ps(out, _mm512_cvtph_ps(h));
}
static inline __m256i row16_fp16s_encode_h(const float *restrict in)
{
    return _mm512_cvtps_ph(_mm512_loadu_ps(in), ROW16_RN_);
}
static inline void row16_fp16s_decode(float *restrict out, const uint16_t *restrict in)
{
    row16_fp16s_decode_h(out, _mm256_loadu_si256((const __m256i *)in));
}
static inline void row16_fp16s_encode(uint16_t *restrict out, const float *restrict in)
{
    _mm256_storeu_si256((__m256i *)out, row16_fp16s_encode_h(in));
}
#else
#define ROW16_FP16S_H 0
static inline void row16_fp16s_decode(float *restrict out, const uint16_t *restrict in)
{
    _mm256_storeu_ps(out, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)in)));
    _mm256_storeu_ps(out + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + 8))));
}
static inline void row16_fp16s_encode(uint16_t *restrict out, const float *restrict in)
{
    _mm_storeu_si128((__m128i *)out, _mm256_cvtps_ph(_mm256_loadu_ps(in), ROW16_RN_));
    _mm_storeu_si128((__m128i *)(out + 8), _mm256_cvtps_ph(_mm256_loadu_ps(in + 8), ROW16_RN_));
}
#endif
#else
#define ROW16_FP16S_H 0
#define ROW16_FP16S_HW 0
ROW16_ELEMENTWISE_(fp16s, lbm_fp16s_decode_portable, lbm_fp16s_encode_portable)
#endif

#if defined(__AVX512F__) && !defined(LBM_STORAGE16_PORTABLE)
#define ROW16_FP16C_VEC 1
/* lbm_fp16c_decode on 16 lanes (storage16.h derives each step): the codes sign-extended, so that
 * bit 31 is the sign; a normal code's bits moved up by 12 and rebiased; a subnormal code (the
 * exponent field 0) becomes under the same rule 2^-15 (1 + c 2^-11), and its value c 2^-25 is twice
 * that less 2^-14 (exact: Sterbenz), in the same lanes by a masked fused multiply-subtract; the NaN
 * code's quiet NaN; the sign */
#define ROW16_FP16C_H 1
static inline void row16_fp16c_decode_h(float *restrict out, __m256i codes)
{
    const __m512i h = _mm512_cvtepi16_epi32(codes);
    const __m512i c = _mm512_and_si512(h, _mm512_set1_epi32(0x7fff));
    const __m512 d = _mm512_castsi512_ps(
        _mm512_add_epi32(_mm512_slli_epi32(c, 12), _mm512_set1_epi32(112 << 23)));
    const __m512 v = _mm512_mask_fmsub_ps(d, _mm512_cmplt_epu32_mask(c, _mm512_set1_epi32(0x800)),
                                          _mm512_set1_ps(2.0f), _mm512_set1_ps(0x1p-14f));
    const __m512i r = _mm512_mask_mov_epi32(
        _mm512_castps_si512(v), _mm512_cmpeq_epi32_mask(c, _mm512_set1_epi32(LBM_FP16C_NAN)),
        _mm512_set1_epi32(0x7fc00000));
    /* (h & sign bit) | r: ternary-logic table 0xea is (A & B) | C */
    _mm512_storeu_ps(out, _mm512_castsi512_ps(_mm512_ternarylogic_epi32(
                              h, _mm512_set1_epi32((int)0x80000000u), r, 0xea)));
}
/* lbm_fp16c_encode on 16 lanes: the normal range rebiased, rounded to nearest even and shifted;
 * the subnormal range (its lanes by a masked subtraction) by the float addition of 0.25
 * (storage16.h: rounded in that add, here in its embedded nearest-even mode, as the scalar code in
 * the default mode); saturation, NaN, sign */
static inline __m256i row16_fp16c_encode_h(const float *restrict in)
{
    const __m512i b = _mm512_castps_si512(_mm512_loadu_ps(in));
    const __m512i a = _mm512_and_si512(b, _mm512_set1_epi32(0x7fffffff));
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(a, 12), _mm512_set1_epi32(1));
    /* a - (112 << 23) + 0x7ff + odd, modulo 2^32 as the scalar code's unsigned arithmetic */
    const __m512i normal = _mm512_srli_epi32(
        _mm512_add_epi32(_mm512_add_epi32(a, _mm512_set1_epi32((int)(0x7ffu - (112u << 23)))), odd),
        12);
    const __m512 s = _mm512_add_round_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(0.25f),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512i c =
        _mm512_mask_sub_epi32(normal, _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(113 << 23)),
                              _mm512_castps_si512(s), _mm512_set1_epi32(0x3e800000));
    c = _mm512_min_epu32(c, _mm512_set1_epi32(LBM_FP16C_MAXCODE));
    c = _mm512_mask_mov_epi32(c, _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7f800000)),
                              _mm512_set1_epi32(LBM_FP16C_NAN));
    /* (b >> 16 & 0x8000) | c */
    c = _mm512_ternarylogic_epi32(_mm512_srli_epi32(b, 16), _mm512_set1_epi32(0x8000), c, 0xea);
    return _mm512_cvtepi32_epi16(c);
}
static inline void row16_fp16c_decode(float *restrict out, const uint16_t *restrict in)
{
    row16_fp16c_decode_h(out, _mm256_loadu_si256((const __m256i *)in));
}
static inline void row16_fp16c_encode(uint16_t *restrict out, const float *restrict in)
{
    _mm256_storeu_si256((__m256i *)out, row16_fp16c_encode_h(in));
}
#else
#define ROW16_FP16C_VEC 0
#define ROW16_FP16C_H 0
ROW16_ELEMENTWISE_(fp16c, lbm_fp16c_decode, lbm_fp16c_encode)
#endif

/* ROW16_MASKED: a block's first r < ROW16_W codes load and store under a lane mask (AVX-512BW/VL),
 * the other lanes read as zero and left unwritten: the zero-filled copies of the kernels' partial
 * blocks in two instructions, where the copies were a library call each (38 a partial block) */
#if defined(__AVX512BW__) && defined(__AVX512VL__) && !defined(LBM_STORAGE16_PORTABLE)
#define ROW16_MASKED 1
static inline __m256i row16_load_part(const uint16_t *in, long r)
{
    return _mm256_maskz_loadu_epi16((__mmask16)((1u << r) - 1u), in);
}
static inline void row16_store_part(uint16_t *out, __m256i h, long r)
{
    _mm256_mask_storeu_epi16(out, (__mmask16)((1u << r) - 1u), h);
}
#else
#define ROW16_MASKED 0
#endif

#endif
