/* sysinfo.c: host facts from /proc and sysfs; every reader tolerates a missing file. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sysinfo.h"

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "lbmr_version.h"

const char *sysinfo_version(void)
{
    return LBMR_VERSION;
}

const char *sysinfo_c_compiler(void)
{
    return LBMR_C_COMPILER;
}

const char *sysinfo_c_flags(void)
{
    return LBMR_C_FLAGS;
}

static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (!f) return 1;
    ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok) return 1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* "107520K" -> bytes */
static size_t parse_cache_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end == 'K')
        v <<= 10;
    else if (*end == 'M')
        v <<= 20;
    return (size_t)v;
}

/* The highest-level data or unified cache of each CPU; distinct instances are told apart by
 * their shared_cpu_list. */
static void read_llc(struct sysinfo_host *h)
{
    enum { MAXI = 64 };
    char seen[MAXI][64];
    int nseen = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);

    for (long cpu = 0; cpu < ncpu && cpu < 4096; cpu++) {
        int best_level = 0, best_index = -1;
        char path[160], buf[64];
        for (int idx = 0; idx < 16; idx++) {
            int level;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cache/index%d/level", cpu,
                     idx);
            if (read_line(path, buf, sizeof buf)) break;
            level = atoi(buf);
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cache/index%d/type", cpu,
                     idx);
            if (read_line(path, buf, sizeof buf) || strcmp(buf, "Instruction") == 0) continue;
            if (level > best_level) {
                best_level = level;
                best_index = idx;
            }
        }
        if (best_index < 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cache/index%d/size", cpu,
                 best_index);
        if (read_line(path, buf, sizeof buf)) continue;
        h->llc_instance = parse_cache_size(buf);
        h->llc_level = best_level;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cache/index%d/shared_cpu_list",
                 cpu, best_index);
        if (read_line(path, buf, sizeof buf)) snprintf(buf, sizeof buf, "cpu%ld", cpu);
        int known = 0;
        for (int i = 0; i < nseen; i++)
            known |= strcmp(seen[i], buf) == 0;
        if (!known && nseen < MAXI) {
            snprintf(seen[nseen++], sizeof seen[0], "%s", buf);
            h->llc_bytes += h->llc_instance;
        }
    }
    h->llc_count = nseen;
}

static void read_cpu_model(struct sysinfo_host *h)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(h->cpu_model, sizeof h->cpu_model, "unknown CPU");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        /* x86: "model name"; Arm and others may only give "Processor" or "CPU part" */
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(h->cpu_model, sizeof h->cpu_model, "%s", colon);
                break;
            }
        }
    }
    fclose(f);
}

/* distinct (package, core) pairs of the online CPUs; NUMA nodes present */
static void read_counts(struct sysinfo_host *h)
{
    enum { MAXC = 4096 };
    static long seen[MAXC];
    int n = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; cpu < ncpu && cpu < MAXC; cpu++) {
        char path[128], buf[32];
        long pkg, core, key;
        int known = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id",
                 cpu);
        if (read_line(path, buf, sizeof buf)) continue;
        pkg = atol(buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/topology/core_id", cpu);
        if (read_line(path, buf, sizeof buf)) continue;
        core = atol(buf);
        key = pkg * 65536 + core;
        for (int i = 0; i < n; i++)
            known |= seen[i] == key;
        if (!known) seen[n++] = key;
    }
    h->cores = n;
    for (int node = 0; node < 1024; node++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", node);
        if (access(path, R_OK) == 0) h->numa_domains++;
    }
}

int sysinfo_host_get(struct sysinfo_host *h)
{
    memset(h, 0, sizeof *h);
    if (gethostname(h->host, sizeof h->host - 1) != 0) snprintf(h->host, sizeof h->host, "unknown");
    read_cpu_model(h);
    read_llc(h);
    read_counts(h);
    snprintf(h->source, sizeof h->source, "sysfs");
    return 0;
}

size_t sysinfo_out_of_cache_bytes(const struct sysinfo_host *h, char *why, size_t len)
{
    if (h->llc_bytes == 0) {
        snprintf(why, len, "last-level cache size not found in sysfs: 1 GiB");
        return (size_t)1 << 30;
    }
    snprintf(why, len, "%d x the last-level cache (L%d, %d x %.1f MiB, from sysfs) = %.1f MiB",
             SYSINFO_CACHE_FACTOR, h->llc_level, h->llc_count, (double)h->llc_instance / 1048576.0,
             SYSINFO_CACHE_FACTOR * (double)h->llc_bytes / 1048576.0);
    return SYSINFO_CACHE_FACTOR * h->llc_bytes;
}

int sysinfo_cpus_allowed(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

size_t sysinfo_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    size_t kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long v;
        if (sscanf(line, "MemAvailable: %llu kB", &v) == 1) {
            kb = (size_t)v;
            break;
        }
    }
    fclose(f);
    return kb * 1024;
}

void sysinfo_nvidia_driver(const char *line, char *buf, size_t len)
{
    const char *p = strstr(line, "Kernel Module");
    if (len) buf[0] = '\0';
    if (!p) return;
    p += strlen("Kernel Module");
    for (;;) { /* the words after it, separated by blanks and the line's end */
        p += strspn(p, " \t\n");
        if (!*p) return;
        const size_t word = strcspn(p, " \t\n");
        if (isdigit((unsigned char)*p)) {
            snprintf(buf, len, "%.*s", (int)word, p);
            return;
        }
        p += word;
    }
}

void sysinfo_timestamp(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
