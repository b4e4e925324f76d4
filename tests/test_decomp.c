/* test_decomp.c: the split of a domain over ranks (lbm/driver/decomp.c), without MPI: the default
 * grid of 1..64 ranks is the most balanced one; the boxes of every rank tile the domain once,
 * uneven splits included; neighbours are the ranks whose cells lie one step beyond, across a
 * periodic wrap too, and each halo is what its peer expects; the update's boxes tile a rank's
 * box; grids that cannot be placed are refused. Each rule is checked against a geometric
 * statement of it (which cell lies where), not against the code's own formula. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "d3q19.h"
#include "decomp.h"

/* One rank's part of a split. */
struct part {
    int coords[3];
    size_t n[3];
    struct lbm_place place;
    struct decomp_halo h[DECOMP_MAX_HALOS];
    int nh;
};

/* the most balanced grid of n ranks, by search: the smallest largest axis, then the smallest
 * middle one (for n < 360 the grid Open MPI makes; tests/CMakeLists.txt checks more against MPI) */
static void balanced(int n, int best[3])
{
    best[0] = best[1] = best[2] = 0;
    for (int z = 1; z <= n; z++)
        for (int y = 1; y <= z; y++)
            if (n % (z * y) == 0 && n / (z * y) <= y) {
                const int x = n / (z * y);
                if (!best[2] || z < best[2] || (z == best[2] && y < best[1])) {
                    best[0] = x;
                    best[1] = y;
                    best[2] = z;
                }
            }
}

static void test_dims(void)
{
    int p[3], want[3];
    for (int n = 1; n <= 64; n++) {
        CHECK(decomp_dims(n, p) == 0);
        CHECK(p[0] * p[1] * p[2] == n);
        CHECK(p[0] <= p[1] && p[1] <= p[2]); /* most along z, fewest along x */
        balanced(n, want);
        CHECK(memcmp(p, want, sizeof p) == 0);
    }
    CHECK(decomp_dims(0, p) != 0);
    CHECK(decomp_dims(-4, p) != 0);
}

static void test_split(void)
{
    for (size_t global = 1; global <= 40; global++)
        for (int p = 1; p <= (int)global; p++) {
            size_t sum = 0, first = 0;
            for (int k = 0; k < p; k++) {
                size_t n, off;
                decomp_split(global, p, k, &n, &off);
                if (k == 0) first = n;
                CHECK(off == sum);                               /* contiguous, in order */
                CHECK(n >= 1 && (n == first || n + 1 == first)); /* the larger parts first */
                sum += n;
            }
            CHECK(sum == global);
        }
}

static void test_ranks(void)
{
    const int grids[][3] = {{1, 1, 1}, {2, 1, 1}, {1, 1, 4}, {2, 3, 4}, {4, 4, 4}, {3, 1, 5}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        const int *p = grids[g];
        for (int r = 0; r < p[0] * p[1] * p[2]; r++) {
            int c[3], next[3];
            decomp_coords(r, p, c);
            CHECK(c[0] >= 0 && c[0] < p[0] && c[1] >= 0 && c[1] < p[1] && c[2] >= 0 && c[2] < p[2]);
            CHECK(decomp_rank(c, p) == r);
            if (r + 1 < p[0] * p[1] * p[2]) { /* row-major: z moves fastest, x slowest */
                decomp_coords(r + 1, p, next);
                CHECK(next[2] == (c[2] + 1) % p[2]);
                CHECK(next[0] >= c[0]);
            }
        }
    }
}

static size_t wrap(long v, size_t global)
{
    return (size_t)((v % (long)global + (long)global) % (long)global);
}

/* the rank whose box holds global cell g[3], or -1 */
static int owner(const struct part *pt, int nranks, const size_t g[3])
{
    for (int r = 0; r < nranks; r++) {
        int in = 1;
        for (int a = 0; a < 3; a++)
            in &= g[a] >= pt[r].place.offset[a] && g[a] < pt[r].place.offset[a] + pt[r].n[a];
        if (in) return r;
    }
    return -1;
}

/* every global cell in exactly one box */
static void check_tiling(const struct part *pt, int nranks, const size_t global[3])
{
    const size_t cells = global[0] * global[1] * global[2];
    unsigned char *seen = calloc(cells, 1);
    if (!seen) abort();
    for (int r = 0; r < nranks; r++) {
        const size_t *o = pt[r].place.offset;
        for (size_t z = 0; z < pt[r].n[2]; z++)
            for (size_t y = 0; y < pt[r].n[1]; y++)
                for (size_t x = 0; x < pt[r].n[0]; x++) {
                    const size_t i = ((o[2] + z) * global[1] + o[1] + y) * global[0] + o[0] + x;
                    CHECK(o[0] + x < global[0] && o[1] + y < global[1] && o[2] + z < global[2]);
                    if (i < cells) seen[i]++;
                }
    }
    for (size_t i = 0; i < cells; i++)
        CHECK(seen[i] == 1);
    free(seen);
}

