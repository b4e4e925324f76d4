/* csv.c: writing and reading schema-1 records; RFC 4180 quoting, '.' decimal point (the
 * programs never call setlocale, so the C locale formats every number). */
#include "csv.h"

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum csv_kind { CSV_K_INT, CSV_K_OPT, CSV_K_DBL, CSV_K_NUM, CSV_K_STR };

struct csv_column {
    const char *name;
    enum csv_kind kind;
    size_t offset;
};

#define CSV_DESC(kind, name) {#name, CSV_K_##kind, offsetof(struct csv_record, name)},
static const struct csv_column csv_columns[] = {CSV_COLUMNS(CSV_DESC)};
#define NCOLS ((int)(sizeof csv_columns / sizeof csv_columns[0]))

int csv_column_count(void)
{
    return NCOLS;
}

const char *csv_column_name(int i)
{
    return (i >= 0 && i < NCOLS) ? csv_columns[i].name : NULL;
}

void csv_record_init(struct csv_record *r)
{
    for (int i = 0; i < NCOLS; i++) {
        char *p = (char *)r + csv_columns[i].offset;
        switch (csv_columns[i].kind) {
        case CSV_K_INT:
            *(int64_t *)p = 0;
            break;
        case CSV_K_OPT:
            *(int64_t *)p = -1;
            break;
        case CSV_K_DBL:
            *(double *)p = NAN;
            break;
        case CSV_K_NUM:
            *(double *)p = NAN;
            break;
        case CSV_K_STR:
            p[0] = '\0';
            break;
        }
    }
    r->schema = CSV_SCHEMA;
}

void csv_set(char *field, const char *value)
{
    size_t i = 0;
    for (; value && value[i] && i < CSV_STR_LEN - 1; i++)
        field[i] = (value[i] == '\n' || value[i] == '\r') ? ' ' : value[i];
    field[i] = '\0';
}

int csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) return fputs(s, f) < 0;
    if (fputc('"', f) == EOF) return 1;
    for (; *s; s++) {
        if (*s == '"' && fputc('"', f) == EOF) return 1;
        if (fputc(*s, f) == EOF) return 1;
    }
    return fputc('"', f) == EOF;
}

int csv_write_header(FILE *f)
{
    for (int i = 0; i < NCOLS; i++) {
        if (fprintf(f, "%s%s", i ? "," : "", csv_columns[i].name) < 0) return 1;
    }
    if (fputc('\n', f) == EOF) return 1;
    return fflush(f) != 0;
}

int csv_write_row(FILE *f, const struct csv_record *r)
{
    for (int i = 0; i < NCOLS; i++) {
        const char *p = (const char *)r + csv_columns[i].offset;
        int bad = 0;
        if (i && fputc(',', f) == EOF) return 1;
        switch (csv_columns[i].kind) {
        case CSV_K_INT:
            bad = fprintf(f, "%lld", (long long)*(const int64_t *)p) < 0;
            break;
        case CSV_K_OPT:
            if (*(const int64_t *)p >= 0)
                bad = fprintf(f, "%lld", (long long)*(const int64_t *)p) < 0;
            break;
        case CSV_K_DBL:
            if (!isnan(*(const double *)p)) bad = fprintf(f, "%.9g", *(const double *)p) < 0;
            break;
        case CSV_K_NUM: /* glibc would print -nan for a NaN with its sign bit set */
            bad = (isnan(*(const double *)p) ? fputs("nan", f) < 0
                                             : fprintf(f, "%.9g", *(const double *)p) < 0);
            break;
        case CSV_K_STR:
            bad = csv_write_field(f, p);
            break;
        }
        if (bad) return 1;
    }
    if (fputc('\n', f) == EOF) return 1;
    return fflush(f) != 0;
}

int csv_split_fields(char *line, char **fields, int max, const char **why)
{
    int n = 0;
    char *r = line, *w = line;

    for (;;) {
        if (n == max) {
            *why = "too many fields";
            return -1;
        }
        fields[n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (*r == '\0') {
                    *why = "unterminated quoted field";
                    return -1;
                }
                if (*r == '"') {
                    if (r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                        continue;
                    }
                    r++;
                    break;
                }
                *w++ = *r++;
            }
            if (*r != ',' && *r != '\0') {
                *why = "text after a closing quote";
                return -1;
            }
        } else {
            while (*r != ',' && *r != '\0') {
                if (*r == '"') {
                    *why = "quote inside an unquoted field";
                    return -1;
                }
                *w++ = *r++;
            }
        }
        if (*r == '\0') {
            *w = '\0';
            return n;
        }
        *w++ = '\0';
        r++;
    }
}

