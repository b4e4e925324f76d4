/* gate.c: the regression gate. LBM cases keyed by (device, backend, bench, kernel, collision,
 * precision, geometry, dims, pad, align) and their variant (layout, threads, rank grid, overlap,
 * halo path: each run apart, so no faster one hides a slower) are compared by percent of ceiling,
 * not absolute rates, so a slower machine day raises no alarm. Each layout of a case (`--layout
 * soa,rows`) is gated against the same layout: a run keeps its layouts apart, so neither hides the
 * other. A file written before the layout column measured one layout, unlabelled (empty): a
 * labelled case absent from such a baseline takes its unlabelled case of the same key (match_of). A
 * drop is `regressed` when the current median lies below the baseline's slowest repetition by more
 * than the tolerance (beyond both the tolerance and the baseline's own noise); a larger drop of the
 * medians that stays within that spread is `inconclusive`. A current row that failed
 * verification is `failed`. With --gate-energy the cases' MFLUP/s per W get the same rule in
 * their own column (energy_status): percent of the baseline's figure, the noise being the two
 * windows' meter disagreement (a window is one measurement: it has no repetitions to spread).
 * Both runs are indexed (sorted cases, binary search): n log n. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ceiling.h"
#include "roofline.h"

struct gate_case {
    const char *device, *backend, *bench, *kernel, *collision, *precision;
    const char *geometry; /* "" in a roofline.csv written without the column */
    const char *layout;   /* "" in files written before the layout column */
    /* the rest of the variant: threads (cpu OpenMP threads, gpu a block's; -1 unknown), the rank
     * grid, overlap and halo path ("" unknown: a roofline.csv, which has none of them) */
    int64_t threads;
    const char *procs, *overlap, *halo;
    int64_t nx, ny, nz, pad, align;
    double med, min; /* percent of ceiling: best median of the key's rows, its slowest rep */
    double spread;   /* (t_max - t_min) / t_med of that row, percent; NaN when unknown */
    double epw;      /* MFLUP/s per W: the best of the key's rows with energy; NaN when none */
    double epw_dev;  /* |energy_polled_J - energy_J| / energy_J of that row, percent; NaN */
    int failed;      /* a row of the key failed verification */
    size_t first;    /* first row (or line) of the key, for the output order */
    char *text;      /* owns the strings of a case read from a roofline.csv */
};

/* the key without the layout */
static int cmp_key(const struct gate_case *a, const struct gate_case *b)
{
    int c;
    if ((c = strcmp(a->device, b->device)) || (c = strcmp(a->backend, b->backend)) ||
        (c = strcmp(a->bench, b->bench)) || (c = strcmp(a->kernel, b->kernel)) ||
        (c = strcmp(a->collision, b->collision)) || (c = strcmp(a->precision, b->precision)) ||
        (c = strcmp(a->geometry, b->geometry)))
        return c;
    if (a->nx != b->nx) return (a->nx > b->nx) - (a->nx < b->nx);
    if (a->ny != b->ny) return (a->ny > b->ny) - (a->ny < b->ny);
    if (a->nz != b->nz) return (a->nz > b->nz) - (a->nz < b->nz);
    if (a->pad != b->pad) return (a->pad > b->pad) - (a->pad < b->pad);
    return (a->align > b->align) - (a->align < b->align);
}

/* the key, then the variant: a case with a field unknown sorts before those that know it */
static int cmp_case(const struct gate_case *a, const struct gate_case *b)
{
    int c = cmp_key(a, b);
    if (c || (c = strcmp(a->layout, b->layout))) return c;
    if (a->threads != b->threads) return (a->threads > b->threads) - (a->threads < b->threads);
    if ((c = strcmp(a->procs, b->procs)) || (c = strcmp(a->overlap, b->overlap))) return c;
    return strcmp(a->halo, b->halo);
}

/* whether two cases of one key may be the same run: each variant field equal, or unknown on
 * either side (a file written before its column) */
static int variant_fits(const struct gate_case *a, const struct gate_case *b)
{
    const char *as[] = {a->layout, a->procs, a->overlap, a->halo};
    const char *bs[] = {b->layout, b->procs, b->overlap, b->halo};
    if (a->threads >= 0 && b->threads >= 0 && a->threads != b->threads) return 0;
    for (int i = 0; i < 4; i++)
        if (*as[i] && *bs[i] && strcmp(as[i], bs[i]) != 0) return 0;
    return 1;
}

static int cmp_case_v(const void *a, const void *b)
{
    return cmp_case(a, b);
}

static int cmp_key_v(const void *a, const void *b)
{
    return cmp_key(a, b);
}

