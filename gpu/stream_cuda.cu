/* stream_cuda.cu: the CUDA STREAM backend: the one table from (kernel, precision, word, ILP) to an
 * instance of stream_kernels.cuh's kernels, their launches and the contract of stream/stream.h.
 * Each repetition is timed with CUDA events. STREAM's scale, add, triad and store compute on the
 * lanes of a word; load sums in double, one partial sum per block (a block reduction, no atomics)
 * that the host adds after the run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_check.h"
#include "gpu_facts.h"
#include "stream.h"
#include "stream_kernels.cuh"

extern "C" const char stream_backend_name[] = "gpu";

/* Defaults from the block x ILP sweep on an H200 (data/stream/): 256 threads, one 16-byte word per
 * thread in flight, a grid that covers the array once. */
#define DEFAULT_THREADS 256
#define DEFAULT_ILP 1
/* load: LOAD_ILP words per thread, the grid covering the array once like the other kernels (the
 * block scheduler balances the multiprocessors); one partial sum per 16 KiB read (256 threads x 4
 * x 16 B), 8 bytes written per 16 KiB. On an H100 this was 0.5-2% faster than a grid of one wave (6
 * resident blocks per multiprocessor, grid-stride) at 1 GiB
 * (data/stream/gpu-kernels-h100-2026-11-23). */
#define LOAD_ILP 4

struct stream_arrays {
    struct stream_case c;
    size_t esize;
    char *base;
    int nsrc, ndst;
    struct ptrs19 p;
    size_t word; /* bytes per access in the main loop: 16, 8 or the element size */
    int threads, ilp;
    long blocks;
    cudaEvent_t ev[2];
    double *partial; /* load: one sum per block of the main launch, then one for the tail */
    long nparts;
    double sum;  /* load: the last run's sum, for the check */
    long passes; /* runs of the kernel so far (update's check) */
};

/* The kernels by the arguments they take: a copy, copy19's 19 arrays, the STREAM operations;
 * memcpy is cudaMemcpyAsync. */
enum gpu_stream_family {
    GPU_STREAM_NONE,
    GPU_STREAM_MEMCPY,
    GPU_STREAM_COPY,
    GPU_STREAM_COPY19,
    GPU_STREAM_OPS
};
/* ops_kernel's kernels (its template parameter K) */
#define GPU_STREAM_OPS(X)                                                                          \
    X(STREAM_SCALE) X(STREAM_ADD) X(STREAM_TRIAD) X(STREAM_LOAD) X(STREAM_STORE) X(STREAM_UPDATE)
/* Words of the main loop by their bytes; one element of a precision is the word of its size */
#define GPU_STREAM_WORDS(X)                                                                        \
    X(16, uint4) X(8, unsigned long long) X(4, unsigned) X(2, unsigned short)
/* Precisions by element size: the value type ops_kernel computes in (and init_kernel writes).
 * The 2-byte element is fp16s (IEEE binary16), which only the copies move (the stream model's
 * stream_prec_supported): no ops_kernel has a 2-byte form. */
#define GPU_STREAM_PRECISIONS(X) X(4, float) X(8, double) X(2, __half)
/* Words in flight per thread (--ilp) */
#define GPU_STREAM_ILPS(X) X(1) X(2) X(4) X(8)

static enum gpu_stream_family family_of(enum stream_kernel k)
{
    switch (k) {
    case STREAM_MEMCPY:
        return GPU_STREAM_MEMCPY;
    case STREAM_COPY:
        return GPU_STREAM_COPY;
    case STREAM_COPY19:
        return GPU_STREAM_COPY19;
#define GPU_STREAM_OPS_CASE_(K) case K:
        GPU_STREAM_OPS(GPU_STREAM_OPS_CASE_)
#undef GPU_STREAM_OPS_CASE_
        return GPU_STREAM_OPS;
    default:
        return GPU_STREAM_NONE;
    }
}

/* ops_kernel<K, T, W, ILP>, or NULL where a word holds less than one value or the value is a
 * 2-byte element */
template <int K, typename T, typename W, int ILP> static const void *ops_instance(void)
{
    if constexpr (sizeof(W) >= sizeof(T) && sizeof(T) > 2)
        return (const void *)ops_kernel<K, T, W, ILP>;
    else
        return NULL;
}

