/* stream_main.c: the STREAM driver shared by stream-cpu and stream-gpu: its cases (precision x
 * kernel x size x offsets x launch shape) for common/runner.c, which checks that every case fits,
 * then runs them, writing one verified row per case as soon as it is measured. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "energy.h"
#include "progress.h"
#include "runner.h"
#include "stats.h"
#include "stream.h"
#include "stream_opts.h"
#include "sysinfo.h"

extern const char stream_backend_name[]; /* "cpu" or "gpu", from the backend */

struct run_ctx {
    const struct stream_opts *o;
    const struct stream_device *dev;
    const struct sysinfo_host *host;
    /* [precision index x sizes.n + size index]: 1 where an earlier --size of the list gives the
     * same element count in that precision (the case runs once, as a size named twice); NULL
     * without --size */
    const unsigned char *size_dup;
};

static const char *prog = "stream";

static size_t elements_for(const struct stream_device *d, const struct stream_opts *o, size_t i,
                           enum stream_kernel k, enum prec p)
{
    size_t bytes = o->sizes.n ? o->sizes.v[i] : d->default_bytes;
    int loads, stores;
    stream_kernel_arrays(k, &loads, &stores);
    /* default: copy19 spreads copy's working set over its 38 arrays; STREAM's kernels (up to 3
     * arrays) keep the default per array, as STREAM sizes each array */
    if (!o->sizes.n && loads > 2) bytes /= (size_t)loads;
    return bytes / prec_size(p); /* whole elements, rounded down (size_elements says so) */
}

/* whether `bytes` is not a whole number of precision p's elements (it runs rounded down) */
static int rounds_down(size_t bytes, enum prec p)
{
    return bytes % prec_size(p) != 0;
}

/* The sizes in whole elements: a size that is not a multiple of the element rounds down (STREAM
 * and BabelStream size their arrays in elements), and one that then comes to the element count of
 * a size before it is marked in dup (nprecs x sizes.n, zeroed) to run once. note: one line for
 * stderr when any size was rounded, else empty. Its counts are of --size values, each counted
 * once however many of the precisions it is rounded down or repeated in: a user counts the sizes
 * given, and --precision sp,dp must not double them. */
static void size_elements(const struct stream_opts *o, unsigned char *dup, char *note, size_t len)
{
    const size_t n = o->sizes.n;
    size_t rounded = 0, dups = 0; /* sizes rounded down / run once in one precision or more */
    note[0] = '\0';
    for (int pi = 0; pi < o->c.nprecs; pi++) {
        const enum prec p = (enum prec)o->c.precs[pi];
        const size_t es = prec_size(p);
        for (size_t si = 0; si < n; si++) {
            const size_t b = o->sizes.v[si];
            if (!rounds_down(b, p))
                continue; /* distinct whole sizes: cli_opt_list removed repeats */
            if (note[0] == '\0')
                snprintf(note, len,
                         "--size %zu bytes is not a whole number of %s elements (%zu bytes): it "
                         "runs as %zu elements (%zu bytes)",
                         b, prec_name(p), es, b / es, b / es * es);
            /* two sizes of one element count: at least one of them is rounded, so looking from
             * every rounded one finds each pair; the later of the two is the repeat */
            for (size_t sj = 0; sj < n; sj++)
                if (sj != si && o->sizes.v[sj] / es == b / es)
                    dup[(size_t)pi * n + (sj < si ? si : sj)] = 1;
        }
    }
    for (size_t si = 0; si < n; si++) {
        int r = 0, d = 0;
        for (int pi = 0; pi < o->c.nprecs; pi++) {
            r |= rounds_down(o->sizes.v[si], (enum prec)o->c.precs[pi]);
            d |= dup[(size_t)pi * n + si];
        }
        rounded += (size_t)r;
        dups += (size_t)d;
    }
    if (rounded > 1)
        snprintf(note + strlen(note), len - strlen(note), "; %zu more size%s rounded down likewise",
                 rounded - 1, rounded > 2 ? "s are" : " is");
    if (dups)
        snprintf(note + strlen(note), len - strlen(note),
                 "; %zu size%s the element count of an earlier size in a precision and %s not "
                 "run again in it",
                 dups, dups > 1 ? "s come to" : " comes to", dups > 1 ? "do" : "does");
}

