/* lbm_cuda_dist.cu: the CUDA LBM backend's calls for distributed runs (lbm/lbm_dist_backend.h):
 * boxes and halos queued on two streams, halo buffers, pinning, device selection. */
#include <stdio.h>

#include "gpu_check.h"
#include "lbm_dist_backend.h"
#include "lbm_gpu.h"

/* Threads per block for a box whose rows are `wide` cells (a multiple of 32): s->threads where
 * whole blocks fill a row; else a row's width, or a part of it in whole warps (64 to 256
 * threads), so that no block of the row stands part idle (an x split's interior: 224 cells of a
 * 256-cell row, whose second block of 128 would be a quarter idle); else s->threads. */
static int box_block(const struct lbm_state *s, size_t wide)
{
    if (wide <= (size_t)s->threads) return (int)wide; /* an x shell: one block a row */
    if (wide % (size_t)s->threads == 0) return s->threads;
    for (size_t k = 1; k <= wide / 64; k++)
        if (wide % k == 0 && wide / k % 32 == 0 && wide / k <= 256) return (int)(wide / k);
    return s->threads;
}

extern "C" int lbm_update_box(struct lbm_state *s, const size_t lo[3], const size_t hi[3],
                              int queue, char *err, size_t errlen)
{
    if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return 0;
    /* a box narrower than a block (an x shell) gets blocks of its width in whole warps: with
     * s->threads per block most threads of each block would stop at once, and the few that
     * work would hold the SM's block slots (a 1-cell shell of 512 x 512 rows: 262144 blocks of
     * one working thread) */
    const size_t wide = (hi[0] - lo[0] + 31) / 32 * 32;
    const int block = box_block(s, wide);
    dim3 g((unsigned)((hi[0] - lo[0] + block - 1) / block), (unsigned)(hi[1] - lo[1]),
           (unsigned)(hi[2] - lo[2]));
    const size_t n[3] = {s->u.l.nx, s->u.l.ny, s->u.l.nz};
    int across[3]; /* does a cell of the box pull from a ghost layer along axis a? */
    for (int a = 0; a < 3; a++)
        across[a] =
            (s->u.b.neighbor[a][0] && lo[a] == 0) || (s->u.b.neighbor[a][1] && hi[a] == n[a]);
    const int ghosts = across[0] || across[1] || across[2];
    /* an interior box two cells a thread where every pair's word is aligned, as lbm_step's whole
     * domain (the same states: each cell's loads, collision and store are the box kernel's): whole
     * rows (a y or z split's; on four H200s weak 1x2x2 sp +1.8%, fp16s +0.8-1.0%:
     * data/mpi/gpu-box-pairs-h200x4-2026-11-26), and in sp an x split's row pieces too (even start
     * and width; two H200s, strong 512^3 x / z 0.918 -> 0.928, weak 256^3 0.918 -> 0.926:
     * data/mpi/gpu-xsplit-pairs-h200x2-2026-11-27). fp16s's x pieces stay one cell a thread: paired
     * they lost 4-5%, starting on a line or half a line into it (the same two records). */
    const size_t pairs = (hi[0] - lo[0]) / 2, pwide = (pairs + 31) / 32 * 32;
    const int pblock = box_block(s, pwide);
    const int whole = lo[0] == 0 && hi[0] == n[0] && n[0] % 2 == 0;
    const int piece = s->u.c.prec == PREC_SP && lo[0] % 2 == 0 && (hi[0] - lo[0]) % 2 == 0;
    const int inner = !ghosts && s->box_pairs && (whole || piece) && pblock <= s->box_pairs;
    /* whole rows whose only ghosts lie across x (an x split's rank with its x faces updated
     * into their buffers: its one box), paired as well where no update writes a send buffer
     * (lbm_halo_sent_by_update: the paired kernel writes none) */
    const int xrows = across[0] && !across[1] && !across[2] && whole && !s->xsend[0] &&
                      !s->xsend[1] && s->ghost_pairs && pblock <= s->ghost_pairs;
    if (inner || xrows) { /* never both: xrows reads ghosts */
        const dim3 pg((unsigned)((pairs + pblock - 1) / pblock), g.y, g.z);
        cudaError_t e = gpu_lbm_launch_pull_pairs(
            s, inner ? GPU_PULL_BOX_PAIRS : GPU_PULL_BOX_PAIRS_GHOSTS, pg, pblock, (int)lo[0],
            (int)hi[0], (int)lo[1], (int)lo[2], s->q[queue]);
        return gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "lbm kernel launch", err,
                         errlen);
    }
    cudaError_t e =
        gpu_lbm_launch_pull_block(s, ghosts ? GPU_PULL_BOX_GHOSTS : GPU_PULL_BOX, g, block,
                                  (int)lo[0], (int)hi[0], (int)lo[1], (int)lo[2], s->q[queue]);
    return gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "lbm kernel launch", err, errlen);
}

