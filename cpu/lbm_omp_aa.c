/* lbm_omp_aa.c: one x row of the in-place AA update (kernel aa), compiled once per AA line of
 * LBM_OMP_VARIANTS and precision (lbm_omp_kernel.h names the constants). The lattice holds,
 * between even and odd steps, the post-collision value of direction d in slot opp(d) of its own
 * cell:
 *   odd step  (from that state): f_d = slot opp(d) of the cell upstream, x - c_d (across a wall:
 *             slot d of the cell itself, plus the lid's term); collide; f_d goes to slot d of
 *             the cell downstream, x + c_d (across a wall: slot opp(d) of the cell itself, with
 *             the lid's term of opp(d)). Every location a cell writes is one it read.
 *   even step: f_d = slot d of the cell; collide; f_d goes to slot opp(d) of the cell.
 * Each location is read and written by one cell only: rows run in parallel, x vectorises. */
#include "lbm_omp_kernel.h"

#if ROW_16BIT
/* the first r < ROW16_W values through a block's conversions (a row's last cells as one block: one
 * by one they took a fifth of aa fp16s's time at 256^3 on the 2-core VM; pull's rows keep their
 * last cells element by element, lbm_omp_pull.c): zero-filled lanes decoded (a masked load, else a
 * zero-filled copy), the block encoded and its first r values stored (a masked store, else through
 * a copy) */
static inline void row16_decode_part(float *restrict out, const uint16_t *restrict in, long r)
{
#if ROW16_MASKED && ROW16_H
    row16_decode_h(out, row16_load_part(in, r));
#else
    uint16_t h[ROW16_W] = {0};
    memcpy(h, in, (size_t)r * sizeof *h);
    row16_decode(out, h);
#endif
}
static inline void row16_encode_part(uint16_t *restrict out, const float *restrict in, long r)
{
#if ROW16_MASKED && ROW16_H
    row16_store_part(out, row16_encode_h(in), r);
#else
    uint16_t h[ROW16_W];
    row16_encode(h, in);
    memcpy(out, h, (size_t)r * sizeof *h);
#endif
}
#endif

/* With LBMR_PREFETCH the rows go in blocks of LBM_OMP_PF_BLOCK_BYTES per direction, each block
 * first prefetching its sources' lines that far ahead; without it, a row is one block (the loop
 * as it was). */
#define AA_LINE ((long)(64 / sizeof(ROW_STORED)))                /* cells per line */
#define AA_PF_CELLS ((long)(LBMR_PREFETCH / sizeof(ROW_STORED))) /* distance, cells */
#define AA_BLOCK (AA_PF_CELLS > 0 ? (long)(LBM_OMP_PF_BLOCK_BYTES / sizeof(ROW_STORED)) : nx)
/* prefetch direction i's source lines of the block at x0, AA_PF_CELLS ahead; AA_SRC_(i) names
 * the step's source pointer of direction i */
#define AA_PF_(i, cx, cy, cz, op)                                                                  \
    for (long o = 0; o < AA_BLOCK; o += AA_LINE)                                                   \
        LBM_OMP_PREFETCH(AA_SRC_(i) + x0 + o + AA_PF_CELLS);

void AA_FN_EVEN(const struct lbm_state *s, void *latv, size_t y, size_t z)
{
    ROW_STORED *const lat = (ROW_STORED *)latv;
    const struct lbm_layout *l = &s->u.l;
    const ROW_COLL pc = s->u.ROW_PARAMS;
    const long nx = (long)l->nx;
    const size_t row = LBM_IDX(l, 0, 0, y, z);
#define AA_PTR_(i, cx, cy, cz, op) ROW_STORED *const p##i = lat + (size_t)(i)*l->dir_stride + row;
    LBM_D3Q19(AA_PTR_)
#undef AA_PTR_
    for (long x0 = 0, x1; x0 < nx; x0 = x1) {
        x1 = x0 + AA_BLOCK < nx ? x0 + AA_BLOCK : nx;
#define AA_SRC_(i) p##i
        if (AA_PF_CELLS > 0) {
            LBM_D3Q19(AA_PF_)
        }
#undef AA_SRC_
        long x = x0;
#if ROW_16BIT /* blocks of ROW16_W cells: all their reads, then all their writes (own cells) */
#define AA_DEC_(i, cx, cy, cz, op) row16_decode(bin[i], p##i + x);
#define AA_IN_(i, cx, cy, cz, op) f[i] = bin[i][j];
#define AA_OUT_(i, cx, cy, cz, op) bout[i][j] = f[i];
#define AA_ENC_(i, cx, cy, cz, op) row16_encode(p##op + x, bout[i]);
        for (; x + ROW16_W <= x1; x += ROW16_W)
            ROW16_BLOCK(AA_DEC_, AA_IN_, AA_OUT_, AA_ENC_)
#define AA_DECP_(i, cx, cy, cz, op) row16_decode_part(bin[i], p##i + x, x1 - x);
#define AA_ENCP_(i, cx, cy, cz, op) row16_encode_part(p##op + x, bout[i], x1 - x);
        if (x < x1) { /* the rest of the block as one block */
            ROW16_BLOCK(AA_DECP_, AA_IN_, AA_OUT_, AA_ENCP_)
            x = x1;
        }
#undef AA_DECP_
#undef AA_ENCP_
#undef AA_DEC_
#undef AA_IN_
#undef AA_OUT_
#undef AA_ENC_
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
        for (; x < x1; x++) {
            ROW_REAL f[19];
#define AA_LOAD_(i, cx, cy, cz, op) f[i] = ROW_DECODE(p##i[x]);
            LBM_D3Q19(AA_LOAD_)
#undef AA_LOAD_
            ROW_COLLIDE(f, &pc, ROW_FORCED);
#define AA_STORE_(i, cx, cy, cz, op) p##op[x] = ROW_ENCODE(f[i]);
            LBM_D3Q19(AA_STORE_)
#undef AA_STORE_
        }
    }
}

