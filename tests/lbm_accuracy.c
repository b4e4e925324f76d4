/* lbm_accuracy.c: what each lattice storage costs in accuracy (docs/storage16.md, "accuracy").
 * Linked with the CPU backend through lbm.h. For every entry of `storages` it measures plane
 * Poiseuille flow (TRT, relative L2 error of u_x(y) against the parabola), the Taylor-Green decay
 * rate against nu k^2 (bgk, trt, mrt) and the lid-driven cavity's vertical centre line (min u_x
 * over the lid speed, and the relative L2 distance of the profile from dp's); one CSV row each
 * on stdout, or a markdown table with --markdown. Entries run on the CPU backend (sp, dp, fp16s,
 * fp16c) or emulated (the 16-bit formats once more): lbm/reference.c's double update with every
 * stored g = f - w rounded through lbm/model/storage16.h after each update, which isolates the
 * storage's cost from the float arithmetic's.
 * --check instead tests lbm_storage16_tolerance: the emulated formats and the backend's 16-bit
 * lattices against the plain reference on every geometry x collision, the error within the
 * tolerance. --quick: small cavity. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lbm.h"
#include "storage16.h"

struct storage {
    const char *name, *how;
    enum prec prec;         /* backend entries */
    uint16_t (*enc)(float); /* emulated entries; NULL on the backend */
    float (*dec)(uint16_t);
    double u; /* unit roundoff of the stored value */
};

static const struct storage storages[] = {
    {"sp", "backend: float stored and computed", PREC_SP, NULL, NULL, 0x1p-24},
    {"dp", "backend: double stored and computed", PREC_DP, NULL, NULL, 0x1p-53},
    {"fp16s (emulated)", "emulated: binary16 stored, reference computes in double", PREC_DP,
     lbm_fp16s_encode, lbm_fp16s_decode, LBM_FP16S_U},
    {"fp16c (emulated)", "emulated: 1-4-11 stored, reference computes in double", PREC_DP,
     lbm_fp16c_encode, lbm_fp16c_decode, LBM_FP16C_U},
    {"fp16s", "backend: binary16 stored, float computed", PREC_FP16S, NULL, NULL, LBM_FP16S_U},
    {"fp16c", "backend: 1-4-11 stored, float computed", PREC_FP16C, NULL, NULL, LBM_FP16C_U},
};
enum { NSTORAGE = sizeof storages / sizeof storages[0] };

static char err[512];

/* g = f - w of every value through the 16-bit format (what a 16-bit lattice keeps) */
static void round_storage(const struct storage *st, const struct lbm_case *c, double *f)
{
    const size_t cells = c->nx * c->ny * c->nz;
    for (size_t i = 0; i < 19 * cells; i++) {
        const double w = lbm_w[i / cells];
        f[i] = w + (double)st->dec(st->enc((float)(f[i] - w)));
    }
}

/* f (the interface's [d][z][y][x] doubles) advanced by `steps` updates in storage st */
static int advance(const struct storage *st, struct lbm_case c, double *f, int steps)
{
    struct lbm_state *s = NULL;
    struct lbm_launch used;
    double secs;
    int rc = 0;
    if (st->enc) {
        round_storage(st, &c, f); /* the load */
        for (int t = 0; t < steps && !rc; t++) {
            rc = lbm_reference_step(&c, f, 1);
            round_storage(st, &c, f);
        }
        if (rc) snprintf(err, sizeof err, "reference: out of memory");
        return rc;
    }
    c.prec = st->prec;
    rc = lbm_alloc(&s, &c, &used, err, sizeof err) || lbm_load(s, f, err, sizeof err) ||
         lbm_step(s, steps, &secs, err, sizeof err) || lbm_fetch(s, f, err, sizeof err);
    lbm_free(s);
    return rc;
}

static struct lbm_case base(size_t nx, size_t ny, size_t nz, enum lbm_geometry g,
                            enum lbm_collision coll, double omega)
{
    struct lbm_case c;
    memset(&c, 0, sizeof c);
    c.nx = nx;
    c.ny = ny;
    c.nz = nz;
    c.geometry = g;
    c.collision = coll;
    c.omega = omega;
    return c;
}

/* density and velocity of one cell (index i of `cells`); the fetched populations are
 * post-collision, so a forced cell's velocity is half a force below their momentum */
static void moments(const double *f, size_t cells, size_t i, const double force[3], double *rho,
                    double u[3])
{
    double j[3] = {0, 0, 0};
    *rho = 0;
    for (int d = 0; d < 19; d++) {
        *rho += f[d * cells + i];
        j[0] += lbm_cx[d] * f[d * cells + i];
        j[1] += lbm_cy[d] * f[d * cells + i];
        j[2] += lbm_cz[d] * f[d * cells + i];
    }
    for (int a = 0; a < 3; a++)
        u[a] = (j[a] - 0.5 * force[a]) / *rho;
}

