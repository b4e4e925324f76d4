/* ceiling.c: ceilings in one convention (modelled DRAM bytes on both sides), percent of ceiling
 * and of the theoretical peak, the flags a reader must not miss; the ceiling index and the
 * checks of every number read. */
#include "ceiling.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbm_model.h"
#include "stream_model.h"

double roof_ceiling_mflups(double bw_GBs, double bytes_per_update)
{
    return bw_GBs * 1e9 / bytes_per_update / 1e6;
}

int roof_eq(const char *a, const char *b)
{
    return a == b || strcmp(a, b) == 0;
}

int roof_same_device(const struct csv_row *a, const struct csv_row *b)
{
    return roof_eq(a->host, b->host) && roof_eq(a->device, b->device) &&
           roof_eq(a->backend, b->backend) && roof_eq(a->precision, b->precision);
}

static int cmp_machine_build(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device)) ||
        (c = strcmp(a->backend, b->backend)))
        return c;
    return strcmp(a->version, b->version);
}

int roof_warn_builds(const struct csv_table *t)
{
    size_t *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    if (!idx) return 1;
    for (size_t i = 0; i < t->n; i++)
        idx[i] = i;
    roof_sort_rows(t, idx, t->n, cmp_machine_build);
    for (size_t k = 0; k < t->n;) {
        const struct csv_row *a = &t->rows[idx[k]];
        size_t j = k, builds = 1;
        for (; j < t->n && roof_eq(t->rows[idx[j]].host, a->host) &&
               roof_eq(t->rows[idx[j]].device, a->device) &&
               roof_eq(t->rows[idx[j]].backend, a->backend);
             j++)
            builds += j > k && !roof_eq(t->rows[idx[j]].version, t->rows[idx[j - 1]].version);
        if (builds > 1)
            fprintf(stderr,
                    "roofline: warning: host %s, device %s (%s): rows of %zu builds (%s to %s) "
                    "read as one machine; where they are two machines of one host name, give "
                    "them apart\n",
                    a->host, a->device, a->backend, builds, a->version,
                    t->rows[idx[j - 1]].version);
        k = j;
    }
    free(idx);
    return 0;
}

/* Devices whose bandwidth a row used: one per rank on the GPU; CPU ranks share their host's
 * memory (the ranks of one node are compared with that node's ceiling). */
double roof_devices(const struct csv_row *r)
{
    return r->ranks > 1 && strcmp(r->backend, "gpu") == 0 ? (double)r->ranks : 1.0;
}

/* bytes of one stored distribution value: program bytes are 38 per update (19 loads, 19
 * stores); by name when the row lacks them */
static double element_bytes(const struct csv_row *r)
{
    if (r->prog_bytes > 0) return r->prog_bytes / 38.0;
    if (strcmp(r->precision, "sp") == 0) return 4;
    if (strcmp(r->precision, "hp") == 0 || strcmp(r->precision, "fp16") == 0) return 2;
    return 8;
}

int roof_cache_resident(const struct csv_row *r)
{
    if (strcmp(r->bench, "stream") == 0) { /* the arrays it touches: bytes an element x n */
        const double arrays = r->prog_bytes * (double)r->nx /
                              (roof_is_stream_in_place(r->kernel) ? 2.0 : 1.0); /* update: one */
        return r->llc_bytes > 0 && arrays <= 2.0 * (double)r->llc_bytes;
    }
    double s = element_bytes(r);
    double pitch = r->pitch > 0 ? (double)r->pitch : (double)r->nx;
    double ny = r->local_ny > 0 ? (double)r->local_ny : (double)r->ny;
    double nz = r->local_nz > 0 ? (double)r->local_nz : (double)r->nz;
    const double lattices = roof_is_lbm_in_place(r->kernel) ? 1.0 : 2.0; /* aa: one */
    double bytes = lattices * 19.0 * pitch * ny * nz * s;                /* per rank */
    return r->llc_bytes > 0 && bytes <= 2.0 * (double)r->llc_bytes;
}

int roof_is_copy(const char *k)
{
    return strcmp(k, "copy") == 0 || strcmp(k, "copy_nt") == 0 || strcmp(k, "memcpy") == 0;
}

int roof_is_copy19(const char *k)
{
    return strcmp(k, "copy19") == 0 || strcmp(k, "copy19_nt") == 0;
}

