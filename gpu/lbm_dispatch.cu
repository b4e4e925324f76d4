/* lbm_dispatch.cu: the one table from (precision, collision, forcing, variant) to an instance of
 * the CUDA LBM kernels, and their launches. The lists below and GPU_LBM_VARIANTS (lbm_gpu.h)
 * generate every instantiation and the lookup alike; launches go through cudaLaunchKernel with
 * the address the lookup gives, so no second dispatcher names a template. */
#include <string.h>

#include "lbm_kernels.cuh"

/* Precisions: enum prec, the lattice's value type. A new storage format is one row here (with
 * its value type's real_of, coll_of, load/store conversion and bits_of in lbm_kernels.cuh). */
#define GPU_LBM_PRECISIONS(X)                                                                      \
    X(PREC_SP, float) X(PREC_DP, double) X(PREC_FP16S, gpu_fp16s) X(PREC_FP16C, gpu_fp16c)
/* Collisions: enum lbm_collision (collision.h) */
#define GPU_LBM_COLLISIONS(X) X(LBM_BGK) X(LBM_TRT) X(LBM_MRT)

/* The instance of variant v for value type T, collision C and forcing F */
template <typename T, int C, int F> static const void *variant_fn(enum gpu_lbm_variant v)
{
    if ((v == GPU_PULL_PAIRS || v == GPU_PULL_BOX_PAIRS || v == GPU_PULL_BOX_PAIRS_GHOSTS) &&
        !pair_word<T>::pull)
        return NULL; /* no paired kernels for T */
    if (v == GPU_AA_LOCAL_PAIRS && !pair_word<T>::local) return NULL;
    switch (v) {
#define GPU_VARIANT_CASE_(name, kernel)                                                            \
    case name:                                                                                     \
        return (const void *)kernel<T, C, F, name>;
        GPU_LBM_VARIANTS(GPU_VARIANT_CASE_)
#undef GPU_VARIANT_CASE_
    default:
        return NULL;
    }
}

template <typename T> static const void *collision_fn(int coll, int forced, enum gpu_lbm_variant v)
{
    switch (coll) {
#define GPU_COLLISION_CASE_(C)                                                                     \
    case C:                                                                                        \
        return forced ? variant_fn<T, C, 1>(v) : variant_fn<T, C, 0>(v);
        GPU_LBM_COLLISIONS(GPU_COLLISION_CASE_)
#undef GPU_COLLISION_CASE_
    default:
        return NULL;
    }
}

/* The kernels a precision's state needs besides the updates */
struct aux_fns {
    const void *init, *check, *halo, *ring;
};

template <typename T> static struct aux_fns aux_of(void)
{
    struct aux_fns a = {(const void *)init_kernel<T>, (const void *)check_kernel<T>,
                        (const void *)halo_kernel<T>, (const void *)face_ring_kernel<T>};
    return a;
}

static struct aux_fns prec_aux(enum prec p)
{
    switch (p) {
#define GPU_AUX_CASE_(P, T)                                                                        \
    case P:                                                                                        \
        return aux_of<T>();
        GPU_LBM_PRECISIONS(GPU_AUX_CASE_)
#undef GPU_AUX_CASE_
    default: {
        struct aux_fns none = {NULL, NULL, NULL, NULL};
        return none;
    }
    }
}

const void *gpu_lbm_kernel(const struct lbm_case *c, enum gpu_lbm_variant v)
{
    const int forced = lbm_forced(c);
    switch (c->prec) {
#define GPU_PRECISION_CASE_(P, T)                                                                  \
    case P:                                                                                        \
        return collision_fn<T>(c->collision, forced, v);
        GPU_LBM_PRECISIONS(GPU_PRECISION_CASE_)
#undef GPU_PRECISION_CASE_
    default:
        return NULL;
    }
}

enum gpu_lbm_variant gpu_lbm_case_variant(const struct lbm_case *c)
{
    if (c->kernel == LBM_PULL_AOS) return GPU_PULL_AOS;
    return c->kernel == LBM_AA ? GPU_AA_NEIGHBOURS : GPU_PULL;
}

