/* output.c: the CSV destination of a run: refusal of existing files, the lock, whole-row writes
 * and the cut back to the last complete row when a write fails. */
#define _DEFAULT_SOURCE /* flock */
#include "output.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int output_mode_option(int c, enum output_mode *mode, char *err, size_t errlen)
{
    enum output_mode want;
    if (c == OUTPUT_OPT_OVERWRITE)
        want = OUTPUT_OVERWRITE;
    else if (c == OUTPUT_OPT_APPEND)
        want = OUTPUT_APPEND;
    else
        return -1;
    if (*mode != OUTPUT_NEW && *mode != want) {
        cli_fail(err, errlen, "--overwrite and --append exclude each other: give one");
        return 2;
    }
    *mode = want;
    return 0;
}

/* Column index (0-based) of byte position pos in a header line, and that column's name. */
static int column_at(const char *line, size_t pos, char *name, size_t namelen)
{
    int col = 0;
    size_t start = 0, end;
    for (size_t i = 0; i < pos; i++) {
        if (line[i] == ',') {
            col++;
            start = i + 1;
        }
    }
    for (end = start; line[end] && line[end] != ',' && line[end] != '\n'; end++)
        ;
    snprintf(name, namelen, "%.*s", (int)(end - start > 40 ? 40 : end - start), line + start);
    return col;
}

/* --append onto a non-empty file: it must start with exactly our header and end in a newline. */
static int check_append(struct output *o, const char *header, size_t hlen, long long size,
                        char *err, size_t errlen)
{
    char *head = malloc(hlen + 1);
    char last = 0, mine[48], theirs[48];
    ssize_t got;
    size_t pos = 0;
    int col;

    if (!head) {
        cli_fail(err, errlen, "-o %s: out of memory reading its header", o->name);
        return 1;
    }
    got = pread(o->fd, head, hlen, 0);
    if (got < 0) {
        cli_fail(err, errlen, "-o %s: --append cannot read its header: %s", o->name,
                 strerror(errno));
        free(head);
        return 1;
    }
    head[got] = '\0';
    if ((size_t)got == hlen && memcmp(head, header, hlen) == 0) {
        free(head);
        if (pread(o->fd, &last, 1, (off_t)(size - 1)) != 1 || last != '\n') {
            cli_fail(err, errlen,
                     "-o %s: --append: the file does not end with a complete row "
                     "(no final newline); repair it or choose another file",
                     o->name);
            return 1;
        }
        return 0;
    }
    while (pos < (size_t)got && head[pos] == header[pos] && head[pos] != '\n')
        pos++;
    const int file_ends = pos == (size_t)got || head[pos] == '\n' || head[pos] == '\r';
    if (file_ends && header[pos] == ',') { /* the file's columns are a first part of ours */
        col = column_at(header, pos + 1, mine, sizeof mine);
        cli_fail(err, errlen,
                 "-o %s: --append: its header ends after column %d, where this program's goes "
                 "on with '%s' (a file of an older version?); append only to a file of the same "
                 "columns",
                 o->name, col, mine);
    } else if (header[pos] == '\n' && head[pos] == ',') { /* ours are a first part of its */
        cli_fail(err, errlen,
                 "-o %s: --append: its header goes on after column %d, where this program's "
                 "ends; append only to a file of the same columns",
                 o->name, column_at(header, pos, mine, sizeof mine) + 1);
    } else if (file_ends && header[pos] == '\n') { /* the same columns, the line not ended */
        cli_fail(err, errlen,
                 "-o %s: --append: its header line does not end (no newline after it); repair "
                 "it or choose another file",
                 o->name);
    } else {
        col = column_at(header, pos, mine, sizeof mine);
        column_at(head, pos, theirs, sizeof theirs);
        cli_fail(err, errlen,
                 "-o %s: --append: its header differs from this program's at column %d "
                 "('%s' in the file, '%s' here); append only to a file of the same "
                 "columns",
                 o->name, col + 1, theirs, mine);
    }
    free(head);
    return 1;
}

/* Opens path for writing without changing it; sets fd, created, regular. */
static int open_path(struct output *o, const char *path, char *err, size_t errlen)
{
    struct stat st;
    o->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (o->fd >= 0) {
        o->created = 1;
    } else if (errno == EEXIST) {
        o->fd = open(path, O_RDWR | O_CLOEXEC);
        if (o->fd < 0 && errno == EACCES) /* write-only: fine unless --append must read it */
            o->fd = open(path, O_WRONLY | O_CLOEXEC);
    }
    if (o->fd < 0) {
        cli_fail(err, errlen, "-o %s: %s", path, strerror(errno));
        return 1;
    }
    o->own = 1;
    if (fstat(o->fd, &st)) {
        cli_fail(err, errlen, "-o %s: %s", path, strerror(errno));
        return 1;
    }
    o->regular = S_ISREG(st.st_mode);
    return 0;
}