static void fill_row(struct csv_record *r, const struct run_ctx *x, const struct stream_case *c,
                     const struct stream_launch *u, const struct stats *st, int reps, size_t bad,
                     double max_err, const struct energy_reading *e, double idle_W)
{
    struct stream_traffic tr;
    double n = (double)c->n;

    stream_traffic(c->kernel, prec_size(c->prec), stream_write_allocates(c->kernel), &tr);
    device_row_init(r, &x->dev->dev, x->host->host, "stream", x->o->c.peak_bw_GBs);
    csv_set(r->kernel, stream_kernel_names[c->kernel]);
    csv_set(r->precision, prec_name(c->prec));
    r->nx = (int64_t)c->n;
    r->ny = r->nz = 1;
    r->pad = 0;
    r->pitch = (int64_t)c->n;
    r->cells = r->fluid_cells = (int64_t)c->n;
    r->threads = u->threads;
    if (u->binding[0]) /* this case's own thread count and placement */
        csv_set(r->binding, u->binding);
    r->blocks = u->blocks;
    r->occupancy = u->occupancy;
    r->vector_bytes = u->vector_bytes;
    r->ilp = u->ilp;
    r->read_offset = (int64_t)c->read_offset;
    r->write_offset = (int64_t)c->write_offset;
    r->steps = 1;
    r->reps = reps;
    r->t_min_s = st->min;
    r->t_med_s = st->med;
    r->t_max_s = st->max;
    r->prog_bytes = tr.prog_bytes;
    r->dram_bytes = tr.dram_bytes;
    r->write_allocate = tr.write_allocate;
    r->bw_prog_GBs = tr.prog_bytes * n / st->min * 1e-9;
    r->bw_prog_med_GBs = tr.prog_bytes * n / st->med * 1e-9;
    r->bw_dram_GBs = tr.dram_bytes * n / st->min * 1e-9;
    r->bw_dram_med_GBs = tr.dram_bytes * n / st->med * 1e-9;
    r->max_rel_err = max_err;
    csv_set(r->verified, bad == 0 ? "pass" : "fail");
    /* the energy window held every timed repetition: n elements x reps */
    energy_fill_row(r, e, idle_W, 0, tr.dram_bytes * n * reps);
}

/* Repetitions that fill the energy window, judged from the warm-up (or one probe run when there
 * is none); the user's count when nothing is measured. */
