/* lbm_cuda.cu: the CUDA LBM backend's single-domain contract (lbm/lbm.h): device, case checks,
 * allocation, initial state, timed updates, fetch and check. The kernels are in lbm_kernels.cuh,
 * launched through lbm_dispatch.cu; the distributed calls are in lbm_cuda_dist.cu. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_check.h"
#include "gpu_facts.h"
#include "image.h"
#include "lbm_gpu.h"
#include "progress.h"

extern "C" const char lbm_backend_name[] = "gpu";

/* aa: threads per block of its halves' plane-wide runs of cells (aa_kernel), whatever the row's
 * length */
#define AA_THREADS 256

static int is_aa(const struct lbm_state *s)
{
    return s->u.c.kernel == LBM_AA;
}

/* threads per block when --block is not given: pull GPU_LBM_DEFAULT_THREADS; aa AA_THREADS, at
 * most what its neighbour half's registers allow */
static int default_threads(const struct lbm_case *c)
{
    struct cudaFuncAttributes a;
    if (c->kernel != LBM_AA) return GPU_LBM_DEFAULT_THREADS;
    if (cudaFuncGetAttributes(&a, gpu_lbm_kernel(c, GPU_AA_NEIGHBOURS)) != cudaSuccess)
        return GPU_LBM_DEFAULT_THREADS; /* the launch will say what is wrong */
    return AA_THREADS < a.maxThreadsPerBlock / 32 * 32 ? AA_THREADS
                                                       : a.maxThreadsPerBlock / 32 * 32;
}

/* lbm_step's pull variant: the whole domain (SoA or AoS), or with ghost layers (a sub-domain
 * stepped whole) the box variant that reads none */
static enum gpu_lbm_variant whole_variant(const struct lbm_state *s)
{
    if (s->u.c.kernel == LBM_PULL_AOS) return GPU_PULL_AOS;
    return s->u.l.org == 0 && s->u.l.ox == 0 ? GPU_PULL : GPU_PULL_BOX;
}

/* The most threads a block of pull's paired kernel v may have in this case (0: not taken), where
 * the precision has the kernel (pair_word: sp, fp16s) and every pair's word is aligned (the pitch
 * and the direction stride even). GPU_PULL_PAIRS, lbm_step's: on one domain, nx even, and the
 * block fits the kernel's registers (else one cell a thread, which takes any block the case check
 * let through). GPU_PULL_BOX_PAIRS, the interior boxes of a distributed run, and
 * GPU_PULL_BOX_PAIRS_GHOSTS, its whole rows across x faces: org even (each box's start and width
 * are checked at its launch, lbm_cuda_dist.cu). */
static int pairs_threads(const struct lbm_state *s, enum gpu_lbm_variant v)
{
    const struct lbm_case *c = &s->u.c;
    const void *fn = c->kernel == LBM_PULL ? gpu_lbm_kernel(c, v) : NULL;
    struct cudaFuncAttributes a;
    if (!fn || s->u.l.pitch % 2 != 0 || s->u.l.dir_stride % 2 != 0) return 0;
    if (v == GPU_PULL_PAIRS ? whole_variant(s) != GPU_PULL || c->nx % 2 != 0 : s->u.l.org % 2 != 0)
        return 0;
    if (cudaFuncGetAttributes(&a, fn) != cudaSuccess) {
        (void)cudaGetLastError(); /* not left for lbm_step's launch check to find */
        return 0;
    }
    return v == GPU_PULL_PAIRS && s->threads > a.maxThreadsPerBlock ? 0 : a.maxThreadsPerBlock;
}

extern "C" int lbm_backend_open(struct device_facts *d, char *err, size_t errlen)
{
    return gpu_device_facts(d, err, errlen);
}

extern "C" int lbm_kernel_supported(enum lbm_kernel k, char *why, size_t whylen)
{
    if (k == LBM_PULL_NT) {
        snprintf(why, whylen,
                 "non-temporal stores are a CPU kernel (GPU stores do not "
                 "write-allocate); lbm-gpu runs pull");
        return 1;
    }
    return 0;
}

