/* lbm_backend_check.c: linked with one LBM backend (test_lbm_cpu, test_lbm_gpu). (1) Against the
 * reference: every geometry x collision x precision x kernel on small padded and aligned domains,
 * an odd number of steps from init.h's state (aa: one more, it reads back after even counts;
 * second lattice and padding poisoned), max relative error <= 1e-12 dp, 1e-5 sp; fp16s and fp16c
 * max absolute error <= lbm_storage16_tolerance, mass against the reference's, no non-finite
 * value. (2) Physics, dp:
 * plane Poiseuille with TRT against the analytic parabola (relative L2 <= 1e-5), Taylor-Green decay
 * rate within 1% of nu k^2. (3) A NaN spreads as in the reference (nan_spread_mismatch). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lbm.h"
#include "storage16.h"

static char err[512];

static struct lbm_case base(size_t nx, size_t ny, size_t nz)
{
    struct lbm_case c;
    memset(&c, 0, sizeof c);
    c.nx = nx;
    c.ny = ny;
    c.nz = nz;
    c.omega = 1.6;
    c.lid_ux = 0.05;
    return c;
}

/* The case against the reference after `steps` updates: the max relative error (sp, dp) or,
 * 16-bit, the max absolute error over lbm_storage16_tolerance (g_max: the largest |f - w| of the
 * reference run, step by step), so that <= 1 passes; 16-bit also the backend's mass against the
 * reference's (relative, within 19 values' tolerance per cell of rho about 1) and no non-finite
 * value (lbm_check). INFINITY on any failure to run or NaN. */
static double compare_with_reference(const struct lbm_case *c, int steps)
{
    size_t n = 19 * c->nx * c->ny * c->nz, cells = n / 19;
    double *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got), worst = 0;
    struct lbm_state *s = NULL;
    struct lbm_launch used;
    double secs, mass = 0, ref_mass = 0, g_max = 0;
    size_t bad = 0;
    uint64_t hash;
    const int s16 = prec_is_16bit(c->prec);

    if (!ref || !got || lbm_alloc(&s, c, &used, err, sizeof err) || lbm_init(s, err, sizeof err) ||
        lbm_step(s, steps, &secs, err, sizeof err) || lbm_fetch(s, got, err, sizeof err) ||
        lbm_check(s, &mass, &bad, &hash, err, sizeof err)) {
        fprintf(stderr, "backend: %s\n", err);
        worst = INFINITY;
    } else {
        lbm_reference_init(c, ref);
        for (int t = 0; t <= steps; t++) {
            for (size_t i = 0; s16 && i < n; i++)
                g_max = fmax(g_max, fabs(ref[i] - lbm_w[i / cells]));
            if (t < steps) lbm_reference_step(c, ref, 1);
        }
        if (s16) {
            const double u = c->prec == PREC_FP16S ? LBM_FP16S_U : LBM_FP16C_U;
            const double tol = lbm_storage16_tolerance(u, g_max, steps);
            for (size_t i = 0; i < n; i++) {
                double e = fabs(got[i] - ref[i]) / tol;
                worst = isnan(e) ? INFINITY : fmax(worst, e);
                ref_mass += ref[i];
            }
            /* mass: each cell's 19 values off by <= tol each, over the mass (about 1 a cell) */
            worst = fmax(worst, fabs(mass - ref_mass) / ref_mass / (19 * tol));
            if (bad) worst = INFINITY;
        } else {
            for (size_t i = 0; i < n; i++) {
                double e = fabs(got[i] - ref[i]) / fabs(ref[i]);
                worst = isnan(e) ? INFINITY : fmax(worst, e);
            }
        }
    }
    lbm_free(s);
    free(ref);
    free(got);
    return worst;
}

/* A NaN among the populations spreads as in the reference: after two updates the same values
 * are NaN (a cell that reads one makes all 19 of its values NaN). 16-bit lattices store it as
 * their NaN code, and the GPU's fp16c kernels trap that code once a cell rather than once a
 * value (storage16.h), in each of their single-rank paths: so the NaNs sit where those paths read
 * them, rows of nx = 96 (an x end in the first and last warp, none in the middle one; aa's local
 * half two cells a thread) and 97 (aa's local half with a lone last cell, or one cell a thread
 * where the pitch is odd): a middle cell, both x ends across the wall or the periodic wrap, and a
 * cell on a y face. The distributed variants (box, ghost and halo kernels, received x faces) are
 * not run here. Returns the count of values whose NaN-ness differs, or -1 on a failure to run. */
