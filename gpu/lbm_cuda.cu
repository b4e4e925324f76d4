/* lbm_cuda.cu: the CUDA LBM backend: two lattices, fused stream-collide, pull scheme, one thread
 * per cell, blocks along x. Interior cells gather with one constant offset per direction; cells
 * on the domain's faces go through pull.h's general rule (walls, periodic wrap, moving lid). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_check.h"
#include "gpu_facts.h"
#include "image.h"
#include "init.h"
#include "layout.h"
#include "lbm.h"
#include "lbm_dist_backend.h"
#include "progress.h"
#include "pull.h"

extern "C" const char lbm_backend_name[] = "gpu";

/* 128 threads per block: the H100 sweep (data/lbm/gpu-block-size-h100-2026-11-22) ran 256^3 sp
 * at 16861 MFLUP/s with 128 against 16043 with 256 (more blocks resident: occupancy 0.44 vs
 * 0.38) */
#define DEFAULT_THREADS 128
/* aa: one x row per block, up to AA_MAX_THREADS (and the kernel's own limit). H100
 * (data/lbm/gpu-inplace-aa-tuning-h100-2026-11-23): at 256^3, 256 threads against 128 gave sp
 * 17312 vs 17015 MFLUP/s, dp 9130 vs 9016 (call1, gpu-new-blocks.csv, gpu-new-1.csv); at 512^3,
 * 512 against 256 gave sp 18044 vs 17842, dp 9278 vs 9234 (call2). Its odd half reads and writes
 * rows shifted by one cell, so warp seams share sectors; ncu saw its L1 hit rate rise from 45 to
 * 48% and its time fall from 1.04 to 1.01 ms (sp 256^3) from 128 to 256 threads */
#define AA_MAX_THREADS 512
#define CHECK_BLOCKS 1024

struct lbm_state {
    struct lbm_setup u;
    char *lat[2];
    int cur;
    int threads;
    dim3 grid;
    cudaEvent_t ev[2];
    double *partial;          /* CHECK_BLOCKS x 2: mass, non-finite count */
    unsigned long long *hsum; /* CHECK_BLOCKS hash partial sums */
    cudaStream_t q[2]; /* distributed runs: 0 boundary and halo (high priority), 1 interior */
    int aa_even;       /* aa: the next update is the cell-local one; 0 right after init */
    cudaEvent_t qev[2];
};

static int is_aa(const struct lbm_state *s)
{
    return s->u.c.kernel == LBM_AA;
}

template <typename T> struct coll_of;
template <> struct coll_of<float> {
    typedef struct lbm_coll_sp type;
};
template <> struct coll_of<double> {
    typedef struct lbm_coll_dp type;
};

template <int COLL, int FORCED>
__device__ __forceinline__ void collide(float f[19], const lbm_coll_sp *p)
{
    if (COLL == LBM_TRT)
        lbm_trt_sp(f, p, FORCED);
    else if (COLL == LBM_MRT)
        lbm_mrt_sp(f, p, FORCED);
    else
        lbm_bgk_sp(f, p, FORCED);
}
template <int COLL, int FORCED>
__device__ __forceinline__ void collide(double f[19], const lbm_coll_dp *p)
{
    if (COLL == LBM_TRT)
        lbm_trt_dp(f, p, FORCED);
    else if (COLL == LBM_MRT)
        lbm_mrt_dp(f, p, FORCED);
    else
        lbm_bgk_dp(f, p, FORCED);
}

/* BOX = 0: the whole of a domain without ghost layers (a single-rank run: the benchmark's own
 * kernel, no offset arithmetic); BOX = 4: the same on an array of structures (pull_aos, a cell's
 * 19 values side by side); else the box [x0, x1) x [y0, y0 + gridDim.y) x
 * [z0, z0 + gridDim.z) of a sub-domain with ghost layers (distributed runs): BOX = 2 where it
 * touches them, BOX = 1 for the interior, which never reads a ghost (fewer registers) */
