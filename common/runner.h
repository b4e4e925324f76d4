/* runner.h: the sweep both drivers run. The case list is built once; every case is checked (can
 * the backend run it, does the largest fit in memory) before anything runs; then each case runs
 * and writes its row. The output file, interrupts, progress, the energy meter and the exit status
 * are handled here, once. A driver supplies its case type through struct runner_ops. */
#ifndef LBMR_RUNNER_H
#define LBMR_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "energy.h"
#include "output.h"
#include "progress.h"
#include "quiet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most cases one sweep may hold: as CLI_LIST_MAX says of one list, a longer sweep is almost
 * surely a typo (it would run for days), and refusing it keeps the list's memory bounded. */
#define RUNNER_CASES_MAX (1 << 20)

struct runner;
struct csv_record;

struct runner_ops {
    size_t case_size; /* bytes of the driver's case type */
    /* Every case, in the order they run, through runner_add; 0, or 1 when runner_add refused. */
    int (*expand)(void *ctx, struct runner *r);
    /* 0 if case c can run here, with *bytes what one process allocates for it; else 1 and why
     * not in why (bad input: nothing runs). */
    int (*check)(void *ctx, const void *c, size_t *bytes, char *why, size_t whylen);
    /* one line naming case c, for the progress line and messages */
    void (*describe)(void *ctx, const void *c, char *what, size_t len);
    /* Runs case c and writes its row (runner_write). 0, or 1 on a run-time error (said), an
     * interrupt (the case dropped, nothing said) or a failed write. */
    int (*run)(void *ctx, struct runner *r, const void *c, const char *what);
};

struct runner {
    /* set by the driver: */
    const char *prog;
    const struct runner_ops *ops;
    void *ctx;
    int rank;              /* 0 says errors and notes, writes the output and the progress line */
    int (*all_max)(int v); /* the largest v over the job's processes; NULL: one process */
    const char *out;       /* NULL: stdout */
    enum output_mode out_mode;
    size_t memory_available; /* bytes one process may allocate; 0: unknown */
    /* the refusal when the largest case does not fit: "<needs_what> needs N GiB<needs_per> but
     * only M GiB are available: <needs_hint>" */
    const char *needs_what, *needs_per, *needs_hint;
    const char *note; /* said once the cases passed their check (the defaults chosen); or NULL */
    bool energy_enabled;
    const char *energy_why_off; /* why the meter is off when not energy_enabled */
    int ntimes;                 /* room in times to start with */
    int check_only; /* --check: return after the cases' and the output's check, nothing run */
    /* the runner's, for the drivers' run(): */
    double *times; /* seconds, one per timed repetition (stats_reserve grows it) */
    struct energy_session energy;
    int failures; /* cases that failed verification: run() counts them */
    /* judges the timed repetitions (the driver sets quiet.probe, NULL for none, and for each
     * case quiet.threads); its highest clock lasts the process */
    struct quiet_judge quiet;
    /* the runner's own: */
    struct output output;
    struct progress progress;
    char *cases;
    size_t ncases, room;
    int rows, write_failed, too_many;
};

/* Appends case c to the list (from expand). 0, or 1 when the list is full or memory ran out. */
int runner_add(struct runner *r, const void *c);

/* Writes a finished row. 0, or 1 when the output cannot be written (said; the exit status is
 * then OUTPUT_EXIT and the sweep stops). */
int runner_write(struct runner *r, const struct csv_record *row);

/* Expands, checks, runs; returns the exit status: 0, 1 (a case failed verification or could not
 * run), 2 (bad input), OUTPUT_EXIT, 130 (interrupted). Everything it opened is closed again. */
int runner_run(struct runner *r);

#ifdef __cplusplus
}
#endif
#endif