/* the collision parameters in the precision the kernels compute in (single for the 16-bit
 * formats), as they take them by value */
static void *coll_params(struct lbm_state *s)
{
    return s->u.c.prec == PREC_SP || prec_is_16bit(s->u.c.prec) ? (void *)&s->u.psp
                                                                : (void *)&s->u.pdp;
}

/* the halo kernels' dirset of dirs[0..ndirs) (ndirs 0 to 5; unused slots zero) */
static struct dirset dirset_of(const int *dirs, int ndirs)
{
    struct dirset ds;
    memset(&ds, 0, sizeof ds);
    ds.n = ndirs;
    for (int k = 0; k < ndirs; k++)
        ds.d[k] = dirs[k];
    return ds;
}

/* the pull kernels' direction addresses of the lattices src and dst (gpu_dirptrs) */
static struct gpu_dirptrs dirptrs_of(const struct lbm_state *s, const void *src, void *dst)
{
    struct gpu_dirptrs pp;
    const unsigned long long es = s->u.es, stride = s->u.l.dir_stride * es; /* bytes */
    const unsigned long long py = s->u.l.pitch * es, pz = s->u.l.pitch * s->u.l.sy * es;
    const unsigned long long a = (unsigned long long)(uintptr_t)src;
    /* unsigned arithmetic: c_y, c_z of -1 wrap to the address above */
#define GPU_DIRPTR_(i, cx, cy, cz, o)                                                              \
    pp.s[i] = a + (i)*stride - (unsigned long long)(long long)(cy)*py -                            \
              (unsigned long long)(long long)(cz)*pz;                                              \
    pp.d[i] = (char *)dst + (size_t)(i)*stride;
    LBM_D3Q19(GPU_DIRPTR_)
#undef GPU_DIRPTR_
    return pp;
}

/* the received x faces the next update reads in place (lbm_halo_in_place) and the x faces'
 * send buffers it writes (lbm_halo_sent_by_update) */
static struct gpu_xghosts xghosts_of(const struct lbm_state *s)
{
    struct gpu_xghosts xg = {{s->xface[0], s->xface[1]}, {s->xsend[0], s->xsend[1]}};
    return xg;
}

cudaError_t gpu_lbm_launch_pull_block(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g,
                                      int block, int x0, int x1, int y0, int z0,
                                      cudaStream_t stream)
{
    const void *src = s->lat[s->cur];
    void *dst = s->lat[1 - s->cur];
    int ey = 0, ez = 0; /* GPU_PULL_HALO's */
    struct dirset ds = dirset_of(NULL, 0);
    struct gpu_dirptrs pp = dirptrs_of(s, src, dst);
    struct gpu_xghosts xg = xghosts_of(s);
    void *args[] = {&src, &dst, &s->u.l, &s->u.b, coll_params(s), &x0, &x1, &y0, &z0, &ey,
                    &ez,  &ds,  &pp,     &xg};
    return cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, v), g, dim3((unsigned)block), args, 0, stream);
}

/* The face kernel's most blocks, each thread taking every (blocks x threads)-th face cell; 0: no
 * cap. Queued first on the high-priority stream, a thread a cell, the face's blocks took the SMs'
 * slots until it was done, its scattered loads (each in a row of its own) at half the DRAM rate,
 * while the box beside it waited. Every block the face holds is one the box lacks, and too few
 * make the face and the exchange after it outlast the box; where that edge lies depends on the
 * box's time against the exchange's, which no rank knows before it runs. One block an SM is the
 * best cap measured on shorter boxes; a quarter of the SMs is faster where the box has at least
 * 2^26 cells and 256 for each face cell (for an x face: nx >= 256), and lies there a factor of two
 * or more from the cap that loses (data/mpi/gpu-face-cap-h200x4-2026-11-27). */
static size_t face_block_cap(const struct lbm_state *s, size_t face_cells)
{
    const size_t box = s->u.l.nx * s->u.l.ny * s->u.l.nz, sms = (size_t)s->sms;
    const int long_box = box >= ((size_t)1 << 26) && box >= 256 * face_cells;
    return long_box ? (sms + 3) / 4 : sms;
}

