/* roofline.h: the roofline tool's modes, each writing CSV to `out`; they return 0, 1 (the gate
 * found a regression), or 2 (nothing usable in the input; message on stderr). */
#ifndef ROOF_ROOFLINE_H
#define ROOF_ROOFLINE_H

#include <stdio.h>

#include "csv.h"

int roof_report(FILE *out, const struct csv_table *t);
int roof_summary(FILE *out, const struct csv_table *t);
int roof_gate(FILE *out, const struct csv_table *base, const struct csv_table *cur,
              double tolerance_pct);
/* Writes .dat and .gp files into dir and renders SVG with gnuplot when it is installed. */
int roof_plot(const char *dir, const struct csv_table *t);

/* CSV output helpers: a text field or a number (empty when NaN), then a comma or the newline. */
static inline void roof_str(FILE *f, const char *s, int last)
{
    csv_write_field(f, s);
    fputc(last ? '\n' : ',', f);
}
static inline void roof_num(FILE *f, double v, int last)
{
    if (v == v)
        fprintf(f, "%.10g", v);
    fputc(last ? '\n' : ',', f);
}

#endif