template <typename T, int COLL, int FORCED, int BOX>
__global__ void pull_kernel(const T *__restrict__ src, T *__restrict__ dst, struct lbm_layout l,
                            struct lbm_bounds b, typename coll_of<T>::type p, int x0, int x1,
                            int y0, int z0)
{
    static_assert(BOX >= 0 && BOX <= 4, "BOX is 0, 1, 2 or 4");
    const int box = BOX == 1 || BOX == 2;
    const long x = (box ? (long)x0 : 0L) + (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long y = (box ? (long)y0 : 0L) + (long)blockIdx.y;
    const long z = (box ? (long)z0 : 0L) + (long)blockIdx.z;
    if (x >= (box ? (long)x1 : (long)l.nx)) return;
    const typename coll_of<T>::type pc = p;
    const size_t cell = (box ? l.org : 0) + ((size_t)z * l.sy + (size_t)y) * l.pitch + (size_t)x;
    const long plane = (long)(l.pitch * l.sy);
    T f[19];
    const int inner_yz = y > 0 && y < (long)l.ny - 1 && z > 0 && z < (long)l.nz - 1;
    if ((BOX == 0 || BOX == 1) && inner_yz) {
        /* rows away from the y and z faces, in the whole-domain kernel and in interior boxes
         * (which never reach an x side facing another rank): the x ends are selects in the
         * same instruction stream (a wall's bounce-back or the periodic wrap), so the first and
         * last warp of each row do not diverge into the general rule */
        const long base = (long)cell, ds = (long)l.dir_stride, pitch = (long)l.pitch;
        const long nx = (long)l.nx;
        const int perx = b.periodic[0];
#define GPU_LOADX_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        long at = (i)*ds + base - (cx) - (cy)*pitch - (cz)*plane;                                  \
        if ((cx) != 0) {                                                                           \
            const long xo = x - (cx);                                                              \
            const long alt = perx ? at + (xo < 0 ? nx : -nx) : (o)*ds + base;                      \
            at = xo < 0 || xo >= nx ? alt : at;                                                    \
        }                                                                                          \
        f[i] = src[at];                                                                            \
    }
        LBM_D3Q19(GPU_LOADX_)
#undef GPU_LOADX_
    } else if (x > 0 && x < (long)l.nx - 1 && inner_yz) {
        const long base = (long)cell, ds = (long)l.dir_stride, pitch = (long)l.pitch;
#define GPU_LOAD_(i, cx, cy, cz, o)                                                                \
    f[i] = BOX == 4 ? src[(base - (cx) - (cy)*pitch - (cz)*plane) * 19 + (i)]                      \
                    : src[(i)*ds + base - (cx) - (cy)*pitch - (cz)*plane];
        LBM_D3Q19(GPU_LOAD_)
#undef GPU_LOAD_
    } else {
        const T lid = (T)(6.0 * b.lid_ux);
#define GPU_EDGE_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        int on_lid;                                                                                \
        size_t at = lbm_pull_index(&l, &b, i, cx, cy, cz, o, x, y, z, &on_lid, BOX == 2);          \
        f[i] = src[at] + (on_lid ? lid * (T)LBM_WEIGHT(cx, cy, cz) * (T)(cx) : (T)0);              \
    }
        LBM_D3Q19(GPU_EDGE_)
#undef GPU_EDGE_
    }
    collide<COLL, FORCED>(f, &pc);
#define GPU_STORE_(i, cx, cy, cz, o)                                                               \
    if (BOX == 4)                                                                                  \
        dst[cell * 19 + (i)] = f[i];                                                               \
    else                                                                                           \
        dst[(size_t)i * l.dir_stride + cell] = f[i];
    LBM_D3Q19(GPU_STORE_)
#undef GPU_STORE_
}

/* D3Q19 velocities, opposites and weights for the aa kernel's face rows, which loop over the
 * directions with a run-time index (a warp reads one entry at a time: constant-cache broadcasts) */
__constant__ signed char aa_cx[19] = {LBM_D3Q19(LBM_CX_)};
__constant__ signed char aa_cy[19] = {LBM_D3Q19(LBM_CY_)};
__constant__ signed char aa_cz[19] = {LBM_D3Q19(LBM_CZ_)};
__constant__ signed char aa_opp[19] = {LBM_D3Q19(LBM_OPP_)};
__constant__ double aa_w[19] = {LBM_D3Q19(LBM_W_)};

/* The in-place AA update (kernel aa, one rank), one thread per cell. Between pairs of updates
 * direction d's post-collision value sits in slot opp(d) of its cell. EVEN = 0 (the first of a
 * pair): f_d from slot opp(d) of the cell upstream (across a wall: slot d of the cell, plus the
 * lid's term), collide, f_d into slot d of the cell downstream (across a wall: slot opp(d) of
 * the cell, with opp(d)'s lid term). EVEN = 1: slot d in, collide, slot opp(d) out. Every
 * location is read and written by one thread, and a thread writes exactly the locations it
 * read: in place without a barrier, and the loads may take the read-only data path (__ldg),
 * which no other thread writes during the launch. They matter most: with plain loads the even
 * half took 72 registers in sp instead of 40, dp 124 instead of 70 (ptxas, BGK; the cause,
 * likely addresses held across the collision, is not established). */
