/* options.c: the getopt_long parser and the --help text, both generated from the option tables;
 * the options every program shares (precision, repetitions, threads, output, help, version). */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiet.h"
#include "sysinfo.h"

#define HELP_WIDTH 96    /* columns of --help: the widest line of the tables' texts */
#define HELP_NAME_MAX 24 /* a longer option name puts its help on the next line */
#define OPTION_CODE0 256 /* getopt_long codes of the entries: above every short option */
#define STR_(x) #x
#define STR(x) STR_(x) /* a constant's digits, for help texts */

static const char *const prec_names[PREC_COUNT] = {"sp", "dp", "fp16s", "fp16c"};

static int parse_precision(void *p, const char *a, char *err, size_t errlen)
{
    struct options_common *c = p;
    char sub[256];
    if (cli_parse_names(a, prec_names, PREC_COUNT, c->precs, &c->nprecs, sub, sizeof sub))
        return 2 * cli_fail(err, errlen, "--precision: %s", sub);
    return 0;
}

static int parse_reps(void *p, const char *a, char *err, size_t errlen)
{
    struct options_common *c = p;
    return 2 * cli_opt_int("--reps", a, 1, c->reps_max, &c->reps, err, errlen);
}

static int parse_warmup(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_int("--warmup", a, 0, 1000000, &((struct options_common *)p)->warmup, err,
                           errlen);
}

static int parse_peak(void *p, const char *a, char *err, size_t errlen)
{
    struct options_common *c = p;
    return 2 * cli_opt_double("--peak-bw", a, 0, 1e9, &c->peak_bw_GBs, err, errlen);
}

static int parse_threads(void *p, const char *a, char *err, size_t errlen)
{
    struct options_common *c = p;
    return 2 * cli_opt_threads(c->backend, a, &c->threads, err, errlen);
}

static int parse_output(void *p, const char *a, char *err, size_t errlen)
{
    if (!*a) return 2 * cli_fail(err, errlen, "-o: expected a file name");
    ((struct options_common *)p)->out = a;
    return 0;
}

static int parse_overwrite(void *p, const char *a, char *err, size_t errlen)
{
    (void)a;
    return output_mode_option(OUTPUT_OPT_OVERWRITE, &((struct options_common *)p)->out_mode, err,
                              errlen);
}

static int parse_check(void *p, const char *a, char *err, size_t errlen)
{
    (void)a;
    (void)err;
    (void)errlen;
    ((struct options_common *)p)->check_only = 1;
    return 0;
}

static int parse_append(void *p, const char *a, char *err, size_t errlen)
{
    (void)a;
    return output_mode_option(OUTPUT_OPT_APPEND, &((struct options_common *)p)->out_mode, err,
                              errlen);
}

static int parse_quiet_wait(void *p, const char *a, char *err, size_t errlen)
{
    struct options_common *c = p;
    if (strcmp(a, "on") != 0 && strcmp(a, "off") != 0)
        return 2 * cli_fail(err, errlen, "--quiet-wait '%s': expected on or off", a);
    c->quiet_wait_off = strcmp(a, "off") == 0;
    return 0;
}

/* --quiet-wait's help, with common/quiet.h's constants */
/* clang-format off */ /* it would break the text at each STR() */
#define QUIET_WAIT_HELP                                                                            \
    "cpu: on (default): read every thread's effective clock (a chain of adds, about 2 ms, "       \
    "outside the timed region) right before and after each timed repetition (or each block of "  \
    "them lasting 50 ms); a reading below "                                                       \
    STR(QUIET_CLOCK_PERCENT) "% of the highest clock seen marks it disturbed, and the run "       \
    "repeats until --reps undisturbed ones were timed (at most " STR(QUIET_ATTEMPTS_FACTOR)      \
    "x --reps attempts) and times the row from those (columns cpu_clock_MHz, cpu_clock_low_MHz, " \
    "reps_disturbed; clock_events cpu_unsteady when too few were undisturbed). off: every "       \
    "repetition counts, as before"
/* clang-format on */

