/* stream_main.c: the STREAM driver shared by stream-cpu and stream-gpu: parse, check that every
 * case fits, then sweep precision x kernel x size x offsets x launch shape, writing one verified
 * row per case as soon as it is measured. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "output.h"
#include "energy.h"
#include "progress.h"
#include "stats.h"
#include "stream.h"
#include "stream_opts.h"
#include "sysinfo.h"

extern const char stream_backend_name[]; /* "cpu" or "gpu", from the backend */

struct run_ctx {
    const struct stream_opts *o;
    const struct stream_device *dev;
    const struct sysinfo_host *host;
    struct output out;
    double *times;
    int ntimes; /* room in times */
    struct energy_session energy;
    int failures;
    int ncases, icase, rows;
    int write_failed; /* the output cannot be written: exit OUTPUT_EXIT */
    struct progress prog;
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
    return bytes / prec_size(p);
}

static size_t max_of(const struct cli_list *l)
{
    size_t m = 0;
    for (size_t i = 0; i < l->n; i++)
        m = l->v[i] > m ? l->v[i] : m;
    return m;
}

/* Bytes the largest case allocates: stream_layout with the coarsest rounding either backend uses,
 * the largest offsets and the stagger, so it bounds what any backend asks for. */
static double largest_case_bytes(const struct stream_device *d, const struct stream_opts *o)
{
    double worst = 0;
    size_t nsizes = o->sizes.n ? o->sizes.n : 1;
    struct stream_case c;
    struct stream_layout l;

    memset(&c, 0, sizeof c);
    c.read_offset = max_of(&o->read_offsets);
    c.write_offset = max_of(&o->write_offsets);
    for (int ki = 0; ki < o->nkernels; ki++) {
        for (int pi = 0; pi < o->nprecs; pi++) {
            for (size_t si = 0; si < nsizes; si++) {
                c.kernel = (enum stream_kernel)o->kernels[ki];
                c.prec = (enum prec)o->precs[pi];
                c.n = elements_for(d, o, si, c.kernel, c.prec);
                if (stream_layout(&c, 65536, 192, &l) == 0 && (double)l.total > worst)
                    worst = (double)l.total;
            }
        }
    }
    return worst;
}

static void fill_row(struct csv_record *r, const struct run_ctx *x, const struct stream_case *c,
                     const struct stream_launch *u, const struct stats *st, int reps, size_t bad,
                     double max_err, const struct energy_reading *e)
{
    struct stream_traffic tr;
    double n = (double)c->n;

    stream_traffic(c->kernel, prec_size(c->prec), stream_write_allocates(c->kernel), &tr);
    device_row_init(r, &x->dev->dev, x->host->host, "stream", x->o->peak_bw_GBs);
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
    energy_fill_row(r, e, x->energy.idle_W, 0, tr.dram_bytes * n * reps);
}

/* Repetitions that fill the energy window, judged from the warm-up (or one probe run when there
 * is none); the user's count when nothing is measured. */