static long nan_spread_mismatch(const struct lbm_case *c)
{
    const size_t cells = c->nx * c->ny * c->nz, n = 19 * cells;
    double *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got), secs;
    struct lbm_state *s = NULL;
    struct lbm_launch used;
    int east = 0, west = 0; /* the directions (1, 0, 0) and (-1, 0, 0) */
    long mismatch = 0;

    for (int d = 0; d < 19; d++) {
        if (lbm_cx[d] == 1 && lbm_cy[d] == 0 && lbm_cz[d] == 0) east = d;
        if (lbm_cx[d] == -1 && lbm_cy[d] == 0 && lbm_cz[d] == 0) west = d;
    }
    if (!ref || !got) {
        free(ref);
        free(got);
        return -1;
    }
    lbm_reference_init(c, ref);
    {
        const size_t y = c->ny / 2, z = c->nz / 2, row = (z * c->ny + y) * c->nx;
        ref[0 * cells + row + c->nx / 2] = NAN;                     /* a middle cell's rest value */
        ref[east * cells + row + c->nx - 1] = NAN;                  /* leaving through x = nx - 1 */
        ref[west * cells + row] = NAN;                              /* leaving through x = 0 */
        ref[0 * cells + (z * c->ny + 0) * c->nx + c->nx / 2] = NAN; /* on the y = 0 face */
    }
    if (lbm_alloc(&s, c, &used, err, sizeof err) || lbm_load(s, ref, err, sizeof err) ||
        lbm_step(s, 2, &secs, err, sizeof err) || lbm_fetch(s, got, err, sizeof err)) {
        fprintf(stderr, "nan spread: %s\n", err);
        mismatch = -1;
    } else {
        lbm_reference_step(c, ref, 2);
        for (size_t i = 0; i < n; i++)
            mismatch += isnan(got[i]) != isnan(ref[i]);
    }
    lbm_free(s);
    free(ref);
    free(got);
    return mismatch;
}

/* steady channel flow: u_x(y) against g / (2 nu) (y + 1/2)(ny - 1/2 - y), walls half-way */
static double poiseuille_error(void)
{
    struct lbm_case c = base(4, 16, 4);
    size_t n = 19 * c.nx * c.ny * c.nz;
    double *f = malloc(n * sizeof *f), num = 0, den = 0, secs;
    struct lbm_state *s = NULL;
    struct lbm_launch used;
    const double nu = lbm_viscosity(1.0);

    c.geometry = LBM_CHANNEL;
    c.collision = LBM_TRT;
    c.prec = PREC_DP;
    c.omega = 1.0;
    c.force[0] = 1e-6;
    for (int d = 0; d < 19; d++)
        for (size_t i = 0; i < n / 19; i++)
            f[d * (n / 19) + i] = lbm_w[d];
    if (lbm_alloc(&s, &c, &used, err, sizeof err) || lbm_load(s, f, err, sizeof err) ||
        lbm_step(s, 8000, &secs, err, sizeof err) || lbm_fetch(s, f, err, sizeof err)) {
        fprintf(stderr, "poiseuille: %s\n", err);
        lbm_free(s);
        free(f);
        return INFINITY;
    }
    for (size_t y = 0; y < c.ny; y++) {
        size_t x = 1, z = 2, cells = c.nx * c.ny * c.nz;
        size_t cell = (z * c.ny + y) * c.nx + x;
        double rho = 0, jx = 0;
        for (int d = 0; d < 19; d++) {
            rho += f[d * cells + cell];
            jx += lbm_cx[d] * f[d * cells + cell];
        }
        /* the stored populations are post-collision: their momentum holds the whole force, the
         * cell's velocity is half a force below it */
        double u = (jx - 0.5 * c.force[0]) / rho;
        double want = c.force[0] / (2 * nu * rho) * (y + 0.5) * (c.ny - 0.5 - y);
        num += (u - want) * (u - want);
        den += want * want;
    }
    lbm_free(s);
    free(f);
    return sqrt(num / den);
}

/* decay rate of a Taylor-Green vortex, measured between two times, over nu (kx^2 + ky^2) */
static double taylor_green_ratio(enum lbm_collision coll)
{
    struct lbm_case c = base(32, 32, 1);
    size_t cells = c.nx * c.ny * c.nz, n = 19 * cells;
    double *f = malloc(n * sizeof *f), amp[2], secs;
    const double k = 2 * 3.14159265358979323846 / 32, u0 = 0.01;
    struct lbm_state *s = NULL;
    struct lbm_launch used;

    c.geometry = LBM_PERIODIC;
    c.collision = coll;
    c.prec = PREC_DP;
    c.omega = 1.2;
    for (size_t y = 0; y < c.ny; y++) {
        for (size_t x = 0; x < c.nx; x++) {
            double ux = -u0 * cos(k * x) * sin(k * y), uy = u0 * sin(k * x) * cos(k * y);
            double rho = 1 - 0.75 * u0 * u0 * (cos(2 * k * x) + cos(2 * k * y)); /* p = rho/3 */
            for (int d = 0; d < 19; d++) {
                double cu = lbm_cx[d] * ux + lbm_cy[d] * uy;
                f[d * cells + y * c.nx + x] =
                    lbm_w[d] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * (ux * ux + uy * uy));
            }
        }
    }
    if (lbm_alloc(&s, &c, &used, err, sizeof err) || lbm_load(s, f, err, sizeof err)) {
        fprintf(stderr, "taylor-green: %s\n", err);
        lbm_free(s);
        free(f);
        return INFINITY;
    }
    for (int t = 0; t < 2; t++) {
        double e = 0;
        if (lbm_step(s, t == 0 ? 50 : 300, &secs, err, sizeof err) ||
            lbm_fetch(s, f, err, sizeof err)) {
            fprintf(stderr, "taylor-green: %s\n", err);
            lbm_free(s);
            free(f);
            return INFINITY;
        }
        for (size_t i = 0; i < cells; i++) {
            double rho = 0, jx = 0, jy = 0;
            for (int d = 0; d < 19; d++) {
                rho += f[d * cells + i];
                jx += lbm_cx[d] * f[d * cells + i];
                jy += lbm_cy[d] * f[d * cells + i];
            }
            e += (jx * jx + jy * jy) / (rho * rho);
        }
        amp[t] = sqrt(e);
    }
    lbm_free(s);
    free(f);
    return log(amp[0] / amp[1]) / 300 / (lbm_viscosity(c.omega) * 2 * k * k);
}