template <int K, typename W, int ILP> static const void *ops_prec(size_t esize)
{
    switch (esize) {
#define GPU_STREAM_PREC_CASE_(es, T)                                                               \
    case es:                                                                                       \
        return ops_instance<K, T, W, ILP>();
        GPU_STREAM_PRECISIONS(GPU_STREAM_PREC_CASE_)
#undef GPU_STREAM_PREC_CASE_
    default:
        return NULL;
    }
}

template <typename W, int ILP> static const void *ops_for(enum stream_kernel k, size_t esize)
{
    switch (k) {
#define GPU_STREAM_OPS_CASE_(K)                                                                    \
    case K:                                                                                        \
        return ops_prec<K, W, ILP>(esize);
        GPU_STREAM_OPS(GPU_STREAM_OPS_CASE_)
#undef GPU_STREAM_OPS_CASE_
    default:
        return NULL;
    }
}

/* copy19's thread bound for its word: 16-byte words need about 90 registers (stream_kernels.cuh) */
template <typename W> struct copy19_bound {
    static constexpr int threads = sizeof(W) == 16 ? COPY19_WIDE_MAX : 1024;
};

/* The instance for kernel k with word W and ILP words per thread (copy19: one) */
template <typename W, int ILP> static const void *instance(enum stream_kernel k, size_t esize)
{
    switch (family_of(k)) {
    case GPU_STREAM_COPY:
        return (const void *)copy_kernel<W, ILP>;
    case GPU_STREAM_COPY19:
        return ILP == 1 ? (const void *)copy19_kernel<W, copy19_bound<W>::threads> : NULL;
    case GPU_STREAM_OPS:
        return ops_for<W, ILP>(k, esize);
    default:
        return NULL;
    }
}

template <typename W> static const void *instance_ilp(enum stream_kernel k, size_t esize, int ilp)
{
    switch (ilp) {
#define GPU_STREAM_ILP_CASE_(I)                                                                    \
    case I:                                                                                        \
        return instance<W, I>(k, esize);
        GPU_STREAM_ILPS(GPU_STREAM_ILP_CASE_)
#undef GPU_STREAM_ILP_CASE_
    default:
        return NULL;
    }
}

/* The kernel instance for kernel k on elements of esize bytes, moved in words of wb bytes with
 * ilp words in flight per thread; NULL for none (memcpy, the CPU's kernels) */
static const void *stream_fn(enum stream_kernel k, size_t esize, size_t wb, int ilp)
{
    switch (wb) {
#define GPU_STREAM_WORD_CASE_(bytes, W)                                                            \
    case bytes:                                                                                    \
        return instance_ilp<W>(k, esize, ilp);
        GPU_STREAM_WORDS(GPU_STREAM_WORD_CASE_)
#undef GPU_STREAM_WORD_CASE_
    default:
        return NULL;
    }
}

/* init_kernel in the precision of esize-byte elements */
static const void *init_fn(size_t esize)
{
    switch (esize) {
#define GPU_STREAM_INIT_CASE_(es, T)                                                               \
    case es:                                                                                       \
        return (const void *)init_kernel<T>;
        GPU_STREAM_PRECISIONS(GPU_STREAM_INIT_CASE_)
#undef GPU_STREAM_INIT_CASE_
    default:
        return NULL;
    }
}

/* 0 if kernel k has an instance for elements of precision p in the tables above (memcpy moves
 * bytes of any size); else why not. Which precisions a kernel takes is the stream model's rule
 * (stream_prec_supported), checked before any case runs; this guards the tables. */
static int prec_supported(enum stream_kernel k, enum prec p, char *why, size_t whylen)
{
    const size_t es = prec_size(p);
    if (family_of(k) != GPU_STREAM_MEMCPY && !stream_fn(k, es, es, 1)) {
        snprintf(why, whylen, "%s has no %s form on the GPU", stream_kernel_names[k], prec_name(p));
        return 1;
    }
    return 0;
}

/* An element of esize bytes as the check compares it: the value it holds, in double */
static double element_value(const void *h, size_t i, size_t esize)
{
    if (esize == 2) return (double)(float)((const __half *)h)[i];
    return esize == 4 ? (double)((const float *)h)[i] : ((const double *)h)[i];
}

