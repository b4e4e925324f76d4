/* lbm_main.c: the LBM driver shared by lbm-cpu and lbm-gpu: parse, check every case fits, then
 * sweep precision x collision x kernel x geometry x domain x padding x alignment x block size:
 * initialise, warm up, time, verify (mass conserved, nothing non-finite), write one row each. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "progress.h"
#include "lbm.h"
#include "lbm_opts.h"
#include "stats.h"
#include "sysinfo.h"

extern const char lbm_backend_name[]; /* "cpu" or "gpu", from the backend */

#define TARGET_REP_SECONDS 0.1 /* automatic --steps: about this long per repetition */

struct run_ctx {
    const struct lbm_opts *o;
    struct suite_device dev;
    struct sysinfo_host host;
    FILE *out;
    double *times;
    int failures, ncases, icase;
    struct progress prog;
    char why[256]; /* a case the backend cannot run */
};

static const char *prog = "lbm";

/* Relative mass drift allowed over a run (issue: 1e-5 sp, 1e-12 dp). */
static double mass_tolerance(enum prec p)
{
    return p == PREC_SP ? 1e-5 : 1e-12;
}

static void fill_row(struct csv_record *r, const struct run_ctx *x, const struct lbm_case *c,
                     const struct lbm_launch *u, const struct stats *st, int steps, double drift,
                     int pass)
{
    double prog_b, dram_b, cells = (double)(c->nx * c->ny * c->nz);
    lbm_traffic(prec_size(c->prec), lbm_write_allocates(c->kernel), &prog_b, &dram_b);
    device_row_init(r, &x->dev, x->host.host, "lbm", x->o->peak_bw_GBs);
    csv_set(r->kernel, lbm_kernel_names[c->kernel]);
    csv_set(r->collision, lbm_collision_names[c->collision]);
    csv_set(r->geometry, lbm_geometry_names[c->geometry]);
    csv_set(r->precision, prec_name(c->prec));
    r->nx = (int64_t)c->nx;
    r->ny = (int64_t)c->ny;
    r->nz = (int64_t)c->nz;
    r->pad = (int64_t)c->pad;
    r->align = (int64_t)c->align;
    r->pitch = (int64_t)u->pitch;
    r->cells = r->fluid_cells = (int64_t)cells; /* walls lie between cells: every cell is fluid */
    r->threads = u->threads;
    r->blocks = u->blocks;
    r->occupancy = u->occupancy;
    r->steps = steps;
    r->reps = x->o->reps;
    r->t_min_s = st->min / steps;
    r->t_med_s = st->med / steps;
    r->t_max_s = st->max / steps;
    r->prog_bytes = prog_b;
    r->dram_bytes = dram_b;
    r->write_allocate = lbm_write_allocates(c->kernel);
    r->bw_prog_GBs = prog_b * cells / r->t_min_s * 1e-9;
    r->bw_prog_med_GBs = prog_b * cells / r->t_med_s * 1e-9;
    r->bw_dram_GBs = dram_b * cells / r->t_min_s * 1e-9;
    r->bw_dram_med_GBs = dram_b * cells / r->t_med_s * 1e-9;
    r->mflups = cells / r->t_min_s * 1e-6;
    r->mflups_med = cells / r->t_med_s * 1e-6;
    r->max_rel_err = drift;
    csv_set(r->verified, pass ? "pass" : "fail");
}