extern "C" int lbm_case_supported(const struct lbm_case *c, char *why, size_t whylen)
{
    struct cudaFuncAttributes a;
    int threads = c->threads ? c->threads : default_threads(c);
    const void *fn = gpu_lbm_kernel(c, gpu_lbm_case_variant(c));
    if (!fn) { /* a precision or collision without a row in lbm_dispatch.cu's lists */
        snprintf(why, whylen, "lbm-gpu has no %s %s kernel (it runs sp, dp, fp16s and fp16c)",
                 lbm_collision_names[c->collision], prec_name(c->prec));
        return 1;
    }
    if (cudaFuncGetAttributes(&a, fn) != cudaSuccess)
        return 0; /* the launch will say what is wrong */
    if (threads > a.maxThreadsPerBlock) {
        snprintf(why, whylen,
                 "--block %d: the %s %s kernel runs at most %d threads per block (it "
                 "needs %d registers per thread)",
                 threads, lbm_collision_names[c->collision], prec_name(c->prec),
                 a.maxThreadsPerBlock, a.numRegs);
        return 1;
    }
    return 0;
}

extern "C" int lbm_write_allocates(enum lbm_kernel k)
{
    (void)k;
    return 0;
}

extern "C" size_t lbm_memory_available(void)
{
    return gpu_memory_free();
}

