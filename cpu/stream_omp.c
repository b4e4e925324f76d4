/* stream_omp.c: the OpenMP STREAM backend. Arrays live in one huge-page-advised allocation laid
 * out by stream_layout (each destination at its source's page offset, the 19 pairs of copy19
 * staggered); first touch, kernels and the check all use cpu_chunk's static partition. Copies
 * move 4-byte words: the instructions are the same for either precision, only the check looks at
 * values. STREAM's arithmetic kernels, load and store work on the precision's own type. */
#define _GNU_SOURCE
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_copy.h"
#include "cpu_marker.h"
#include "cpu_util.h"
#include "progress.h"
#include "stream.h"
#include "stream_values.h"
#include "sysinfo.h"

const char stream_backend_name[] = "cpu";

#define GRAIN 64         /* partition unit in elements: whole cache lines per thread */
#define STAGGER 192      /* bytes between the page offsets of consecutive array pairs */
#define BLOCK_BYTES 8192 /* copy19: bytes of each array copied before moving to the next */
#define MAX_THREADS 1024 /* load: one partial sum slot per thread */

struct stream_arrays {
    struct stream_case c;
    char region[32]; /* likwid marker region: stream_<kernel> */
    size_t esize;
    int nsrc, ndst;
    char *base;
    char *src[19], *dst[19];
    double partial[MAX_THREADS]; /* load: each thread's sum of its chunk */
    double sum;                  /* load: the last run's sum, for the check */
    long passes;                 /* runs of the kernel so far (update's check) */
};

int stream_backend_open(struct stream_device *d, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    cpu_device_facts(&d->dev);
    cpu_marker_setup();
    d->default_bytes = cpu_default_bytes(d->default_why, sizeof d->default_why);
    return 0;
}

int stream_kernel_supported(enum stream_kernel k, char *why, size_t whylen)
{
    if (k == STREAM_MEMCPY) {
        snprintf(why, whylen,
                 "memcpy is stream-gpu's reference row (cudaMemcpy); stream-cpu "
                 "runs every other kernel");
        return 1;
    }
    if (stream_kernel_nt(k) == 1 && CPU_NT_WIDTH == 0) {
        snprintf(why, whylen,
                 "this build has no non-temporal store instructions (needs x86 "
                 "with SSE2 or newer); use the kernel without _nt");
        return 1;
    }
    return 0;
}

int stream_write_allocates(enum stream_kernel k)
{
    return stream_kernel_nt(k) == 0 && stream_kernel_in_place(k) == 0;
}

size_t stream_memory_available(void)
{
    return sysinfo_mem_available();
}

/* STREAM's kernels, load and store over elements [0, n) of one thread's chunk, in the
 * precision's own type. restrict: the arrays never overlap (stream_layout). */
static void scale_f(float *restrict d, const float *restrict x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = (float)STREAM_Q * x[i];
}
static void scale_d(double *restrict d, const double *restrict x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = STREAM_Q * x[i];
}
static void add_f(float *restrict d, const float *restrict x, const float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = x[i] + y[i];
}
static void add_d(double *restrict d, const double *restrict x, const double *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = x[i] + y[i];
}
static void triad_f(float *restrict d, const float *restrict x, const float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = x[i] + (float)STREAM_Q * y[i];
}
static void triad_d(double *restrict d, const double *restrict x, const double *restrict y,
                    size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = x[i] + STREAM_Q * y[i];
}
static void store_f(float *restrict d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = (float)STREAM_STORE_VALUE;
}
static void store_d(double *restrict d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = STREAM_STORE_VALUE;
}
/* update: the one array scaled in place; ordinary stores into the lines just loaded */
static void update_f(float *restrict d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = (float)STREAM_UPDATE_Q * d[i];
}
static void update_d(double *restrict d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = STREAM_UPDATE_Q * d[i];
}
/* Sums in double in either precision: exact for our data (stream_values.h), so any order the
 * vectoriser picks (simd reduction) gives the same bits. The caller stores the sum where the
 * check reads it, so the loads cannot be dropped. */
