/* cpu_util.c: partition, allocation and binding facts for the OpenMP backends. */
#define _GNU_SOURCE
#include "cpu_util.h"

#include <omp.h>
#include <sched.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu_clock.h"
#include "device.h"
#include "sysinfo.h"

#ifdef LBMR_WITH_LIKWID
#include <likwid.h>
#endif

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
    if (posix_memalign(&p, huge, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* advice only: failure changes nothing but speed */
#endif
    return p;
}

/* CPUs this process's OpenMP threads may run on. The calling thread's affinity mask says so only
 * until something pins that thread before main: libgomp does under OMP_PROC_BIND, OMP_PLACES or
 * GOMP_CPU_AFFINITY (to the first place), likwid-pin to the first CPU of its list. So the CPUs of
 * the OpenMP places and of likwid-pin's list (LIKWID_PIN, every CPU it pins to, comma-separated)
 * count too: set[0] the mask, set[1] the places, set[2] the list. */
static void usable_sets(cpu_set_t set[3])
{
    for (int k = 0; k < 3; k++)
        CPU_ZERO(&set[k]);
    /* a mask that cannot be read (more CPUs than a cpu_set_t holds): every online CPU it can */
    if (sched_getaffinity(0, sizeof set[0], &set[0]) != 0 || CPU_COUNT(&set[0]) == 0) {
        const long online = sysconf(_SC_NPROCESSORS_ONLN);
        CPU_ZERO(&set[0]);
        for (long c = 0; c < online && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &set[0]);
    }
    /* OMP_PROC_BIND=master (primary): every thread in the initial thread's place */
    const int master = omp_get_proc_bind() == omp_proc_bind_master;
    for (int p = master ? omp_get_place_num() : 0; p >= 0 && p < omp_get_num_places(); p++) {
        int ids[CPU_SETSIZE];
        const int k = omp_get_place_num_procs(p);
        if (k <= 0 || k > CPU_SETSIZE) continue;
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < k; i++)
            if (ids[i] >= 0 && ids[i] < CPU_SETSIZE) CPU_SET(ids[i], &set[1]);
        if (master) break;
    }
    const char *pin = getenv("LIKWID_PIN");
    for (const char *c = pin ? pin : ""; *c;) {
        char *end;
        const long id = strtol(c, &end, 10);
        if (end == c) break; /* not a list of CPU numbers: ignored from here */
        if (id >= 0 && id < CPU_SETSIZE) CPU_SET((int)id, &set[2]);
        c = *end == ',' ? end + 1 : end;
    }
}

/* The most CPUs of the three sets, likwid-pin's list counted up to the online CPUs (likwid-pin
 * itself refuses CPUs that do not exist), within OMP_THREAD_LIMIT */
static int usable_cpus(void)
{
    cpu_set_t set[3];
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    usable_sets(set);
    int n = CPU_COUNT(&set[0]) > CPU_COUNT(&set[1]) ? CPU_COUNT(&set[0]) : CPU_COUNT(&set[1]);
    const int listed = CPU_COUNT(&set[2]) < online ? CPU_COUNT(&set[2]) : (int)online;
    if (listed > n) n = listed;
    return n < omp_get_thread_limit() ? n : omp_get_thread_limit();
}

int cpu_usable_set(unsigned long long *bits, int words)
{
    cpu_set_t set[3];
    usable_sets(set);
    for (int w = 0; w < words; w++)
        bits[w] = 0;
    for (int c = 0; c < CPU_SETSIZE && c < 64 * words; c++)
        if (CPU_ISSET(c, &set[0]) || CPU_ISSET(c, &set[1]) || CPU_ISSET(c, &set[2]))
            bits[c / 64] |= 1ULL << (c % 64);
    return words;
}

/* The team of a run without --threads: OMP_NUM_THREADS, else the runtime's count, within
 * OMP_THREAD_LIMIT (which the runtime would otherwise impose silently, below what a row says) */
