/* roofline_main.c: `roofline [options] FILE...`: reads stream and lbm CSV files (any mix, any
 * machines) and writes the percent-of-ceiling report, the per-device summary or the regression
 * gate as CSV, or a plain-text table; optionally the plots. Exit 0 ok, 1 a regression or a
 * failed verification, 2 bad input (one line on stderr, no CSV), 3 an output that cannot be
 * written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ceiling.h"
#include "cli.h"
#include "csv.h"
#include "roofline.h"

/* percentage points of ceiling: the repeatability study (data/reliability/) found the median of
 * ten separate H100 runs within 0.41% (STREAM) and 0.17% (LBM); a drop counts as a regression
 * only beyond the tolerance below the baseline's slowest repetition, so a noisy host's spread
 * is taken into account by the rule itself */
#define DEFAULT_TOLERANCE 1.0

static void usage(const char *prog)
{
    fprintf(
        stdout,
        "usage: %s [options] FILE...\n"
        "Reads stream and lbm CSV files (schema 1; FILE '-' is standard input, once) and\n"
        "writes CSV to stdout or -o FILE.\n"
        "  (default)            each lbm row: ceiling, percent of ceiling and of peak, flags\n"
        "  --summary            one row per device: copy GB/s, peak, best MFLUP/s sp and dp\n"
        "  --table              per device a short plain-text table (no CSV) for people\n"
        "  --baseline FILE      regression gate against an earlier run: FILE holds that run's\n"
        "                       raw stream and lbm rows, or its roofline.csv (the report);\n"
        "                       --baseline - reads it from standard input (then no FILE '-');\n"
        "                       exit 1 on a regression or a failed verification\n"
        "  --tolerance PCT      gate tolerance in points of percent of ceiling (default %.0f):\n"
        "                       regressed = current median below the baseline's slowest\n"
        "                       repetition by more than PCT; a smaller drop of the medians\n"
        "                       beyond PCT is inconclusive\n"
        "  --gate-energy PCT    the gate also judges MFLUP/s per W (column energy_status;\n"
        "                       off without this option): regressed = a drop of more than\n"
        "                       PCT percent of the baseline's figure plus both windows'\n"
        "                       meter disagreement (energy_J against energy_polled_J);\n"
        "                       exit 1 on such a regression too\n"
        "  --plot DIR           also write the roofline, size, padding and energy plots\n"
        "                       (SVG with gnuplot; .gp and .dat files in any case)\n"
        "  -o, --output FILE    write CSV there instead of stdout; FILE is replaced once the\n"
        "                       report is complete (a failed run leaves it as it was) and\n"
        "                       may not be one of the input files nor of the plots\n"
        "  -h, --help           this text;  --version  the suite version\n"
        "Exit status: 0 ok, 1 regression or failed verification, 2 bad input, 3 an output\n"
        "that cannot be written.\n",
        prog, DEFAULT_TOLERANCE);
}

enum {
    OPT_SUMMARY = 256,
    OPT_BASELINE,
    OPT_TOL,
    OPT_PLOT,
    OPT_VERSION,
    OPT_TABLE,
    OPT_GATE_ENERGY
};

enum mode { MODE_REPORT, MODE_SUMMARY, MODE_TABLE, MODE_GATE };

/* the files already read, by device and inode: the same file twice counts once */
struct seen {
    dev_t dev;
    ino_t ino;
    const char *name;
};

static int write_failed(FILE *out, const char *path)
{
    int bad = fflush(out) != 0 || ferror(out);
    if (out != stdout) bad |= fclose(out) != 0;
    if (bad)
        fprintf(stderr, "roofline: cannot write %s: %s\n", path ? path : "stdout",
                errno ? strerror(errno) : "write error");
    return bad;
}

/* -o FILE: the report goes to a temporary file beside FILE (tmp, made here), renamed over FILE
 * once it is complete (report_commit), so that a failure leaves no partial CSV and whatever FILE
 * held before untouched; a FILE that was there keeps its permission bits. A path that exists and
 * is not a regular file (/dev/full, a pipe) or is a symbolic link is written in place, through
 * the link (tmp left empty). NULL with errno set when neither can be opened. */
