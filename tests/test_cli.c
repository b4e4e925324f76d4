/* test_cli.c: the list syntax, good and bad; the line for a refused option. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static struct cli_list l;
static char err[256];

static int list_is(const char *text, int suffix, const size_t *want, size_t n)
{
    if (cli_parse_list(text, suffix, 0, (size_t)1 << 50, &l, err, sizeof err)) {
        fprintf(stderr, "  '%s' refused: %s\n", text, err);
        return 0;
    }
    if (l.n != n) return 0;
    for (size_t i = 0; i < n; i++) {
        if (l.v[i] != want[i]) return 0;
    }
    return 1;
}

static int refused(const char *text, int suffix, size_t lo, size_t hi)
{
    err[0] = '\0';
    return cli_parse_list(text, suffix, lo, hi, &l, err, sizeof err) != 0 && err[0] != '\0';
}

/* The line cli_bad_option gives for the first option getopt_long refuses in args (NULL-ended,
 * the program name first), over a table like the programs': -o FILE and -h short (-h also
 * --help, as roofline's), --overlap and --overwrite sharing a beginning. */
static const char *refusal(const char *const *args)
{
    static const struct option longopts[] = {
        {"overlap", required_argument, 0, 256},
        {"overwrite", no_argument, 0, 257},
        {"output", required_argument, 0, 'o'},
        {"size", required_argument, 0, 258},
        {"check", no_argument, 0, 259},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    char *argv[16];
    int argc = 0, c;
    while (args[argc] && argc < 15) {
        argv[argc] = (char *)args[argc];
        argc++;
    }
    argv[argc] = NULL;
    opterr = 0;
    optind = 0; /* glibc: a full reset, also of a half-parsed cluster */
    err[0] = '\0';
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (c == '?') {
            cli_bad_option(argc, argv, longopts, err, sizeof err);
            break;
        }
    }
    return err;
}

/* refusal(args) holds want */
static int refusal_says(const char *want, const char *const *args)
{
    const char *got = refusal(args);
    if (strstr(got, want)) return 1;
    fprintf(stderr, "  refusal: '%s', expected it to hold '%s'\n", got, want);
    return 0;
}

static void check_option_lines(void)
{
    /* a short option inside a cluster: its letter and the cluster, not a neighbouring argument */
    CHECK(refusal_says("unknown option '-l' (in '-lead.csv'",
                       (const char *[]){"roofline", "st.csv", "-lead.csv", NULL}));
    CHECK(refusal_says("unknown option '-l' (in '-lead'", (const char *[]){"prog", "-lead", NULL}));
    CHECK(refusal_says("unknown option '-x' (in '-xyz'",
                       (const char *[]){"prog", "--size", "8", "-xyz", NULL}));
    CHECK(refusal_says("unknown option '-x' (see",
                       (const char *[]){"prog", "--size", "8", "-x", NULL}));
    /* the cluster's last letter: getopt has moved past the cluster */
    CHECK(refusal_says("unknown option '-x' (in '-hx'", (const char *[]){"prog", "-hx", NULL}));
    /* an abbreviation of two options: ambiguous, both named */
    CHECK(refusal_says("'--over' is ambiguous: it may be --overlap or --overwrite",
                       (const char *[]){"prog", "--over", "on", NULL}));
    CHECK(refusal_says("'--o' is ambiguous: it may be --overlap, --overwrite or --output",
                       (const char *[]){"prog", "--o=x", NULL}));
    CHECK(refusal_says("option '--check' takes no value",
                       (const char *[]){"prog", "--check=1", NULL}));
    /* a long option without a value whose val is a letter: getopt's optopt is that letter */
    CHECK(refusal_says("option '--help' takes no value ('--help=x'",
                       (const char *[]){"prog", "--help=x", "x.csv", NULL}));
    CHECK(refusal_says("unknown option '--bogus' (see",
                       (const char *[]){"prog", "--size", "8", "--bogus", NULL}));
}