/* The pool of distinct strings behind a table's text fields: open addressing over FNV-1a
 * hashes (load at most 1/2), the bytes in 64 KiB chunks. Interning keeps a million rows of
 * repeated host, device and kernel names at one copy each. */
struct csv_chunk {
    struct csv_chunk *next;
    size_t used, cap;
    char data[];
};

struct csv_strings {
    const char **slots;
    size_t nslots, used;
    struct csv_chunk *chunks;
};

static uint64_t csv_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int csv_strings_grow(struct csv_strings *p)
{
    size_t n = p->nslots ? 2 * p->nslots : 1024;
    const char **slots = calloc(n, sizeof *slots);
    if (!slots) return 1;
    for (size_t i = 0; i < p->nslots; i++) {
        size_t j;
        if (!p->slots[i]) continue;
        for (j = csv_hash(p->slots[i]) & (n - 1); slots[j]; j = (j + 1) & (n - 1))
            ;
        slots[j] = p->slots[i];
    }
    free(p->slots);
    p->slots = slots;
    p->nslots = n;
    return 0;
}

/* The pooled copy of s, or NULL when out of memory. */
static const char *csv_intern(struct csv_table *t, const char *s)
{
    struct csv_strings *p = t->strings;
    size_t len = strlen(s) + 1, j;
    char *copy;
    if (!p) {
        p = t->strings = calloc(1, sizeof *p);
        if (!p) return NULL;
    }
    if (2 * (p->used + 1) > p->nslots && csv_strings_grow(p)) return NULL;
    for (j = csv_hash(s) & (p->nslots - 1); p->slots[j]; j = (j + 1) & (p->nslots - 1)) {
        if (strcmp(p->slots[j], s) == 0) return p->slots[j];
    }
    if (!p->chunks || p->chunks->cap - p->chunks->used < len) {
        size_t cap = len > 65536 ? len : 65536;
        struct csv_chunk *c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->next = p->chunks;
        c->used = 0;
        c->cap = cap;
        p->chunks = c;
    }
    copy = p->chunks->data + p->chunks->used;
    memcpy(copy, s, len);
    p->chunks->used += len;
    p->slots[j] = copy;
    p->used++;
    return copy;
}

#define CSV_ROW_OFF(kind, name) offsetof(struct csv_row, name),
static const size_t csv_row_offsets[] = {CSV_COLUMNS(CSV_ROW_OFF)};

