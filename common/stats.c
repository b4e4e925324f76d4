/* stats.c: min, median, max of repetition times. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int stats_compute(const double *x, size_t n, struct stats *out)
{
    double *s;

    if (n == 0) return 1;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i])) return 1;
    }
    s = malloc(n * sizeof *s);
    if (!s) return 1;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    out->min = s[0];
    out->max = s[n - 1];
    out->med = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return 0;
}

int stats_reserve(double **x, int *cap, int n)
{
    double *t;
    if (n <= *cap) return 0;
    t = realloc(*x, (size_t)n * sizeof *t);
    if (!t) return 1;
    *x = t;
    *cap = n;
    return 0;
}
