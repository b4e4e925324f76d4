/* output.c: the CSV destination of a run: refusal of existing files, the lock, whole-row writes
 * and the cut back to the last complete row when a write fails. */
#define _GNU_SOURCE /* F_OFD_SETLK, F_OFD_GETLK */
#include "output.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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
    for (end = start; line[end] && line[end] != ',' && line[end] != '\n' && line[end] != '\r';
         end++)
        ;
    snprintf(name, namelen, "%.*s", (int)(end - start > 40 ? 40 : end - start), line + start);
    return col;
}

/* --append onto a non-empty file: it must start with exactly our header and end in a newline. A
 * file of CRLF lines (saved by a Windows editor or tool) with the same header is taken as it is:
 * crlf is set, and its rows are written with CRLF too, so that the file stays consistent. */
static int check_append(struct output *o, long long size, char *err, size_t errlen)
{
    const char *header = o->header;
    const size_t hlen = o->hlen;
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
    o->crlf = (size_t)got == hlen && memcmp(head, header, hlen - 1) == 0 &&
              head[hlen - 1] == '\r' && pread(o->fd, &last, 1, (off_t)hlen) == 1 && last == '\n';
    if (o->crlf || ((size_t)got == hlen && memcmp(head, header, hlen) == 0)) {
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
                 "-o %s: --append: its header line does not end (%s); repair it or choose "
                 "another file",
                 o->name,
                 head[pos] == '\r' ? "a carriage return with no newline after it"
                                   : "no newline after it");
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

/* For --check, where path does not exist: 0 if a run could make it, else the errno its open
 * would fail with (the folder missing, not a folder, not writable). Nothing is made. */
static int creatable(const char *path)
{
    struct stat st;
    char *dir, *slash;
    int e = 0;
    if (lstat(path, &st) == 0) return ENOENT; /* a dangling symbolic link: open follows it */
    if (errno != ENOENT) return errno;
    dir = strdup(path);
    if (!dir) return ENOMEM;
    slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else
        slash[slash == dir] = '\0'; /* "/x.csv": the root folder */
    if (stat(dir, &st))
        e = errno;
    else if (!S_ISDIR(st.st_mode))
        e = ENOTDIR;
    else if (access(dir, W_OK | X_OK))
        e = errno;
    free(dir);
    return e;
}

/* Opens path for writing without changing it; sets fd, created, regular. dry (--check): makes
 * nothing; a path that does not exist but could be made leaves fd at -1. */
static int open_path(struct output *o, const char *path, int dry, char *err, size_t errlen)
{
    struct stat st;
    o->fd = dry ? -1 : open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (o->fd >= 0) {
        o->created = 1;
    } else if (dry || errno == EEXIST) {
        o->fd = open(path, O_RDWR | O_CLOEXEC);
        if (o->fd < 0 && errno == EACCES) /* write-only: fine unless --append must read it */
            o->fd = open(path, O_WRONLY | O_CLOEXEC);
        if (o->fd < 0 && dry && errno == ENOENT) {
            errno = creatable(path);
            if (errno == 0) return 0;
        }
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

#define CLAIM_AGAIN (-1) /* the path names another file than the one locked: open it again */

/* The lock is an exclusive fcntl lock on the whole file, of the open file description (OFD)
 * where the system has them: like flock's, it belongs to this descriptor and goes with its
 * close; unlike flock's, it can be tested without being taken (F_OFD_GETLK). --check tests it:
 * a check that took the lock, even for microseconds, would refuse a run starting at that moment
 * ("another run is writing this file") although no run was. */
#ifdef F_OFD_SETLK
#define LOCK_TAKE F_OFD_SETLK
#define LOCK_TEST F_OFD_GETLK
#else /* the process's lock: it differs only in going with any descriptor's close of the file,     \
       * and this program opens the file once */
#define LOCK_TAKE F_SETLK
#define LOCK_TEST F_GETLK
#endif

/* Takes the lock, or (dry) tests whether it could be taken. 0, or -1 with errno: EAGAIN or
 * EACCES when another run holds it. */
static int lock_file(int fd, int dry)
{
    struct flock l;
    int rc;
    memset(&l, 0, sizeof l); /* l_start 0, l_len 0: the whole file, however long it grows */
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    rc = fcntl(fd, dry ? LOCK_TEST : LOCK_TAKE, &l);
#ifdef F_OFD_SETLK
    /* a kernel before Linux 3.15 lacks OFD locks: the process's lock, which conflicts with
     * another run's OFD lock all the same */
    if (rc && errno == EINVAL) {
        memset(&l, 0, sizeof l);
        l.l_type = F_WRLCK;
        l.l_whence = SEEK_SET;
        rc = fcntl(fd, dry ? F_GETLK : F_SETLK, &l);
    }
#endif
    if (rc == 0 && dry && l.l_type != F_UNLCK) { /* the holder's lock, described */
        errno = EAGAIN;
        rc = -1;
    }
    return rc;
}

/* 1 when o's path still names the file st describes (its descriptor's): a file removed or made
 * again under that name by another run is not this run's */
static int named_here(const struct output *o, const struct stat *st)
{
    struct stat named;
    return stat(o->name, &named) == 0 && named.st_dev == st->st_dev && named.st_ino == st->st_ino;
}

/* Lock (dry: test the lock), then refuse, mark for emptying at the first row, or check for
 * --append. Nothing in the file changes here. Returns 0, 2, OUTPUT_EXIT or CLAIM_AGAIN. */
static int claim(struct output *o, enum output_mode mode, int dry, char *err, size_t errlen)
{
    struct stat st;
    if (lock_file(o->fd, dry)) {
        if (errno == EAGAIN || errno == EACCES)
            cli_fail(err, errlen,
                     "-o %s: another run is writing this file (it holds the lock); "
                     "wait for it or choose another file",
                     o->name);
        else
            cli_fail(err, errlen, "-o %s: cannot lock it: %s", o->name, strerror(errno));
        return 2;
    }
    o->locked = !dry;
    if (fstat(o->fd, &st)) { /* again: the run that held the lock may have written */
        cli_fail(err, errlen, "-o %s: %s", o->name, strerror(errno));
        return 2;
    }
    /* the run that held the lock may have removed the file as it ended (no row written): this
     * descriptor then holds a file no one will see */
    if (!named_here(o, &st)) return CLAIM_AGAIN;
    if (st.st_size == 0) return 0;
    switch (mode) {
    case OUTPUT_NEW:
        cli_fail(err, errlen,
                 "-o %s: the file exists and is not empty; give --overwrite to "
                 "replace it or --append to add rows",
                 o->name);
        return 2;
    case OUTPUT_OVERWRITE:
        /* emptied at the first row (output_commit): a run that ends before it leaves it as it
         * was */
        o->empty_first = 1;
        return 0;
    case OUTPUT_APPEND:
        if (check_append(o, (long long)st.st_size, err, errlen)) return 2;
        o->good = (long long)st.st_size;
        free(o->header); /* the file has it */
        o->header = NULL;
        if (lseek(o->fd, (off_t)o->good, SEEK_SET) < 0) {
            cli_fail(err, errlen, "-o %s: %s", o->name, strerror(errno));
            return OUTPUT_EXIT;
        }
        return 0;
    }
    return 0;
}

/* -o FILE: opened (made, unless dry), locked and claimed in mode. A file removed or replaced
 * between its open and its lock (a run that made it and wrote no row removes it as it ends) is
 * opened again. Returns 0, 2 or OUTPUT_EXIT. */
static int open_file(struct output *o, const char *path, enum output_mode mode, int dry, char *err,
                     size_t errlen)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        int rc = open_path(o, path, dry, err, errlen);
        if (rc) return 2;
        if (o->fd < 0) return 0; /* dry: a file a run would make */
        if (!o->regular) {
            if (mode != OUTPUT_APPEND) return 0;
            cli_fail(err, errlen, "-o %s: --append needs a regular file (its header is checked)",
                     path);
            return 2;
        }
        /* a file size limit (ulimit -f) then fails the write with EFBIG, which is cut back like
         * a full disk, instead of killing the program in the middle of a row */
        if (!dry) signal(SIGXFSZ, SIG_IGN);
        rc = claim(o, mode, dry, err, errlen);
        if (rc != CLAIM_AGAIN) return rc;
        close(o->fd); /* not ours to remove: another run's, or gone */
        o->fd = -1;
        o->own = o->created = o->locked = 0;
    }
    cli_fail(err, errlen,
             "-o %s: the file was removed or replaced each time this run opened it; choose "
             "another file",
             path);
    return 2;
}

/* output_open and output_check: the same checks, dry making and changing nothing. */
static int start(struct output *o, const char *path, enum output_mode mode,
                 int (*write_header)(FILE *), int dry, char *err, size_t errlen)
{
    FILE *h;
    int rc = 0;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    h = open_memstream(&o->header, &o->hlen);
    if (!h || write_header(h) || fclose(h) || o->hlen == 0) {
        cli_fail(err, errlen, "cannot format the CSV header: %s", strerror(errno));
        free(o->header);
        o->header = NULL;
        return OUTPUT_EXIT;
    }
    /* a reader that goes away (`| head`) then fails the write with EPIPE, which is reported and
     * exits OUTPUT_EXIT like any write error, instead of killing the program unannounced */
    if (!dry) signal(SIGPIPE, SIG_IGN);
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
        rc = open_file(o, path, mode, dry, err, errlen);
    }
    if (!rc && !dry) {
        o->mem = open_memstream(&o->buf, &o->len);
        if (!o->mem) {
            cli_fail(err, errlen, "%s: %s", o->name, strerror(errno));
            rc = OUTPUT_EXIT;
        }
    }
    if (rc) output_close(o, NULL, 0);
    return rc;
}

