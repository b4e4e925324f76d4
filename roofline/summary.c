/* summary.c: one row per device (host, device, backend): copy bandwidth in both conventions
 * against the theoretical figure, the best LBM rates sp and dp at the largest domain both
 * precisions were run at (where they share none, each at its own largest, said; never from a
 * cache-resident or above-ceiling case while a DRAM-bound one exists), their layouts, spread and
 * provenance, the other stream kernels' best bandwidth: the procurement view, with the work per
 * joule of the rows it reports where they carry energy. Several rows of one case (the main job's
 * rounds) count as one case: its best row, STREAM's rule, classified once, with the spread of the
 * rows beside it. Also the same per device as a short plain-text table (--table). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "quiet.h"
#include "roofline.h"

static int cmp_machine(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device))) return c;
    return strcmp(a->backend, b->backend);
}

/* within a machine: stream before lbm, then kernel, precision; best first */
static int cmp_kernel(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->bench, b->bench)) || (c = strcmp(a->kernel, b->kernel)) ||
        (c = strcmp(a->precision, b->precision)))
        return c;
    return 0;
}

struct machine {
    size_t start, n; /* a run of the sorted index array */
    size_t first;    /* its first row in file order */
};

static int by_first(const void *pa, const void *pb)
{
    const struct machine *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* Sorts every row by machine and returns the machines in the order they first appear. */
static int machines_of(const struct csv_table *t, size_t **idx, struct machine **m, size_t *nm)
{
    *idx = malloc((t->n ? t->n : 1) * sizeof **idx);
    *m = malloc((t->n ? t->n : 1) * sizeof **m);
    *nm = 0;
    if (!*idx || !*m) return 1;
    for (size_t i = 0; i < t->n; i++)
        (*idx)[i] = i;
    roof_sort_rows(t, *idx, t->n, cmp_machine);
    for (size_t k = 0; k < t->n; k++) {
        if (k == 0 || cmp_machine(&t->rows[(*idx)[k - 1]], &t->rows[(*idx)[k]]) != 0)
            (*m)[(*nm)++] = (struct machine){k, 0, (*idx)[k]};
        (*m)[*nm - 1].n++;
    }
    qsort(*m, *nm, sizeof **m, by_first);
    return 0;
}

static int is_lbm_pass(const struct csv_row *r)
{
    return strcmp(r->bench, "lbm") == 0 && strcmp(r->verified, "pass") == 0;
}

/* DRAM-bound: neither in cache nor above its ceiling (a row without a ceiling counts) */
static int is_clean(const struct roof_ceilings *c, const struct csv_row *r)
{
    struct roof_eval e;
    roof_evaluate(c, r, &e);
    return !e.cache_resident && !e.above_ceiling && !e.ceiling_in_cache;
}

/* ---- cases: one measurement repeated (rounds), every field that defines it equal ---- */
static int cmp_case(const struct csv_row *a, const struct csv_row *b)
{
    static const size_t whole[] = {
        offsetof(struct csv_row, nx),       offsetof(struct csv_row, ny),
        offsetof(struct csv_row, nz),       offsetof(struct csv_row, pad),
        offsetof(struct csv_row, align),    offsetof(struct csv_row, threads),
        offsetof(struct csv_row, blocks),   offsetof(struct csv_row, vector_bytes),
        offsetof(struct csv_row, ilp),      offsetof(struct csv_row, ranks),
        offsetof(struct csv_row, local_nx), offsetof(struct csv_row, local_ny),
        offsetof(struct csv_row, local_nz), offsetof(struct csv_row, write_allocate),
    };
    int c;
    if ((c = cmp_machine(a, b)) || (c = strcmp(a->bench, b->bench)) ||
        (c = strcmp(a->kernel, b->kernel)) || (c = strcmp(a->precision, b->precision)) ||
        (c = strcmp(a->collision, b->collision)) || (c = strcmp(a->geometry, b->geometry)) ||
        (c = strcmp(a->layout, b->layout)) || (c = strcmp(a->procs, b->procs)) ||
        (c = strcmp(a->overlap, b->overlap)) || (c = strcmp(a->halo, b->halo)))
        return c;
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++) {
        int64_t x = *(const int64_t *)((const char *)a + whole[k]);
        int64_t y = *(const int64_t *)((const char *)b + whole[k]);
        if (x != y) return (x > y) - (x < y);
    }
    return 0;
}

