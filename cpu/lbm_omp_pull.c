/* lbm_omp_pull.c: cells x0 <= x < x1 of one x row of the pull update (kernels pull, pull_nt,
 * pull_aos), compiled once per PULL line of LBM_OMP_VARIANTS and precision (lbm_omp_kernel.h names
 * the constants). Cells away from the x ends (and on regular rows the ends too, overwritten after)
 * form a vectorisable loop over 19 precomputed source offsets; the row's two end cells take the
 * general rule of pull.h, but on a regular row an end with a ghost layer beyond it (a rank split
 * along x and y or z), which reads as the inner cells do and keeps what the loop gave it; an end
 * on a split x face without the layer takes its crossing values from the received face
 * (row_face_in). With ROW_NT a
 * regular row of aligned direction rows goes out in steps of LBMR_NT_LINES cache lines per
 * direction (the rest a line at a time), each streamed with non-temporal stores as soon as it is
 * computed; other rows go in chunks (nt_chunk_cells), each built in a thread-local buffer and
 * streamed out after. An end cell on a rank's x face sends its 5 crossing values from there too
 * (row_face_send). One long function: its statements are those the performance was measured with,
 * kept as they were. */
#include "lbm_omp_kernel.h"

#define ROW_LINE ((long)(64 / sizeof(ROW_STORED)))                    /* cells in a cache line */
#define ROW_STEP (ROW_LINE * (LBMR_NT_LINES > 0 ? LBMR_NT_LINES : 1)) /* cells per line step */
#define ROW_END_FN_(fn) fn##_end
#define ROW_END_FN__(fn) ROW_END_FN_(fn)
/* cell x at an end of the row (x = 0 or nx - 1), where x can cross a boundary too, updated by the
 * general rule into f. Out of line, as it was when the rows were measured: GCC left it so in the
 * one file that held all 54 kernels (its unit growth limit), and inlines it into a row compiled
 * alone, which grows the row by a third. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
ROW_END_FN__(ROW_FN)(const struct lbm_state *s, const ROW_STORED *src, size_t y, size_t z, long x,
                     int regular, ROW_REAL f[19])
{
    const struct lbm_layout *l = &s->u.l;
    if (regular) {
        const ptrdiff_t *at = s->plan.pull_end[x > 0];
        const ptrdiff_t row = (ptrdiff_t)LBM_IDX(l, 0, 0, y, z);
        for (int d = 0; d < 19; d++)
            f[d] = ROW_DECODE(src[row + at[d]]);
    } else {
        for (int d = 0; d < 19; d++) {
            int lid;
            size_t i = lbm_pull_index(l, &s->u.b, d, lbm_cx[d], lbm_cy[d], lbm_cz[d], lbm_opp[d], x,
                                      (long)y, (long)z, &lid, LBM_PULL_HALO);
            f[d] = ROW_DECODE(src[i]) +
                   (lid ? (ROW_REAL)LBM_LID_TERM(lbm_w[d], lbm_cx[d], s->u.b.lid_ux) : 0);
        }
    }
    /* an end on a split x face without a ghost layer: the crossing values from the face itself
     * (both faces where the row is one cell long) */
    for (int side = 0; side < 2 && !l->gx; side++) {
        if (!s->xin[side] || x != (side ? (long)l->nx - 1 : 0)) continue;
        const ROW_STORED *face = (const ROW_STORED *)s->xin[side];
        for (int k = 0; k < 5; k++) {
            long c[3];
            const ptrdiff_t i = row_face_in(s, side, k, y, z, regular, c);
            if (i >= 0) f[s->xin_dirs[side][k]] = ROW_DECODE(face[i]);
        }
    }
    ROW_COLLIDE(f, &s->u.ROW_PARAMS, ROW_FORCED);
}