int main(void)
{
    struct device_facts dev;
    static const size_t dims[][6] = {
        /* nx, ny, nz, pad, align(bytes), steps */
        {13, 7, 5, 3, 0, 5},
        {16, 6, 4, 0, 128, 3},
        {1, 4, 3, 0, 0, 3},
        /* cpu pull_nt: 80 cells a 4-line step and a line in sp, 128 whole steps in every
         * precision (64 sp, 32 dp, 128 16-bit cells a step) */
        {2, 3, 5, 1, 64, 3},
        {80, 5, 4, 0, 64, 3},
        {128, 5, 4, 0, 64, 3},
    };
    if (lbm_backend_open(&dev, err, sizeof err)) {
        fprintf(stderr, "lbm_backend_check: %s\n", err);
        return 1;
    }
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        for (int g = 0; g < LBM_GEOMETRY_COUNT; g++) {
            for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
                for (int p = 0; p < PREC_COUNT; p++) {
                    for (int k = 0; k < LBM_KERNEL_COUNT; k++) {
                        char why[256];
                        struct lbm_case c = base(dims[di][0], dims[di][1], dims[di][2]);
                        /* 16-bit: e is already the error over its tolerance */
                        double e, tol = p == PREC_DP ? 1e-12 : p == PREC_SP ? 1e-5 : 1;
                        if (lbm_kernel_supported((enum lbm_kernel)k, why, sizeof why)) continue;
                        c.pad = dims[di][3];
                        c.align = dims[di][4];
                        c.geometry = (enum lbm_geometry)g;
                        c.collision = (enum lbm_collision)coll;
                        c.prec = (enum prec)p;
                        c.kernel = (enum lbm_kernel)k;
                        if (g == LBM_CHANNEL) c.force[0] = 1e-4;
                        /* aa's lattice reads back after an even number of updates */
                        e = compare_with_reference(&c, (int)dims[di][5] + (k == LBM_AA));
                        if (!(e <= tol))
                            fprintf(stderr,
                                    "  %zux%zux%zu pad %zu align %zu %s %s %s %s: max err %g "
                                    "(allowed %g)\n",
                                    c.nx, c.ny, c.nz, c.pad, c.align, lbm_geometry_names[g],
                                    lbm_collision_names[coll], prec_name(c.prec),
                                    lbm_kernel_names[k], e, tol);
                        CHECK(e <= tol);
                    }
                }
            }
        }
    }
    for (int g = 0; g < LBM_GEOMETRY_COUNT * LBM_COLLISION_COUNT * 2; g++) {
        for (int p = 0; p < PREC_COUNT; p++) {
            for (int k = 0; k < LBM_KERNEL_COUNT; k++) {
                char why[256];
                const int geo = g % LBM_GEOMETRY_COUNT,
                          coll = g / LBM_GEOMETRY_COUNT % LBM_COLLISION_COUNT;
                struct lbm_case c =
                    base(g < LBM_GEOMETRY_COUNT * LBM_COLLISION_COUNT ? 96 : 97, 5, 5);
                long m;
                if (lbm_kernel_supported((enum lbm_kernel)k, why, sizeof why)) continue;
                c.geometry = (enum lbm_geometry)geo;
                c.collision = (enum lbm_collision)coll;
                c.prec = (enum prec)p;
                c.kernel = (enum lbm_kernel)k;
                if (geo == LBM_CHANNEL) c.force[0] = 1e-4;
                m = nan_spread_mismatch(&c);
                if (m != 0)
                    fprintf(stderr, "  nan spread %zu cells %s %s %s %s: %ld values differ\n", c.nx,
                            lbm_geometry_names[geo], lbm_collision_names[coll], prec_name(c.prec),
                            lbm_kernel_names[k], m);
                CHECK(m == 0);
            }
        }
    }
    {
        double e = poiseuille_error();
        fprintf(stderr, "poiseuille (trt, magic 3/16): relative L2 error %.3g\n", e);
        CHECK(e <= 1e-5);
    }
    for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
        double r = taylor_green_ratio((enum lbm_collision)coll);
        fprintf(stderr, "taylor-green (%s): measured / expected decay rate %.5f\n",
                lbm_collision_names[coll], r);
        CHECK(fabs(r - 1) <= 0.01);
    }
    return check_report("lbm_backend_check");
}