static int window_reps(struct run_ctx *x, struct stream_arrays *s, char *err, size_t errlen)
{
    int reps = x->o->reps;
    struct stats st;
    if (!x->energy.m) return reps;
    if (x->o->warmup == 0 && stream_run(s, 1, x->times, err, errlen)) return -1;
    /* the fastest warm-up run (or the probe) */
    if (stats_compute(x->times, x->o->warmup > 0 ? (size_t)x->o->warmup : 1, &st))
        st.min = 0; /* no estimate: the user's count */
    reps = energy_reps_for_window(reps, st.min, 1000000);
    if (stats_reserve(&x->times, &x->ntimes, reps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return reps;
}

/* `reps` runs of the kernel, one call each, so that an interrupt is seen between two of them. */
static int run_reps(struct stream_arrays *s, int reps, double *times, char *err, size_t errlen)
{
    for (int r = 0; r < reps; r++) {
        if (interrupt_requested()) {
            snprintf(err, errlen, "interrupted");
            return 1;
        }
        if (stream_run(s, 1, &times[r], err, errlen)) return 1;
    }
    return 0;
}

/* Allocate, warm up, time, check, write. Returns 0, or 1 on a runtime error (message printed) or
 * an interrupt (the case dropped, nothing printed), or a failed write (x->write_failed). */
static int run_case(struct run_ctx *x, const struct stream_case *c)
{
    struct stream_arrays *s = NULL;
    struct stream_launch used;
    struct stats st;
    struct csv_record row;
    struct energy_reading energy;
    size_t bad = 0;
    double max_err = 0;
    int reps, measured, failed;
    char err[256];

    char what[128];
    x->icase++;
    snprintf(what, sizeof what, "%s %s, %zu elements per array", stream_kernel_names[c->kernel],
             prec_name(c->prec), c->n);
    progress_case(&x->prog, x->icase, what);
    memset(&used, 0, sizeof used);
    if (stream_alloc(&s, c, &used, err, sizeof err)) goto fail;
    if (x->o->warmup > 0 && run_reps(s, x->o->warmup, x->times, err, sizeof err)) goto fail;
    reps = window_reps(x, s, err, sizeof err);
    if (reps < 0) goto fail;
    for (int tries = 1;; tries++) { /* until the window is long enough: warm-up estimates err */
        int more;
        measured = energy_session_begin(&x->energy) == 0;
        failed = run_reps(s, reps, x->times, err, sizeof err);
        if (measured) /* a window that measured nothing still has its clocks */
            energy_session_end(&x->energy, &energy);
        if (failed) goto fail;
        more = measured ? energy_retry_reps(&energy, reps, tries, 1000000) : 0;
        if (!more) break;
        if (stats_reserve(&x->times, &x->ntimes, more)) {
            snprintf(err, sizeof err, "out of memory");
            goto fail;
        }
        reps = more;
    }
    if (measured) energy_session_report(&x->energy, &energy);
    if (stream_check(s, &bad, &max_err, err, sizeof err)) goto fail;
    stream_free(s);
    s = NULL;
    if (stats_compute(x->times, (size_t)reps, &st)) {
        snprintf(err, sizeof err, "invalid timings");
        goto fail;
    }
    fill_row(&row, x, c, &used, &st, reps, bad, max_err, measured ? &energy : NULL);
    if (bad) {
        fprintf(stderr,
                "%s: VERIFICATION FAILED: %s %s n=%zu: %zu of %zu destination elements "
                "wrong\n",
                prog, stream_kernel_names[c->kernel], prec_name(c->prec), c->n, bad, c->n);
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
    stream_free(s);
    if (interrupt_requested()) return 1; /* the unfinished case is dropped; main says so */
    fprintf(stderr, "%s: error: %s %s n=%zu: %s\n", prog, stream_kernel_names[c->kernel],
            prec_name(c->prec), c->n, err);
    return 1;
}

/* The launch-shape sweep of one (kernel, precision, size, offsets). */
enum sweep_mode { SWEEP_COUNT, SWEEP_RUN }; /* count the cases, or run them */
static int sweep_launch(struct run_ctx *x, struct stream_case c, enum sweep_mode mode)
{
    const struct stream_opts *o = x->o;
    int uses_launch = strcmp(x->dev->dev.backend, "gpu") == 0 && c.kernel != STREAM_MEMCPY;
    /* cpu: --threads takes --block's place (the parser allows each on its own backend only) */
    const struct cli_list *tl = uses_launch ? &o->block : &o->threads;
    size_t nb = tl->n ? tl->n : 1;
    size_t ng = uses_launch && o->blocks.n ? o->blocks.n : 1;
    size_t ni = uses_launch && o->ilp.n ? o->ilp.n : 1;
    int n = 0;

    for (size_t b = 0; b < nb; b++) {
        for (size_t g = 0; g < ng; g++) {
            for (size_t i = 0; i < ni; i++) {
                c.threads = tl->n ? (int)tl->v[b] : 0;
                c.blocks = uses_launch && o->blocks.n ? (long)o->blocks.v[g] : 0;
                c.ilp = uses_launch && o->ilp.n ? (int)o->ilp.v[i] : 0;
                c.scalar = o->scalar;
                n++;
                if (mode == SWEEP_RUN && interrupt_requested()) return -2;
                if (mode == SWEEP_RUN && run_case(x, &c))
                    return interrupt_requested() && !x->write_failed ? -2 : -1;
            }
        }
    }
    return n;
}

static int sweep(struct run_ctx *x, enum sweep_mode mode)
{
    const struct stream_opts *o = x->o;
    size_t nsizes = o->sizes.n ? o->sizes.n : 1;
    int total = 0;

    for (int pi = 0; pi < o->nprecs; pi++) {
        for (int ki = 0; ki < o->nkernels; ki++) {
            for (size_t si = 0; si < nsizes; si++) {
                for (size_t ri = 0; ri < o->read_offsets.n; ri++) {
                    for (size_t wi = 0; wi < o->write_offsets.n; wi++) {
                        struct stream_case c;
                        int n;
                        memset(&c, 0, sizeof c);
                        c.kernel = (enum stream_kernel)o->kernels[ki];
                        c.prec = (enum prec)o->precs[pi];
                        c.n = elements_for(x->dev, o, si, c.kernel, c.prec);
                        c.read_offset = o->read_offsets.v[ri];
                        c.write_offset = o->write_offsets.v[wi];
                        n = sweep_launch(x, c, mode);
                        if (n < 0) return n;
                        total += n;
                    }
                }
            }
        }
    }
    return total;
}

static int supported(int k, char *why, size_t whylen)
{
    return stream_kernel_supported((enum stream_kernel)k, why, whylen);
}

int main(int argc, char **argv)
{
    struct stream_opts *o = calloc(1, sizeof *o);
    struct stream_device dev;
    struct sysinfo_host host;
    struct run_ctx x;
    char err[512];
    int rc;
    double need, avail;

    memset(&x, 0, sizeof x);
    x.out.fd = -1;
    prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    interrupt_install(prog);
    if (!o) {
        rc = cli_error(prog, 1, "out of memory");
        goto done;
    }
    rc = stream_opts_parse(argc, argv, stream_backend_name, o, err, sizeof err);
    if (rc == -1) {
        rc = 0; /* help or version printed */
        goto done;
    }
    if (rc) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    memset(&dev, 0, sizeof dev);
    if (stream_backend_open(&dev, err, sizeof err) ||
        cli_select_supported(o->kernels, &o->nkernels, STREAM_KERNEL_COUNT, stream_kernel_names,
                             "--kernel", supported, err, sizeof err)) {
        rc = cli_error(prog, 2, "%s", err);
        goto done;
    }
    sysinfo_host_get(&host);
    need = largest_case_bytes(&dev, o);
    avail = (double)stream_memory_available();
    if (avail > 0 && need > 0.9 * avail) {
        rc = cli_error(prog, 2,
                       "the largest case needs %.2f GiB but only %.2f GiB are available: "
                       "choose a smaller --size (bytes per array)",
                       need / 1073741824.0, avail / 1073741824.0);
        goto done;
    }
    if (!o->sizes.n) fprintf(stderr, "%s: %s\n", prog, dev.default_why);

    x.o = o;
    x.dev = &dev;
    x.host = &host;
    x.ntimes = o->reps > o->warmup ? o->reps : o->warmup;
    x.times = malloc((size_t)x.ntimes * sizeof *x.times);
    x.ncases = sweep(&x, SWEEP_COUNT);
    if (!x.times) {
        rc = cli_error(prog, 1, "out of memory");
        goto done;
    }
    rc = output_open(&x.out, o->out, o->out_mode, csv_write_header, err, sizeof err);
    if (rc) {
        rc = cli_error(prog, rc, "%s", err);
        goto done;
    }
    energy_session_open(&x.energy, prog, true, "");
    progress_start(&x.prog, prog, x.ncases);
    rc = sweep(&x, SWEEP_RUN);
    if (rc == -2) {
        fprintf(stderr,
                "%s: interrupted: %d of %d cases measured and written, the unfinished "
                "one dropped; the rows written are complete\n",
                prog, x.rows, x.ncases);
        rc = 130;
    } else {
        rc = rc < 0 ? 1 : 0;
    }
    if (x.failures) {
        fprintf(stderr, "%s: %d case(s) failed verification (verified=fail in their rows)\n", prog,
                x.failures);
        rc = 1;
    }
    if (x.write_failed) rc = OUTPUT_EXIT;
done:
    energy_session_close(&x.energy);
    if (output_close(&x.out, err, sizeof err)) rc = cli_error(prog, OUTPUT_EXIT, "%s", err);
    free(x.times);
    free(o);
    return rc;
}
