/* test_storage16.c: the 16-bit storage formats of lbm/model/storage16.h against values computed
 * here in double, not against the functions themselves: every code decodes to its value and
 * encodes back to itself; every positive float up to the largest finite value encodes to the
 * nearest code (ties to the even code); overflow, saturation, NaN and signs; fp16c's relative
 * error at most its unit roundoff; in an F16C build, the hardware conversions equal the portable
 * code on every code, every float of the range and 10^7 random bit patterns; and the branch-free
 * conversions (fp16c, fp16s portable, fp16c by multiplies, the GPU kernels' fp16c) and the CPU
 * kernels' block conversions of both formats (cpu/row16.h: F16C and AVX-512F where the build has
 * them) equal the generic ones bit for bit on every code, a third of the floats in [-4, 4] with
 * every tie, the special values and a strided sample of the rest (with --all: every one of the 2^32
 * floats, by hand, about two minutes; on the GPU itself test_storage16_gpu.cu compares every
 * float). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "row16.h"
#include "storage16.h"

struct format {
    const char *name;
    int man, bias;
    uint32_t maxcode; /* largest finite magnitude code */
    double beyond;    /* where the next code would lie (the rounding boundary of maxcode) */
    uint16_t (*encode)(float);
    float (*decode)(uint16_t);
};

/* the value of a finite magnitude code, from the format's definition */
static double code_value(const struct format *f, uint32_t c)
{
    uint32_t e = c >> f->man, m = c & ((1u << f->man) - 1u);
    if (e == 0) return ldexp((double)m, 1 - f->bias - f->man);
    return ldexp((double)((1u << f->man) + m), (int)e - f->bias - f->man);
}

