/* csv.h: the result record (schema 1): one table of columns drives the struct, the writer and
 * the reader, so the three cannot drift apart. data/README.md documents every column. */
#ifndef LBMR_CSV_H
#define LBMR_CSV_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSV_SCHEMA 1
#define CSV_STR_LEN 192

/* Kinds: INT always written; OPT written empty when negative; DBL written empty when NaN;
 * NUM always written, NaN as "nan" (a result that is not a number, not one that does not apply);
 * STR written empty when "". Columns are only ever appended (a rename is a new schema). */
#define CSV_COLUMNS(X)                                                                             \
    X(INT, schema)                                                                                 \
    X(STR, version)                                                                                \
    X(STR, timestamp)                                                                              \
    X(STR, host)                                                                                   \
    X(STR, bench)                                                                                  \
    X(STR, backend)                                                                                \
    X(STR, device)                                                                                 \
    X(STR, kernel)                                                                                 \
    X(STR, collision)                                                                              \
    X(STR, geometry)                                                                               \
    X(STR, precision)                                                                              \
    X(OPT, nx)                                                                                     \
    X(OPT, ny)                                                                                     \
    X(OPT, nz)                                                                                     \
    X(OPT, pad)                                                                                    \
    X(OPT, align)                                                                                  \
    X(OPT, pitch)                                                                                  \
    X(OPT, cells)                                                                                  \
    X(OPT, fluid_cells)                                                                            \
    X(OPT, threads)                                                                                \
    X(OPT, blocks)                                                                                 \
    X(DBL, occupancy)                                                                              \
    X(OPT, vector_bytes)                                                                           \
    X(OPT, ilp)                                                                                    \
    X(OPT, read_offset)                                                                            \
    X(OPT, write_offset)                                                                           \
    X(OPT, steps)                                                                                  \
    X(OPT, reps)                                                                                   \
    X(DBL, t_min_s)                                                                                \
    X(DBL, t_med_s)                                                                                \
    X(DBL, t_max_s)                                                                                \
    X(DBL, prog_bytes)                                                                             \
    X(DBL, dram_bytes)                                                                             \
    X(OPT, write_allocate)                                                                         \
    X(DBL, bw_prog_GBs)                                                                            \
    X(DBL, bw_prog_med_GBs)                                                                        \
    X(DBL, bw_dram_GBs)                                                                            \
    X(DBL, bw_dram_med_GBs)                                                                        \
    X(DBL, mflups)                                                                                 \
    X(DBL, mflups_med)                                                                             \
    X(DBL, peak_bw_GBs)                                                                            \
    X(OPT, llc_bytes)                                                                              \
    X(STR, ecc)                                                                                    \
    X(STR, driver)                                                                                 \
    X(STR, compiler)                                                                               \
    X(STR, flags)                                                                                  \
    X(STR, binding)                                                                                \
    X(STR, facts_source)                                                                           \
    X(NUM, max_rel_err)                                                                            \
    X(STR, verified)                                                                               \
    X(OPT, cores)                                                                                  \
    X(OPT, numa_domains)                                                                           \
    X(OPT, ranks)                                                                                  \
    X(STR, procs)                                                                                  \
    X(OPT, local_nx)                                                                               \
    X(OPT, local_ny)                                                                               \
    X(OPT, local_nz)                                                                               \
    X(DBL, comm_s)                                                                                 \
    X(DBL, efficiency)                                                                             \
    X(STR, state_hash)                                                                             \
    X(STR, overlap)                                                                                \
    X(STR, halo)                                                                                   \
    X(DBL, omega)                                                                                  \
    X(DBL, viscosity)                                                                              \
    X(DBL, lid_ux)                                                                                 \
    X(DBL, force_x)                                                                                \
    X(DBL, trt_magic)                                                                              \
    X(DBL, energy_J)                                                                               \
    X(DBL, power_W)                                                                                \
    X(DBL, mflups_per_W)                                                                           \
    X(DBL, GBs_per_W)                                                                              \
    X(DBL, sm_clock_MHz)                                                                           \
    X(DBL, mem_clock_MHz)                                                                          \
    X(STR, clock_events)                                                                           \
    X(DBL, power_limit_W)                                                                          \
    X(DBL, idle_power_W)                                                                           \
    X(DBL, energy_polled_J)                                                                        \
    X(STR, energy_source)                                                                          \
    X(DBL, cpu_clock_MHz)                                                                          \
    X(DBL, cpu_clock_low_MHz)                                                                      \
    X(OPT, reps_disturbed)                                                                         \
    X(STR, layout)                                                                                 \
    X(STR, x_faces)

