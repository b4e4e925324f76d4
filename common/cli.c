/* cli.c: parsing of the list syntax; every error names the offending text and the accepted form. */
#include "cli.h"

#include "sysinfo.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    }
    return 1;
}

int cli_error(const char *prog, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

#define LIST_FORM "a list like 64,128,256 or ranges a:b:step / a:b:xFACTOR"

int cli_parse_value(const char *text, int allow_suffix, size_t *out, char *err, size_t errlen)
{
    const char *p = text;
    char *end = NULL;
    unsigned long long v, base = 1024;
    int power = 0; /* of base */

    if (!isdigit((unsigned char)*p)) {
        cli_fail(err, errlen, "'%s' is not a non-negative whole number", text);
        return 1;
    }
    errno = 0;
    v = strtoull(p, &end, 10);
    if (errno == ERANGE) {
        cli_fail(err, errlen, "'%s' is too large", text);
        return 1;
    }
    if (allow_suffix && *end) {
        switch (*end) {
        case 'K':
        case 'k':
            power = 1;
            break;
        case 'M':
        case 'm':
            power = 2;
            break;
        case 'G':
        case 'g':
            power = 3;
            break;
        case 'T':
        case 't':
            power = 4;
            break;
        default:
            break;
        }
        if (power) {
            end++;
            if ((*end == 'i' || *end == 'I') && (end[1] == 'B' || end[1] == 'b')) {
                end += 2; /* KiB, MiB, ...: powers of 1024 */
            } else if (*end == 'B' || *end == 'b') {
                end++; /* KB, MB, ...: SI, powers of 1000 */
                base = 1000;
            } /* bare K, M, ...: powers of 1024, as before the SI forms were accepted */
        }
    }
    if (*end) {
        cli_fail(err, errlen, "'%s' is not a whole number%s", text,
                 allow_suffix ? " (optionally with suffix KiB/MiB/GiB/TiB or bare K/M/G/T, "
                                "powers of 1024, or KB/MB/GB/TB, powers of 1000)"
                              : "");
        return 1;
    }
    for (int i = 0; i < power; i++) {
        if (v > UINT64_MAX / base || v * base > SIZE_MAX) {
            cli_fail(err, errlen, "'%s' is too large", text);
            return 1;
        }
        v *= base;
    }
    *out = (size_t)v;
    return 0;
}

static int push(struct cli_list *out, size_t v, const char *text, char *err, size_t errlen)
{
    if (out->n >= CLI_LIST_MAX) {
        cli_fail(err, errlen, "'%s' expands to more than %d values", text, CLI_LIST_MAX);
        return 1;
    }
    out->v[out->n++] = v;
    return 0;
}

/* Euclid's; gcd(0, b) = b, so the first step starts it */
static size_t gcd(size_t a, size_t b)
{
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One item: value, a:b, a:b:step or a:b:xF. `item` is a writable copy. */
static int parse_item(char *item, const char *whole, int allow_suffix, size_t lo, size_t hi,
                      struct cli_list *out, char *err, size_t errlen)
{
    char *parts[3] = {item, NULL, NULL};
    int np = 1;
    size_t a, b, step = allow_suffix ? 2 : 1;
    int geometric = allow_suffix; /* byte sizes: a:b doubles, 1K:4K = 1K,2K,4K */
    char *c;

    for (c = item; *c; c++) {
        if (*c == ':') {
            if (np == 3) {
                cli_fail(err, errlen, "'%s': a range has at most three parts a:b:step", whole);
                return 1;
            }
            *c = '\0';
            parts[np++] = c + 1;
        }
    }
    if (cli_parse_value(parts[0], allow_suffix, &a, err, errlen)) return 1;
    if (np == 1) {
        b = a;
    } else {
        if (cli_parse_value(parts[1], allow_suffix, &b, err, errlen)) return 1;
        if (b < a) {
            cli_fail(err, errlen, "'%s': range end %zu is below its start %zu", whole, b, a);
            return 1;
        }
        if (np == 3) {
            const char *s = parts[2];
            geometric = *s == 'x' || *s == '*';
            if (geometric) s++;
            if (cli_parse_value(s, geometric ? 0 : allow_suffix, &step, err, errlen)) return 1;
            if (geometric ? step < 2 : step < 1) {
                cli_fail(err, errlen, "'%s': %s must be at least %d", whole,
                         geometric ? "a factor" : "a step", geometric ? 2 : 1);
                return 1;
            }
            if (!geometric && (out->min_step == 0 || step < out->min_step)) out->min_step = step;
            if (!geometric) out->step_gcd = gcd(out->step_gcd, step);
        }
        if (geometric && a == 0) {
            cli_fail(err, errlen, "'%s': a geometric range cannot start at 0%s", whole,
                     np == 2 ? " (a:b without a step doubles from a)" : "");
            return 1;
        }
    }
    for (size_t v = a;;) {
        if (v < lo || v > hi) {
            cli_fail(err, errlen, "'%s': value %zu is outside the accepted range %zu..%zu", whole,
                     v, lo, hi);
            return 1;
        }
        if (push(out, v, whole, err, errlen)) return 1;
        if (geometric) {
            if (v > b / step) break;
            v *= step;
        } else {
            if (b - v < step) break;
            v += step;
        }
        if (v > b) break;
    }
    return 0;
}

int cli_parse_list(const char *text, int allow_suffix, size_t lo, size_t hi, struct cli_list *out,
                   char *err, size_t errlen)
{
    char buf[1024];
    char *item, *save = NULL;
    size_t len = strlen(text);

    out->n = 0;
    out->min_step = 0;
    out->step_gcd = 0;
    if (len == 0) {
        cli_fail(err, errlen, "empty list: expected %s", LIST_FORM);
        return 1;
    }
    if (len >= sizeof buf) {
        cli_fail(err, errlen, "list of %zu characters is too long (at most %zu)", len,
                 sizeof buf - 1);
        return 1;
    }
    if (text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,")) {
        cli_fail(err, errlen, "'%s' has an empty item: expected %s", text, LIST_FORM);
        return 1;
    }
    memcpy(buf, text, len + 1);
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (parse_item(item, text, allow_suffix, lo, hi, out, err, errlen)) return 1;
    }
    return 0;
}

void cli_join_names(const char *const *names, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? "," : "", names[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

int cli_parse_names(const char *text, const char *const *names, int n, int *out, int *count,
                    char *err, size_t errlen)
{
    char accepted[512];
    const char *p = text;

    *count = 0;
    cli_join_names(names, n, accepted, sizeof accepted);
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int found = -1;
        for (int i = 0; i < n; i++) {
            if (strlen(names[i]) == len && strncmp(names[i], p, len) == 0) found = i;
        }
        if (found < 0) {
            cli_fail(err, errlen, "'%.*s' is not one of %s", (int)(len > 64 ? 64 : len), p,
                     accepted);
            return 1;
        }
        for (int i = 0; i < *count; i++) {
            if (out[i] == found) {
                cli_fail(err, errlen, "'%s' names %s twice", text, names[found]);
                return 1;
            }
        }
        out[(*count)++] = found;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

int cli_opt_int(const char *opt, const char *text, long lo, long hi, int *out, char *err,
                size_t errlen)
{
    size_t v;
    char sub[160];
    if (cli_parse_value(text, 0, &v, sub, sizeof sub) || v < (size_t)lo || v > (size_t)hi) {
        cli_fail(err, errlen, "%s '%s': expected a whole number from %ld to %ld", opt, text, lo,
                 hi);
        return 1;
    }
    *out = (int)v;
    return 0;
}

int cli_opt_list(const char *opt, const char *text, int allow_suffix, size_t lo, size_t hi,
                 struct cli_list *out, char *err, size_t errlen)
{
    char sub[256];
    if (cli_parse_list(text, allow_suffix, lo, hi, out, sub, sizeof sub)) {
        cli_fail(err, errlen, "%s: %s", opt, sub);
        return 1;
    }
    /* a value given twice runs once, as a domain does: the first place it was given kept */
    size_t n = 0;
    for (size_t i = 0; i < out->n; i++) {
        size_t k = 0;
        while (k < n && out->v[k] != out->v[i])
            k++;
        if (k == n) out->v[n++] = out->v[i];
    }
    out->n = n;
    return 0;
}

int cli_opt_double(const char *opt, const char *text, double lo, double hi, double *out, char *err,
                   size_t errlen)
{
    char *end;
    /* decimal only, as every other number the options take: strtod alone reads 0x10 as 16 */
    const int hex = strpbrk(text, "xX") != NULL;
    double v = strtod(text, &end);
    if (hex || *end || end == text || !isfinite(v) || !(v > lo && v < hi)) {
        cli_fail(err, errlen, "%s '%s': expected a decimal number between %g and %g (exclusive)",
                 opt, text, lo, hi);
        return 1;
    }
    *out = v + 0.0; /* -0 as 0: a row never reads lid_ux=-0 */
    return 0;
}

int cli_opt_block(const char *opt, const char *text, struct cli_list *out, char *err, size_t errlen)
{
    if (cli_opt_list(opt, text, 0, 32, 1024, out, err, errlen)) return 1;
    for (size_t i = 0; i < out->n; i++) {
        if (out->v[i] % 32) {
            cli_fail(err, errlen, "%s: %zu is not a multiple of 32 (a warp)", opt, out->v[i]);
            return 1;
        }
    }
    return 0;
}

int cli_std_fds(void)
{
    int closed = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        closed |= 1 << fd;
        /* read-only: a write to a closed stdout or stderr still fails (EBADF), so a CSV asked
         * for on a closed stdout ends in exit 3, not in /dev/null */
        const int n = open("/dev/null", O_RDONLY);
        if (n >= 0 && n != fd) { /* a lower descriptor was closed too: it took that one */
            dup2(n, fd);
            close(n);
        }
    }
    return closed;
}

int cli_opt_threads(const char *backend, const char *text, struct cli_list *out, char *err,
                    size_t errlen)
{
    if (strcmp(backend, "cpu") != 0) {
        cli_fail(err, errlen,
                 "--threads applies to the cpu executables only (OpenMP threads; "
                 "the gpu ones take --block)");
        return 1;
    }
    return cli_opt_list("--threads", text, 0, 1, 65536, out, err, errlen);
}

int cli_check_threads(const struct cli_list *threads, int cpus, int default_threads, char *err,
                      size_t errlen)
{
    static const char why[] = "(its affinity mask, the OpenMP places or likwid-pin's list, "
                              "whichever holds most, and at most OMP_THREAD_LIMIT); more threads "
                              "would time-share them";
    const char *env = getenv("OMP_NUM_THREADS");
    if (cpus <= 0) return 0;
    if (threads->n == 0 && default_threads > cpus) {
        cli_fail(err, errlen,
                 "%d OpenMP threads (OMP_NUM_THREADS=%s): this process's threads may run on %d "
                 "CPU(s) %s; ask for at most %d",
                 default_threads, env ? env : "unset", cpus, why, cpus);
        return 1;
    }
    for (size_t i = 0; i < threads->n; i++) {
        if (threads->v[i] > (size_t)cpus) {
            cli_fail(err, errlen, "--threads %zu: this process's threads may run on %d CPU(s) %s",
                     threads->v[i], cpus, why);
            return 1;
        }
    }
    return 0;
}

int cli_common_option(int c, int version_code, int argc, char **argv, const struct option *longopts,
                      const char **out_path, void (*usage)(const char *), char *err, size_t errlen)
{
    if (c == 'o') {
        if (!*optarg) {
            cli_fail(err, errlen, "-o: expected a file name");
            return 2;
        }
        *out_path = optarg;
        return 0;
    }
    if (c == 'h') {
        usage(argv[0]);
        return -1;
    }
    if (c == version_code) {
        fprintf(stdout, "%s\n", sysinfo_version()); /* asked for: stdout, for pipes */
        return -1;
    }
    if (c == ':') {
        cli_fail(err, errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
        return 2;
    }
    cli_bad_option(argc, argv, longopts, err, errlen);
    return 2;
}

/* The argument that holds the unknown short option c: "-lead.csv" for its 'l'. Inside a cluster
 * getopt's optind still points at the cluster; after its last character, past it. NULL when
 * neither holds c (it came some other way). */
static const char *cluster_of(int argc, char **argv, int c)
{
    const char *here = optind < argc ? argv[optind] : NULL;
    const char *before = optind > 0 && optind - 1 < argc ? argv[optind - 1] : NULL;
    if (before && before[0] == '-' && before[1] == c && before[2] == '\0') return before;
    if (here && here[0] == '-' && here[1] != '-' && strchr(here + 1, c)) return here;
    if (before && before[0] == '-' && before[1] != '-' && strchr(before + 1, c)) return before;
    return NULL;
}

/* For a long option arg that getopt refused: the options whose names begin with what arg gives
 * ("--over": --overlap, --overwrite), joined into names, and how many; *match the one named in
 * full, else the last one found. */
static int candidates(const char *arg, const struct option *longopts, char *names, size_t len,
                      const struct option **match)
{
    const size_t n = strcspn(arg + 2, "=");
    int count = 0, exact = 0;
    names[0] = '\0';
    *match = NULL;
    for (const struct option *l = longopts; l && l->name; l++) {
        if (strncmp(l->name, arg + 2, n) != 0) continue;
        if (!exact) *match = l;
        exact = exact || strlen(l->name) == n;
        const size_t at = strlen(names);
        snprintf(names + at, len - at, "%s--%s", count ? ", " : "", l->name);
        count++;
    }
    char *comma = strrchr(names, ','); /* "a, b, c" -> "a, b or c" */
    if (comma && strlen(names) + 3 < len) {
        memmove(comma + 3, comma + 1, strlen(comma + 1) + 1);
        memcpy(comma, " or", 3);
    }
    return exact ? 1 : count;
}

void cli_bad_option(int argc, char **argv, const struct option *longopts, char *err, size_t errlen)
{
    const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";
    const struct option *match = NULL;
    char names[512];
    int n;

    n = strncmp(arg, "--", 2) == 0 ? candidates(arg, longopts, names, sizeof names, &match) : 0;
    /* getopt sets optopt to a refused long option's val too (--help=x: 'h'): a short option is
     * one whose letter is not that of the long option just read */
    const int long_read = n == 1 && match && match->val == optopt;
    if (optopt > 0 && optopt < 256 && !long_read) { /* perhaps one letter of a cluster */
        const char *in = cluster_of(argc, argv, optopt);
        if (in && strlen(in) > 2)
            cli_fail(err, errlen, "unknown option '-%c' (in '%s'; see --help)", optopt, in);
        else
            cli_fail(err, errlen, "unknown option '-%c' (see --help)", optopt);
        return;
    }
    if (n > 1)
        cli_fail(err, errlen, "option '%.*s' is ambiguous: it may be %s (give more of its name)",
                 (int)strcspn(arg, "="), arg, names);
    else if (n == 1 && strchr(arg, '=') && match->has_arg == no_argument)
        cli_fail(err, errlen, "option '--%s' takes no value ('%s' given; see --help)", match->name,
                 arg);
    else
        cli_fail(err, errlen, "unknown option '%s' (see --help)", arg);
}

int cli_no_operands(int argc, char **argv, int optind_, char *err, size_t errlen)
{
    if (optind_ < argc) {
        cli_fail(err, errlen, "unexpected argument '%s' (options start with --; see --help)",
                 argv[optind_]);
        return 2;
    }
    return 0;
}

int cli_select_supported(int *ids, int *n, int count, const char *const *names, const char *opt,
                         int (*supported)(int id, char *why, size_t whylen), char *err,
                         size_t errlen)
{
    char why[256];
    if (*n == 0) {
        for (int k = 0; k < count; k++) {
            if (supported(k, why, sizeof why) == 0) ids[(*n)++] = k;
        }
        return 0;
    }
    for (int i = 0; i < *n; i++) {
        if (supported(ids[i], why, sizeof why)) {
            cli_fail(err, errlen, "%s %s: %s", opt, names[ids[i]], why);
            return 1;
        }
    }
    return 0;
}