static int by_first(const void *pa, const void *pb)
{
    const struct gate_case *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

static void case_key(struct gate_case *k, const struct csv_row *r)
{
    k->device = r->device;
    k->backend = r->backend;
    k->bench = r->bench;
    k->kernel = r->kernel;
    k->collision = r->collision;
    k->precision = r->precision;
    k->geometry = r->geometry;
    k->layout = r->layout;
    k->threads = r->threads >= 0 ? r->threads : -1;
    k->procs = r->procs;
    k->overlap = r->overlap;
    k->halo = r->halo;
    k->nx = r->nx;
    k->ny = r->ny;
    k->nz = r->nz;
    k->pad = r->pad;
    k->align = r->align > 0 ? r->align : 0;
}

static int cmp_row_key(const struct csv_row *a, const struct csv_row *b)
{
    struct gate_case x, y;
    case_key(&x, a);
    case_key(&y, b);
    return cmp_case(&x, &y);
}

/* One case per key of t's lbm rows, sorted by key: the best median percent of ceiling among
 * rows with a ceiling (verified rows only when skip_failed: a failed baseline is no baseline).
 * Returns 0 or 1 (out of memory). */
static int cases_of(const struct csv_table *t, int skip_failed, struct gate_case **out,
                    size_t *nout)
{
    struct roof_ceilings *c = NULL;
    size_t n = 0, *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    struct gate_case *cs = malloc((t->n ? t->n : 1) * sizeof *cs);
    *out = NULL;
    *nout = 0;
    if (!idx || !cs || roof_ceilings_build(t, &c)) {
        free(idx);
        free(cs);
        return 1;
    }
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].bench, "lbm") == 0) idx[n++] = i;
    roof_sort_rows(t, idx, n, cmp_row_key);
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[idx[k]];
        struct gate_case *g;
        struct roof_eval e;
        int fail = strcmp(r->verified, "pass") != 0;
        if (skip_failed && fail) continue;
        if (*nout == 0 || cmp_row_key(r, &t->rows[cs[*nout - 1].first]) != 0) {
            g = &cs[(*nout)++];
            memset(g, 0, sizeof *g);
            case_key(g, r);
            g->med = g->min = g->spread = g->epw = g->epw_dev = NAN;
            g->first = idx[k];
        }
        g = &cs[*nout - 1];
        g->failed |= fail;
        if (roof_evaluate(c, r, &e) == 0 && (isnan(g->med) || e.pct_med > g->med)) {
            g->med = e.pct_med;
            g->min = e.pct_min;
            g->spread = r->t_med_s > 0 ? 100.0 * (r->t_max_s - r->t_min_s) / r->t_med_s : NAN;
        }
        if (r->mflups_per_W > 0 && (isnan(g->epw) || r->mflups_per_W > g->epw)) {
            g->epw = r->mflups_per_W;
            g->epw_dev = fabs(roof_polled_dev_pct(r));
        }
    }
    roof_ceilings_free(c);
    free(idx);
    *out = cs;
    return 0;
}

/* ---- an earlier roofline.csv as the baseline ---- */
enum {
    B_DEVICE,
    B_BACKEND,
    B_KERNEL,
    B_COLLISION,
    B_PRECISION,
    B_GEOMETRY,
    B_LAYOUT,
    B_NX,
    B_NY,
    B_NZ,
    B_PAD,
    B_ALIGN,
    B_MED,
    B_MIN,
    B_EPW,
    B_EDEV,
    B_FLAGS,
    B_THREADS,
    B_NCOLS
};
static const char *const bcols[B_NCOLS] = {"device",
                                           "backend",
                                           "kernel",
                                           "collision",
                                           "precision",
                                           "geometry",
                                           "layout",
                                           "nx",
                                           "ny",
                                           "nz",
                                           "pad",
                                           "align",
                                           "pct_of_ceiling_med",
                                           "pct_of_ceiling_min",
                                           "mflups_per_W",
                                           "energy_polled_dev_pct",
                                           "flags",
                                           "threads"};

/* the columns an older roofline.csv may lack */
static int optional_column(int c)
{
    return c == B_GEOMETRY || c == B_LAYOUT || c == B_MIN || c == B_FLAGS || c == B_EPW ||
           c == B_EDEV || c == B_THREADS;
}

/* what a number read from a roofline.csv must be */
enum value_kind { V_REAL, V_WHOLE, V_SIGNED };

/* One number of a roofline.csv into *v: plain decimal text first, by the rule the raw rows' reader
 * keeps (csv_plain_real, csv_plain_whole), so that hex, blanks or a '+' are refused in a baseline
 * as in the rows it was made from; then its range. The report writes its counts (dims, pad,
 * align, threads) with %.10g, digits below 1e10. 0, or 1 with the line on stderr. */
static int report_value(const char *path, long line, const char *col, const char *text,
                        enum value_kind kind, double *v)
{
    static const char *const what[] = {"non-negative finite number", "non-negative whole number",
                                       "finite number"};
    const int plain = kind == V_WHOLE ? csv_plain_whole(text) : csv_plain_real(text);
    *v = plain ? strtod(text, NULL) : NAN;
    if (!plain || !isfinite(*v) || (kind != V_SIGNED && *v < 0)) {
        fprintf(stderr, "roofline: --baseline %s:%ld: column %s: value '%.40s' is not a %s\n", path,
                line, col, text, plain || kind == V_WHOLE ? what[kind] : "plain decimal number");
        return 1;
    }
    return 0;
}