int main(void)
{
    const size_t a[] = {32, 48, 64};
    const size_t b[] = {64, 128, 256};
    const size_t c[] = {1 << 20, 1 << 21, 1 << 22};
    const size_t d[] = {5};
    const size_t e[] = {16, 32, 40, 48, 1024};
    const size_t f[] = {3, 4, 5};
    const size_t g[] = {(size_t)3 << 30};
    const size_t h[] = {10, 13};
    const char *names[] = {"copy", "copy_nt", "copy19"};
    int idx[3], count;
    size_t v;

    CHECK(list_is("32:64:16", 0, a, 3));
    CHECK(list_is("64,128,256", 0, b, 3));
    CHECK(list_is("1M:4M:x2", 1, c, 3));
    CHECK(list_is("1MiB:4MiB:x2", 1, c, 3));
    CHECK(list_is("5", 0, d, 1));
    CHECK(list_is("16,32:48:8,1K", 1, e, 5));
    CHECK(list_is("3:5", 0, f, 3));
    CHECK(list_is("3G", 1, g, 1));
    CHECK(list_is("10:15:3", 0, h, 2)); /* the end need not be on the step */
    CHECK(list_is("1:100:x1000", 0, (const size_t[]){1}, 1));

    CHECK(refused("", 0, 0, 100));
    CHECK(refused(",5", 0, 0, 100));
    CHECK(refused("5,", 0, 0, 100));
    CHECK(refused("5,,6", 0, 0, 100));
    CHECK(refused("abc", 0, 0, 100));
    CHECK(refused("-5", 0, 0, 100));
    CHECK(refused("1M", 0, 0, 1 << 30)); /* suffix where none is allowed */
    CHECK(refused("1Q", 1, 0, 1 << 30));
    CHECK(refused("64:32", 0, 0, 100));
    CHECK(refused("1:10:0", 0, 0, 100));
    CHECK(refused("1:10:x1", 0, 0, 100));
    CHECK(refused("0:10:x2", 0, 0, 100));
    CHECK(refused("1:2:3:4", 0, 0, 100));
    CHECK(refused("1:", 0, 0, 100));
    CHECK(refused("101", 0, 0, 100));
    CHECK(refused("5", 0, 10, 100));
    CHECK(refused("1:100000", 0, 0, 1000000)); /* more values than a sweep may have */
    CHECK(refused("99999999999999999999999", 0, 0, (size_t)-1));
    CHECK(refused("20000000T", 1, 0, (size_t)-1));

    /* byte sizes: a range without a step doubles; SI and binary suffixes mean what they say */
    CHECK(list_is("1K:4K", 1, (const size_t[]){1024, 2048, 4096}, 3));
    CHECK(list_is("1KiB:3KiB", 1, (const size_t[]){1024, 2048}, 2));
    CHECK(list_is("1KB:4KB", 1, (const size_t[]){1000, 2000, 4000}, 3));
    CHECK(list_is("3:5", 0, f, 3) && l.min_step == 0);
    CHECK(list_is("1K:2K:512,8:16:4", 1, (const size_t[]){1024, 1536, 2048, 8, 12, 16}, 6));
    CHECK(l.min_step == 4); /* the smallest step, for a caller's check against its unit */
    CHECK(l.step_gcd == 4); /* and what divides every step (512 and 4) */
    CHECK(cli_parse_list("1K:2K:24,4K:5K:36,64", 1, 0, (size_t)1 << 50, &l, err, sizeof err) == 0 &&
          l.min_step == 24 && l.step_gcd == 12); /* 36 is no multiple of 8: the gcd says so */
    CHECK(list_is("64,1K:4K:x2", 1, (const size_t[]){64, 1024, 2048, 4096}, 4) &&
          l.step_gcd == 0); /* a factor is no step */
    CHECK(refused("0:4K", 1, 0, (size_t)1 << 50));
    CHECK(cli_parse_value("1MB", 1, &v, err, sizeof err) == 0 && v == 1000 * 1000);
    CHECK(cli_parse_value("1MiB", 1, &v, err, sizeof err) == 0 && v == 1024 * 1024);
    CHECK(cli_parse_value("1M", 1, &v, err, sizeof err) == 0 && v == 1024 * 1024);
    CHECK(cli_parse_value("2GB", 1, &v, err, sizeof err) == 0 && v == 2000ull * 1000 * 1000);
    CHECK(cli_parse_value("1TB", 1, &v, err, sizeof err) == 0 && v == 1000ull * 1000 * 1000 * 1000);
    CHECK(cli_parse_value("1TiB", 1, &v, err, sizeof err) == 0 && v == 1ull << 40);
    CHECK(cli_parse_value("1MBx", 1, &v, err, sizeof err) != 0);
    CHECK(cli_parse_value("20000000TB", 1, &v, err, sizeof err) != 0);

    /* --threads: cpu only; counts from 1; then at most the CPUs the backend says the threads
     * may use (0: not known, not checked) */
    CHECK(cli_opt_threads("gpu", "1", &l, err, sizeof err) != 0 && strstr(err, "cpu") != NULL);
    CHECK(cli_opt_threads("cpu", "1", &l, err, sizeof err) == 0 && l.n == 1 && l.v[0] == 1);
    CHECK(cli_opt_threads("cpu", "0", &l, err, sizeof err) != 0);
    CHECK(cli_opt_threads("cpu", "65537", &l, err, sizeof err) != 0);
    CHECK(cli_opt_threads("cpu", "1,2,4", &l, err, sizeof err) == 0 && l.n == 3);
    /* a value given twice runs once, in the order first given */
    CHECK(cli_opt_list("--pad", "3,0,3,1:4", 0, 0, 4096, &l, err, sizeof err) == 0 && l.n == 5 &&
          l.v[0] == 3 && l.v[1] == 0 && l.v[2] == 1 && l.v[3] == 2 && l.v[4] == 4);
    CHECK(cli_check_threads(&l, 4, 8, err, sizeof err) == 0); /* the default unused */
    CHECK(cli_check_threads(&l, 0, 8, err, sizeof err) == 0);
    CHECK(cli_check_threads(&l, 3, 1, err, sizeof err) != 0 && strstr(err, "--threads 4") != NULL &&
          strstr(err, "3 CPU(s)") != NULL);
    l.n = 0; /* no --threads: the runtime's default team is held to the CPUs too */
    CHECK(cli_check_threads(&l, 2, 2, err, sizeof err) == 0);
    CHECK(cli_check_threads(&l, 2, 8, err, sizeof err) != 0 && strstr(err, "8 OpenMP") != NULL);

    CHECK(cli_parse_value("64K", 1, &v, err, sizeof err) == 0 && v == 65536);
    CHECK(cli_parse_value("64k", 0, &v, err, sizeof err) != 0);

    CHECK(cli_parse_names("copy19,copy", names, 3, idx, &count, err, sizeof err) == 0);
    CHECK(count == 2 && idx[0] == 2 && idx[1] == 0);
    CHECK(cli_parse_names("copy,copy", names, 3, idx, &count, err, sizeof err) != 0);
    CHECK(cli_parse_names("cop", names, 3, idx, &count, err, sizeof err) != 0);
    CHECK(strstr(err, "copy,copy_nt,copy19") != NULL); /* the message lists what is accepted */
    CHECK(cli_parse_names("", names, 3, idx, &count, err, sizeof err) != 0);
    CHECK(cli_parse_names("copy,", names, 3, idx, &count, err, sizeof err) != 0);
    check_option_lines();
    return check_report("test_cli");
}