static int default_team(void)
{
    const int n = omp_get_max_threads();
    return n < omp_get_thread_limit() ? n : omp_get_thread_limit();
}

void cpu_use_threads(int n)
{
    static int initial; /* before any call changed it */
    if (initial == 0) initial = default_team();
    omp_set_num_threads(n > 0 ? n : initial);
}

/* The binding actually in effect: what OpenMP was asked for, and how many of its threads
 * run pinned to a single CPU (their affinity masks, which also see likwid-pin or taskset). */
void cpu_binding(char *buf, size_t len)
{
    static const char *const kinds[] = {"false", "true", "master", "close", "spread"};
    omp_proc_bind_t b = omp_get_proc_bind();
    const char *places = getenv("OMP_PLACES"), *lpin = getenv("LIKWID_PIN");
    int np = omp_get_num_places(), pinned = 0, threads = 0;
#pragma omp parallel reduction(+ : pinned, threads)
    {
        cpu_set_t set;
        threads = 1;
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1) pinned = 1;
    }
    snprintf(buf, len, "proc_bind=%s places=%s(%d) threads=%d pinned=%d%s%s",
             (unsigned)b < 5 ? kinds[b] : "unknown", places && *places ? places : "unset", np,
             threads, pinned, lpin ? " likwid-pin=" : "", lpin ? lpin : "");
}

#ifdef LBMR_WITH_LIKWID
/* CPU model, cores, last-level cache and NUMA domains from likwid's topology API. */
static int likwid_facts(struct device_facts *d)
{
    CpuTopology_t topo;
    CpuInfo_t info;
    if (topology_init() != 0) return 1;
    topo = get_cpuTopology();
    info = get_cpuInfo();
    if (!topo || !info || topo->numCacheLevels == 0) {
        topology_finalize();
        return 1;
    }
    {
        CacheLevel llc = topo->cacheLevels[topo->numCacheLevels - 1];
        size_t instances = llc.threads ? topo->numHWThreads / llc.threads : 1;
        d->cache_bytes = (size_t)llc.size * (instances ? instances : 1);
    }
    snprintf(d->device, sizeof d->device, "%s", info->osname ? info->osname : "unknown CPU");
    d->cores = (int)(topo->numSockets * topo->numCoresPerSocket);
    if (numa_init() == 0) {
        NumaTopology_t numa = get_numaTopology();
        d->numa_domains = numa ? (int)numa->numberOfNodes : 0;
        numa_finalize();
    }
    topology_finalize();
    snprintf(d->facts_source, sizeof d->facts_source, "likwid");
    return 0;
}
#endif

size_t cpu_default_bytes(char *why, size_t len)
{
    struct sysinfo_host h;
    char rule[160];
    size_t bytes;
    sysinfo_host_get(&h);
    bytes = sysinfo_out_of_cache_bytes(&h, rule, sizeof rule);
    snprintf(why, len, "default size per array: %s", rule);
    return bytes;
}

void cpu_device_facts(struct device_facts *d)
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
    /* every parallel region runs the team asked for: the rows' threads column says so, which
     * dynamic adjustment (OMP_DYNAMIC=true) would make untrue without a word */
    omp_set_dynamic(0);
    cpu_binding(d->binding, sizeof d->binding);
    d->cpus = usable_cpus();
    d->default_threads = default_team();
    snprintf(d->facts_source, sizeof d->facts_source, "%s", h.source);
    d->cores = h.cores;
    d->numa_domains = h.numa_domains;
    d->out_of_cache_bytes =
        sysinfo_out_of_cache_bytes(&h, d->out_of_cache_why, sizeof d->out_of_cache_why);
    d->energy_node_wide = 1; /* powercap reads whole packages */
    d->clock_probe = cpu_clock_probe;
#ifdef LBMR_WITH_LIKWID
    likwid_facts(d); /* keeps the sysfs facts when likwid cannot read the topology */
#endif
}