/* where direction d of cell (x, y, z) is read from (odd step) and written to, with the lid's
 * terms: the general rule, for the row's end cells */
void AA_FN_ODD(const struct lbm_state *s, void *latv, size_t y, size_t z)
{
    ROW_STORED *const lat = (ROW_STORED *)latv;
    const struct lbm_layout *l = &s->u.l;
    const struct lbm_bounds *b = &s->u.b;
    const ROW_COLL pc = s->u.ROW_PARAMS;
    const long nx = (long)l->nx;
    ptrdiff_t roff[19], woff[19];
    ROW_REAL radd[19], wadd[19];

    const int regular = row_regular(s, y, z);
    const ptrdiff_t row = (ptrdiff_t)LBM_IDX(l, 0, 0, y, z);

    /* offsets for cells away from the x ends: only y and z can cross a boundary; a regular
     * row has the plan's */
    for (int d = 0; d < 19; d++) {
        const int o = lbm_opp[d];
        if (regular) {
            roff[d] = row + s->plan.aa_r[d];
            woff[d] = row + s->plan.aa_w[d];
            radd[d] = wadd[d] = 0;
            continue;
        }
        const ROW_REAL lid_d = (ROW_REAL)LBM_LID_TERM(lbm_w[d], lbm_cx[d], b->lid_ux);
        long sc[3];
        int lid;
        /* x itself stays inside: ask for x = 1 with cx, then shift back */
        if (lbm_upstream(l, b, 0, lbm_cy[d], lbm_cz[d], 1, (long)y, (long)z, sc, &lid)) {
            roff[d] = (ptrdiff_t)LBM_IDX(l, d, 0, y, z);
            radd[d] = lid ? lid_d : (ROW_REAL)0;
        } else {
            roff[d] = (ptrdiff_t)LBM_IDX(l, o, 0, sc[1], sc[2]) - lbm_cx[d];
            radd[d] = 0;
        }
        if (lbm_upstream(l, b, 0, -lbm_cy[d], -lbm_cz[d], 1, (long)y, (long)z, sc, &lid)) {
            woff[d] = (ptrdiff_t)LBM_IDX(l, o, 0, y, z);
            wadd[d] = lid ? -lid_d : (ROW_REAL)0; /* opp(d)'s term: w same, cx opposite */
        } else {
            woff[d] = (ptrdiff_t)LBM_IDX(l, d, 0, sc[1], sc[2]) + lbm_cx[d];
            wadd[d] = 0;
        }
    }
    {
#define AA_LOC_(i, cx, cy, cz, op)                                                                 \
    const ROW_STORED *const r##i = lat + roff[i];                                                  \
    ROW_STORED *const w##i = lat + woff[i];                                                        \
    const ROW_REAL ra##i = radd[i], wa##i = wadd[i];
        LBM_D3Q19(AA_LOC_)
#undef AA_LOC_
#if ROW_16BIT /* as the even step: a cell's reads and writes are its own locations */
#define AA_DEC_(i, cx, cy, cz, op) row16_decode(bin[i], r##i + x);
#define AA_ENC_(i, cx, cy, cz, op) row16_encode(w##i + x, bout[i]);
#define AA_DECP_(i, cx, cy, cz, op) row16_decode_part(bin[i], r##i + x, x1 - x);
#define AA_ENCP_(i, cx, cy, cz, op) row16_encode_part(w##i + x, bout[i], x1 - x);
#define AA_BLOCKS_(IN_, OUT_)                                                                      \
    for (; x + ROW16_W <= x1; x += ROW16_W)                                                        \
        ROW16_BLOCK(AA_DEC_, IN_, OUT_, AA_ENC_)                                                   \
    if (x < x1) { /* the rest of the block as one block */                                         \
        ROW16_BLOCK(AA_DECP_, IN_, OUT_, AA_ENCP_)                                                 \
        x = x1;                                                                                    \
    }
#else
#define AA_BLOCKS_(IN_, OUT_)
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define AA_IVDEP_ _Pragma("GCC ivdep")
#else
#define AA_IVDEP_
#endif
/* cells x0 <= x < x1: IN_ and OUT_ move a block's values (16-bit), LOAD_ and STORE_ a cell's */
#define AA_ODD_CELLS_(IN_, OUT_, LOAD_, STORE_)                                                    \
    {                                                                                              \
        long x = x0;                                                                               \
        AA_BLOCKS_(IN_, OUT_)                                                                      \
        AA_IVDEP_                                                                                  \
        for (; x < x1; x++) {                                                                      \
            ROW_REAL f[19];                                                                        \
            LBM_D3Q19(LOAD_)                                                                       \
            ROW_COLLIDE(f, &pc, ROW_FORCED);                                                       \
            LBM_D3Q19(STORE_)                                                                      \
        }                                                                                          \
    }
#define AA_IN_(i, cx, cy, cz, op) f[i] = bin[i][j] + ra##i;
#define AA_OUT_(i, cx, cy, cz, op) bout[i][j] = f[i] + wa##i;
#define AA_LOAD_(i, cx, cy, cz, op) f[i] = ROW_DECODE(r##i[x]) + ra##i;
#define AA_STORE_(i, cx, cy, cz, op) w##i[x] = ROW_ENCODE(f[i] + wa##i);
#define AA_IN0_(i, cx, cy, cz, op) f[i] = bin[i][j];
#define AA_OUT0_(i, cx, cy, cz, op) bout[i][j] = f[i];
#define AA_LOAD0_(i, cx, cy, cz, op) f[i] = ROW_DECODE(r##i[x]);
#define AA_STORE0_(i, cx, cy, cz, op) w##i[x] = ROW_ENCODE(f[i]);
        /* the writes go to lines the reads of other directions bring in: only reads prefetched */
        for (long x0 = 1, x1; x0 < nx - 1; x0 = x1) {
            x1 = x0 + AA_BLOCK < nx - 1 ? x0 + AA_BLOCK : nx - 1;
#define AA_SRC_(i) r##i
            if (AA_PF_CELLS > 0) {
                LBM_D3Q19(AA_PF_)
            }
#undef AA_SRC_
            /* a regular row's terms are all zero: its cells without them (lbm_omp_pull.c's
             * ROW_LOAD0_ says why); with the masked partial block, aa +4-12% in sp, +5-8% in
             * fp16c and +12% in fp16s on the 16-core host
             * (data/lbm/cpu-zero-terms-h200-host-2026-11-28) */
            if (regular)
                AA_ODD_CELLS_(AA_IN0_, AA_OUT0_, AA_LOAD0_, AA_STORE0_)
            else
                AA_ODD_CELLS_(AA_IN_, AA_OUT_, AA_LOAD_, AA_STORE_)
        }
    }
#undef AA_ODD_CELLS_
#undef AA_BLOCKS_
#undef AA_IVDEP_
#undef AA_DEC_
#undef AA_ENC_
#undef AA_DECP_
#undef AA_ENCP_
#undef AA_IN_
#undef AA_OUT_
#undef AA_LOAD_
#undef AA_STORE_
#undef AA_IN0_
#undef AA_OUT0_
#undef AA_LOAD0_
#undef AA_STORE0_
    /* the row's ends: every axis can cross a boundary */
    for (long x = 0; x < nx; x += (nx > 1 ? nx - 1 : 1)) {
        ROW_REAL f[19];
        size_t at[19];
        ROW_REAL add[19];
        if (regular) {
            const ptrdiff_t *r = s->plan.aa_r_end[x > 0], *w = s->plan.aa_w_end[x > 0];
            for (int d = 0; d < 19; d++)
                f[d] = ROW_DECODE(lat[row + r[d]]);
            ROW_COLLIDE(f, &pc, ROW_FORCED);
            for (int d = 0; d < 19; d++)
                lat[row + w[d]] = ROW_ENCODE(f[d]);
            continue;
        }
        for (int d = 0; d < 19; d++) {
            const int o = lbm_opp[d];
            const ROW_REAL lid_d = (ROW_REAL)LBM_LID_TERM(lbm_w[d], lbm_cx[d], b->lid_ux);
            long sc[3];
            int lid;
            if (lbm_upstream(l, b, lbm_cx[d], lbm_cy[d], lbm_cz[d], x, (long)y, (long)z, sc, &lid))
                f[d] = ROW_DECODE(lat[LBM_IDX(l, d, x, y, z)]) + (lid ? lid_d : (ROW_REAL)0);
            else
                f[d] = ROW_DECODE(lat[LBM_IDX(l, o, sc[0], sc[1], sc[2])]);
            if (lbm_upstream(l, b, -lbm_cx[d], -lbm_cy[d], -lbm_cz[d], x, (long)y, (long)z, sc,
                             &lid)) {
                at[d] = LBM_IDX(l, o, x, y, z);
                add[d] = lid ? -lid_d : (ROW_REAL)0;
            } else {
                at[d] = LBM_IDX(l, d, sc[0], sc[1], sc[2]);
                add[d] = 0;
            }
        }
        ROW_COLLIDE(f, &pc, ROW_FORCED);
        for (int d = 0; d < 19; d++)
            lat[at[d]] = ROW_ENCODE(f[d] + add[d]);
    }
}