int output_open(struct output *o, const char *path, enum output_mode mode,
                int (*write_header)(FILE *), char *err, size_t errlen)
{
    return start(o, path, mode, write_header, 0, err, errlen);
}

int output_check(const char *path, enum output_mode mode, int (*write_header)(FILE *), char *err,
                 size_t errlen)
{
    struct output o;
    int rc = start(&o, path, mode, write_header, 1, err, errlen);
    output_close(&o, NULL, 0);
    return rc;
}

FILE *output_stream(struct output *o)
{
    return o->mem;
}

/* Writes n bytes of buf to fd whole (again after EINTR): 0, or the errno of the failure. */
static int write_whole(int fd, const char *buf, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        done += (size_t)w;
    }
    return 0;
}

/* The row with each "\n" as "\r\n", for a file of CRLF lines (malloc'd; *n updated), or NULL. */
static char *crlf_copy(const char *row, size_t *n)
{
    char *out = malloc(2 * *n + 1);
    size_t k = 0;
    for (size_t i = 0; out && i < *n; i++) {
        if (row[i] == '\n') out[k++] = '\r';
        out[k++] = row[i];
    }
    *n = k;
    return out;
}

/* The header before the first row, in the same piece of work: a file is emptied (--overwrite)
 * and headed only once there is a row to put under the header. 0, or why not (errno in *e). */
