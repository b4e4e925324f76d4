/* stream_cuda.cu: the CUDA STREAM backend. Kernels move words (16-byte uint4 where every address
 * allows it, else 8 bytes or one element), ILP independent words in flight per thread, grid-stride
 * so any grid size covers the array; each repetition is timed with CUDA events. STREAM's scale,
 * add, triad and store compute on the lanes of a word; load sums in double, one partial sum per
 * block (a block reduction, no atomics) that the host adds after the run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_check.h"
#include "gpu_facts.h"
#include "stream.h"
#include "stream_values.h"

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

struct ptrs19 {
    const char *s[19];
    char *d[19];
};

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
    double sum; /* load: the last run's sum, for the check */
};

template <typename W, int ILP>
__global__ void copy_kernel(W *__restrict__ d, const W *__restrict__ s, size_t nw)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x * ILP;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * ILP + threadIdx.x; i < nw; i += stride) {
        W r[ILP];
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) r[k] = s[j];
        }
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) d[j] = r[k];
        }
    }
}

/* 19 loads in flight, then 19 stores: the access pattern of one D3Q19 update per index. 19 uint4
 * words need about 90 registers: under a 1024-thread bound (64 each) ptxas spills them, so the
 * 16-byte kernel is bounded at COPY19_WIDE_MAX threads and larger blocks use 8-byte words
 * (-Xptxas -v: no spills in either). */
#define COPY19_WIDE_MAX 512
template <typename W, int MAXT>
__global__ void __launch_bounds__(MAXT) copy19_kernel(ptrs19 p, size_t nw)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nw; i += stride) {
        W r[19];
#pragma unroll
        for (int j = 0; j < 19; j++)
            r[j] = ((const W *)p.s[j])[i];
#pragma unroll
        for (int j = 0; j < 19; j++)
            ((W *)p.d[j])[i] = r[j];
    }
}

/* STREAM's scale, add, triad (STREAM_Q), load and store on words W holding sizeof(W)/sizeof(T)
 * values of type T. K is the kernel (a compile-time constant: each instance keeps only its own
 * loads and arithmetic). load: each thread sums in double, the block reduces through warp
 * shuffles and shared memory, thread 0 writes partial[blockIdx.x]. */
template <typename T, typename W> union lanes {
    W w;
    T t[sizeof(W) / sizeof(T)];
};

template <int K, typename T, typename W, int ILP>
__global__ void ops_kernel(W *__restrict__ d, const W *__restrict__ x, const W *__restrict__ y,
                           size_t nw, double *__restrict__ partial)
{
    constexpr int L = sizeof(W) / sizeof(T);
    constexpr bool reads_x = K != STREAM_STORE, reads_y = K == STREAM_ADD || K == STREAM_TRIAD;
    const T q = (T)STREAM_Q;
    const size_t stride = (size_t)gridDim.x * blockDim.x * ILP;
    double sum = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * ILP + threadIdx.x; i < nw; i += stride) {
        lanes<T, W> a[ILP], b[ILP];
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) {
                if (reads_x) a[k].w = x[j];
                if (reads_y) b[k].w = y[j];
            }
        }
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j >= nw) continue;
            if (K == STREAM_LOAD) {
#pragma unroll
                for (int l = 0; l < L; l++)
                    sum += (double)a[k].t[l];
            } else {
                lanes<T, W> r;
#pragma unroll
                for (int l = 0; l < L; l++) {
                    if (K == STREAM_SCALE)
                        r.t[l] = q * a[k].t[l];
                    else if (K == STREAM_ADD)
                        r.t[l] = a[k].t[l] + b[k].t[l];
                    else if (K == STREAM_TRIAD)
                        r.t[l] = a[k].t[l] + q * b[k].t[l];
                    else
                        r.t[l] = (T)STREAM_STORE_VALUE;
                }
                d[j] = r.w;
            }
        }
    }
    if (K == STREAM_LOAD) {
        __shared__ double warp_sums[32];
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        for (int o = 16; o > 0; o /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (lane == 0) warp_sums[warp] = sum;
        __syncthreads();
        if (warp == 0) {
            sum = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0.0;
            for (int o = 16; o > 0; o /= 2)
                sum += __shfl_down_sync(0xffffffffu, sum, o);
            if (lane == 0) partial[blockIdx.x] = sum;
        }
    }
}

/* ops_kernel for (kernel, value type) at run time's word size and ILP */
template <int K, typename T, typename W> static const void *ops_fn_ilp(int ilp)
{
    switch (ilp) {
    case 1:
        return (const void *)ops_kernel<K, T, W, 1>;
    case 2:
        return (const void *)ops_kernel<K, T, W, 2>;
    case 4:
        return (const void *)ops_kernel<K, T, W, 4>;
    default:
        return (const void *)ops_kernel<K, T, W, 8>;
    }
}