/* Copies a line's text fields into g->text, which owns them; a report written before the
 * layout column leaves the layout empty, as raw rows of that time read. 0, or 1 out of memory. */
static int case_strings(struct gate_case *g, char *const *fields, const int *map)
{
    const char **dst[] = {&g->device,    &g->backend,  &g->kernel, &g->collision,
                          &g->precision, &g->geometry, &g->layout};
    size_t tl = sizeof "lbm";
    char *p;
    for (int c = B_DEVICE; c <= B_LAYOUT; c++)
        tl += (map[c] < 0 ? 0 : strlen(fields[map[c]])) + 1;
    g->text = p = malloc(tl);
    if (!p) return 1;
    for (int c = B_DEVICE; c <= B_LAYOUT; c++) {
        const char *src = map[c] < 0 ? "" : fields[map[c]];
        size_t l = strlen(src) + 1;
        memcpy(p, src, l);
        *dst[c] = p;
        p += l;
    }
    memcpy(p, "lbm", sizeof "lbm");
    g->bench = p;
    return 0;
}

/* Appends the case of one report line (its numbers checked) to b. 0, or 2 with the message
 * on stderr. */
static int report_case(const char *path, long lineno, char *const *fields, const int *map,
                       struct roof_baseline *b, size_t *ncap)
{
    struct gate_case *g;
    double v[B_NCOLS];
    for (int c = B_NX; c <= B_EDEV; c++) {
        if (map[c] < 0 || (c >= B_MIN && *fields[map[c]] == '\0')) {
            v[c] = NAN; /* optional: an older report, or a row without energy */
            continue;
        }
        if (report_value(path, lineno, bcols[c], fields[map[c]],
                         c < B_MED     ? V_WHOLE
                         : c == B_EDEV ? V_SIGNED
                                       : V_REAL,
                         &v[c]))
            return 2;
    }
    if (b->ncases == *ncap) {
        size_t cap = *ncap ? 2 * *ncap : 64;
        struct gate_case *cs = realloc(b->cases, cap * sizeof *cs);
        if (!cs) goto oom;
        b->cases = cs;
        *ncap = cap;
    }
    g = &b->cases[b->ncases];
    memset(g, 0, sizeof *g);
    if (case_strings(g, fields, map)) goto oom;
    b->ncases++;
    g->nx = (int64_t)v[B_NX];
    g->ny = (int64_t)v[B_NY];
    g->nz = (int64_t)v[B_NZ];
    g->pad = (int64_t)v[B_PAD];
    g->align = (int64_t)v[B_ALIGN];
    g->med = v[B_MED];
    g->min = isnan(v[B_MIN]) || v[B_MIN] > v[B_MED] ? v[B_MED] : v[B_MIN];
    g->spread = NAN;
    g->epw = v[B_EPW] > 0 ? v[B_EPW] : NAN;
    g->epw_dev = g->epw > 0 ? fabs(v[B_EDEV]) : NAN;
    g->threads = -1; /* a report's threads where it has the column; no rank grid, overlap, halo */
    if (map[B_THREADS] >= 0 && *fields[map[B_THREADS]]) {
        double t;
        if (report_value(path, lineno, bcols[B_THREADS], fields[map[B_THREADS]], V_WHOLE, &t))
            return 2;
        g->threads = (int64_t)t;
    }
    g->procs = g->overlap = g->halo = "";
    g->first = (size_t)lineno;
    return 0;
oom:
    fprintf(stderr, "roofline: out of memory\n");
    return 2;
}

/* One case per key and variant: the best median, as for raw rows (and the best MFLUP/s per W). */
static void keep_best(struct roof_baseline *b)
{
    size_t w = 0;
    if (b->ncases == 0) return;
    qsort(b->cases, b->ncases, sizeof *b->cases, cmp_case_v);
    for (size_t k = 0; k < b->ncases; k++) {
        struct gate_case *g = &b->cases[k];
        if (w && cmp_case(&b->cases[w - 1], g) == 0) {
            struct gate_case *kept = &b->cases[w - 1];
            double epw = kept->epw, dev = kept->epw_dev;
            if (g->epw > 0 && !(g->epw <= epw)) { /* the best MFLUP/s per W, as for raw rows */
                epw = g->epw;
                dev = g->epw_dev;
            }
            if (g->med > kept->med) {
                char *keep = kept->text;
                *kept = *g;
                g->text = keep;
            }
            kept->epw = epw;
            kept->epw_dev = dev;
            free(g->text);
            continue;
        }
        b->cases[w++] = *g;
    }
    b->ncases = w;
}

