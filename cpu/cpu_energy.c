/* cpu_energy.c: the cpu energy meter: package and DRAM energy from Linux powercap (RAPL), else
 * (built with likwid) from the same RAPL counters through likwid's power module. */
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

#ifdef LBMR_WITH_LIKWID
#include <likwid.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

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

double rapl_delta_J(uint64_t before, uint64_t after, double unit_J)
{
    const uint64_t mask = ((uint64_t)1 << RAPL_COUNTER_BITS) - 1;
    /* counts modulo 2^32: one wrap between the readings comes out right, as in powercap_delta */
    return (double)((after - before) & mask) * unit_J;
}

double rapl_range_J(double unit_J)
{
    return ldexp(unit_J, RAPL_COUNTER_BITS);
}

#ifdef LBMR_WITH_LIKWID
/* likwid's power module: one hardware thread of each package reads that package's PKG and DRAM
 * counters (RAPL is per package) through likwid's access layer (the MSR files, or its access
 * daemon where likwid is configured so). */
struct likwid_power {
    int n;
    int cpu[POWERCAP_ZONES_MAX];
    int domain[POWERCAP_ZONES_MAX]; /* index into likwid's power_names and power_info.domains */
    double unit_J[POWERCAP_ZONES_MAX];
    double max_W[POWERCAP_ZONES_MAX]; /* the domain's maximum power (POWER_INFO MSR); 0: unknown */
    uint32_t start[POWERCAP_ZONES_MAX];
    char what[64]; /* "likwid PKG+DRAM" */
    int hpm, topo; /* what to finalize at close */
    /* likwid prints its errors on stderr and probes in forked children that flush whatever
     * stdio holds when they exit: while it runs, stdout and stderr go to this file */
    FILE *log;
    int saved_out, saved_err;
};

static int lk_mute(struct likwid_power *l)
{
    fflush(NULL); /* nothing buffered for a forked child to write twice */
    if (ftruncate(fileno(l->log), 0) != 0) return 1;
    rewind(l->log);
    l->saved_out = dup(1);
    l->saved_err = dup(2);
    if (l->saved_out < 0 || l->saved_err < 0 || dup2(fileno(l->log), 1) < 0 ||
        dup2(fileno(l->log), 2) < 0) {
        if (l->saved_out >= 0) dup2(l->saved_out, 1), close(l->saved_out);
        if (l->saved_err >= 0) dup2(l->saved_err, 2), close(l->saved_err);
        return 1;
    }
    return 0;
}

static void lk_unmute(struct likwid_power *l)
{
    fflush(stdout); /* what likwid printed goes to the log, not the CSV */
    fflush(stderr);
    dup2(l->saved_out, 1);
    dup2(l->saved_err, 2);
    close(l->saved_out);
    close(l->saved_err);
}

/* The last line likwid printed while muted, without its "ERROR - [file:function:line] " head;
 * "" when it printed nothing. */
static void lk_said(struct likwid_power *l, char *buf, size_t len)
{
    char line[256];
    buf[0] = '\0';
    rewind(l->log);
    while (fgets(line, sizeof line, l->log)) {
        char *t = line, *close_br = strstr(line, "] ");
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "ERROR - [", 9) == 0 && close_br) t = close_br + 2;
        if (*t) snprintf(buf, len, "%s", t);
    }
}

/* "no RAPL access (what; likwid: its last message)" */
static void lk_why(struct likwid_power *l, const char *what, char *why, size_t whylen)
{
    char said[256];
    lk_said(l, said, sizeof said);
    snprintf(why, whylen, "likwid power: no RAPL access (%s%s%s)", what,
             said[0] ? "; likwid: " : "", said);
}

static int lk_read(struct likwid_power *l, uint32_t *v, char *why, size_t whylen)
{
    int err = 0, i;
    char what[96];
    if (lk_mute(l)) {
        snprintf(why, whylen, "likwid power: cannot set likwid's messages aside: %s",
                 strerror(errno));
        return 1;
    }
    for (i = 0; i < l->n && !err; i++) {
        PowerData d;
        memset(&d, 0, sizeof d);
        err = power_start(&d, l->cpu[i], (PowerType)l->domain[i]);
        v[i] = d.before;
    }
    lk_unmute(l);
    if (err) {
        i--;
        snprintf(what, sizeof what, "reading %s on CPU %d: error %d", power_names[l->domain[i]],
                 l->cpu[i], err);
        lk_why(l, what, why, whylen);
        return 1;
    }
    return 0;
}

static void lk_close(struct likwid_power *l)
{
    if (!l->log) return;
    if (lk_mute(l) == 0) {
        power_finalize();
        /* under likwid-perfctr the Marker API's close at exit still needs the access layer */
        if (l->hpm && !getenv("LIKWID_MODE")) HPMfinalize();
        if (l->topo && !getenv("LIKWID_MODE")) topology_finalize();
        lk_unmute(l);
    }
    fclose(l->log);
    l->log = NULL;
}