void ROW_FN(const struct lbm_state *s, const void *srcv, void *dstv, size_t y, size_t z, void *bufv,
            long x0, long x1)
{
    const ROW_STORED *restrict src = (const ROW_STORED *)srcv;
    ROW_STORED *restrict dst = (ROW_STORED *)dstv;
    ROW_STORED *restrict buf = (ROW_STORED *)bufv;
    const struct lbm_layout *l = &s->u.l;
    const ROW_COLL *p = &s->u.ROW_PARAMS;
    const long nx = (long)l->nx;
    ptrdiff_t off[19];
    ROW_REAL add[19];
    ROW_STORED *out[19];

    const int regular = row_regular(s, y, z);
    const ptrdiff_t row = (ptrdiff_t)LBM_IDX(l, 0, 0, y, z);
    /* pull_nt: the end cells on a wall read by the general rule, among them slots of the cell
     * itself (bounce-back) that no inner cell of this row reads: lines the row's loop never
     * brought in, each end cell's first use waiting on them (perf, 2-core VM: a fifth of the time
     * at 128-cell rows in the end function); asked for at the row's start. On the 16-core host
     * the x split's 128-cell rows gained 4% (data/mpi/xsplit-cpu-endpf-h100-host-2026-11-27);
     * pull, which gained on the VM, read lower there in three rounds of four and stays without */
    if (ROW_NT && regular)
        for (int e = 0; e < 2; e++)
            if (!s->plan.pull_end_inner[e])
                for (int d = 0; d < 19; d++)
                    LBM_OMP_PREFETCH(src + row + s->plan.pull_end[e][d]);

    /* sources for cells away from the x ends: only y and z can cross a boundary (into a ghost
     * layer, around a periodic axis, or onto a wall); a regular row has the plan's */
    for (int d = 0; d < 19; d++) {
        out[d] = ROW_NT ? buf + (size_t)d * s->nt_stride : dst + LBM_IDX(l, d, 0, y, z);
        if (regular) {
            off[d] = row + s->plan.pull[d];
            add[d] = 0;
            continue;
        }
        /* x itself stays inside: ask for cell 0 without cx, then shift by cx */
        long sc[3];
        int lid;
        if (lbm_upstream_cell(l, &s->u.b, 0, lbm_cy[d], lbm_cz[d], 0, (long)y, (long)z, sc, &lid,
                              LBM_PULL_HALO))
            off[d] = (ptrdiff_t)LBM_IDX(l, lbm_opp[d], 0, y, z);
        else
            off[d] = (ptrdiff_t)LBM_IDX(l, d, 0, sc[1], sc[2]) - lbm_cx[d] * (ptrdiff_t)ROW_CS;
        add[d] = lid ? (ROW_REAL)LBM_LID_TERM(lbm_w[d], lbm_cx[d], s->u.b.lid_ux) : (ROW_REAL)0;
    }
#define ROW_CELL_(LOAD_, STORE_)                                                                   \
    {                                                                                              \
        ROW_REAL f[19];                                                                            \
        LBM_D3Q19(LOAD_)                                                                           \
        ROW_COLLIDE(f, &pc, ROW_FORCED);                                                           \
        LBM_D3Q19(STORE_)                                                                          \
    }
#if defined(__GNUC__) && !defined(__clang__)
#define ROW_IVDEP_ _Pragma("GCC ivdep")
#else
#define ROW_IVDEP_
#endif
/* a cell's sources: with the row's boundary terms (a row on a wall, where the lid's are not zero),
 * and without them (LOAD0, IN0) in pull_nt's line steps, which run regular rows only, whose terms
 * are all zero: the add of 0 cost a vector add a direction in every block, and in 16-bit a load
 * of the term where registers ran out. x + 0 differs from x only for x = -0 (a 16-bit value that
 * underflowed from below), and a -0 changes a result only where the sum it enters is a zero of
 * negative sign; the same-state tests (every kernel one state per case) find no such case */
#define ROW_LOAD_(i, cx, cy, cz, op) f[i] = ROW_DECODE(src##i[(ROW_K_)*ROW_CS]) + add##i;
#define ROW_LOAD0_(i, cx, cy, cz, op) f[i] = ROW_DECODE(src##i[(ROW_K_)*ROW_CS]);
#if ROW_16BIT && ROW16_HW
/* 16-bit rows (SoA) whose blocks convert in vector instructions (ROW16_HW: fp16s by F16C, fp16c
 * by AVX-512F, cpu/row16.h): ROW16_W cells at once, their 19 sources from src##i + SK decoded into
 * a float block, collided as sp, encoded by ENC_ at DK. Without them a row goes element by element:
 * there the element-wise conversion in blocks, a pass of its own, measured slower than in the fused
 * loop, while aa's gained (data/lbm/cpu-fp16-blocks-2core-vm-2026-11-23). */
#define ROW16_DEC_(i, cx, cy, cz, op) row16_decode(bin[i], src##i + sk);
#define ROW16_IN_(i, cx, cy, cz, op) f[i] = bin[i][j] + add##i;
#define ROW16_IN0_(i, cx, cy, cz, op) f[i] = bin[i][j];
#define ROW16_OUT_(i, cx, cy, cz, op) bout[i][j] = f[i];
#define ROW16_BLOCK_(SK, DK, IN_, ENC_)                                                            \
    {                                                                                              \
        const long sk = (SK), dk = (DK);                                                           \
        ROW16_BLOCK(ROW16_DEC_, IN_, ROW16_OUT_, ENC_)                                             \
    }
#define ROW16_ENC_T_(i, cx, cy, cz, op) row16_encode(t[i] + dk, bout[i]);
#define ROW16_ENC_DST_(i, cx, cy, cz, op) row16_encode(dst##i + dk, bout[i]);
#endif
#if ROW_NT && CPU_NT_WIDTH > 0
    if (LBMR_NT_LINES > 0 && regular && x0 == 0 && x1 == nx && nx >= ROW_LINE) {
        /* a whole regular row, its direction rows on lines: each step of W cells is computed into
         * t and goes out with non-temporal stores at once, so that streaming overlaps computing;
         * the step holding an end cell of the row first overwrites it in t by the general rule,
         * while its sources are in L1. A row shorter than a line goes in a chunk (below). */
        int aligned = 1;
        for (int d = 0; d < 19; d++)
            aligned &= (uintptr_t)(dst + LBM_IDX(l, d, 0, y, z)) % 64 == 0;
        if (aligned) {
            const ROW_COLL pc = *p;
#define ROW_LOCALS_(i, cx, cy, cz, op)                                                             \
    const ROW_STORED *restrict src##i = src + off[i];                                              \
    ROW_STORED *restrict dst##i = dst + LBM_IDX(l, i, 0, y, z);
            LBM_D3Q19(ROW_LOCALS_)
#undef ROW_LOCALS_
#define ROW_TSTORE_(i, cx, cy, cz, op) t[i][k] = ROW_ENCODE(f[i]);
#define ROW_NTSTORE_(i, cx, cy, cz, op)                                                            \
    for (size_t o = 0; o < sizeof t[i]; o += CPU_NT_WIDTH)                                         \
        CPU_NT_STORE((char *)(dst##i + c) + o, (const char *)t[i] + o);
#define ROW_K_ cs + k
#if ROW_16BIT && ROW16_HW /* W is whole lines: a multiple of ROW16_W cells */
#define ROW_LINE_CELLS_(W)                                                                         \
    for (long k = 0; k < (W); k += ROW16_W)                                                        \
    ROW16_BLOCK_(cs + k, k, ROW16_IN0_, ROW16_ENC_T_)
#else
#define ROW_LINE_CELLS_(W)                                                                         \
    ROW_IVDEP_                                                                                     \
    for (long k = 0; k < (W); k++)                                                                 \
    ROW_CELL_(ROW_LOAD0_, ROW_TSTORE_)
#endif
/* the row's end cells among the N cells of t, which hold the cells from cs, by the general rule */
#define ROW_STEP_ENDS_(N)                                                                          \
    for (int e = 0; e < 2; e++) {                                                                  \
        if ((e ? cs + (N) != nx : cs != 0) || s->plan.pull_end_inner[e]) continue;                 \
        ROW_REAL f[19];                                                                            \
        ROW_END_FN__(ROW_FN)(s, src, y, z, e ? nx - 1 : 0, 1, f);                                  \
        for (int d = 0; d < 19; d++)                                                               \
            t[d][e ? (N)-1 : 0] = ROW_ENCODE(f[d]);                                                \
    }
/* the x faces' sends of the row's end cells among them, from t (row_face_send) */
#define ROW_STEP_SEND_(N)                                                                          \
    for (int e = 0; e < 2; e++)                                                                    \
        if (s->xout[e] && (e ? cs + (N) == nx : cs == 0))                                          \
            row_face_send(s, y, z, e, (const char *)&t[0][e ? (N)-1 : 0],                          \
                          (N) * sizeof(ROW_STORED), sizeof(ROW_STORED));
#define ROW_LINE_STEP_(W)                                                                          \
    {                                                                                              \
        const long cs = c;                                                                         \
        _Alignas(64) ROW_STORED t[19][W];                                                          \
        ROW_LINE_CELLS_(W)                                                                         \
        ROW_STEP_ENDS_(W)                                                                          \
        ROW_STEP_SEND_(W)                                                                          \
        LBM_D3Q19(ROW_NTSTORE_)                                                                    \
    }
/* the tail's cells from c: where the rest of their line is padding (no x ghost layers, a pitch of
 * whole lines), the whole line with non-temporal stores, zeros in the padding: no read for
 * ownership, as the row's other lines (ordinary stores to a part of a line took 15-30% of a
 * 250-cell row's time on the 2-core VM); else ordinary stores of the row's cells alone */
#define ROW_TAILSTORE_(i, cx, cy, cz, op)                                                          \
    if (whole) {                                                                                   \
        _Alignas(64) ROW_STORED u[ROW_LINE];                                                       \
        for (long k = 0; k < ROW_LINE; k++)                                                        \
            u[k] = c + k < nx ? t[i][c - cs + k] : (ROW_STORED)0;                                  \
        for (size_t o = 0; o < sizeof u; o += CPU_NT_WIDTH)                                        \
            CPU_NT_STORE((char *)(dst##i + c) + o, (const char *)u + o);                           \
    } else {                                                                                       \
        ROW_IVDEP_                                                                                 \
        for (long k = c - cs; k < ROW_LINE; k++)                                                   \
            dst##i[cs + k] = t[i][k];                                                              \
    }
            /* whole steps as far as they go, then single lines. Not single lines throughout where
             * the row is not whole steps: that ran 18-33% faster at 96, 160 and 224 sp cells a row
             * on the 2-core VM (core-bound) but slower on the 16-core host (bandwidth-bound) at
             * each of the seven such rows measured, sp 5-12% and dp 4%
             * (data/lbm/cpu-pull-nt-line-rule-h100-host-2026-11-27) */
            long c = 0;
            for (; c + ROW_STEP <= nx; c += ROW_STEP)
                ROW_LINE_STEP_(ROW_STEP)
            /* the rest of the row a line at a time; a last part of a line from the line's worth of
             * cells that ends at the row's end (the cells before c again, to the same values:
             * pull writes no source), its cells from c stored */
            for (; c < nx; c += ROW_LINE) {
                const long cs = c + ROW_LINE <= nx ? c : nx - ROW_LINE;
                _Alignas(64) ROW_STORED t[19][ROW_LINE];
                ROW_LINE_CELLS_(ROW_LINE)
                ROW_STEP_ENDS_(ROW_LINE)
                ROW_STEP_SEND_(ROW_LINE)
                if (cs == c) {
                    LBM_D3Q19(ROW_NTSTORE_)
                } else {
                    const int whole = l->gx == 0 && l->pitch * sizeof(ROW_STORED) % 64 == 0;
                    LBM_D3Q19(ROW_TAILSTORE_)
                }
            }
#undef ROW_TAILSTORE_
#undef ROW_LINE_STEP_
#undef ROW_STEP_SEND_
#undef ROW_STEP_ENDS_
#undef ROW_LINE_CELLS_
#undef ROW_K_
#undef ROW_NTSTORE_
#undef ROW_TSTORE_
            return;
        }
    }
#endif
    /* with ROW_NT the row goes in chunks: each is computed into the buffer, where it stays in L1,
     * and streamed out at once, the directions' chunks one after the other; there cell x of a
     * chunk from c0 is out[d][x - c0] (ob = c0), elsewhere out[d][x * ROW_CS] (ob = 0) */
    const long chunk = ROW_NT ? nt_chunk_cells(sizeof(ROW_STORED), x1 - x0) : x1 - x0;
    for (long c0 = x0, c1; c0 < x1; c0 = c1) {
        c1 = ROW_NT ? (c0 / chunk + 1) * chunk : x1;
        if (c1 > x1) c1 = x1;
        const long ob = ROW_NT ? c0 : 0;
        {
            /* the loop sees only restrict-qualified locals and a local copy of the parameters, so
             * nothing it stores can alias what it reads and every invariant leaves the loop */
            const ROW_COLL pc = *p;
            /* A regular row's loop takes its end cells too, so that a row or chunk a whole number
             * of vectors long runs no scalar remainder; the general rule below then overwrites
             * those two. Their interior-rule reads fall one element before or after a source row
             * that has a row (or a ghost row) before it and one after it, so they stay inside the
             * lattice. */
            const long xa = regular || c0 > 1 ? c0 : 1;
            const long xb = regular || c1 < nx - 1 ? c1 : nx - 1;
#define ROW_LOCALS_(i, cx, cy, cz, op)                                                             \
    const ROW_STORED *restrict src##i = src + off[i] + xa * ROW_CS;                                \
    ROW_STORED *restrict dst##i = out[i] + (xa - ob) * ROW_CS;                                     \
    const ROW_REAL add##i = add[i];
            LBM_D3Q19(ROW_LOCALS_)
#undef ROW_LOCALS_
            /* not `omp simd`: GCC turns f[19] into a per-lane array it then cannot vectorise; with
             * f scalarised and every pointer restrict, plain auto-vectorisation takes the loop */
#define ROW_STORE_(i, cx, cy, cz, op) dst##i[k * ROW_CS] = ROW_ENCODE(f[i]);
#define ROW_K_ k
            long k = 0;
#if ROW_16BIT && ROW16_HW
            /* a row's last cells (fewer than a block) element by element below: a partial block
             * after this loop (as aa's) or a last block overlapping the one before cost pull fp16s
             * 25-36% at 256^3 on the 16-core Xeon host, whose rows never run it
             * (data/lbm/cpu-fp16c-avx512-h100-host-2026-11-26, calls 4 and 5); so did a second copy
             * of these loops for regular rows, without their zero terms, 4-10% in pull fp16s,
             * fp16c and dp (data/lbm/cpu-zero-terms-h200-host-2026-11-28), which the line steps
             * of pull_nt above take without a copy */
            if (ROW_CS == 1)
                for (; k + ROW16_W <= xb - xa; k += ROW16_W)
                    ROW16_BLOCK_(k, k, ROW16_IN_, ROW16_ENC_DST_)
#endif
            ROW_IVDEP_
            for (; k < xb - xa; k++)
                ROW_CELL_(ROW_LOAD_, ROW_STORE_)
#undef ROW_K_
#undef ROW_STORE_
        }
        /* the ends of the row by the general rule, over what the loop wrote there, but for an
         * end of a regular row that reads as the inner cells do (a ghost layer beyond it) */
        for (long x = 0; x < nx; x += (nx > 1 ? nx - 1 : 1)) {
            if (x < c0 || x >= c1 || (regular && s->plan.pull_end_inner[x > 0])) continue;
            ROW_REAL f[19];
            ROW_END_FN__(ROW_FN)(s, src, y, z, x, regular, f);
            for (int d = 0; d < 19; d++)
                out[d][(x - ob) * ROW_CS] = ROW_ENCODE(f[d]);
        }
        /* the x faces' sends of the end cells in [c0, c1), from out (row_face_send) */
        for (int e = 0; e < 2; e++) {
            const long x = e ? nx - 1 : 0;
            if (s->xout[e] && x >= c0 && x < c1)
                row_face_send(s, y, z, e, (const char *)&out[0][(x - ob) * ROW_CS],
                              (const char *)out[1] - (const char *)out[0], sizeof(ROW_STORED));
        }
        if (ROW_NT) {
            for (int d = 0; d < 19; d++)
                cpu_nt_copy_lines(dst + LBM_IDX(l, d, c0, y, z), out[d],
                                  (size_t)(c1 - c0) * sizeof(ROW_STORED));
        }
    }
}