static int read_report(const char *path, FILE *f, struct roof_baseline *b)
{
    char *line = NULL, *fields[512];
    size_t cap = 0, ncap = 0;
    ssize_t len;
    long lineno = 0;
    int map[B_NCOLS], nhead = -1, rc = 2;
    const char *why;
    while ((len = getline(&line, &cap, f)) >= 0) {
        int n;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0) continue;
        n = csv_split_fields(line + (lineno == 1 ? csv_bom_length(line) : 0), fields, 512, &why);
        if (n < 0) {
            fprintf(stderr, "roofline: --baseline %s:%ld: %s\n", path, lineno, why);
            goto out;
        }
        if (nhead < 0) {
            nhead = n;
            for (int c = 0; c < B_NCOLS; c++) {
                map[c] = -1;
                for (int i = 0; i < n; i++)
                    if (strcmp(fields[i], bcols[c]) == 0) map[c] = i;
                if (map[c] < 0 && !optional_column(c)) {
                    fprintf(stderr,
                            "roofline: --baseline %s:1: a roofline.csv needs the column "
                            "'%s'\n",
                            path, bcols[c]);
                    goto out;
                }
            }
            continue;
        }
        if (strcmp(fields[0], "host") == 0) continue; /* the header of a concatenated report */
        if (n != nhead) {
            fprintf(stderr, "roofline: --baseline %s:%ld: %d fields where the header has %d\n",
                    path, lineno, n, nhead);
            goto out;
        }
        if (map[B_FLAGS] >= 0 && strstr(fields[map[B_FLAGS]], "not_verified"))
            continue;                              /* a failed run is no baseline */
        if (*fields[map[B_MED]] == '\0') continue; /* a row without a ceiling in that run */
        if (report_case(path, lineno, fields, map, b, &ncap)) goto out;
    }
    if (ferror(f) || !feof(f)) { /* as csv_read: ENOMEM is not the end of the file */
        fprintf(stderr, "roofline: --baseline %s: cannot read: %s\n", path, strerror(errno));
        goto out;
    }
    if (nhead < 0) {
        fprintf(stderr, "roofline: --baseline %s: empty file (expected a CSV header line)\n", path);
        goto out;
    }
    keep_best(b);
    rc = 0;
out:
    free(line);
    return rc;
}

/* A stream that cannot be rewound as one in memory from its start: the head already read, then
 * the rest of f (closed here). *buf owns the text (free it after the stream). NULL on error. */
static FILE *reread_in_memory(FILE *f, const char *head, size_t headlen, char **buf)
{
    size_t len = 0, n;
    char chunk[65536];
    FILE *m = open_memstream(buf, &len);
    if (!m) {
        fclose(f);
        return NULL;
    }
    fwrite(head, 1, headlen, m);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, n, m);
    const int bad = ferror(f) | ferror(m);
    fclose(f);
    if (fclose(m) != 0 || bad) {
        free(*buf);
        *buf = NULL;
        return NULL;
    }
    return fmemopen(*buf, len ? len : 1, "r");
}

int roof_baseline_read(const char *path, struct roof_baseline *b)
{
    char *line = NULL, *mem = NULL, err[512]; /* mem: a pipe's text (reread_in_memory) */
    size_t cap = 0;
    FILE *f;
    int rc;
    struct stat st;
    const int from_stdin = roof_is_stdin(path);
    memset(b, 0, sizeof *b);
    b->path = path = from_stdin ? ROOF_STDIN_NAME : path;
    if ((from_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) == 0 &&
        S_ISDIR(st.st_mode)) { /* fopen takes a folder; reading fails */
        fprintf(stderr,
                "roofline: --baseline %s is a folder: give one CSV file (raw rows "
                "concatenated, or a roofline.csv)\n",
                path);
        return 2;
    }
    /* standard input through a descriptor of its own, closed with the stream as a file's */
    f = from_stdin ? fdopen(dup(STDIN_FILENO), "r") : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "roofline: --baseline %s: cannot open: %s\n", path, strerror(errno));
        return 2;
    }
    /* where the text begins, to read it again from there: standard input may be a file read in
     * part already (`{ read -r l; roofline --baseline - ...; } <FILE`), read on from where it
     * stands as FILE '-' is; -1 for a pipe, which cannot go back */
    const off_t start = ftello(f);
    /* a roofline.csv names pct_of_ceiling_med and no schema column */
    const ssize_t first = getline(&line, &cap, f);
    if (first >= 0) {
        const char *h = line + csv_bom_length(line);
        b->is_report = strstr(h, "pct_of_ceiling_med") && strncmp(h, "schema,", 7) != 0 &&
                       !strstr(h, ",schema,") && !strstr(h, ",schema\n");
    }
    if (start < 0 || fseeko(f, start, SEEK_SET) != 0) {
        /* a pipe (--baseline <(...)) cannot go back: its first line and the rest in memory */
        f = reread_in_memory(f, line, first > 0 ? (size_t)first : 0, &mem);
        if (!f) {
            free(line);
            fprintf(stderr, "roofline: --baseline %s: cannot read it: %s\n", path, strerror(errno));
            return 2;
        }
    }
    free(line);
    if (b->is_report) {
        rc = read_report(path, f, b);
    } else {
        rc = csv_read(f, path, &b->raw, err, sizeof err) ||
                     roof_check_numbers(&b->raw, 0, err, sizeof err)
                 ? 2
                 : 0;
        if (rc) fprintf(stderr, "roofline: --baseline: %s\n", err);
    }
    fclose(f);
    free(mem); /* after its stream: the rows and cases hold copies */
    return rc;
}