int roof_is_stream_in_place(const char *k)
{
    for (int i = 0; i < STREAM_KERNEL_COUNT; i++)
        if (strcmp(k, stream_kernel_names[i]) == 0)
            return stream_kernel_in_place((enum stream_kernel)i) == 1;
    return 0;
}

int roof_is_lbm_in_place(const char *k)
{
    for (int i = 0; i < LBM_KERNEL_COUNT; i++)
        if (strcmp(k, lbm_kernel_names[i]) == 0) return lbm_lattices((enum lbm_kernel)i) == 1;
    return 0;
}

double roof_mflups_med(const struct csv_row *r)
{
    return r->mflups_med > 0 ? r->mflups_med : r->mflups;
}

double roof_mflups_min(const struct csv_row *r)
{
    double med = roof_mflups_med(r), min = med;
    if (r->t_min_s > 0 && r->t_max_s > 0)
        min = r->mflups * r->t_min_s / r->t_max_s; /* the slowest repetition */
    return min < med ? min : med;
}

/* ---- stable sorting of row indices (qsort has no context argument in C11) ---- */
static const struct csv_table *sort_table;
static int (*sort_cmp)(const struct csv_row *, const struct csv_row *);

static int by_cmp_then_index(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = sort_cmp(&sort_table->rows[a], &sort_table->rows[b]);
    return c ? c : (a > b) - (a < b);
}

void roof_sort_rows(const struct csv_table *t, size_t *idx, size_t n,
                    int (*cmp)(const struct csv_row *, const struct csv_row *))
{
    sort_table = t;
    sort_cmp = cmp;
    qsort(idx, n, sizeof *idx, by_cmp_then_index);
}

/* ---- the ceiling index ---- */
struct roof_group {
    const struct csv_row *key;
    const struct csv_row *copy, *copy19, *in_place;
    size_t failed;          /* first copy row that failed verification, or SIZE_MAX */
    size_t in_place_failed; /* first in-place row that failed verification, or SIZE_MAX */
};

struct roof_ceilings {
    struct roof_group *g;
    size_t n;
};

static int cmp_store(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device)) ||
        (c = strcmp(a->backend, b->backend)) || (c = strcmp(a->precision, b->precision)))
        return c;
    return (a->write_allocate > b->write_allocate) - (a->write_allocate < b->write_allocate);
}

static int is_ceiling_kernel(const struct csv_row *r)
{
    return strcmp(r->bench, "stream") == 0 &&
           (roof_is_copy(r->kernel) || roof_is_copy19(r->kernel) ||
            roof_is_stream_in_place(r->kernel));
}

int roof_faster_ceiling(const struct csv_row *s, double s_bw, const struct csv_row *best,
                        double best_bw)
{
    const int in_s = roof_cache_resident(s), in_best = best ? roof_cache_resident(best) : 1;
    return !best || in_s < in_best || (in_s == in_best && s_bw > best_bw);
}

/* *best becomes s where s moves more DRAM bytes a second (or nothing was kept yet), out of the
 * cache first (roof_faster_ceiling) */
static void keep_fastest(const struct csv_row **best, const struct csv_row *s)
{
    if (roof_faster_ceiling(s, s->bw_dram_GBs, *best, *best ? (*best)->bw_dram_GBs : 0)) *best = s;
}

int roof_ceilings_build(const struct csv_table *t, struct roof_ceilings **out)
{
    struct roof_ceilings *c = calloc(1, sizeof *c);
    size_t n = 0, *idx = NULL;
    *out = NULL;
    if (!c) return 1;
    for (size_t i = 0; i < t->n; i++)
        n += is_ceiling_kernel(&t->rows[i]);
    idx = malloc((n ? n : 1) * sizeof *idx);
    c->g = malloc((n ? n : 1) * sizeof *c->g);
    if (!idx || !c->g) {
        free(idx);
        roof_ceilings_free(c);
        return 1;
    }
    n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (is_ceiling_kernel(&t->rows[i])) idx[n++] = i;
    roof_sort_rows(t, idx, n, cmp_store);
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *s = &t->rows[idx[k]];
        struct roof_group *g;
        if (c->n == 0 || cmp_store(c->g[c->n - 1].key, s) != 0) {
            g = &c->g[c->n++];
            g->key = s;
            g->copy = g->copy19 = g->in_place = NULL;
            g->failed = g->in_place_failed = SIZE_MAX;
        }
        g = &c->g[c->n - 1];
        if (strcmp(s->verified, "pass") != 0) {
            if (roof_is_copy(s->kernel) && g->failed == SIZE_MAX) g->failed = idx[k];
            if (roof_is_stream_in_place(s->kernel) && g->in_place_failed == SIZE_MAX)
                g->in_place_failed = idx[k];
            continue;
        }
        if (roof_is_copy(s->kernel)) keep_fastest(&g->copy, s);
        if (roof_is_copy19(s->kernel)) keep_fastest(&g->copy19, s);
        if (roof_is_stream_in_place(s->kernel)) keep_fastest(&g->in_place, s);
    }
    free(idx);
    *out = c;
    return 0;
}

