/* lbm_main.c: the LBM driver shared by lbm-cpu and lbm-gpu: its cases (precision x collision x
 * kernel x geometry x domain x padding x alignment x block size x rank grid) for common/runner.c,
 * which checks that every case fits and then runs them: initialise, warm up, time, verify (mass
 * conserved, nothing non-finite), write one row each. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "dist.h"
#include "energy.h"
#include "progress.h"
#include "lbm.h"
#include "lbm_opts.h"
#include "runner.h"
#include "stats.h"
#include "storage16.h"
#include "sysinfo.h"

extern const char lbm_backend_name[]; /* "cpu" or "gpu", from the backend */

#define TARGET_REP_SECONDS 0.1 /* automatic --steps: about this long per repetition */

struct run_ctx {
    const struct lbm_opts *o;
    struct device_facts dev;
    struct sysinfo_host host;
    int decomp[LBM_DECOMP_MAX][3], ndecomp; /* rank grids, each case runs on every one */
    double base_mflups;  /* the current case's 1-rank median, for the parallel efficiency */
    int first_on_device; /* this rank's meter counts in a run's energy (lbm_backend_select) */
    char crowded[48];    /* "node_threads=T/C" where this node's ranks run more threads than CPUs */
    enum lbm_kernel left_out[LBM_KERNEL_COUNT]; /* default kernels a split run leaves out */
    int nleft_out;
};

/* What the runner runs: one row, a case on one rank grid with one overlap and halo setting. */
struct grid_case {
    struct lbm_case c; /* the whole domain */
    int grid;          /* in decomp */
    int overlap, halo;
    int first; /* the case's first row (its 1-rank row when there is one): efficiencies restart */
};

/* what a distributed case adds to its row */
struct dist_facts {
    const int *procs;
    struct lbm_case local; /* rank 0's */
    double comm_s;         /* per update: time the exchange added (median minus compute-only) */
    uint64_t hash;
    int overlap;
    char halo[24];   /* the paths the halos took (dist_halo_used) */
    char x_faces[8]; /* how the x faces' halos were made (dist_x_faces_used) */
};

static const char *prog = "lbm";
static const char *const halo_label[DIST_HALO_COUNT] = {"", " halo device", " halo node",
                                                        " halo host"};

/* Relative mass drift allowed over `updates` updates of `cells` cells: 1e-5 sp, 1e-12 dp.
 * 16-bit storage: every update rounds each of its 19 x cells stored values g to nearest, an
 * absolute error of at most u G (u the format's unit roundoff, storage16.h; G = 1/4 bounds |g|:
 * storage16.h's 1/8 at the largest lid plus 1/8 for |rho - 1|), of either sign and with no
 * preferred sign over a lattice (ties to even). The sum of M = 19 x cells x updates such errors
 * has a standard deviation of at most u G sqrt(M / 3) (uniform on [-u G, u G]); against the mass,
 * cells (rho = 1 per cell), the drift stays within 6 of them, 6 u G sqrt(19 updates / (3 cells)),
 * plus sp's allowance for the 32-bit arithmetic. A drift beyond it is a coherent error (a value
 * lost, doubled or saturated), which is what the check is for. */
static double mass_tolerance(enum prec p, double updates, double cells)
{
    const double u = p == PREC_FP16S ? LBM_FP16S_U : LBM_FP16C_U, g = 0.25;
    if (!prec_is_16bit(p)) return p == PREC_SP ? 1e-5 : 1e-12;
    return 1e-5 + 6.0 * u * g * sqrt(19.0 * updates / (3.0 * cells));
}