/* word of one element: 4 bytes (sp) or 8 (dp) */
template <typename T> struct elem_word;
template <> struct elem_word<float> {
    typedef unsigned type;
};
template <> struct elem_word<double> {
    typedef unsigned long long type;
};

template <int K, typename T> static const void *ops_fn_word(size_t wb, int ilp)
{
    if (wb == 16) return ops_fn_ilp<K, T, uint4>(ilp);
    if (wb == 8 && sizeof(T) < 8) return ops_fn_ilp<K, T, unsigned long long>(ilp);
    return ops_fn_ilp<K, T, typename elem_word<T>::type>(ilp);
}

template <typename T> static const void *ops_fn_prec(enum stream_kernel k, size_t wb, int ilp)
{
    switch (k) {
    case STREAM_SCALE:
        return ops_fn_word<STREAM_SCALE, T>(wb, ilp);
    case STREAM_ADD:
        return ops_fn_word<STREAM_ADD, T>(wb, ilp);
    case STREAM_TRIAD:
        return ops_fn_word<STREAM_TRIAD, T>(wb, ilp);
    case STREAM_LOAD:
        return ops_fn_word<STREAM_LOAD, T>(wb, ilp);
    case STREAM_STORE:
        return ops_fn_word<STREAM_STORE, T>(wb, ilp);
    default:
        return NULL;
    }
}

/* The ops_kernel instance for kernel k in this precision, word size and ILP; NULL for the copies.
 */
static const void *ops_fn(enum stream_kernel k, size_t esize, size_t wb, int ilp)
{
    return esize == 4 ? ops_fn_prec<float>(k, wb, ilp) : ops_fn_prec<double>(k, wb, ilp);
}

static int is_ops(enum stream_kernel k)
{
    return ops_fn(k, 4, 4, 1) != NULL;
}

template <typename T> __device__ T poison_value();
template <> __device__ float poison_value<float>()
{
    return __int_as_float(0x7fc00000);
}
template <> __device__ double poison_value<double>()
{
    return __longlong_as_double(0x7ff8000000000000ll);
}

/* source values of array `array`, or NaN poison where array < 0 (destinations) */
template <typename T> __global__ void init_kernel(T *p, size_t n, int array)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = array < 0 ? poison_value<T>() : (T)stream_value(i, (unsigned)array);
}

/* kernel entry for (word type, ILP) chosen at run time */
template <typename W> static const void *copy_fn(int ilp)
{
    switch (ilp) {
    case 1:
        return (const void *)copy_kernel<W, 1>;
    case 2:
        return (const void *)copy_kernel<W, 2>;
    case 4:
        return (const void *)copy_kernel<W, 4>;
    default:
        return (const void *)copy_kernel<W, 8>;
    }
}

