/* output.h: where a program's CSV goes, written so that it never ends in a corrupt row.
 *
 * -o FILE (or "-" / none: stdout). A regular file that exists and is not empty is refused unless
 * --overwrite (start it afresh) or --append (add rows below the same header) is given; the file
 * is locked (flock, exclusive) for the whole run and a second run is refused while one holds it.
 * Each row is formatted in memory and written with one write(2) loop; when a write fails (disk
 * full, file size limit, I/O error) the file is cut back to its last complete row.
 *
 * The programs' exit statuses: 0 ok, 1 failed verification (or a run-time error of the
 * measurement), 2 bad input (this module: the file exists, is locked, or has another header),
 * OUTPUT_EXIT (3) the output cannot be written, 130 interrupted. */
#ifndef LBMR_OUTPUT_H
#define LBMR_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OUTPUT_EXIT 3 /* exit status: the output cannot be written */

enum output_mode { OUTPUT_NEW, OUTPUT_OVERWRITE, OUTPUT_APPEND };

/* getopt_long codes of --overwrite and --append, above any option enum of the programs */
enum { OUTPUT_OPT_OVERWRITE = 0x4f00, OUTPUT_OPT_APPEND };

/* Entries for a program's struct option table. */
#define OUTPUT_LONGOPTS                                                                            \
    {"overwrite", no_argument, 0, OUTPUT_OPT_OVERWRITE},                                           \
    {                                                                                              \
        "append", no_argument, 0, OUTPUT_OPT_APPEND                                                \
    }

/* For a getopt_long switch: if c is OUTPUT_OPT_OVERWRITE or OUTPUT_OPT_APPEND, sets *mode and
 * returns 0, or 2 (message in err) when the other one was given too; returns -1 for any other c. */
int output_mode_option(int c, enum output_mode *mode, char *err, size_t errlen);

struct output {
    const char *name; /* for messages: the path, or "stdout" */
    int fd;
    int own;        /* fd was opened here */
    int regular;    /* a regular file: locked, and cut back after a failed write */
    int created;    /* this run created the file */
    long long good; /* bytes up to the end of the last complete row (regular files) */
    long long rows; /* rows committed by this run, the header not counted */
    FILE *mem;      /* the row being formatted */
    char *buf;      /* mem's buffer (open_memstream) */
    size_t len;
};

/* Opens path (NULL or "-": stdout) in the given mode and writes the header that write_header
 * formats (for --append, checks that the file starts with exactly that line instead).
 * Returns 0, 2 (bad input: refused, locked, other header, cannot open; nothing was changed) or
 * OUTPUT_EXIT (the header cannot be written; a file this run created is removed again).
 * err holds one line naming the file and the reason. */
int output_open(struct output *o, const char *path, enum output_mode mode,
                int (*write_header)(FILE *), char *err, size_t errlen);

/* The stream to format the next row into (nothing reaches the file before output_commit). */
FILE *output_stream(struct output *o);

/* Writes what was formatted since the last commit as one piece. format_failed: the caller's
 * formatting reported an error (the row is dropped). Returns 0, or OUTPUT_EXIT with err naming
 * the file and the reason, the file cut back to its last complete row. */
int output_commit(struct output *o, int format_failed, char *err, size_t errlen);

/* Releases the lock and closes. Returns 0, or OUTPUT_EXIT (err says why) when closing reports
 * a write error. Safe on a zeroed or already closed struct. */
int output_close(struct output *o, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
