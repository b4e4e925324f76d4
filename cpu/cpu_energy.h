/* cpu_energy.h: the Linux powercap (RAPL) reader behind the cpu energy meter, exposed for the
 * fixture tests. The zones live under $LBMR_POWERCAP_ROOT, else /sys/class/powercap. Where
 * powercap cannot be read, a build with likwid reads the same RAPL counters through likwid's
 * power module (its MSR access layer); the counter arithmetic of that path is here too. */
#ifndef LBMR_CPU_ENERGY_H
#define LBMR_CPU_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POWERCAP_ZONES_MAX 32

/* The zones the meter sums: every package (name "package-N") and DRAM ("dram") zone of the
 * intel-rapl or amd-rapl control types (AMD's kernels also file theirs under intel-rapl), top
 * level and sub-zones alike; core, uncore and psys (parts of a package, or the whole platform)
 * are left out so nothing is counted twice, and so are the intel-rapl-mmio duplicates. */
struct powercap {
    char root[256];
    int n;
    char zone[POWERCAP_ZONES_MAX][48];   /* directory under root, "intel-rapl:0:0" */
    char name[POWERCAP_ZONES_MAX][32];   /* its name file, "package-0", "dram" */
    uint64_t max_uj[POWERCAP_ZONES_MAX]; /* max_energy_range_uj: where energy_uj wraps to 0 */
    double limit_W;                      /* sum of the packages' constraint_0 limits; NaN if none */
};

/* The root in use: $LBMR_POWERCAP_ROOT or /sys/class/powercap. */
const char *powercap_root(void);
/* Finds the zones under root and checks that every energy_uj can be read. Nonzero with why when
 * none is found or one cannot be read (permission: Linux 5.10 and later make it root-only). */
int powercap_scan(struct powercap *p, const char *root, char *why, size_t whylen);
/* Reads every zone's energy_uj (microjoules) under root (p's own when NULL). */
int powercap_read(const struct powercap *p, const char *root, uint64_t *uj, char *why,
                  size_t whylen);
/* Microjoules between two readings of one zone, across one wrap (the counter runs from 0 to
 * max_uj and starts again at 0). */
uint64_t powercap_delta(uint64_t before, uint64_t after, uint64_t max_uj);
/* "powercap package-0+package-1+dram+dram" */
void powercap_describe(const struct powercap *p, char *buf, size_t len);

/* RAPL's energy status counters (MSR_PKG_ENERGY_STATUS, MSR_DRAM_ENERGY_STATUS; AMD's
 * core and package counters alike) count in bits 31:0 and wrap to 0 (Intel SDM vol. 3B,
 * "Package RAPL Domain"); likwid 5.2 hands them over as 32-bit values. */
#define RAPL_COUNTER_BITS 32
/* Joules between two readings of one counter of unit_J joules per count, across one wrap. */
double rapl_delta_J(uint64_t before, uint64_t after, double unit_J);
/* Joules one counter holds before it wraps (2^RAPL_COUNTER_BITS counts of unit_J). */
double rapl_range_J(double unit_J);

#ifdef __cplusplus
}
#endif
#endif
