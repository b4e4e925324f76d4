/* ceiling.h: the roofline arithmetic and the matching of each LBM row to the STREAM rows of the
 * same host, device, backend, precision and store kind, through an index built once (sorted
 * groups, binary search), so a million rows cost n log n. */
#ifndef ROOF_CEILING_H
#define ROOF_CEILING_H

#include <stddef.h>

#include "csv.h"

/* million updates per second a bandwidth (GB/s) allows at a byte count per update */
double roof_ceiling_mflups(double bw_GBs, double bytes_per_update);

/* same host, device, backend and precision */
int roof_same_device(const struct csv_row *a, const struct csv_row *b);
/* text equality that first tries the pointer (pooled strings of one table) */
int roof_eq(const char *a, const char *b);

/* 1, or the ranks of a GPU row run on several GPUs: its ceiling is that many devices' */
double roof_devices(const struct csv_row *r);
/* Lattice bytes (two lattices, padding included; a stream row: its arrays, program bytes an
 * element x nx) within 2 x the LLC or L2 the row reports: a sweep then finds much of what it reads
 * still in cache, and the DRAM ceiling does not bound it. A stream row (its arrays: update's one)
 * in the cache sets a ceiling only where no row of its kind out of the cache was given (a 1 MiB
 * copy on a 300 MiB cache runs several times the memory's bandwidth). */
int roof_cache_resident(const struct csv_row *r);
/* 1 when stream row s, moving s_bw, should replace best (NULL: none yet; moving best_bw) as a
 * ceiling: a row out of the cache before any in it, then the faster (a 1 MiB copy beside the
 * default size must not set the ceiling; in the cache alone, it does, flagged ceiling_in_cache) */
int roof_faster_ceiling(const struct csv_row *s, double s_bw, const struct csv_row *best,
                        double best_bw);

/* The kernels that set the LBM ceiling: single-stream copies (copy, copy_nt, memcpy). copy19 and
 * the in-place stream kernels (update) give second, tighter ceilings beside it; the other stream
 * kernels (scale, add, triad, load, store, ...) are reported, never a ceiling. */
int roof_is_copy(const char *kernel);
int roof_is_copy19(const char *kernel);
/* 1 for a stream kernel that loads and stores one array in place (the stream model's rule) */
int roof_is_stream_in_place(const char *kernel);
/* 1 for an LBM kernel that keeps one lattice, updated in place (the LBM model's rule: aa) */
int roof_is_lbm_in_place(const char *kernel);

/* An LBM row's worst-repetition and median rates (MFLUP/s): from t_max and mflups_med, each
 * falling back to the next better figure when the file lacks the column. */
double roof_mflups_med(const struct csv_row *r);
double roof_mflups_min(const struct csv_row *r);

/* Energy of one fluid-cell update, nJ: energy_J (the timed set: every rank, steps x reps) over
 * fluid_cells x steps x reps; NaN where the row has no energy. */
double roof_nJ_per_update(const struct csv_row *r);
/* How far the integrated power samples (energy_polled_J) lie from the counter's energy_J,
 * percent of energy_J (signed); NaN where either is missing. */
double roof_polled_dev_pct(const struct csv_row *r);

/* best copy, copy19 and in-place kernel per (host, device, backend, precision, store kind) */
struct roof_ceilings;
int roof_ceilings_build(const struct csv_table *t, struct roof_ceilings **c);
void roof_ceilings_free(struct roof_ceilings *c);

struct roof_eval {
    const struct csv_row *lbm;
    const struct csv_row *copy;   /* best single-stream copy, same store kind; NULL if none */
    const struct csv_row *copy19; /* best 19-stream copy, same store kind; NULL if none */
    /* in-place LBM rows only: the best in-place stream kernel (update), same store kind; NULL if
     * none or the row is not in place */
    const struct csv_row *in_place;
    double ceiling_mflups, pct, pct_med, pct_min;
    double copy19_mflups, pct_copy19;
    double in_place_mflups, pct_in_place;
    double pct_of_peak;
    /* above_ceiling: faster than the copy ceiling and, where the row has an in-place ceiling,
     * than that too (an in-place kernel may beat copy_nt where the host moves in-place traffic
     * faster: data/stream/update-inplace-h200-2026-11-28) */
    int above_ceiling, cache_resident;
    int ceiling_in_cache; /* the copy ceiling's arrays fit in the cache: no larger copy given */
};

/* A row's flags column, space-separated in one order for the report and the summary: no_ceiling
 * (roof_evaluate returned 1), above_ceiling, cache_resident, ceiling_in_cache, not_verified. */
void roof_flags(const struct roof_eval *e, int no_ceiling, int not_verified, char *f, size_t len);

/* Evaluates one LBM row against the verified STREAM rows indexed in c; the store kind of the
 * ceiling matches the row's (write_allocate equal). Returns 0, or 1 when no copy matched. */
/* The precision of the copy rows that bound an LBM row of `precision`: its own, except fp16c,
 * whose 2-byte values the fp16s copy moves (the copy moves bits; stream-* runs only fp16s). */
const char *roof_copy_precision(const char *precision);
int roof_evaluate(const struct roof_ceilings *c, const struct csv_row *lbm, struct roof_eval *e);

/* Why an LBM row has no ceiling, in one sentence without a newline (what is missing, or which
 * stream rows failed verification and where). */
void roof_no_ceiling_reason(const struct roof_ceilings *c, const struct csv_table *t,
                            const struct csv_row *lbm, char *msg, size_t len);

/* 1, with one sentence in msg, where an in-place LBM row has no in-place ceiling because every
 * in-place stream row of its group failed verification (the row then keeps the copy's flags). */
int roof_in_place_failed(const struct roof_ceilings *c, const struct csv_table *t,
                         const struct csv_row *lbm, char *msg, size_t len);

/* 1 where the input holds a verified single-stream copy row of r's machine (host, device,
 * backend) at any precision or store kind: its stream CSV was given, whether or not a copy of
 * r's own precision and store kind is in it. */
int roof_machine_has_copy(const struct roof_ceilings *c, const struct csv_row *r);

/* The one place that says why LBM rows lack a ceiling (and an in-place row its in-place
 * ceiling), for every mode that shows them: each distinct reason (roof_no_ceiling_reason,
 * roof_in_place_failed) once on stderr, at most 16, then one line counting the rest. A 16-bit
 * row without a 2-byte copy so names the fp16s copy it lacks in the report and --table alike. */
void roof_say_missing_ceilings(const struct roof_ceilings *c, const struct csv_table *t);

/* Checks every number the tool uses in rows [from, t->n): finite, and positive where it
 * divides or is a rate. Returns 0, or 1 with "file:line: column C: value V is ..." in err. */
int roof_check_numbers(const struct csv_table *t, size_t from, char *err, size_t len);

/* One warning line on stderr for each machine (host, device, backend) whose rows come from more
 * than one build (version): rows of two machines that share a host name (every lent VM is 'vm')
 * read as one machine, which only the builds betray. 0, or 1 out of memory. */
int roof_warn_builds(const struct csv_table *t);
/* Sorts the indices idx[0..n) of t's rows by cmp, ties in file order (a stable order). */
void roof_sort_rows(const struct csv_table *t, size_t *idx, size_t n,
                    int (*cmp)(const struct csv_row *, const struct csv_row *));

#endif