/* precision's, reps' and warmup's help are formats of the program's own (options_usage) */
static const struct options_entry shared[] = {
    {NULL, 0, NULL, "Options of every executable:", NULL, NULL, OPTIONS_PARSE, NULL},
    {"precision", 0, "LIST", "%s (default sp,dp)", NULL, NULL, OPTIONS_PARSE, parse_precision},
    {"reps", 0, "N",
     "timed repetitions (default %d; where an energy counter is read, raised until they last "
     "its 2 s window: LBMR_ENERGY=off keeps N)",
     NULL, NULL, OPTIONS_PARSE, parse_reps},
    {"warmup", 0, "N", "untimed %s first (default %d)", NULL, NULL, OPTIONS_PARSE, parse_warmup},
    {"peak-bw", 0, "GBS",
     "theoretical bandwidth for the row (default: gpu from the memory clock and bus width; cpu "
     "unknown)",
     NULL, NULL, OPTIONS_PARSE, parse_peak},
    {"threads", 0, "LIST",
     "cpu: OpenMP thread counts, one row each, e.g. 1,2,4,8:64:8 (at most the CPUs this process "
     "may use; default OMP_NUM_THREADS or all); threads are placed as OMP_PROC_BIND and "
     "OMP_PLACES say",
     "cpu", "applies to the cpu executables only (OpenMP threads; the gpu ones take --block)",
     OPTIONS_PARSE, parse_threads},
    {"quiet-wait", 0, "on|off", QUIET_WAIT_HELP, "cpu",
     "applies to the cpu executables only (the gpu rows have no clock probe)", OPTIONS_PARSE,
     parse_quiet_wait},
    {"output", 'o', "FILE",
     "write CSV there instead of stdout (- means stdout); an existing file that is not empty is "
     "refused unless --overwrite or --append is given",
     NULL, NULL, OPTIONS_PARSE, parse_output},
    {"overwrite", 0, NULL, "start an existing output file afresh", NULL, NULL, OPTIONS_PARSE,
     parse_overwrite},
    {"append", 0, NULL, "add rows to an existing output file (its header must be this program's)",
     NULL, NULL, OPTIONS_PARSE, parse_append},
    {"check", 0, NULL,
     "check the arguments and make every case (each checked against the memory) but run none: "
     "exit 0, or 2 with the one line any run would give (the main job checks its arguments so)",
     NULL, NULL, OPTIONS_PARSE, parse_check},
    {"help", 'h', NULL, "this text", NULL, NULL, OPTIONS_HELP, NULL},
    {"version", 0, NULL, "the suite version", NULL, NULL, OPTIONS_VERSION, NULL},
};
#define NSHARED (sizeof shared / sizeof shared[0])

/* Writes text from column `at` on, wrapping words before HELP_WIDTH onto lines indented to col;
 * "\n" in text breaks the line. */
static void wrap(const char *text, int at, int col)
{
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, " \n");
        if (at > col && at + 1 + (int)len > HELP_WIDTH) {
            printf("\n%*s", col, "");
            at = col;
        } else if (at > col) {
            putchar(' ');
            at++;
        }
        printf("%.*s", (int)len, p);
        at += (int)len;
        p += len;
        if (*p == '\n') {
            printf("\n%*s", col, "");
            at = col;
        }
        while (*p == ' ' || *p == '\n')
            p++;
    }
    putchar('\n');
}

static int name_width(const struct options_entry *e)
{
    return (e->short_name ? 4 : 0) + 2 + (int)strlen(e->name) +
           (e->arg ? 1 + (int)strlen(e->arg) : 0);
}

static void usage_entry(const struct options_entry *e, int col, const struct options_common *d)
{
    char name[96], help[512];
    int w;
    if (!e->name) {
        wrap(e->help, 0, 0);
        return;
    }
    snprintf(name, sizeof name, "%s%s%s--%s%s%s", e->short_name ? "-" : "",
             e->short_name ? (char[2]){(char)e->short_name, 0} : "", e->short_name ? ", " : "",
             e->name, e->arg ? " " : "", e->arg ? e->arg : "");
    if (e->parse == parse_reps)
        snprintf(help, sizeof help, e->help, d->reps);
    else if (e->parse == parse_warmup)
        snprintf(help, sizeof help, e->help, d->warmup_help, d->warmup);
    else if (e->parse == parse_precision) { /* the program's list: stream has no fp16c */
        char all[64];
        cli_join_names(prec_names, PREC_COUNT, all, sizeof all);
        snprintf(help, sizeof help, e->help, d->precisions ? d->precisions : all);
    } else
        snprintf(help, sizeof help, "%s", e->help);
    w = printf("  %s", name);
    if (w + 2 > col) { /* too wide for the column: the help below it */
        printf("\n%*s", col, "");
        w = col;
    }
    printf("%*s", col - w, "");
    wrap(help, col, col);
}