/* A case's figure: MFLUP/s for lbm, DRAM GB/s for stream (the fastest repetition of the row). */
static double case_value(const struct csv_row *r)
{
    return strcmp(r->bench, "lbm") == 0 ? r->mflups : r->bw_dram_GBs;
}

struct case_stat {
    size_t rows;     /* verified rows of the case (rounds) */
    double min, med; /* lowest and median of their case_value; NaN when rows == 0 */
    int clean;       /* lbm: its best row is DRAM-bound (neither in cache nor above its ceiling) */
};

struct cases {
    size_t *of; /* row index -> case number */
    struct case_stat *s;
};

static int cmp_dbl(double x, double y)
{
    return (x > y) - (x < y);
}

static int cmp_double(const void *pa, const void *pb)
{
    return cmp_dbl(*(const double *)pa, *(const double *)pb);
}

/* The case, then what tells one measurement from another (its timestamp, times, rate and
 * verdict): so a row repeated under another file name sorts next to its twin */
static int cmp_case_measure(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = cmp_case(a, b)) || (c = strcmp(a->timestamp, b->timestamp)) ||
        (c = cmp_dbl(a->t_min_s, b->t_min_s)) || (c = cmp_dbl(a->t_med_s, b->t_med_s)) ||
        (c = cmp_dbl(a->t_max_s, b->t_max_s)) || (c = cmp_dbl(case_value(a), case_value(b))))
        return c;
    return strcmp(a->verified, b->verified);
}

/* Whether row idx[j] repeats the row before it in its case (k: the case's first) field for field
 * where a measurement differs: the same rows given again under another name are one round, not
 * two (a file given twice is read once already). n log n: the sort put twins side by side. */
static int seen_before(const struct csv_table *t, const size_t *idx, size_t k, size_t j)
{
    if (j == k) return 0;
    const struct csv_row *q = &t->rows[idx[j - 1]], *r = &t->rows[idx[j]];
    return cmp_case_measure(q, r) == 0;
}

/* Groups every row of t by case (sorting: n log n) and classifies each lbm case once, by its
 * best verified row: so a kernel whose best round lies above its ceiling is not replaced by a
 * slower round of itself that happens to lie below it. Returns 0, or 1 out of memory. */
static int cases_build(const struct csv_table *t, const struct roof_ceilings *c, struct cases *cs)
{
    size_t *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    double *v = malloc((t->n ? t->n : 1) * sizeof *v);
    size_t ncase = 0;
    cs->of = malloc((t->n ? t->n : 1) * sizeof *cs->of);
    cs->s = malloc((t->n ? t->n : 1) * sizeof *cs->s);
    if (!idx || !v || !cs->of || !cs->s) {
        free(idx);
        free(v);
        free(cs->of);
        free(cs->s);
        return 1;
    }
    for (size_t i = 0; i < t->n; i++)
        idx[i] = i;
    roof_sort_rows(t, idx, t->n, cmp_case_measure);
    for (size_t k = 0; k < t->n;) {
        size_t j = k, nv = 0;
        const struct csv_row *best = NULL;
        struct case_stat *st = &cs->s[ncase];
        for (; j < t->n && cmp_case(&t->rows[idx[j]], &t->rows[idx[k]]) == 0; j++) {
            const struct csv_row *r = &t->rows[idx[j]];
            cs->of[idx[j]] = ncase;
            if (strcmp(r->verified, "pass") != 0 || seen_before(t, idx, k, j)) continue;
            v[nv++] = case_value(r);
            if (!best || case_value(r) > case_value(best)) best = r;
        }
        qsort(v, nv, sizeof *v, cmp_double);
        st->rows = nv;
        st->min = nv ? v[0] : NAN;
        st->med = nv ? (nv % 2 ? v[nv / 2] : (v[nv / 2 - 1] + v[nv / 2]) / 2) : NAN;
        st->clean = best && strcmp(best->bench, "lbm") == 0 && is_clean(c, best);
        ncase++;
        k = j;
    }
    free(idx);
    free(v);
    return 0;
}

static void cases_free(struct cases *cs)
{
    free(cs->of);
    free(cs->s);
}

/* the case of a row given by pointer into t */
static const struct case_stat *case_of(const struct cases *cs, const struct csv_table *t,
                                       const struct csv_row *r)
{
    return &cs->s[cs->of[(size_t)(r - t->rows)]];
}

