/* csv_check.c: test helper that reads a result file with the suite's own reader and checks every
 * row for consistency: verified, timings ordered, bandwidth = bytes x cells / time per
 * iteration, MFLUP/s = cells / time (lbm), bytes from the byte table and results exact
 * (stream), mass drift small (lbm), rank grids that tile the domain (lbm). --same-state: rows of
 * one case (whatever their kernel, pad, align or rank grid) must end in the same state
 * (state_hash), and each case must run on at least --min-grids distinct rank grids (default 2; 1
 * for runs on one rank that compare kernels and layouts). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "precision.h"
#include "stream.h"

static int bad;

static void expect(int ok, const char *file, long line, const char *what)
{
    if (!ok) {
        fprintf(stderr, "%s:%ld: %s\n", file, line, what);
        bad++;
    }
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fabs(b);
}

/* bytes per value of a precision column (common/precision.h's names); 0 for none of them */
static size_t value_size(const char *precision)
{
    for (int p = 0; p < PREC_COUNT; p++)
        if (strcmp(precision, prec_name((enum prec)p)) == 0) return prec_size((enum prec)p);
    return 0;
}

/* A stream row's kernel is in the byte table and its bytes are the table's for its precision and
 * write-allocate flag (a kernel that stores nothing never counts write-allocate). */
static int stream_row_bytes_ok(const struct csv_row *r)
{
    struct stream_traffic tr;
    size_t es = value_size(r->precision);
    for (int k = 0; k < STREAM_KERNEL_COUNT; k++) {
        if (strcmp(r->kernel, stream_kernel_names[k]) == 0)
            return stream_traffic((enum stream_kernel)k, es, (int)r->write_allocate, &tr) == 0 &&
                   tr.write_allocate == r->write_allocate && tr.prog_bytes == r->prog_bytes &&
                   tr.dram_bytes == r->dram_bytes;
    }
    return 0;
}

/* --same-state: two rows of one case (same precision, collision, geometry, domain and step
 * count), whose end states must agree whatever their kernel, layout or rank grid */
static int same_case(const struct csv_row *a, const struct csv_row *b)
{
    return !strcmp(a->precision, b->precision) && !strcmp(a->collision, b->collision) &&
           !strcmp(a->geometry, b->geometry) && a->nx == b->nx && a->ny == b->ny &&
           a->nz == b->nz && a->steps == b->steps && a->reps == b->reps;
}