void roof_baseline_free(struct roof_baseline *b)
{
    for (size_t k = 0; k < b->ncases; k++)
        free(b->cases[k].text);
    free(b->cases);
    csv_table_free(&b->raw);
    memset(b, 0, sizeof *b);
}

/* the energy columns of one gate row */
struct gate_energy {
    double base, cur, delta, noise; /* MFLUP/s per W; delta and noise in percent of base */
    const char *status;             /* "" where not gated */
};

/* The energy rule, in percent of the baseline's MFLUP/s per W: regressed when the drop exceeds
 * the tolerance plus the noise (the two windows' meter disagreements added: each figure is
 * known only to within its own), inconclusive when it exceeds the tolerance alone, improved
 * when the rise exceeds the tolerance. A window without a cross-check adds no noise. Returns
 * 1 when regressed. tol NaN: not gated (status empty). */
static int energy_verdict(const struct gate_case *b, const struct gate_case *c, double tol,
                          struct gate_energy *ge)
{
    ge->base = b ? b->epw : NAN;
    ge->cur = c ? c->epw : NAN;
    ge->delta = ge->base > 0 && ge->cur > 0 ? 100.0 * (ge->cur - ge->base) / ge->base : NAN;
    ge->noise = isnan(ge->delta) ? NAN
                : isnan(b->epw_dev) && isnan(c->epw_dev)
                    ? NAN
                    : (isnan(b->epw_dev) ? 0 : b->epw_dev) + (isnan(c->epw_dev) ? 0 : c->epw_dev);
    ge->status = "";
    if (isnan(tol) || isnan(ge->delta)) return 0;
    if (-ge->delta > tol) {
        int beyond = -ge->delta > tol + (isnan(ge->noise) ? 0 : ge->noise);
        ge->status = beyond ? "regressed" : "inconclusive";
        return beyond;
    }
    ge->status = ge->delta > tol ? "improved" : "ok";
    return 0;
}

static void gate_row(FILE *out, const struct gate_case *k, const struct gate_case *b,
                     const struct gate_case *c, double spread, const char *status,
                     const struct gate_energy *ge)
{
    double bm = b ? b->med : NAN, cm = c ? c->med : NAN;
    roof_str(out, k->device, 0);
    roof_str(out, k->backend, 0);
    roof_str(out, k->bench, 0);
    roof_str(out, k->kernel, 0);
    roof_str(out, k->collision, 0);
    roof_str(out, k->precision, 0);
    roof_num(out, (double)k->nx, 0);
    roof_num(out, (double)k->ny, 0);
    roof_num(out, (double)k->nz, 0);
    roof_num(out, (double)k->pad, 0);
    roof_num(out, (double)k->align, 0);
    roof_num(out, bm, 0);
    roof_num(out, cm, 0);
    roof_num(out, cm - bm, 0);
    roof_num(out, spread, 0);
    roof_str(out, status, 0);
    roof_num(out, b ? b->min : NAN, 0);
    roof_num(out, c ? c->min : NAN, 0);
    roof_num(out, ge->base, 0);
    roof_num(out, ge->cur, 0);
    roof_num(out, ge->delta, 0);
    roof_num(out, ge->noise, 0);
    roof_str(out, ge->status, 0);
    roof_str(out, k->geometry, 0); /* key fields, last: the columns before keep their places */
    roof_str(out, k->layout, 0);
    roof_num(out, k->threads >= 0 ? (double)k->threads : NAN, 0);
    roof_str(out, k->procs, 0);
    roof_str(out, k->overlap, 0);
    roof_str(out, k->halo, 1);
}

/* The run of c's key in a (sorted by key then variant): its first case, and in *n how many */
static struct gate_case *key_run(const struct gate_case *c, struct gate_case *a, size_t na,
                                 size_t *n)
{
    struct gate_case *b = na ? bsearch(c, a, na, sizeof *a, cmp_key_v) : NULL, *e;
    *n = 0;
    if (!b) return NULL;
    while (b > a && cmp_key(b - 1, c) == 0)
        b--;
    for (e = b; e < a + na && cmp_key(e, c) == 0; e++)
        (*n)++;
    return b;
}

/* The baseline case of current case c: the same key and variant; else, where a file lacks a
 * variant column (a run written before the layout column measured one layout, unlabelled; a
 * roofline.csv has no rank grid), the baseline's only case of the key that fits c's variant
 * (several: which one it measured is unknown). Where neither run has c's variant: a key run once
 * on each side (one thread count, grid, block size each: another machine's default team, a
 * changed default) is the same measurement of it, compared and said on stderr (*across) rather
 * than left new and missing, where no status would fail the gate. NULL: none. bc and cc sorted
 * by key then variant. */