static double *at_rest(const struct lbm_case *c)
{
    const size_t cells = c->nx * c->ny * c->nz;
    double *f = malloc(19 * cells * sizeof *f);
    for (size_t i = 0; f && i < 19 * cells; i++)
        f[i] = lbm_w[i / cells];
    return f;
}

/* steady channel (lbm_backend_check.c's parameters; its force 1e-6, u_max 1.9e-4, and 1e-5):
 * relative L2 error against
 * g / (2 nu rho) (y + 1/2)(ny - 1/2 - y), walls half-way */
static double poiseuille(const struct storage *st, double force)
{
    struct lbm_case c = base(4, 16, 4, LBM_CHANNEL, LBM_TRT, 1.0);
    double *f, num = 0, den = 0;
    c.force[0] = force;
    f = at_rest(&c);
    if (!f || advance(st, c, f, 8000)) {
        free(f);
        return NAN;
    }
    for (size_t y = 0; y < c.ny; y++) {
        double rho, u[3];
        moments(f, c.nx * c.ny * c.nz, (2 * c.ny + y) * c.nx + 1, c.force, &rho, u);
        const double want =
            c.force[0] / (2 * lbm_viscosity(c.omega) * rho) * (y + 0.5) * (c.ny - 0.5 - y);
        num += (u[0] - want) * (u[0] - want);
        den += want * want;
    }
    free(f);
    return sqrt(num / den);
}

/* Taylor-Green vortex, 32 x 32 x 1: decay rate of the velocity's L2 norm between steps 50 and
 * 350 over nu (kx^2 + ky^2), minus 1 */
static double taylor_green(const struct storage *st, enum lbm_collision coll)
{
    struct lbm_case c = base(32, 32, 1, LBM_PERIODIC, coll, 1.2);
    const size_t cells = 32 * 32;
    const double k = 2 * 3.14159265358979323846 / 32, u0 = 0.01, zero[3] = {0, 0, 0};
    double *f = malloc(19 * cells * sizeof *f), amp[2];
    for (size_t y = 0; f && y < 32; y++) {
        for (size_t x = 0; x < 32; x++) {
            const double ux = -u0 * cos(k * x) * sin(k * y), uy = u0 * sin(k * x) * cos(k * y);
            const double rho = 1 - 0.75 * u0 * u0 * (cos(2 * k * x) + cos(2 * k * y));
            for (int d = 0; d < 19; d++) {
                const double cu = lbm_cx[d] * ux + lbm_cy[d] * uy;
                f[d * cells + y * 32 + x] =
                    lbm_w[d] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * (ux * ux + uy * uy));
            }
        }
    }
    for (int t = 0; t < 2; t++) {
        double e = 0;
        if (!f || advance(st, c, f, t == 0 ? 50 : 300)) {
            free(f);
            return NAN;
        }
        for (size_t i = 0; i < cells; i++) {
            double rho, u[3];
            moments(f, cells, i, zero, &rho, u);
            e += u[0] * u[0] + u[1] * u[1];
        }
        amp[t] = sqrt(e);
    }
    free(f);
    return log(amp[0] / amp[1]) / 300 / (lbm_viscosity(c.omega) * 2 * k * k) - 1;
}

/* cube cavity, n cells a side (n odd: a cell on the centre line), lid 0.05 along x, nu = 0.1,
 * Re = 0.05 n / 0.1, `steps` updates from rest (main: n^2 / nu, one viscous time); prof[z] = u_x
 * over the lid speed on x = y = n/2 */
static int cavity(const struct storage *st, size_t n, int steps, double *prof)
{
    struct lbm_case c = base(n, n, n, LBM_CAVITY, LBM_BGK, 1.25);
    const double zero[3] = {0, 0, 0};
    double *f;
    c.lid_ux = 0.05;
    f = at_rest(&c);
    if (!f || advance(st, c, f, steps)) {
        free(f);
        return 1;
    }
    for (size_t z = 0; z < n; z++) {
        double rho, u[3];
        moments(f, n * n * n, (z * n + n / 2) * n + n / 2, zero, &rho, u);
        prof[z] = u[0] / c.lid_ux;
    }
    free(f);
    return 0;
}

/* The tolerance of storage16.h against the emulated formats: every geometry x collision on
 * lbm_backend_check.c's first domain and parameters, 5 updates from init.h's state; g_max from
 * the reference's own states. */