static FILE *report_open(const char *path, char *tmp, size_t tmplen)
{
    struct stat st;
    const int exists = lstat(path, &st) == 0;
    tmp[0] = '\0';
    if (exists && !S_ISREG(st.st_mode)) return fopen(path, "w");
    if ((size_t)snprintf(tmp, tmplen, "%s.XXXXXX", path) >= tmplen) {
        tmp[0] = '\0';
        errno = ENAMETOOLONG;
        return NULL;
    }
    const int fd = mkstemp(tmp);
    if (fd < 0) {
        tmp[0] = '\0';
        return NULL;
    }
    const mode_t mask = umask(0);
    umask(mask);
    const mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
    FILE *f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        const int e = errno;
        close(fd);
        remove(tmp);
        tmp[0] = '\0';
        errno = e;
    }
    return f;
}

/* the temporary file renamed over path when keep, else removed; 0, or 3 (said on stderr) when
 * the rename fails */
static int report_commit(const char *tmp, const char *path, int keep)
{
    if (!tmp[0]) return 0;
    if (keep && rename(tmp, path) == 0) return 0;
    if (keep) fprintf(stderr, "roofline: error: -o %s: %s\n", path, strerror(errno));
    remove(tmp);
    return keep ? 3 : 0;
}

/* --plot's folder made, then -o opened (*out, tmp as report_open's): -o may name a file in the
 * plot folder this run makes. An -o that cannot be opened is bad input (exit 2, as the
 * executables', said) and leaves nothing behind: a plot folder made for this run is removed
 * again, before any plot is in it. */
static int open_outputs(const char *plot_dir, const char *out_path, FILE **out, char *tmp,
                        size_t tmplen)
{
    int made = 0;
    if (plot_dir && roof_plot_folder(plot_dir, &made)) return 2;
    if (!out_path) return 0;
    *out = report_open(out_path, tmp, tmplen);
    if (*out) return 0;
    const int e = errno;
    if (made) rmdir(plot_dir);
    *out = stdout;
    return cli_error("roofline", 2, "-o %s: %s", out_path, strerror(e));
}

static int run_mode(int mode, FILE *out, const struct roof_baseline *base,
                    const struct csv_table *cur, const char *names, double tol, double energy_tol)
{
    switch (mode) {
    case MODE_SUMMARY:
        return roof_summary(out, cur);
    case MODE_TABLE:
        return roof_table(out, cur);
    case MODE_GATE:
        return roof_gate(out, base, cur, names, tol, energy_tol);
    default:
        return roof_report(out, cur);
    }
}

/* out flushed and closed, then -o's temporary file renamed over out_path where the run succeeded
 * (rc 0 or 1) and removed where it did not; the exit status: rc, or 3 when the output cannot be
 * written or renamed (said on stderr) */
static int finish_output(FILE *out, const char *out_path, const char *tmp, int rc)
{
    errno = 0;
    if (write_failed(out, out_path) && rc != 2) rc = 3;
    if (out_path) {
        const int rename_rc = report_commit(tmp, out_path, rc < 2);
        if (rename_rc) rc = rename_rc;
    }
    return rc;
}

/* stat of an input: standard input's for "-" */
static int stat_input(const char *path, struct stat *st)
{
    return roof_is_stdin(path) ? fstat(STDIN_FILENO, st) : stat(path, st);
}

/* 2 (said on stderr) where "-" (standard input) is named more than once, as an input or the
 * baseline (it can be read once), or at all while standard input was closed when the run began
 * (stdin_closed: cli_std_fds put /dev/null there, which would read as an empty file) or is open
 * for writing only (`0>FILE`: no read would say why) */