/* The rows grouped by machine, the ceilings indexed and the cases classified, for --summary and
 * --table; on failure says so on stderr and frees what it took. */
static int machines_and_ceilings(const struct csv_table *t, size_t **idx, struct machine **m,
                                 size_t *nm, struct roof_ceilings **c, struct cases *cs)
{
    *c = NULL;
    if (machines_of(t, idx, m, nm) || roof_ceilings_build(t, c) || cases_build(t, *c, cs)) {
        free(*idx);
        free(*m);
        roof_ceilings_free(*c);
        fprintf(stderr, "roofline: out of memory\n");
        return 1;
    }
    return 0;
}

static void flags_of(const struct roof_ceilings *c, const struct csv_row *r, char *f, size_t len)
{
    struct roof_eval e;
    const int no = roof_evaluate(c, r, &e);
    roof_flags(&e, no, 0, f, len);
}

static int cmp_ll(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

struct headline {
    /* fluid cells of the sp and dp headlines: the largest size both were run at, or, where they
     * share none, each its own largest (-1: no such row) */
    long long cells, cells_dp;
    long long any; /* the largest size of any precision's candidate row (16-bit too); -1 none */
    const struct csv_row *sp, *dp;
};

/* The rows of one machine's rows ix[0..n) a headline may come from, into e (*ne of them):
 * verified lbm rows; among them one-rank rows where the machine has any (a multi-rank row's rate
 * is its job's, of several devices), and among those DRAM-bound cases where it has any (a case
 * is classified once, by its best row). */
static void headline_rows(const struct csv_table *t, const struct cases *cs, const size_t *ix,
                          size_t n, const struct csv_row **e, size_t *ne)
{
    int single = 0, clean = 0; /* the filters that apply: some row passes each */
    for (size_t k = 0; k < n; k++)
        single |= is_lbm_pass(&t->rows[ix[k]]) && t->rows[ix[k]].ranks <= 1;
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[ix[k]];
        clean |= is_lbm_pass(r) && (!single || r->ranks <= 1) && case_of(cs, t, r)->clean;
    }
    *ne = 0;
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[ix[k]];
        if (is_lbm_pass(r) && !(single && r->ranks > 1) && !(clean && !case_of(cs, t, r)->clean))
            e[(*ne)++] = r;
    }
}

/* The largest fluid-cell count of rows e[0..ne) of precision p (NULL: any); -1 for none. */
static long long largest(const struct csv_row *const *e, size_t ne, const char *p)
{
    long long m = -1;
    for (size_t k = 0; k < ne; k++)
        if ((!p || strcmp(e[k]->precision, p) == 0) && e[k]->fluid_cells > m) m = e[k]->fluid_cells;
    return m;
}

/* The largest fluid-cell count run in both sp and dp among e[0..ne) into *both (-1 for none):
 * the sizes of the sp rows sorted, each dp row's looked up. 0, or 1 out of memory: then no size
 * is known, which must not read as "none in common". */
static int common_size(const struct csv_row *const *e, size_t ne, long long *both)
{
    int64_t *spc = malloc((ne ? ne : 1) * sizeof *spc);
    size_t nsp = 0;
    *both = -1;
    if (!spc) return 1;
    for (size_t k = 0; k < ne; k++)
        if (strcmp(e[k]->precision, "sp") == 0) spc[nsp++] = e[k]->fluid_cells;
    qsort(spc, nsp, sizeof *spc, cmp_ll);
    for (size_t k = 0; k < ne; k++)
        if (strcmp(e[k]->precision, "dp") == 0 && e[k]->fluid_cells > *both &&
            bsearch(&e[k]->fluid_cells, spc, nsp, sizeof *spc, cmp_ll))
            *both = e[k]->fluid_cells;
    free(spc);
    return 0;
}

/* The fastest of rows e[0..ne) of precision p at cells fluid cells; NULL for none. */
static const struct csv_row *fastest_at(const struct csv_row *const *e, size_t ne, const char *p,
                                        long long cells)
{
    const struct csv_row *best = NULL;
    for (size_t k = 0; k < ne; k++)
        if (e[k]->fluid_cells == cells && strcmp(e[k]->precision, p) == 0 &&
            (!best || e[k]->mflups > best->mflups))
            best = e[k];
    return best;
}