static void csv_row_init(struct csv_row *r, const char *empty)
{
    for (int i = 0; i < NCOLS; i++) {
        char *p = (char *)r + csv_row_offsets[i];
        if (csv_columns[i].kind == CSV_K_INT)
            *(int64_t *)p = 0;
        else if (csv_columns[i].kind == CSV_K_OPT)
            *(int64_t *)p = -1;
        else if (csv_columns[i].kind == CSV_K_DBL)
            *(double *)p = NAN;
        else
            *(const char **)p = empty;
    }
    r->schema = CSV_SCHEMA;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The writer's whole numbers (%lld of a count, never negative): digits only. strtoll alone would
 * also take leading blanks and a '+', which no row of the suite holds. */
int csv_plain_whole(const char *s)
{
    const char *p = s;
    while (is_digit(*p))
        p++;
    return p > s && *p == '\0';
}

/* The writer's real numbers (%.9g, and "nan" for a result that is not a number): an optional
 * '-', digits with an optional fraction, an optional exponent; or inf, -inf, nan. strtod alone
 * would also take hex (0x10), leading blanks, a '+', "infinity" and "nan(...)": a field holding
 * one was not written by the suite, so it is refused as malformed, not read as a value. */
int csv_plain_real(const char *s)
{
    int digits = 0;
    if (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0 || strcmp(s, "nan") == 0) return 1;
    if (*s == '-') s++;
    for (; is_digit(*s); s++)
        digits++;
    if (*s == '.')
        for (s++; is_digit(*s); s++)
            digits++;
    if (!digits) return 0;
    if (*s == 'e' || *s == 'E') {
        s += s[1] == '+' || s[1] == '-' ? 2 : 1;
        if (!is_digit(*s)) return 0;
        while (is_digit(*s))
            s++;
    }
    return *s == '\0';
}

static int parse_field(struct csv_table *t, int col, const char *text, struct csv_row *r,
                       const char **why)
{
    const struct csv_column *c = &csv_columns[col];
    char *p = (char *)r + csv_row_offsets[col];
    char *end;

    if (c->kind == CSV_K_STR) {
        const char *s;
        if (strlen(text) >= CSV_STR_LEN) {
            *why = "text longer than the record allows";
            return 1;
        }
        s = csv_intern(t, text);
        if (!s) {
            *why = "more text than memory holds";
            return 1;
        }
        *(const char **)p = s;
        return 0;
    }
    if (*text == '\0') {
        if (c->kind == CSV_K_INT) {
            *why = "empty value in a column that is never empty";
            return 1;
        }
        if (c->kind == CSV_K_OPT)
            *(int64_t *)p = -1;
        else
            *(double *)p = NAN;
        return 0;
    }
    errno = 0;
    if (c->kind == CSV_K_DBL || c->kind == CSV_K_NUM) {
        if (!csv_plain_real(text)) {
            *why = "not a plain decimal number (the suite writes 42, -1.5e-07, nan)";
            return 1;
        }
        double v = strtod(text, &end);
        if (errno == ERANGE) {
            *why = "out of the range of a double";
            return 1;
        }
        *(double *)p = v;
    } else {
        /* csv_plain_whole first: strtoll then reads the whole field */
        long long v = csv_plain_whole(text) ? strtoll(text, &end, 10) : -1;
        if (v < 0 || errno == ERANGE) {
            *why = "not a non-negative whole number";
            return 1;
        }
        *(int64_t *)p = v;
    }
    return 0;
}

static int table_push(struct csv_table *t, const struct csv_row *r, long line, const char *file)
{
    if (t->n == t->cap) {
        /* 1.5x: a million rows of 0.5 KB leave at most a third of the block unused */
        size_t cap = t->cap ? t->cap + t->cap / 2 : 64;
        struct csv_row *rows = realloc(t->rows, cap * sizeof *rows);
        long *lines;
        const char **files;
        if (!rows) return 1;
        t->rows = rows;
        lines = realloc(t->lines, cap * sizeof *lines);
        if (!lines) return 1;
        t->lines = lines;
        files = realloc(t->files, cap * sizeof *files);
        if (!files) return 1;
        t->files = files;
        t->cap = cap;
    }
    t->rows[t->n] = *r;
    t->lines[t->n] = line;
    t->files[t->n] = file;
    t->n++;
    return 0;
}

size_t csv_bom_length(const char *s)
{
    return strncmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

#define MAX_FIELDS 512

/* A header line (its BOM already dropped) into map (file column -> csv_columns index, or -1) and
 * *nhead; 0, or 1 with err */
static int take_header(char *line, const char *name, long lineno, char **fields, int *map,
                       int *nhead, char *err, size_t errlen)
{
    const char *why = NULL;
    int schema_col = -1;
    *nhead = csv_split_fields(line, fields, MAX_FIELDS, &why);
    if (*nhead < 0) {
        cli_fail(err, errlen, "%s:%ld: header: %s", name, lineno, why);
        return 1;
    }
    for (int i = 0; i < *nhead; i++) {
        map[i] = -1;
        for (int c = 0; c < NCOLS; c++) {
            if (strcmp(fields[i], csv_columns[c].name) == 0) map[i] = c;
        }
        for (int j = 0; j < i; j++) {
            if (map[i] >= 0 && map[j] == map[i]) {
                cli_fail(err, errlen, "%s:%ld: header names column '%s' twice", name, lineno,
                         fields[i]);
                return 1;
            }
        }
        if (map[i] == 0) schema_col = i;
    }
    if (schema_col < 0) {
        cli_fail(err, errlen,
                 "%s:%ld: not a result file of this suite (no 'schema' column in the header)", name,
                 lineno);
        return 1;
    }
    return 0;
}

int csv_read(FILE *f, const char *name, struct csv_table *t, char *err, size_t errlen)
{
    char *line = NULL, *header = NULL;
    const char *file = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int map[MAX_FIELDS]; /* file column -> csv_columns index, or -1 */
    char **fields = malloc(MAX_FIELDS * sizeof *fields);
    int nhead = 0, rc = 1;
    const char *why = NULL;

    if (!fields) {
        cli_fail(err, errlen, "%s: out of memory", name);
        return 1;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        int n;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if ((size_t)len != strlen(line)) {
            cli_fail(err, errlen, "%s:%ld: NUL byte in the line", name, lineno);
            goto out;
        }
        if (!header) {
            size_t bom = csv_bom_length(line);
            if (bom) { /* Excel's UTF-8 mark before the first column name */
                memmove(line, line + bom, (size_t)len - bom + 1);
                len -= (ssize_t)bom;
            }
            file = csv_intern(t, name);
            header = strdup(line);
            if (!file || !header) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
            if (take_header(line, name, lineno, fields, map, &nhead, err, errlen)) goto out;
            continue;
        }
        char *const bare = line + csv_bom_length(line); /* a concatenated file's BOM dropped */
        if (len == 0 || strcmp(bare, header) == 0)
            continue; /* blank line, or the header of a concatenated file */
        if (strncmp(bare, "schema,", 7) == 0) {
            /* the header of a concatenated file of another generation (columns are only ever
             * appended, and read by name): the rows after it are read by its columns */
            char *h = strdup(bare);
            if (!h) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
            free(header);
            header = h;
            if (take_header(bare, name, lineno, fields, map, &nhead, err, errlen)) goto out;
            continue;
        }
        n = csv_split_fields(line, fields, MAX_FIELDS, &why);
        if (n < 0) {
            cli_fail(err, errlen, "%s:%ld: %s", name, lineno, why);
            goto out;
        }
        if (n != nhead) {
            cli_fail(err, errlen, "%s:%ld: %d fields where the header has %d", name, lineno, n,
                     nhead);
            goto out;
        }
        {
            struct csv_row r;
            const char *empty = csv_intern(t, "");
            if (!empty) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
            csv_row_init(&r, empty);
            for (int i = 0; i < n; i++) {
                if (map[i] < 0) continue; /* a column added after this reader was built */
                if (parse_field(t, map[i], fields[i], &r, &why)) {
                    cli_fail(err, errlen, "%s:%ld: column %s: '%.40s' is %s", name, lineno,
                             csv_columns[map[i]].name, fields[i], why);
                    goto out;
                }
            }
            if (r.schema != CSV_SCHEMA) {
                cli_fail(err, errlen,
                         "%s:%ld: schema %lld is not supported (this reader knows "
                         "schema %d)",
                         name, lineno, (long long)r.schema, CSV_SCHEMA);
                goto out;
            }
            if (table_push(t, &r, lineno, file)) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
        }
    }
    /* getline's -1 is the end of the file only where the stream says so: out of memory for a
     * line (ENOMEM) sets neither flag, and read as the end it would drop the rest silently */
    if (ferror(f) || !feof(f)) {
        cli_fail(err, errlen, "%s: cannot read: %s", name, strerror(errno));
        goto out;
    }
    if (!header) {
        cli_fail(err, errlen, "%s: empty file (expected a CSV header line)", name);
        goto out;
    }
    rc = 0;
out:
    free(line);
    free(header);
    free(fields);
    return rc;
}

int csv_read_path(const char *path, struct csv_table *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    int rc;
    if (!f) {
        cli_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return 1;
    }
    rc = csv_read(f, path, t, err, errlen);
    fclose(f);
    return rc;
}

void csv_table_free(struct csv_table *t)
{
    if (t->strings) {
        struct csv_chunk *c = t->strings->chunks;
        while (c) {
            struct csv_chunk *next = c->next;
            free(c);
            c = next;
        }
        free(t->strings->slots);
        free(t->strings);
    }
    free(t->rows);
    free(t->lines);
    free(t->files);
    t->rows = NULL;
    t->lines = NULL;
    t->files = NULL;
    t->strings = NULL;
    t->n = t->cap = 0;
}
