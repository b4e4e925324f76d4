/* cli.h: the list syntax shared by every executable ("32:512:16", "1M:1G:x2", "64,128,256")
 * and small helpers for options that take one value or a set of names. */
#ifndef LBMR_CLI_H
#define LBMR_CLI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest sweep one list may expand to; more is almost surely a typo ("1:1G:1"). */
#define CLI_LIST_MAX 4096

struct cli_list {
    size_t n;
    size_t min_step; /* smallest arithmetic step a:b:step given; 0 if none */
    size_t step_gcd; /* greatest common divisor of those steps (a unit divides every step if it
                      * divides this); 0 if none */
    size_t v[CLI_LIST_MAX];
};

/* Formats an error message and makes it one printable line: control characters the user typed
 * (echoed in quotes) become '?'. Returns 1, for `return cli_fail(...)`. */
int cli_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prints "prog: error: <message>" on stderr and returns code: `rc = cli_error(...); goto done;` */
int cli_error(const char *prog, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Byte suffixes (only where allow_suffix): KiB/MiB/GiB/TiB and bare K/M/G/T are powers of 1024
 * (2^10 ... 2^40), KB/MB/GB/TB powers of 1000 (SI); the letter in either case. */
int cli_parse_value(const char *text, int allow_suffix, size_t *out, char *err, size_t errlen);

/* A comma-separated list whose items are values or ranges: "a:b:step" (arithmetic) or
 * "a:b:xF" (geometric, factor F >= 2); "a:b" means step 1, or with allow_suffix (byte sizes)
 * factor 2 ("1K:4K" = 1K,2K,4K). Every value must lie in [lo, hi]; out->min_step keeps the
 * smallest arithmetic step and out->step_gcd their greatest common divisor, for callers whose
 * values come in units (elements).
 * Values keep their order; duplicates are kept (the user asked for them). */
int cli_parse_list(const char *text, int allow_suffix, size_t lo, size_t hi, struct cli_list *out,
                   char *err, size_t errlen);

/* A comma-separated list of names, each one of `names` (count n). Sets out[i] = index of the
 * i-th name given; *count = how many. Duplicates are refused. */
int cli_parse_names(const char *text, const char *const *names, int n, int *out, int *count,
                    char *err, size_t errlen);

/* Option helpers: parse one option's value; on error the message names the option. */
int cli_opt_int(const char *opt, const char *text, long lo, long hi, int *out, char *err,
                size_t errlen);
int cli_opt_list(const char *opt, const char *text, int allow_suffix, size_t lo, size_t hi,
                 struct cli_list *out, char *err, size_t errlen);
/* a finite number in (lo, hi) */
int cli_opt_double(const char *opt, const char *text, double lo, double hi, double *out, char *err,
                   size_t errlen);

/* A list of CUDA threads-per-block values: multiples of 32 from 32 to 1024. */
int cli_opt_block(const char *opt, const char *text, struct cli_list *out, char *err,
                  size_t errlen);

/* Descriptors 0, 1 and 2 open (on /dev/null, read-only, where one was closed), first thing in
 * main: a run started with stderr closed would otherwise get descriptor 2 for its -o file, and
 * every message would land in the CSV. Returns the descriptors found closed, bit 1 << fd each:
 * a program that reads standard input can refuse a closed one instead of reading /dev/null's
 * nothing as an empty file. */
int cli_std_fds(void);

/* --threads LIST: OpenMP thread counts from 1 for a cpu backend (backend "cpu"; elsewhere
 * refused, as the option is cpu-only). */
int cli_opt_threads(const char *backend, const char *text, struct cli_list *out, char *err,
                    size_t errlen);

/* Each count of --threads at most cpus (device_facts' cpus; 0: not checked), once the backend
 * has said how many, and without --threads the runtime's default team (default_threads: from
 * OMP_NUM_THREADS) likewise: more threads than CPUs time-share them and would measure the
 * scheduler, not the memory. Not at parsing: a runtime that pins the initial thread
 * (OMP_PROC_BIND, likwid-pin) has by then narrowed that thread's affinity mask to one CPU. */
int cli_check_threads(const struct cli_list *threads, int cpus, int default_threads, char *err,
                      size_t errlen);

struct option; /* getopt.h's */

/* The options every executable shares, for the tail of its getopt_long switch, right after
 * getopt_long returned c (it reads optarg, optind and optopt): version_code is the code of
 * --version, longopts the table given to getopt_long. -o/--output sets *out_path; -h prints
 * usage (the usage function writes to stdout); --version prints the suite version on stdout.
 * Returns 0 (handled), -1 (help or version printed: exit 0), or 2 (bad input, message in err). */
int cli_common_option(int c, int version_code, int argc, char **argv, const struct option *longopts,
                      const char **out_path, void (*usage)(const char *), char *err, size_t errlen);

/* The one line for an option getopt_long refused ('?' returned, opterr 0), right after it: an
 * unknown short option by its letter and the cluster it sits in ("-l" in "-lead.csv"), an
 * abbreviation that fits several long options with their names, a value given to an option that
 * takes none, anything else by its argument. */
void cli_bad_option(int argc, char **argv, const struct option *longopts, char *err, size_t errlen);

/* 2 with a message if operands follow the options, else 0. */
int cli_no_operands(int argc, char **argv, int optind_, char *err, size_t errlen);

/* Keeps the chosen ids a backend supports: with *n == 0, fills ids with every supported one of
 * 0..count-1; otherwise refuses (1, message naming the option and why) the first unsupported. */
int cli_select_supported(int *ids, int *n, int count, const char *const *names, const char *opt,
                         int (*supported)(int id, char *why, size_t whylen), char *err,
                         size_t errlen);

/* "all names joined by commas", for error messages. */
void cli_join_names(const char *const *names, int n, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