/* Lock, then refuse, start afresh or check for --append. Returns 0, 2 or OUTPUT_EXIT. */
static int claim(struct output *o, enum output_mode mode, const char *header, size_t hlen,
                 char *err, size_t errlen)
{
    struct stat st;
    if (flock(o->fd, LOCK_EX | LOCK_NB)) {
        if (errno == EWOULDBLOCK)
            cli_fail(err, errlen,
                     "-o %s: another run is writing this file (it holds the lock); "
                     "wait for it or choose another file",
                     o->name);
        else
            cli_fail(err, errlen, "-o %s: cannot lock it: %s", o->name, strerror(errno));
        return 2;
    }
    if (fstat(o->fd, &st)) { /* again: the run that held the lock may have written */
        cli_fail(err, errlen, "-o %s: %s", o->name, strerror(errno));
        return 2;
    }
    if (st.st_size == 0) return 0;
    switch (mode) {
    case OUTPUT_NEW:
        cli_fail(err, errlen,
                 "-o %s: the file exists and is not empty; give --overwrite to "
                 "replace it or --append to add rows",
                 o->name);
        return 2;
    case OUTPUT_OVERWRITE:
        if (ftruncate(o->fd, 0)) {
            cli_fail(err, errlen, "-o %s: cannot empty it: %s", o->name, strerror(errno));
            return OUTPUT_EXIT;
        }
        return 0;
    case OUTPUT_APPEND:
        if (check_append(o, header, hlen, (long long)st.st_size, err, errlen)) return 2;
        o->good = (long long)st.st_size;
        if (lseek(o->fd, (off_t)o->good, SEEK_SET) < 0) {
            cli_fail(err, errlen, "-o %s: %s", o->name, strerror(errno));
            return OUTPUT_EXIT;
        }
        return 0;
    }
    return 0;
}

int output_open(struct output *o, const char *path, enum output_mode mode,
                int (*write_header)(FILE *), char *err, size_t errlen)
{
    char *header = NULL;
    size_t hlen = 0;
    FILE *h;
    int rc = 0;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    h = open_memstream(&header, &hlen);
    if (!h || write_header(h) || fclose(h)) {
        cli_fail(err, errlen, "cannot format the CSV header: %s", strerror(errno));
        free(header);
        return OUTPUT_EXIT;
    }
    /* a reader that goes away (`| head`) then fails the write with EPIPE, which is reported and
     * exits OUTPUT_EXIT like any write error, instead of killing the program unannounced */
    signal(SIGPIPE, SIG_IGN);
    if (!path || strcmp(path, "-") == 0) {
        o->name = "stdout";
        o->fd = STDOUT_FILENO;
        if (mode != OUTPUT_NEW) {
            cli_fail(err, errlen, "--%s applies to -o FILE, not to stdout",
                     mode == OUTPUT_APPEND ? "append" : "overwrite");
            rc = 2;
        }
    } else {
        o->name = path;
        if (open_path(o, path, err, errlen)) {
            rc = 2;
        } else if (o->regular) {
            /* a file size limit (ulimit -f) then fails the write with EFBIG, which is cut back
             * like a full disk, instead of killing the program in the middle of a row */
            signal(SIGXFSZ, SIG_IGN);
            rc = claim(o, mode, header, hlen, err, errlen);
        } else if (mode == OUTPUT_APPEND) {
            cli_fail(err, errlen, "-o %s: --append needs a regular file (its header is checked)",
                     path);
            rc = 2;
        }
    }
    if (!rc) {
        o->mem = open_memstream(&o->buf, &o->len);
        if (!o->mem) {
            cli_fail(err, errlen, "%s: %s", o->name, strerror(errno));
            rc = OUTPUT_EXIT;
        }
    }
    if (!rc && o->good == 0) { /* a new or emptied file, or stdout: the header first */
        rc = output_commit(o, fputs(header, o->mem) == EOF, err, errlen);
        o->rows = 0;
    }
    free(header);
    if (rc) {
        if (rc == OUTPUT_EXIT && o->created)
            unlink(path); /* the file this run made holds nothing worth keeping */
        output_close(o, NULL, 0);
        o->created = 0;
    }
    return rc;
}

FILE *output_stream(struct output *o)
{
    return o->mem;
}

int output_commit(struct output *o, int format_failed, char *err, size_t errlen)
{
    const char *why = NULL;
    int e = 0;
    off_t n = 0;

    if (format_failed || fflush(o->mem) || ferror(o->mem) || (n = ftello(o->mem)) < 0) {
        why = "cannot format the row";
        e = errno ? errno : ENOMEM;
    } else {
        for (off_t done = 0; done < n;) {
            ssize_t w = write(o->fd, o->buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                why = "cannot write";
                e = w < 0 ? errno : EIO;
                break;
            }
            done += w;
        }
    }
    clearerr(o->mem);
    fseeko(o->mem, 0, SEEK_SET); /* the next row starts the buffer afresh */
    if (!why) {
        o->good += (long long)n;
        o->rows++;
        return 0;
    }
    if (o->regular) {
        /* whatever part of the row got through goes again: the file ends in a complete row */
        int cut = ftruncate(o->fd, (off_t)o->good) == 0 &&
                  lseek(o->fd, (off_t)o->good, SEEK_SET) == (off_t)o->good;
        if (err)
            cli_fail(err, errlen, "%s: %s: %s; %s (%lld rows of this run kept)", o->name, why,
                     strerror(e),
                     cut ? "the file was cut back to its last complete row"
                         : "and it could not be cut back to its last complete row",
                     o->rows);
    } else if (err) {
        cli_fail(err, errlen, "%s: %s: %s (%lld complete rows written before)", o->name, why,
                 strerror(e), o->rows);
    }
    return OUTPUT_EXIT;
}

int output_close(struct output *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->mem) fclose(o->mem);
    free(o->buf);
    o->mem = NULL;
    o->buf = NULL;
    if (o->own && o->fd >= 0 && close(o->fd)) { /* also releases the lock */
        if (err) cli_fail(err, errlen, "%s: closing it: %s", o->name, strerror(errno));
        rc = OUTPUT_EXIT;
    }
    o->fd = -1;
    o->own = 0;
    return rc;
}