static double load_f(const float *restrict x, size_t n)
{
    double s = 0;
#pragma omp simd reduction(+ : s)
    for (size_t i = 0; i < n; i++)
        s += (double)x[i];
    return s;
}
static double load_d(const double *restrict x, size_t n)
{
    double s = 0;
#pragma omp simd reduction(+ : s)
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

#if CPU_NT_WIDTH > 0
/* triad and store with non-temporal stores: elements up to the first CPU_NT_WIDTH-aligned
 * destination and the ragged end go through ordinary stores, the body through CPU_NT_STORE of one
 * vector (GCC's vector extension: the compiler keeps it in a register). */
typedef float nt_vf __attribute__((vector_size(CPU_NT_WIDTH)));
typedef double nt_vd __attribute__((vector_size(CPU_NT_WIDTH)));
#define NT_LANES_F (CPU_NT_WIDTH / 4)
#define NT_LANES_D (CPU_NT_WIDTH / 8)
static void triad_nt_f(float *restrict d, const float *restrict x, const float *restrict y,
                       size_t n)
{
    size_t i = 0;
    for (; i < n && (uintptr_t)(d + i) % CPU_NT_WIDTH; i++)
        d[i] = x[i] + (float)STREAM_Q * y[i];
    for (; i + NT_LANES_F <= n; i += NT_LANES_F) {
        nt_vf vx, vy, r;
        memcpy(&vx, x + i, sizeof vx);
        memcpy(&vy, y + i, sizeof vy);
        r = vx + (float)STREAM_Q * vy;
        CPU_NT_STORE(d + i, &r);
    }
    triad_f(d + i, x + i, y + i, n - i);
}
static void triad_nt_d(double *restrict d, const double *restrict x, const double *restrict y,
                       size_t n)
{
    size_t i = 0;
    for (; i < n && (uintptr_t)(d + i) % CPU_NT_WIDTH; i++)
        d[i] = x[i] + STREAM_Q * y[i];
    for (; i + NT_LANES_D <= n; i += NT_LANES_D) {
        nt_vd vx, vy, r;
        memcpy(&vx, x + i, sizeof vx);
        memcpy(&vy, y + i, sizeof vy);
        r = vx + STREAM_Q * vy;
        CPU_NT_STORE(d + i, &r);
    }
    triad_d(d + i, x + i, y + i, n - i);
}
static void store_nt_f(float *restrict d, size_t n)
{
    size_t i = 0;
    const nt_vf v = (float)STREAM_STORE_VALUE - (nt_vf){0}; /* broadcast */
    for (; i < n && (uintptr_t)(d + i) % CPU_NT_WIDTH; i++)
        d[i] = (float)STREAM_STORE_VALUE;
    for (; i + NT_LANES_F <= n; i += NT_LANES_F)
        CPU_NT_STORE(d + i, &v);
    store_f(d + i, n - i);
}
static void store_nt_d(double *restrict d, size_t n)
{
    size_t i = 0;
    const nt_vd v = STREAM_STORE_VALUE - (nt_vd){0};
    for (; i < n && (uintptr_t)(d + i) % CPU_NT_WIDTH; i++)
        d[i] = STREAM_STORE_VALUE;
    for (; i + NT_LANES_D <= n; i += NT_LANES_D)
        CPU_NT_STORE(d + i, &v);
    store_d(d + i, n - i);
}
#else
/* unreachable: stream_kernel_supported refuses the _nt kernels without CPU_NT_WIDTH */
#define triad_nt_f triad_f
#define triad_nt_d triad_d
#define store_nt_f store_f
#define store_nt_d store_d
#endif

/* A 2-byte element (fp16s: only the copies take it, stream_prec_supported) holds the 16 bits
 * that tell a source value 1 + k/65536 apart (stream_values.h): k itself, so neighbours and
 * arrays still differ in the check. */
static uint16_t code16(double v)
{
    return (uint16_t)((v - 1.0) * 65536.0);
}

/* The kernels beyond the copies, over this thread's elements [lo, hi). */
static void ops_body(struct stream_arrays *a, size_t lo, size_t hi)
{
    size_t n = hi - lo;
    int dp = a->esize == 8;
    float *df = a->ndst ? (float *)a->dst[0] + lo : NULL;
    double *dd = a->ndst ? (double *)a->dst[0] + lo : NULL;
    const float *xf = a->nsrc ? (const float *)a->src[0] + lo : NULL;
    const double *xd = a->nsrc ? (const double *)a->src[0] + lo : NULL;
    const float *yf = a->nsrc > 1 ? (const float *)a->src[1] + lo : NULL;
    const double *yd = a->nsrc > 1 ? (const double *)a->src[1] + lo : NULL;

    switch (a->c.kernel) {
    case STREAM_SCALE:
        dp ? scale_d(dd, xd, n) : scale_f(df, xf, n);
        break;
    case STREAM_ADD:
        dp ? add_d(dd, xd, yd, n) : add_f(df, xf, yf, n);
        break;
    case STREAM_TRIAD:
        dp ? triad_d(dd, xd, yd, n) : triad_f(df, xf, yf, n);
        break;
    case STREAM_TRIAD_NT:
        dp ? triad_nt_d(dd, xd, yd, n) : triad_nt_f(df, xf, yf, n);
        break;
    case STREAM_STORE:
        dp ? store_d(dd, n) : store_f(df, n);
        break;
    case STREAM_STORE_NT:
        dp ? store_nt_d(dd, n) : store_nt_f(df, n);
        break;
    case STREAM_UPDATE:
        dp ? update_d(dd, n) : update_f(df, n);
        break;
    case STREAM_LOAD:
        a->partial[omp_get_thread_num()] = dp ? load_d(xd, n) : load_f(xf, n);
        break;
    default:
        break;
    }
}

static void copy_body(struct stream_arrays *a, size_t lo, size_t hi)
{
    size_t es = a->esize;
    switch (a->c.kernel) {
    case STREAM_COPY:
        cpu_plain_copy(a->dst[0] + lo * es, a->src[0] + lo * es, (hi - lo) * es);
        break;
    case STREAM_COPY_NT:
        cpu_nt_copy_4way(a->dst[0] + lo * es, a->src[0] + lo * es, (hi - lo) * es);
        break;
    case STREAM_COPY19:
    case STREAM_COPY19_NT: {
        /* all 38 streams advance together, a block of each at a time, as in a D3Q19 sweep */
        size_t blk = BLOCK_BYTES / es;
        int nt = a->c.kernel == STREAM_COPY19_NT;
        for (size_t b = lo; b < hi; b += blk) {
            size_t e = b + blk < hi ? b + blk : hi;
            for (int j = 0; j < 19; j++) {
                if (nt)
                    cpu_nt_copy(a->dst[j] + b * es, a->src[j] + b * es, (e - b) * es);
                else
                    cpu_plain_copy(a->dst[j] + b * es, a->src[j] + b * es, (e - b) * es);
            }
        }
        break;
    }
    default:
        ops_body(a, lo, hi);
        break;
    }
    if (stream_kernel_nt(a->c.kernel) == 1)
        cpu_nt_fence(); /* order this thread's streaming stores before the region ends */
}

int stream_alloc(struct stream_arrays **out, const struct stream_case *c,
                 struct stream_launch *used, char *err, size_t errlen)
{
    struct stream_arrays *a = calloc(1, sizeof *a);
    struct stream_layout l;

    *out = NULL;
    if (!a || stream_layout(c, 4096, STAGGER, &l)) {
        snprintf(err, errlen, "out of memory");
        free(a);
        return 1;
    }
    cpu_use_threads(c->threads); /* before first touch: the kernel's threads own the pages */
    a->c = *c;
    a->sum = NAN; /* load: no run yet */
    a->esize = prec_size(c->prec);
    a->nsrc = l.nsrc;
    a->ndst = l.ndst;
    if (omp_get_max_threads() > MAX_THREADS) {
        snprintf(err, errlen, "%d OpenMP threads: the load kernel holds at most %d partial sums",
                 omp_get_max_threads(), MAX_THREADS);
        free(a);
        return 1;
    }
    a->base = cpu_alloc(l.total);
    if (!a->base) {
        snprintf(err, errlen, "cannot allocate %.2f GiB", (double)l.total / 1073741824.0);
        free(a);
        return 1;
    }
    for (int j = 0; j < l.nsrc; j++)
        a->src[j] = a->base + l.src[j];
    for (int j = 0; j < l.ndst; j++)
        a->dst[j] = a->base + l.dst[j];
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_chunk(c->n, GRAIN, &lo, &hi);
        /* a signal ends the fill within a block of 2^20 elements (the case is then dropped) */
        for (int j = 0; j < a->nsrc; j++) {
            for (size_t i = lo; i < hi; i++) {
                if ((i & 0xFFFFF) == 0 && interrupt_requested()) break;
                if (a->esize == 2)
                    ((uint16_t *)a->src[j])[i] = code16(stream_value(i, (unsigned)j));
                else if (a->esize == 4)
                    ((float *)a->src[j])[i] = (float)stream_value(i, (unsigned)j);
                else
                    ((double *)a->src[j])[i] = stream_value(i, (unsigned)j);
            }
        }
        for (int j = 0; j < a->ndst && !stream_kernel_in_place(c->kernel); j++) {
            for (size_t i = lo; i < hi; i++) {
                if ((i & 0xFFFFF) == 0 && interrupt_requested()) break;
                if (a->esize == 2) /* never the code the copy must leave there */
                    ((uint16_t *)a->dst[j])[i] =
                        (uint16_t)~code16(stream_expect(c->kernel, i, (unsigned)j));
                else if (a->esize == 4)
                    ((float *)a->dst[j])[i] = NAN;
                else
                    ((double *)a->dst[j])[i] = NAN;
            }
        }
    }
    if (interrupt_stop(err, errlen)) {
        free(a->base);
        free(a);
        return 1;
    }
    snprintf(a->region, sizeof a->region, "stream_%s", stream_kernel_names[c->kernel]);
#pragma omp parallel
    cpu_marker_register(a->region);
    used->threads = omp_get_max_threads();
    cpu_binding(used->binding, sizeof used->binding);
    used->blocks = -1;
    used->occupancy = NAN;
    used->vector_bytes = stream_kernel_nt(c->kernel) == 1
                             ? CPU_NT_WIDTH
                             : -1; /* ordinary stores: the compiler's choice */
    used->ilp = -1;
    *out = a;
    return 0;
}

