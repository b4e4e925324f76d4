/* pull.h: where the pull (gather) update of cell (x, y, z) takes f_d from: the cell upstream,
 * x - c_d, wrapped on periodic axes, in the ghost layer on sides facing another rank; across a
 * wall, half-way bounce-back: the same cell's
 * opposite population, plus 6 w_d (c_d . u_wall) at the moving lid. One rule for the CPU edge
 * path and the GPU's pull_aos; the GPU pull kernels' face rows restate it as selects
 * (gpu/lbm_kernels.cuh), lbm/model/reference.c spells it out again on its own. */
#ifndef LBM_PULL_H
#define LBM_PULL_H

#include "geometry.h"
#include "layout.h"

#ifdef __CUDACC__
#define LBM_PULL_HD __host__ __device__
#else
#define LBM_PULL_HD
#endif

/* The halo argument below: LBM_PULL_NO_HALO promises a domain with no neighbouring rank */
enum { LBM_PULL_NO_HALO = 0, LBM_PULL_HALO = 1 };

/* The one wall, wrap and ghost rule. The cell upstream of (x, y, z) along c, (x, y, z) - c: its
 * coordinates in s[3] and 0, wrapped on periodic axes, left at -1 or n on a side facing another
 * rank (the ghost cell; only with LBM_PULL_HALO; along x without a ghost layer the CPU's rows read
 * the received face instead, row_face_in); or 1 when a wall lies between, with *lid when
 * that wall is the moving lid (z = nz). halo: LBM_PULL_HALO or LBM_PULL_NO_HALO (callers pass a
 * constant: the test vanishes). */
static inline LBM_PULL_HD int lbm_upstream_cell(const struct lbm_layout *l,
                                                const struct lbm_bounds *b, int cx, int cy, int cz,
                                                long x, long y, long z, long s[3], int *lid,
                                                int halo)
{
    const long n[3] = {(long)l->nx, (long)l->ny, (long)l->nz};
    int wall = 0;
    s[0] = x - cx;
    s[1] = y - cy;
    s[2] = z - cz;
    *lid = 0;
    for (int a = 0; a < 3; a++) {
        if (s[a] >= 0 && s[a] < n[a]) continue;
        /* (no run-time index into neighbor[a]: on the GPU that copies the bounds to local memory)
         */
        if (halo && (s[a] < 0 ? b->neighbor[a][0] : b->neighbor[a][1])) {
            continue; /* the ghost cell: s[a] is -1 or n[a] */
        } else if (b->periodic[a]) {
            s[a] = s[a] < 0 ? s[a] + n[a] : s[a] - n[a];
        } else {
            wall = 1;
            if (a == 2 && s[2] == n[2] && b->lid_ux != 0.0) *lid = 1;
        }
    }
    return wall;
}

/* Returns the lattice index to load; *lid is 1 when the moving lid's term applies. */
static inline LBM_PULL_HD size_t lbm_pull_index(const struct lbm_layout *l,
                                                const struct lbm_bounds *b, int d, int cx, int cy,
                                                int cz, int opp, long x, long y, long z, int *lid,
                                                int halo)
{
    long s[3];
    if (lbm_upstream_cell(l, b, cx, cy, cz, x, y, z, s, lid, halo)) return LBM_IDX(l, opp, x, y, z);
    return LBM_IDX(l, d, s[0], s[1], s[2]);
}

/* The same on one rank (no ghost layers). The in-place kernel (aa) asks this both ways: for
 * where a population comes from (c) and where it goes (-c). */
static inline LBM_PULL_HD int lbm_upstream(const struct lbm_layout *l, const struct lbm_bounds *b,
                                           int cx, int cy, int cz, long x, long y, long z,
                                           long s[3], int *lid)
{
    return lbm_upstream_cell(l, b, cx, cy, cz, x, y, z, s, lid, LBM_PULL_NO_HALO);
}

#endif
