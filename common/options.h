/* options.h: command lines from tables. Each program lists its own options once, as {long name,
 * short name, value, help, parser}; the options every program shares are in one table here. The
 * getopt_long parser and the --help text are both generated from the tables, so an option cannot
 * be parsed without being documented, nor documented without being parsed. */
#ifndef LBMR_OPTIONS_H
#define LBMR_OPTIONS_H

#include <stddef.h>

#include "cli.h"
#include "output.h"
#include "precision.h"

#ifdef __cplusplus
extern "C" {
#endif

enum options_action { OPTIONS_PARSE, OPTIONS_HELP, OPTIONS_VERSION };

struct options_entry {
    const char *name; /* long name without "--"; NULL: a heading line of --help (help) */
    int short_name;   /* 'o', 'h' or 0 */
    const char *arg;  /* the value's name in --help ("LIST", "N"); NULL: the option takes none */
    const char *help; /* one paragraph; --help wraps it ("\n" forces a break) */
    /* NULL: every backend takes it; else the only backend ("cpu", "gpu") that does, and what
     * the others say when given it ("applies to lbm-gpu only (...)") */
    const char *only, *elsewhere;
    enum options_action action;
    /* OPTIONS_PARSE: reads the value into the program's options (the table's owner) or, for the
     * shared table, into struct options_common; 0, or 2 with a message in err */
    int (*parse)(void *opts, const char *arg, char *err, size_t errlen);
};

/* What every program's command line says, and the per-program limits of the shared options. */
struct options_common {
    /* set by the program before options_parse: */
    const char *backend;     /* "cpu" or "gpu": which options apply */
    int reps_max;            /* --reps N: 1..reps_max */
    const char *warmup_help; /* --warmup's help: a format with one %d, the default */
    /* --precision's help: the precisions the program runs ("sp,dp,fp16s"); NULL: every one */
    const char *precisions;
    int reps, warmup; /* their defaults, then what was given */
    /* filled by options_parse: */
    struct cli_list threads; /* cpu OpenMP threads, one row each; n == 0: the runtime's default */
    int precs[PREC_COUNT],
        nprecs;                /* nprecs == 0 after parsing: none given (the program's choice) */
    double peak_bw_GBs;        /* NaN: the backend's own figure */
    const char *out;           /* NULL: stdout */
    enum output_mode out_mode; /* --overwrite, --append */
    int quiet_wait_off;        /* --quiet-wait off: every timed repetition counts, none probed */
    int check_only;            /* --check: the cases made and checked, none run */
};

struct options_program {
    const char *about; /* the lines after "usage: PROG [options]" */
    const struct options_entry *entries;
    size_t count;
    /* the options that, given again, add to their list ("size dims", each name between spaces);
     * every other option given twice is refused, as the second would replace the first */
    const char *repeats;
};

/* Parses argv against the program's table and the shared one. Returns 0 to run, 2 on bad input
 * (one line in err), -1 when --help or --version was printed on stdout (exit 0). c's defaults
 * (peak_bw_GBs is set to NaN here) must be set before; *opts is the program's own struct. */
int options_parse(int argc, char **argv, const struct options_program *p, void *opts,
                  struct options_common *c, char *err, size_t errlen);

/* --help: the program's options, the shared ones, the exit statuses (on stdout). */
void options_usage(const char *prog, const struct options_program *p,
                   const struct options_common *defaults);

#ifdef __cplusplus
}
#endif
#endif