cudaError_t gpu_lbm_launch_pull_halo(struct lbm_state *s, const int *dirs, int ndirs,
                                     const long lo[3], const long hi[3], void *buf,
                                     cudaStream_t stream)
{
    const void *src = s->lat[s->cur];
    int x0 = (int)lo[0], x1 = (int)hi[0], y0 = (int)lo[1], z0 = (int)lo[2];
    int ey = (int)(hi[1] - lo[1]), ez = (int)(hi[2] - lo[2]);
    const size_t cells = (size_t)(x1 - x0) * (size_t)ey * (size_t)ez;
    const unsigned threads = (unsigned)s->threads;
    struct dirset ds = dirset_of(dirs, ndirs);
    /* zeros: GPU_PULL_HALO reads no direction pointer (no plain-offset path, no pointer store) */
    struct gpu_dirptrs pp;
    memset(&pp, 0, sizeof pp);
    struct gpu_xghosts xg = xghosts_of(s);
    void *args[] = {&src, &buf, &s->u.l, &s->u.b, coll_params(s), &x0, &x1, &y0, &z0, &ey,
                    &ez,  &ds,  &pp,     &xg};
    size_t blocks = (cells + threads - 1) / threads, cap = face_block_cap(s, cells);
    if (cap > 0 && blocks > cap) blocks = cap;
    return cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, GPU_PULL_HALO), dim3((unsigned)blocks),
                            dim3(threads), args, 0, stream);
}

cudaError_t gpu_lbm_launch_pull(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g, int x0, int x1,
                                int y0, int z0, cudaStream_t stream)
{
    return gpu_lbm_launch_pull_block(s, v, g, s->threads, x0, x1, y0, z0, stream);
}

cudaError_t gpu_lbm_launch_pull_pairs(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g,
                                      int block, int x0, int x1, int y0, int z0,
                                      cudaStream_t stream)
{
    const void *src = s->lat[s->cur];
    void *dst = s->lat[1 - s->cur];
    struct gpu_xghosts xg = xghosts_of(s);
    void *args[] = {&src, &dst, &s->u.l, &s->u.b, coll_params(s), &x0, &x1, &y0, &z0, &xg};
    return cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, v), g, dim3((unsigned)block), args, 0, stream);
}

size_t gpu_aa_stage_bytes(int threads, size_t es)
{
    return es >= 4 ? 10 * ((size_t)threads + 2) * es + (size_t)threads * sizeof(long) : 0;
}

long gpu_aa_face_rows(const struct lbm_layout *l)
{
    const long ny = (long)l->ny, nz = (long)l->nz;
    return (ny > 1 ? 2 : 1) * nz + (nz > 1 ? 2 : 1) * (ny > 2 ? ny - 2 : 0);
}

cudaError_t gpu_lbm_launch_aa(struct lbm_state *s)
{
    void *lat = s->lat[0];
    void *args[] = {&lat, &s->u.l, &s->u.b, coll_params(s)};
    const int pairs = s->aa_even && s->local_pairs;
    const enum gpu_lbm_variant v = pairs        ? GPU_AA_LOCAL_PAIRS
                                   : s->aa_even ? GPU_AA_LOCAL
                                                : GPU_AA_NEIGHBOURS;
    const size_t stage = v == GPU_AA_NEIGHBOURS ? gpu_aa_stage_bytes(s->threads, s->u.es) : 0;
    if (s->aa_even)
        return cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, v), s->local_grid, dim3(s->local_threads),
                                args, 0, s->q[0]);
    /* The neighbour half's inner rows on the high-priority stream and its face rows beside them
     * on the low-priority one: no location is touched by both launches (each is read and written
     * by one cell's thread), so they may run together, and the block scheduler takes the face
     * rows' blocks where the inner rows' leave an SM idle (their last wave). Queued after the
     * inner rows, the face launch had run alone, a few hundred latency-bound blocks between two
     * full launches. Both wait for the cell-local half before them (qev[0]); the next update
     * waits for both (qev[1]). */
    cudaError_t e = cudaEventRecord(s->qev[0], s->q[0]);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(s->q[1], s->qev[0], 0);
    if (e == cudaSuccess)
        e = cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, v), s->grid, dim3(s->threads), args, stage,
                             s->q[0]);
    if (e == cudaSuccess)
        e = cudaLaunchKernel(gpu_lbm_kernel(&s->u.c, GPU_AA_FACES), s->face_grid,
                             dim3(s->face_threads), args, 0, s->q[1]);
    if (e == cudaSuccess) e = cudaEventRecord(s->qev[1], s->q[1]);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(s->q[0], s->qev[1], 0);
    return e;
}