/* The headline rows of one machine's rows ix[0..n) (headline_rows): the best rate per precision
 * at the largest size both sp and dp were run at, so that the two compare; where they share no
 * size, each at its own largest rather than one dropped (said on stderr by the summary). 16-bit
 * rows are no headline and set no size. 0, or 1 out of memory. */
static int headline_of(const struct csv_table *t, const struct cases *cs, const size_t *ix,
                       size_t n, struct headline *h)
{
    const struct csv_row **e = malloc((n ? n : 1) * sizeof *e);
    size_t ne = 0;
    long long both;
    h->sp = h->dp = NULL;
    h->cells = h->cells_dp = h->any = -1;
    if (!e) return 1;
    headline_rows(t, cs, ix, n, e, &ne);
    if (common_size(e, ne, &both)) {
        free(e);
        return 1;
    }
    h->any = largest(e, ne, NULL);
    h->cells = both >= 0 ? both : largest(e, ne, "sp");
    h->cells_dp = both >= 0 ? both : largest(e, ne, "dp");
    h->sp = fastest_at(e, ne, "sp", h->cells);
    h->dp = fastest_at(e, ne, "dp", h->cells_dp);
    free(e);
    return 0;
}

/* The lines a reader of the summary's CSV needs about machine mr's headlines (h): sp and dp at
 * two sizes, or no sp or dp figure at all for 16-bit rows only. */
static void headline_notes(const struct csv_row *mr, const struct headline *h)
{
    if (h->sp && h->dp && h->cells != h->cells_dp)
        fprintf(stderr,
                "roofline: --summary: %s (%s): sp and dp share no domain size; mflups_sp is at "
                "%lld fluid cells (lbm_cells), mflups_dp at %lld (lbm_cells_dp), each its "
                "largest\n",
                mr->host, mr->device, h->cells, h->cells_dp);
    /* the summary's figures are sp's and dp's: a machine whose LBM rows are all 16-bit has none,
     * and the cells of its rows would stand beside empty figures */
    if (!h->sp && !h->dp && h->any > 0)
        fprintf(stderr,
                "roofline: --summary: %s (%s) has LBM rows in 16-bit precisions only; the "
                "summary's figures are sp and dp, the report and --table hold those rows\n",
                mr->host, mr->device);
}

static const struct csv_row *best_copy(const struct csv_table *t, const size_t *ix, size_t n)
{
    const struct csv_row *copy = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[ix[k]];
        if (strcmp(r->bench, "stream") != 0 || !roof_is_copy(r->kernel) ||
            strcmp(r->verified, "pass") != 0)
            continue;
        if (roof_faster_ceiling(r, r->bw_prog_GBs, copy, copy ? copy->bw_prog_GBs : 0)) copy = r;
    }
    return copy;
}

/* "add=38.1 triad=37.9": the best STREAM-convention GB/s of every other stream kernel, by name
 * (ix sorted by cmp_kernel) */
static void others_of(const struct csv_table *t, const size_t *ix, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n;) {
        const struct csv_row *r = &t->rows[ix[k]];
        double best = NAN;
        size_t j = k;
        for (; j < n && strcmp(t->rows[ix[j]].bench, r->bench) == 0 &&
               strcmp(t->rows[ix[j]].kernel, r->kernel) == 0;
             j++) {
            const struct csv_row *s = &t->rows[ix[j]];
            if (strcmp(s->verified, "pass") == 0 && !(s->bw_prog_GBs <= best))
                best = s->bw_prog_GBs;
        }
        if (strcmp(r->bench, "stream") == 0 && !roof_is_copy(r->kernel) &&
            !roof_is_copy19(r->kernel) && best == best && used + 64 < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%.4g", used ? " " : "",
                                     r->kernel, best);
        k = j;
    }
}

/* What the cpu rows of one device say of its clock: the lowest reading during any row's timed
 * repetitions and the highest of any process (MHz; NaN: no row carries them), and the timed
 * repetitions set aside as disturbed, of how many. */
struct clock_range {
    double lo, hi;
    long disturbed, reps;
};

/* The device's clock over rows ix[0..n); 1 when it moved further than a quiet repetition may
 * (below QUIET_CLOCK_FRACTION of the highest: across processes too, where a whole round at the
 * low clock judged none of its repetitions disturbed). */