void options_usage(const char *prog, const struct options_program *p,
                   const struct options_common *d)
{
    int col = 0;
    for (size_t i = 0; i < p->count + NSHARED; i++) {
        const struct options_entry *e = i < p->count ? &p->entries[i] : &shared[i - p->count];
        int w = e->name ? 2 + name_width(e) + 2 : 0;
        if (w <= HELP_NAME_MAX + 2 && w > col) col = w;
    }
    printf("usage: %s [options]\n", prog);
    wrap(p->about, 0, 0);
    for (size_t i = 0; i < p->count; i++)
        usage_entry(&p->entries[i], col, d);
    for (size_t i = 0; i < NSHARED; i++)
        usage_entry(&shared[i], col, d);
    printf("Exit status: 0 ok, 1 a case failed verification or could not run, 2 bad input,\n"
           "3 the output cannot be written, 130 interrupted (SIGINT, SIGTERM).\n");
}

/* The entry that getopt_long's code c stands for, or NULL. */
static const struct options_entry *entry_of(const struct options_program *p, int c, int *own)
{
    size_t i;
    for (i = 0; i < p->count + NSHARED; i++) {
        const struct options_entry *e = i < p->count ? &p->entries[i] : &shared[i - p->count];
        if (e->name && (c == OPTION_CODE0 + (int)i || (c < OPTION_CODE0 && c == e->short_name))) {
            *own = i < p->count;
            return e;
        }
    }
    return NULL;
}

/* whether e's values add up when it is given again (p->repeats names it) */
static int repeats(const struct options_program *p, const struct options_entry *e)
{
    const size_t n = strlen(e->name);
    for (const char *r = p->repeats ? p->repeats : ""; (r = strstr(r, e->name)) != NULL; r += n)
        if ((r == p->repeats || r[-1] == ' ') && (r[n] == ' ' || r[n] == '\0')) return 1;
    return 0;
}

/* 1 if e is among seen[0..*n); else 0, and e added (256 places: more than both tables hold) */
static int entry_seen(const struct options_entry *e, const struct options_entry **seen, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        if (seen[i] == e) return 1;
    if (*n < 256) seen[(*n)++] = e;
    return 0;
}

/* getopt_long's tables for both option tables: struct option[] (freed by the caller) and the
 * short options, ":o:h" (the leading ':' reports a missing value as ':'). */
static struct option *longopts_of(const struct options_program *p, char *shorts, size_t len)
{
    struct option *l = calloc(p->count + NSHARED + 1, sizeof *l);
    size_t n = 0, k = 1;
    shorts[0] = ':';
    for (size_t i = 0; l && i < p->count + NSHARED; i++) {
        const struct options_entry *e = i < p->count ? &p->entries[i] : &shared[i - p->count];
        if (!e->name) continue;
        l[n].name = e->name;
        l[n].has_arg = e->arg ? required_argument : no_argument;
        l[n++].val = OPTION_CODE0 + (int)i;
        if (e->short_name && k + 3 < len) {
            shorts[k++] = (char)e->short_name;
            if (e->arg) shorts[k++] = ':';
        }
    }
    shorts[k] = '\0';
    return l;
}

int options_parse(int argc, char **argv, const struct options_program *p, void *opts,
                  struct options_common *c, char *err, size_t errlen)
{
    const struct options_common defaults = *c; /* for --help, whatever came before it */
    char shorts[32];
    struct option *longopts = longopts_of(p, shorts, sizeof shorts);
    int code, idx, rc = 0;
    const struct options_entry *seen[256];
    size_t nseen = 0;

    if (!longopts) return 2 * cli_fail(err, errlen, "out of memory");
    c->peak_bw_GBs = NAN;
    opterr = 0;
    optind = 0; /* glibc: a full reset, also of a half-parsed cluster */
    while (rc == 0 && (code = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
        int own = 0;
        const struct options_entry *e = entry_of(p, code, &own);
        if (code == ':') {
            rc = 2 *
                 cli_fail(err, errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
        } else if (!e) {
            cli_bad_option(argc, argv, longopts, err, errlen);
            rc = 2;
        } else if (e->only && strcmp(e->only, c->backend) != 0) {
            rc = 2 * cli_fail(err, errlen, "--%s %s", e->name, e->elsewhere);
        } else if (e->action == OPTIONS_HELP) {
            options_usage(argv[0], p, &defaults);
            rc = -1;
        } else if (e->action == OPTIONS_VERSION) {
            printf("%s\n", sysinfo_version()); /* asked for: stdout, for pipes */
            rc = -1;
        } else if (!repeats(p, e) && entry_seen(e, seen, &nseen)) {
            rc = 2 * cli_fail(err, errlen,
                              "--%s given twice: give it once (a list's values in one, "
                              "comma-separated)",
                              e->name);
        } else {
            rc = e->parse(own ? opts : (void *)c, optarg, err, errlen);
        }
    }
    free(longopts);
    if (rc == 0) rc = cli_no_operands(argc, argv, optind, err, errlen);
    return rc;
}
