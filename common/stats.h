/* stats.h: statistics of timed repetitions (warm-up runs are never passed in). */
#ifndef LBMR_STATS_H
#define LBMR_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct stats {
    double min, med, max; /* same unit as the samples */
};

/* n >= 1 samples; the median of an even count is the mean of the two middle values.
 * Returns 1 (and leaves *out alone) for n == 0 or a NaN sample. */
int stats_compute(const double *x, size_t n, struct stats *out);

/* Room for n samples in *x, which holds *cap (grown with realloc, kept on failure).
 * Returns 0, or 1 when memory runs out. */
int stats_reserve(double **x, int *cap, int n);

#ifdef __cplusplus
}
#endif
#endif