/* What an element of esize bytes holds when it was assigned v (exact in float: stream_values.h):
 * v itself in sp and dp, v rounded to the nearest binary16 (cuda_fp16's host conversion, the
 * rounding of init_kernel's device conversion) for the 2-byte element */
static double element_of(double v, size_t esize)
{
    return esize == 2 ? (double)(float)__half((float)v) : v;
}

extern "C" int stream_backend_open(struct stream_device *d, char *err, size_t errlen)
{
    if (gpu_device_facts(&d->dev, err, errlen)) return 1;
    d->default_bytes = (size_t)1 << 30;
    snprintf(d->default_why, sizeof d->default_why, "default size 1 GiB per array (L2 is %.0f MiB)",
             d->dev.cache_bytes / 1048576.0);
    return 0;
}

extern "C" int stream_kernel_supported(enum stream_kernel k, char *why, size_t whylen)
{
    if (stream_kernel_nt(k) == 1) {
        snprintf(why, whylen,
                 "non-temporal stores are a CPU kernel (GPU stores do not "
                 "write-allocate); stream-gpu runs the kernel without _nt");
        return 1;
    }
    return 0;
}

extern "C" int stream_write_allocates(enum stream_kernel k)
{
    (void)k;
    return 0;
}

extern "C" size_t stream_memory_available(void)
{
    return gpu_memory_free();
}

/* Word size and count of the main loop; the rest (< 16 bytes) goes through a scalar tail. */
static size_t word_bytes(const struct stream_arrays *a)
{
    return a->word;
}

/* The widest word every address allows, capped for copy19's register budget. */
static size_t choose_word(const struct stream_arrays *a, int threads)
{
    uintptr_t both = 0;
    for (int j = 0; j < a->nsrc && j < 2; j++)
        both |= (uintptr_t)a->p.s[j];
    for (int j = 0; j < a->ndst && j < 1; j++)
        both |= (uintptr_t)a->p.d[j];
    size_t cap = (a->c.kernel == STREAM_COPY19 && threads > COPY19_WIDE_MAX) ? 8 : 16;
    if (a->c.scalar) return a->esize;
    if (cap >= 16 && both % 16 == 0) return 16;
    if (both % 8 == 0) return 8;
    return a->esize;
}

/* Queues kernel a->c.kernel over nw words of wb bytes from byte `skip` of every array, load's
 * partial sums from `part`; returns the launch's status. */
static cudaError_t launch_words(const struct stream_arrays *a, size_t wb, int ilp, size_t skip,
                                size_t nw, dim3 grid, dim3 block, double *part)
{
    struct ptrs19 q = a->p;
    void *copy_args[] = {&q.d[0], &q.s[0], &nw};
    void *copy19_args[] = {&q, &nw};
    void *ops_args[] = {&q.d[0], &q.s[0], &q.s[1], &nw, &part};
    void **args = copy_args;
    for (int j = 0; j < 19; j++) {
        q.s[j] = q.s[j] ? q.s[j] + skip : NULL;
        q.d[j] = q.d[j] ? q.d[j] + skip : NULL;
    }
    if (family_of(a->c.kernel) == GPU_STREAM_COPY19) args = copy19_args;
    if (family_of(a->c.kernel) == GPU_STREAM_OPS) args = ops_args;
    return cudaLaunchKernel(stream_fn(a->c.kernel, a->esize, wb, ilp), grid, block, args, 0, 0);
}

/* Enqueues one repetition: the main loop in words, then the rest (< 16 bytes) one element per
 * access (load: into the last partial sum); returns the launch's (or the memcpy's) status. */
static cudaError_t launch(struct stream_arrays *a)
{
    size_t wb = word_bytes(a);
    size_t total = a->c.n * a->esize;
    size_t nw = total / wb, tail = (total - nw * wb) / a->esize;
    cudaError_t e;
    if (family_of(a->c.kernel) == GPU_STREAM_MEMCPY)
        return cudaMemcpyAsync(a->p.d[0], a->p.s[0], total, cudaMemcpyDeviceToDevice, 0);
    e = launch_words(a, wb, a->ilp, 0, nw, dim3((unsigned)a->blocks), dim3((unsigned)a->threads),
                     a->partial);
    if (e != cudaSuccess || !tail) return e != cudaSuccess ? e : cudaGetLastError();
    e = launch_words(a, a->esize, 1, nw * wb, tail, dim3(1), dim3(32),
                     a->partial ? a->partial + a->blocks : NULL);
    return e != cudaSuccess ? e : cudaGetLastError();
}

