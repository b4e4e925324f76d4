/* lbm_omp.h: what the OpenMP LBM backend (lbm_omp.c) and its row kernels (lbm_omp_pull.c and
 * lbm_omp_aa.c, compiled once per line of the list below and per precision by cpu/CMakeLists.txt)
 * share: the state, the row plan, and the one list of kernel variants from which the kernels are
 * defined and the table lbm_omp.c dispatches through is made. Private to cpu/. */
#ifndef LBM_OMP_H
#define LBM_OMP_H

#include <stddef.h>
#include <string.h>

#include "lbm_model.h"
#include "pull.h"

/* Where a regular row reads and writes, relative to its first cell: rows whose y and z
 * neighbours all lie inside the sub-domain or in a ghost layer (1 <= y < ny - 1 and
 * 1 <= z < nz - 1 on one rank). Only x crosses a boundary there, so every such row follows one
 * pattern, worked out once by the general rules (pull.h) instead of per row (38 of them per
 * row cost as much as a quarter of a 256-cell row's update). */
struct row_plan {
    int ok;                    /* some row is regular (ny, nz >= 3 or ghost layers) */
    ptrdiff_t pull[19];        /* pull: cells 0 < x < nx - 1 read f_d at row + pull[d] + x cs */
    ptrdiff_t pull_end[2][19]; /* pull: cells x = 0 and x = nx - 1 read f_d at row + pull_end */
    int pull_end_inner[2];     /* 1: that end reads as the cells inside do (a ghost layer beyond it,
                                  a rank split along x and y or z), so the row's loop already gives
                                  it; 0 on a split end without the layer (the face's values) */
    ptrdiff_t aa_r[19], aa_w[19]; /* aa odd step, cells 0 < x < nx - 1: read, write (+ x) */
    ptrdiff_t aa_r_end[2][19], aa_w_end[2][19]; /* aa odd step, the end cells */
};

struct lbm_state;
/* pull: cells x0 <= x < x1 of row (y, z) from src into dst; buf: the thread's nt buffer */
typedef void (*lbm_omp_row_fn)(const struct lbm_state *s, const void *src, void *dst, size_t y,
                               size_t z, void *buf, long x0, long x1);
/* aa: one step of row (y, z) in place */
typedef void (*lbm_omp_aa_fn)(const struct lbm_state *s, void *lat, size_t y, size_t z);

/* Where a row finds population k of a received x face (lbm_state.xin): its element in the
 * lattice relative to the row's element 0 (LBM_IDX(l, 0, 0, y, z)), and in the face's buffer
 * relative to the row's cell z ny + y; those of a row whose sources cross neither y nor z (the
 * other rows take pull.h's rule) */
struct xface_at {
    ptrdiff_t lat[5], buf[5];
};

struct lbm_state {
    struct lbm_setup u;
    struct row_plan plan;
    lbm_omp_row_fn row;  /* pull kernels: the case's row (lbm_omp_variant_find) */
    lbm_omp_aa_fn aa[2]; /* aa: its two steps, [enum lbm_omp_aa_step] */
    int nt;              /* the row stores non-temporally (through nt_buf) */
    char *mem[2];        /* the allocations (one for aa) */
    char *lat[2];        /* lat[cur] holds the current populations */
    int cur;
    int aa_even;      /* aa: the next step is an even (cell-local) one; 0 right after init */
    size_t buf_elems; /* per-thread buffer of the nt kernel: a chunk for each direction */
    size_t nt_stride; /* elements from one direction's chunk to the next there */
    int threads;      /* OpenMP threads of every update (lbm_alloc's count) */
    char *nt_buf;     /* the nt kernel's per-thread buffers, nt_slot bytes apart; NULL otherwise */
    size_t nt_slot;   /* bytes: a whole 2 MiB huge page per thread, as cpu_alloc gives each */
    char region[32];  /* likwid marker region: lbm_<kernel> */
    /* distributed runs, the x faces (side 0 at x = 0, 1 at nx - 1): the received halo the rows
     * read their ghost values from (lbm_halo_in_place) and the send buffer they write
     * (lbm_halo_sent_by_update), each [k][z][y] for population k (xin_dirs[side][k] of those
     * read), and the places of each in a row; NULL: unpacked into the ghost layer, packed after
     * the update. Without an x ghost layer (u.l.gx 0) the end cells read xin themselves
     * (row_face_in) */
    const char *xin[2];
    char *xout[2];
    int xin_dirs[2][5], xout_dirs[2][5];
    struct xface_at xin_at[2];
};