static int run_case(struct run_ctx *x, const struct lbm_case *c)
{
    struct lbm_state *s = NULL;
    struct lbm_launch used;
    struct stats st;
    struct csv_record row;
    double m0, m1, secs, drift;
    size_t bad0, bad1;
    int steps = x->o->steps, pass;
    char err[512];

    char what[160];
    x->icase++;
    snprintf(what, sizeof what, "%zux%zux%zu %s %s %s %s pad %zu align %zu", c->nx, c->ny, c->nz,
             lbm_kernel_names[c->kernel], lbm_collision_names[c->collision],
             lbm_geometry_names[c->geometry], prec_name(c->prec), c->pad, c->align);
    progress_case(&x->prog, x->icase, what);
    if (lbm_alloc(&s, c, &used, err, sizeof err) || lbm_init(s, err, sizeof err) ||
        lbm_check(s, &m0, &bad0, err, sizeof err))
        goto fail;
    if (x->o->warmup > 0 && lbm_step(s, x->o->warmup, &secs, err, sizeof err))
        goto fail;
    if (steps == 0) {
        /* as many updates as fill about TARGET_REP_SECONDS, judged from a timed probe */
        if (lbm_step(s, 2, &secs, err, sizeof err))
            goto fail;
        steps = (int)ceil(TARGET_REP_SECONDS / (secs / 2));
        steps = steps < 2 ? 2 : (steps > 100000 ? 100000 : steps);
    }
    for (int r = 0; r < x->o->reps; r++) {
        if (lbm_step(s, steps, &x->times[r], err, sizeof err))
            goto fail;
    }
    if (lbm_check(s, &m1, &bad1, err, sizeof err))
        goto fail;
    lbm_free(s);
    s = NULL;
    stats_compute(x->times, (size_t)x->o->reps, &st);
    drift = fabs(m1 - m0) / m0;
    pass = bad0 == 0 && bad1 == 0 && drift <= mass_tolerance(c->prec);
    fill_row(&row, x, c, &used, &st, steps, drift, pass);
    if (!pass) {
        fprintf(stderr, "%s: VERIFICATION FAILED: %zux%zux%zu %s %s %s: %zu non-finite values, "
                        "mass drift %.3g (allowed %.0e)\n", prog, c->nx, c->ny, c->nz,
                lbm_kernel_names[c->kernel], lbm_collision_names[c->collision], prec_name(c->prec),
                bad1, drift, mass_tolerance(c->prec));
        x->failures++;
    }
    if (csv_write_row(x->out, &row)) {
        snprintf(err, sizeof err, "cannot write the CSV row: %s", strerror(errno));
        goto fail;
    }
    return 0;
fail:
    lbm_free(s);
    fprintf(stderr, "%s: error: %zux%zux%zu %s %s: %s\n", prog, c->nx, c->ny, c->nz,
            lbm_kernel_names[c->kernel], prec_name(c->prec), err);
    return 1;
}

/* Visits every case; with run == 0 only counts them and tracks the largest allocation. */
static int sweep(struct run_ctx *x, int run, size_t *largest)
{
    const struct lbm_opts *o = x->o;
    size_t nb = o->block.n ? o->block.n : 1;
    int n = 0;
    for (int pi = 0; pi < o->nprecs; pi++)
        for (int ci = 0; ci < o->ncolls; ci++)
            for (int ki = 0; ki < o->nkernels; ki++)
                for (int gi = 0; gi < o->ngeoms; gi++)
                    for (int di = 0; di < o->ndims; di++)
                        for (size_t pa = 0; pa < o->pads.n; pa++)
                            for (size_t al = 0; al < o->aligns.n; al++)
                                for (size_t bi = 0; bi < nb; bi++) {
                                    struct lbm_case c;
                                    memset(&c, 0, sizeof c);
                                    c.nx = o->dims[di][0];
                                    c.ny = o->dims[di][1];
                                    c.nz = o->dims[di][2];
                                    c.pad = o->pads.v[pa];
                                    c.align = o->aligns.v[al];
                                    c.prec = (enum prec)o->precs[pi];
                                    c.collision = (enum lbm_collision)o->colls[ci];
                                    c.kernel = (enum lbm_kernel)o->kernels[ki];
                                    c.geometry = (enum lbm_geometry)o->geoms[gi];
                                    c.omega = o->omega;
                                    c.lid_ux = o->lid_ux;
                                    if (c.geometry == LBM_CHANNEL)
                                        c.force[0] = o->force;
                                    c.threads = o->block.n ? (int)o->block.v[bi] : 0;
                                    n++;
                                    if (!run) {
                                        size_t b = lbm_bytes_needed(&c);
                                        if (lbm_case_supported(&c, x->why, sizeof x->why))
                                            return -3;
                                        *largest = b > *largest ? b : *largest;
                                    } else if (interrupt_requested()) {
                                        return -2;
                                    } else if (run_case(x, &c)) {
                                        return -1;
                                    }
                                }
    return n;
}