static double occupancy_of(const struct stream_arrays *a)
{
    if (a->c.kernel == STREAM_MEMCPY) return NAN;
    return gpu_occupancy(stream_fn(a->c.kernel, a->esize, word_bytes(a), a->ilp), a->threads, 0,
                         a->blocks);
}

extern "C" int stream_alloc(struct stream_arrays **out, const struct stream_case *c,
                            struct stream_launch *used, char *err, size_t errlen)
{
    struct stream_arrays *a = (struct stream_arrays *)calloc(1, sizeof *a);
    struct stream_layout l;

    *out = NULL;
    if (prec_supported(c->kernel, c->prec, err, errlen)) {
        free(a);
        return 1;
    }
    if (!a || stream_layout(c, 65536, 0, &l)) {
        snprintf(err, errlen, "out of memory");
        free(a);
        return 1;
    }
    a->c = *c;
    a->esize = prec_size(c->prec);
    a->nsrc = l.nsrc;
    a->ndst = l.ndst;
    a->sum = NAN; /* load: no run yet */
    if (gpu_check(cudaMalloc((void **)&a->base, l.total), "cudaMalloc", err, errlen)) goto fail;
    for (int j = 0; j < l.nsrc; j++)
        a->p.s[j] = a->base + l.src[j];
    for (int j = 0; j < l.ndst; j++)
        a->p.d[j] = a->base + l.dst[j];
    /* an in-place kernel's destination is its source: initialised, not poisoned */
    for (int j = 0; j < l.nsrc + (stream_kernel_in_place(c->kernel) ? 0 : l.ndst); j++) {
        char *p = j < l.nsrc ? (char *)a->p.s[j] : a->p.d[j - l.nsrc];
        size_t n = c->n;
        int array = j < l.nsrc ? j : -1;
        void *args[] = {&p, &n, &array};
        if (gpu_check(cudaLaunchKernel(init_fn(a->esize), dim3(4096), dim3(256), args, 0, 0),
                      "init kernel", err, errlen))
            goto fail;
    }
    if (gpu_check(cudaGetLastError(), "init kernel", err, errlen) ||
        gpu_check(cudaDeviceSynchronize(), "init kernel", err, errlen))
        goto fail;
    a->threads = c->threads ? c->threads : DEFAULT_THREADS;
    a->word = choose_word(a, a->threads);
    a->ilp = c->kernel == STREAM_COPY || family_of(c->kernel) == GPU_STREAM_OPS
                 ? (c->ilp ? c->ilp : (c->kernel == STREAM_LOAD ? LOAD_ILP : DEFAULT_ILP))
                 : 1;
    {
        size_t nw = c->n * a->esize / word_bytes(a);
        size_t per_block = (size_t)a->threads * a->ilp;
        size_t cover = (nw + per_block - 1) / per_block;
        a->blocks =
            c->blocks ? c->blocks : (long)(cover < 2147483647 ? (cover ? cover : 1) : 2147483647);
    }
    if (c->kernel == STREAM_LOAD) {
        a->nparts = a->blocks + 1; /* the last for the tail launch */
        if (gpu_check(cudaMalloc((void **)&a->partial, (size_t)a->nparts * sizeof(double)),
                      "cudaMalloc (load's partial sums)", err, errlen) ||
            gpu_check(cudaMemset(a->partial, 0xff, (size_t)a->nparts * sizeof(double)),
                      "cudaMemset", err, errlen) ||
            gpu_check(cudaMemset(a->partial + a->blocks, 0, sizeof(double)), "cudaMemset", err,
                      errlen))
            goto fail; /* NaN poison, except the tail's slot (written only if there is a tail) */
    }
    if (gpu_check(cudaEventCreate(&a->ev[0]), "cudaEventCreate", err, errlen) ||
        gpu_check(cudaEventCreate(&a->ev[1]), "cudaEventCreate", err, errlen))
        goto fail;
    if (c->kernel == STREAM_MEMCPY) {
        used->threads = -1;
        used->blocks = -1;
        used->vector_bytes = -1;
        used->ilp = -1;
    } else {
        used->threads = a->threads;
        used->blocks = a->blocks;
        used->vector_bytes = (int)word_bytes(a);
        used->ilp = a->ilp;
    }
    used->occupancy = occupancy_of(a);
    *out = a;
    return 0;
fail:
    stream_free(a);
    return 1;
}