void roof_ceilings_free(struct roof_ceilings *c)
{
    if (c) free(c->g);
    free(c);
}

const char *roof_copy_precision(const char *precision)
{
    return strcmp(precision, "fp16c") == 0 ? "fp16s" : precision;
}

static const struct roof_group *find_group(const struct roof_ceilings *c, const struct csv_row *lbm)
{
    size_t lo = 0, hi = c->n;
    struct csv_row key = *lbm; /* the copy's precision: fp16c's ceiling is fp16s's copy */
    key.precision = roof_copy_precision(lbm->precision);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = cmp_store(c->g[mid].key, &key);
        if (d == 0) return &c->g[mid];
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int roof_evaluate(const struct roof_ceilings *c, const struct csv_row *lbm, struct roof_eval *e)
{
    const struct roof_group *g = find_group(c, lbm);
    memset(e, 0, sizeof *e);
    e->lbm = lbm;
    e->ceiling_mflups = e->pct = e->pct_med = e->pct_min = NAN;
    e->copy19_mflups = e->pct_copy19 = e->pct_of_peak = NAN;
    e->in_place_mflups = e->pct_in_place = NAN;
    if (g) {
        e->copy = g->copy;
        e->copy19 = g->copy19;
        e->in_place = roof_is_lbm_in_place(lbm->kernel) ? g->in_place : NULL;
    }
    e->cache_resident = roof_cache_resident(lbm);
    if (lbm->peak_bw_GBs > 0 && lbm->bw_dram_GBs > 0)
        e->pct_of_peak = 100.0 * lbm->bw_dram_GBs / (lbm->peak_bw_GBs * roof_devices(lbm));
    if (e->copy19) {
        e->copy19_mflups =
            roof_ceiling_mflups(e->copy19->bw_dram_GBs * roof_devices(lbm), lbm->dram_bytes);
        e->pct_copy19 = 100.0 * lbm->mflups / e->copy19_mflups;
    }
    if (e->in_place) {
        e->in_place_mflups =
            roof_ceiling_mflups(e->in_place->bw_dram_GBs * roof_devices(lbm), lbm->dram_bytes);
        e->pct_in_place = 100.0 * lbm->mflups / e->in_place_mflups;
    }
    if (!e->copy) return 1;
    e->ceiling_mflups =
        roof_ceiling_mflups(e->copy->bw_dram_GBs * roof_devices(lbm), lbm->dram_bytes);
    e->pct = 100.0 * lbm->mflups / e->ceiling_mflups;
    e->pct_med = 100.0 * roof_mflups_med(lbm) / e->ceiling_mflups;
    e->pct_min = 100.0 * roof_mflups_min(lbm) / e->ceiling_mflups;
    e->ceiling_in_cache = roof_cache_resident(e->copy);
    e->above_ceiling = e->pct > 100.0 && !(e->in_place && e->pct_in_place <= 100.0);
    return 0;
}

void roof_flags(const struct roof_eval *e, int no_ceiling, int not_verified, char *f, size_t len)
{
    snprintf(f, len, "%s%s%s%s%s", no_ceiling ? "no_ceiling " : "",
             e->above_ceiling ? "above_ceiling " : "", e->cache_resident ? "cache_resident " : "",
             e->ceiling_in_cache ? "ceiling_in_cache " : "", not_verified ? "not_verified " : "");
    if (*f) f[strlen(f) - 1] = '\0';
}

int roof_in_place_failed(const struct roof_ceilings *c, const struct csv_table *t,
                         const struct csv_row *lbm, char *msg, size_t len)
{
    const struct roof_group *g = find_group(c, lbm);
    if (!roof_is_lbm_in_place(lbm->kernel) || !g || g->in_place || g->in_place_failed == SIZE_MAX)
        return 0;
    snprintf(msg, len,
             "the %s rows for host %s, device %s, backend %s, precision %s failed verification "
             "(%s:%ld): %s's in-place ceiling left out",
             t->rows[g->in_place_failed].kernel, lbm->host, lbm->device, lbm->backend,
             roof_copy_precision(lbm->precision), t->files[g->in_place_failed],
             t->lines[g->in_place_failed], lbm->kernel);
    return 1;
}

void roof_no_ceiling_reason(const struct roof_ceilings *c, const struct csv_table *t,
                            const struct csv_row *lbm, char *msg, size_t len)
{
    const struct roof_group *g = find_group(c, lbm);
    if (g && g->failed != SIZE_MAX)
        snprintf(msg, len,
                 "the stream copy rows for host %s, device %s, backend %s, precision %s with "
                 "write_allocate=%lld failed verification (%s:%ld): no ceiling; rerun stream-%s",
                 lbm->host, lbm->device, lbm->backend, roof_copy_precision(lbm->precision),
                 (long long)lbm->write_allocate, t->files[g->failed], t->lines[g->failed],
                 lbm->backend);
    else
        snprintf(msg, len,
                 "no stream copy rows for host %s, device %s, backend %s, precision %s with "
                 "write_allocate=%lld: run stream-%s there and pass its CSV too",
                 lbm->host, lbm->device, lbm->backend, roof_copy_precision(lbm->precision),
                 (long long)lbm->write_allocate, lbm->backend);
}

static int cmp_machine(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device))) return c;
    return strcmp(a->backend, b->backend);
}