/* A side has a neighbour where cells of another rank lie beyond it: inside the domain, or across
 * a periodic wrap (a rank alone along an axis wraps onto itself: no neighbour). */
static void check_sides(const struct part *pt, const int procs[3], const int periodic[3])
{
    for (int a = 0; a < 3; a++) {
        const size_t lo = pt->place.offset[a], hi = lo + pt->n[a], g = pt->place.global[a];
        CHECK(pt->place.neighbor[a][0] == (procs[a] > 1 && (lo > 0 || periodic[a])));
        CHECK(pt->place.neighbor[a][1] == (procs[a] > 1 && (hi < g || periodic[a])));
    }
}

/* the rank holding the cell one step beyond side (0 low, 1 high) of rank me's box along axis a,
 * periodic axes wrapping; -1 beyond a closed side of the domain */
static int across(const struct part *pt, int nranks, int me, int a, int side, const int periodic[3])
{
    const struct part *p = &pt[me];
    const long v = side ? (long)(p->place.offset[a] + p->n[a]) : (long)p->place.offset[a] - 1;
    size_t g[3] = {p->place.offset[0], p->place.offset[1], p->place.offset[2]};
    if (!periodic[a] && (v < 0 || v >= (long)p->place.global[a])) return -1;
    g[a] = wrap(v, p->place.global[a]);
    return owner(pt, nranks, g);
}

/* Each halo goes to the rank holding the cell one step beyond the box towards c_dir (the
 * corner of the send box moved by c_dir; periodic axes wrap), carries the populations moving
 * that way, and matches its peer's halo back: the same populations reversed, the peer's send
 * layer being this rank's ghost layer. There is a halo towards c_e exactly where each axis of c_e
 * leads to another rank: not off a closed side, not back into this box (a periodic axis with
 * one rank wraps onto itself, the backend's business). */
static void check_halos(const struct part *pt, int nranks, int me, const int periodic[3])
{
    const struct part *p = &pt[me];
    int has[LBM_Q] = {0};
    for (int k = 0; k < p->nh; k++) {
        const struct decomp_halo *h = &p->h[k];
        const int m[3] = {lbm_cx[h->dir], lbm_cy[h->dir], lbm_cz[h->dir]};
        size_t g[3];
        const struct decomp_halo *back = NULL;
        has[h->dir] = 1;
        for (int a = 0; a < 3; a++) {
            g[a] = wrap((long)p->place.offset[a] + h->slo[a] + m[a], p->place.global[a]);
            CHECK(h->rlo[a] == h->slo[a] + m[a] && h->rhi[a] == h->shi[a] + m[a]);
        }
        CHECK(h->peer == owner(pt, nranks, g));
        CHECK(h->n == (m[0] * m[0] + m[1] * m[1] + m[2] * m[2] == 1 ? 5 : 1));
        /* an x face's side (the backends read and write these halos themselves): 0 sends x = 0
         * and receives x = -1, 1 sends nx - 1 and receives nx; -1 for every other halo */
        const int side = decomp_x_side(h), nx = (int)p->n[0];
        CHECK(side == (m[1] == 0 && m[2] == 0 ? m[0] > 0 : -1));
        if (side >= 0)
            CHECK(h->slo[0] == (side ? nx - 1 : 0) && h->rlo[0] == (side ? nx : -1) &&
                  h->slo[1] == 0 && h->shi[1] == (long)p->n[1] && h->slo[2] == 0 &&
                  h->shi[2] == (long)p->n[2]);
        for (int i = 0; i < h->n; i++) {
            CHECK(i == 0 || h->dirs[i] > h->dirs[i - 1]); /* each population once */
            const int c[3] = {lbm_cx[h->dirs[i]], lbm_cy[h->dirs[i]], lbm_cz[h->dirs[i]]};
            for (int a = 0; a < 3; a++)
                CHECK(!m[a] || c[a] == m[a]);
        }
        for (int j = 0; j < pt[h->peer].nh; j++)
            if (pt[h->peer].h[j].dir == lbm_opp[h->dir] && pt[h->peer].h[j].peer == me)
                back = &pt[h->peer].h[j];
        CHECK(back != NULL);
        if (!back) continue;
        CHECK(back->n == h->n && memcmp(back->dirs, h->rdirs, sizeof(int) * (size_t)h->n) == 0);
        for (int a = 0; a < 3; a++) { /* the peer's send layer is this rank's ghost layer */
            const size_t gl = p->place.global[a];
            CHECK(wrap((long)pt[h->peer].place.offset[a] + back->slo[a], gl) ==
                  wrap((long)p->place.offset[a] + h->rlo[a], gl));
            CHECK(back->shi[a] - back->slo[a] == h->rhi[a] - h->rlo[a]);
        }
    }
    for (int e = 1; e < LBM_Q; e++) { /* a halo where every axis of c_e leads to another rank */
        const int m[3] = {lbm_cx[e], lbm_cy[e], lbm_cz[e]};
        int other = 1;
        for (int a = 0; a < 3; a++)
            if (m[a]) {
                const int q = across(pt, nranks, me, a, m[a] > 0, periodic);
                other &= q >= 0 && q != me;
            }
        CHECK(has[e] == other);
    }
}