static int stdin_check(const char *baseline, char **files, int n, int stdin_closed)
{
    int k = baseline && roof_is_stdin(baseline);
    for (int i = 0; i < n; i++)
        k += roof_is_stdin(files[i]);
    const int mode = fcntl(STDIN_FILENO, F_GETFL);
    if (k == 1 && (stdin_closed || (mode >= 0 && (mode & O_ACCMODE) == O_WRONLY)))
        return cli_error("roofline", 2,
                         "%s: cannot read standard input: it is %s (give '-' a file or a "
                         "pipe: - < FILE)",
                         ROOF_STDIN_NAME, stdin_closed ? "closed" : "open for writing only");
    if (k < 2) return 0;
    return cli_error("roofline", 2,
                     "'-' (standard input) is given more than once: it can be read once; save it "
                     "to a file to name it again");
}

/* 2 (said on stderr) when -o names one of the files read (standard input's too), which the
 * report would replace */
static int output_is_input(const char *out_path, const char *baseline, char **files, int n)
{
    struct stat o, st;
    if (!out_path || stat(out_path, &o) != 0 || !S_ISREG(o.st_mode)) return 0;
    for (int i = -1; i < n; i++) {
        const char *f = i < 0 ? baseline : files[i];
        if (f && stat_input(f, &st) == 0 && st.st_dev == o.st_dev && st.st_ino == o.st_ino)
            return cli_error("roofline", 2,
                             "-o %s: that is %s, an input of this report, which the report would "
                             "replace; name another file",
                             out_path, roof_is_stdin(f) ? ROOF_STDIN_NAME : f);
    }
    return 0;
}

/* One input's rows appended to cur: standard input for "-" */
static int read_input(const char *path, struct csv_table *cur, char *err, size_t len)
{
    if (roof_is_stdin(path)) return csv_read(stdin, ROOF_STDIN_NAME, cur, err, len);
    return csv_read_path(path, cur, err, len);
}

/* The input files' rows into cur, each file once (a second name of a file read already is said
 * and skipped); names lists them for the gate's messages. 0, or 2 said on stderr. */