template <typename T, int COLL, int FORCED, int EVEN>
__global__ void aa_kernel(T *lat, struct lbm_layout l, struct lbm_bounds b,
                          typename coll_of<T>::type p)
{
    const long x = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long y = blockIdx.y, z = blockIdx.z;
    if (x >= (long)l.nx) return;
    const typename coll_of<T>::type pc = p;
    const size_t cell = ((size_t)z * l.sy + (size_t)y) * l.pitch + (size_t)x;
    const long ds = (long)l.dir_stride, pitch = (long)l.pitch, plane = (long)(l.pitch * l.sy);
    T f[19];
    if (EVEN) {
#define AA_LOAD_(i, cx, cy, cz, o) f[i] = __ldg(lat + (i)*ds + (long)cell);
        LBM_D3Q19(AA_LOAD_)
#undef AA_LOAD_
        collide<COLL, FORCED>(f, &pc);
#define AA_STORE_(i, cx, cy, cz, o) lat[(o)*ds + (long)cell] = f[i];
        LBM_D3Q19(AA_STORE_)
#undef AA_STORE_
    } else if (y > 0 && y < (long)l.ny - 1 && z > 0 && z < (long)l.nz - 1) {
        /* rows away from the y and z faces: the x ends are selects in the same instruction
         * stream (bounce-back into the cell's own slot, or the periodic wrap), so the first and
         * last warp of a row do not diverge into the general rule (as in pull_kernel) */
        const long c = (long)cell, nx = (long)l.nx;
        const int perx = b.periodic[0];
#define AA_LOADX_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        long at = (o)*ds + c - (cx) - (cy)*pitch - (cz)*plane;                                     \
        if ((cx) != 0) {                                                                           \
            const long xo = x - (cx);                                                              \
            const long alt = perx ? at + (xo < 0 ? nx : -nx) : (i)*ds + c;                         \
            at = xo < 0 || xo >= nx ? alt : at;                                                    \
        }                                                                                          \
        f[i] = __ldg(lat + at);                                                                    \
    }
        LBM_D3Q19(AA_LOADX_)
#undef AA_LOADX_
        collide<COLL, FORCED>(f, &pc);
#define AA_STOREX_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        long at = (i)*ds + c + (cx) + (cy)*pitch + (cz)*plane;                                     \
        if ((cx) != 0) {                                                                           \
            const long xo = x + (cx);                                                              \
            const long alt = perx ? at + (xo < 0 ? nx : -nx) : (o)*ds + c;                         \
            at = xo < 0 || xo >= nx ? alt : at;                                                    \
        }                                                                                          \
        lat[at] = f[i];                                                                            \
    }
        LBM_D3Q19(AA_STOREX_)
#undef AA_STOREX_
    } else {
        /* rows on a y or z face (whole warps: a block lies in one row), through the general
         * rule in loops over the directions: unrolled, its 38 gathers and scatters set the
         * kernel's register count (sp 88 against 64 for the rows above); looped, g lives in
         * local memory, touched by these rows alone */
        const T lid = (T)(6.0 * b.lid_ux);
        T g[19];
#pragma unroll 1
        for (int d = 0; d < 19; d++) {
            const int cx = aa_cx[d];
            long sc[3];
            int on_lid;
            if (lbm_upstream(&l, &b, cx, aa_cy[d], aa_cz[d], x, y, z, sc, &on_lid))
                g[d] = lat[LBM_IDX(&l, d, x, y, z)] + (on_lid ? lid * (T)aa_w[d] * (T)cx : (T)0);
            else
                g[d] = lat[LBM_IDX(&l, aa_opp[d], sc[0], sc[1], sc[2])];
        }
#define AA_GET_(i, cx, cy, cz, o) f[i] = g[i];
        LBM_D3Q19(AA_GET_)
#undef AA_GET_
        collide<COLL, FORCED>(f, &pc);
#define AA_PUT_(i, cx, cy, cz, o) g[i] = f[i];
        LBM_D3Q19(AA_PUT_)
#undef AA_PUT_
#pragma unroll 1
        for (int d = 0; d < 19; d++) {
            const int cx = aa_cx[d];
            long sc[3];
            int on_lid;
            if (lbm_upstream(&l, &b, -cx, -aa_cy[d], -aa_cz[d], x, y, z, sc, &on_lid))
                lat[LBM_IDX(&l, aa_opp[d], x, y, z)] =
                    g[d] + (on_lid ? lid * (T)aa_w[d] * (T)(-cx) : (T)0);
            else
                lat[LBM_IDX(&l, d, sc[0], sc[1], sc[2])] = g[d];
        }
    }
}