extern "C" int stream_run(struct stream_arrays *a, int reps, double *seconds, char *err,
                          size_t errlen)
{
    for (int r = 0; r < reps; r++) {
        float ms = 0;
        if (gpu_check(cudaEventRecord(a->ev[0]), "cudaEventRecord", err, errlen)) return 1;
        if (gpu_check(launch(a), "copy launch", err, errlen) ||
            gpu_check(cudaEventRecord(a->ev[1]), "cudaEventRecord", err, errlen) ||
            gpu_check(cudaEventSynchronize(a->ev[1]), "copy kernel", err, errlen) ||
            gpu_check(cudaEventElapsedTime(&ms, a->ev[0], a->ev[1]), "cudaEventElapsedTime", err,
                      errlen))
            return 1;
        seconds[r] = ms * 1e-3;
        a->passes++;
    }
    if (a->c.kernel == STREAM_LOAD) { /* outside the timing: the partial sums, added here */
        double *h = (double *)malloc((size_t)a->nparts * sizeof(double));
        if (!h) {
            snprintf(err, errlen, "cannot allocate the load kernel's partial sums on the host");
            return 1;
        }
        if (gpu_check(cudaMemcpy(h, a->partial, (size_t)a->nparts * sizeof(double),
                                 cudaMemcpyDeviceToHost),
                      "copy back the partial sums", err, errlen)) {
            free(h);
            return 1;
        }
        a->sum = 0;
        for (long b = 0; b < a->nparts; b++)
            a->sum += h[b];
        free(h);
    }
    return 0;
}

extern "C" int stream_check(struct stream_arrays *a, size_t *bad, double *max_rel_err, char *err,
                            size_t errlen)
{
    size_t n = a->c.n, wrong = 0;
    double worst = 0, t;
    void *h;
    if (stream_kernel_in_place(a->c.kernel) == 1 && a->p.d[0] != a->p.s[0]) {
        /* out of place, d = -s would hold its expected value after any number of passes */
        snprintf(err, errlen, "%s: its destination is not its source",
                 stream_kernel_names[a->c.kernel]);
        return 1;
    }
    if (stream_update_check_pass(a->c.kernel, a->passes) && stream_run(a, 1, &t, err, errlen))
        return 1;
    if (a->c.kernel == STREAM_LOAD) {
        double want = stream_load_sum(n), e = fabs(a->sum - want) / want;
        *bad = !(e <= stream_load_tolerance(n)); /* NaN (a block's sum unwritten) fails */
        *max_rel_err = isnan(e) ? INFINITY : e;
        return 0;
    }
    h = malloc(n * a->esize);
    if (!h) {
        snprintf(err, errlen, "cannot allocate %zu bytes on the host for the check", n * a->esize);
        return 1;
    }
    for (int j = 0; j < a->ndst; j++) {
        if (gpu_check(cudaMemcpy(h, a->p.d[j], n * a->esize, cudaMemcpyDeviceToHost),
                      "copy back for the check", err, errlen)) {
            free(h);
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            /* exact in sp too; rounded once to the 2-byte element as init_kernel's was */
            double want = element_of(stream_expect(a->c.kernel, i, (unsigned)j), a->esize);
            double got = element_value(h, i, a->esize);
            if (!(got == want)) {
                double e = isnan(got) ? INFINITY : fabs(got - want) / fabs(want);
                wrong++;
                worst = e > worst ? e : worst;
            }
        }
    }
    free(h);
    *bad = wrong;
    *max_rel_err = worst;
    return 0;
}

extern "C" void stream_free(struct stream_arrays *a)
{
    if (!a) return;
    if (a->ev[0]) cudaEventDestroy(a->ev[0]);
    if (a->ev[1]) cudaEventDestroy(a->ev[1]);
    cudaFree(a->base);
    cudaFree(a->partial);
    free(a);
}