static int clock_of(const struct csv_table *t, const size_t *ix, size_t n, struct clock_range *c)
{
    c->lo = c->hi = NAN;
    c->disturbed = c->reps = 0;
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[ix[k]];
        if (!(r->cpu_clock_MHz > 0) || !(r->cpu_clock_low_MHz > 0)) continue;
        if (!(r->cpu_clock_low_MHz >= c->lo)) c->lo = r->cpu_clock_low_MHz;
        if (!(r->cpu_clock_MHz <= c->hi)) c->hi = r->cpu_clock_MHz;
        if (r->reps_disturbed > 0) c->disturbed += (long)r->reps_disturbed;
        if (r->reps > 0) c->reps += (long)r->reps;
    }
    return c->lo < QUIET_CLOCK_FRACTION * c->hi;
}

/* The line that tells a reader the device's figures move with its clock. */
static void clock_line(const struct clock_range *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "cpu clock moved %.0f-%.0f MHz during the run (%ld of %ld timed repetitions "
             "disturbed); figures on this machine are not repeatable within 5%%",
             c->lo, c->hi, c->disturbed, c->reps);
}

/* rounds, lowest and median of the case of row r (empty without r) */
static void rounds_of(FILE *out, const struct csv_table *t, const struct cases *cs,
                      const struct csv_row *r, int last)
{
    const struct case_stat *st = r ? case_of(cs, t, r) : NULL;
    roof_num(out, st ? (double)st->rows : NAN, 0);
    roof_num(out, st ? st->min : NAN, 0);
    roof_num(out, st ? st->med : NAN, last);
}

/* One line on stderr where lbm rows failed verification: the summary takes verified rows only,
 * and a failed row would otherwise leave it without a word (the table names them per line) */
static void failed_note(const struct csv_table *t)
{
    size_t failed = 0, first = 0;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].bench, "lbm") == 0 && strcmp(t->rows[i].verified, "pass") != 0 &&
            failed++ == 0)
            first = i;
    if (failed)
        fprintf(stderr,
                "roofline: %zu lbm row(s) failed verification and are left out of the summary "
                "(first: %s:%ld)\n",
                failed, t->files[first], t->lines[first]);
}

/* Each machine's rows ix sorted by kernel and its headlines into (*hs)[g], before any output:
 * running out of memory here leaves no partial CSV. 0, or 1 out of memory. */
static int summary_headlines(const struct csv_table *t, const struct cases *cs, size_t *idx,
                             const struct machine *m, size_t nm, struct headline **hs)
{
    *hs = malloc((nm ? nm : 1) * sizeof **hs);
    if (!*hs) return 1;
    for (size_t g = 0; g < nm; g++) {
        roof_sort_rows(t, idx + m[g].start, m[g].n, cmp_kernel);
        if (headline_of(t, cs, idx + m[g].start, m[g].n, &(*hs)[g])) {
            free(*hs);
            *hs = NULL;
            return 1;
        }
    }
    return 0;
}

static const char summary_header[] =
    "host,device,backend,copy_kernel,copy_prog_GBs,copy_dram_GBs,peak_bw_GBs,pct_of_peak,"
    "lbm_cells,mflups_sp,pct_of_ceiling_sp,mflups_dp,pct_of_ceiling_dp,sp_updates_per_copy_kB,"
    "kernel_sp,flags_sp,mflups_med_sp,mflups_min_sp,kernel_dp,flags_dp,mflups_med_dp,"
    "mflups_min_dp,other_stream_prog_GBs,version,timestamp,mflups_per_W_sp,mflups_per_W_dp,"
    "copy_dram_GBs_per_W,rounds_sp,mflups_rounds_min_sp,mflups_rounds_med_sp,rounds_dp,"
    "mflups_rounds_min_dp,mflups_rounds_med_dp,copy_rounds,copy_dram_GBs_rounds_min,"
    "copy_dram_GBs_rounds_med,cpu_clock_low_MHz,cpu_clock_MHz,reps_disturbed,cpu_unsteady,"
    "layout_sp,layout_dp,lbm_cells_dp\n";

/* host to pct_of_peak: the machine, its best copy and the theoretical peak (GB/s) */
static void copy_columns(FILE *out, const struct csv_row *mr, const struct csv_row *copy,
                         double peak)
{
    roof_str(out, mr->host, 0);
    roof_str(out, mr->device, 0);
    roof_str(out, mr->backend, 0);
    roof_str(out, copy ? copy->kernel : "", 0);
    roof_num(out, copy ? copy->bw_prog_GBs : NAN, 0);
    roof_num(out, copy ? copy->bw_dram_GBs : NAN, 0);
    roof_num(out, peak, 0);
    roof_num(out, copy && peak > 0 ? 100.0 * copy->bw_dram_GBs / peak : NAN, 0);
}