template <typename T> static void launch_aa(struct lbm_state *s)
{
    T *lat = (T *)s->lat[0];
    const typename coll_of<T>::type &p =
        *(const typename coll_of<T>::type *)(sizeof(T) == 4 ? (const void *)&s->u.psp
                                                            : (const void *)&s->u.pdp);
    const int forced = lbm_forced(&s->u.c), even = s->aa_even;
    dim3 g = s->grid, t(s->threads);
#define GPU_AA_(C, F)                                                                              \
    if (s->u.c.collision == C && forced == F) {                                                    \
        if (even)                                                                                  \
            aa_kernel<T, C, F, 1><<<g, t>>>(lat, s->u.l, s->u.b, p);                               \
        else                                                                                       \
            aa_kernel<T, C, F, 0><<<g, t>>>(lat, s->u.l, s->u.b, p);                               \
        return;                                                                                    \
    }
    GPU_AA_(LBM_BGK, 0)
    GPU_AA_(LBM_TRT, 0)
    GPU_AA_(LBM_MRT, 0)
    GPU_AA_(LBM_BGK, 1)
    GPU_AA_(LBM_TRT, 1)
    GPU_AA_(LBM_MRT, 1)
#undef GPU_AA_
}

/* Local fluid coordinates of lattice element i; 0 for padding, ghosts and the gap between
 * direction arrays. */
__device__ __forceinline__ int fluid_at(const struct lbm_layout &l, size_t i, int *d, size_t *x,
                                        size_t *y, size_t *z)
{
    const int soa = l.cs == 1; /* else AoS: i = cell x 19 + d */
    size_t r = soa ? i % l.dir_stride : i / 19;
    size_t xs = r % l.pitch, ys = (r / l.pitch) % l.sy, zs = r / l.pitch / l.sy;
    *d = (int)(soa ? i / l.dir_stride : i % 19);
    *x = xs - l.ox; /* wraps to huge below the fluid */
    *y = ys - l.gy;
    *z = zs - l.gz;
    return *x < l.nx && *y < l.ny && *z < l.nz && zs < l.sz;
}

/* init.h's state (or NaN poison in padding and ghosts and, with poison_all, everywhere) */
template <typename T>
__global__ void init_kernel(T *lat, struct lbm_layout l, struct lbm_place pl, int poison_all,
                            int aa)
{
    const size_t n = l.elems, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int d;
        size_t x, y, z;
        if (poison_all || !fluid_at(l, i, &d, &x, &y, &z))
            lat[i] = (T)NAN;
        else /* stored shifted: g = f - w; aa keeps direction d in slot opp(d) */
            lat[i] = (T)lbm_init_shifted(aa ? lbm_opposite(d) : d, x + pl.offset[0],
                                         y + pl.offset[1], z + pl.offset[2]);
    }
}

__device__ __forceinline__ uint64_t bits_of(float v)
{
    return (uint64_t)(uint32_t)__float_as_uint(v);
}
__device__ __forceinline__ uint64_t bits_of(double v)
{
    return (uint64_t)__double_as_longlong(v);
}

template <typename T>
__global__ void check_kernel(const T *lat, struct lbm_layout l, struct lbm_place pl, size_t gnx,
                             size_t gny, size_t gnz, double *partial, unsigned long long *hsum,
                             int aa)
{
    __shared__ double sm[2][256];
    __shared__ unsigned long long sh[256];
    double m = 0, bad = 0;
    unsigned long long h = 0;
    const size_t n = l.elems, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int d;
        size_t x, y, z;
        if (!fluid_at(l, i, &d, &x, &y, &z)) continue;
        double v = (double)lat[i];
        h += lbm_value_hash(aa ? lbm_opposite(d) : d, x + pl.offset[0], y + pl.offset[1],
                            z + pl.offset[2], gnx, gny, gnz, bits_of(lat[i]));
        if (isfinite(v))
            m += v;
        else
            bad += 1;
    }
    sm[0][threadIdx.x] = m;
    sm[1][threadIdx.x] = bad;
    sh[threadIdx.x] = h;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) {
            sm[0][threadIdx.x] += sm[0][threadIdx.x + s];
            sm[1][threadIdx.x] += sm[1][threadIdx.x + s];
            sh[threadIdx.x] += sh[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[2 * blockIdx.x] = sm[0][0];
        partial[2 * blockIdx.x + 1] = sm[1][0];
        hsum[blockIdx.x] = sh[0];
    }
}