/* One pass of the kernel over the whole array, inside the likwid marker region when marked (the
 * timed runs; not the check's extra pass); returns the team's size. */
static int one_pass(struct stream_arrays *a, int marked)
{
    int nthreads = 1;
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_chunk(a->c.n, GRAIN, &lo, &hi);
        if (marked) cpu_marker_start(a->region);
        copy_body(a, lo, hi);
        if (marked) cpu_marker_stop(a->region);
#pragma omp single nowait
        nthreads = omp_get_num_threads();
    }
    a->passes++;
    return nthreads;
}

int stream_run(struct stream_arrays *a, int reps, double *seconds, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        int nthreads = one_pass(a, 1);
        seconds[r] = omp_get_wtime() - t0;
        if (a->c.kernel == STREAM_LOAD) { /* outside the timing: one add per thread */
            a->sum = 0;
            for (int t = 0; t < nthreads; t++)
                a->sum += a->partial[t];
        }
    }
    return 0;
}

int stream_check(struct stream_arrays *a, size_t *bad, double *max_rel_err, char *err,
                 size_t errlen)
{
    size_t wrong = 0;
    double worst = 0.0;
    if (stream_kernel_in_place(a->c.kernel) == 1 && a->dst[0] != a->src[0]) {
        /* out of place, d = -s would hold its expected value after any number of passes */
        snprintf(err, errlen, "%s: its destination is not its source",
                 stream_kernel_names[a->c.kernel]);
        return 1;
    }
    if (stream_update_check_pass(a->c.kernel, a->passes))
        one_pass(a, 0); /* untimed, outside the likwid marker region */
    if (a->c.kernel == STREAM_LOAD) {
        double want = stream_load_sum(a->c.n), e = fabs(a->sum - want) / want;
        *bad = !(e <= stream_load_tolerance(a->c.n)); /* NaN (unwritten partial) fails */
        *max_rel_err = isnan(e) ? INFINITY : e;
        return 0;
    }
#pragma omp parallel reduction(+ : wrong) reduction(max : worst)
    {
        size_t lo, hi;
        cpu_chunk(a->c.n, GRAIN, &lo, &hi);
        for (int j = 0; j < a->ndst; j++) {
            for (size_t i = lo; i < hi; i++) {
                if ((i & 0xFFFFF) == 0 && interrupt_requested()) break; /* dropped: no verdict */
                double want = stream_expect(a->c.kernel, i, (unsigned)j);
                if (a->esize == 2) { /* the copies move bits: the code itself */
                    if (((uint16_t *)a->dst[j])[i] != code16(want)) {
                        wrong++;
                        worst = INFINITY;
                    }
                    continue;
                }
                double got =
                    a->esize == 4 ? (double)((float *)a->dst[j])[i] : ((double *)a->dst[j])[i];
                if (!(got == want)) { /* NaN poison left over fails too */
                    double e = isnan(got) ? INFINITY : fabs(got - want) / fabs(want);
                    wrong++;
                    worst = e > worst ? e : worst;
                }
            }
        }
    }
    *bad = wrong;
    *max_rel_err =
        worst; /* every kernel's result is exact: any mismatch fails, whatever its size */
    return interrupt_stop(err, errlen);
}

void stream_free(struct stream_arrays *a)
{
    if (!a) return;
    free(a->base);
    free(a);
}