/* The nt kernel streams a whole regular row whose direction rows start on a cache line, in steps
 * of LBMR_NT_LINES lines per direction (the rest of the row a line at a time, a last part of a
 * line as its whole line where padding follows, else with ordinary stores): each step is computed
 * into a small local block and goes out at once, so that streaming overlaps computing. On the
 * 16-core host 4 lines (256 bytes) beat whole-row chunks by 5-6 points of the copy_nt ceiling, 2
 * lines did about as well, 1 and 8 less (data/lbm/cpu-pull-nt-lines-h100-host-2026-11-22).
 * -DLBMR_NT_LINES=0 turns it off: every row then goes in chunks. */
#ifndef LBMR_NT_LINES
#define LBMR_NT_LINES 4
#endif
/* Other rows go in chunks of this many bytes per direction, computed into the thread's buffer
 * (where they stay in L1) and streamed out one after the other. With 512-byte chunks
 * (data/lbm/cpu-collision-fma-h100-host-2026-11-22) each chunk ended in a scalar remainder; since
 * regular rows run whole vectors, 2048 bytes (a 256-cell row in sp and dp) did best
 * (data/lbm/cpu-pull-nt-chunks-h100-host-2026-11-22).
 * -DLBMR_NT_CHUNK=N for studies, 0 for whole rows. */
#ifndef LBMR_NT_CHUNK
#define LBMR_NT_CHUNK 2048
#endif
static inline long nt_chunk_cells(size_t es, long n)
{
    const long c = LBMR_NT_CHUNK > 0 ? LBMR_NT_CHUNK / (long)es : n;
    return c > 0 ? c : 1;
}

/* Software prefetch distance of aa's 19 source streams, in bytes ahead per direction (0: none,
 * each row one loop). Off by default: it helped aa only slightly where aa is memory-bound (the
 * 16-core host) and cost more where it is core-bound (the 2-core VM), and pull_nt lost with it
 * (data/lbm/cpu-prefetch-h100-host-2026-11-23, data/lbm/cpu-prefetch-2core-vm-2026-11-23).
 * -DLBMR_PREFETCH=N (bytes, e.g. 512) for studies. */
#ifndef LBMR_PREFETCH
#define LBMR_PREFETCH 0
#endif
/* bytes per direction of each prefetched block of aa: four cache lines */
#define LBM_OMP_PF_BLOCK_BYTES 256
#if defined(__GNUC__)
#define LBM_OMP_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define LBM_OMP_PREFETCH(p) ((void)(p))
#endif

/* whether row (y, z) follows s->plan */
static inline int row_regular(const struct lbm_state *s, size_t y, size_t z)
{
    const struct lbm_layout *l = &s->u.l;
    const struct lbm_bounds *b = &s->u.b;
    return s->plan.ok && (y >= 1 || b->neighbor[1][0]) && (y + 2 <= l->ny || b->neighbor[1][1]) &&
           (z >= 1 || b->neighbor[2][0]) && (z + 2 <= l->nz || b->neighbor[2][1]);
}

/* The 5 values the end cell on x face `side` of row (y, z) sends (lbm_halo_sent_by_update),
 * population d's at v + d * stride bytes, es bytes each, into the face's send buffer. The row
 * kernels write them from where they computed them: pull_nt has streamed the lattice's copy out
 * with non-temporal stores, and reading that back waited for the line to reach memory and return
 * (12% of an x-split rank's time on the 2-core VM, data/mpi/xsplit-cpu-send-2026-11-26). */
static inline void row_face_send(const struct lbm_state *s, size_t y, size_t z, int side,
                                 const char *v, ptrdiff_t stride, size_t es)
{
    /* the buffer is [k][z][y]: population k's face ny nz values apart */
    const size_t face = s->u.l.ny * s->u.l.nz, cell = z * s->u.l.ny + y;
    for (int k = 0; k < 5; k++)
        memcpy(s->xout[side] + (k * face + cell) * es, v + s->xout_dirs[side][k] * stride, es);
}