static int supported(int k, char *why, size_t whylen)
{
    return lbm_kernel_supported((enum lbm_kernel)k, why, whylen);
}

int main(int argc, char **argv)
{
    struct lbm_opts *o = calloc(1, sizeof *o);
    struct run_ctx *x = calloc(1, sizeof *x);
    char err[512];
    size_t largest = 0, avail;
    int rc;

    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (!o || !x) {
        rc = cli_error(prog, 1, "out of memory");
        goto done;
    }
    x->out = stdout;
    rc = lbm_opts_parse(argc, argv, lbm_backend_name, o, err, sizeof err);
    if (rc == -1) {
        rc = 0; /* help or version printed */
        goto done;
    }
    if (rc) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    if (lbm_backend_open(&x->dev, err, sizeof err) ||
        cli_select_supported(o->kernels, &o->nkernels, LBM_KERNEL_COUNT, lbm_kernel_names,
                             "--kernel", supported, err, sizeof err)) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    if (o->ndims == 0) {
        size_t edge = strcmp(lbm_backend_name, "gpu") == 0 ? 256 : 128;
        o->dims[0][0] = o->dims[0][1] = o->dims[0][2] = edge;
        o->ndims = 1;
        fprintf(stderr, "%s: default domain %zu^3 (--size or --dims to choose)\n", prog, edge);
    }
    sysinfo_host_get(&x->host);
    x->o = o;
    x->ncases = sweep(x, 0, &largest);
    if (x->ncases < 0) {
        rc = cli_error(prog, 2, "%s", x->why);
        goto done;
    }
    avail = lbm_memory_available();
    if (avail > 0 && (double)largest > 0.9 * (double)avail) {
        rc = cli_error(prog, 2, "the largest case needs %.2f GiB but only %.2f GiB are available: "
                                "choose smaller domains",
                       largest / 1073741824.0, avail / 1073741824.0);
        goto done;
    }
    x->times = malloc((size_t)o->reps * sizeof *x->times);
    if (!x->times) {
        rc = cli_error(prog, 1, "out of memory");
        goto done;
    }
    if (o->out) {
        x->out = fopen(o->out, "w");
        if (!x->out) {
            x->out = stdout;
            rc = cli_error(prog, 2, "-o %s: %s", o->out, strerror(errno));
            goto done;
        }
    }
    if (csv_write_header(x->out)) {
        rc = cli_error(prog, 1, "cannot write the CSV header: %s", strerror(errno));
        goto done;
    }
    progress_start(&x->prog, prog, x->ncases);
    interrupt_install();
    rc = sweep(x, 1, &largest);
    if (rc == -2) {
        fprintf(stderr, "%s: interrupted: stopped after %d of %d cases; the rows written are "
                        "complete\n", prog, x->icase, x->ncases);
        rc = 130;
    } else {
        rc = rc < 0 ? 1 : 0;
    }
    if (x->failures) {
        fprintf(stderr, "%s: %d case(s) failed verification (verified=fail in their rows)\n",
                prog, x->failures);
        rc = 1;
    }
done:
    if (x && x->out && x->out != stdout && fclose(x->out) != 0) {
        fprintf(stderr, "%s: error: closing %s: %s\n", prog, o->out, strerror(errno));
        rc = rc ? rc : 1;
    }
    if (x)
        free(x->times);
    free(x);
    free(o);
    return rc;
}