static const char *write_row(struct output *o, size_t n, long long *added, int *e)
{
    char *row = o->crlf ? crlf_copy(o->buf, &n) : o->buf;
    if (!row) {
        *e = ENOMEM;
        return "cannot format the row";
    }
    if (o->empty_first && (ftruncate(o->fd, 0) || lseek(o->fd, 0, SEEK_SET) != 0)) {
        *e = errno;
        if (row != o->buf) free(row);
        return "cannot empty it";
    }
    o->empty_first = 0;
    *e = o->header ? write_whole(o->fd, o->header, o->hlen) : 0;
    if (!*e) *e = write_whole(o->fd, row, n);
    *added = (long long)n + (o->header ? (long long)o->hlen : 0);
    if (row != o->buf) free(row);
    return *e ? "cannot write" : NULL;
}

int output_commit(struct output *o, int format_failed, char *err, size_t errlen)
{
    const char *why = NULL;
    int e = 0;
    off_t n = 0;
    long long added = 0;

    if (format_failed || fflush(o->mem) || ferror(o->mem) || (n = ftello(o->mem)) < 0) {
        why = "cannot format the row";
        e = errno ? errno : ENOMEM;
    } else {
        why = write_row(o, (size_t)n, &added, &e);
    }
    clearerr(o->mem);
    fseeko(o->mem, 0, SEEK_SET); /* the next row starts the buffer afresh */
    if (!why) {
        o->good += added;
        o->rows++;
        free(o->header); /* written */
        o->header = NULL;
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
    /* A file this run made and wrote no row to (an error, a signal or a failed write before
     * it) is removed, while the lock still keeps other runs out. Empty: rows another run wrote
     * between this one's open and its lock are not this run's to remove. */
    struct stat st;
    if (o->created && o->locked && o->header && fstat(o->fd, &st) == 0 && st.st_size == 0 &&
        named_here(o, &st))
        unlink(o->name);
    free(o->header);
    o->header = NULL;
    if (o->mem) fclose(o->mem);
    free(o->buf);
    o->mem = NULL;
    o->buf = NULL;
    if (o->own && o->fd >= 0 && close(o->fd)) { /* also releases the lock */
        if (err) cli_fail(err, errlen, "%s: closing it: %s", o->name, strerror(errno));
        rc = OUTPUT_EXIT;
    }
    o->fd = -1;
    o->own = o->created = o->locked = 0;
    return rc;
}