/* lbm_cells to mflups_min_dp: the headlines h against their ceilings */
static void headline_columns(FILE *out, const struct roof_ceilings *c, const struct headline *h,
                             const struct csv_row *copy)
{
    const struct csv_row *sp = h->sp, *dp = h->dp;
    struct roof_eval es, ed;
    char fsp[64] = "", fdp[64] = "";
    const int ok_sp = sp && roof_evaluate(c, sp, &es) == 0;
    const int ok_dp = dp && roof_evaluate(c, dp, &ed) == 0;
    if (sp) flags_of(c, sp, fsp, sizeof fsp);
    if (dp) flags_of(c, dp, fdp, sizeof fdp);
    /* sp's size (dp's where there is no sp); dp's in lbm_cells_dp, last */
    roof_num(out, sp ? (double)h->cells : dp ? (double)h->cells_dp : NAN, 0);
    roof_num(out, sp ? sp->mflups : NAN, 0);
    roof_num(out, ok_sp ? es.pct : NAN, 0);
    roof_num(out, dp ? dp->mflups : NAN, 0);
    roof_num(out, ok_dp ? ed.pct : NAN, 0);
    /* MFLUP/s per GB/s of copy = updates per kB of copy bandwidth */
    roof_num(out, sp && copy ? sp->mflups / copy->bw_dram_GBs : NAN, 0);
    roof_str(out, sp ? sp->kernel : "", 0);
    roof_str(out, fsp, 0);
    roof_num(out, sp ? roof_mflups_med(sp) : NAN, 0);
    roof_num(out, sp ? roof_mflups_min(sp) : NAN, 0);
    roof_str(out, dp ? dp->kernel : "", 0);
    roof_str(out, fdp, 0);
    roof_num(out, dp ? roof_mflups_med(dp) : NAN, 0);
    roof_num(out, dp ? roof_mflups_min(dp) : NAN, 0);
}

/* other_stream_prog_GBs to lbm_cells_dp, of machine mr's rows ix[0..n) */
static void tail_columns(FILE *out, const struct csv_table *t, const struct cases *cs,
                         const size_t *ix, size_t n, const struct csv_row *mr,
                         const struct headline *h, const struct csv_row *copy)
{
    const struct csv_row *sp = h->sp, *dp = h->dp, *prov = sp;
    char others[1024];
    struct clock_range cr;
    others_of(t, ix, n, others, sizeof others);
    /* the newest headline row's (the copy's only where there is no headline) */
    if (dp && (!prov || strcmp(dp->timestamp, prov->timestamp) > 0)) prov = dp;
    if (!prov) prov = copy;
    roof_str(out, others, 0);
    roof_str(out, prov ? prov->version : mr->version, 0);
    roof_str(out, prov ? prov->timestamp : mr->timestamp, 0);
    /* per W of the rows reported beside them (the headlines, the best copy): the same
     * window's work over its energy; empty where that row has no energy */
    roof_num(out, sp ? sp->mflups_per_W : NAN, 0);
    roof_num(out, dp ? dp->mflups_per_W : NAN, 0);
    roof_num(out, copy ? copy->GBs_per_W : NAN, 0);
    /* the rows of each reported case (rounds): how many, the lowest and the median */
    rounds_of(out, t, cs, sp, 0);
    rounds_of(out, t, cs, dp, 0);
    rounds_of(out, t, cs, copy, 0);
    /* the device's clock (the flag --table words as a line): empty where no row read it (gpu,
     * --quiet-wait off) */
    const int moved = clock_of(t, ix, n, &cr);
    roof_num(out, cr.lo, 0);
    roof_num(out, cr.hi, 0);
    roof_num(out, cr.hi > 0 ? (double)cr.disturbed : NAN, 0);
    roof_num(out, cr.hi > 0 ? (double)moved : NAN, 0);
    /* which layout gave each headline (a run of --layout soa,rows holds several); empty for
     * rows written before the layout column */
    roof_str(out, sp ? sp->layout : "", 0);
    roof_str(out, dp ? dp->layout : "", 0);
    roof_num(out, dp ? (double)h->cells_dp : NAN, 1);
}