static int read_inputs(char **files, int n, struct csv_table *cur, char *names, size_t namelen)
{
    struct seen *seen = calloc((size_t)n, sizeof *seen);
    size_t nseen = 0;
    char err[512];
    int rc = 0;
    if (!seen) return cli_error("roofline", 2, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) {
        struct stat st;
        size_t from = cur->n, k;
        const char *name = roof_is_stdin(files[i]) ? ROOF_STDIN_NAME : files[i];
        const int known = stat_input(files[i], &st) == 0;
        if (known && S_ISDIR(st.st_mode)) {
            rc = cli_error("roofline", 2, "%s is a folder: give the CSV files in it", name);
            break;
        }
        if (known && S_ISREG(st.st_mode)) {
            for (k = 0; k < nseen; k++)
                if (seen[k].dev == st.st_dev && seen[k].ino == st.st_ino) break;
            if (k < nseen) {
                fprintf(stderr,
                        "roofline: warning: %s is %s given again: its rows are counted "
                        "once\n",
                        name, seen[k].name);
                continue;
            }
            seen[nseen++] = (struct seen){st.st_dev, st.st_ino, name};
        }
        if (read_input(files[i], cur, err, sizeof err) ||
            roof_check_numbers(cur, from, err, sizeof err))
            rc = cli_error("roofline", 2, "%s", err);
        else if (strlen(names) + strlen(name) + 8 < namelen)
            snprintf(names + strlen(names), namelen - strlen(names), "%s%s", *names ? ", " : "",
                     name);
    }
    free(seen);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"summary", no_argument, 0, OPT_SUMMARY},
        {"table", no_argument, 0, OPT_TABLE},
        {"baseline", required_argument, 0, OPT_BASELINE},
        {"tolerance", required_argument, 0, OPT_TOL},
        {"gate-energy", required_argument, 0, OPT_GATE_ENERGY},
        {"plot", required_argument, 0, OPT_PLOT},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    const char *out_path = NULL, *baseline = NULL, *plot_dir = NULL;
    int summary = 0, table = 0, tol_given = 0, c, idx, rc, mode;
    double tol = DEFAULT_TOLERANCE;
    /* percent of the baseline's MFLUP/s per W; no default: no repeatability study of energy
     * yet says what a machine's run-to-run spread is, so the user names it */
    double energy_tol = NAN;
    char err[512], names[512] = "", tmp[4096] = "";
    struct csv_table cur = {0};
    struct roof_baseline base = {0};
    FILE *out = stdout;

    const int stdin_closed = cli_std_fds() & 1 << STDIN_FILENO;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, &idx)) != -1) {
        switch (c) {
        case OPT_SUMMARY:
            summary = 1;
            break;
        case OPT_TABLE:
            table = 1;
            break;
        case OPT_BASELINE:
            baseline = optarg;
            break;
        case OPT_TOL:
            if (cli_opt_double("--tolerance", optarg, 0, 100, &tol, err, sizeof err))
                return cli_error("roofline", 2, "%s", err); /* nothing allocated yet */
            tol_given = 1;
            break;
        case OPT_GATE_ENERGY:
            if (cli_opt_double("--gate-energy", optarg, 0, 100, &energy_tol, err, sizeof err))
                return cli_error("roofline", 2, "%s", err);
            break;
        case OPT_PLOT:
            plot_dir = optarg;
            break;
        default:
            rc = cli_common_option(c, OPT_VERSION, argc, argv, longopts, &out_path, usage, err,
                                   sizeof err);
            if (rc == -1) return 0;
            if (rc) return cli_error("roofline", 2, "%s", err);
        }
    }
    if (out_path && strcmp(out_path, "-") == 0) out_path = NULL; /* -o -: stdout */
    /* a reader that goes away (`| head`) or a file size limit then fail the write (exit 3, said
     * on stderr, the -o file untouched) instead of killing the program unannounced */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    if (optind == argc)
        return cli_error("roofline", 2,
                         "no input files (give stream and lbm CSV files; see "
                         "--help)");
    if (summary + table + (baseline != NULL) > 1)
        return cli_error("roofline", 2,
                         "--summary, --table and --baseline are separate "
                         "reports; choose one");
    if (!isnan(energy_tol) && !baseline)
        return cli_error("roofline", 2,
                         "--gate-energy PCT judges the gate's cases: give --baseline FILE "
                         "too");
    if (tol_given && !baseline) /* else a gate meant to be run would go unrun, unsaid */
        return cli_error("roofline", 2, "--tolerance PCT is the gate's: give --baseline FILE too");
    mode = summary ? MODE_SUMMARY : table ? MODE_TABLE : baseline ? MODE_GATE : MODE_REPORT;
    if (stdin_check(baseline, argv + optind, argc - optind, stdin_closed)) return 2;
    if (output_is_input(out_path, baseline, argv + optind, argc - optind)) return 2;
    /* the plots are written first: -o on one of them would swap its data for the report */
    if (out_path && plot_dir && roof_plot_writes(plot_dir, out_path, err, sizeof err))
        return cli_error("roofline", 2, "-o %s: that is %s; name a file outside the plots",
                         out_path, err);
    rc = read_inputs(argv + optind, argc - optind, &cur, names, sizeof names);
    if (rc == 0 && baseline) rc = roof_baseline_read(baseline, &base);
    if (rc == 0 && cur.n == 0) rc = cli_error("roofline", 2, "the input files hold no rows");
    if (rc == 0 && roof_warn_builds(&cur)) rc = cli_error("roofline", 2, "out of memory");
    /* the report's and the gate's refusals before any plot: a refused run writes nothing */
    if (rc == 0 && mode == MODE_REPORT) rc = roof_report_check(&cur);
    if (rc == 0 && mode == MODE_GATE) rc = roof_gate_check(&base, &cur, names, energy_tol);
    if (rc == 0) rc = open_outputs(plot_dir, out_path, &out, tmp, sizeof tmp);
    if (rc) goto done;
    /* the plots before the CSV: a bad folder or a failing gnuplot leaves no CSV behind */
    if (plot_dir) rc = roof_plot(plot_dir, &cur);
    if (rc == 0) rc = run_mode(mode, out, &base, &cur, names, tol, energy_tol);
    rc = finish_output(out, out_path, tmp, rc);
done:
    csv_table_free(&cur);
    roof_baseline_free(&base);
    return rc;
}