struct dirset {
    int n;
    int d[5];
};

/* halo (un)packing: populations ds of the box at (lx, ly, lz) of ex x ey x ez cells */
template <typename T>
__global__ void halo_kernel(T *lat, struct lbm_layout l, struct dirset ds, long lx, long ly,
                            long lz, long ex, long ey, long ez, T *buf, int unpack)
{
    const size_t box = (size_t)(ex * ey * ez), n = box * (size_t)ds.n;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        size_t k = i / box, r = i % box;
        long x = lx + (long)(r % (size_t)ex), y = ly + (long)(r / (size_t)ex % (size_t)ey);
        long z = lz + (long)(r / (size_t)(ex * ey));
        int d = ds.d[0];
        for (int j = 1; j < 5; j++)
            d = (size_t)j == k ? ds.d[j] : d;
        size_t at = LBM_IDX(&l, d, x, y, z);
        if (unpack)
            lat[at] = buf[i];
        else
            buf[i] = lat[at];
    }
}

/* pull_kernel<T, C, F, V> and aa_kernel<T, C, F, 0> for the run-time collision C */
template <typename T, int F, int V> static const void *pull_kernel_for(int coll)
{
    return coll == LBM_TRT   ? (const void *)pull_kernel<T, LBM_TRT, F, V>
           : coll == LBM_MRT ? (const void *)pull_kernel<T, LBM_MRT, F, V>
                             : (const void *)pull_kernel<T, LBM_BGK, F, V>;
}

template <typename T, int F> static const void *aa_kernel_for(int coll)
{
    return coll == LBM_TRT   ? (const void *)aa_kernel<T, LBM_TRT, F, 0>
           : coll == LBM_MRT ? (const void *)aa_kernel<T, LBM_MRT, F, 0>
                             : (const void *)aa_kernel<T, LBM_BGK, F, 0>;
}

/* the kernel a case runs (aa: its neighbour half, the one with more registers) */
template <typename T> static const void *kernel_fn(int coll, int forced, int aa, int aos)
{
    if (aos) return forced ? pull_kernel_for<T, 1, 4>(coll) : pull_kernel_for<T, 0, 4>(coll);
    if (aa) return forced ? aa_kernel_for<T, 1>(coll) : aa_kernel_for<T, 0>(coll);
    return forced ? pull_kernel_for<T, 1, 0>(coll) : pull_kernel_for<T, 0, 0>(coll);
}

/* threads per block when --block is not given: pull 128; aa a row (nx rounded up to a warp),
 * at most AA_MAX_THREADS and what its neighbour half's registers allow */
static int default_threads(const struct lbm_case *c)
{
    struct cudaFuncAttributes a;
    int t = (int)((c->nx + 31) / 32 * 32);
    if (c->kernel != LBM_AA) return DEFAULT_THREADS;
    t = t < AA_MAX_THREADS ? t : AA_MAX_THREADS;
    if (cudaFuncGetAttributes(&a, c->prec == PREC_SP
                                      ? kernel_fn<float>(c->collision, lbm_forced(c), 1, 0)
                                      : kernel_fn<double>(c->collision, lbm_forced(c), 1, 0)) !=
        cudaSuccess)
        return DEFAULT_THREADS; /* the launch will say what is wrong */
    return t < a.maxThreadsPerBlock / 32 * 32 ? t : a.maxThreadsPerBlock / 32 * 32;
}

/* no ghost layers: the whole-domain kernel applies */
static int halo_free(const struct lbm_state *s)
{
    return s->u.l.org == 0 && s->u.l.ox == 0;
}

/* lbm_step's pull kernel: whole domain (SoA 0, AoS 4), or a box of a sub-domain (1) */
static int whole_kernel(const struct lbm_state *s)
{
    if (s->u.c.kernel == LBM_PULL_AOS) return 4;
    return halo_free(s) ? 0 : 1;
}