static int window_reps(const struct stream_opts *o, struct runner *r, struct stream_arrays *s,
                       char *err, size_t errlen)
{
    int reps = o->c.reps;
    struct stats st;
    if (!r->energy.m) return reps;
    if (o->c.warmup == 0 && stream_run(s, 1, r->times, err, errlen)) return -1;
    /* the fastest warm-up run (or the probe) */
    if (stats_compute(r->times, o->c.warmup > 0 ? (size_t)o->c.warmup : 1, &st))
        st.min = 0; /* no estimate: the user's count */
    reps = energy_reps_for_window(reps, st.min, 1000000);
    if (stats_reserve(&r->times, &r->ntimes, reps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return reps;
}

/* `reps` runs of the kernel, one call each, so that an interrupt is seen between two of them. */
static int run_reps(struct stream_arrays *s, int reps, double *times, char *err, size_t errlen)
{
    for (int r = 0; r < reps; r++) {
        if (interrupt_stop(err, errlen) || stream_run(s, 1, &times[r], err, errlen)) return 1;
    }
    return 0;
}

/* One timed set into r->times: runs of the kernel, one call each (an interrupt is seen between
 * two), until r->quiet has `reps` quiet ones or gives up (exactly `reps` runs without a probe).
 * The runs made, or -1 (err says why). */
static int judged_reps(struct runner *r, struct stream_arrays *s, int reps, char *err,
                       size_t errlen)
{
    if (stats_reserve(&r->times, &r->ntimes,
                      r->quiet.probe ? QUIET_ATTEMPTS_FACTOR * reps : reps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    quiet_begin(&r->quiet, reps);
    while (quiet_more(&r->quiet)) {
        if (interrupt_stop(err, errlen) || stream_run(s, 1, &r->times[r->quiet.made], err, errlen))
            return -1;
        if (quiet_after(&r->quiet, r->times[r->quiet.made])) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return r->quiet.made;
}

/* The timed repetitions, as many as fill the energy window (and as r->quiet wants): their count,
 * or -1 (err says why). */
static int time_reps(const struct stream_opts *o, struct runner *r, struct stream_arrays *s,
                     struct energy_reading *energy, int *measured, char *err, size_t errlen)
{
    int reps = window_reps(o, r, s, err, errlen);
    if (reps < 0) return -1;
    for (int tries = 1;; tries++) { /* until the window is long enough: warm-up estimates err */
        int more, made;
        *measured = energy_session_begin(&r->energy) == 0;
        made = judged_reps(r, s, reps, err, errlen);
        if (*measured) /* a window that measured nothing still has its clocks */
            energy_session_end(&r->energy, energy);
        if (made < 0) return -1;
        more = *measured ? energy_retry_reps(energy, made, tries, 1000000) : 0;
        if (!more) return made;
        if (stats_reserve(&r->times, &r->ntimes, more)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        reps = more;
    }
}

/* Allocate, warm up, time, check, write (runner_ops.run). */
static int run_case(void *ctx, struct runner *r, const void *cp, const char *what)
{
    const struct run_ctx *x = ctx;
    const struct stream_case *c = cp;
    struct stream_arrays *s = NULL;
    struct stream_launch used;
    struct stats st;
    struct csv_record row;
    struct energy_reading energy;
    size_t bad = 0;
    double max_err = 0;
    int reps, measured = 0;
    char err[256];

    (void)what;
    memset(&used, 0, sizeof used);
    progress_phase("setup");
    if (stream_alloc(&s, c, &used, err, sizeof err)) goto fail;
    r->quiet.threads = used.threads; /* the probe times the kernel's own team */
    if (x->o->c.warmup > 0 && run_reps(s, x->o->c.warmup, r->times, err, sizeof err)) goto fail;
    progress_phase("timed");
    reps = time_reps(x->o, r, s, &energy, &measured, err, sizeof err);
    if (reps < 0) goto fail;
    if (measured) energy_session_report(&r->energy, &energy);
    if (stream_check(s, &bad, &max_err, err, sizeof err)) goto fail;
    stream_free(s);
    s = NULL;
    /* the quiet repetitions only (all of them when none was quiet) */
    if (stats_compute(r->times, (size_t)quiet_select(&r->quiet, r->times), &st)) {
        snprintf(err, sizeof err, "invalid timings");
        goto fail;
    }
    fill_row(&row, x, c, &used, &st, reps, bad, max_err, measured ? &energy : NULL,
             r->energy.idle_W);
    quiet_fill_row(&r->quiet, &row);
    if (bad) {
        fprintf(stderr,
                "%s: VERIFICATION FAILED: %s %s n=%zu: %zu of %zu destination elements "
                "wrong\n",
                prog, stream_kernel_names[c->kernel], prec_name(c->prec), c->n, bad, c->n);
        r->failures++;
    }
    return runner_write(r, &row);
fail:
    stream_free(s);
    if (interrupt_requested()) return 1; /* the unfinished case is dropped; the runner says so */
    fprintf(stderr, "%s: error: %s %s n=%zu: %s\n", prog, stream_kernel_names[c->kernel],
            prec_name(c->prec), c->n, err);
    return 1;
}

/* The launch shapes of one (kernel, precision, size, offsets), each a case. */
static int expand_launch(const struct run_ctx *x, struct runner *r, struct stream_case c)
{
    const struct stream_opts *o = x->o;
    const int uses_launch = x->dev->dev.grid_launch && c.kernel != STREAM_MEMCPY;
    /* cpu: --threads takes --block's place (the parser allows each on its own backend only) */
    const struct cli_list *tl = uses_launch ? &o->block : &o->c.threads;
    size_t nb = tl->n ? tl->n : 1;
    size_t ng = uses_launch && o->blocks.n ? o->blocks.n : 1;
    size_t ni = uses_launch && o->ilp.n ? o->ilp.n : 1;

    for (size_t b = 0; b < nb; b++) {
        for (size_t g = 0; g < ng; g++) {
            for (size_t i = 0; i < ni; i++) {
                c.threads = tl->n ? (int)tl->v[b] : 0;
                c.blocks = uses_launch && o->blocks.n ? (long)o->blocks.v[g] : 0;
                c.ilp = uses_launch && o->ilp.n ? (int)o->ilp.v[i] : 0;
                c.scalar = o->scalar;
                if (runner_add(r, &c)) return 1;
            }
        }
    }
    return 0;
}

/* precision x kernel x size x read offset x write offset x launch shape (runner_ops.expand) */
static int expand(void *ctx, struct runner *r)
{
    const struct run_ctx *x = ctx;
    const struct stream_opts *o = x->o;
    size_t nsizes = o->sizes.n ? o->sizes.n : 1;

    for (int pi = 0; pi < o->c.nprecs; pi++) {
        for (int ki = 0; ki < o->nkernels; ki++) {
            char why[256];
            if (stream_prec_supported((enum stream_kernel)o->kernels[ki], (enum prec)o->c.precs[pi],
                                      why, sizeof why))
                continue; /* kernels by default: not this precision's (main refused the rest) */
            /* an offset the kernel does not apply would only relabel the same measurement: one
             * case for it, written 0 (store reads nothing, load writes nothing), except an
             * in-place kernel's write offset, which is its one array's read offset */
            int reads, writes;
            stream_kernel_offsets((enum stream_kernel)o->kernels[ki], &reads, &writes);
            const int in_place = stream_kernel_in_place((enum stream_kernel)o->kernels[ki]) == 1;
            const size_t nro = reads ? o->read_offsets.n : 1;
            const size_t nwo = writes ? o->write_offsets.n : 1;
            for (size_t si = 0; si < nsizes; si++) {
                if (x->size_dup && x->size_dup[(size_t)pi * nsizes + si]) continue;
                for (size_t ri = 0; ri < nro; ri++) {
                    for (size_t wi = 0; wi < nwo; wi++) {
                        struct stream_case c;
                        memset(&c, 0, sizeof c);
                        c.kernel = (enum stream_kernel)o->kernels[ki];
                        c.prec = (enum prec)o->c.precs[pi];
                        c.n = elements_for(x->dev, o, si, c.kernel, c.prec);
                        c.read_offset = reads ? o->read_offsets.v[ri] : 0;
                        c.write_offset = in_place ? c.read_offset
                                         : writes ? o->write_offsets.v[wi]
                                                  : 0;
                        if (expand_launch(x, r, c)) return 1;
                    }
                }
            }
        }
    }
    return 0;
}

/* Bytes the case allocates: stream_layout with the coarsest rounding either backend uses, so it
 * bounds what any backend asks for (runner_ops.check; the kernels were checked at open). */
static int check(void *ctx, const void *cp, size_t *bytes, char *why, size_t whylen)
{
    struct stream_layout l;
    (void)ctx, (void)why, (void)whylen;
    *bytes = stream_layout(cp, 65536, 192, &l) == 0 ? l.total : 0;
    return 0;
}

static void describe(void *ctx, const void *cp, char *what, size_t len)
{
    const struct stream_case *c = cp;
    (void)ctx;
    snprintf(what, len, "%s %s, %zu elements per array", stream_kernel_names[c->kernel],
             prec_name(c->prec), c->n);
}

static int supported(int k, char *why, size_t whylen)
{
    return stream_kernel_supported((enum stream_kernel)k, why, whylen);
}

static const struct runner_ops ops = {sizeof(struct stream_case), expand, check, describe,
                                      run_case};

int main(int argc, char **argv)
{
    struct stream_opts *o = calloc(1, sizeof *o);
    struct stream_device dev;
    struct sysinfo_host host;
    struct run_ctx x = {o, &dev, &host, NULL};
    struct runner r;
    char err[512];
    int rc;

    cli_std_fds();
    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    interrupt_install(prog);
    if (!o) return cli_error(prog, 1, "out of memory");
    rc = stream_opts_parse(argc, argv, stream_backend_name, o, err, sizeof err);
    if (rc) {
        free(o);
        return rc == -1 ? 0 : cli_error(prog, 2, "%s", err); /* -1: help or version printed */
    }
    memset(&dev, 0, sizeof dev);
    const int all_kernels = o->nkernels == 0;
    if (stream_backend_open(&dev, err, sizeof err) ||
        cli_check_threads(&o->c.threads, dev.dev.cpus, dev.dev.default_threads, err, sizeof err) ||
        cli_select_supported(o->kernels, &o->nkernels, STREAM_KERNEL_COUNT, stream_kernel_names,
                             "--kernel", supported, err, sizeof err)) {
        free(o);
        return cli_error(prog, 2, "%s", err);
    }
    /* before any row: every pair given must run; without --kernel, each precision runs the
     * kernels it has (expand skips the others: --precision sp,fp16s gives every sp kernel and
     * the 2-byte copies), and one that has none is refused */
    for (int pi = 0; pi < o->c.nprecs; pi++) {
        int runs = 0;
        for (int ki = 0; ki < o->nkernels; ki++) {
            if (!stream_prec_supported((enum stream_kernel)o->kernels[ki],
                                       (enum prec)o->c.precs[pi], err, sizeof err))
                runs++;
            else if (!all_kernels) {
                free(o);
                return cli_error(prog, 2, "%s", err);
            }
        }
        if (runs == 0) { /* err: the last kernel's reason */
            free(o);
            return cli_error(prog, 2, "%s", err);
        }
    }
    char size_note[512];
    unsigned char *dup = NULL;
    if (o->sizes.n) {
        dup = calloc((size_t)o->c.nprecs * o->sizes.n, 1);
        if (!dup) {
            free(o);
            return cli_error(prog, 1, "out of memory");
        }
        size_elements(o, dup, size_note, sizeof size_note);
        x.size_dup = dup;
    }
    sysinfo_host_get(&host);
    memset(&r, 0, sizeof r);
    r.prog = prog;
    r.ops = &ops;
    r.ctx = &x;
    r.out = o->c.out;
    r.out_mode = o->c.out_mode;
    r.memory_available = stream_memory_available();
    r.needs_what = "the largest case";
    r.needs_per = "";
    r.needs_hint = "choose a smaller --size (bytes per array)";
    r.note = !o->sizes.n ? dev.default_why : size_note[0] ? size_note : NULL;
    r.energy_enabled = true;
    r.energy_why_off = "";
    r.ntimes = o->c.reps > o->c.warmup ? o->c.reps : o->c.warmup;
    r.quiet.probe = o->c.quiet_wait_off ? NULL : dev.dev.clock_probe;
    r.check_only = o->c.check_only;
    rc = runner_run(&r);
    free(dup);
    free(o);
    return rc;
}