#define CSV_FIELD_INT(name) int64_t name;
#define CSV_FIELD_OPT(name) int64_t name;
#define CSV_FIELD_DBL(name) double name;
#define CSV_FIELD_NUM(name) double name;
#define CSV_FIELD_STR(name) char name[CSV_STR_LEN];
#define CSV_FIELD(kind, name) CSV_FIELD_##kind(name)

struct csv_record {
    CSV_COLUMNS(CSV_FIELD)
};

/* A row as read back: the same columns, but text fields point into the table's pool of
 * distinct strings (equal text, equal pointer), so a million rows take about 0.5 KB each
 * instead of the 4 KB of a struct csv_record. */
#define CSV_ROW_INT(name) int64_t name;
#define CSV_ROW_OPT(name) int64_t name;
#define CSV_ROW_DBL(name) double name;
#define CSV_ROW_NUM(name) double name;
#define CSV_ROW_STR(name) const char *name;
#define CSV_ROW(kind, name) CSV_ROW_##kind(name)

struct csv_row {
    CSV_COLUMNS(CSV_ROW)
};

struct csv_strings; /* the pool of distinct strings, owned by the table */

struct csv_table {
    size_t n, cap;
    struct csv_row *rows;
    long *lines;        /* source line of each row, for messages */
    const char **files; /* source file of each row (a pooled string), for messages */
    struct csv_strings *strings;
};

/* Every field empty (OPT -1, DBL NaN, STR ""), schema = CSV_SCHEMA. */
void csv_record_init(struct csv_record *r);

/* Copy a string into a record field, truncating; newlines become spaces. */
void csv_set(char *field, const char *value);

int csv_column_count(void);
const char *csv_column_name(int i);

/* One text field, quoted as RFC 4180 asks when it holds a comma, quote or line break. */
int csv_write_field(FILE *f, const char *s);

/* Write errors (disk full, closed pipe) return nonzero. Rows are flushed one by one. */
int csv_write_header(FILE *f);
int csv_write_row(FILE *f, const struct csv_record *r);

/* Appends the rows of one file to t. Header lines repeated later in the file (concatenated
 * files) are skipped. Errors name the file and the line. */
int csv_read(FILE *f, const char *name, struct csv_table *t, char *err, size_t errlen);
int csv_read_path(const char *path, struct csv_table *t, char *err, size_t errlen);
void csv_table_free(struct csv_table *t);

/* Splits one CSV line into fields in place (RFC 4180 quotes removed): the field count, or -1
 * with *why set. For readers of other CSV files (the roofline tool's own output). */
int csv_split_fields(char *line, char **fields, int max, const char **why);
/* A UTF-8 byte order mark (Excel writes one) at the start of s: its length (3) or 0. */
size_t csv_bom_length(const char *s);
/* The number rule of every reader of the suite's files, in one place: 1 when s is a number as the
 * writer writes it, else 0. csv_plain_whole: digits only (a count, %lld, never negative);
 * csv_plain_real: an optional '-', digits with an optional fraction and exponent, or inf, -inf,
 * nan (%.9g). strtod and strtoll would also take hex, leading blanks, a '+' and "infinity": text
 * the suite never writes, so a file holding it was made or changed by hand and is refused. */
int csv_plain_whole(const char *s);
int csv_plain_real(const char *s);

#ifdef __cplusplus
}
#endif
#endif
