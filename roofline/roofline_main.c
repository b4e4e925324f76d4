/* roofline_main.c: `roofline [options] FILE...`: reads stream and lbm CSV files (any mix, any
 * machines) and writes the percent-of-ceiling report, the per-device summary or the regression
 * gate as CSV; optionally the plots. Bad input: one line on stderr, exit 2, no CSV. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"
#include "roofline.h"

/* percentage points of ceiling: the repeatability study (data/reliability/) found the median of
 * ten separate H100 runs within 0.41% (STREAM) and 0.17% (LBM); rows whose own repetitions
 * spread wider than the tolerance (the noisy CPU host: 7-35%) come out inconclusive instead */
#define DEFAULT_TOLERANCE 1.0

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [options] FILE...\n"
            "Reads stream and lbm CSV files (schema 1) and writes CSV to stdout or -o FILE.\n"
            "  (default)            each lbm row: ceiling, percent of ceiling and of peak, flags\n"
            "  --summary            one row per device: copy GB/s, peak, best MFLUP/s sp and dp\n"
            "  --baseline FILE      regression gate against FILE's rows; exit 1 on a regression\n"
            "  --tolerance PCT      gate tolerance in points of percent of ceiling (default %.0f)\n"
            "  --plot DIR           also write the roofline, size and padding plots (SVG with\n"
            "                       gnuplot; .gp and .dat files in any case)\n"
            "  -o, --output FILE    write CSV there instead of stdout\n"
            "  -h, --help           this text;  --version  the suite version\n",
            prog, DEFAULT_TOLERANCE);
}

enum { OPT_SUMMARY = 256, OPT_BASELINE, OPT_TOL, OPT_PLOT, OPT_VERSION };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"summary", no_argument, 0, OPT_SUMMARY},
        {"baseline", required_argument, 0, OPT_BASELINE},
        {"tolerance", required_argument, 0, OPT_TOL},
        {"plot", required_argument, 0, OPT_PLOT},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    const char *out_path = NULL, *baseline = NULL, *plot_dir = NULL;
    int summary = 0, c, idx, rc;
    double tol = DEFAULT_TOLERANCE;
    char err[512];
    struct csv_table cur = {0}, base = {0};
    FILE *out = stdout;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, &idx)) != -1) {
        switch (c) {
        case OPT_SUMMARY:
            summary = 1;
            break;
        case OPT_BASELINE:
            baseline = optarg;
            break;
        case OPT_TOL:
            if (cli_opt_double("--tolerance", optarg, 0, 100, &tol, err, sizeof err))
                return cli_error("roofline", 2, "%s", err); /* nothing allocated yet */
            break;
        case OPT_PLOT:
            plot_dir = optarg;
            break;
        default:
            rc = cli_common_option(c, OPT_VERSION, optarg, argv, optind, &out_path, usage, err,
                                   sizeof err);
            if (rc == -1)
                return 0;
            if (rc)
                return cli_error("roofline", 2, "%s", err);
        }
    }
    if (optind == argc)
        return cli_error("roofline", 2, "no input files (give stream and lbm CSV files; see "
                                        "--help)");
    if (summary && baseline)
        return cli_error("roofline", 2, "--summary and --baseline are separate reports; choose "
                                        "one");
    rc = 0;
    for (int i = optind; i < argc && rc == 0; i++) {
        if (csv_read_path(argv[i], &cur, err, sizeof err))
            rc = cli_error("roofline", 2, "%s", err);
    }
    if (rc == 0 && baseline && csv_read_path(baseline, &base, err, sizeof err))
        rc = cli_error("roofline", 2, "--baseline: %s", err);
    if (rc == 0 && cur.n == 0)
        rc = cli_error("roofline", 2, "the input files hold no rows");
    if (rc)
        goto done;
    if (out_path) {
        out = fopen(out_path, "w");
        if (!out) {
            out = stdout;
            rc = cli_error("roofline", 2, "-o %s: %s", out_path, strerror(errno));
            goto done;
        }
    }
    if (summary)
        rc = roof_summary(out, &cur);
    else if (baseline)
        rc = roof_gate(out, &base, &cur, tol);
    else
        rc = roof_report(out, &cur);
    if (rc != 2 && plot_dir && roof_plot(plot_dir, &cur) == 2)
        rc = 2;
    if (out != stdout && fclose(out) != 0)
        rc = rc ? rc : cli_error("roofline", 1, "closing %s: %s", out_path, strerror(errno));
    if (rc == 2 && out_path && out != stdout)
        remove(out_path); /* no partial CSV */
done:
    csv_table_free(&cur);
    csv_table_free(&base);
    return rc;
}