/* The update's boxes cover the rank's box once; all but the last are shells on sides with a
 * neighbour, one cell thick along y or z and xw cells wide along x (fewer only where the x shells
 * took every cell left, so that the interior is empty; xw = 0: no x shells); the last, the
 * interior, touches no such side (xw = 0: along x it does, whole rows). */
static void check_boxes(const struct part *p, size_t xw)
{
    size_t lo[DECOMP_MAX_BOXES][3], hi[DECOMP_MAX_BOXES][3];
    const int nb = decomp_boxes(p->n, &p->place, xw, lo, hi);
    const size_t cells = p->n[0] * p->n[1] * p->n[2];
    size_t covered = 0, inner;
    CHECK(nb >= 1 && nb <= DECOMP_MAX_BOXES);
    inner = (hi[nb - 1][0] - lo[nb - 1][0]) * (hi[nb - 1][1] - lo[nb - 1][1]) *
            (hi[nb - 1][2] - lo[nb - 1][2]);
    for (int b = 0; b < nb; b++) {
        size_t v = 1;
        for (int a = 0; a < 3; a++) {
            CHECK(lo[b][a] <= hi[b][a] && hi[b][a] <= p->n[a]);
            v *= hi[b][a] - lo[b][a];
        }
        covered += v;
        for (int c = 0; c < b; c++) { /* disjoint: apart along some axis */
            int apart = 0;
            for (int a = 0; a < 3; a++)
                apart |= hi[b][a] <= lo[c][a] || hi[c][a] <= lo[b][a];
            CHECK(apart || v == 0);
        }
        if (b < nb - 1) {
            int shell = 0;
            for (int a = 0; a < 3; a++) {
                const size_t w = hi[b][a] - lo[b][a];
                const size_t want = a == 0 ? xw : 1;
                shell |= (w == want || (a == 0 && w < want && inner == 0)) &&
                         ((lo[b][a] == 0 && p->place.neighbor[a][0]) ||
                          (hi[b][a] == p->n[a] && p->place.neighbor[a][1]));
            }
            CHECK(shell);
        } else {
            for (int a = 0; a < 3; a++)
                CHECK(hi[b][a] == lo[b][a] ||
                      (a == 0 && xw == 0 && lo[b][a] == 0 && hi[b][a] == p->n[a]) ||
                      ((lo[b][a] > 0 || !p->place.neighbor[a][0]) &&
                       (hi[b][a] < p->n[a] || !p->place.neighbor[a][1])));
        }
    }
    CHECK(covered == cells);
}

/* Splits whole (weak: each rank's box) over procs and checks every rank's part. */
static void check_split(const size_t whole[3], const int procs[3], const int periodic[3], int weak)
{
    const int nranks = procs[0] * procs[1] * procs[2];
    struct part *pt = calloc((size_t)nranks, sizeof *pt);
    size_t global[3];
    char err[160];
    if (!pt) abort();
    CHECK(decomp_check(whole, procs, weak, nranks, err, sizeof err) == 0);
    for (int a = 0; a < 3; a++)
        global[a] = weak ? whole[a] * (size_t)procs[a] : whole[a];
    for (int r = 0; r < nranks; r++) {
        struct part *p = &pt[r];
        decomp_coords(r, procs, p->coords);
        decomp_place(whole, procs, p->coords, periodic, weak, p->n, &p->place);
        for (int a = 0; a < 3; a++) {
            CHECK(p->place.global[a] == global[a]);
            if (weak) CHECK(p->n[a] == whole[a]);
        }
        p->nh = decomp_halos(p->n, &p->place, p->coords, procs, periodic, p->h);
        CHECK(p->nh >= 0 && p->nh <= DECOMP_MAX_HALOS);
        check_sides(p, procs, periodic);
        check_boxes(p, 0);
        check_boxes(p, 1);
        check_boxes(p, 3);
        check_boxes(p, 32);
        check_boxes(p, SIZE_MAX);
    }
    check_tiling(pt, nranks, global);
    for (int r = 0; r < nranks; r++)
        check_halos(pt, nranks, r, periodic);
    free(pt);
}

