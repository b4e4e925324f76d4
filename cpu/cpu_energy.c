/* cpu_energy.c: the cpu energy meter: package and DRAM energy from Linux powercap (RAPL). */
#define _POSIX_C_SOURCE 200809L
#include "cpu_energy.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "energy.h"

const char *powercap_root(void)
{
    const char *r = getenv("LBMR_POWERCAP_ROOT");
    return r && r[0] ? r : "/sys/class/powercap";
}

/* One line of a file under root/zone, newline removed; errno kept for the caller. */
static int read_line(const char *root, const char *zone, const char *file, char *buf, size_t len)
{
    char path[512];
    FILE *f;
    int n = snprintf(path, sizeof path, "%s/%s/%s", root, zone, file);
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return 1;
    }
    f = fopen(path, "r");
    if (!f) return 1;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        errno = EIO;
        return 1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int read_u64(const char *root, const char *zone, const char *file, uint64_t *v)
{
    char buf[64], *end;
    if (read_line(root, zone, file, buf, sizeof buf)) return 1;
    errno = 0;
    *v = strtoull(buf, &end, 10);
    if (end == buf || *end || errno) {
        errno = EINVAL;
        return 1;
    }
    return 0;
}

/* "intel-rapl:0", "amd-rapl:1:0": a letters-only prefix, "-rapl:", then digits and colons */
static int is_rapl_zone(const char *d)
{
    const char *p = d, *tail;
    while (*p >= 'a' && *p <= 'z')
        p++;
    if (p == d || strncmp(p, "-rapl:", 6) != 0) return 0;
    tail = p + 6;
    if (!*tail) return 0;
    for (p = tail; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == ':')) return 0;
    return 1;
}

static int zone_cmp(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int powercap_scan(struct powercap *p, const char *root, char *why, size_t whylen)
{
    DIR *d;
    struct dirent *e;
    char found[POWERCAP_ZONES_MAX][48];
    int nfound = 0;

    memset(p, 0, sizeof *p);
    p->limit_W = NAN;
    snprintf(p->root, sizeof p->root, "%s", root);
    d = opendir(root);
    if (!d) {
        snprintf(why, whylen, "no powercap (%s: %s)", root, strerror(errno));
        return 1;
    }
    while ((e = readdir(d)) != NULL)
        if (is_rapl_zone(e->d_name) && nfound < POWERCAP_ZONES_MAX &&
            strlen(e->d_name) < sizeof found[0])
            memcpy(found[nfound++], e->d_name, strlen(e->d_name) + 1);
    closedir(d);
    qsort(found, (size_t)nfound, sizeof found[0], zone_cmp); /* the same order every run */
    for (int i = 0; i < nfound; i++) {
        char name[32];
        uint64_t uj, limit_uw;
        if (read_line(root, found[i], "name", name, sizeof name)) continue;
        if (strncmp(name, "package", 7) != 0 && strcmp(name, "dram") != 0) continue;
        if (read_u64(root, found[i], "energy_uj", &uj)) {
            snprintf(why, whylen, "%s/%s/energy_uj: %s%s", root, found[i], strerror(errno),
                     errno == EACCES ? " (root-only since Linux 5.10)" : "");
            return 1;
        }
        if (read_u64(root, found[i], "max_energy_range_uj", &p->max_uj[p->n]) ||
            p->max_uj[p->n] == 0) {
            snprintf(why, whylen, "%s/%s/max_energy_range_uj: cannot read a range", root, found[i]);
            return 1;
        }
        if (strcmp(name, "dram") != 0 &&
            read_u64(root, found[i], "constraint_0_power_limit_uw", &limit_uw) == 0)
            p->limit_W = (isnan(p->limit_W) ? 0 : p->limit_W) + (double)limit_uw * 1e-6;
        memcpy(p->zone[p->n], found[i], sizeof found[i]);
        snprintf(p->name[p->n], sizeof p->name[0], "%s", name);
        p->n++;
    }
    if (p->n == 0) {
        snprintf(why, whylen, "no package or dram zone under %s", root);
        return 1;
    }
    return 0;
}

int powercap_read(const struct powercap *p, const char *root, uint64_t *uj, char *why,
                  size_t whylen)
{
    root = root ? root : p->root;
    for (int i = 0; i < p->n; i++) {
        if (read_u64(root, p->zone[i], "energy_uj", &uj[i])) {
            snprintf(why, whylen, "%s/%s/energy_uj: %s", root, p->zone[i], strerror(errno));
            return 1;
        }
        if (uj[i] > p->max_uj[i]) {
            snprintf(why, whylen, "%s/%s/energy_uj: %llu is beyond max_energy_range_uj %llu", root,
                     p->zone[i], (unsigned long long)uj[i], (unsigned long long)p->max_uj[i]);
            return 1;
        }
    }
    return 0;
}

uint64_t powercap_delta(uint64_t before, uint64_t after, uint64_t max_uj)
{
    /* one wrap at most: a package at 500 W wraps a 2^32 uJ range after 8.6 s, at the range the
     * kernel reports (up to 2^38 uJ on recent parts) after minutes; windows are seconds */
    return after >= before ? after - before : (max_uj - before) + after;
}

void powercap_describe(const struct powercap *p, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "powercap");
    for (int i = 0; i < p->n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "+" : " ", p->name[i]);
}

struct energy_meter {
    struct powercap pc;
    uint64_t start[POWERCAP_ZONES_MAX];
    struct timespec t0;
};

int energy_meter_open(struct energy_meter **m, char *why, size_t whylen)
{
    *m = calloc(1, sizeof **m);
    if (!*m) {
        snprintf(why, whylen, "out of memory");
        return 1;
    }
    if (powercap_scan(&(*m)->pc, powercap_root(), why, whylen)) {
        free(*m);
        *m = NULL;
        return 1;
    }
    return 0;
}

int energy_meter_begin(struct energy_meter *m, char *why, size_t whylen)
{
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
    return powercap_read(&m->pc, NULL, m->start, why, whylen);
}

int energy_meter_end(struct energy_meter *m, struct energy_reading *r, char *why, size_t whylen)
{
    uint64_t end[POWERCAP_ZONES_MAX], uj = 0;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    energy_reading_clear(r);
    powercap_describe(&m->pc, r->source, sizeof r->source);
    r->power_limit_W = m->pc.limit_W;
    r->seconds = (double)(t1.tv_sec - m->t0.tv_sec) + (double)(t1.tv_nsec - m->t0.tv_nsec) * 1e-9;
    if (powercap_read(&m->pc, NULL, end, why, whylen)) return 1;
    for (int i = 0; i < m->pc.n; i++)
        uj += powercap_delta(m->start[i], end[i], m->pc.max_uj[i]);
    if (uj == 0) {
        snprintf(why, whylen, "the powercap counters under %s did not advance in %.2f s",
                 m->pc.root, r->seconds);
        return 1;
    }
    r->energy_J = (double)uj * 1e-6;
    return 0;
}

void energy_meter_close(struct energy_meter *m)
{
    free(m);
}
