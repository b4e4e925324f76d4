/* decomp.c: the split of a domain over a grid of ranks (decomp.h): pure arithmetic on cells,
 * rank coordinates and d3q19 directions. */
#include "decomp.h"

#include <stdio.h>
#include <string.h>

#include "d3q19.h"

int decomp_dims(int n, int procs[3])
{
    int bin[3] = {1, 1, 1}, factor[32], nf = 0;
    if (n < 1) return 1;
    /* prime factors, ascending: an int has fewer than 32 */
    for (int m = n, p = 2; m > 1; p++) {
        if ((long)p * p > m) p = m; /* what is left is prime */
        while (m % p == 0) {
            factor[nf++] = p;
            m /= p;
        }
    }
    for (int f = nf - 1; f >= 0; f--) {
        int k = 0;
        for (int a = 1; a < 3; a++)
            if (bin[a] < bin[k]) k = a;
        bin[k] *= factor[f];
    }
    /* ascending: x gets the smallest product, z the largest */
    for (int a = 0; a < 2; a++)
        for (int b = a + 1; b < 3; b++)
            if (bin[b] < bin[a]) {
                int t = bin[a];
                bin[a] = bin[b];
                bin[b] = t;
            }
    memcpy(procs, bin, sizeof bin);
    return 0;
}

void decomp_coords(int rank, const int procs[3], int coords[3])
{
    for (int a = 2; a >= 0; a--) {
        coords[a] = rank % procs[a];
        rank /= procs[a];
    }
}

int decomp_rank(const int coords[3], const int procs[3])
{
    return (coords[0] * procs[1] + coords[1]) * procs[2] + coords[2];
}

void decomp_split(size_t global, int p, int k, size_t *n, size_t *off)
{
    size_t base = global / (size_t)p, rem = global % (size_t)p, kk = (size_t)k;
    *n = base + (kk < rem);
    *off = kk * base + (kk < rem ? kk : rem);
}

int decomp_check(const size_t whole[3], const int procs[3], int weak, int ranks, char *err,
                 size_t errlen)
{
    if (procs[0] < 1 || procs[1] < 1 || procs[2] < 1) {
        snprintf(err, errlen, "%dx%dx%d is no rank grid: each axis needs at least one rank",
                 procs[0], procs[1], procs[2]);
        return 1;
    }
    if ((long long)procs[0] * procs[1] * procs[2] > ranks) {
        snprintf(err, errlen, "%dx%dx%d needs %lld ranks; the job has %d", procs[0], procs[1],
                 procs[2], (long long)procs[0] * procs[1] * procs[2], ranks);
        return 1;
    }
    if (!weak && (whole[0] < (size_t)procs[0] || whole[1] < (size_t)procs[1] ||
                  whole[2] < (size_t)procs[2])) {
        snprintf(err, errlen,
                 "%zux%zux%zu cannot be split %dx%dx%d: every rank needs a cell per "
                 "axis",
                 whole[0], whole[1], whole[2], procs[0], procs[1], procs[2]);
        return 1;
    }
    return 0;
}

void decomp_place(const size_t whole[3], const int procs[3], const int coords[3],
                  const int periodic[3], int weak, size_t n[3], struct lbm_place *place)
{
    for (int a = 0; a < 3; a++) {
        size_t global = weak ? whole[a] * (size_t)procs[a] : whole[a];
        if (weak) {
            n[a] = whole[a];
            place->offset[a] = (size_t)coords[a] * whole[a];
        } else {
            decomp_split(global, procs[a], coords[a], &n[a], &place->offset[a]);
        }
        place->global[a] = global;
        place->neighbor[a][0] = procs[a] > 1 && (coords[a] > 0 || periodic[a]);
        place->neighbor[a][1] = procs[a] > 1 && (coords[a] < procs[a] - 1 || periodic[a]);
    }
}

/* the populations that cross towards the neighbour beyond m (same sign as m on each of its
 * axes) into h->dirs, and those that come back from it (opposite sign) into h->rdirs */
static void halo_dirs(const int m[3], struct decomp_halo *h)
{
    int nr = 0;
    h->n = 0;
    for (int d = 1; d < LBM_Q; d++) {
        const int c[3] = {lbm_cx[d], lbm_cy[d], lbm_cz[d]};
        int to = 1, from = 1;
        for (int a = 0; a < 3; a++) {
            to &= !m[a] || c[a] == m[a];
            from &= !m[a] || c[a] == -m[a];
        }
        if (to) h->dirs[h->n++] = d;
        if (from) h->rdirs[nr++] = d;
    }
}

int decomp_x_side(const struct decomp_halo *g)
{
    if (lbm_cy[g->dir] != 0 || lbm_cz[g->dir] != 0) return -1;
    return lbm_cx[g->dir] > 0;
}

int decomp_halos(const size_t n[3], const struct lbm_place *place, const int coords[3],
                 const int procs[3], const int periodic[3], struct decomp_halo h[DECOMP_MAX_HALOS])
{
    int nh = 0;
    for (int e = 1; e < LBM_Q; e++) {
        const int m[3] = {lbm_cx[e], lbm_cy[e], lbm_cz[e]};
        const long len[3] = {(long)n[0], (long)n[1], (long)n[2]};
        struct decomp_halo *x = &h[nh];
        int nc[3], ok = 1;
        memset(x, 0, sizeof *x);
        for (int a = 0; a < 3; a++) {
            if (m[a] && !place->neighbor[a][m[a] > 0]) ok = 0;
            nc[a] = coords[a] + m[a];
            if (nc[a] < 0 || nc[a] >= procs[a]) /* wraps where it has a neighbour */
                nc[a] = periodic[a] ? (nc[a] + procs[a]) % procs[a] : -1;
            /* sent from the layer next to the neighbour, received into the ghost layer there */
            x->slo[a] = m[a] > 0 ? len[a] - 1 : 0;
            x->shi[a] = m[a] < 0 ? 1 : len[a];
            x->rlo[a] = m[a] > 0 ? len[a] : (m[a] < 0 ? -1 : 0);
            x->rhi[a] = m[a] > 0 ? len[a] + 1 : (m[a] < 0 ? 0 : len[a]);
        }
        if (!ok) continue;
        x->dir = e;
        x->peer = decomp_rank(nc, procs);
        halo_dirs(m, x);
        nh++;
    }
    return nh;
}

int decomp_boxes(const size_t n[3], const struct lbm_place *place, size_t xw,
                 size_t lo[DECOMP_MAX_BOXES][3], size_t hi[DECOMP_MAX_BOXES][3])
{
    size_t l[3] = {0, 0, 0}, u[3] = {n[0], n[1], n[2]};
    int nbox = 0;
    for (int a = 2; a >= 0; a--) {
        for (int side = 0; side < 2; side++) {
            size_t w = a == 0 ? xw : 1;
            if (!place->neighbor[a][side] || l[a] >= u[a] || w == 0) continue;
            if (w > u[a] - l[a]) w = u[a] - l[a];
            memcpy(lo[nbox], l, sizeof l);
            memcpy(hi[nbox], u, sizeof u);
            if (side == 0) {
                hi[nbox][a] = l[a] + w;
                l[a] += w;
            } else {
                lo[nbox][a] = u[a] - w;
                u[a] -= w;
            }
            nbox++;
        }
    }
    memcpy(lo[nbox], l, sizeof l);
    memcpy(hi[nbox], u, sizeof u);
    return nbox + 1;
}