static void test_splits(void)
{
    const size_t domains[][3] = {{20, 14, 10}, {17, 9, 6}, {8, 8, 8}, {5, 7, 64}, {1, 1, 1}};
    const int grids[][3] = {{2, 1, 1}, {1, 2, 2}, {4, 1, 1}, {1, 1, 4}, {3, 3, 3}, {2, 3, 4}};
    char err[160];
    for (size_t d = 0; d < sizeof domains / sizeof domains[0]; d++)
        for (int per = 0; per < 8; per++) {
            const int periodic[3] = {per & 1, per >> 1 & 1, per >> 2 & 1};
            for (int n = 1; n <= 64; n++) { /* the default grid of every rank count */
                int p[3];
                CHECK(decomp_dims(n, p) == 0);
                if (domains[d][0] >= (size_t)p[0] && domains[d][1] >= (size_t)p[1] &&
                    domains[d][2] >= (size_t)p[2])
                    check_split(domains[d], p, periodic, 0);
                else /* too few cells along an axis for its ranks */
                    CHECK(decomp_check(domains[d], p, 0, n, err, sizeof err) != 0);
            }
            for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
                if (domains[d][0] >= (size_t)grids[g][0] && domains[d][1] >= (size_t)grids[g][1] &&
                    domains[d][2] >= (size_t)grids[g][2])
                    check_split(domains[d], grids[g], periodic, 0);
                check_split(domains[d], grids[g], periodic, 1); /* weak: any box */
            }
        }
}

/* An x split of 200 x 6 x 5 over 2 ranks with 32-cell x shells: each rank first updates the 32
 * x columns next to its neighbour (whole y-z planes), then the 68 others; without x shells
 * (xw = 0) one box, the whole part. */
static void test_x_shells(void)
{
    const size_t whole[3] = {200, 6, 5};
    const int procs[3] = {2, 1, 1}, periodic[3] = {0, 0, 0};
    for (int r = 0; r < 2; r++) {
        size_t n[3], lo[DECOMP_MAX_BOXES][3], hi[DECOMP_MAX_BOXES][3];
        struct lbm_place place;
        int coords[3];
        decomp_coords(r, procs, coords);
        decomp_place(whole, procs, coords, periodic, 0, n, &place);
        CHECK(n[0] == 100);
        CHECK(decomp_boxes(n, &place, 32, lo, hi) == 2);
        CHECK(lo[0][0] == (r == 0 ? 68u : 0u) && hi[0][0] == (r == 0 ? 100u : 32u));
        CHECK(lo[1][0] == (r == 0 ? 0u : 32u) && hi[1][0] == (r == 0 ? 68u : 100u));
        for (int b = 0; b < 2; b++)
            CHECK(lo[b][1] == 0 && hi[b][1] == 6 && lo[b][2] == 0 && hi[b][2] == 5);
        CHECK(decomp_boxes(n, &place, 0, lo, hi) == 1);
        CHECK(lo[0][0] == 0 && hi[0][0] == 100);
    }
}

static void test_refusals(void)
{
    const size_t whole[3] = {20, 14, 10}, thin[3] = {20, 14, 1};
    const int ok[3] = {2, 2, 1}, deep[3] = {1, 1, 2}, none[3] = {2, 0, 1}, neg[3] = {-1, 1, 1};
    char err[160];
    err[0] = 0;
    CHECK(decomp_check(whole, ok, 0, 4, err, sizeof err) == 0);
    CHECK(decomp_check(whole, ok, 0, 3, err, sizeof err) != 0 && err[0]); /* too few ranks */
    CHECK(decomp_check(whole, ok, 0, 8, err, sizeof err) == 0);           /* the rest idle */
    CHECK(decomp_check(thin, deep, 0, 2, err, sizeof err) != 0);          /* 1 cell for 2 ranks */
    CHECK(decomp_check(thin, deep, 1, 2, err, sizeof err) == 0); /* weak: each has its own */
    CHECK(decomp_check(whole, none, 0, 4, err, sizeof err) != 0);
    CHECK(decomp_check(whole, neg, 0, 4, err, sizeof err) != 0);
}

int main(void)
{
    test_dims();
    test_split();
    test_ranks();
    test_splits();
    test_x_shells();
    test_refusals();
    return check_report("test_decomp");
}
