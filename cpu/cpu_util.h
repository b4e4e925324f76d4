/* cpu_util.h: what every OpenMP backend shares: the static partition used by first touch and
 * kernels alike, huge-page-friendly allocation, and the thread binding in effect. */
#ifndef LBMR_CPU_UTIL_H
#define LBMR_CPU_UTIL_H

#include <stddef.h>

/* This thread's [lo, hi) of n items under the suite's static schedule: contiguous blocks,
 * boundaries on multiples of `grain` items, like schedule(static) on grain-sized units. */
void cpu_chunk(size_t n, size_t grain, size_t *lo, size_t *hi);

/* 2 MiB-aligned allocation, advised for transparent huge pages; free with free(). */
void *cpu_alloc(size_t bytes);

/* OpenMP threads for the parallel regions that follow: n, or for n == 0 the count the runtime
 * started with (OMP_NUM_THREADS, else every CPU). Placement stays OMP_PROC_BIND/OMP_PLACES's. */
void cpu_use_threads(int n);

/* "proc_bind=close places=cores(16) threads=16" from the OpenMP runtime. */
void cpu_binding(char *buf, size_t len);

/* The CPUs the OpenMP threads may run on (usable_cpus's: the affinity mask, the OpenMP places,
 * likwid-pin's list) as bits[c / 64] bit c % 64, for the CPUs below 64 x words; the words filled.
 */
int cpu_usable_set(unsigned long long *bits, int words);

/* Host facts for the rows of every OpenMP backend. */
struct device_facts;
void cpu_device_facts(struct device_facts *d);

/* Bytes of 4 x the last-level cache (the STREAM rule), with a sentence saying so. */
size_t cpu_default_bytes(char *why, size_t len);

#endif
