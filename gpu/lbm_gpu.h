/* lbm_gpu.h: private to the CUDA LBM backend: the state its files share, the variant list and
 * the dispatcher (lbm_dispatch.cu) that the single-domain (lbm_cuda.cu) and distributed
 * (lbm_cuda_dist.cu) calls launch through. C++ (CUDA) only. */
#ifndef LBMR_LBM_GPU_H
#define LBMR_LBM_GPU_H

#include <cuda_runtime.h>

#include "lbm.h"

/* 128 threads per block: the H100 sweep (data/lbm/gpu-block-size-h100-2026-11-22) ran 256^3 sp
 * at 16861 MFLUP/s with 128 against 16043 with 256 (more blocks resident: occupancy 0.44 vs
 * 0.38) */
#define GPU_LBM_DEFAULT_THREADS 128
/* lbm_step's updates a CUDA graph launch (even: each graph ends in the phase it started) */
#define GPU_LBM_GRAPH_UPDATES 8
/* blocks of lbm_check's reduction kernel (256 threads each): one partial sum per block */
#define GPU_LBM_CHECK_BLOCKS 1024

/* The rank of an x-moving direction among the ten (directions 1, 2 and 7 to 14: 0 to 9); half of
 * it is its rank among the five of its c_x sign, its slot in a halo across an x face (decomp lists
 * a halo's directions in direction order) */
#define GPU_XSLOT(i) ((i) <= 2 ? (i)-1 : (i)-5)

struct lbm_state {
    struct lbm_setup u;
    char *lat[2];
    int cur;
    int threads;
    dim3 grid;
    cudaEvent_t ev[2];
    double *partial;          /* GPU_LBM_CHECK_BLOCKS x 2: mass, non-finite count */
    unsigned long long *hsum; /* GPU_LBM_CHECK_BLOCKS hash partial sums */
    /* high and low priority, blocking (they and the legacy default stream wait for each other):
     * distributed runs 0 boundary and halo, 1 interior; aa 0 its launches, 1 its face rows */
    cudaStream_t q[2];
    int aa_even;       /* aa: the next update is the cell-local one; 0 right after init */
    int face_threads;  /* aa: threads per block of the face rows' kernel (more registers) */
    dim3 face_grid;    /* aa: its grid, one block row per face row (gpu_aa_face_rows) */
    int pull_pairs;    /* pull, sp or fp16s, one domain: GPU_PULL_PAIRS instead of GPU_PULL */
    dim3 pair_grid;    /* its grid: s->threads pairs of cells a block */
    int box_pairs;     /* pull, sp or fp16s, words aligned: GPU_PULL_BOX_PAIRS's most threads a
                          block for interior boxes (0: GPU_PULL_BOX) */
    int ghost_pairs;   /* the same for GPU_PULL_BOX_PAIRS_GHOSTS (x ghosts alone) */
    int sms;           /* the device's SMs, for GPU_PULL_HALO's cap; 0: unknown, no cap */
    int local_pairs;   /* aa, sp or 16-bit: the cell-local half in GPU_AA_LOCAL_PAIRS */
    int local_threads; /* the cell-local half's threads per block (paired: at most 128) */
    dim3 local_grid;   /* its grid: (blocks a plane, nz); s->grid is the neighbour half's */
    cudaEvent_t qev[2];
    /* distributed runs: the received halo of the x face at x = -1 and at x = nx that the next
     * update reads in place of those ghost cells, or NULL (lbm_halo_in_place) */
    const void *xface[2];
    /* ... and the send buffer of the x face at x = 0 and at x = nx - 1 that every update of those
     * cells writes, or NULL (lbm_halo_sent_by_update) */
    void *xsend[2];
    /* lbm_step's updates, GPU_LBM_GRAPH_UPDATES of them captured once on q[0] (NULL: not yet),
     * and the phase they start from (aa: aa_even, pull: cur) */
    cudaGraphExec_t graph;
    int graph_phase;
};

/* The update kernels, one row each: (variant, kernel template, what it updates). Every row is
 * instantiated for every precision, collision and forcing in lbm_dispatch.cu's lists; a new
 * streaming scheme is one row here plus its kernel in lbm_kernels.cuh and its launch arguments.
 * The variant is the kernel template's last parameter, so each instance keeps only its own
 * code. */
#define GPU_LBM_VARIANTS(X)                                                                        \
    X(GPU_PULL, pull_kernel)            /* pull (SoA), a whole domain without ghost layers */      \
    X(GPU_PULL_AOS, pull_kernel)        /* pull_aos: the same on an array of structures */         \
    X(GPU_PULL_BOX, pull_kernel)        /* a box of a sub-domain that reads no ghost layer */      \
    X(GPU_PULL_BOX_GHOSTS, pull_kernel) /* a box of a sub-domain that reads ghost layers */        \
    X(GPU_PULL_HALO, pull_kernel)       /* a halo's cells updated into its send buffer */          \
    X(GPU_AA_NEIGHBOURS, aa_kernel)     /* aa's first update of a pair: the neighbours' slots */   \
    X(GPU_AA_LOCAL, aa_kernel)          /* aa's second update of a pair: the cell's own slots */   \
    X(GPU_AA_FACES, aa_kernel)          /* aa's first update on the rows on a y or z face */       \
    X(GPU_AA_LOCAL_PAIRS, aa_pairs_kernel)   /* GPU_AA_LOCAL, sp and 16-bit: two cells a thread */ \
    X(GPU_PULL_PAIRS, pull_pairs_kernel)     /* GPU_PULL, sp and fp16s: two cells a thread */      \
    X(GPU_PULL_BOX_PAIRS, pull_pairs_kernel) /* GPU_PULL_BOX, sp and fp16s: the same */            \
    X(GPU_PULL_BOX_PAIRS_GHOSTS, pull_pairs_kernel) /* whole rows of GPU_PULL_BOX_GHOSTS: same */