static struct gate_case *match_of(const struct gate_case *c, struct gate_case *bc, size_t nbc,
                                  struct gate_case *cc, size_t ncc, int *across)
{
    struct gate_case *b = nbc ? bsearch(c, bc, nbc, sizeof *bc, cmp_case_v) : NULL, *fit = NULL;
    size_t nb, nc;
    *across = 0;
    if (b) return b;
    b = key_run(c, bc, nbc, &nb);
    for (size_t i = 0; i < nb; i++) {
        if (!variant_fits(&b[i], c)) continue;
        if (fit) return NULL;
        fit = &b[i];
    }
    if (fit || nb != 1) return fit;
    (void)key_run(c, cc, ncc, &nc);
    *across = nc == 1;
    return nc == 1 ? b : NULL;
}

/* A baseline case that several current cases of one layout fit (a roofline.csv, which names no
 * rank grid, holds one case for all of a key's grids: their best) is compared with the
 * best-median one of them alone; the others are new, as they were when the key was the whole
 * case. Layouts stay apart: a baseline written before that column measured one layout, and each
 * current layout is compared with it (docs/roofline.md). */
static void one_match_each(struct gate_case *cc, size_t ncc, struct gate_case **match)
{
    /* cases of one baseline case share its key: in cc, sorted by key, one run */
    for (size_t k = 0; k < ncc; k++) {
        size_t n = 0;
        const size_t run = match[k] ? (size_t)(key_run(&cc[k], cc, ncc, &n) - cc) : 0;
        for (size_t j = run; match[k] && j < run + n; j++)
            if (j != k && match[j] == match[k] && strcmp(cc[j].layout, cc[k].layout) == 0 &&
                (cc[j].med > cc[k].med || (cc[j].med == cc[k].med && j < k) ||
                 (isnan(cc[k].med) && !isnan(cc[j].med))))
                match[k] = NULL;
    }
}