extern "C" int lbm_alloc(struct lbm_state **out, const struct lbm_case *c, struct lbm_launch *used,
                         char *err, size_t errlen)
{
    struct lbm_state *s = (struct lbm_state *)calloc(1, sizeof *s);
    *out = NULL;
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    if (lbm_setup_make(&s->u, c, err, errlen)) {
        free(s);
        return 1;
    }
    if (c->ny > 65535 || c->nz > 65535) {
        snprintf(err, errlen, "ny and nz must be at most 65535 on the GPU (grid dimensions)");
        free(s);
        return 1;
    }
    s->threads = c->threads ? c->threads : default_threads(c);
    s->grid =
        dim3((unsigned)((c->nx + s->threads - 1) / s->threads), (unsigned)c->ny, (unsigned)c->nz);
    s->pull_pairs = pairs_threads(s, GPU_PULL_PAIRS) > 0;
    s->box_pairs = pairs_threads(s, GPU_PULL_BOX_PAIRS);
    s->ghost_pairs = pairs_threads(s, GPU_PULL_BOX_PAIRS_GHOSTS);
    s->sms = gpu_sm_count(); /* the face kernel's cap (gpu_lbm_launch_pull_halo) */
    if (s->sms == 0) (void)cudaGetLastError(); /* no cap; the error is no launch's */
    s->pair_grid = dim3((unsigned)((c->nx / 2 + s->threads - 1) / s->threads), (unsigned)c->ny,
                        (unsigned)c->nz);
    if (c->kernel == LBM_AA) {
        /* the halves' plane-wide runs of cells (aa_kernel), indexed in 32 bits */
        const size_t w = gpu_aa_run_row(&s->u.l, s->u.es), last = 0xffffffffu - 1024u;
        const size_t plane = w * (size_t)c->ny;
        const long inner = c->ny > 2 ? (long)w * (long)(c->ny - 2) : 0;
        if (plane > last) {
            snprintf(err, errlen,
                     "aa on the GPU: a plane of at most %zu cells with padding (%zu x %zu)", last,
                     w, c->ny);
            free(s);
            return 1;
        }
        s->grid = dim3((unsigned)(inner > 0 ? (inner + s->threads - 1) / s->threads : 1),
                       (unsigned)c->nz);
        /* the face rows' kernel: the row's block size where its registers allow, else its most */
        struct cudaFuncAttributes a;
        const long rows = gpu_aa_face_rows(&s->u.l), gy = rows < 65535 ? rows : 65535;
        if (gpu_check(cudaFuncGetAttributes(&a, gpu_lbm_kernel(c, GPU_AA_FACES)),
                      "cudaFuncGetAttributes", err, errlen)) {
            free(s);
            return 1;
        }
        s->face_threads =
            s->threads < a.maxThreadsPerBlock ? s->threads : a.maxThreadsPerBlock / 32 * 32;
        /* the neighbour half's staging: past the 48 KiB a launch gets unasked (dp from 557
         * threads a block) the kernel must ask for it */
        const size_t stage = gpu_aa_stage_bytes(s->threads, s->u.es);
        if (stage > 48 * 1024 &&
            gpu_check(cudaFuncSetAttribute(gpu_lbm_kernel(c, GPU_AA_NEIGHBOURS),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)stage),
                      "aa: shared memory for the neighbour half", err, errlen)) {
            free(s);
            return 1;
        }
        s->face_grid = dim3((unsigned)((c->nx + s->face_threads - 1) / s->face_threads),
                            (unsigned)gy, (unsigned)((rows + gy - 1) / gy));
        /* the cell-local half two cells a thread where the precision has the kernel (pair_word:
         * sp, fp16s, fp16c) and every pair's word is aligned (even pitch and direction stride; the
         * default 128-byte rows are) */
        s->local_pairs = gpu_lbm_kernel(c, GPU_AA_LOCAL_PAIRS) != NULL && s->u.l.pitch % 2 == 0 &&
                         s->u.l.dir_stride % 2 == 0;
        /* paired: half the threads in whole warps, at most 128: the paired kernel takes 94
         * (fp16s) to 128 (sp) registers or more a thread, so 128-thread blocks fit 4 or 5 to an
         * SM (16 or 20 warps) where 256 fit 2 (16 warps) */
        s->local_threads = s->threads;
        if (s->local_pairs) {
            const int half = (s->threads / 2 + 31) / 32 * 32;
            s->local_threads = half < 128 ? half : 128;
        }
        const long units = (long)c->ny * (long)(s->local_pairs ? (w + 1) / 2 : w);
        s->local_grid =
            dim3((unsigned)((units + s->local_threads - 1) / s->local_threads), (unsigned)c->nz);
    }
    for (int k = 0; k < lbm_lattices(c->kernel); k++) {
        if (gpu_check(cudaMalloc((void **)&s->lat[k], s->u.l.elems * s->u.es), "cudaMalloc", err,
                      errlen))
            goto fail;
    }
    if (gpu_check(cudaMalloc((void **)&s->partial, 2 * GPU_LBM_CHECK_BLOCKS * sizeof(double)),
                  "cudaMalloc", err, errlen) ||
        gpu_check(cudaMalloc((void **)&s->hsum, GPU_LBM_CHECK_BLOCKS * sizeof *s->hsum),
                  "cudaMalloc", err, errlen) ||
        gpu_check(cudaEventCreate(&s->ev[0]), "cudaEventCreate", err, errlen) ||
        gpu_check(cudaEventCreate(&s->ev[1]), "cudaEventCreate", err, errlen))
        goto fail;
    {
        int lo, hi; /* numerically lower is higher priority */
        if (gpu_check(cudaDeviceGetStreamPriorityRange(&lo, &hi), "stream priorities", err,
                      errlen) ||
            gpu_check(cudaStreamCreateWithPriority(&s->q[0], cudaStreamDefault, hi),
                      "cudaStreamCreate", err, errlen) ||
            gpu_check(cudaStreamCreateWithPriority(&s->q[1], cudaStreamDefault, lo),
                      "cudaStreamCreate", err, errlen) ||
            gpu_check(cudaEventCreateWithFlags(&s->qev[0], cudaEventDisableTiming),
                      "cudaEventCreate", err, errlen) ||
            gpu_check(cudaEventCreateWithFlags(&s->qev[1], cudaEventDisableTiming),
                      "cudaEventCreate", err, errlen))
            goto fail;
    }
    {
        const dim3 g = s->pull_pairs ? s->pair_grid : s->grid;
        used->threads = s->threads;
        used->blocks = (long)g.x * g.y * g.z;
        used->occupancy = gpu_occupancy(
            gpu_lbm_kernel(c, s->pull_pairs ? GPU_PULL_PAIRS : gpu_lbm_case_variant(c)), s->threads,
            c->kernel == LBM_AA ? gpu_aa_stage_bytes(s->threads, s->u.es) : 0, used->blocks);
    }
    used->pitch = s->u.l.xrow;
    *out = s;
    return 0;
fail:
    lbm_free(s);
    return 1;
}

static int init_lattices(struct lbm_state *s, char *err, size_t errlen)
{
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < lbm_lattices(s->u.c.kernel) && e == cudaSuccess; k++)
        e = gpu_lbm_launch_init(s, k);
    s->cur = 0;
    s->aa_even = 0;
    return gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "init kernel", err, errlen) ||
           gpu_check(cudaDeviceSynchronize(), "init kernel", err, errlen);
}