static int check_tolerance(void)
{
    for (int s = 2; s < NSTORAGE; s++) {
        double worst = 0;
        for (int g = 0; g < LBM_GEOMETRY_COUNT; g++) {
            for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++) {
                struct lbm_case c =
                    base(13, 7, 5, (enum lbm_geometry)g, (enum lbm_collision)coll, 1.6);
                const size_t n = 19 * 13 * 7 * 5, steps = 5;
                double *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got), gmax = 0,
                       e = 0, tol;
                c.lid_ux = 0.05;
                if (g == LBM_CHANNEL) c.force[0] = 1e-4;
                if (!ref || !got) return 1;
                lbm_reference_init(&c, ref);
                memcpy(got, ref, n * sizeof *got);
                for (size_t t = 0; t <= steps; t++) {
                    if (t && lbm_reference_step(&c, ref, 1)) return 1;
                    for (size_t i = 0; i < n; i++)
                        gmax = fmax(gmax, fabs(ref[i] - lbm_w[i / (n / 19)]));
                }
                if (advance(&storages[s], c, got, (int)steps)) return 1;
                for (size_t i = 0; i < n; i++)
                    e = fmax(e, isnan(got[i]) ? INFINITY : fabs(got[i] - ref[i]));
                tol = lbm_storage16_tolerance(storages[s].u, gmax, (int)steps);
                worst = fmax(worst, e / tol);
                if (!(e <= tol))
                    fprintf(stderr, "  %s %s %s: max |f - f_ref| %.3g > tolerance %.3g\n",
                            storages[s].name, lbm_geometry_names[g], lbm_collision_names[coll], e,
                            tol);
                CHECK(e <= tol);
                free(ref);
                free(got);
            }
        }
        fprintf(stderr, "%s: largest error / tolerance %.3f\n", storages[s].name, worst);
    }
    return check_report("lbm_accuracy --check");
}

int main(int argc, char **argv)
{
    struct device_facts dev;
    int markdown = 0, quick = 0;
    size_t n;
    double *prof, *dp = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--check")) return check_tolerance();
        markdown |= !strcmp(argv[i], "--markdown");
        quick |= !strcmp(argv[i], "--quick");
        if (strcmp(argv[i], "--markdown") && strcmp(argv[i], "--quick")) {
            fprintf(stderr,
                    "lbm_accuracy: unknown argument %s (accepted: --markdown, --quick, "
                    "--check)\n",
                    argv[i]);
            return 2;
        }
    }
    if (lbm_backend_open(&dev, err, sizeof err)) {
        fprintf(stderr, "lbm_accuracy: %s\n", err);
        return 1;
    }
    n = quick ? 9 : 17;
    prof = malloc(2 * n * sizeof *prof);
    if (!prof) return 1;
    dp = prof + n;
    printf(markdown ? "| storage | how | Poiseuille L2 (trt, g 1e-6) | Poiseuille L2 (trt, g 1e-5) "
                      "| TG rate - 1 (bgk) | TG rate - 1 (trt) "
                      "| TG rate - 1 (mrt) | cavity %zu^3 min u_x/U | cavity profile vs dp |\n"
                      "|---|---|---|---|---|---|---|---|---|\n"
                    : "storage,how,poiseuille_l2_g1e-6,poiseuille_l2_g1e-5,tg_bgk,tg_trt,tg_mrt,"
                      "cavity%zu_umin,"
                      "cavity_vs_dp\n",
           n);
    /* dp first: the cavity's other profiles are compared with it */
    for (int k = 0; k < NSTORAGE; k++) {
        const struct storage *st = &storages[k == 0 ? 1 : k == 1 ? 0 : k];
        double tg[3], pe = poiseuille(st, 1e-6), pe5 = poiseuille(st, 1e-5), umin = INFINITY,
                      num = 0, den = 0;
        for (int coll = 0; coll < LBM_COLLISION_COUNT; coll++)
            tg[coll] = taylor_green(st, (enum lbm_collision)coll);
        if (cavity(st, n, (int)(n * n / lbm_viscosity(1.25)), st == &storages[1] ? dp : prof))
            return 1;
        for (size_t z = 0; z < n; z++) {
            const double p = st == &storages[1] ? dp[z] : prof[z];
            umin = fmin(umin, p);
            num += (p - dp[z]) * (p - dp[z]);
            den += dp[z] * dp[z];
        }
        printf(markdown ? "| %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.6f | %.3g |\n"
                        : "%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.8f,%.6g\n",
               st->name, st->how, pe, pe5, tg[0], tg[1], tg[2], umin, sqrt(num / den));
        fflush(stdout);
    }
    free(prof);
    return 0;
}
