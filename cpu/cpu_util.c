/* cpu_util.c: partition, allocation and binding facts for the OpenMP backends. */
#define _GNU_SOURCE
#include "cpu_util.h"

#include <omp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device.h"
#include "sysinfo.h"

void cpu_chunk(size_t n, size_t grain, size_t *lo, size_t *hi)
{
    size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
    size_t units = (n + grain - 1) / grain;
    size_t q = units / nt, r = units % nt;
    size_t ulo = t * q + (t < r ? t : r);
    size_t uhi = ulo + q + (t < r ? 1 : 0);
    *lo = ulo * grain < n ? ulo * grain : n;
    *hi = uhi * grain < n ? uhi * grain : n;
}

void *cpu_alloc(size_t bytes)
{
    void *p = NULL;
    const size_t huge = (size_t)2 << 20;
    bytes = (bytes + huge - 1) / huge * huge;
    if (posix_memalign(&p, huge, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* advice only: failure changes nothing but speed */
#endif
    return p;
}

void cpu_binding(char *buf, size_t len)
{
    static const char *const kinds[] = {"false", "true", "master", "close", "spread"};
    omp_proc_bind_t b = omp_get_proc_bind();
    const char *places = getenv("OMP_PLACES");
    int np = omp_get_num_places();
    snprintf(buf, len, "proc_bind=%s places=%s(%d) threads=%d",
             (unsigned)b < 5 ? kinds[b] : "unknown", places && *places ? places : "unset", np,
             omp_get_max_threads());
}

size_t cpu_default_bytes(char *why, size_t len)
{
    struct sysinfo_host h;
    sysinfo_host_get(&h);
    if (h.llc_bytes == 0) {
        snprintf(why, len, "last-level cache size not found in sysfs: default 1 GiB per array");
        return (size_t)1 << 30;
    }
    snprintf(why, len,
             "default size %.1f MiB per array = 4 x the last-level cache (L%d, %d x %.1f MiB, "
             "from sysfs)",
             4.0 * (double)h.llc_bytes / 1048576.0, h.llc_level, h.llc_count,
             (double)h.llc_instance / 1048576.0);
    return 4 * h.llc_bytes;
}

void cpu_device_facts(struct suite_device *d)
{
    struct sysinfo_host h;
    sysinfo_host_get(&h);
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "cpu");
    snprintf(d->device, sizeof d->device, "%s", h.cpu_model);
    d->peak_bw_GBs = NAN;
    d->cache_bytes = h.llc_bytes;
    snprintf(d->compiler, sizeof d->compiler, "%s", sysinfo_c_compiler());
    snprintf(d->flags, sizeof d->flags, "%s", sysinfo_c_flags());
    cpu_binding(d->binding, sizeof d->binding);
    snprintf(d->facts_source, sizeof d->facts_source, "%s", h.source);
}
