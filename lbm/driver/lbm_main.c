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
#include "dist.h"
#include "output.h"
#include "energy.h"
#include "progress.h"
#include "lbm.h"
#include "lbm_opts.h"
#include "stats.h"
#include "sysinfo.h"

extern const char lbm_backend_name[]; /* "cpu" or "gpu", from the backend */

#define TARGET_REP_SECONDS 0.1 /* automatic --steps: about this long per repetition */

struct run_ctx {
    const struct lbm_opts *o;
    struct device_facts dev;
    struct sysinfo_host host;
    struct output out; /* rank 0's */
    double *times;
    int ntimes; /* room in times */
    struct energy_session energy;
    int failures, ncases, icase, rows;
    int write_failed; /* the output cannot be written: exit OUTPUT_EXIT */
    struct progress prog;
    char why[256];                          /* a case the backend cannot run */
    int decomp[LBM_DECOMP_MAX][3], ndecomp; /* rank grids, each case runs on every one */
    int grid_runs;      /* rows per case: grids x overlap x halo settings (1 for one rank) */
    double base_mflups; /* the current case's 1-rank median, for the parallel efficiency */
};

/* what a distributed case adds to its row */
struct dist_facts {
    const int *procs;
    struct lbm_case local; /* rank 0's */
    double comm_s;         /* per update: time the exchange added (median minus compute-only) */
    uint64_t hash;
    int overlap;
    char halo[24]; /* the paths the halos took (dist_halo_used) */
};

static const char *prog = "lbm";
static const char *const halo_label[DIST_HALO_COUNT] = {"", " halo device", " halo node",
                                                        " halo host"};

/* Relative mass drift allowed over a run (1e-5 sp, 1e-12 dp). */
static double mass_tolerance(enum prec p)
{
    return p == PREC_SP ? 1e-5 : 1e-12;
}

static void fill_row(struct csv_record *r, const struct run_ctx *x, const struct lbm_case *c,
                     const struct lbm_launch *u, const struct stats *st, int steps, int reps,
                     double drift, int pass, const struct dist_facts *df,
                     const struct energy_reading *e, double idle_W)
{
    const int ranks = df->procs[0] * df->procs[1] * df->procs[2];
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
    if (u->binding[0]) /* this case's own thread count and placement */
        csv_set(r->binding, u->binding);
    r->blocks = u->blocks;
    r->occupancy = u->occupancy;
    r->steps = steps;
    r->reps = reps;
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
    r->ranks = ranks;
    snprintf(r->procs, sizeof r->procs, "%dx%dx%d", df->procs[0], df->procs[1], df->procs[2]);
    r->local_nx = (int64_t)df->local.nx;
    r->local_ny = (int64_t)df->local.ny;
    r->local_nz = (int64_t)df->local.nz;
    r->comm_s = df->comm_s;
    r->efficiency = x->base_mflups > 0 ? r->mflups_med / (ranks * x->base_mflups) : NAN;
    snprintf(r->state_hash, sizeof r->state_hash, "%016llx", (unsigned long long)df->hash);
    if (ranks > 1) {
        csv_set(r->overlap, df->overlap ? "on" : "off");
        csv_set(r->halo, df->halo);
    }
    { /* the physics as the kernels see it: no lid but the cavity's, no force but the channel's */
        struct lbm_bounds b;
        lbm_geometry_bounds(c->geometry, c->lid_ux, &b);
        r->omega = c->omega;
        r->viscosity = lbm_viscosity(c->omega);
        r->lid_ux = b.lid_ux;
        r->force_x = c->force[0];
        if (c->collision == LBM_TRT) r->trt_magic = LBM_TRT_MAGIC;
    }
    /* the energy window held every timed update of every rank: cells x steps x reps */
    energy_fill_row(r, e, idle_W, cells * steps * reps, dram_b * cells * steps * reps);
}