#define GPU_LBM_VARIANT_ENUM_(v, kernel) v,
enum gpu_lbm_variant { GPU_LBM_VARIANTS(GPU_LBM_VARIANT_ENUM_) GPU_LBM_VARIANT_COUNT };
#undef GPU_LBM_VARIANT_ENUM_

/* The kernel instance of a variant for a case's precision, collision and forcing (a __global__
 * function's address, for cudaFuncGetAttributes and gpu_occupancy); NULL for none. */
const void *gpu_lbm_kernel(const struct lbm_case *c, enum gpu_lbm_variant v);

/* The variant whose registers bound a case's block size and set its occupancy: pull, pull_aos,
 * or aa's neighbour half (the one with more registers) */
enum gpu_lbm_variant gpu_lbm_case_variant(const struct lbm_case *c);

/* Queue one update of the box [x0, x1) x [y0, y0 + g.y) x [z0, z0 + g.z) (the whole domain: 0,
 * nx, 0, 0) from s->lat[s->cur] into the other lattice on `stream` with pull variant v. */
cudaError_t gpu_lbm_launch_pull(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g, int x0, int x1,
                                int y0, int z0, cudaStream_t stream);
/* The same with `block` threads per block instead of s->threads (a box narrower than a block) */
cudaError_t gpu_lbm_launch_pull_block(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g,
                                      int block, int x0, int x1, int y0, int z0,
                                      cudaStream_t stream);
/* Queue the update of the cells [lo, hi) from s->lat[s->cur], as the box kernel updates them,
 * writing populations dirs[0..ndirs) (1 to 5) into buf ([dir][z][y][x], as the halo pack) and
 * nothing into the lattice, on `stream`. */
cudaError_t gpu_lbm_launch_pull_halo(struct lbm_state *s, const int *dirs, int ndirs,
                                     const long lo[3], const long hi[3], void *buf,
                                     cudaStream_t stream);
/* Shared memory of aa's neighbour half at `threads` a block and es-byte values: its 10 x-moving
 * directions' values staged for the lane at their destination and each lane's cell index (4- and
 * 8-byte values; 0 for 16-bit ones, stored straight) */
size_t gpu_aa_stage_bytes(int threads, size_t es);
/* aa's rows on a y or z face: fy nz + fz (ny - 2) for fy, fz = 2 (1 where ny, nz = 1) */
long gpu_aa_face_rows(const struct lbm_layout *l);
/* The cells a row takes in aa's plane-wide runs (aa_kernel, aa_pairs_kernel): 4- and 8-byte
 * values run over the stored row, xrow, its lanes past nx idle, so that a warp's requests start
 * where a cache line of the row does (run over nx, a row of 16 mod 32 cells put every other
 * row's warps across two lines; sp lost up to 5 points of copy there, H200); 16-bit values,
 * whose halves are bound by issue, over nx, every lane with a cell. */
static inline __host__ __device__ size_t gpu_aa_run_row(const struct lbm_layout *l, size_t es)
{
    return es >= 4 ? l->xrow : l->nx;
}
/* Queue one update of the box [x0, x1) x [y0, y0 + g.y) x [z0, z0 + g.z) from s->lat[s->cur]
 * into the other lattice with `block` threads (two cells each) per block on `stream`:
 * GPU_PULL_PAIRS, the whole domain (s->pull_pairs: 0, nx, 0, 0, s->pair_grid), or
 * GPU_PULL_BOX_PAIRS, an interior box (s->box_pairs), or GPU_PULL_BOX_PAIRS_GHOSTS, a box of
 * whole rows whose only ghost layers lie across x (s->ghost_pairs). */
cudaError_t gpu_lbm_launch_pull_pairs(struct lbm_state *s, enum gpu_lbm_variant v, dim3 g,
                                      int block, int x0, int x1, int y0, int z0,
                                      cudaStream_t stream);
/* Queue one in-place aa update of s->lat[0] on s->q[0]: the half s->aa_even names (the neighbour
 * half: its inner rows on s->q[0] and its face rows beside them on s->q[1], joined). */
cudaError_t gpu_lbm_launch_aa(struct lbm_state *s);
/* Fill lattice k with the initial state (k = 1: NaN poison everywhere). */
cudaError_t gpu_lbm_launch_init(struct lbm_state *s, int k);
/* Reduce the current lattice into s->partial and s->hsum (GPU_LBM_CHECK_BLOCKS each). */
cudaError_t gpu_lbm_launch_check(struct lbm_state *s);
/* Queue face_ring_kernel: the ghost cells of the x face at x = gx (-1 or nx) that the rows on a y
 * or z face read, from buf, the face's received halo (5 populations dirs[0..5)), into the next
 * lattice, on `stream`. */
cudaError_t gpu_lbm_launch_face_ring(struct lbm_state *s, const int *dirs, long gx, const void *buf,
                                     cudaStream_t stream);
/* Queue the copy of populations dirs[0..ndirs) (1 to 5) of the cells [lo, hi) between the next
 * lattice and buf (unpack: into the lattice) on `stream`. */
cudaError_t gpu_lbm_launch_halo(struct lbm_state *s, const int *dirs, int ndirs, const long lo[3],
                                const long hi[3], void *buf, int unpack, cudaStream_t stream);

#endif