int roof_machine_has_copy(const struct roof_ceilings *c, const struct csv_row *r)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) { /* the first group of r's machine: groups sort by machine first */
        const size_t mid = lo + (hi - lo) / 2;
        if (cmp_machine(c->g[mid].key, r) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < c->n && cmp_machine(c->g[lo].key, r) == 0; lo++)
        if (c->g[lo].copy) return 1;
    return 0;
}

/* the distinct reasons said at most: a sweep of many machines gets a count for the rest */
#define MAX_REASONS 16

/* msg on stderr unless said already (said[0..*nsaid)); beyond MAX_REASONS only counted */
static void say_once(const char *msg, char (*said)[512], int *nsaid, size_t *more)
{
    for (int k = 0; k < *nsaid; k++)
        if (strcmp(said[k], msg) == 0) return;
    if (*nsaid == MAX_REASONS) {
        (*more)++;
        return;
    }
    snprintf(said[(*nsaid)++], sizeof *said, "%s", msg);
    fprintf(stderr, "roofline: %s\n", msg);
}

void roof_say_missing_ceilings(const struct roof_ceilings *c, const struct csv_table *t)
{
    char said[MAX_REASONS][512], msg[512];
    int nsaid = 0;
    size_t more = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_row *r = &t->rows[i];
        struct roof_eval e;
        if (strcmp(r->bench, "lbm") != 0) continue;
        if (roof_evaluate(c, r, &e)) {
            roof_no_ceiling_reason(c, t, r, msg, sizeof msg);
            say_once(msg, said, &nsaid, &more);
        }
        if (roof_in_place_failed(c, t, r, msg, sizeof msg)) say_once(msg, said, &nsaid, &more);
    }
    if (more)
        fprintf(stderr,
                "roofline: and %zu more rows whose ceilings are missing for other reasons\n", more);
}

/* ---- numbers checked when read ---- */
enum need { NEED_POSITIVE, NEED_POSITIVE_OR_EMPTY };

struct num_check {
    const char *bench, *column;
    size_t offset;
    enum need need;
};

#define NUM(bench, col, need)                                                                      \
    {                                                                                              \
        bench, #col, offsetof(struct csv_row, col), need                                           \
    }