int roof_summary(FILE *out, const struct csv_table *t)
{
    size_t *idx, nm;
    struct machine *m;
    struct roof_ceilings *c = NULL;
    struct cases cs;
    struct headline *hs;
    if (machines_and_ceilings(t, &idx, &m, &nm, &c, &cs)) return 2;
    const int oom = summary_headlines(t, &cs, idx, m, nm, &hs);
    if (oom) {
        fprintf(stderr, "roofline: out of memory\n");
    } else {
        failed_note(t);
        fputs(summary_header, out);
    }
    for (size_t g = 0; g < nm && !oom; g++) {
        const size_t *ix = idx + m[g].start, n = m[g].n;
        const struct csv_row *mr = &t->rows[m[g].first];
        const struct csv_row *copy = best_copy(t, ix, n);
        const struct csv_row *sp = hs[g].sp;
        copy_columns(out, mr, copy, copy ? copy->peak_bw_GBs : (sp ? sp->peak_bw_GBs : NAN));
        headline_notes(mr, &hs[g]);
        headline_columns(out, c, &hs[g], copy);
        tail_columns(out, t, &cs, ix, n, mr, &hs[g], copy);
    }
    free(hs);
    cases_free(&cs);
    roof_ceilings_free(c);
    free(idx);
    free(m);
    return nm && !oom ? 0 : 2;
}

