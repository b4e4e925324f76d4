/* test_lbm_model.c: the collision operators on their own, on shifted populations g = f - w as
 * the kernels store them: mass and momentum conserved by all three; TRT with equal rates and MRT
 * with all rates equal reduce to BGK; forcing adds exactly the force to the momentum; the
 * equilibrium is a fixed point; the MRT rows are orthogonal with the published norms; the byte
 * table, the layout and the default row alignment per kernel. Double precision to round-off, single
 * to its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device.h"
#include "init.h"
#include "layout.h"
#include "lbm_model.h"

/* shifted populations g = f - w of a state off equilibrium */
static void state(double g[19], int seed)
{
    for (int d = 0; d < 19; d++)
        g[d] = lbm_init_value(d, (size_t)seed, 3, 7) * (1.0 + 0.05 * (d % 5)) - lbm_w[d];
}

static void sums(const double f[19], double *rho, double j[3])
{
    *rho = j[0] = j[1] = j[2] = 0;
    for (int d = 0; d < 19; d++) {
        *rho += f[d];
        j[0] += lbm_cx[d] * f[d];
        j[1] += lbm_cy[d] * f[d];
        j[2] += lbm_cz[d] * f[d];
    }
}

static double maxdiff(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

int main(void)
{
    struct lbm_case c;
    struct lbm_coll_dp p;
    memset(&c, 0, sizeof c);
    c.omega = 1.3;
    lbm_coll_params_dp(&c, &p);

    /* TRT's odd rate from the magic parameter */
    CHECK(fabs((1 / p.omega - 0.5) * (1 / p.omega_minus - 0.5) - 3.0 / 16.0) < 1e-15);

    for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
        for (int forced = 0; forced < 2; forced++) {
            double f[19], rho0, j0[3], rho1, j1[3];
            struct lbm_coll_dp q = p;
            q.g[0] = forced ? 1e-4 : 0;
            q.g[1] = forced ? -2e-4 : 0;
            q.g[2] = forced ? 3e-4 : 0;
            state(f, 11 + coll);
            sums(f, &rho0, j0);
            lbm_collide_dp(f, &q, coll, forced);
            sums(f, &rho1, j1);
            CHECK(fabs(rho1 - rho0) < 1e-15);
            for (int a = 0; a < 3; a++)
                CHECK(fabs(j1[a] - (j0[a] + q.g[a])) < 1e-15); /* momentum gains the force */
        }
    }
    {
        /* TRT with w- = w+ and MRT with every rate w are BGK */
        double a[19], b[19], m[19];
        struct lbm_coll_dp q = p;
        q.omega_minus = q.omega;
        for (int k = 0; k < 19; k++)
            q.s[k] = q.omega;
        state(a, 5);
        memcpy(b, a, sizeof a);
        memcpy(m, a, sizeof a);
        lbm_bgk_dp(a, &q, 0);
        lbm_trt_dp(b, &q, 0);
        lbm_mrt_dp(m, &q, 0);
        CHECK(maxdiff(a, b, 19) < 1e-16);
        CHECK(maxdiff(a, m, 19) < 1e-16);
        q.g[0] = 1e-4;
        state(a, 6);
        memcpy(b, a, sizeof a);
        memcpy(m, a, sizeof a);
        lbm_bgk_dp(a, &q, 1);
        lbm_trt_dp(b, &q, 1);
        lbm_mrt_dp(m, &q, 1);
        CHECK(maxdiff(a, b, 19) < 1e-16);
        CHECK(maxdiff(a, m, 19) < 1e-16);
    }
    {
        /* the equilibrium is a fixed point of every operator */
        double f[19];
        const double rho = 1.02, u[3] = {0.03, -0.01, 0.02};
        for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
            double g[19];
            for (int d = 0; d < 19; d++) {
                double cu = lbm_cx[d] * u[0] + lbm_cy[d] * u[1] + lbm_cz[d] * u[2];
                f[d] = lbm_w[d] * rho *
                           (1 + 3 * cu + 4.5 * cu * cu -
                            1.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2])) -
                       lbm_w[d]; /* shifted */
            }
            memcpy(g, f, sizeof f);
            lbm_collide_dp(g, &p, coll, 0);
            CHECK(maxdiff(f, g, 19) < 1e-15);
        }
    }
    {
        /* single precision agrees with double to float round-off */
        struct lbm_coll_sp ps;
        double f[19];
        float fs[19];
        lbm_coll_params_sp(&c, &ps);
        for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
            state(f, 9);
            for (int d = 0; d < 19; d++)
                fs[d] = (float)f[d];
            lbm_collide_dp(f, &p, coll, 0);
            lbm_collide_sp(fs, &ps, coll, 0);
            for (int d = 0; d < 19; d++)
                CHECK(fabs(fs[d] - f[d]) < 1e-6 * fabs(f[d]) + 1e-8);
        }
    }
    {
        /* MRT rows orthogonal with d'Humieres' norms */
        const double norms[19] = LBM_MRT_NORMS;
        const double want[19] = {19, 2394, 252, 10, 40, 10, 40, 10, 40, 36,
                                 72, 12,   24,  4,  4,  4,  8,  8,  8};
        double e[19], m[19];
        for (int i = 0; i < 19; i++) {
            for (int k = 0; k < 19; k++)
                e[k] = k == i;
            LBM_MRT_MOMENTS(m, e); /* column i of M */
            for (int k = 0; k < 19; k++)
                e[k] = m[k] / norms[k];
            LBM_MRT_INVERSE(m, e); /* M^-1 M e_i = e_i */
            for (int k = 0; k < 19; k++)
                CHECK(fabs(m[k] - (k == i)) < 1e-15);
        }
        CHECK(maxdiff(norms, want, 19) == 0);
    }
    {
        double prog, dram;
        lbm_traffic(4, 0, &prog, &dram);
        CHECK(prog == 152 && dram == 152);
        lbm_traffic(4, 1, &prog, &dram);
        CHECK(prog == 152 && dram == 228);
        lbm_traffic(8, 1, &prog, &dram);
        CHECK(prog == 304 && dram == 456);
    }
    {
        struct lbm_layout l;
        CHECK(lbm_layout_make(&l, 100, 3, 2, 0, 0, 4) == 0 && l.pitch == 100);
        CHECK(lbm_layout_make(&l, 100, 3, 2, 3, 0, 4) == 0 && l.pitch == 103);
        CHECK(lbm_layout_make(&l, 100, 3, 2, 0, 128, 4) == 0 && l.pitch == 128);
        CHECK(lbm_layout_make(&l, 100, 3, 2, 0, 128, 8) == 0 && l.pitch == 112);
        CHECK(l.dir_stride >= 112 * 6 && l.elems == 19 * l.dir_stride);
        /* arrays 128-byte aligned, staggered by 384 bytes within a page: 19 distinct offsets */
        for (int d = 0; d < 19; d++) {
            CHECK(d * l.dir_stride * 8 % 128 == 0);
            for (int e = 0; e < d; e++)
                CHECK(d * l.dir_stride * 8 % 4096 != e * l.dir_stride * 8 % 4096);
        }
        CHECK(lbm_layout_make(&l, 100, 3, 2, 0, 6, 4) != 0);
        CHECK(LBM_IDX(&l, 2, 5, 1, 1) == 2 * l.dir_stride + (1 * 3 + 1) * 112 + 5);
        CHECK(l.org == 0 && l.ox == 0 && l.sy == 3 && l.sz == 2);
    }
    {
        /* a sub-domain with ghost layers on every axis: fluid rows stay 128-byte aligned, ghost
         * cells at -1 and n, the first ghost corner lies just before fluid cell 0 */
        struct lbm_layout l;
        const int g[3] = {1, 1, 1}, gy[3] = {0, 1, 0};
        CHECK(lbm_layout_make_halo(&l, 100, 3, 2, 0, 128, 4, g) == 0);
        CHECK(l.ox == 32 && l.pitch == 160 && l.sy == 5 && l.sz == 4);
        CHECK(l.org == (1 * 5 + 1) * 160 + 32 && l.org * 4 % 128 == 0);
        CHECK(LBM_IDX(&l, 0, -1, -1, -1) == 31);
        CHECK(LBM_IDX(&l, 1, 100, 3, 2) == l.dir_stride + l.org + (2 * 5 + 3) * 160 + 100);
        CHECK(LBM_IDX(&l, 18, 100, 3, 2) < l.elems && l.dir_stride >= 160 * 5 * 4);
        CHECK(lbm_layout_make_halo(&l, 10, 3, 2, 0, 0, 8, gy) == 0);
        CHECK(l.ox == 0 && l.pitch == 10 && l.sy == 5 && l.sz == 2 && l.org == 10);
        CHECK(LBM_IDX(&l, 0, 0, -1, 0) == 0);
    }
    {
        /* an x-split row spans ox + nx whole units: its ghost x = nx takes slot 0 of the next
         * row's front unit where the fluid ends on a unit (256 sp cells on 128 bytes: 288, not
         * 320). Every cell, ghosts and corners included, keeps an index of its own inside the
         * lattice, in 19 arrays and interleaved, on units of 32 to 128 bytes and none */
        struct lbm_layout l = {0};
        const int g[3] = {1, 1, 1}, gx[3] = {1, 0, 0};
        CHECK(lbm_layout_make_halo(&l, 256, 3, 2, 0, 128, 4, gx) == 0 && l.pitch == 288);
        CHECK(LBM_IDX(&l, 0, 256, 0, 0) == LBM_IDX(&l, 0, -1, 1, 0) - 31);
        CHECK(lbm_layout_make_halo(&l, 256, 3, 2, 0, 128, 2, gx) == 0 && l.pitch == 320);
        CHECK(lbm_layout_make_halo(&l, 250, 3, 2, 0, 128, 4, gx) == 0 && l.pitch == 288);
        CHECK(lbm_layout_make_halo(&l, 256, 3, 2, 0, 0, 4, gx) == 0 && l.pitch == 258);
        /* each layout of the grid below once, two checks over one map of which cell owns each
         * index: no index owned twice or past the lattice; and a ghost cell that
         * lbm_layout_ghost_alone calls alone in its 32-byte sector (the GPU's unpack then writes
         * the whole sector) shares it with no other cell, ghosts included (on 32-byte units a
         * row's slot 0 may hold the ghost nx of the row before) */
        const size_t nxs[] = {8, 13, 16, 32, 48}, aligns[] = {0, 32, 64, 128}, ess[] = {2, 4, 8};
        int alone = 0, clean = 1;
        for (size_t a = 0; a < 4; a++)
            for (size_t e = 0; e < 3; e++)
                for (size_t n = 0; n < 5; n++)
                    for (int il = 0; il < 2; il++) {
                        const long nx = (long)nxs[n], per = (long)(32 / ess[e]);
                        CHECK(lbm_layout_make_halo(&l, nxs[n], 3, 2, 0, aligns[a], ess[e], g) == 0);
                        if (il) lbm_layout_interleave(&l);
                        CHECK(aligns[a] == 0 || (l.org * ess[e]) % aligns[a] == 0);
                        long *owner = malloc(l.elems * sizeof *owner);
                        int distinct = owner != NULL;
                        for (size_t i = 0; distinct && i < l.elems; i++)
                            owner[i] = -1;
                        long id = 0;
                        for (int d = 0; d < 19 && distinct; d++)
                            for (long z = -1; z <= 2; z++)
                                for (long y = -1; y <= 3; y++)
                                    for (long x = -1; x <= nx; x++, id++) {
                                        const size_t i = LBM_IDX(&l, d, x, y, z);
                                        distinct = distinct && i < l.elems && owner[i] < 0;
                                        if (i < l.elems) owner[i] = id;
                                    }
                        CHECK(distinct);
                        for (long x = -1; distinct && x <= nx; x += nx + 1) {
                            if (!lbm_layout_ghost_alone(&l, x, ess[e], 32)) continue;
                            alone++;
                            for (int d = 0; d < 19; d++)
                                for (long z = -1; z <= 2; z++)
                                    for (long y = -1; y <= 3; y++) {
                                        const size_t i = LBM_IDX(&l, d, x, y, z);
                                        const size_t s0 = i / (size_t)per * (size_t)per;
                                        for (size_t k = s0; k < s0 + (size_t)per && k < l.elems;
                                             k++)
                                            clean = clean && (owner[k] < 0 || k == i);
                                    }
                        }
                        free(owner);
                    }
        CHECK(clean);
        CHECK(alone > 0);
    }
    {
        /* the default domain: the smallest multiple of 16 whose one lattice holds the bytes
         * asked for (the cache rule), never below the minimum edge */
        const size_t mib = (size_t)1 << 20;
        const size_t asks[] = {0, 1, 4 * 260 * mib, 4 * 32 * mib, 4 * 1024 * mib};
        for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
            for (size_t es = 4; es <= 8; es += 4) {
                const size_t e = lbm_default_edge(asks[i], es, 16);
                const double lattice = 19.0 * (double)es * e * e * e;
                const double below = 19.0 * (double)es * (e - 16) * (e - 16) * (e - 16);
                CHECK(e % 16 == 0 && e >= 16);
                CHECK(lattice >= (double)asks[i]);
                CHECK(e == 16 || below < (double)asks[i]);
            }
            CHECK(lbm_default_edge(asks[i], 4, 256) >= 256);
            CHECK(lbm_default_edge(asks[i], 4, 250) % 16 == 0);
        }
    }
    {
        /* rows without --align: the in-place kernel takes the backend's row_align_inplace, the
         * two-lattice kernels its row_align; on a grid split along x every kernel takes
         * row_align_split_x but pull_nt, which takes row_align_split_x_nt (the cpu's: pull 0,
         * pull_nt 64), even where that is below the grid's other rows' */
        struct device_facts gpu, cpu;
        memset(&gpu, 0, sizeof gpu);
        memset(&cpu, 0, sizeof cpu);
        gpu.row_align = 32;
        gpu.row_align_inplace = 128;
        gpu.row_align_split_x = gpu.row_align_split_x_nt = 128;
        cpu.row_align = cpu.row_align_inplace = 64;
        cpu.row_align_split_x = 0;
        cpu.row_align_split_x_nt = 64;
        for (int k = 0; k < LBM_KERNEL_COUNT; k++) {
            CHECK(lbm_row_align_default(&gpu, (enum lbm_kernel)k, 0) == (k == LBM_AA ? 128u : 32u));
            CHECK(lbm_row_align_default(&gpu, (enum lbm_kernel)k, 1) == 128u);
            CHECK(lbm_row_align_default(&cpu, (enum lbm_kernel)k, 0) == 64u);
            CHECK(lbm_row_align_default(&cpu, (enum lbm_kernel)k, 1) ==
                  (k == LBM_PULL_NT ? 64u : 0u));
        }
    }
    {
        /* the x ghost layer: kept where the backend's rows do not read the received x face
         * themselves, or where y or z is split too (the x ghost column holds the edges' values);
         * left out where x is the only split axis and the rows read the face (rows of nx cells) */
        struct lbm_case c;
        struct lbm_setup u;
        char err[128];
        memset(&c, 0, sizeof c);
        c.nx = 128, c.ny = 6, c.nz = 5, c.align = 64, c.prec = PREC_SP, c.omega = 1.0;
        c.kernel = LBM_PULL_NT, c.geometry = LBM_CAVITY, c.collision = LBM_BGK;
        c.place.neighbor[0][0] = c.place.neighbor[0][1] = 1;
        CHECK(lbm_setup_make(&u, &c, err, sizeof err) == 0 && u.l.gx == 1 && u.l.pitch == 144);
        c.place.x_faces_in_rows = 1;
        CHECK(lbm_setup_make(&u, &c, err, sizeof err) == 0 && u.l.gx == 0 && u.l.pitch == 128);
        CHECK(!u.b.periodic[0] && u.b.neighbor[0][0] && u.b.neighbor[0][1]);
        CHECK(lbm_bytes_needed(&c) == 2 * u.l.elems * 4);
        c.place.neighbor[2][1] = 1;
        CHECK(lbm_setup_make(&u, &c, err, sizeof err) == 0 && u.l.gx == 1 && u.l.gz == 1);
    }
    return check_report("test_lbm_model");
}