static float float_of(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static int reported;
static void report(const char *what, const struct format *f, float x, unsigned got, unsigned want)
{
    if (reported++ < 8)
        fprintf(stderr, "  %s %s: x = %.9g (0x%08x): got 0x%04x, want 0x%04x\n", f->name, what, x,
                bits_of(x), got, want);
}

/* Every finite code: decode equals the defined value, encode gives the code back (both signs). */
static void check_codes(const struct format *f)
{
    for (uint32_t c = 0; c <= f->maxcode; c++) {
        for (uint32_t s = 0; s <= 0x8000u; s += 0x8000u) {
            const double want = s ? -code_value(f, c) : code_value(f, c);
            const float x = f->decode((uint16_t)(s | c));
            const int ok = (double)x == want && !signbit(x) == !s; /* -0 too */
            if (!ok) report("decode", f, x, f->encode(x), s | c);
            CHECK(ok);
            if (f->encode(x) != (s | c)) report("round trip", f, x, f->encode(x), s | c);
            CHECK(f->encode(x) == (s | c));
        }
    }
}

/* Every positive float from 0 to the largest finite value, in increasing order (their bit
 * patterns are), against the nearest of the two codes around it. Returns the largest relative
 * error of decode(encode(x)) over the normal range. */
static double check_rounding(const struct format *f)
{
    static double v[1u << 15];
    const double vmax = code_value(f, f->maxcode);
    double worst = 0;
    uint32_t c = 0;
    long bad = 0;
    for (uint32_t k = 0; k <= f->maxcode; k++)
        v[k] = code_value(f, k);
    for (uint32_t b = 0;; b++) {
        const float x = float_of(b);
        uint32_t want, got;
        if ((double)x > vmax) break;
        while (c < f->maxcode && v[c + 1] <= (double)x)
            c++;
        if ((double)x == v[c]) {
            want = c;
        } else {
            const double lo = (double)x - v[c], hi = v[c + 1] - (double)x;
            want = lo < hi ? c : lo > hi ? c + 1 : c + (c & 1u);
        }
        got = f->encode(x);
        if (got != want) {
            report("rounding", f, x, got, want);
            bad++;
        }
        if ((double)x >= LBM_S16_TINY)
            worst = fmax(worst, fabs((double)f->decode((uint16_t)got) - x) / x);
    }
    CHECK(bad == 0); /* once: a broken rounding would print a line per float */
    return worst;
}

/* Past the largest finite value: floats up to the rounding boundary go down to it, the rest
 * (every float of the next two binades, then the largest float and inf) to `over`. */
static void check_overflow(const struct format *f, uint32_t over)
{
    const double vmax = code_value(f, f->maxcode);
    const double mid = (vmax + f->beyond) / 2; /* ties go to the even code: maxcode is even */
    long bad = 0;
    for (uint32_t b = bits_of((float)vmax) + 1; float_of(b) < 4 * f->beyond; b++) {
        const float x = float_of(b);
        const uint32_t want = (double)x < mid ? f->maxcode : over, got = f->encode(x);
        if (got != want) {
            report("overflow", f, x, got, want);
            bad++;
        }
    }
    CHECK(bad == 0);
    CHECK(f->encode(3.4028235e38f) == over);
    CHECK(f->encode(INFINITY) == over);
    CHECK(f->encode(-INFINITY) == (0x8000u | over));
    CHECK(isnan(f->decode(f->encode(NAN))));
    CHECK(isnan(f->decode(f->encode(-NAN))));
}

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The build's fp16s conversion (F16C here) against the portable code, bit for bit, where the
 * checks above do not reach: every code's decode, NaNs included, and the encode of 10^7 random
 * bit patterns (both signs, NaNs, infinities, the whole exponent range). Both were checked
 * against the reference on every float of the range already. */
static void check_hardware_path(void)
{
    uint64_t s = 0x243F6A8885A308D3ull; /* the digits of pi: any start will do */
    long bad = 0;
    for (uint32_t c = 0; c <= 0xffffu; c++)
        bad += bits_of(lbm_fp16s_decode((uint16_t)c)) !=
               bits_of(lbm_fp16s_decode_portable((uint16_t)c));
    for (long i = 0; i < 10000000; i++) {
        const float x = float_of((uint32_t)next_random(&s));
        bad += lbm_fp16s_encode(x) != lbm_fp16s_encode_portable(x);
    }
    if (bad) fprintf(stderr, "  fp16s: %ld conversions differ between f16c and portable\n", bad);
    CHECK(bad == 0);
}

/* A conversion under test: element-wise (enc, dec) or a block of ROW16_W values at once (the CPU
 * kernels' cpu/row16.h: benc, bdec); the checks below feed both in blocks. */
struct conv {
    const char *name;
    uint16_t (*enc)(float);
    float (*dec)(uint16_t);
    void (*benc)(uint16_t *restrict, const float *restrict);
    void (*bdec)(float *restrict, const uint16_t *restrict);
};

static void conv_encode(const struct conv *v, uint16_t *out, const float *in)
{
    if (v->benc)
        v->benc(out, in);
    else
        for (int k = 0; k < ROW16_W; k++)
            out[k] = v->enc(in[k]);
}

static void conv_decode(const struct conv *v, float *out, const uint16_t *in)
{
    if (v->bdec)
        v->bdec(out, in);
    else
        for (int k = 0; k < ROW16_W; k++)
            out[k] = v->dec(in[k]);
}

/* the floats an encode check takes, gathered into blocks: each full block encoded and its lanes
 * compared with the reference (flush: the last, partial block, its other lanes zero) */
struct enc_batch {
    const struct conv *v;
    uint16_t (*ref)(float);
    float in[ROW16_W];
    int n, shown;
    long bad, count;
};

static void batch_flush(struct enc_batch *e)
{
    uint16_t got[ROW16_W];
    for (int k = e->n; k < ROW16_W; k++)
        e->in[k] = 0.0f;
    conv_encode(e->v, got, e->in);
    for (int k = 0; k < e->n; k++) {
        const uint16_t want = e->ref(e->in[k]);
        e->count++;
        if (got[k] != want) {
            if (e->shown++ < 6)
                fprintf(stderr, "  %s: encode 0x%08x: 0x%04x, generic 0x%04x\n", e->v->name,
                        bits_of(e->in[k]), got[k], want);
            e->bad++;
        }
    }
    e->n = 0;
}

static void batch_add(struct enc_batch *e, float x)
{
    e->in[e->n++] = x;
    if (e->n == ROW16_W) batch_flush(e);
}

/* The branch-free conversions against the generic ones (storage16.h keeps those as this
 * reference): decode of all 65536 codes (NaN codes by their bits), encode of every float whose
 * magnitude is at most 4 (the lattices' whole range, fp16c's overflow and fp16s's first binades
 * above it) in a stride of 3 bit patterns with every normal-range tie and its two neighbours, the
 * special values, and every 997th bit pattern above 4 up to the NaNs; with `all` every float (all
 * 2^32 were compared once by hand: 0 differ). The stride keeps the test to about a minute in the
 * sanitizer build (five conversions checked). Returns the number of differences (the first few
 * printed). */
static long check_branch_free(const struct conv *v, uint16_t (*enc_ref)(float),
                              float (*dec_ref)(uint16_t), int all)
{
    static const float special[] = {0.0f,          -0.0f,     INFINITY,        -INFINITY,
                                    NAN,           -NAN,      3.4028235e38f,   -3.4028235e38f,
                                    1.4e-45f,      -1.4e-45f, 1.17549435e-38f, 6.1035156e-05f,
                                    6.1035152e-05f};
    const uint32_t four = bits_of(4.0f),
                   nan_bits[] = {0x7f800001u, 0x7fc00000u, 0x7fffffffu, 0x7fa5a5a5u, 0x7f802000u};
    struct enc_batch e = {.v = v, .ref = enc_ref};
    long bad = 0, n = 0;
    int shown = 0;
    for (uint32_t c0 = 0; c0 <= 0xffffu; c0 += ROW16_W) {
        uint16_t codes[ROW16_W];
        float got[ROW16_W];
        for (int k = 0; k < ROW16_W; k++)
            codes[k] = (uint16_t)(c0 + (uint32_t)k);
        conv_decode(v, got, codes);
        for (int k = 0; k < ROW16_W; k++) {
            const uint32_t g = bits_of(got[k]), want = bits_of(dec_ref(codes[k]));
            n++;
            if (g != want) {
                if (shown++ < 6)
                    fprintf(stderr, "  %s: decode 0x%04x: 0x%08x, generic 0x%08x\n", v->name,
                            codes[k], g, want);
                bad++;
            }
        }
    }
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        batch_add(&e, special[i]);
    for (size_t i = 0; i < sizeof nan_bits / sizeof nan_bits[0]; i++)
        for (uint32_t s = 0; s <= 1; s++)
            batch_add(&e, float_of(nan_bits[i] | s << 31));
    for (uint32_t s = 0; s <= 1; s++) {
        for (uint64_t a = 0; a <= 0x7fffffffu; a += all ? 1 : a < four ? 3 : 997)
            batch_add(&e, float_of((uint32_t)a | s << 31));
        /* the normal range's ties of both formats (dropped bits exactly a half: 12 of fp16c's,
         * 13 of fp16s's) and their neighbours, every one that the stride of 3 skips */
        for (uint64_t a = 0x800; !all && a < four; a += 0x1000)
            for (uint64_t d = a - 1; d <= a + 1; d++)
                batch_add(&e, float_of((uint32_t)d | s << 31));
    }
    batch_flush(&e);
    fprintf(stderr, "%s against generic: %ld conversions compared%s, %ld differ\n", v->name,
            n + e.count, all ? " (every float)" : "", bad + e.bad);
    return bad + e.bad;
}

/* the GPU kernels' fp16c decode as the comparison takes it: its NaN code decodes to a NaN of its
 * own bits (any NaN is the contract), given here as generic's; any other NaN stays and differs */
static float fp16c_dev_decode(uint16_t h)
{
    const float v = lbm_fp16c_decode_dev((int16_t)h);
    return isnan(v) && (h & 0x7fffu) == LBM_FP16C_NAN ? lbm_fp16c_decode_generic(h) : v;
}

/* The GPU kernels' cell trap (storage16.h): the raw decode is the device decode for every finite
 * code and past the largest finite value for the NaN code; the trap leaves a value's bits alone
 * (-0 included) while the cell's largest raw magnitude is finite-coded, and makes it NaN once it
 * is the NaN code's. Returns the count of failures. */
static long check_cell_trap(void)
{
    long bad = 0;
    const float nan_raw = lbm_fp16c_decode_dev_raw((int16_t)LBM_FP16C_NAN);
    const float probes[] = {0.0f, -0.0f, 1e-30f, 0.5f, -1.25f, (float)LBM_FP16C_MAX};
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        const float raw = lbm_fp16c_decode_dev_raw((int16_t)h);
        if ((h & 0x7fffu) == LBM_FP16C_NAN)
            bad += !(fabsf(raw) > (float)LBM_FP16C_MAX) || isnan(raw);
        else
            bad += bits_of(raw) != bits_of(lbm_fp16c_decode_dev((int16_t)h));
    }
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        for (uint32_t k = 0; k <= 256; k++) {
            /* codes across the range, and -0 (0x8000) */
            const uint32_t h = k < 256 ? k * 0x101u : 0x8000u;
            const float v = lbm_fp16c_decode_dev((int16_t)h), mx = fabsf(probes[i]);
            if (isnan(v)) continue;
            bad += bits_of(lbm_fp16c_trap_cell(v, mx)) != bits_of(v);
            bad += !isnan(lbm_fp16c_trap_cell(v, nan_raw));
        }
    }
    fprintf(stderr, "fp16c cell trap (raw decode, trap): %ld failures\n", bad);
    return bad;
}