extern "C" int lbm_init(struct lbm_state *s, char *err, size_t errlen)
{
    return init_lattices(s, err, errlen);
}

/* host copy of the current lattice, in its own precision and layout */
static void *host_lattice(struct lbm_state *s)
{
    return malloc(s->u.l.elems * s->u.es);
}

extern "C" int lbm_load(struct lbm_state *s, const double *pdf, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    char *h;
    int rc;
    if (init_lattices(s, err, errlen)) return 1;
    h = (char *)host_lattice(s);
    if (!h) {
        snprintf(err, errlen, "out of host memory");
        return 1;
    }
    rc = gpu_check(cudaMemcpy(h, s->lat[0], l->elems * s->u.es, cudaMemcpyDeviceToHost),
                   "cudaMemcpy", err, errlen);
    if (!rc) lbm_image_from_pdf(l, s->u.c.kernel, s->u.c.prec, h, pdf);
    if (!rc)
        rc = gpu_check(cudaMemcpy(s->lat[0], h, l->elems * s->u.es, cudaMemcpyHostToDevice),
                       "cudaMemcpy", err, errlen);
    free(h);
    return rc;
}

/* what an update flips: aa which half is next, pull which lattice is read (both 0 or 1) */
static int *phase_of(struct lbm_state *s)
{
    return is_aa(s) ? &s->aa_even : &s->cur;
}

/* One update queued: aa's half on its streams, pull on `q`; the phase flipped */
static cudaError_t queue_update(struct lbm_state *s, cudaStream_t q)
{
    const cudaError_t e =
        is_aa(s) ? gpu_lbm_launch_aa(s)
        : s->pull_pairs
            ? gpu_lbm_launch_pull_pairs(s, GPU_PULL_PAIRS, s->pair_grid, s->threads, 0,
                                        (int)s->u.l.nx, 0, 0, q)
            : gpu_lbm_launch_pull(s, whole_variant(s), s->grid, 0, (int)s->u.l.nx, 0, 0, q);
    *phase_of(s) = !*phase_of(s);
    return e;
}

/* lbm_step's updates in a CUDA graph of GPU_LBM_GRAPH_UPDATES (an even number, so that the
 * phase after it is the phase before it), captured once on q[0] from the current phase. One graph
 * launch replaces that many launches and, in aa's neighbour half, the two event records and
 * waits that join its face rows' stream: the GPU starts each update as the one before ends
 * instead of waiting for the host's queue. Each kernel keeps the priority of the stream it was
 * captured on (aa's face rows low, beside the inner rows), and the graph is uploaded here so
 * that its first timed launch does not carry the upload. Against the launches one by one, and
 * against flags 0 (every node at q[0]'s priority): data/lbm/gpu-graphs-h200-2026-11-28. */
static_assert(GPU_LBM_GRAPH_UPDATES % 2 == 0, "a graph must end in the phase it started from");

static cudaError_t capture_updates(struct lbm_state *s)
{
    cudaGraph_t g = NULL;
    const int phase = *phase_of(s);
    cudaError_t e = cudaStreamBeginCapture(s->q[0], cudaStreamCaptureModeThreadLocal);
    for (int t = 0; t < GPU_LBM_GRAPH_UPDATES && e == cudaSuccess; t++)
        e = queue_update(s, s->q[0]);
    *phase_of(s) = phase;
    const cudaError_t end = cudaStreamEndCapture(s->q[0], &g);
    if (e == cudaSuccess) e = end;
    if (e == cudaSuccess)
        e = cudaGraphInstantiateWithFlags(&s->graph, g, cudaGraphInstantiateFlagUseNodePriority);
    if (e == cudaSuccess) e = cudaGraphUpload(s->graph, s->q[0]);
    if (e == cudaSuccess) {
        s->graph_phase = phase;
    } else if (s->graph) { /* s->graph set means captured and ready, nothing else */
        cudaGraphExecDestroy(s->graph);
        s->graph = NULL;
    }
    if (g) cudaGraphDestroy(g);
    return e;
}

/* once a state (a refused capture is lbm_step's error), where a graph would be launched at all,
 * and on one domain only (a distributed rank's x-face buffers change) */