static void fill_row(struct csv_record *r, const struct run_ctx *x, const struct lbm_case *c,
                     const struct lbm_launch *u, const struct stats *st, int steps, int reps,
                     double drift, int pass, const struct dist_facts *df,
                     const struct energy_reading *e, double idle_W)
{
    const int ranks = df->procs[0] * df->procs[1] * df->procs[2];
    double prog_b, dram_b, cells = (double)(c->nx * c->ny * c->nz);
    lbm_traffic(prec_size(c->prec), lbm_write_allocates(c->kernel), &prog_b, &dram_b);
    device_row_init(r, &x->dev, x->host.host, "lbm", x->o->c.peak_bw_GBs);
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
    csv_set(r->layout, c->kernel == LBM_PULL_AOS ? "aos" : lbm_order_names[c->order]);
    r->cells = r->fluid_cells = (int64_t)cells; /* walls lie between cells: every cell is fluid */
    r->threads = u->threads;
    if (u->binding[0]) /* this case's own thread count and placement */
        csv_set(r->binding, u->binding);
    if (x->crowded[0]) { /* run anyway (LBMR_OVERSUBSCRIBE=1): the row says so */
        char b[sizeof r->binding + sizeof x->crowded + 1]; /* first: a long binding is cut */
        snprintf(b, sizeof b, "%s %s", x->crowded, r->binding);
        csv_set(r->binding, b);
    }
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
        csv_set(r->x_faces, df->x_faces);
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
static int window_reps(const struct run_ctx *x, struct runner *rn, struct dist_run *run,
                       double rep_s, int at_least, char *err, size_t errlen)
{
    int reps = x->o->c.reps > at_least ? x->o->c.reps : at_least;
    if (rn->energy.m) reps = energy_reps_for_window(reps, rep_s, 100000);
    reps = dist_run_max(run, reps);
    if (stats_reserve(&rn->times, &rn->ntimes, reps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return reps;
}

/* Over several ranks the row's window is the run's: each device's energy, power limit and idle
 * power counted once (ranks that share a GPU read the same meter: only the first counts), the
 * clocks averaged over the devices, an event seen on any rank counts. A rank with nothing
 * measured makes it empty. */
static void energy_over_ranks(struct dist_run *run, int ranks, int first_on_device,
                              struct energy_reading *e, int measured, double *idle_W)
{
    double v[8 + ENERGY_EVENT_COUNT];
    const double w = first_on_device ? 1.0 : 0.0;
    if (ranks <= 1) return;
    v[0] = measured ? w * e->energy_J : NAN;
    v[1] = measured ? w * e->polled_J : NAN;
    v[2] = measured ? w * e->sm_clock_MHz : NAN;
    v[3] = measured ? w * e->mem_clock_MHz : NAN;
    v[4] = measured ? w * e->power_limit_W : NAN;
    v[5] = w * *idle_W;
    v[6] = measured ? w * e->samples : 0;
    v[7] = w; /* devices */
    for (int i = 0; i < ENERGY_EVENT_COUNT; i++)
        v[8 + i] = measured ? (double)(e->events >> i & 1) : 0;
    dist_run_sum(run, v, 8 + ENERGY_EVENT_COUNT);
    if (!measured) return;
    e->energy_J = v[0];
    e->polled_J = v[1];
    e->sm_clock_MHz = v[2] / v[7];
    e->mem_clock_MHz = v[3] / v[7];
    e->power_limit_W = v[4];
    *idle_W = v[5];
    e->samples = (int)v[6];
    e->events = 0;
    for (int i = 0; i < ENERGY_EVENT_COUNT; i++)
        e->events |= (uint64_t)(v[8 + i] > 0) << i;
}

/* Time `reps` repetitions of `steps` updates into x->times (exchange = 0: timing only). An
 * interrupt on any of the run's ranks stops all of them between two repetitions. */
static int time_reps(struct runner *rn, struct dist_run *run, struct lbm_state *s, int steps,
                     int reps, enum dist_exchange exchange, int overlap, char *err, size_t errlen)
{
    for (int r = 0; r < reps; r++) {
        if (dist_any(run, interrupt_requested())) {
            snprintf(err, errlen, "interrupted");
            return 1;
        }
        if (dist_step(run, s, steps, exchange, overlap, &rn->times[r], err, errlen)) return 1;
    }
    return 0;
}

/* The ranks' judgements of the repetitions made so far, joined: a repetition any rank judged
 * disturbed is disturbed on every rank (they ran it together, the slowest setting its time), so
 * each rank counts, selects and reports the same ones. Only the repetitions some rank judged anew
 * since the last call travel (one integer otherwise). `sum`: room for every repetition made.
 * Collective over the run's ranks. */
static void judge_together(struct dist_run *run, struct quiet_judge *q, double *sum)
{
    if (!q->probe) return;
    const int from = -dist_run_max(run, -quiet_changed_since(q)); /* the ranks' lowest */
    if (from >= q->made) return;
    for (int i = from; i < q->made; i++)
        sum[i - from] = quiet_disturbed_here(q, i);
    dist_run_sum(run, sum, q->made - from);
    for (int i = from; i < q->made; i++)
        if (sum[i - from] > 0) quiet_veto(q, i);
}

/* judged_reps' repetitions, `want` quiet ones wanted */
static int judged_loop(struct runner *rn, struct dist_run *run, struct lbm_state *s, int steps,
                       int want, int overlap, double *sum, char *err, size_t errlen)
{
    quiet_begin(&rn->quiet, want);
    while (dist_any(run, quiet_more(&rn->quiet))) {
        if (dist_any(run, interrupt_requested())) {
            snprintf(err, errlen, "interrupted");
            return 1;
        }
        if (dist_step(run, s, steps, DIST_EXCHANGE, overlap, &rn->times[rn->quiet.made], err,
                      errlen))
            return 1;
        if (dist_any(run, quiet_after(&rn->quiet, rn->times[rn->quiet.made]))) {
            snprintf(err, errlen, "out of memory");
            return 1;
        }
        judge_together(run, &rn->quiet, sum);
    }
    if (rn->quiet.probe) /* the lowest reading of any rank: 1e300 where none read */
        quiet_show_clocks(&rn->quiet, dist_run_max_double(run, rn->quiet.high),
                          -dist_run_max_double(run, -rn->quiet.row_low));
    return 0;
}

/* One timed set of a row: repetitions of `steps` updates into rn->times until rn->quiet has
 * `want` quiet ones or gives up (exactly `want` without a probe); *made: how many ran. The run's
 * ranks make the same repetitions: another while any of them wants one, a repetition disturbed on
 * one rank disturbed on all (judge_together), and the row's clock columns span every rank's
 * readings. An interrupt on any rank stops all of them between two repetitions. */
static int judged_reps(struct runner *rn, struct dist_run *run, struct lbm_state *s, int steps,
                       int want, int overlap, int *made, char *err, size_t errlen)
{
    const int room = rn->quiet.probe ? QUIET_ATTEMPTS_FACTOR * want : want;
    /* the judgements' sums: reserved on every rank before any is exchanged */
    double *sum = malloc((size_t)room * sizeof *sum);
    int failed = dist_any(run, stats_reserve(&rn->times, &rn->ntimes, room) || !sum);
    if (!failed)
        failed = judged_loop(rn, run, s, steps, want, overlap, sum, err, errlen);
    else
        snprintf(err, errlen, "out of memory");
    free(sum);
    if (!failed) *made = rn->quiet.made;
    return failed;
}

/* The lattice back to its initial state and through the same warm-up: updates run after this
 * start from where the timed ones of a row start. */
static int restart(struct dist_run *run, struct lbm_state *s, int warmup, int overlap, char *err,
                   size_t errlen)
{
    double secs;
    /* every rank leaves together (an interrupt may reach one rank's fill before another's):
     * dist_prime is collective */
    return dist_any(run, lbm_init(s, err, errlen)) || dist_prime(run, s, err, errlen) ||
           (warmup > 0 && dist_step(run, s, warmup, DIST_EXCHANGE, overlap, &secs, err, errlen));
}

static double median_of(double *t, int n)
{
    struct stats st;
    stats_compute(t, (size_t)n, &st);
    return st.med;
}

/* The updates per repetition: the user's, or as many as fill about TARGET_REP_SECONDS judged
 * from a timed probe; *rep_s is one repetition's estimated seconds (0: no estimate). Runs the
 * warm-up first. */
static int choose_steps(const struct run_ctx *x, struct dist_run *run, struct lbm_state *s,
                        int pairs, int warmup, int overlap, int *steps, double *rep_s, char *err,
                        size_t errlen)
{
    double secs;
    *steps = x->o->steps + (pairs && x->o->steps % 2);
    *rep_s = 0;
    if (warmup > 0 && dist_step(run, s, warmup, DIST_EXCHANGE, overlap, &secs, err, errlen))
        return 1;
    if (warmup > 0) *rep_s = secs / warmup; /* per update, for now */
    if (*steps == 0) {
        if (dist_step(run, s, 2, DIST_EXCHANGE, overlap, &secs, err, errlen)) return 1;
        *steps = (int)ceil(TARGET_REP_SECONDS / (secs / 2));
        *steps = *steps < 2 ? 2 : (*steps > 100000 ? 100000 : *steps);
        *steps += pairs && *steps % 2;
        *rep_s = secs / 2;
    }
    *rep_s *= *steps; /* 0 without warm-up or probe: the user's --reps stand */
    return 0;
}

/* The timed repetitions of one row, as many as fill the energy window (and as rn->quiet wants):
 * *reps of them in rn->times, the lattice then warmup + reps x steps updates from its start. */
static int timed_window(const struct run_ctx *x, struct runner *rn, struct dist_run *run,
                        struct lbm_state *s, int steps, int warmup, int overlap, int *reps,
                        struct energy_reading *energy, int *measured, char *err, size_t errlen)
{
    progress_phase("timed");
    for (int tries = 1;; tries++) { /* until the window is long enough: probe estimates err */
        int more, failed, made = 0;
        *measured = energy_session_begin(&rn->energy) == 0;
        failed = judged_reps(rn, run, s, steps, *reps, overlap, &made, err, errlen);
        if (*measured) /* a window that measured nothing still has its clocks */
            energy_session_end(&rn->energy, energy);
        if (failed) return 1;
        more = *measured ? energy_retry_reps(energy, made, tries, 100000) : 0;
        more = dist_run_max(run, more); /* every rank runs the same sets */
        if (!more) {
            *reps = made; /* every one ran: the lattice and the window hold them all */
            return 0;
        }
        *reps = window_reps(x, rn, run, 0, more, err, errlen);
        /* the row's state is that of warmup + reps x steps updates from the start, whatever
         * the meter needed: the lattice starts again */
        if (*reps < 0 || restart(run, s, warmup, overlap, err, errlen)) return 1;
    }
}

/* What one row measured on the run's ranks (sums and timings as rank 0 has them). */
struct row_run {
    int steps, reps, measured;
    double t_compute, m0, m1, idle_W;
    size_t bad0, bad1;
    struct energy_reading energy;
};

/* Warm up, time and check an initialised lattice; df->hash: the state after the timed updates. */
static int measure(const struct run_ctx *x, struct runner *rn, struct dist_run *run,
                   struct lbm_state *s, const struct grid_case *u, int ranks, struct row_run *m,
                   struct dist_facts *df, char *err, size_t errlen)
{
    /* aa's lattice reads back between pairs of updates: even counts throughout */
    const int pairs = u->c.kernel == LBM_AA;
    const int warmup = x->o->c.warmup + (pairs && x->o->c.warmup % 2);
    double rep_s;
    uint64_t h0;
    if (choose_steps(x, run, s, pairs, warmup, u->overlap, &m->steps, &rep_s, err, errlen))
        return 1;
    m->reps = window_reps(x, rn, run, rep_s, 0, err, errlen);
    if (m->reps < 0) return 1;
    if (dist_neighbours(run) > 0 || ranks > 1) {
        /* the same updates without the exchange (their results are discarded): what the
         * halos add is the difference of the medians */
        int reps = x->o->c.reps < 3 ? x->o->c.reps : 3;
        if (time_reps(rn, run, s, m->steps, reps, DIST_NO_EXCHANGE, u->overlap, err, errlen))
            return 1;
        m->t_compute = median_of(rn->times, reps);
        if (restart(run, s, warmup, u->overlap, err, errlen)) return 1;
    }
    if (dist_any(run, lbm_check(s, &m->m0, &m->bad0, &h0, err, errlen))) return 1; /* together */
    dist_sum(run, &m->m0, &m->bad0, &h0);
    if (timed_window(x, rn, run, s, m->steps, warmup, u->overlap, &m->reps, &m->energy,
                     &m->measured, err, errlen))
        return 1;
    if (m->measured) energy_session_report(&rn->energy, &m->energy);
    energy_over_ranks(run, ranks, x->first_on_device, &m->energy, m->measured, &m->idle_W);
    if (dist_any(run, lbm_check(s, &m->m1, &m->bad1, &df->hash, err, errlen))) return 1;
    dist_sum(run, &m->m1, &m->bad1, &df->hash);
    return 0;
}

/* Rank 0's row of a measured case: filled, judged and written. */
static int write_row(struct run_ctx *x, struct runner *rn, const struct grid_case *u,
                     const struct lbm_launch *used, struct dist_facts *df, const struct row_run *m,
                     int ranks, const char *what)
{
    struct lbm_case global = u->c;
    struct csv_record row;
    struct stats st;
    size_t g[3];
    double drift, tol;
    int pass;
    /* the quiet repetitions only (all of them when none was quiet) */
    stats_compute(rn->times, (size_t)quiet_select(&rn->quiet, rn->times), &st);
    df->comm_s = ranks > 1 ? (st.med - m->t_compute > 0 ? st.med - m->t_compute : 0) / m->steps : 0;
    /* a lattice holding non-finite values has no relative error worth writing: nan */
    drift = m->bad0 || m->bad1 ? NAN : fabs(m->m1 - m->m0) / m->m0;
    lbm_global_dims(&df->local, g);
    tol = mass_tolerance(u->c.prec, (double)m->reps * m->steps, (double)(g[0] * g[1] * g[2]));
    pass = m->bad0 == 0 && m->bad1 == 0 && drift <= tol;
    if (dist_rank() != 0) return 0;
    global.nx = g[0];
    global.ny = g[1];
    global.nz = g[2];
    if (ranks == 1) /* the reference for this case's efficiencies */
        x->base_mflups = (double)(g[0] * g[1] * g[2]) / (st.med / m->steps) * 1e-6;
    fill_row(&row, x, &global, used, &st, m->steps, m->reps, drift, pass, df,
             m->measured ? &m->energy : NULL, m->idle_W);
    quiet_fill_row(&rn->quiet, &row);
    if (!pass) {
        fprintf(stderr,
                "%s: VERIFICATION FAILED: %s: %zu non-finite values, mass drift %.3g "
                "(allowed %.2g)\n",
                prog, what, m->bad1, drift, tol);
        rn->failures++;
    }
    return runner_write(rn, &row);
}

/* One case on one rank grid (runner_ops.run): only the run's ranks take part; rank 0 writes the
 * row. */
static int run_case(void *ctx, struct runner *rn, const void *cp, const char *what)
{
    struct run_ctx *x = ctx;
    const struct grid_case *u = cp;
    const int *procs = x->decomp[u->grid];
    const int ranks = procs[0] * procs[1] * procs[2];
    struct lbm_state *s = NULL;
    struct dist_run *run = NULL;
    struct lbm_launch used = {0};
    struct dist_facts df;
    struct row_run m;
    char err[512] = "";
    int failed;

    if (u->first) x->base_mflups = 0; /* the 1-rank row first gives the others their efficiency */
    memset(&df, 0, sizeof df);
    memset(&m, 0, sizeof m);
    m.idle_W = rn->energy.idle_W;
    df.procs = procs;
    df.overlap = u->overlap;
    if (dist_case_begin(&u->c, procs, x->o->weak, &run, &df.local, err, sizeof err)) {
        dist_case_end(NULL);
        goto fail_all;
    }
    if (!run) { /* not one of this grid's ranks */
        dist_case_end(NULL);
        return 0;
    }
    progress_phase("setup");
    failed = lbm_alloc(&s, &df.local, &used, err, sizeof err) ||
             dist_attach(run, s, u->halo, err, sizeof err) || lbm_init(s, err, sizeof err);
    snprintf(df.halo, sizeof df.halo, "%s", dist_halo_used(run));
    snprintf(df.x_faces, sizeof df.x_faces, "%s", dist_x_faces_used(run));
    rn->quiet.threads = used.threads; /* the probe times the kernel's own team */
    if (dist_any(run, failed) || dist_prime(run, s, err, sizeof err) ||
        measure(x, rn, run, s, u, ranks, &m, &df, err, sizeof err))
        goto fail;
    lbm_free(s);
    dist_case_end(run);
    return write_row(x, rn, u, &used, &df, &m, ranks, what);
fail:
    lbm_free(s);
    dist_case_end(run);
fail_all:
    if (interrupt_requested()) return 1; /* the unfinished case is dropped; the runner says so */
    if (err[0] && (dist_rank() == 0 || dist_size() > 1))
        fprintf(stderr, "%s: error%s: %s: %s\n", prog, dist_size() > 1 ? " (a rank)" : "", what,
                err);
    return 1;
}

/* one line naming the row's case (runner_ops.describe) */
static void describe(void *ctx, const void *cp, char *what, size_t len)
{
    const struct run_ctx *x = ctx;
    const struct grid_case *u = cp;
    const struct lbm_case *c = &u->c;
    const int *p = x->decomp[u->grid];
    const int ranks = p[0] * p[1] * p[2];
    snprintf(what, len, "%zux%zux%zu%s %s %s %s %s pad %zu align %zu ranks %dx%dx%d%s%s", c->nx,
             c->ny, c->nz, x->o->weak ? " per rank" : "", lbm_kernel_names[c->kernel],
             lbm_collision_names[c->collision], lbm_geometry_names[c->geometry], prec_name(c->prec),
             c->pad, c->align, p[0], p[1], p[2],
             ranks > 1 ? (u->overlap ? " overlap" : " no-overlap") : "",
             ranks > 1 ? halo_label[u->halo] : "");
}

/* The memory one rank allocates for case c on grid p. */
static size_t local_bytes(const struct run_ctx *x, const struct lbm_case *c, const int p[3])
{
    struct lbm_case l = *c;
    size_t *n[3] = {&l.nx, &l.ny, &l.nz};
    for (int a = 0; a < 3; a++) {
        if (!x->o->weak) *n[a] = (*n[a] + (size_t)p[a] - 1) / (size_t)p[a];
        l.place.neighbor[a][0] = l.place.neighbor[a][1] = p[a] > 1;
    }
    l.place.x_faces_in_rows = lbm_x_faces_in_rows(c->kernel);
    return lbm_bytes_needed(&l);
}

/* 0 if grid p splits case c with a cell per rank and axis; else why not. */
static int grid_fits(const struct run_ctx *x, const struct lbm_case *c, const int p[3], char *why,
                     size_t whylen)
{
    if (lbm_single_rank(c->kernel) && p[0] * p[1] * p[2] > 1)
        return cli_fail(why, whylen,
                        "--kernel %s runs on one rank (--procs %dx%dx%d): "
                        "split domains run pull",
                        lbm_kernel_names[c->kernel], p[0], p[1], p[2]);
    if (!x->o->weak && (c->nx < (size_t)p[0] || c->ny < (size_t)p[1] || c->nz < (size_t)p[2]))
        return cli_fail(why, whylen,
                        "%zux%zux%zu cannot be split %dx%dx%d: every rank "
                        "needs a cell per axis",
                        c->nx, c->ny, c->nz, p[0], p[1], p[2]);
    return 0;
}

/* runner_ops.check: the backend runs the case, the grid splits it; *bytes per rank */
static int check(void *ctx, const void *cp, size_t *bytes, char *why, size_t whylen)
{
    const struct run_ctx *x = ctx;
    const struct grid_case *u = cp;
    if (lbm_case_supported(&u->c, why, whylen) ||
        grid_fits(x, &u->c, x->decomp[u->grid], why, whylen))
        return 1;
    *bytes = local_bytes(x, &u->c, x->decomp[u->grid]);
    return 0;
}

/* A grid named twice runs once; the first 1-rank grid runs first, wherever the list names it, so
 * that every other grid's row of a case gets its efficiency (which needs the 1-rank median). */
static void order_grids(int g[][3], int *n)
{
    int kept = 0;
    for (int k = 0; k < *n; k++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++)
            seen = memcmp(g[j], g[k], sizeof g[k]) == 0;
        if (!seen) memmove(g[kept++], g[k], sizeof g[k]);
    }
    *n = kept;
    for (int k = 1; k < kept; k++) {
        if (g[k][0] * g[k][1] * g[k][2] != 1) continue;
        int one[3];
        memcpy(one, g[k], sizeof one);
        memmove(g[1], g[0], (size_t)k * sizeof g[0]);
        memcpy(g[0], one, sizeof one);
        break;
    }
}

/* The rank grids: --procs, or --ranks (default: every rank) through MPI_Dims_create. */
static int make_grids(struct run_ctx *x, char *err, size_t errlen)
{
    const struct lbm_opts *o = x->o;
    x->ndecomp = 0;
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
                snprintf(err, errlen, "--ranks %d: the job has %d rank(s) (mpirun -np N%s)", r,
                         dist_size(), dist_have_mpi() ? "" : "; this build has no MPI");
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
    }
    order_grids(x->decomp, &x->ndecomp);
    for (int k = 0; k < o->nhalos; k++)
        if (dist_halo_check(o->halos[k], err, errlen)) return 1;
    return dist_x_faces_check(err, errlen);
}

/* Case c on every rank grid, each overlap and halo setting a row of its own; without --align the
 * backend's row alignment for the case's kernel and the grid. */
static int expand_grids(const struct run_ctx *x, struct runner *r, const struct lbm_case *c)
{
    const struct lbm_opts *o = x->o;
    for (int k = 0; k < x->ndecomp; k++) {
        const int *p = x->decomp[k];
        for (int v = 0; v < o->noverlaps * o->nhalos; v++) {
            struct grid_case u;
            if (p[0] * p[1] * p[2] == 1 && v > 0)
                break; /* one rank exchanges nothing: overlap and path make no difference */
            memset(&u, 0, sizeof u);
            u.c = *c;
            if (!o->aligns.n) u.c.align = lbm_row_align_default(&x->dev, c->kernel, p[0] > 1);
            u.grid = k;
            u.overlap = o->overlaps[v / o->nhalos];
            u.halo = o->halos[v % o->nhalos];
            u.first = k == 0 && v == 0;
            if (runner_add(r, &u)) return 1;
        }
    }
    return 0;
}

/* The case of one choice from each list (the indices, in expand's order); without --align the
 * row alignment is left to expand_grids, which knows the rank grid. */
static void make_case(const struct run_ctx *x, const size_t i[9], struct lbm_case *c)
{
    const struct lbm_opts *o = x->o;
    /* gpu threads per block or cpu OpenMP threads (the parser allows each on its backend only) */
    const struct cli_list *tl = o->block.n ? &o->block : &o->c.threads;
    memset(c, 0, sizeof *c);
    c->prec = (enum prec)o->c.precs[i[0]];
    c->collision = (enum lbm_collision)o->colls[i[1]];
    c->kernel = (enum lbm_kernel)o->kernels[i[2]];
    c->geometry = (enum lbm_geometry)o->geoms[i[3]];
    c->nx = o->dims[i[4]][0];
    c->ny = o->dims[i[4]][1];
    c->nz = o->dims[i[4]][2];
    c->pad = o->pads.v[i[5]];
    c->align = o->aligns.n ? o->aligns.v[i[6]] : 0;
    c->omega = o->omega;
    c->lid_ux = o->lid_ux;
    if (c->geometry == LBM_CHANNEL) c->force[0] = o->force;
    c->threads = tl->n ? (int)tl->v[i[7]] : 0;
    c->order = o->norders ? (enum lbm_order)o->orders[i[8]] : x->dev.lbm_rows ? LBM_ROWS : LBM_SOA;
}

/* precision x collision x kernel x geometry x domain x padding x alignment x threads x layout,
 * the last fastest, each on every rank grid (runner_ops.expand); pull_aos, which has no layout
 * choice, once */
static int expand(void *ctx, struct runner *r)
{
    const struct run_ctx *x = ctx;
    const struct lbm_opts *o = x->o;
    const struct cli_list *tl = o->block.n ? &o->block : &o->c.threads;
    const size_t aligns = o->aligns.n ? o->aligns.n : 1; /* none given: each kernel's default */
    const size_t n[9] = {(size_t)o->c.nprecs,
                         (size_t)o->ncolls,
                         (size_t)o->nkernels,
                         (size_t)o->ngeoms,
                         (size_t)o->ndims,
                         o->pads.n,
                         aligns,
                         tl->n ? tl->n : 1,
                         o->norders ? (size_t)o->norders : 1};
    size_t i[9] = {0};
    for (int a = 0; a < 9; a++)
        if (n[a] == 0) return 0; /* an empty list: no case */
    for (;;) {
        struct lbm_case c;
        int a = 8;
        make_case(x, i, &c);
        if (!(c.kernel == LBM_PULL_AOS && i[8] > 0) && expand_grids(x, r, &c)) return 1;
        while (a >= 0 && ++i[a] == n[a]) /* the next index, odometer fashion */
            i[a--] = 0;
        if (a < 0) return 0;
    }
}

/* The domain when none is given: on the cpu out of cache by STREAM's rule (one lattice in the
 * smallest precision run at least SYSINFO_CACHE_FACTOR x the last-level cache, the rule
 * stream-cpu sizes its arrays by); on the gpu 256^3 (1.2 GiB of sp lattices against an L2 of
 * tens of MiB), or more should the L2 ever call for it by the same rule. */
static void default_domain(const struct run_ctx *x, struct lbm_opts *o, char *why, size_t whylen)
{
    const struct device_facts *d = &x->dev;
    size_t es = 8, edge;
    enum prec smallest = PREC_DP;
    char min_edge[64] = "";
    for (int i = 0; i < o->c.nprecs; i++)
        if (prec_size((enum prec)o->c.precs[i]) < es) {
            smallest = (enum prec)o->c.precs[i];
            es = prec_size(smallest);
        }
    /* lbm_default_edge's edges are multiples of 16: a smaller minimum goes without saying */
    if (d->default_edge_min > 16)
        snprintf(min_edge, sizeof min_edge, ", and an edge of at least %zu", d->default_edge_min);
    edge = lbm_default_edge(d->out_of_cache_bytes, es, d->default_edge_min);
    snprintf(why, whylen, "one %s lattice (%.1f MiB) is at least %s%s", prec_name(smallest),
             (double)edge * edge * edge * 19 * es / 1048576.0, d->out_of_cache_why, min_edge);
    o->dims[0][0] = o->dims[0][1] = o->dims[0][2] = edge;
    o->ndims = 1;
}

static int supported(int k, char *why, size_t whylen)
{
    return lbm_kernel_supported((enum lbm_kernel)k, why, whylen);
}

/* Errors are said once, by rank 0; every rank returns the code. */
#define FAIL(code, ...) (dist_rank() == 0 ? cli_error(prog, code, __VA_ARGS__) : (code))

/* Default kernels: not the pull_aos study; on split domains not the single-rank ones. */
static void default_kernels(struct run_ctx *x, struct lbm_opts *o)
{
    int split = 0, n = 0;
    for (int k = 0; k < x->ndecomp; k++)
        split |= x->decomp[k][0] * x->decomp[k][1] * x->decomp[k][2] > 1;
    for (int k = 0; k < o->nkernels; k++) {
        const enum lbm_kernel kk = (enum lbm_kernel)o->kernels[k];
        if (kk != LBM_PULL_AOS && (!split || !lbm_single_rank(kk)))
            o->kernels[n++] = o->kernels[k];
        else if (kk != LBM_PULL_AOS) /* said once the run is accepted (left_out_note) */
            x->left_out[x->nleft_out++] = kk;
    }
    o->nkernels = n;
}

/* What default_kernels left out, said by rank 0 once nothing refused the run: not left to be
 * found missing, and not a second line beside a refusal */
static void left_out_note(const struct run_ctx *x)
{
    for (int k = 0; k < x->nleft_out && dist_rank() == 0; k++)
        fprintf(stderr,
                "%s: %s runs on one rank only: not among this run's default kernels, whose grids "
                "split the domain (--kernel %s with --procs 1x1x1 runs it)\n",
                prog, lbm_kernel_names[x->left_out[k]], lbm_kernel_names[x->left_out[k]]);
}

/* Whether this node's ranks run more OpenMP threads together (each its largest team) than the
 * CPUs their sets cover: then ranks and threads time-share cores, and every rate and efficiency
 * measures that (mpiexec --bind-to none leaves every rank all CPUs, and each starts a thread a
 * CPU). Refused unless LBMR_OVERSUBSCRIBE=1 (the tests' states need no speed), which marks the
 * rows. Collective over the job; 0 or 1 with err. */
static int crowded_node(struct run_ctx *x, const struct lbm_opts *o, char *err, size_t errlen)
{
    unsigned long long bits[16];
    int team = x->dev.default_threads, threads, ranks, cpus = 0;
    const int words = lbm_backend_cpu_set(bits, 16);
    const char *allow = getenv("LBMR_OVERSUBSCRIBE");
    if (words == 0 || dist_size() == 1) return 0; /* the same on every rank of a backend */
    for (size_t i = 0; i < o->c.threads.n; i++)
        team = i == 0 || (int)o->c.threads.v[i] > team ? (int)o->c.threads.v[i] : team;
    dist_node_sum_or(team, &threads, &ranks, bits, words);
    for (int w = 0; w < words; w++)
        cpus += __builtin_popcountll(bits[w]);
    if (ranks < 2 || threads <= cpus) return 0;
    if (allow && strcmp(allow, "1") == 0) {
        snprintf(x->crowded, sizeof x->crowded, "node_threads=%d/%d", threads, cpus);
        return 0;
    }
    snprintf(err, errlen,
             "the %d ranks on this node would run %d threads on %d CPUs (this rank %d): give each "
             "rank CPUs of its own (mpiexec --bind-to core --map-by slot:PE=N for N threads a "
             "rank) or fewer threads (OMP_NUM_THREADS, --threads); LBMR_OVERSUBSCRIBE=1 runs "
             "them anyway, the rows' binding saying so",
             ranks, threads, cpus, team);
    return 1;
}

/* Whether every rank of the job was started with the same arguments (collective). An MPMD launch
 * (mpiexec -np 1 A : -np 1 B) can give ranks different ones; each would then parse, refuse or
 * run on its own, and the collectives after it pair up wrongly: the job hung, or a rank wrote
 * past a buffer sized by another's domain. FNV-1a over the arguments, compared as two 31-bit
 * halves by their maximum and minimum over the ranks. */
static int same_arguments(int argc, char **argv)
{
    unsigned long long h = 14695981039346656037ULL;
    int same = 1;
    for (int i = 1; i < argc; i++)
        for (const unsigned char *c = (const unsigned char *)argv[i];; c++) {
            h = (h ^ *c) * 1099511628211ULL; /* the terminating NUL separates the arguments */
            if (!*c) break;
        }
    for (int k = 0; k < 2; k++) {
        const int v = (int)((h >> (31 * k)) & 0x7fffffff);
        same &= dist_max_int(v) == -dist_max_int(-v);
    }
    return same;
}

/* 0 where no rank failed (mine on each); else 1, with err's line from rank 0, or else from the
 * ranks that failed (a rank alone can fail: its own GPU, CPUs or node). Collective. */
static int any_rank_failed(int mine, const char *err)
{
    const int rank0 = dist_max_int(dist_rank() == 0 ? mine : 0);
    if (!dist_max_int(mine)) return 0;
    if (mine && (dist_rank() == 0 || !rank0))
        cli_error(prog, 2, "%s%s", dist_rank() ? "(a rank) " : "", err);
    return 1;
}

static const struct runner_ops ops = {sizeof(struct grid_case), expand, check, describe, run_case};

/* The backend opened, the kernels and rank grids chosen, the defaults filled in: 0 or 2. */
static int open_backend(struct run_ctx *x, struct lbm_opts *o, char *err, size_t errlen)
{
    const int all_kernels = o->nkernels == 0;
    if (lbm_backend_select(dist_local_rank(), &x->first_on_device, err, errlen) ||
        lbm_backend_open(&x->dev, err, errlen) ||
        cli_check_threads(&o->c.threads, x->dev.cpus, x->dev.default_threads, err, errlen) ||
        cli_select_supported(o->kernels, &o->nkernels, LBM_KERNEL_COUNT, lbm_kernel_names,
                             "--kernel", supported, err, errlen) ||
        make_grids(x, err, errlen))
        return 2;
    if (all_kernels) default_kernels(x, o);
    sysinfo_host_get(&x->host);
    return 0;
}

int main(int argc, char **argv)
{
    struct lbm_opts *o = calloc(1, sizeof *o);
    struct run_ctx *x = calloc(1, sizeof *x);
    struct runner r;
    char err[512], default_why[320], note[480], needs[64];
    int rc;

    cli_std_fds();
    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (!o || !x) return cli_error(prog, 1, "out of memory");
    if (dist_init(&argc, &argv, err, sizeof err)) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    interrupt_install(prog);
    x->o = o;
    if (!same_arguments(argc, argv)) {
        rc = FAIL(2, "the job's ranks were started with different arguments (an MPMD launch?): "
                     "give every rank the same");
        goto done;
    }
    /* the same arguments, but parsing also reads the environment, which may differ by rank: a
     * refusal on any rank stops every rank, before the next collective */
    rc = lbm_opts_parse(argc, argv, lbm_backend_name, o, err, sizeof err);
    if (any_rank_failed(rc > 0, err)) {
        rc = 2;
        goto done;
    }
    if (rc == -1) { /* help or version printed */
        rc = 0;
        goto done;
    }
    /* each rank opens its own GPU and CPUs, which can refuse on one rank alone: every rank
     * stops */
    if (any_rank_failed(open_backend(x, o, err, sizeof err), err) ||
        any_rank_failed(crowded_node(x, o, err, sizeof err), err)) {
        rc = 2;
        goto done;
    }
    left_out_note(x);
    memset(&r, 0, sizeof r);
    r.note = r.needs_what = NULL;
    if (o->ndims == 0) {
        default_domain(x, o, default_why, sizeof default_why);
        snprintf(note, sizeof note,
                 "default domain %zu^3: %s (--size, --dims or --local to choose)", o->dims[0][0],
                 default_why);
        snprintf(needs, sizeof needs, "the default domain %zu^3", o->dims[0][0]);
        r.note = note;
        r.needs_what = needs;
    }
    r.prog = prog;
    r.ops = &ops;
    r.ctx = x;
    r.rank = dist_rank();
    r.all_max = dist_max_int;
    r.out = o->c.out;
    r.out_mode = o->c.out_mode;
    r.memory_available = lbm_memory_available();
    r.needs_what = r.needs_what ? r.needs_what : "the largest case";
    r.needs_per = dist_size() > 1 ? " per rank" : "";
    r.needs_hint = r.note ? "choose a smaller one with --size" : "choose smaller domains";
    /* a cpu run over several ranks: the ranks of a node share the packages powercap reads */
    r.energy_enabled = !x->dev.energy_node_wide || dist_size() == 1;
    r.energy_why_off = "the ranks of a cpu run share the packages that powercap reads";
    r.ntimes = o->c.reps;
    r.quiet.probe = o->c.quiet_wait_off ? NULL : x->dev.clock_probe;
    r.check_only = o->c.check_only;
    rc = runner_run(&r);
done:
    rc = dist_max_int(rc);
    dist_finalize();
    free(x);
    free(o);
    return rc;
}
