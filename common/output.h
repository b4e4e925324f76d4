/* output.h: where a program's CSV goes, written so that it never ends in a corrupt row.
 *
 * -o FILE (or "-" / none: stdout). A regular file that exists and is not empty is refused unless
 * --overwrite (start it afresh) or --append (add rows below the same header) is given; the file
 * is locked (an exclusive fcntl lock of the open file description) for the whole run and a second
 * run is refused while one holds it.
 * Each row is formatted in memory and written with one write(2) loop; when a write fails (disk
 * full, file size limit, I/O error) the file is cut back to its last complete row. The header
 * goes out with the first row (and --overwrite empties the file then): a run that ends before
 * it leaves an existing file as it was and removes a file it made.
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
    int own;         /* fd was opened here */
    int regular;     /* a regular file: locked, and cut back after a failed write */
    int created;     /* this run created the file */
    int locked;      /* this run holds the file's lock */
    int empty_first; /* --overwrite: empty the file before the first row */
    int crlf;        /* --append onto a file of CRLF lines: rows are written so too */
    char *header;    /* the header line until it is written (with the first row), else NULL */
    size_t hlen;
    long long good; /* bytes up to the end of the last complete row (regular files) */
    long long rows; /* rows committed by this run, the header not counted */
    FILE *mem;      /* the row being formatted */
    char *buf;      /* mem's buffer (open_memstream) */
    size_t len;
};

/* Opens path (NULL or "-": stdout) in the given mode, to write the header that write_header
 * formats (for --append, checks that the file starts with exactly that line instead). Nothing
 * is written yet: the header goes out with the first row, and --overwrite empties the file only
 * then, so a run that ends before its first row leaves an existing file as it was.
 * Returns 0, 2 (bad input: refused, locked, other header, cannot open; nothing was changed) or
 * OUTPUT_EXIT (the header cannot be formatted). err holds one line naming the file and the
 * reason. */
int output_open(struct output *o, const char *path, enum output_mode mode,
                int (*write_header)(FILE *), char *err, size_t errlen);

/* --check: the refusals output_open would give (stdout with --append or --overwrite, a folder
 * that is missing or not writable, a file that exists and is not empty, another header, the
 * lock held), making, emptying and writing nothing; the lock is tested, never taken, so a run
 * starting meanwhile is not refused because of a check. Returns 0, 2 or OUTPUT_EXIT as
 * output_open. */
int output_check(const char *path, enum output_mode mode, int (*write_header)(FILE *), char *err,
                 size_t errlen);

/* The stream to format the next row into (nothing reaches the file before output_commit). */
FILE *output_stream(struct output *o);

/* Writes what was formatted since the last commit as one piece, the first time after emptying
 * the file (--overwrite) and the header. format_failed: the caller's formatting reported an
 * error (the row is dropped). Returns 0, or OUTPUT_EXIT with err naming the file and the reason,
 * the file cut back to its last complete row. */
int output_commit(struct output *o, int format_failed, char *err, size_t errlen);

/* Releases the lock and closes; a file this run made and wrote no row to is removed first.
 * Returns 0, or OUTPUT_EXIT (err says why) when closing reports a write error. Safe on a zeroed
 * or already closed struct. */
int output_close(struct output *o, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