/* The element of the received x face `side` (s->xin[side]) that the end cell of row (y, z) reads
 * population k (xin_dirs[side][k]) from; -1 where that population comes from a wall instead (a row
 * on a y or z wall), which the general rule of pull.h has read, or from beyond the face's y or z
 * range (an edge's ghost, unpacked). `inner`: the row's sources cross neither y nor z (the offsets
 * fixed when the halo was offered, xin_at); otherwise pull.h's rule, which leaves the upstream
 * cell, the ghost cell the value stands for, in c. Read by the end function where the lattice has
 * no x ghost layer, and copied into that cell by row_ghosts_in where it has one. */
static inline ptrdiff_t row_face_in(const struct lbm_state *s, int side, int k, size_t y, size_t z,
                                    int inner, long c[3])
{
    const struct lbm_layout *l = &s->u.l;
    const int d = s->xin_dirs[side][k];
    const long x = side ? (long)l->nx - 1 : 0, ny = (long)l->ny, nz = (long)l->nz;
    int lid;
    if (inner) return (ptrdiff_t)(z * l->ny + y) + s->xin_at[side].buf[k];
    if (lbm_upstream_cell(l, &s->u.b, lbm_cx[d], lbm_cy[d], lbm_cz[d], x, (long)y, (long)z, c, &lid,
                          LBM_PULL_HALO) ||
        c[1] < 0 || c[1] >= ny || c[2] < 0 || c[2] >= nz)
        return -1;
    return (ptrdiff_t)((k * nz + c[2]) * ny + c[1]);
}

/* How a row writes its results. */
enum lbm_omp_store {
    LBM_OMP_PLAIN, /* ordinary stores (write-allocate) */
    LBM_OMP_NT     /* non-temporal stores through a per-thread buffer (s->nt_buf), then a fence */
};

/* The two steps of aa, which alternate: odd from a cell's neighbours, even in the cell itself. */
enum lbm_omp_aa_step { LBM_OMP_AA_ODD = 0, LBM_OMP_AA_EVEN = 1 };

/* Every row kernel, one line each, in every precision of LBM_OMP_PRECISIONS:
 *   X(scheme, name, kernel, collision, forced, store)
 * scheme: PULL (two lattices: one function over cells x0 <= x < x1 of a row, lbm_omp_pull.c;
 * pull_aos's rows walk the array of structures) or AA (in place: one function per step,
 * lbm_omp_aa.c); name: the function, name_sp and name_dp in the binary (AA: name_odd_sp,
 * name_even_sp, ...); forced: 1 for the body force of the channel. Forced rows store plainly: they
 * are not a benchmark path, so pull_nt takes pull's (lbm_omp_variant_find). cpu/CMakeLists.txt
 * reads these lines too: it compiles the scheme's file once per line and precision, with the
 * line's constants as literals; lbm_omp.c dispatches through the table made from them. A new
 * variant is one line here (and, for a new scheme, its kernel file); keep one line per line. */