/* a rate per W for the table: "-" where the row has no energy */
/* A known positive figure in FMT, or "-" where the row has none (NaN: unknown, not zero). */
static void known(char *buf, size_t len, const char *fmt, double v)
{
    if (v > 0)
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

/* The name of a kernel x precision's line in the table: the kernel, and where its verified rows
 * ix[0..n) were measured in several layouts (--layout soa,rows), the layout of the reported row
 * best ("-": a file written before the layout column), so a reader knows which one gave it. */
static void lbm_name(const struct csv_table *t, const size_t *ix, size_t n,
                     const struct csv_row *best, char *buf, size_t len)
{
    const char *first = NULL;
    int several = 0;
    for (size_t i = 0; i < n && !several; i++) {
        const struct csv_row *s = &t->rows[ix[i]];
        if (!is_lbm_pass(s)) continue;
        if (!first)
            first = s->layout;
        else
            several = strcmp(first, s->layout) != 0;
    }
    /* a rank grid's rate is its job's, of several devices: named with the grid */
    snprintf(buf, len, "%s%s%s%s%s", best->kernel, several ? " " : "",
             several ? (*best->layout ? best->layout : "-") : "", best->ranks > 1 ? " " : "",
             best->ranks > 1 ? best->procs : "");
}

/* --table: per device the copy bandwidths in both conventions, then each LBM kernel x
 * precision's best rate (of a DRAM-bound case where one exists) against its ceiling, named with
 * its layout where the kernel ran in several and its rank grid where that was several ranks;
 * beside each best figure the rows of its case (rounds) and the lowest of them. */
int roof_table(FILE *out, const struct csv_table *t)
{
    size_t *idx, nm;
    struct machine *m;
    struct roof_ceilings *c = NULL;
    struct cases cs;
    if (machines_and_ceilings(t, &idx, &m, &nm, &c, &cs)) return 2;
    roof_say_missing_ceilings(c, t); /* a no_ceiling line says why, as in the report */
    for (size_t g = 0; g < nm; g++) {
        size_t *ix = idx + m[g].start, n = m[g].n;
        const struct csv_row *mr = &t->rows[m[g].first];
        char others[1024];
        roof_sort_rows(t, ix, n, cmp_kernel);
        fprintf(out, "%s%s (%s on host %s)\n", g ? "\n" : "", mr->device, mr->backend, mr->host);
        fprintf(out, "  %-12s %-5s %12s %12s %10s %10s %7s %9s\n", "stream", "prec", "DRAM GB/s",
                "STREAM GB/s", "peak GB/s", "GB/s/W", "rounds", "lowest");
        for (size_t k = 0; k < n;) {
            const struct csv_row *r = &t->rows[ix[k]], *best = NULL;
            size_t j = k;
            for (; j < n && cmp_kernel(&t->rows[ix[j]], r) == 0; j++) {
                const struct csv_row *s = &t->rows[ix[j]];
                if (strcmp(s->verified, "pass") == 0 &&
                    (!best || s->bw_dram_GBs > best->bw_dram_GBs))
                    best = s;
            }
            if (strcmp(r->bench, "stream") == 0 && roof_is_copy(r->kernel)) {
                if (best) {
                    char w[32], peak[32];
                    const struct case_stat *st = case_of(&cs, t, best);
                    known(w, sizeof w, "%.2f", best->GBs_per_W);
                    known(peak, sizeof peak, "%.4g", best->peak_bw_GBs);
                    fprintf(out, "  %-12s %-5s %12.1f %12.1f %10s %10s %7zu %9.1f\n", r->kernel,
                            r->precision, best->bw_dram_GBs, best->bw_prog_GBs, peak, w, st->rows,
                            st->min);
                } else {
                    fprintf(out, "  %-12s %-5s %12s %12s   failed verification\n", r->kernel,
                            r->precision, "-", "-");
                }
            }
            k = j;
        }
        others_of(t, ix, n, others, sizeof others);
        if (*others) fprintf(out, "  other stream kernels, best STREAM GB/s: %s\n", others);
        size_t nlbm = 0;
        for (size_t k = 0; k < n; k++)
            nlbm += strcmp(t->rows[ix[k]].bench, "lbm") == 0;
        if (nlbm)
            fprintf(out, "  %-12s %-5s %12s %12s %10s %10s %7s %9s  %s\n", "lbm", "prec", "MFLUP/s",
                    "% ceiling", "ceiling", "MFLUP/s/W", "rounds", "lowest", "flags");
        else /* none in the files given (a run stopped before its lbm step): no empty heading */
            fprintf(out, "  lbm: no rows for this device\n");
        for (size_t k = 0; k < n;) {
            const struct csv_row *r = &t->rows[ix[k]], *best = NULL, *best_clean = NULL;
            size_t j = k, failed = 0; /* rows of the line that failed verification: said */
            for (; j < n && cmp_kernel(&t->rows[ix[j]], r) == 0; j++) {
                const struct csv_row *s = &t->rows[ix[j]];
                failed += strcmp(s->bench, "lbm") == 0 && strcmp(s->verified, "pass") != 0;
                if (!is_lbm_pass(s)) continue;
                if (!best || s->mflups > best->mflups) best = s;
                if (case_of(&cs, t, s)->clean && (!best_clean || s->mflups > best_clean->mflups))
                    best_clean = s;
            }
            if (strcmp(r->bench, "lbm") == 0) {
                if (best_clean) best = best_clean;
                if (best) {
                    struct roof_eval e;
                    char f[64], w[32], pct[32], name[64], ip[64] = "", fl[64] = "";
                    const struct case_stat *st = case_of(&cs, t, best);
                    roof_evaluate(c, best, &e);
                    flags_of(c, best, f, sizeof f);
                    if (e.in_place) /* the in-place kernel against its own pattern too */
                        snprintf(ip, sizeof ip, "%s%.1f%% of %s", *f ? " " : "", e.pct_in_place,
                                 e.in_place->kernel);
                    known(w, sizeof w, "%.2f", best->mflups_per_W);
                    known(pct, sizeof pct, "%.1f", e.pct);
                    lbm_name(t, ix + k, j - k, best, name, sizeof name);
                    if (failed)
                        snprintf(fl, sizeof fl, "%s%zu row(s) failed verification",
                                 *f || *ip ? "; " : "", failed);
                    fprintf(out, "  %-12s %-5s %12.1f %12s %10s %10s %7zu %9.1f  %s%s%s\n", name,
                            r->precision, best->mflups, pct, e.copy ? e.copy->kernel : "-", w,
                            st->rows, st->min, f, ip, fl);
                } else {
                    fprintf(out, "  %-12s %-5s %12s %12s %10s %10s %7s %9s  failed verification\n",
                            r->kernel, r->precision, "-", "-", "-", "-", "-", "-");
                }
            }
            k = j;
        }
        {
            struct clock_range cr;
            if (clock_of(t, ix, n, &cr)) {
                char line[512];
                clock_line(&cr, line, sizeof line);
                fprintf(out, "  %s\n", line); /* under the device's heading */
            }
        }
    }
    cases_free(&cs);
    roof_ceilings_free(c);
    free(idx);
    free(m);
    return nm ? 0 : 2;
}