static const struct num_check num_checks[] = {
    NUM("stream", bw_dram_GBs, NEED_POSITIVE),
    NUM("stream", bw_prog_GBs, NEED_POSITIVE),
    NUM("stream", peak_bw_GBs, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", mflups, NEED_POSITIVE),
    NUM("lbm", mflups_med, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", dram_bytes, NEED_POSITIVE),
    NUM("lbm", prog_bytes, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", t_min_s, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", t_med_s, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", t_max_s, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", bw_dram_GBs, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", peak_bw_GBs, NEED_POSITIVE_OR_EMPTY),
    /* energy (report, summary, table, gate, plot): a meter's figure is positive or absent */
    NUM("lbm", energy_J, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", power_W, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", mflups_per_W, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", energy_polled_J, NEED_POSITIVE_OR_EMPTY),
    NUM("lbm", power_limit_W, NEED_POSITIVE_OR_EMPTY),
    NUM("stream", energy_J, NEED_POSITIVE_OR_EMPTY),
    NUM("stream", power_W, NEED_POSITIVE_OR_EMPTY),
    NUM("stream", GBs_per_W, NEED_POSITIVE_OR_EMPTY),
};

/* the counts energy per update divides by: an lbm row with energy_J needs each of them */
static const struct {
    const char *column;
    size_t offset;
} energy_counts[] = {
    {"fluid_cells", offsetof(struct csv_row, fluid_cells)},
    {"steps", offsetof(struct csv_row, steps)},
    {"reps", offsetof(struct csv_row, reps)},
};

double roof_nJ_per_update(const struct csv_row *r)
{
    double updates;
    if (!(r->energy_J > 0) || r->fluid_cells <= 0 || r->steps <= 0 || r->reps <= 0) return NAN;
    /* energy_J covers the timed set: every rank's fluid cells x steps x reps updates */
    updates = (double)r->fluid_cells * (double)r->steps * (double)r->reps;
    return r->energy_J / updates * 1e9;
}

double roof_polled_dev_pct(const struct csv_row *r)
{
    if (!(r->energy_J > 0) || !(r->energy_polled_J > 0)) return NAN;
    return 100.0 * (r->energy_polled_J - r->energy_J) / r->energy_J;
}

/* No bandwidth (GB/s), rate (MFLUP/s), byte count, time (s) or power the suite writes comes near
 * this; a finite value above it is a corrupt field, and would overflow the ceilings to inf. */
#define ROOF_NUMBER_MAX 1e12

int roof_check_numbers(const struct csv_table *t, size_t from, char *err, size_t len)
{
    for (size_t i = from; i < t->n; i++) {
        const struct csv_row *r = &t->rows[i];
        for (size_t k = 0; k < sizeof num_checks / sizeof num_checks[0]; k++) {
            const struct num_check *c = &num_checks[k];
            double v = *(const double *)((const char *)r + c->offset);
            if (strcmp(r->bench, c->bench) != 0) continue;
            if (isnan(v) && c->need == NEED_POSITIVE_OR_EMPTY)
                continue; /* an empty optional field (the reader stores NaN for it) */
            if (isfinite(v) && v > 0 && v < ROOF_NUMBER_MAX) continue;
            if (isnan(v)) /* the reader's NaN: an empty field (or the text nan), not a value */
                snprintf(err, len,
                         "%s:%ld: column %s is empty or not a number (a %s row needs a positive "
                         "number below %g there)",
                         t->files[i], t->lines[i], c->column, c->bench, ROOF_NUMBER_MAX);
            else
                snprintf(err, len,
                         "%s:%ld: column %s: value %g is not a positive number below %g (a %s "
                         "row needs one there%s)",
                         t->files[i], t->lines[i], c->column, v, ROOF_NUMBER_MAX, c->bench,
                         c->need == NEED_POSITIVE_OR_EMPTY ? ", or the field empty" : "");
            return 1;
        }
        if (strcmp(r->bench, "lbm") != 0 || isnan(r->energy_J)) continue;
        for (size_t k = 0; k < sizeof energy_counts / sizeof energy_counts[0]; k++) {
            int64_t v = *(const int64_t *)((const char *)r + energy_counts[k].offset);
            if (v > 0) continue;
            snprintf(err, len,
                     "%s:%ld: column %s: value %s is not a positive whole number (an lbm row "
                     "with energy_J needs one there: energy per update divides by it)",
                     t->files[i], t->lines[i], energy_counts[k].column, v < 0 ? "(empty)" : "0");
            return 1;
        }
    }
    return 0;
}