static int use_graph(const struct lbm_state *s, int steps)
{
    return !s->graph && steps >= GPU_LBM_GRAPH_UPDATES && !s->xface[0] && !s->xface[1] &&
           !s->xsend[0] && !s->xsend[1];
}

extern "C" int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen)
{
    float ms = 0;
    cudaError_t e = cudaSuccess;
    int t = 0;
    if (use_graph(s, steps) &&
        gpu_check(capture_updates(s), "lbm kernel launch (a CUDA graph of the updates)", err,
                  errlen))
        return 1;
    /* the events on the legacy default stream: they bracket the launches on s->q too (blocking
     * streams wait for it and it for them) */
    if (gpu_check(cudaEventRecord(s->ev[0]), "cudaEventRecord", err, errlen)) return 1;
    /* an interrupt stops the launches (the queue drains what was launched before) */
    while (t < steps && e == cudaSuccess && !interrupt_requested()) {
        if (s->graph && *phase_of(s) == s->graph_phase && steps - t >= GPU_LBM_GRAPH_UPDATES) {
            e = cudaGraphLaunch(s->graph, s->q[0]);
            t += GPU_LBM_GRAPH_UPDATES;
        } else {
            e = queue_update(s, 0);
            t++;
        }
    }
    if (gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "lbm kernel launch", err, errlen) ||
        gpu_check(cudaEventRecord(s->ev[1]), "cudaEventRecord", err, errlen) ||
        gpu_check(cudaEventSynchronize(s->ev[1]), "lbm kernel", err, errlen) ||
        gpu_check(cudaEventElapsedTime(&ms, s->ev[0], s->ev[1]), "cudaEventElapsedTime", err,
                  errlen))
        return 1;
    *seconds = ms * 1e-3;
    return interrupt_stop(err, errlen);
}

extern "C" int lbm_fetch(struct lbm_state *s, double *pdf, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    char *h;
    int rc;
    if (!lbm_readable(s->u.c.kernel, s->aa_even, err, errlen)) return 1;
    h = (char *)host_lattice(s);
    if (!h) {
        snprintf(err, errlen, "out of host memory");
        return 1;
    }
    rc = gpu_check(cudaMemcpy(h, s->lat[s->cur], l->elems * s->u.es, cudaMemcpyDeviceToHost),
                   "cudaMemcpy", err, errlen);
    if (!rc) lbm_image_to_pdf(l, s->u.c.kernel, s->u.c.prec, h, pdf);
    free(h);
    return rc;
}

extern "C" int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, uint64_t *hash,
                         char *err, size_t errlen)
{
    double h[2 * GPU_LBM_CHECK_BLOCKS], m = 0, bad = 0;
    unsigned long long hs[GPU_LBM_CHECK_BLOCKS], hsum = 0;
    cudaError_t e;
    if (!lbm_readable(s->u.c.kernel, s->aa_even, err, errlen)) return 1;
    e = gpu_lbm_launch_check(s);
    if (gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "check kernel", err, errlen) ||
        gpu_check(cudaMemcpy(h, s->partial, sizeof h, cudaMemcpyDeviceToHost), "check kernel", err,
                  errlen) ||
        gpu_check(cudaMemcpy(hs, s->hsum, sizeof hs, cudaMemcpyDeviceToHost), "check kernel", err,
                  errlen))
        return 1;
    for (int b = 0; b < GPU_LBM_CHECK_BLOCKS; b++) {
        m += h[2 * b];
        bad += h[2 * b + 1];
        hsum += hs[b];
    }
    *mass = m + (double)(s->u.l.nx * s->u.l.ny * s->u.l.nz); /* sum f = sum g + one per cell */
    *nonfinite = (size_t)bad;
    *hash = hsum;
    return 0;
}

extern "C" void lbm_free(struct lbm_state *s)
{
    if (!s) return;
    if (s->graph) cudaGraphExecDestroy(s->graph);
    cudaFree(s->lat[0]);
    cudaFree(s->lat[1]);
    cudaFree(s->partial);
    cudaFree(s->hsum);
    for (int k = 0; k < 2; k++) {
        if (s->q[k]) cudaStreamDestroy(s->q[k]);
        if (s->qev[k]) cudaEventDestroy(s->qev[k]);
    }
    if (s->ev[0]) cudaEventDestroy(s->ev[0]);
    if (s->ev[1]) cudaEventDestroy(s->ev[1]);
    free(s);
}
