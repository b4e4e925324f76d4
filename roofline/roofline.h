/* roofline.h: the roofline tool's modes, each writing CSV (or, for the table, plain text) to
 * `out`. They check everything before writing, so an error leaves no partial output; they
 * return 0, 1 (the gate found a regression or a failed verification), or 2 (nothing usable in
 * the input; one line on stderr). */
#ifndef ROOF_ROOFLINE_H
#define ROOF_ROOFLINE_H

#include <stdio.h>
#include <string.h>

#include "csv.h"

/* An input named "-" is standard input (read once: a second "-" is refused), named so in
 * messages: "(stdin):3: column nx ..." */
#define ROOF_STDIN_NAME "(stdin)"
static inline int roof_is_stdin(const char *path)
{
    return strcmp(path, "-") == 0;
}

struct gate_case; /* one gate key with its percentages (gate.c) */

/* An earlier run kept for the gate: its raw stream and lbm rows, or its roofline.csv. */
struct roof_baseline {
    const char *path;
    struct csv_table raw;    /* schema-1 rows, when the file is raw */
    struct gate_case *cases; /* from a roofline.csv, when it is one */
    size_t ncases;
    int is_report;
};

int roof_report(FILE *out, const struct csv_table *t);
/* The report's refusals alone (no lbm rows, or no verified copy row of any lbm row's machine; a
 * row whose precision or store kind lacks its copy is no refusal: it is flagged no_ceiling): 0,
 * or 2 with its one line on stderr; so a run refused writes no plot either. */
int roof_report_check(const struct csv_table *t);
int roof_summary(FILE *out, const struct csv_table *t);
int roof_table(FILE *out, const struct csv_table *t);
/* Reads path as raw rows or as an earlier roofline.csv (sniffed from the header); 0, or 2
 * with the message on stderr. */
int roof_baseline_read(const char *path, struct roof_baseline *b);
void roof_baseline_free(struct roof_baseline *b);
/* tolerance_pct: points of percent of ceiling; energy_tol_pct: percent of the baseline's
 * MFLUP/s per W, or NaN to leave energy out of the verdict and the exit status */
int roof_gate(FILE *out, const struct roof_baseline *base, const struct csv_table *cur,
              const char *cur_names, double tolerance_pct, double energy_tol_pct);
/* The gate's refusals alone (no current lbm rows, none with a ceiling, no usable baseline case,
 * nothing compared, nothing compared by energy with --gate-energy): 0, or 2 with its one line on
 * stderr; so a refused gate writes no plot either. */
int roof_gate_check(const struct roof_baseline *base, const struct csv_table *cur,
                    const char *cur_names, double energy_tol_pct);
/* Makes --plot's folder where it is not there yet (*made: 1 when this call made it, so that a
 * run refused afterwards can remove it again); 0, or 2 said on stderr when it cannot be made. */
int roof_plot_folder(const char *dir, int *made);
/* Writes .dat and .gp files into dir (made by roof_plot_folder) for the roofline, size, padding
 * and energy plots and renders SVG with gnuplot when it is installed.
 * 0; 2 when dir cannot be written; 3 when a file or gnuplot fails (gnuplot killed too). */
int roof_plot(const char *dir, const struct csv_table *t);
/* 1 when path names a file roof_plot writes into dir (or dir itself), existing yet or not, with
 * which in what (for the refusal); else 0. */
int roof_plot_writes(const char *dir, const char *path, char *what, size_t len);

/* CSV output helpers: a text field or a number (empty when NaN), then a comma or the newline. */
static inline void roof_str(FILE *f, const char *s, int last)
{
    csv_write_field(f, s);
    fputc(last ? '\n' : ',', f);
}
static inline void roof_num(FILE *f, double v, int last)
{
    if (v == v) fprintf(f, "%.10g", v);
    fputc(last ? '\n' : ',', f);
}

#endif
