/* test_csv.c: a record written and read back field for field; quoting; malformed files are
 * refused with the file and line named. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csv.h"

static FILE *from_text(const char *text)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    return f;
}

static int read_fails(const char *text, const char *want_in_err)
{
    struct csv_table t = {0};
    char err[256] = "";
    FILE *f = from_text(text);
    int rc = csv_read(f, "fixture.csv", &t, err, sizeof err);
    fclose(f);
    csv_table_free(&t);
    if (rc == 0 || !strstr(err, want_in_err)) {
        fprintf(stderr, "  expected an error with '%s', got rc=%d '%s'\n", want_in_err, rc, err);
        return 0;
    }
    return 1;
}

int main(void)
{
    struct csv_record r;
    const struct csv_row *b;
    struct csv_table t = {0};
    char err[256];
    FILE *f = tmpfile();

    csv_record_init(&r);
    csv_set(r.version, "0.1.0-abc");
    csv_set(r.host, "node,01");               /* comma: must be quoted */
    csv_set(r.device, "GPU \"quoted\" name"); /* quotes: doubled */
    csv_set(r.flags, "-O3\n-march=native");   /* newline: becomes a space */
    csv_set(r.kernel, "copy");
    csv_set(r.precision, "dp");
    r.nx = 268435456;
    r.blocks = -1; /* empty */
    r.t_min_s = 0.000712345678;
    r.bw_prog_GBs = 3012.5;
    r.occupancy = NAN;   /* empty */
    r.max_rel_err = NAN; /* a result that is not a number: written "nan" */
    r.omega = 1.25;
    csv_set(r.verified, "pass");

    CHECK(csv_write_header(f) == 0);
    CHECK(csv_write_row(f, &r) == 0);
    CHECK(csv_write_row(f, &r) == 0);
    {
        char text[8192];
        size_t n;
        rewind(f);
        n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        CHECK(strstr(text, ",nan,pass,") != NULL); /* max_rel_err, then verified */
        CHECK(strstr(text, ",,,1.25,") != NULL);   /* halo (empty), then the physics columns */
    }
    rewind(f);
    CHECK(csv_read(f, "roundtrip.csv", &t, err, sizeof err) == 0);
    fclose(f);
    CHECK(t.n == 2);
    if (t.n == 2) {
        b = &t.rows[1];
        CHECK(b->schema == 1);
        CHECK(strcmp(b->host, "node,01") == 0);
        CHECK(strcmp(b->device, "GPU \"quoted\" name") == 0);
        CHECK(strcmp(b->flags, "-O3 -march=native") == 0);
        CHECK(b->nx == 268435456);
        CHECK(b->blocks == -1);
        CHECK(b->t_min_s == 0.000712345678);
        CHECK(b->bw_prog_GBs == 3012.5);
        CHECK(isnan(b->occupancy));
        CHECK(isnan(b->max_rel_err));
        CHECK(b->omega == 1.25 && isnan(b->viscosity));
        CHECK(strcmp(b->verified, "pass") == 0);
        CHECK(t.lines[1] == 3);
    }
    csv_table_free(&t);

    /* concatenated files: the second header is skipped; unknown columns are ignored */
    f = from_text(
        "schema,kernel,future_column\n1,copy,x\nschema,kernel,future_column\n1,copy19,y\n");
    CHECK(csv_read(f, "cat.csv", &t, err, sizeof err) == 0);
    fclose(f);
    CHECK(t.n == 2 && strcmp(t.rows[1].kernel, "copy19") == 0);
    csv_table_free(&t);

    /* a UTF-8 byte order mark before the header (Excel writes one) is not part of 'schema' */
    f = from_text("\xEF\xBB\xBFschema,kernel\n1,copy\n");
    CHECK(csv_read(f, "bom.csv", &t, err, sizeof err) == 0);
    fclose(f);
    CHECK(t.n == 1 && strcmp(t.rows[0].kernel, "copy") == 0);
    csv_table_free(&t);

    CHECK(read_fails("", "fixture.csv: empty file"));
    CHECK(read_fails("kernel,nx\ncopy,5\n", "no 'schema' column"));
    CHECK(read_fails("schema,nx\n1,5\n1,5,6\n", "fixture.csv:3: 3 fields where the header has 2"));
    CHECK(read_fails("schema,nx\n1,abc\n", "fixture.csv:2: column nx"));
    CHECK(read_fails("schema,t_min_s\n1,0.5x\n", "column t_min_s"));
    CHECK(read_fails("schema,nx\n2,5\n", "schema 2 is not supported"));
    CHECK(read_fails("schema,host\n1,\"open\n", "unterminated quoted field"));
    CHECK(read_fails("schema,nx,nx\n1,2,3\n", "names column 'nx' twice"));
    CHECK(read_fails("schema,nx\n,5\n", "never empty"));

    /* a number is plain decimal, as the writer writes it (%lld, %.9g, "nan"): strtod's and
     * strtoll's extras (hex, blanks, a '+', "infinity", "nan(...)") are refused like any other
     * malformed field, file, line, column and text named */
    CHECK(read_fails("schema,t_min_s\n1,0x10\n", "fixture.csv:2: column t_min_s: '0x10' is not"));
    CHECK(read_fails("schema,t_min_s\n1, 0.5\n", "column t_min_s: ' 0.5' is not"));
    CHECK(read_fails("schema,t_min_s\n1,+0.5\n", "column t_min_s: '+0.5' is not"));
    CHECK(read_fails("schema,t_min_s\n1,infinity\n", "'infinity' is not"));
    CHECK(read_fails("schema,max_rel_err\n1,nan(7)\n", "'nan(7)' is not"));
    CHECK(read_fails("schema,t_min_s\n1,1e\n", "'1e' is not"));
    CHECK(read_fails("schema,nx\n1, 5\n", "column nx: ' 5' is not a non-negative whole number"));
    CHECK(read_fails("schema,nx\n1,+5\n", "column nx: '+5' is not"));
    f = from_text("schema,t_min_s,omega,max_rel_err,bw_prog_GBs,nx\n1,1.5e-07,-0.25,nan,inf,12\n");
    CHECK(csv_read(f, "plain.csv", &t, err, sizeof err) == 0);
    fclose(f);
    CHECK(t.n == 1 && t.rows[0].t_min_s == 1.5e-07 && t.rows[0].omega == -0.25 &&
          isnan(t.rows[0].max_rel_err) && isinf(t.rows[0].bw_prog_GBs) && t.rows[0].nx == 12);
    csv_table_free(&t);
    /* the rule itself, which the roofline tool's reader of its own roofline.csv (a baseline)
     * shares: the writer's forms pass, strtod's extras do not */
    CHECK(csv_plain_real("42") && csv_plain_real("-1.5e-07") && csv_plain_real(".5") &&
          csv_plain_real("7.") && csv_plain_real("1E+3") && csv_plain_real("nan") &&
          csv_plain_real("-inf"));
    CHECK(!csv_plain_real("") && !csv_plain_real("0x22b8") && !csv_plain_real(" 256") &&
          !csv_plain_real("256 ") && !csv_plain_real("+1") && !csv_plain_real("Infinity") &&
          !csv_plain_real("nan(1)") && !csv_plain_real("-") && !csv_plain_real(".") &&
          !csv_plain_real("1e"));
    CHECK(csv_plain_whole("0") && csv_plain_whole("256"));
    CHECK(!csv_plain_whole("") && !csv_plain_whole(" 256") && !csv_plain_whole("+5") &&
          !csv_plain_whole("-1") && !csv_plain_whole("2.0") && !csv_plain_whole("1e3") &&
          !csv_plain_whole("0x10"));
    return check_report("test_csv");
}