/* the update of the box [x0, x1) x [y0, y0 + g.y) x [z0, z0 + g.z) */
template <typename T>
static void launch_box(struct lbm_state *s, const void *src, void *dst, dim3 g, int x0, int x1,
                       int y0, int z0, cudaStream_t stream, int box)
{
    const T *a = (const T *)src;
    T *d = (T *)dst;
    const typename coll_of<T>::type &p =
        *(const typename coll_of<T>::type *)(sizeof(T) == 4 ? (const void *)&s->u.psp
                                                            : (const void *)&s->u.pdp);
    const int forced = lbm_forced(&s->u.c);
    dim3 t(s->threads);
#define GPU_CASE_(C, F)                                                                            \
    if (s->u.c.collision == C && forced == F) {                                                    \
        if (box == 4)                                                                              \
            pull_kernel<T, C, F, 4><<<g, t, 0, stream>>>(a, d, s->u.l, s->u.b, p, x0, x1, y0, z0); \
        else if (box == 2)                                                                         \
            pull_kernel<T, C, F, 2><<<g, t, 0, stream>>>(a, d, s->u.l, s->u.b, p, x0, x1, y0, z0); \
        else if (box == 1)                                                                         \
            pull_kernel<T, C, F, 1><<<g, t, 0, stream>>>(a, d, s->u.l, s->u.b, p, x0, x1, y0, z0); \
        else                                                                                       \
            pull_kernel<T, C, F, 0><<<g, t, 0, stream>>>(a, d, s->u.l, s->u.b, p, x0, x1, y0, z0); \
        return;                                                                                    \
    }
    GPU_CASE_(LBM_BGK, 0)
    GPU_CASE_(LBM_TRT, 0)
    GPU_CASE_(LBM_MRT, 0)
    GPU_CASE_(LBM_BGK, 1)
    GPU_CASE_(LBM_TRT, 1)
    GPU_CASE_(LBM_MRT, 1)
#undef GPU_CASE_
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
    const int aa = c->kernel == LBM_AA, aos = c->kernel == LBM_PULL_AOS;
    const void *fn = c->prec == PREC_SP ? kernel_fn<float>(c->collision, lbm_forced(c), aa, aos)
                                        : kernel_fn<double>(c->collision, lbm_forced(c), aa, aos);
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
    for (int k = 0; k < lbm_lattices(c->kernel); k++) {
        if (gpu_check(cudaMalloc((void **)&s->lat[k], s->u.l.elems * s->u.es), "cudaMalloc", err,
                      errlen))
            goto fail;
    }
    if (gpu_check(cudaMalloc((void **)&s->partial, 2 * CHECK_BLOCKS * sizeof(double)), "cudaMalloc",
                  err, errlen) ||
        gpu_check(cudaMalloc((void **)&s->hsum, CHECK_BLOCKS * sizeof *s->hsum), "cudaMalloc", err,
                  errlen) ||
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
    used->threads = s->threads;
    used->blocks = (long)s->grid.x * s->grid.y * s->grid.z;
    used->occupancy = gpu_occupancy(
        s->u.es == 4
            ? kernel_fn<float>(c->collision, lbm_forced(c), is_aa(s), c->kernel == LBM_PULL_AOS)
            : kernel_fn<double>(c->collision, lbm_forced(c), is_aa(s), c->kernel == LBM_PULL_AOS),
        s->threads, used->blocks);
    used->pitch = s->u.l.pitch;
    *out = s;
    return 0;
fail:
    lbm_free(s);
    return 1;
}

static int init_lattices(struct lbm_state *s, char *err, size_t errlen)
{
    for (int k = 0; k < lbm_lattices(s->u.c.kernel); k++) {
        if (s->u.es == 4)
            init_kernel<float>
                <<<4096, 256>>>((float *)s->lat[k], s->u.l, s->u.c.place, k, is_aa(s));
        else
            init_kernel<double>
                <<<4096, 256>>>((double *)s->lat[k], s->u.l, s->u.c.place, k, is_aa(s));
    }
    s->cur = 0;
    s->aa_even = 0;
    return gpu_check(cudaGetLastError(), "init kernel", err, errlen) ||
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
    if (!rc) lbm_image_from_pdf(l, s->u.c.kernel, s->u.es, h, pdf);
    if (!rc)
        rc = gpu_check(cudaMemcpy(s->lat[0], h, l->elems * s->u.es, cudaMemcpyHostToDevice),
                       "cudaMemcpy", err, errlen);
    free(h);
    return rc;
}

extern "C" int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen)
{
    float ms = 0;
    if (gpu_check(cudaEventRecord(s->ev[0]), "cudaEventRecord", err, errlen)) return 1;
    /* an interrupt stops the launches (the queue drains what was launched before) */
    for (int t = 0; t < steps && is_aa(s) && !interrupt_requested(); t++) {
        if (s->u.es == 4)
            launch_aa<float>(s);
        else
            launch_aa<double>(s);
        s->aa_even = !s->aa_even;
    }
    for (int t = 0; t < steps && !is_aa(s) && !interrupt_requested(); t++) {
        if (s->u.es == 4)
            launch_box<float>(s, s->lat[s->cur], s->lat[1 - s->cur], s->grid, 0, (int)s->u.l.nx, 0,
                              0, 0, whole_kernel(s));
        else
            launch_box<double>(s, s->lat[s->cur], s->lat[1 - s->cur], s->grid, 0, (int)s->u.l.nx, 0,
                               0, 0, whole_kernel(s));
        s->cur = 1 - s->cur;
    }
    if (gpu_check(cudaGetLastError(), "lbm kernel launch", err, errlen) ||
        gpu_check(cudaEventRecord(s->ev[1]), "cudaEventRecord", err, errlen) ||
        gpu_check(cudaEventSynchronize(s->ev[1]), "lbm kernel", err, errlen) ||
        gpu_check(cudaEventElapsedTime(&ms, s->ev[0], s->ev[1]), "cudaEventElapsedTime", err,
                  errlen))
        return 1;
    *seconds = ms * 1e-3;
    if (interrupt_requested()) {
        snprintf(err, errlen, "interrupted");
        return 1;
    }
    return 0;
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
    if (!rc) lbm_image_to_pdf(l, s->u.c.kernel, s->u.es, h, pdf);
    free(h);
    return rc;
}