/* likwid ends the whole process (exit) where its access layer cannot start, as where its access
 * daemon refuses an unsupported processor: the same opening is first made in a child, muted as
 * the caller is, and only a child that ends normally lets this process make it. 0: go ahead;
 * else the child's exit status (or 128 + its signal). */
static int lk_trial(const int *cpus, int ncpu)
{
    int st = 0;
    pid_t pid;
    fflush(NULL); /* nothing buffered for the child to write twice */
    pid = fork();
    if (pid < 0) return 0; /* no trial possible: this process goes ahead as before */
    if (pid == 0) {
        int err = HPMinit();
        for (int k = 0; !err && k < ncpu; k++)
            err = HPMaddThread(cpus[k]);
        if (!err) power_init(cpus[0]);
        _exit(0); /* the counters opened, or an error likwid returned: either way it came back */
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 0;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 0;
}

/* Finds each package's first hardware thread, opens them in likwid's access layer, and keeps
 * the PKG and DRAM domains whose status counter power_init could read; then reads them once. */
static int lk_open(struct likwid_power *l, char *why, size_t whylen)
{
    int cpus[POWERCAP_ZONES_MAX], pkgs[POWERCAP_ZONES_MAX], ncpu = 0, err = 0, has = 0;
    char what[96] = "";
    uint32_t v[POWERCAP_ZONES_MAX];
    PowerInfo_t info = NULL;

    memset(l, 0, sizeof *l);
    l->log = tmpfile();
    if (!l->log) {
        snprintf(why, whylen, "likwid power: no file for likwid's messages: %s", strerror(errno));
        return 1;
    }
    if (lk_mute(l)) {
        snprintf(why, whylen, "likwid power: cannot set likwid's messages aside: %s",
                 strerror(errno));
        fclose(l->log);
        l->log = NULL;
        return 1;
    }
    err = topology_init();
    l->topo = err == 0;
    if (err) snprintf(what, sizeof what, "topology_init: error %d", err);
    if (!err) {
        CpuTopology_t topo = get_cpuTopology();
        for (unsigned i = 0; topo && i < topo->numHWThreads; i++) {
            int p = (int)topo->threadPool[i].packageId, seen = 0;
            for (int k = 0; k < ncpu; k++)
                seen |= pkgs[k] == p;
            if (!seen && ncpu < POWERCAP_ZONES_MAX / 2) {
                pkgs[ncpu] = p;
                cpus[ncpu++] = (int)topo->threadPool[i].apicId; /* likwid's OS CPU number */
            }
        }
        if (ncpu == 0) snprintf(what, sizeof what, "no hardware thread in likwid's topology");
    }
    if (!err && ncpu > 0 && (err = lk_trial(cpus, ncpu)) != 0)
        snprintf(what, sizeof what,
                 "likwid ended a trial process opening its access layer: "
                 "exit %d",
                 err);
    if (!err && ncpu > 0) {
        err = HPMinit();
        l->hpm = err == 0;
        if (err) snprintf(what, sizeof what, "HPMinit: error %d", err);
        for (int k = 0; !err && k < ncpu; k++)
            if ((err = HPMaddThread(cpus[k])) != 0)
                snprintf(what, sizeof what, "HPMaddThread(CPU %d): error %d", cpus[k], err);
        if (!err) {
            has = power_init(cpus[0]); /* > 0: RAPL found; 0: none; < 0: an error */
            info = get_powerInfo();
            if (has <= 0 || !info || !info->hasRAPL)
                snprintf(what, sizeof what, "power_init(CPU %d): %s %d", cpus[0],
                         has < 0 ? "error" : "no RAPL for this CPU model, returned", has);
        }
    }
    lk_unmute(l);
    if (what[0]) {
        lk_why(l, what, why, whylen);
        lk_close(l);
        return 1;
    }
    for (int k = 0; k < ncpu; k++)
        for (int d = 0; d < NUM_POWER_DOMAINS && l->n < POWERCAP_ZONES_MAX; d++) {
            const PowerDomain *dom = &info->domains[d];
            if (!power_names[d] ||
                (strcmp(power_names[d], "PKG") != 0 && strcmp(power_names[d], "DRAM") != 0))
                continue; /* PP0, PP1, CORE are parts of the package; PLATFORM holds it */
            if (!(dom->supportFlags & POWER_DOMAIN_SUPPORT_STATUS) || !(dom->energyUnit > 0))
                continue;
            l->cpu[l->n] = cpus[k];
            l->domain[l->n] = d;
            l->unit_J[l->n] = dom->energyUnit;
            l->max_W[l->n] = dom->maxPower > 0 ? dom->maxPower : 0;
            l->n++;
        }
    if (l->n == 0) {
        lk_why(l, "no PKG or DRAM energy counter readable", why, whylen);
        lk_close(l);
        return 1;
    }
    {
        size_t used = (size_t)snprintf(l->what, sizeof l->what, "likwid");
        for (int i = 0; i < l->n && l->cpu[i] == cpus[0] && used < sizeof l->what; i++)
            used += (size_t)snprintf(l->what + used, sizeof l->what - used, "%s%s", i ? "+" : " ",
                                     power_names[l->domain[i]]);
        if (ncpu > 1 && used < sizeof l->what)
            snprintf(l->what + used, sizeof l->what - used, " x%d packages", ncpu);
    }
    if (lk_read(l, v, why, whylen)) { /* power_init read the counters on one CPU only */
        lk_close(l);
        return 1;
    }
    return 0;
}

/* Joules of the window begun at l->start, or nonzero with why. */
static int lk_end(struct likwid_power *l, double seconds, double *J, char *why, size_t whylen)
{
    uint32_t end[POWERCAP_ZONES_MAX];
    double sum = 0;
    if (lk_read(l, end, why, whylen)) return 1;
    for (int i = 0; i < l->n; i++) {
        /* one wrap is all the difference can tell: refuse a window long enough for two */
        if (l->max_W[i] > 0 && seconds * l->max_W[i] >= rapl_range_J(l->unit_J[i])) {
            snprintf(why, whylen,
                     "likwid power: the %.0f s window may hold more than one wrap of the %s "
                     "counter (%.0f J at up to %.0f W)",
                     seconds, power_names[l->domain[i]], rapl_range_J(l->unit_J[i]), l->max_W[i]);
            return 1;
        }
        sum += rapl_delta_J(l->start[i], end[i], l->unit_J[i]);
    }
    if (!(sum > 0)) {
        snprintf(why, whylen, "likwid power: the RAPL counters did not advance in %.2f s", seconds);
        return 1;
    }
    *J = sum;
    return 0;
}
#endif

struct energy_meter {
    int likwid; /* 1: the likwid path; 0: powercap */
    struct powercap pc;
    uint64_t start[POWERCAP_ZONES_MAX];
    struct timespec t0;
#ifdef LBMR_WITH_LIKWID
    struct likwid_power lk;
#endif
};

/* Powercap where readable (the kernel's own reader, no access layer); else, built with likwid,
 * likwid's power module; why then names both reasons. */
int energy_meter_open(struct energy_meter **m, char *why, size_t whylen)
{
    *m = calloc(1, sizeof **m);
    if (!*m) {
        snprintf(why, whylen, "out of memory");
        return 1;
    }
    if (powercap_scan(&(*m)->pc, powercap_root(), why, whylen) == 0) return 0;
#ifdef LBMR_WITH_LIKWID
    {
        size_t used = strlen(why);
        if (used + 2 < whylen && lk_open(&(*m)->lk, why + used + 2, whylen - used - 2) == 0) {
            (*m)->likwid = 1;
            why[0] = '\0';
            return 0;
        }
        if (used + 2 < whylen) memcpy(why + used, "; ", 2);
    }
#endif
    free(*m);
    *m = NULL;
    return 1;
}

int energy_meter_begin(struct energy_meter *m, char *why, size_t whylen)
{
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
#ifdef LBMR_WITH_LIKWID
    if (m->likwid) {
        int rc = lk_read(&m->lk, m->lk.start, why, whylen);
        clock_gettime(CLOCK_MONOTONIC, &m->t0); /* after likwid's reads, as the end's come before */
        return rc;
    }
#endif
    return powercap_read(&m->pc, NULL, m->start, why, whylen);
}

int energy_meter_end(struct energy_meter *m, struct energy_reading *r, char *why, size_t whylen)
{
    uint64_t end[POWERCAP_ZONES_MAX], uj = 0;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    energy_reading_clear(r);
    r->seconds = (double)(t1.tv_sec - m->t0.tv_sec) + (double)(t1.tv_nsec - m->t0.tv_nsec) * 1e-9;
#ifdef LBMR_WITH_LIKWID
    if (m->likwid) {
        /* no power limit: likwid 5.2's power_limitGet scales the limit by the energy unit */
        snprintf(r->source, sizeof r->source, "%s", m->lk.what);
        return lk_end(&m->lk, r->seconds, &r->energy_J, why, whylen);
    }
#endif
    powercap_describe(&m->pc, r->source, sizeof r->source);
    r->power_limit_W = m->pc.limit_W;
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
#ifdef LBMR_WITH_LIKWID
    if (m && m->likwid) lk_close(&m->lk);
#endif
    free(m);
}
