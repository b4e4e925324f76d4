/* stream_omp.c: the OpenMP STREAM backend. Arrays live in one huge-page-advised allocation laid
 * out by stream_layout (each destination at its source's page offset, the 19 pairs of copy19
 * staggered); first touch, kernels and the check all use cpu_chunk's static partition. Copies move 4-byte words: the instructions are
 * the same for either precision, only the check looks at values. */
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
#include "stream.h"
#include "stream_values.h"
#include "sysinfo.h"

const char stream_backend_name[] = "cpu";

#define GRAIN 64          /* partition unit in elements: whole cache lines per thread */
#define STAGGER 192       /* bytes between the page offsets of consecutive array pairs */
#define BLOCK_BYTES 8192  /* copy19: bytes of each array copied before moving to the next */
#define MAX_ARRAYS 38

struct stream_arrays {
    struct stream_case c;
    char region[32]; /* likwid marker region: stream_<kernel> */
    size_t esize;
    int nsrc;
    char *base;
    char *src[19], *dst[19];
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
        snprintf(why, whylen, "memcpy is stream-gpu's reference row; stream-cpu runs copy, "
                              "copy_nt, copy19, copy19_nt");
        return 1;
    }
    if ((k == STREAM_COPY_NT || k == STREAM_COPY19_NT) && NT_WIDTH == 0) {
        snprintf(why, whylen, "this build has no non-temporal store instructions (needs x86 "
                              "with SSE2 or newer); use copy or copy19");
        return 1;
    }
    return 0;
}

int stream_write_allocates(enum stream_kernel k)
{
    return k == STREAM_COPY || k == STREAM_COPY19;
}

size_t stream_memory_available(void)
{
    return sysinfo_mem_available();
}

static void copy_body(struct stream_arrays *a, size_t lo, size_t hi)
{
    size_t es = a->esize;
    switch (a->c.kernel) {
    case STREAM_COPY:
        plain_copy(a->dst[0] + lo * es, a->src[0] + lo * es, (hi - lo) * es);
        break;
    case STREAM_COPY_NT:
        nt_copy_4way(a->dst[0] + lo * es, a->src[0] + lo * es, (hi - lo) * es);
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
                    nt_copy(a->dst[j] + b * es, a->src[j] + b * es, (e - b) * es);
                else
                    plain_copy(a->dst[j] + b * es, a->src[j] + b * es, (e - b) * es);
            }
        }
        break;
    }
    default:
        break;
    }
    if (a->c.kernel == STREAM_COPY_NT || a->c.kernel == STREAM_COPY19_NT)
        nt_fence(); /* order this thread's streaming stores before the region ends */
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
    a->esize = prec_size(c->prec);
    a->nsrc = l.narrays;
    a->base = cpu_alloc(l.total);
    if (!a->base) {
        snprintf(err, errlen, "cannot allocate %.2f GiB", (double)l.total / 1073741824.0);
        free(a);
        return 1;
    }
    for (int j = 0; j < l.narrays; j++) {
        a->src[j] = a->base + l.src[j];
        a->dst[j] = a->base + l.dst[j];
    }
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_chunk(c->n, GRAIN, &lo, &hi);
        for (int j = 0; j < a->nsrc; j++) {
            for (size_t i = lo; i < hi; i++) {
                if (a->esize == 4) {
                    ((float *)a->src[j])[i] = (float)stream_value(i, (unsigned)j);
                    ((float *)a->dst[j])[i] = NAN;
                } else {
                    ((double *)a->src[j])[i] = stream_value(i, (unsigned)j);
                    ((double *)a->dst[j])[i] = NAN;
                }
            }
        }
    }
    snprintf(a->region, sizeof a->region, "stream_%s", stream_kernel_names[c->kernel]);
#pragma omp parallel
    cpu_marker_register(a->region);
    used->threads = omp_get_max_threads();
    cpu_binding(used->binding, sizeof used->binding);
    used->blocks = -1;
    used->occupancy = NAN;
    used->vector_bytes = (c->kernel == STREAM_COPY_NT || c->kernel == STREAM_COPY19_NT)
                             ? NT_WIDTH
                             : -1; /* ordinary copies: the compiler's choice */
    used->ilp = -1;
    *out = a;
    return 0;
}

int stream_run(struct stream_arrays *a, int reps, double *seconds, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel
        {
            size_t lo, hi;
            cpu_chunk(a->c.n, GRAIN, &lo, &hi);
            cpu_marker_start(a->region);
            copy_body(a, lo, hi);
            cpu_marker_stop(a->region);
        }
        seconds[r] = omp_get_wtime() - t0;
    }
    return 0;
}

int stream_check(struct stream_arrays *a, size_t *bad, double *max_rel_err, char *err,
                 size_t errlen)
{
    size_t wrong = 0;
    double worst = 0.0;
    (void)err;
    (void)errlen;
#pragma omp parallel reduction(+ : wrong) reduction(max : worst)
    {
        size_t lo, hi;
        cpu_chunk(a->c.n, GRAIN, &lo, &hi);
        for (int j = 0; j < a->nsrc; j++) {
            for (size_t i = lo; i < hi; i++) {
                double want = stream_value(i, (unsigned)j);
                double got = a->esize == 4 ? (double)((float *)a->dst[j])[i]
                                           : ((double *)a->dst[j])[i];
                if (!(got == want)) { /* NaN poison left over fails too */
                    double e = isnan(got) ? INFINITY : fabs(got - want) / want;
                    wrong++;
                    worst = e > worst ? e : worst;
                }
            }
        }
    }
    *bad = wrong;
    *max_rel_err = worst; /* a copy must be exact: any mismatch fails, whatever its size */
    return 0;
}

void stream_free(struct stream_arrays *a)
{
    if (!a)
        return;
    free(a->base);
    free(a);
}