int main(int argc, char **argv)
{
    struct csv_table t = {0};
    char err[512];
    const char *bench = NULL, *backend = NULL;
    long rows = -1;
    int same_state = 0, min_grids = 2;

    if (argc < 2) {
        fprintf(stderr, "usage: csv_check FILE [--bench B] [--backend B] [--rows N] "
                        "[--same-state 1] [--min-grids N]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--bench") == 0)
            bench = argv[i + 1];
        else if (strcmp(argv[i], "--backend") == 0)
            backend = argv[i + 1];
        else if (strcmp(argv[i], "--rows") == 0)
            rows = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--same-state") == 0)
            same_state = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--min-grids") == 0)
            min_grids = atoi(argv[i + 1]);
    }
    if (csv_read_path(argv[1], &t, err, sizeof err)) {
        fprintf(stderr, "csv_check: %s\n", err);
        return 1;
    }
    if (rows >= 0 && (long)t.n != rows) {
        fprintf(stderr, "%s: %zu rows, expected %ld\n", argv[1], t.n, rows);
        bad++;
    }
    if (t.n == 0) {
        fprintf(stderr, "%s: no rows\n", argv[1]);
        bad++;
    }
    for (size_t i = 0; i < t.n; i++) {
        const struct csv_row *r = &t.rows[i];
        long ln = t.lines[i];
        double n = (double)r->fluid_cells;
        expect(strcmp(r->verified, "pass") == 0, argv[1], ln, "verified is not pass");
        expect(!bench || strcmp(r->bench, bench) == 0, argv[1], ln, "wrong bench");
        expect(!backend || strcmp(r->backend, backend) == 0, argv[1], ln, "wrong backend");
        expect(r->version[0] && r->host[0] && r->device[0] && r->timestamp[0], argv[1], ln,
               "version, host, device or timestamp empty");
        expect(r->t_min_s > 0 && r->t_min_s <= r->t_med_s && r->t_med_s <= r->t_max_s, argv[1], ln,
               "timings not 0 < min <= median <= max");
        expect(r->reps >= 1 && r->steps >= 1, argv[1], ln, "reps or steps missing");
        expect(r->dram_bytes >= r->prog_bytes && r->prog_bytes > 0, argv[1], ln,
               "byte counts missing or dram < program bytes");
        if (strcmp(r->bench, "stream") == 0) {
            expect(stream_row_bytes_ok(r), argv[1], ln,
                   "kernel unknown, or bytes do not follow stream's byte table");
        } else {
            expect(r->write_allocate == 1 ? close_to(r->dram_bytes, 1.5 * r->prog_bytes)
                                          : close_to(r->dram_bytes, r->prog_bytes),
                   argv[1], ln, "dram bytes do not follow the write-allocate flag");
        }
        expect(close_to(r->bw_prog_GBs, r->prog_bytes * n / r->t_min_s * 1e-9), argv[1], ln,
               "bw_prog_GBs != prog_bytes x cells / t_min");
        expect(close_to(r->bw_dram_med_GBs, r->dram_bytes * n / r->t_med_s * 1e-9), argv[1], ln,
               "bw_dram_med_GBs != dram_bytes x cells / t_med");
        if (strcmp(r->bench, "lbm") == 0) {
            expect(close_to(r->mflups, n / r->t_min_s * 1e-6), argv[1], ln,
                   "mflups != fluid_cells / t_min");
            expect(r->prog_bytes == 38 * (double)value_size(r->precision), argv[1], ln,
                   "lbm prog_bytes is not 38 x the value size");
            expect(r->max_rel_err <= 1e-5, argv[1], ln, "mass drift above 1e-5");
            expect(r->nx * r->ny * r->nz == r->fluid_cells && r->pitch >= r->local_nx + r->pad,
                   argv[1], ln, "cells or pitch inconsistent with the domain");
            {
                int p[3] = {0, 0, 0};
                const int64_t local[3] = {r->local_nx, r->local_ny, r->local_nz};
                const int64_t global[3] = {r->nx, r->ny, r->nz};
                int ok = sscanf(r->procs, "%dx%dx%d", &p[0], &p[1], &p[2]) == 3 &&
                         r->ranks == (int64_t)p[0] * p[1] * p[2];
                /* rank 0's box: the largest of an even split, or each rank's own (weak) */
                for (int a = 0; a < 3 && ok; a++)
                    ok = p[a] > 0 && local[a] == (global[a] + p[a] - 1) / p[a];
                expect(ok, argv[1], ln, "ranks, procs and local dims do not tile the domain");
                expect(r->comm_s >= 0 && (r->ranks > 1 || r->comm_s == 0), argv[1], ln,
                       "comm_s negative, or nonzero on one rank");
                expect(isnan(r->efficiency) || r->efficiency > 0, argv[1], ln,
                       "efficiency not positive");
                expect(strlen(r->state_hash) == 16 &&
                           strspn(r->state_hash, "0123456789abcdef") == 16,
                       argv[1], ln, "state_hash is not 16 hex digits");
                expect(r->ranks > 1
                           ? (!strcmp(r->overlap, "on") || !strcmp(r->overlap, "off")) &&
                                 r->halo[0] && strspn(r->halo, "devicnohst+") == strlen(r->halo)
                           : !r->overlap[0] && !r->halo[0],
                       argv[1], ln,
                       "overlap (on/off) and halo (device/node/host) not set on "
                       "several ranks, or set on one");
            }
        } else {
            expect(r->max_rel_err == 0, argv[1], ln, "a stream result must be exact");
        }
    }
    if (same_state) {
        for (size_t i = 0; i < t.n; i++) {
            const struct csv_row *a = &t.rows[i];
            int grids = 0; /* distinct rank grids the case ran on */
            for (size_t j = 0; j < t.n; j++) {
                const struct csv_row *b = &t.rows[j];
                int seen = 0;
                if (!same_case(a, b)) continue;
                if (strcmp(a->state_hash, b->state_hash) != 0) {
                    fprintf(stderr,
                            "%s:%ld and line %ld: %s %s %s: %s on %s and %s on %s end in "
                            "different states (%s, %s)\n",
                            argv[1], t.lines[i], t.lines[j], a->precision, a->collision,
                            a->geometry, a->kernel, a->procs, b->kernel, b->procs, a->state_hash,
                            b->state_hash);
                    bad++;
                }
                for (size_t k = 0; k < j && !seen; k++)
                    seen = same_case(a, &t.rows[k]) && strcmp(b->procs, t.rows[k].procs) == 0;
                grids += !seen;
            }
            expect(grids >= min_grids, argv[1], t.lines[i],
                   "--same-state: the case ran on fewer rank grids than --min-grids asks");
        }
    }
    csv_table_free(&t);
    return bad ? 1 : 0;
}