/* 0 when a halo's population count fits the kernels' dirset (1 to 5); else 1 and why, in err */
static int halo_ndirs_bad(int ndirs, char *err, size_t errlen)
{
    if (ndirs >= 1 && ndirs <= 5) return 0;
    snprintf(err, errlen, "a halo carries 1 to 5 populations, not %d", ndirs);
    return 1;
}

extern "C" int lbm_halo_copy(struct lbm_state *s, enum lbm_halo_dir dir, const int *dirs, int ndirs,
                             const long lo[3], const long hi[3], void *buf, int queue, char *err,
                             size_t errlen)
{
    const size_t n = (size_t)((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])) * (size_t)ndirs;
    cudaError_t e;
    if (halo_ndirs_bad(ndirs, err, errlen)) return 1;
    if (n == 0) return 0;
    e = gpu_lbm_launch_halo(s, dirs, ndirs, lo, hi, buf, dir == LBM_HALO_UNPACK, s->q[queue]);
    return gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "halo kernel launch", err, errlen);
}

extern "C" int lbm_halo_update(struct lbm_state *s, const int *dirs, int ndirs, const long lo[3],
                               const long hi[3], void *buf, int queue, char *err, size_t errlen)
{
    cudaError_t e;
    if (halo_ndirs_bad(ndirs, err, errlen)) return 1;
    if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return 0;
    e = gpu_lbm_launch_pull_halo(s, dirs, ndirs, lo, hi, buf, s->q[queue]);
    return gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "halo update launch", err, errlen);
}

/* whether dirs lists an x face's 5 populations in the kernels' slot order (GPU_XSLOT) */
static int xslots_ok(const int dirs[5])
{
    for (int k = 0; k < 5; k++)
        if (GPU_XSLOT(dirs[k]) / 2 != k) return 0;
    return 1;
}

/* The box kernels' inner rows read a received x face in place, which saves its unpack, 1.3M
 * scattered sector writes at 512 x 512 cells (data/PERFORMANCE-NOTES.md); the ring of ghost cells
 * that the rows on a y or z face read is unpacked */
extern "C" int lbm_halo_in_place(struct lbm_state *s, int side, const int dirs[5], const void *buf,
                                 int queue, int *taken, char *err, size_t errlen)
{
    const long gx = side ? (long)s->u.l.nx : -1;
    cudaError_t e;
    *taken = 0;
    if (!xslots_ok(dirs)) return 0;
    e = gpu_lbm_launch_face_ring(s, dirs, gx, buf, s->q[queue]);
    if (gpu_check(e != cudaSuccess ? e : cudaGetLastError(), "face ring launch", err, errlen))
        return 1;
    s->xface[side] = buf;
    *taken = 1;
    return 0;
}

/* Every one-cell box kernel with ghosts writes an x face's send buffer as it updates the face's
 * cells, which saves the pack after the update, one 32-byte sector read a value (the paired
 * GPU_PULL_BOX_PAIRS_GHOSTS writes none: lbm_update_box takes it only where no buffer is set) */
extern "C" int lbm_halo_sent_by_update(struct lbm_state *s, int side, const int dirs[5], void *buf)
{
    if (!xslots_ok(dirs)) return 0;
    s->xsend[side] = buf;
    return 1;
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

/* 32 cells: an x shell runs in one-warp blocks, and the interior after it starts a whole warp's
 * width into the row, on x = 0's alignment (128 bytes sp, 256 dp, past a row start aligned to
 * --align); an eighth of a 256-cell row */
extern "C" size_t lbm_shell_x_cells(void)
{
    return 32;
}

/* Faces updated: the x faces' cells into their send buffers first (one value a 64-byte fetch,
 * about 0.1 ms at 512 x 512 cells), then every row whole and, in sp and fp16s, two cells a
 * thread (GPU_PULL_BOX_PAIRS_GHOSTS), the received face read in place. On two H200s at 512^3
 * x / z against the 32-cell shells: sp 0.934 / 0.933, dp 0.965 / 0.943, fp16s 0.917 / 0.884;
 * fp16c, with no paired kernel and near its issue limit, 0.882 / 0.924, keeps the shells
 * (data/mpi/gpu-xsplit-update2-h200x2-2026-11-27) */
extern "C" int lbm_x_faces_updated(enum prec p)
{
    return p != PREC_FP16C;
}

/* the GPU's rows keep a ghost cell beside the x face (its row layout, gpu/lbm_cuda.cu) */
extern "C" int lbm_x_faces_in_rows(enum lbm_kernel k)
{
    (void)k;
    return 0;
}

/* a GPU rank runs one host thread: no CPU check */
extern "C" int lbm_backend_cpu_set(unsigned long long *bits, int words)
{
    (void)bits;
    (void)words;
    return 0;
}

extern "C" int lbm_backend_select(int local_rank, int *first_on_device, char *err, size_t errlen)
{
    int n = 0;
    *first_on_device = 1;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();
        return 0; /* lbm_backend_open says why there is none */
    }
    *first_on_device = local_rank < n; /* node-local ranks n, 2n, ... reuse rank 0's device */
    return gpu_check(cudaSetDevice(local_rank % n), "cudaSetDevice", err, errlen);
}
