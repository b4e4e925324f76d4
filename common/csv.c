/* csv.c: writing and reading schema-1 records; RFC 4180 quoting, '.' decimal point (the
 * programs never call setlocale, so the C locale formats every number). */
#include "csv.h"

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
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
        case CSV_K_INT: *(int64_t *)p = 0; break;
        case CSV_K_OPT: *(int64_t *)p = -1; break;
        case CSV_K_DBL: *(double *)p = NAN; break;
        case CSV_K_NUM: *(double *)p = NAN; break;
        case CSV_K_STR: p[0] = '\0'; break;
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
    if (!strpbrk(s, ",\"\n\r"))
        return fputs(s, f) < 0;
    if (fputc('"', f) == EOF)
        return 1;
    for (; *s; s++) {
        if (*s == '"' && fputc('"', f) == EOF)
            return 1;
        if (fputc(*s, f) == EOF)
            return 1;
    }
    return fputc('"', f) == EOF;
}

int csv_write_header(FILE *f)
{
    for (int i = 0; i < NCOLS; i++) {
        if (fprintf(f, "%s%s", i ? "," : "", csv_columns[i].name) < 0)
            return 1;
    }
    if (fputc('\n', f) == EOF)
        return 1;
    return fflush(f) != 0;
}

int csv_write_row(FILE *f, const struct csv_record *r)
{
    for (int i = 0; i < NCOLS; i++) {
        const char *p = (const char *)r + csv_columns[i].offset;
        int bad = 0;
        if (i && fputc(',', f) == EOF)
            return 1;
        switch (csv_columns[i].kind) {
        case CSV_K_INT:
            bad = fprintf(f, "%lld", (long long)*(const int64_t *)p) < 0;
            break;
        case CSV_K_OPT:
            if (*(const int64_t *)p >= 0)
                bad = fprintf(f, "%lld", (long long)*(const int64_t *)p) < 0;
            break;
        case CSV_K_DBL:
            if (!isnan(*(const double *)p))
                bad = fprintf(f, "%.9g", *(const double *)p) < 0;
            break;
        case CSV_K_NUM: /* glibc would print -nan for a NaN with its sign bit set */
            bad = (isnan(*(const double *)p) ? fputs("nan", f) < 0
                                             : fprintf(f, "%.9g", *(const double *)p) < 0);
            break;
        case CSV_K_STR:
            bad = csv_write_field(f, p);
            break;
        }
        if (bad)
            return 1;
    }
    if (fputc('\n', f) == EOF)
        return 1;
    return fflush(f) != 0;
}

/* Splits one line into fields in place (quotes removed). Returns the field count or -1. */
static int split_fields(char *line, char **fields, int max, const char **why)
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

static int parse_field(const struct csv_column *c, const char *text, struct csv_record *r,
                       const char **why)
{
    char *p = (char *)r + c->offset;
    char *end;

    if (c->kind == CSV_K_STR) {
        if (strlen(text) >= CSV_STR_LEN) {
            *why = "text longer than the record allows";
            return 1;
        }
        csv_set(p, text);
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
        double v = strtod(text, &end);
        if (*end || errno == ERANGE || end == text) {
            *why = "not a number";
            return 1;
        }
        *(double *)p = v;
    } else {
        long long v = strtoll(text, &end, 10);
        if (*end || errno == ERANGE || end == text || v < 0) {
            *why = "not a non-negative whole number";
            return 1;
        }
        *(int64_t *)p = v;
    }
    return 0;
}

static int table_push(struct csv_table *t, const struct csv_record *r, long line)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct csv_record *rows = realloc(t->rows, cap * sizeof *rows);
        long *lines;
        if (!rows)
            return 1;
        t->rows = rows;
        lines = realloc(t->lines, cap * sizeof *lines);
        if (!lines)
            return 1;
        t->lines = lines;
        t->cap = cap;
    }
    t->rows[t->n] = *r;
    t->lines[t->n] = line;
    t->n++;
    return 0;
}

#define MAX_FIELDS 512

int csv_read(FILE *f, const char *name, struct csv_table *t, char *err, size_t errlen)
{
    char *line = NULL, *header = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int map[MAX_FIELDS]; /* file column -> csv_columns index, or -1 */
    char **fields = malloc(MAX_FIELDS * sizeof *fields);
    int nhead = 0, schema_col = -1, rc = 1;
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
            header = strdup(line);
            if (!header) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
            nhead = split_fields(line, fields, MAX_FIELDS, &why);
            if (nhead < 0) {
                cli_fail(err, errlen, "%s:%ld: header: %s", name, lineno, why);
                goto out;
            }
            for (int i = 0; i < nhead; i++) {
                map[i] = -1;
                for (int c = 0; c < NCOLS; c++) {
                    if (strcmp(fields[i], csv_columns[c].name) == 0)
                        map[i] = c;
                }
                for (int j = 0; j < i; j++) {
                    if (map[i] >= 0 && map[j] == map[i]) {
                        cli_fail(err, errlen, "%s:%ld: header names column '%s' twice", name,
                                 lineno, fields[i]);
                        goto out;
                    }
                }
                if (map[i] == 0)
                    schema_col = i;
            }
            if (schema_col < 0) {
                cli_fail(err, errlen, "%s:%ld: not a result file of this suite (no 'schema' column "
                                      "in the header)", name, lineno);
                goto out;
            }
            continue;
        }
        if (len == 0 || strcmp(line, header) == 0)
            continue; /* blank line, or the header of a concatenated file */
        n = split_fields(line, fields, MAX_FIELDS, &why);
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
            struct csv_record r;
            csv_record_init(&r);
            for (int i = 0; i < n; i++) {
                if (map[i] < 0)
                    continue; /* a column added after this reader was built */
                if (parse_field(&csv_columns[map[i]], fields[i], &r, &why)) {
                    cli_fail(err, errlen, "%s:%ld: column %s: '%.40s' is %s", name, lineno,
                             csv_columns[map[i]].name, fields[i], why);
                    goto out;
                }
            }
            if (r.schema != CSV_SCHEMA) {
                cli_fail(err, errlen, "%s:%ld: schema %lld is not supported (this reader knows "
                                      "schema %d)", name, lineno, (long long)r.schema, CSV_SCHEMA);
                goto out;
            }
            if (table_push(t, &r, lineno)) {
                cli_fail(err, errlen, "%s: out of memory", name);
                goto out;
            }
        }
    }
    if (ferror(f)) {
        cli_fail(err, errlen, "%s: read error", name);
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
    free(t->rows);
    free(t->lines);
    t->rows = NULL;
    t->lines = NULL;
    t->n = t->cap = 0;
}