template <typename W>
static void launch_copy(int ilp, long blocks, int threads, char *d, const char *s, size_t nw)
{
    W *dw = (W *)d;
    const W *sw = (const W *)s;
    switch (ilp) {
    case 1:
        copy_kernel<W, 1><<<blocks, threads>>>(dw, sw, nw);
        break;
    case 2:
        copy_kernel<W, 2><<<blocks, threads>>>(dw, sw, nw);
        break;
    case 4:
        copy_kernel<W, 4><<<blocks, threads>>>(dw, sw, nw);
        break;
    default:
        copy_kernel<W, 8><<<blocks, threads>>>(dw, sw, nw);
        break;
    }
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

/* Enqueues one repetition; returns the launch's (or the memcpy's) status. */
static cudaError_t launch(struct stream_arrays *a)
{
    size_t wb = word_bytes(a);
    size_t total = a->c.n * a->esize;
    size_t nw = total / wb, tail = (total - nw * wb) / a->esize;
    int t = a->threads;

    if (is_ops(a->c.kernel)) {
        const void *fn = ops_fn(a->c.kernel, a->esize, wb, a->ilp);
        char *d = a->p.d[0];
        const char *x = a->p.s[0], *y = a->p.s[1];
        double *part = a->partial;
        void *args[] = {&d, &x, &y, &nw, &part};
        cudaError_t e =
            cudaLaunchKernel(fn, dim3((unsigned)a->blocks), dim3((unsigned)t), args, 0, 0);
        if (e != cudaSuccess || !tail) return e != cudaSuccess ? e : cudaGetLastError();
        /* the last elements, one per access, into the last partial sum */
        fn = ops_fn(a->c.kernel, a->esize, a->esize, 1);
        d = d ? d + nw * wb : d;
        x = x ? x + nw * wb : x;
        y = y ? y + nw * wb : y;
        part = part ? part + a->blocks : part;
        nw = tail;
        e = cudaLaunchKernel(fn, dim3(1), dim3(32), args, 0, 0);
        return e != cudaSuccess ? e : cudaGetLastError();
    }
    switch (a->c.kernel) {
    case STREAM_MEMCPY:
        return cudaMemcpyAsync(a->p.d[0], a->p.s[0], total, cudaMemcpyDeviceToDevice, 0);
    case STREAM_COPY:
        if (wb == 16)
            launch_copy<uint4>(a->ilp, a->blocks, t, a->p.d[0], a->p.s[0], nw);
        else if (wb == 8)
            launch_copy<unsigned long long>(a->ilp, a->blocks, t, a->p.d[0], a->p.s[0], nw);
        else
            launch_copy<unsigned>(a->ilp, a->blocks, t, a->p.d[0], a->p.s[0], nw);
        if (tail) {
            size_t skip = nw * wb;
            if (a->esize == 8)
                launch_copy<unsigned long long>(1, 1, 32, a->p.d[0] + skip, a->p.s[0] + skip, tail);
            else
                launch_copy<unsigned>(1, 1, 32, a->p.d[0] + skip, a->p.s[0] + skip, tail);
        }
        break;
    case STREAM_COPY19:
        if (wb == 16)
            copy19_kernel<uint4, COPY19_WIDE_MAX><<<a->blocks, t>>>(a->p, nw);
        else if (wb == 8)
            copy19_kernel<unsigned long long, 1024><<<a->blocks, t>>>(a->p, nw);
        else
            copy19_kernel<unsigned, 1024><<<a->blocks, t>>>(a->p, nw);
        if (tail) {
            ptrs19 q = a->p;
            for (int j = 0; j < 19; j++) {
                q.s[j] += nw * wb;
                q.d[j] += nw * wb;
            }
            if (a->esize == 8)
                copy19_kernel<unsigned long long, 1024><<<1, 32>>>(q, tail);
            else
                copy19_kernel<unsigned, 1024><<<1, 32>>>(q, tail);
        }
        break;
    default:
        break;
    }
    return cudaGetLastError();
}

static double occupancy_of(const struct stream_arrays *a)
{
    const void *fn;
    size_t wb = word_bytes(a);
    if (a->c.kernel == STREAM_MEMCPY) return NAN;
    if (is_ops(a->c.kernel))
        fn = ops_fn(a->c.kernel, a->esize, wb, a->ilp);
    else if (a->c.kernel == STREAM_COPY19)
        fn = wb == 16 ? (const void *)copy19_kernel<uint4, COPY19_WIDE_MAX>
                      : (wb == 8 ? (const void *)copy19_kernel<unsigned long long, 1024>
                                 : (const void *)copy19_kernel<unsigned, 1024>);
    else
        fn = wb == 16 ? copy_fn<uint4>(a->ilp)
                      : (wb == 8 ? copy_fn<unsigned long long>(a->ilp) : copy_fn<unsigned>(a->ilp));
    return gpu_occupancy(fn, a->threads, a->blocks);
}

extern "C" int stream_alloc(struct stream_arrays **out, const struct stream_case *c,
                            struct stream_launch *used, char *err, size_t errlen)
{
    struct stream_arrays *a = (struct stream_arrays *)calloc(1, sizeof *a);
    struct stream_layout l;

    *out = NULL;
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
    for (int j = 0; j < l.nsrc + l.ndst; j++) {
        char *p = j < l.nsrc ? (char *)a->p.s[j] : a->p.d[j - l.nsrc];
        int array = j < l.nsrc ? j : -1;
        if (a->esize == 4)
            init_kernel<float><<<4096, 256>>>((float *)p, c->n, array);
        else
            init_kernel<double><<<4096, 256>>>((double *)p, c->n, array);
    }
    if (gpu_check(cudaGetLastError(), "init kernel", err, errlen) ||
        gpu_check(cudaDeviceSynchronize(), "init kernel", err, errlen))
        goto fail;
    a->threads = c->threads ? c->threads : DEFAULT_THREADS;
    a->word = choose_word(a, a->threads);
    a->ilp = c->kernel == STREAM_COPY || is_ops(c->kernel)
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
    double worst = 0;
    void *h;
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
            double want = stream_expect(a->c.kernel, i, (unsigned)j); /* exact in sp too */
            double got = a->esize == 4 ? (double)((float *)h)[i] : ((double *)h)[i];
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