extern "C" int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, uint64_t *hash,
                         char *err, size_t errlen)
{
    double h[2 * CHECK_BLOCKS], m = 0, bad = 0;
    unsigned long long hs[CHECK_BLOCKS], hsum = 0;
    size_t g[3];
    if (!lbm_readable(s->u.c.kernel, s->aa_even, err, errlen)) return 1;
    lbm_global_dims(&s->u.c, g);
    if (s->u.es == 4)
        check_kernel<float><<<CHECK_BLOCKS, 256>>>((const float *)s->lat[s->cur], s->u.l,
                                                   s->u.c.place, g[0], g[1], g[2], s->partial,
                                                   s->hsum, is_aa(s));
    else
        check_kernel<double><<<CHECK_BLOCKS, 256>>>((const double *)s->lat[s->cur], s->u.l,
                                                    s->u.c.place, g[0], g[1], g[2], s->partial,
                                                    s->hsum, is_aa(s));
    if (gpu_check(cudaGetLastError(), "check kernel", err, errlen) ||
        gpu_check(cudaMemcpy(h, s->partial, sizeof h, cudaMemcpyDeviceToHost), "check kernel", err,
                  errlen) ||
        gpu_check(cudaMemcpy(hs, s->hsum, sizeof hs, cudaMemcpyDeviceToHost), "check kernel", err,
                  errlen))
        return 1;
    for (int b = 0; b < CHECK_BLOCKS; b++) {
        m += h[2 * b];
        bad += h[2 * b + 1];
        hsum += hs[b];
    }
    *mass = m + (double)(s->u.l.nx * s->u.l.ny * s->u.l.nz); /* sum f = sum g + one per cell */
    *nonfinite = (size_t)bad;
    *hash = hsum;
    return 0;
}

/* Distributed runs: boxes and halos on two streams. */

extern "C" int lbm_update_box(struct lbm_state *s, const size_t lo[3], const size_t hi[3],
                              int queue, char *err, size_t errlen)
{
    if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return 0;
    dim3 g((unsigned)((hi[0] - lo[0] + s->threads - 1) / s->threads), (unsigned)(hi[1] - lo[1]),
           (unsigned)(hi[2] - lo[2]));
    const size_t n[3] = {s->u.l.nx, s->u.l.ny, s->u.l.nz};
    int ghosts = 0; /* does a cell of the box pull from a ghost layer? */
    for (int a = 0; a < 3; a++)
        ghosts |= (s->u.b.neighbor[a][0] && lo[a] == 0) || (s->u.b.neighbor[a][1] && hi[a] == n[a]);
    if (s->u.es == 4)
        launch_box<float>(s, s->lat[s->cur], s->lat[1 - s->cur], g, (int)lo[0], (int)hi[0],
                          (int)lo[1], (int)lo[2], s->q[queue], ghosts ? 2 : 1);
    else
        launch_box<double>(s, s->lat[s->cur], s->lat[1 - s->cur], g, (int)lo[0], (int)hi[0],
                           (int)lo[1], (int)lo[2], s->q[queue], ghosts ? 2 : 1);
    return gpu_check(cudaGetLastError(), "lbm kernel launch", err, errlen);
}