#define LBM_OMP_VARIANTS(X)                                                                        \
    X(PULL, row_bgk, LBM_PULL, LBM_BGK, 0, LBM_OMP_PLAIN)                                          \
    X(PULL, row_bgk_nt, LBM_PULL_NT, LBM_BGK, 0, LBM_OMP_NT)                                       \
    X(PULL, row_bgk_f, LBM_PULL, LBM_BGK, 1, LBM_OMP_PLAIN)                                        \
    X(PULL, row_bgk_aos, LBM_PULL_AOS, LBM_BGK, 0, LBM_OMP_PLAIN)                                  \
    X(PULL, row_bgk_aos_f, LBM_PULL_AOS, LBM_BGK, 1, LBM_OMP_PLAIN)                                \
    X(AA, aa_bgk, LBM_AA, LBM_BGK, 0, LBM_OMP_PLAIN)                                               \
    X(AA, aa_bgk_f, LBM_AA, LBM_BGK, 1, LBM_OMP_PLAIN)                                             \
    X(PULL, row_trt, LBM_PULL, LBM_TRT, 0, LBM_OMP_PLAIN)                                          \
    X(PULL, row_trt_nt, LBM_PULL_NT, LBM_TRT, 0, LBM_OMP_NT)                                       \
    X(PULL, row_trt_f, LBM_PULL, LBM_TRT, 1, LBM_OMP_PLAIN)                                        \
    X(PULL, row_trt_aos, LBM_PULL_AOS, LBM_TRT, 0, LBM_OMP_PLAIN)                                  \
    X(PULL, row_trt_aos_f, LBM_PULL_AOS, LBM_TRT, 1, LBM_OMP_PLAIN)                                \
    X(AA, aa_trt, LBM_AA, LBM_TRT, 0, LBM_OMP_PLAIN)                                               \
    X(AA, aa_trt_f, LBM_AA, LBM_TRT, 1, LBM_OMP_PLAIN)                                             \
    X(PULL, row_mrt, LBM_PULL, LBM_MRT, 0, LBM_OMP_PLAIN)                                          \
    X(PULL, row_mrt_nt, LBM_PULL_NT, LBM_MRT, 0, LBM_OMP_NT)                                       \
    X(PULL, row_mrt_f, LBM_PULL, LBM_MRT, 1, LBM_OMP_PLAIN)                                        \
    X(PULL, row_mrt_aos, LBM_PULL_AOS, LBM_MRT, 0, LBM_OMP_PLAIN)                                  \
    X(PULL, row_mrt_aos_f, LBM_PULL_AOS, LBM_MRT, 1, LBM_OMP_PLAIN)                                \
    X(AA, aa_mrt, LBM_AA, LBM_MRT, 0, LBM_OMP_PLAIN)                                               \
    X(AA, aa_mrt_f, LBM_AA, LBM_MRT, 1, LBM_OMP_PLAIN)

/* The precisions every variant is compiled in, one line each: X(prec, suffix, arg), arg passed
 * through (the callers' own parameter). cpu/CMakeLists.txt reads the suffixes too. */
#define LBM_OMP_PRECISIONS(X, arg)                                                                 \
    X(PREC_SP, sp, arg)                                                                            \
    X(PREC_DP, dp, arg)                                                                            \
    X(PREC_FP16S, fp16s, arg)                                                                      \
    X(PREC_FP16C, fp16c, arg)

/* The kernels' names: LBM_OMP_NAME(row_bgk_nt, sp) is row_bgk_nt_sp, LBM_OMP_AA_NAME(aa_bgk, odd,
 * sp) aa_bgk_odd_sp. */
#define LBM_OMP_NAME_(name, suffix) name##_##suffix
#define LBM_OMP_NAME(name, suffix) LBM_OMP_NAME_(name, suffix)
#define LBM_OMP_AA_NAME_(name, step, suffix) name##_##step##_##suffix
#define LBM_OMP_AA_NAME(name, step, suffix) LBM_OMP_AA_NAME_(name, step, suffix)

/* The kernels' declarations, every line in every precision. */
#define LBM_OMP_DECLARE_PULL_(prec, suffix, name)                                                  \
    void LBM_OMP_NAME(name, suffix)(const struct lbm_state *s, const void *src, void *dst,         \
                                    size_t y, size_t z, void *buf, long x0, long x1);
#define LBM_OMP_DECLARE_AA_(prec, suffix, name)                                                    \
    void LBM_OMP_AA_NAME(name, odd, suffix)(const struct lbm_state *s, void *lat, size_t y,        \
                                            size_t z);                                             \
    void LBM_OMP_AA_NAME(name, even, suffix)(const struct lbm_state *s, void *lat, size_t y,       \
                                             size_t z);
#define LBM_OMP_DECLARE_(scheme, name, kernel, collision, forced, store)                           \
    LBM_OMP_PRECISIONS(LBM_OMP_DECLARE_##scheme##_, name)
LBM_OMP_VARIANTS(LBM_OMP_DECLARE_)
#undef LBM_OMP_DECLARE_

/* One line of LBM_OMP_VARIANTS: what selects it, and its functions in every precision. */
struct lbm_omp_variant {
    const char *name;
    enum lbm_kernel kernel;
    enum lbm_collision collision;
    int forced;
    enum lbm_omp_store store;
    lbm_omp_row_fn row[PREC_COUNT];  /* PULL; NULL for AA */
    lbm_omp_aa_fn aa[PREC_COUNT][2]; /* AA: [precision][enum lbm_omp_aa_step]; NULL for PULL */
};

#endif