int main(int argc, char **argv)
{
    const int all = argc > 1 && !strcmp(argv[1], "--all");
    const struct format fp16s = {"fp16s",         10, 15, 0x7bffu, 65536.0, lbm_fp16s_encode,
                                 lbm_fp16s_decode};
    const struct format fp16c = {"fp16c",         11, 15, LBM_FP16C_MAXCODE, 2.0, lbm_fp16c_encode,
                                 lbm_fp16c_decode};
    double e;

    /* the header's constants are the formats' own */
    CHECK(code_value(&fp16s, fp16s.maxcode) == LBM_FP16S_MAX);
    CHECK(code_value(&fp16c, fp16c.maxcode) == LBM_FP16C_MAX);
    CHECK(code_value(&fp16s, 1u << 10) == LBM_S16_TINY);
    CHECK(code_value(&fp16c, 1u << 11) == LBM_S16_TINY);

    check_codes(&fp16s);
    check_codes(&fp16c);
    e = check_rounding(&fp16s);
    fprintf(stderr, "fp16s: max relative error over [2^-14, max] %.6g (u = %.6g)\n", e,
            LBM_FP16S_U);
    CHECK(e <= LBM_FP16S_U && e > LBM_FP16S_U / 2);
    if (strcmp(LBM_FP16S_HOST_PATH, "portable")) { /* the portable code on its own as well */
        const struct format p = {
            "fp16s portable",         10, 15, 0x7bffu, 65536.0, lbm_fp16s_encode_portable,
            lbm_fp16s_decode_portable};
        check_codes(&p);
        CHECK(check_rounding(&p) <= LBM_FP16S_U);
        check_overflow(&p, 0x7c00u);
    }
    e = check_rounding(&fp16c);
    fprintf(stderr, "fp16c: max relative error over [2^-14, max] %.6g (u = %.6g)\n", e,
            LBM_FP16C_U);
    CHECK(e <= LBM_FP16C_U && e > LBM_FP16C_U / 2);

    check_overflow(&fp16s, 0x7c00u);           /* IEEE: overflow to inf */
    check_overflow(&fp16c, LBM_FP16C_MAXCODE); /* saturation */
    CHECK(isinf(lbm_fp16s_decode(0x7c00u)) && lbm_fp16s_decode(0xfc00u) < 0);
    CHECK(lbm_fp16c_decode((uint16_t)(0x8000u | LBM_FP16C_MAXCODE)) == -LBM_FP16C_MAX);
    /* NaN stays NaN, so lbm_check's non-finite count sees a broken 16-bit lattice */
    CHECK(lbm_fp16c_encode(NAN) == LBM_FP16C_NAN && isnan(lbm_fp16c_decode(LBM_FP16C_NAN)));
    CHECK(lbm_fp16s_encode_portable(NAN) >= 0x7e00u && isnan(lbm_fp16s_decode_portable(0x7e00u)));

    /* the tolerance grows with the updates and the magnitudes, and never falls below what one
     * rounding of the smallest normal costs */
    CHECK(lbm_storage16_tolerance(LBM_FP16S_U, 0.01, 10) ==
          10 * lbm_storage16_tolerance(LBM_FP16S_U, 0.01, 1));
    CHECK(lbm_storage16_tolerance(LBM_FP16C_U, 0.01, 1) <
          lbm_storage16_tolerance(LBM_FP16S_U, 0.01, 1));
    CHECK(lbm_storage16_tolerance(LBM_FP16S_U, 0, 1) >= LBM_FP16S_U * LBM_S16_TINY);

    fprintf(stderr, "fp16s host conversion: %s\n", LBM_FP16S_HOST_PATH);
    if (strcmp(LBM_FP16S_HOST_PATH, "portable"))
        check_hardware_path();
    else
        fprintf(stderr, "  (no F16C in this build: the hardware comparison did not run)\n");
    {
        const struct conv
            fp16c_bf = {"fp16c branch-free", lbm_fp16c_encode, lbm_fp16c_decode, 0, 0},
            fp16s_bf = {"fp16s portable branch-free", lbm_fp16s_encode_portable,
                        lbm_fp16s_decode_portable, 0, 0},
            /* fp16c by float multiplies, the method of the GPU kernels' conversions
             * (exact here, where the host keeps float subnormals as the device does) */
            fp16c_scaled = {"fp16c scaled", lbm_fp16c_encode_scaled, lbm_fp16c_decode_scaled, 0, 0},
            /* the GPU kernels' fp16c conversions, compiled for this host */
            fp16c_dev = {"fp16c device", lbm_fp16c_encode_dev, fp16c_dev_decode, 0, 0},
            /* the CPU kernels' block conversions (vector code where this build has
             * it: ROW16_FP16S_HW, ROW16_FP16C_VEC) */
            fp16c_blocks = {"fp16c blocks", 0, 0, row16_fp16c_encode, row16_fp16c_decode},
            fp16s_blocks = {"fp16s blocks", 0, 0, row16_fp16s_encode, row16_fp16s_decode};
        CHECK(check_branch_free(&fp16c_bf, lbm_fp16c_encode_generic, lbm_fp16c_decode_generic,
                                all) == 0);
        CHECK(check_branch_free(&fp16s_bf, lbm_fp16s_encode_generic, lbm_fp16s_decode_generic,
                                all) == 0);
        CHECK(check_branch_free(&fp16c_scaled, lbm_fp16c_encode_generic, lbm_fp16c_decode_generic,
                                all) == 0);
        CHECK(check_branch_free(&fp16c_dev, lbm_fp16c_encode_generic, lbm_fp16c_decode_generic,
                                all) == 0);
        CHECK(check_cell_trap() == 0);
        fprintf(stderr, "block conversions: fp16s %s, fp16c %s\n",
                ROW16_FP16S_HW ? "hardware" : "element-wise",
                ROW16_FP16C_VEC ? "AVX-512F" : "element-wise");
        CHECK(check_branch_free(&fp16c_blocks, lbm_fp16c_encode_generic, lbm_fp16c_decode_generic,
                                all) == 0);
        CHECK(check_branch_free(&fp16s_blocks, lbm_fp16s_encode_generic, lbm_fp16s_decode_generic,
                                all) == 0);
    }
    return check_report("test_storage16");
}
