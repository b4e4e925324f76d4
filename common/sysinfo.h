/* sysinfo.h: host facts written into every row (hostname, CPU, last-level cache, memory,
 * OpenMP binding, build provenance), read from /proc and sysfs. */
#ifndef LBMR_SYSINFO_H
#define LBMR_SYSINFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sysinfo_host {
    char host[128];
    char cpu_model[128];
    size_t llc_bytes;    /* total over all last-level cache instances; 0 if unknown */
    size_t llc_instance; /* bytes of one instance */
    int llc_count;       /* distinct instances */
    int llc_level;       /* 2 or 3; 0 if unknown */
    int cores;           /* physical cores (distinct package/core ids); 0 if unknown */
    int numa_domains;    /* /sys/devices/system/node/node*; 0 if unknown */
    char source[16];     /* where the facts came from: "sysfs" */
};

int sysinfo_host_get(struct sysinfo_host *h);

/* STREAM's rule for a working set that no cache holds: at least this many times the
 * last-level cache (McCalpin's STREAM README: each array 4x the sum of the caches). */
#define SYSINFO_CACHE_FACTOR 4

/* Bytes of SYSINFO_CACHE_FACTOR x the host's last-level cache (all instances), with a sentence
 * in why; 1 GiB, said so, when sysfs does not give the cache. The one home of the CPU rule:
 * stream-cpu's default array size and lbm-cpu's default domain both come from it. */
size_t sysinfo_out_of_cache_bytes(const struct sysinfo_host *h, char *why, size_t len);

/* CPUs this process may run on (its affinity mask); the online CPUs if that is unreadable. */
int sysinfo_cpus_allowed(void);

/* Bytes of memory the kernel reports available now (MemAvailable); 0 if unknown. */
size_t sysinfo_mem_available(void);

/* The NVIDIA kernel module's version from the first line of /proc/driver/nvidia/version into buf:
 * the first word after "Kernel Module" that starts with a digit, which skips the open module's
 * "for x86_64" ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release
 * Build ..."; the proprietary one: "... x86_64 Kernel Module  535.104.05  Sat Aug 19 ...").
 * "" when the line has none. */
void sysinfo_nvidia_driver(const char *line, char *buf, size_t len);

/* ISO 8601 UTC, e.g. 2026-11-22T10:04:05Z. */
void sysinfo_timestamp(char *buf, size_t len);

/* Build provenance: suite version (git describe at build time), C compiler, C flags. */
const char *sysinfo_version(void);
const char *sysinfo_c_compiler(void);
const char *sysinfo_c_flags(void);

#ifdef __cplusplus
}
#endif
#endif
