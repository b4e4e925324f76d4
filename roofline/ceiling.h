/* ceiling.h: the roofline arithmetic and the matching of each LBM row to the STREAM rows of the
 * same host, device, backend and precision. Pure functions over a table of schema-1 records. */
#ifndef ROOF_CEILING_H
#define ROOF_CEILING_H

#include "csv.h"

/* million updates per second a bandwidth (GB/s) allows at a byte count per update */
double roof_ceiling_mflups(double bw_GBs, double bytes_per_update);

/* same host, device, backend and precision */
int roof_same_device(const struct csv_record *a, const struct csv_record *b);

/* 1, or the ranks of a GPU row run on several GPUs: its ceiling is that many devices' */
double roof_devices(const struct csv_record *r);
/* Lattice bytes (two lattices, padding included) within 2 x the LLC or L2 the row reports: a
 * sweep then finds much of what it reads still in cache, and the DRAM ceiling does not bound it. */
int roof_cache_resident(const struct csv_record *lbm);

struct roof_eval {
    const struct csv_record *lbm;
    const struct csv_record *copy;   /* best single-stream copy, same store kind; NULL if none */
    const struct csv_record *copy19; /* best 19-stream copy, same store kind; NULL if none */
    double ceiling_mflups, pct, pct_med;
    double copy19_mflups, pct_copy19;
    double pct_of_peak;
    int above_ceiling, cache_resident;
};

/* Evaluates one LBM row against the STREAM rows of t (verified rows only); the store kind of
 * the ceiling matches the row's (write_allocate equal). Returns 0, or 1 when no copy matched. */
int roof_evaluate(const struct csv_table *t, const struct csv_record *lbm, struct roof_eval *e);

#endif