static double larger(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* Both runs' cases, matched: what roof_gate_check judges and roof_gate then writes. */
struct gate_run {
    struct gate_case *cc, *bc; /* the current and the baseline cases, sorted by key */
    struct gate_case **match;  /* each current case's baseline case, NULL for none */
    char *used;                /* baseline cases compared with a current one */
    char *across;              /* current cases compared across variants (match_of) */
    size_t ncc, nbc, cur_ceil, base_lbm;
    int compared, energy_compared; /* cases compared by percent of ceiling, by MFLUP/s per W */
    int own_bc;                    /* bc made here from raw rows, not the baseline's own */
};

static void gate_run_free(struct gate_run *g)
{
    free(g->cc);
    if (g->own_bc) free(g->bc);
    free(g->match);
    free(g->used);
    free(g->across);
    memset(g, 0, sizeof *g);
}

static int out_of_memory(void)
{
    fprintf(stderr, "roofline: out of memory\n");
    return 2;
}

/* The cases of both runs into g, with the refusals that need no matching: no current lbm rows,
 * none with a ceiling (unless some failed verification: that alone fails the gate), no usable
 * baseline case. 0, or 2 with one line on stderr. */
static int gate_cases(const struct roof_baseline *base, const struct csv_table *cur,
                      const char *cur_names, struct gate_run *g)
{
    size_t cur_lbm = 0, fails = 0, usable = 0;
    for (size_t i = 0; i < cur->n; i++)
        cur_lbm += strcmp(cur->rows[i].bench, "lbm") == 0;
    if (cur_lbm == 0) {
        fprintf(stderr,
                "roofline: gate: the current files (%s) hold no lbm rows: give the new "
                "run's lbm CSV with its stream CSV\n",
                cur_names);
        return 2;
    }
    if (cases_of(cur, 0, &g->cc, &g->ncc)) return out_of_memory();
    if (base->is_report) {
        g->bc = base->cases;
        g->nbc = g->base_lbm = base->ncases;
    } else {
        for (size_t i = 0; i < base->raw.n; i++)
            g->base_lbm += strcmp(base->raw.rows[i].bench, "lbm") == 0;
        g->own_bc = 1;
        if (cases_of(&base->raw, 1, &g->bc, &g->nbc)) return out_of_memory();
    }
    for (size_t k = 0; k < g->ncc; k++) {
        g->cur_ceil += !isnan(g->cc[k].med);
        fails += g->cc[k].failed;
    }
    if (g->cur_ceil == 0 && fails == 0) {
        fprintf(stderr,
                "roofline: gate: no lbm row of the current files (%s) has a stream "
                "copy ceiling: give the new run's stream CSV too\n",
                cur_names);
        return 2;
    }
    for (size_t k = 0; k < g->nbc; k++)
        usable += !isnan(g->bc[k].med);
    if (usable > 0) return 0;
    fprintf(stderr,
            "roofline: gate: the baseline %s has no usable case (%zu lbm rows, none "
            "verified with a stream copy ceiling): give an earlier run's raw stream "
            "and lbm rows, or its roofline.csv\n",
            base->path, g->base_lbm);
    return 2;
}

/* Each current case's baseline case (match_of, then one_match_each), the baseline cases so
 * used, and how many cases are compared, by percent of ceiling and by MFLUP/s per W. 0, or 2
 * (out of memory, said). */
static int gate_match(struct gate_run *g)
{
    g->match = calloc(g->ncc ? g->ncc : 1, sizeof *g->match);
    g->used = calloc(g->nbc ? g->nbc : 1, 1);
    g->across = calloc(g->ncc ? g->ncc : 1, 1);
    if (!g->match || !g->used || !g->across) return out_of_memory();
    for (size_t k = 0; k < g->ncc; k++) {
        int across;
        struct gate_case *b = match_of(&g->cc[k], g->bc, g->nbc, g->cc, g->ncc, &across);
        g->match[k] = b && !isnan(b->med) ? b : NULL;
        g->across[k] = g->match[k] && across;
    }
    one_match_each(g->cc, g->ncc, g->match);
    for (size_t k = 0; k < g->ncc; k++) {
        const struct gate_case *c = &g->cc[k], *b = g->match[k];
        if (b && (!isnan(c->med) || c->failed)) {
            g->used[b - g->bc] = 1;
            g->compared++;
        }
        g->energy_compared += b && !c->failed && !isnan(c->med) && c->epw > 0 && b->epw > 0;
    }
    return 0;
}

/* The cases of both runs, matched, and every refusal of the gate: nothing compared, or with
 * --gate-energy nothing compared by energy, besides gate_cases'. 0, or 2 with one line on
 * stderr (g freed then). */
static int gate_prepare(const struct roof_baseline *base, const struct csv_table *cur,
                        const char *cur_names, double energy_tol, struct gate_run *g)
{
    memset(g, 0, sizeof *g);
    int rc = gate_cases(base, cur, cur_names, g);
    if (rc == 0) rc = gate_match(g);
    if (rc == 0 && g->compared == 0) {
        fprintf(stderr,
                "roofline: gate: nothing compared: none of the %zu case(s) of the current files "
                "(%s) is among the %zu of the baseline %s (same device, backend, kernel, "
                "collision, precision, geometry, dims, pad, align; layout, threads, rank grid, "
                "overlap and halo path where both runs name them)\n",
                g->cur_ceil, cur_names, g->nbc, base->path);
        rc = 2;
    }
    if (rc == 0 && !isnan(energy_tol) && g->energy_compared == 0) {
        fprintf(stderr,
                "roofline: gate: --gate-energy: no compared case has mflups_per_W in both the "
                "baseline %s and the current files (%s): give rows measured with energy (an "
                "NVML or powercap meter), or leave --gate-energy out\n",
                base->path, cur_names);
        rc = 2;
    }
    if (rc) gate_run_free(g);
    return rc;
}

int roof_gate_check(const struct roof_baseline *base, const struct csv_table *cur,
                    const char *cur_names, double energy_tol)
{
    struct gate_run g;
    const int rc = gate_prepare(base, cur, cur_names, energy_tol, &g);
    if (rc == 0) gate_run_free(&g);
    return rc;
}

/* The current cases (with their matches) in the order the current files first name them, and
 * in *miss the baseline cases compared with none, in the baseline's order: the order of the
 * CSV. 0, or 2 (out of memory, said). */
static int gate_output_order(struct gate_run *g, struct gate_case **miss, size_t *nmiss)
{
    struct gate_case *tmp = malloc((g->ncc ? g->ncc : 1) * sizeof *tmp);
    struct gate_case **mt = malloc((g->ncc ? g->ncc : 1) * sizeof *mt);
    *miss = malloc((g->nbc ? g->nbc : 1) * sizeof **miss);
    *nmiss = 0;
    if (!tmp || !mt || !*miss) {
        free(tmp);
        free(mt);
        free(*miss);
        *miss = NULL;
        return out_of_memory();
    }
    for (size_t k = 0; k < g->ncc; k++) {
        tmp[k] = g->cc[k];
        tmp[k].text = (char *)g->match[k]; /* carried through the sort */
    }
    qsort(tmp, g->ncc, sizeof *tmp, by_first);
    for (size_t k = 0; k < g->ncc; k++) {
        mt[k] = (struct gate_case *)(void *)tmp[k].text;
        tmp[k].text = NULL;
    }
    free(g->cc);
    g->cc = tmp;
    free(g->match);
    g->match = mt;
    for (size_t k = 0; k < g->nbc; k++)
        if (!g->used[k] && !isnan(g->bc[k].med)) {
            (*miss)[*nmiss] = g->bc[k];
            (*miss)[(*nmiss)++].text = NULL;
        }
    qsort(*miss, *nmiss, sizeof **miss, by_first);
    return 0;
}

/* the verdicts of one gate */
struct gate_counts {
    int regressed, failed, energy_regressed;
    size_t fresh; /* cases only in the current run */
};

/* The status of current case c against its baseline case b (NULL: none), counted in n; *spread
 * the spread the verdict took (the larger of both runs'). NULL where c has no ceiling and did
 * not fail: no row (the report says why). */
static const char *gate_status(const struct gate_case *c, const struct gate_case *b, double tol,
                               double *spread, struct gate_counts *n)
{
    *spread = c->spread;
    if (c->failed) {
        n->failed++;
        return "failed";
    }
    if (isnan(c->med)) return NULL;
    if (!b) {
        n->fresh++;
        return "new";
    }
    const double drop = b->med - c->med; /* points of percent of ceiling */
    *spread = larger(c->spread, b->spread);
    if (drop <= tol) return -drop > tol ? "improved" : "ok";
    const int beyond = c->med < b->min - tol;
    n->regressed += beyond;
    return beyond ? "regressed" : "inconclusive";
}

/* The CSV: the current cases in their files' order, then the baseline's missing ones */
static void gate_write(FILE *out, const struct gate_run *g, const struct gate_case *miss,
                       size_t nmiss, double tol, double energy_tol, struct gate_counts *n)
{
    fputs("device,backend,bench,kernel,collision,precision,nx,ny,nz,pad,align,"
          "baseline_pct_of_ceiling_med,current_pct_of_ceiling_med,delta_pct,spread_pct,status,"
          "baseline_pct_of_ceiling_min,current_pct_of_ceiling_min,baseline_mflups_per_W,"
          "current_mflups_per_W,energy_delta_pct,energy_noise_pct,energy_status,geometry,"
          "layout,threads,procs,overlap,halo\n",
          out);
    for (size_t k = 0; k < g->ncc; k++) {
        const struct gate_case *c = &g->cc[k], *b = g->match[k];
        struct gate_energy ge;
        double spread;
        const char *status = gate_status(c, b, tol, &spread, n);
        if (!status) continue;
        /* energy only where both runs measured a verified case (new, failed: nothing to gate) */
        n->energy_regressed +=
            energy_verdict(b, c, c->failed || !b ? (double)NAN : energy_tol, &ge);
        gate_row(out, c, b, c, spread, status, &ge);
    }
    for (size_t k = 0; k < nmiss; k++) {
        struct gate_energy ge;
        energy_verdict(&miss[k], NULL, NAN, &ge);
        gate_row(out, &miss[k], &miss[k], NULL, NAN, "missing", &ge);
    }
}

/* The cases compared across variants (match_of), one line each on stderr */
static void say_across(const struct gate_run *g)
{
    for (size_t k = 0; k < g->ncc; k++) {
        const struct gate_case *c = &g->cc[k], *b = g->match[k];
        if (!g->across[k]) continue;
        fprintf(stderr,
                "roofline: gate: %s %s %s %s %lldx%lldx%lld compared across variants: "
                "threads %lld -> %lld, grid '%s' -> '%s' (each run once on each side)\n",
                c->device, c->kernel, c->collision, c->precision, (long long)c->nx,
                (long long)c->ny, (long long)c->nz, (long long)b->threads, (long long)c->threads,
                b->procs, c->procs);
    }
}

int roof_gate(FILE *out, const struct roof_baseline *base, const struct csv_table *cur,
              const char *cur_names, double tol, double energy_tol)
{
    struct gate_run g;
    struct gate_case *miss = NULL;
    struct gate_counts n = {0};
    size_t nmiss;
    if (gate_prepare(base, cur, cur_names, energy_tol, &g)) return 2;
    say_across(&g); /* before the sort: across is indexed in the key order */
    if (gate_output_order(&g, &miss, &nmiss)) {
        gate_run_free(&g);
        return 2;
    }
    /* all checks passed, all memory taken: now the CSV, whole */
    gate_write(out, &g, miss, nmiss, tol, energy_tol, &n);
    /* cases on one side only are said too: a kernel that stopped running (or lost its ceiling)
     * leaves its cases missing, which no status can call regressed */
    fprintf(stderr,
            "roofline: gate: %d case(s) compared, %d regressed beyond %.3g points and the "
            "baseline's slowest repetition, %d failed verification; %zu missing (in the baseline "
            "only), %zu new\n",
            g.compared, n.regressed, tol, n.failed, nmiss, n.fresh);
    if (!isnan(energy_tol))
        fprintf(stderr,
                "roofline: gate: --gate-energy: %d case(s) compared by MFLUP/s per W, %d "
                "regressed beyond %.3g%% and the meters' disagreement\n",
                g.energy_compared, n.energy_regressed, energy_tol);
    free(miss);
    gate_run_free(&g);
    return n.regressed || n.failed || n.energy_regressed ? 1 : 0;
}