/* Timed repetitions that fill the energy window, from one repetition's estimated seconds (0: no
 * estimate), at least at_least; the user's count when nothing is measured. The same on every rank
 * of the run. */
static int window_reps(struct run_ctx *x, struct dist_run *run, double rep_s, int at_least,
                       char *err, size_t errlen)
{
    int reps = x->o->reps > at_least ? x->o->reps : at_least;
    if (x->energy.m) reps = energy_reps_for_window(reps, rep_s, 100000);
    reps = dist_run_max(run, reps);
    if (stats_reserve(&x->times, &x->ntimes, reps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return reps;
}

/* Over several ranks the row's window is the run's: energies, powers and limits add, the clocks
 * average, an event seen on any rank counts. A rank with nothing measured makes it empty. */
static void energy_over_ranks(struct dist_run *run, int ranks, struct energy_reading *e,
                              int measured, double *idle_W)
{
    double v[7 + ENERGY_EVENT_COUNT];
    if (ranks <= 1) return;
    v[0] = measured ? e->energy_J : NAN;
    v[1] = measured ? e->polled_J : NAN;
    v[2] = measured ? e->sm_clock_MHz : NAN;
    v[3] = measured ? e->mem_clock_MHz : NAN;
    v[4] = measured ? e->power_limit_W : NAN;
    v[5] = *idle_W;
    v[6] = measured ? e->samples : 0;
    for (int i = 0; i < ENERGY_EVENT_COUNT; i++)
        v[7 + i] = measured ? (double)(e->events >> i & 1) : 0;
    dist_run_sum(run, v, 7 + ENERGY_EVENT_COUNT);
    if (!measured) return;
    e->energy_J = v[0];
    e->polled_J = v[1];
    e->sm_clock_MHz = v[2] / ranks;
    e->mem_clock_MHz = v[3] / ranks;
    e->power_limit_W = v[4];
    *idle_W = v[5];
    e->samples = (int)v[6];
    e->events = 0;
    for (int i = 0; i < ENERGY_EVENT_COUNT; i++)
        e->events |= (uint64_t)(v[7 + i] > 0) << i;
}

/* Time `reps` repetitions of `steps` updates into x->times (exchange = 0: timing only). An
 * interrupt on any of the run's ranks stops all of them between two repetitions. */
static int time_reps(struct run_ctx *x, struct dist_run *run, struct lbm_state *s, int steps,
                     int reps, enum dist_exchange exchange, int overlap, char *err, size_t errlen)
{
    for (int r = 0; r < reps; r++) {
        if (dist_any(run, interrupt_requested())) {
            snprintf(err, errlen, "interrupted");
            return 1;
        }
        if (dist_step(run, s, steps, exchange, overlap, &x->times[r], err, errlen)) return 1;
    }
    return 0;
}

/* The lattice back to its initial state and through the same warm-up: updates run after this
 * start from where the timed ones of a row start. */
static int restart(struct dist_run *run, struct lbm_state *s, int warmup, int overlap, char *err,
                   size_t errlen)
{
    double secs;
    return lbm_init(s, err, errlen) || dist_prime(run, s, err, errlen) ||
           (warmup > 0 && dist_step(run, s, warmup, DIST_EXCHANGE, overlap, &secs, err, errlen));
}

static double median_of(double *t, int n)
{
    struct stats st;
    stats_compute(t, (size_t)n, &st);
    return st.med;
}

/* One case on one rank grid: only the run's ranks take part; rank 0 writes the row. */
static int run_case(struct run_ctx *x, const struct lbm_case *whole, const int procs[3],
                    int overlap, int halo)
{
    struct lbm_state *s = NULL;
    struct dist_run *run = NULL;
    struct lbm_launch used = {0};
    struct stats st;
    struct csv_record row;
    struct dist_facts df;
    struct energy_reading energy;
    double m0, m1, secs, drift, t_compute = 0, rep_s = 0, idle_W = x->energy.idle_W;
    size_t bad0, bad1;
    uint64_t h0;
    /* aa's lattice reads back between pairs of updates: even counts throughout */
    const int pairs = whole->kernel == LBM_AA;
    const int warmup = x->o->warmup + (pairs && x->o->warmup % 2);
    int steps = x->o->steps + (pairs && x->o->steps % 2), pass, failed, reps, measured;
    const int ranks = procs[0] * procs[1] * procs[2];
    char err[512] = "", what[200];

    x->icase++;
    snprintf(what, sizeof what, "%zux%zux%zu%s %s %s %s %s pad %zu align %zu ranks %dx%dx%d%s%s",
             whole->nx, whole->ny, whole->nz, x->o->weak ? " per rank" : "",
             lbm_kernel_names[whole->kernel], lbm_collision_names[whole->collision],
             lbm_geometry_names[whole->geometry], prec_name(whole->prec), whole->pad, whole->align,
             procs[0], procs[1], procs[2], ranks > 1 ? (overlap ? " overlap" : " no-overlap") : "",
             ranks > 1 ? halo_label[halo] : "");
    if (dist_rank() == 0) progress_case(&x->prog, x->icase, what);
    memset(&df, 0, sizeof df);
    df.procs = procs;
    df.overlap = overlap;
    if (dist_case_begin(whole, procs, x->o->weak, &run, &df.local, err, sizeof err)) {
        dist_case_end(NULL);
        goto fail_all;
    }
    if (!run) { /* not one of this grid's ranks */
        dist_case_end(NULL);
        return 0;
    }
    failed = lbm_alloc(&s, &df.local, &used, err, sizeof err) ||
             dist_attach(run, s, halo, err, sizeof err) || lbm_init(s, err, sizeof err);
    snprintf(df.halo, sizeof df.halo, "%s", dist_halo_used(run));
    if (dist_any(run, failed) || dist_prime(run, s, err, sizeof err)) goto fail;
    if (warmup > 0 && dist_step(run, s, warmup, DIST_EXCHANGE, overlap, &secs, err, sizeof err))
        goto fail;
    if (warmup > 0) rep_s = secs / warmup; /* per update, for now */
    if (steps == 0) {
        /* as many updates as fill about TARGET_REP_SECONDS, judged from a timed probe */
        if (dist_step(run, s, 2, DIST_EXCHANGE, overlap, &secs, err, sizeof err)) goto fail;
        steps = (int)ceil(TARGET_REP_SECONDS / (secs / 2));
        steps = steps < 2 ? 2 : (steps > 100000 ? 100000 : steps);
        steps += pairs && steps % 2;
        rep_s = secs / 2;
    }
    rep_s *= steps; /* 0 without warm-up or probe: the user's --reps stand */
    reps = window_reps(x, run, rep_s, 0, err, sizeof err);
    if (reps < 0) goto fail;
    if (dist_neighbours(run) > 0 || ranks > 1) {
        /* the same updates without the exchange (their results are discarded): what the
         * halos add is the difference of the medians */
        int reps = x->o->reps < 3 ? x->o->reps : 3;
        if (time_reps(x, run, s, steps, reps, DIST_NO_EXCHANGE, overlap, err, sizeof err))
            goto fail;
        t_compute = median_of(x->times, reps);
        if (restart(run, s, warmup, overlap, err, sizeof err)) goto fail;
    }
    if (lbm_check(s, &m0, &bad0, &h0, err, sizeof err)) goto fail;
    dist_sum(run, &m0, &bad0, &h0);
    for (int tries = 1;; tries++) { /* until the window is long enough: probe estimates err */
        int more;
        measured = energy_session_begin(&x->energy) == 0;
        failed = time_reps(x, run, s, steps, reps, DIST_EXCHANGE, overlap, err, sizeof err);
        if (measured) /* a window that measured nothing still has its clocks */
            energy_session_end(&x->energy, &energy);
        if (failed) goto fail;
        more = measured ? energy_retry_reps(&energy, reps, tries, 100000) : 0;
        more = dist_run_max(run, more); /* every rank runs the same sets */
        if (!more) break;
        reps = window_reps(x, run, 0, more, err, sizeof err);
        /* the row's state is that of warmup + reps x steps updates from the start, whatever
         * the meter needed: the lattice starts again */
        if (reps < 0 || restart(run, s, warmup, overlap, err, sizeof err)) goto fail;
    }
    if (measured) energy_session_report(&x->energy, &energy);
    energy_over_ranks(run, ranks, &energy, measured, &idle_W);
    if (lbm_check(s, &m1, &bad1, &df.hash, err, sizeof err)) goto fail;
    dist_sum(run, &m1, &bad1, &df.hash);
    lbm_free(s);
    s = NULL;
    dist_case_end(run);
    run = NULL;
    stats_compute(x->times, (size_t)reps, &st);
    df.comm_s = ranks > 1 ? (st.med - t_compute > 0 ? st.med - t_compute : 0) / steps : 0;
    /* a lattice holding non-finite values has no relative error worth writing: nan */
    drift = bad0 || bad1 ? NAN : fabs(m1 - m0) / m0;
    pass = bad0 == 0 && bad1 == 0 && drift <= mass_tolerance(whole->prec);
    if (dist_rank() != 0) return 0;
    {
        struct lbm_case global = *whole;
        size_t g[3];
        lbm_global_dims(&df.local, g);
        global.nx = g[0];
        global.ny = g[1];
        global.nz = g[2];
        if (ranks == 1) /* the reference for this case's efficiencies */
            x->base_mflups = (double)(g[0] * g[1] * g[2]) / (st.med / steps) * 1e-6;
        fill_row(&row, x, &global, &used, &st, steps, reps, drift, pass, &df,
                 measured ? &energy : NULL, idle_W);
    }
    if (!pass) {
        fprintf(stderr,
                "%s: VERIFICATION FAILED: %s: %zu non-finite values, mass drift %.3g "
                "(allowed %.0e)\n",
                prog, what, bad1, drift, mass_tolerance(whole->prec));
        x->failures++;
    }
    if (output_commit(&x->out, csv_write_row(output_stream(&x->out), &row), err, sizeof err)) {
        x->write_failed = 1;
        cli_error(prog, OUTPUT_EXIT, "%s", err);
        return 1;
    }
    x->rows++;
    return 0;
fail:
    lbm_free(s);
    dist_case_end(run);
fail_all:
    if (interrupt_requested()) return 1; /* the unfinished case is dropped; main says so */
    if (err[0] && (dist_rank() == 0 || dist_size() > 1))
        fprintf(stderr, "%s: error%s: %s: %s\n", prog, dist_size() > 1 ? " (a rank)" : "", what,
                err);
    return 1;
}

/* Every rank grid for one case; the 1-rank row first gives the others their efficiency. */
static int run_grids(struct run_ctx *x, const struct lbm_case *c)
{
    int rc = 0;
    x->base_mflups = 0;
    for (int k = 0; k < x->ndecomp && !rc; k++) {
        const int *p = x->decomp[k];
        for (int v = 0; v < x->o->noverlaps * x->o->nhalos && !rc; v++) {
            if (p[0] * p[1] * p[2] == 1 && v > 0)
                break; /* one rank exchanges nothing: overlap and path make no difference */
            rc = run_case(x, c, p, x->o->overlaps[v / x->o->nhalos], x->o->halos[v % x->o->nhalos]);
            rc = dist_max_int(rc);
        }
    }
    return rc;
}

/* The most memory one rank allocates for case c on any of the grids. */
static size_t local_bytes(const struct run_ctx *x, const struct lbm_case *c)
{
    size_t most = 0;
    for (int k = 0; k < x->ndecomp; k++) {
        struct lbm_case l = *c;
        const int *p = x->decomp[k];
        size_t *n[3] = {&l.nx, &l.ny, &l.nz};
        for (int a = 0; a < 3; a++) {
            if (!x->o->weak) *n[a] = (*n[a] + (size_t)p[a] - 1) / (size_t)p[a];
            l.place.neighbor[a][0] = l.place.neighbor[a][1] = p[a] > 1;
        }
        most = lbm_bytes_needed(&l) > most ? lbm_bytes_needed(&l) : most;
    }
    return most;
}

/* 0 if every grid splits case c with a cell per rank and axis; else why not, in x->why. */
static int grids_fit(struct run_ctx *x, const struct lbm_case *c)
{
    for (int k = 0; k < x->ndecomp; k++) {
        const int *p = x->decomp[k];
        if (lbm_single_rank(c->kernel) && p[0] * p[1] * p[2] > 1) {
            snprintf(x->why, sizeof x->why,
                     "--kernel %s runs on one rank (--procs %dx%dx%d): "
                     "split domains run pull",
                     lbm_kernel_names[c->kernel], p[0], p[1], p[2]);
            return 1;
        }
        if (x->o->weak) continue;
        if (c->nx < (size_t)p[0] || c->ny < (size_t)p[1] || c->nz < (size_t)p[2]) {
            snprintf(x->why, sizeof x->why,
                     "%zux%zux%zu cannot be split %dx%dx%d: every rank "
                     "needs a cell per axis",
                     c->nx, c->ny, c->nz, p[0], p[1], p[2]);
            return 1;
        }
    }
    return 0;
}

/* The rank grids: --procs, or --ranks (default: every rank) through MPI_Dims_create. */
static int make_grids(struct run_ctx *x, char *err, size_t errlen)
{
    const struct lbm_opts *o = x->o;
    x->ndecomp = 0;
    x->grid_runs = 0;
    if (o->nprocs) {
        memcpy(x->decomp, o->procs, sizeof o->procs);
        x->ndecomp = o->nprocs;
    } else {
        size_t n = o->ranks.n ? o->ranks.n : 1;
        if (n > LBM_DECOMP_MAX) {
            snprintf(err, errlen, "--ranks: at most %d counts", LBM_DECOMP_MAX);
            return 1;
        }
        for (size_t k = 0; k < n; k++) {
            int r = o->ranks.n ? (int)o->ranks.v[k] : dist_size();
            if (r > dist_size()) {
                snprintf(err, errlen, "--ranks %d: the job has %d rank(s) (mpirun -np N)", r,
                         dist_size());
                return 1;
            }
            if (dist_dims_create(r, x->decomp[x->ndecomp++])) {
                snprintf(err, errlen, "--ranks %d: cannot split %d ranks here", r, r);
                return 1;
            }
        }
    }
    for (int k = 0; k < x->ndecomp; k++) {
        const int *p = x->decomp[k], r = p[0] * p[1] * p[2];
        if (r > dist_size()) {
            snprintf(err, errlen,
                     "--procs %dx%dx%d needs %d ranks; the job has %d (mpirun -np N%s)", p[0], p[1],
                     p[2], r, dist_size(), dist_have_mpi() ? "" : "; this build has no MPI");
            return 1;
        }
        x->grid_runs += r == 1 ? 1 : o->noverlaps * o->nhalos;
    }
    for (int k = 0; k < o->nhalos; k++)
        if (dist_halo_check(o->halos[k], err, errlen)) return 1;
    return 0;
}

/* Visits every case: SWEEP_COUNT only counts them and tracks the largest allocation, SWEEP_RUN
 * runs them. */
enum sweep_mode { SWEEP_COUNT, SWEEP_RUN };
static int sweep(struct run_ctx *x, enum sweep_mode mode, size_t *largest)
{
    const struct lbm_opts *o = x->o;
    /* gpu threads per block or cpu OpenMP threads (the parser allows each on its backend only) */
    const struct cli_list *tl = o->block.n ? &o->block : &o->threads;
    size_t nb = tl->n ? tl->n : 1;
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
                                    if (c.geometry == LBM_CHANNEL) c.force[0] = o->force;
                                    c.threads = tl->n ? (int)tl->v[bi] : 0;
                                    n += x->grid_runs;
                                    if (mode == SWEEP_COUNT) {
                                        size_t b = local_bytes(x, &c);
                                        if (lbm_case_supported(&c, x->why, sizeof x->why) ||
                                            grids_fit(x, &c))
                                            return -3;
                                        *largest = b > *largest ? b : *largest;
                                    } else if (dist_max_int(interrupt_requested())) {
                                        return -2;
                                    } else if (run_grids(x, &c)) {
                                        return dist_max_int(interrupt_requested() &&
                                                            !x->write_failed)
                                                   ? -2
                                                   : -1;
                                    }
                                }
    return n;
}

/* The domain when none is given: on the cpu out of cache by STREAM's rule (one lattice in the
 * smallest precision run at least SYSINFO_CACHE_FACTOR x the last-level cache, the rule
 * stream-cpu sizes its arrays by); on the gpu 256^3 (1.2 GiB of sp lattices against an L2 of
 * tens of MiB), or more should the L2 ever call for it by the same rule. */
static void default_domain(struct run_ctx *x, struct lbm_opts *o, char *why, size_t whylen)
{
    const int gpu = strcmp(lbm_backend_name, "gpu") == 0;
    size_t es = 8, bytes, edge;
    char rule[200];
    for (int i = 0; i < o->nprecs; i++)
        es = prec_size((enum prec)o->precs[i]) < es ? prec_size((enum prec)o->precs[i]) : es;
    if (gpu) {
        bytes = SYSINFO_CACHE_FACTOR * x->dev.cache_bytes;
        snprintf(rule, sizeof rule,
                 "%d x the GPU's L2 (%.1f MiB) = %.1f MiB, and an edge of at "
                 "least 256",
                 SYSINFO_CACHE_FACTOR, x->dev.cache_bytes / 1048576.0, bytes / 1048576.0);
    } else {
        bytes = sysinfo_out_of_cache_bytes(&x->host, rule, sizeof rule);
    }
    edge = lbm_default_edge(bytes, es, gpu ? 256 : 16);
    snprintf(why, whylen, "one %s lattice (%.1f MiB) is at least %s", es == 4 ? "sp" : "dp",
             (double)edge * edge * edge * 19 * es / 1048576.0, rule);
    o->dims[0][0] = o->dims[0][1] = o->dims[0][2] = edge;
    o->ndims = 1;
}

static int supported(int k, char *why, size_t whylen)
{
    return lbm_kernel_supported((enum lbm_kernel)k, why, whylen);
}

/* Errors are said once, by rank 0; every rank returns the code. */
#define FAIL(code, ...) (dist_rank() == 0 ? cli_error(prog, code, __VA_ARGS__) : (code))

int main(int argc, char **argv)
{
    struct lbm_opts *o = calloc(1, sizeof *o);
    struct run_ctx *x = calloc(1, sizeof *x);
    char err[512];
    size_t largest = 0, avail;
    int rc, default_kernels, default_dims;
    char default_why[320];

    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (!o || !x) return cli_error(prog, 1, "out of memory");
    x->out.fd = -1;
    if (dist_init(&argc, &argv, err, sizeof err)) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    interrupt_install(prog);
    rc = lbm_opts_parse(argc, argv, lbm_backend_name, o, err, sizeof err);
    if (rc == -1) {
        rc = 0; /* help or version printed */
        goto done;
    }
    if (rc) {
        rc = FAIL(2, "%s", err);
        goto done;
    }
    x->o = o;
    default_kernels = o->nkernels == 0;
    if (lbm_backend_select(dist_local_rank(), err, sizeof err) ||
        lbm_backend_open(&x->dev, err, sizeof err) ||
        cli_select_supported(o->kernels, &o->nkernels, LBM_KERNEL_COUNT, lbm_kernel_names,
                             "--kernel", supported, err, sizeof err) ||
        make_grids(x, err, sizeof err)) {
        rc = FAIL(2, "%s", err);
        goto done;
    }
    if (default_kernels) { /* not the pull_aos study; split domains: not the single-rank aa */
        int split = 0, n = 0;
        for (int k = 0; k < x->ndecomp; k++)
            split |= x->decomp[k][0] * x->decomp[k][1] * x->decomp[k][2] > 1;
        for (int k = 0; k < o->nkernels; k++)
            if (o->kernels[k] != LBM_PULL_AOS &&
                (!split || !lbm_single_rank((enum lbm_kernel)o->kernels[k])))
                o->kernels[n++] = o->kernels[k];
        o->nkernels = n;
    }
    sysinfo_host_get(&x->host);
    default_dims = o->ndims == 0;
    if (default_dims) default_domain(x, o, default_why, sizeof default_why);
    x->ncases = sweep(x, SWEEP_COUNT, &largest);
    if (x->ncases < 0) {
        rc = FAIL(2, "%s", x->why);
        goto done;
    }
    if (default_dims && dist_rank() == 0)
        fprintf(stderr, "%s: default domain %zu^3: %s (--size, --dims or --local to choose)\n",
                prog, o->dims[0][0], default_why);
    avail = lbm_memory_available();
    if (default_dims && avail > 0 && (double)largest > 0.9 * (double)avail) {
        rc = FAIL(2,
                  "the default domain %zu^3 needs %.2f GiB%s but only %.2f GiB are available: "
                  "choose a smaller one with --size",
                  o->dims[0][0], largest / 1073741824.0, dist_size() > 1 ? " per rank" : "",
                  avail / 1073741824.0);
        goto done;
    }
    if (avail > 0 && (double)largest > 0.9 * (double)avail) {
        rc = FAIL(2,
                  "the largest case needs %.2f GiB%s but only %.2f GiB are available: choose "
                  "smaller domains",
                  largest / 1073741824.0, dist_size() > 1 ? " per rank" : "", avail / 1073741824.0);
        goto done;
    }
    x->ntimes = o->reps;
    x->times = malloc((size_t)o->reps * sizeof *x->times);
    if (!x->times) {
        rc = cli_error(prog, 1, "out of memory");
        goto done;
    }
    if (dist_rank() == 0) { /* rank 0 alone writes the CSV */
        rc = output_open(&x->out, o->out, o->out_mode, csv_write_header, err, sizeof err);
        if (rc) rc = cli_error(prog, rc, "%s", err);
        progress_start(&x->prog, prog, x->ncases);
    }
    rc = dist_max_int(rc);
    if (rc) goto done;
    /* a cpu run over several ranks: the ranks of a node share the packages powercap reads */
    energy_session_open(&x->energy, dist_rank() == 0 ? prog : NULL,
                        strcmp(lbm_backend_name, "cpu") != 0 || dist_size() == 1,
                        "the ranks of a cpu run share the packages that powercap reads");
    rc = sweep(x, SWEEP_RUN, &largest);
    if (rc == -2) {
        if (dist_rank() == 0)
            fprintf(stderr,
                    "%s: interrupted: %d of %d cases measured and written, the "
                    "unfinished one dropped; the rows written are complete\n",
                    prog, x->rows, x->ncases);
        rc = 130;
    } else {
        rc = rc < 0 ? 1 : 0;
    }
    if (x->failures) {
        fprintf(stderr, "%s: %d case(s) failed verification (verified=fail in their rows)\n", prog,
                x->failures);
        rc = 1;
    }
    if (x->write_failed) rc = OUTPUT_EXIT;
done:
    energy_session_close(&x->energy);
    if (output_close(&x->out, err, sizeof err)) rc = cli_error(prog, OUTPUT_EXIT, "%s", err);
    rc = dist_max_int(rc);
    dist_finalize();
    free(x->times);
    free(x);
    free(o);
    return rc;
}