cudaError_t gpu_lbm_launch_init(struct lbm_state *s, int k)
{
    void *lat = s->lat[k];
    int poison_all = k, aa = s->u.c.kernel == LBM_AA;
    void *args[] = {&lat, &s->u.l, &s->u.c.place, &poison_all, &aa};
    return cudaLaunchKernel(prec_aux(s->u.c.prec).init, dim3(4096), dim3(256), args, 0, 0);
}

cudaError_t gpu_lbm_launch_check(struct lbm_state *s)
{
    const void *lat = s->lat[s->cur];
    size_t g[3];
    int aa = s->u.c.kernel == LBM_AA;
    lbm_global_dims(&s->u.c, g);
    void *args[] = {&lat, &s->u.l, &s->u.c.place, &g[0], &g[1], &g[2], &s->partial, &s->hsum, &aa};
    return cudaLaunchKernel(prec_aux(s->u.c.prec).check, dim3(GPU_LBM_CHECK_BLOCKS), dim3(256),
                            args, 0, 0);
}

/* halo_kernel's mode for an unpack into the box [lo, hi): 2 + the slot of its values in their
 * 32-byte sectors where it is an x face's ghost cells, each alone in its sector but for row
 * padding (lbm_layout_ghost_alone: rows on 32-byte multiples, as the x-split defaults lay them);
 * else 1 */
static int unpack_mode(const struct lbm_state *s, const void *lat, const long lo[3],
                       const long hi[3])
{
    const struct lbm_layout *l = &s->u.l;
    const long e = 32 / (long)s->u.es;
    if (hi[0] - lo[0] != 1 || (uintptr_t)lat % 32 || !lbm_layout_ghost_alone(l, lo[0], s->u.es, 32))
        return 1;
    return 2 + (int)(((long)l->ox + lo[0]) % e);
}

cudaError_t gpu_lbm_launch_halo(struct lbm_state *s, const int *dirs, int ndirs, const long lo[3],
                                const long hi[3], void *buf, int unpack, cudaStream_t stream)
{
    struct dirset ds = dirset_of(dirs, ndirs);
    void *lat = s->lat[1 - s->cur];
    const int mode = unpack ? unpack_mode(s, lat, lo, hi) : 0;
    long at[3] = {lo[0], lo[1], lo[2]};
    long ext[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    const size_t n = (size_t)(ext[0] * ext[1] * ext[2]) * (size_t)ndirs;
    const int blocks = (int)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    void *args[] = {&lat,    &s->u.l, &ds,     &at[0], &at[1],       &at[2],
                    &ext[0], &ext[1], &ext[2], &buf,   (void *)&mode};
    return cudaLaunchKernel(prec_aux(s->u.c.prec).halo, dim3(blocks), dim3(256), args, 0, stream);
}

cudaError_t gpu_lbm_launch_face_ring(struct lbm_state *s, const int *dirs, long gx, const void *buf,
                                     cudaStream_t stream)
{
    struct dirset ds = dirset_of(dirs, 5);
    void *lat = s->lat[1 - s->cur];
    void *args[] = {&lat, &s->u.l, &ds, &gx, (void *)&buf};
    const long ring = 4 * (long)(s->u.l.ny + s->u.l.nz) * 5;
    const int blocks = (int)((ring + 255) / 256 < 1024 ? (ring + 255) / 256 : 1024);
    return cudaLaunchKernel(prec_aux(s->u.c.prec).ring, dim3(blocks), dim3(256), args, 0, stream);
}