extern "C" int lbm_halo_copy(struct lbm_state *s, enum lbm_halo_dir dir, const int *dirs, int ndirs,
                             const long lo[3], const long hi[3], void *buf, int queue, char *err,
                             size_t errlen)
{
    struct dirset ds;
    const long ex = hi[0] - lo[0], ey = hi[1] - lo[1], ez = hi[2] - lo[2];
    const size_t n = (size_t)(ex * ey * ez) * (size_t)ndirs;
    int blocks;
    if (ndirs < 1 || ndirs > 5) {
        snprintf(err, errlen, "a halo carries 1 to 5 populations, not %d", ndirs);
        return 1;
    }
    if (n == 0) return 0;
    memset(&ds, 0, sizeof ds);
    ds.n = ndirs;
    for (int k = 0; k < ndirs; k++)
        ds.d[k] = dirs[k];
    blocks = (int)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    if (s->u.es == 4)
        halo_kernel<float><<<blocks, 256, 0, s->q[queue]>>>((float *)s->lat[1 - s->cur], s->u.l, ds,
                                                            lo[0], lo[1], lo[2], ex, ey, ez,
                                                            (float *)buf, dir == LBM_HALO_UNPACK);
    else
        halo_kernel<double><<<blocks, 256, 0, s->q[queue]>>>((double *)s->lat[1 - s->cur], s->u.l,
                                                             ds, lo[0], lo[1], lo[2], ex, ey, ez,
                                                             (double *)buf, dir == LBM_HALO_UNPACK);
    return gpu_check(cudaGetLastError(), "halo kernel launch", err, errlen);
}

extern "C" void *lbm_buffer_alloc(size_t bytes, enum lbm_buffer_mem mem)
{
    void *p = NULL;
    if (mem == LBM_BUFFER_HOST ? cudaMallocHost(&p, bytes ? bytes : 1)
                               : cudaMalloc(&p, bytes ? bytes : 1))
        return NULL;
    return p;
}

extern "C" void lbm_buffer_free(void *p, enum lbm_buffer_mem mem)
{
    if (p && mem == LBM_BUFFER_HOST)
        cudaFreeHost(p);
    else if (p)
        cudaFree(p);
}

extern "C" int lbm_buffer_copy(struct lbm_state *s, void *dst, const void *src, size_t bytes,
                               enum lbm_copy_dir dir, char *err, size_t errlen)
{
    return gpu_check(
        cudaMemcpyAsync(dst, src, bytes,
                        dir == LBM_COPY_TO_HOST ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice,
                        s->q[0]),
        "halo copy", err, errlen);
}

extern "C" int lbm_host_register(void *p, size_t bytes, enum lbm_pin pin, char *err, size_t errlen)
{
    if (pin == LBM_UNPIN) {
        cudaHostUnregister(p);
        return 0;
    }
    return gpu_check(cudaHostRegister(p, bytes, cudaHostRegisterPortable),
                     "pinning node-shared halo memory", err, errlen);
}

extern "C" int lbm_buffers_on_host(void)
{
    return 0;
}

extern "C" int lbm_queues_async(void)
{
    return 1;
}

extern "C" int lbm_wait(struct lbm_state *s, int queue, char *err, size_t errlen)
{
    for (int k = 0; k < 2; k++) {
        if ((queue < 0 || queue == k) &&
            gpu_check(cudaStreamSynchronize(s->q[k]), "lbm stream", err, errlen))
            return 1;
    }
    return 0;
}

extern "C" int lbm_queues_join(struct lbm_state *s, char *err, size_t errlen)
{
    return gpu_check(cudaEventRecord(s->qev[0], s->q[0]), "cudaEventRecord", err, errlen) ||
           gpu_check(cudaEventRecord(s->qev[1], s->q[1]), "cudaEventRecord", err, errlen) ||
           gpu_check(cudaStreamWaitEvent(s->q[0], s->qev[1], 0), "cudaStreamWaitEvent", err,
                     errlen) ||
           gpu_check(cudaStreamWaitEvent(s->q[1], s->qev[0], 0), "cudaStreamWaitEvent", err,
                     errlen);
}

extern "C" void lbm_swap(struct lbm_state *s)
{
    s->cur = 1 - s->cur;
}

extern "C" int lbm_backend_select(int local_rank, char *err, size_t errlen)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();
        return 0; /* lbm_backend_open says why there is none */
    }
    return gpu_check(cudaSetDevice(local_rank % n), "cudaSetDevice", err, errlen);
}

extern "C" void lbm_free(struct lbm_state *s)
{
    if (!s) return;
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
