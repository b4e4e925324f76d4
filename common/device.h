/* device.h: the facts about the measured device that every row repeats; cpu/ and gpu/ each fill
 * it once (cpu_device_facts, gpu_device_facts) for all their benchmarks. */
#ifndef LBMR_DEVICE_H
#define LBMR_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device_facts {
    char backend[8];    /* "cpu" or "gpu" */
    char device[128];   /* CPU model or GPU name */
    double peak_bw_GBs; /* theoretical bandwidth, NaN if unknown */
    size_t cache_bytes; /* CPU last-level cache (all instances) or GPU L2 */
    char ecc[8];        /* "on", "off" or "" */
    char driver[64];
    char compiler[192];
    char flags[192];
    char binding[128];     /* cpu: OMP_PROC_BIND/OMP_PLACES in effect */
    char facts_source[16]; /* "sysfs", "cuda" */
    int cores;             /* cpu: physical cores; -1 on the gpu */
    int cpus;              /* cpu: CPUs the OpenMP threads may run on, within OMP_THREAD_LIMIT
                              (the most --threads takes); 0 on the gpu */
    int default_threads;   /* cpu: the team without --threads (OMP_NUM_THREADS, else the
                              runtime's count); 0 on the gpu */
    int numa_domains;      /* cpu: NUMA nodes; -1 on the gpu */
    int sm_count;          /* gpu: multiprocessors; 0 on the cpu */
    int max_threads_per_sm;
    /* What the drivers do when the user does not say, so that no driver asks which backend
     * this is: */
    int grid_launch;             /* 1: kernels launch a grid of thread blocks (--block, --blocks,
                                    --ilp); 0: OpenMP threads (--threads) */
    size_t row_align;            /* bytes an lbm x row is aligned to without --align: gpu 32,
                                    cpu 64 */
    size_t row_align_inplace;    /* the same for the in-place kernel (aa): gpu 128, cpu 64 */
    size_t row_align_split_x;    /* the same on a rank grid split along x (rows with x ghost
                                    cells, but on the cpu's pull kernels where x is the only split
                                    axis): gpu 128, cpu 0 (pull) */
    size_t row_align_split_x_nt; /* that for the kernel storing non-temporally (pull_nt): gpu
                                    128 (it has none), cpu 64 */
    int lbm_rows;                /* 1: lbm's SoA lattices keep a cell row's 19 direction rows side
                                    by side without --layout (gpu); 0: 19 arrays (cpu) */
    size_t out_of_cache_bytes;   /* SYSINFO_CACHE_FACTOR x the last-level cache or L2 (bytes) */
    char out_of_cache_why[160];  /* how that was found, for stderr */
    size_t default_edge_min;     /* smallest edge of the default lbm domain; 0: none */
    int energy_node_wide;        /* 1: the meter reads the node's packages (cpu powercap), which
                                    every rank on the node shares */
    /* cpu: the effective core clock of a team of OpenMP threads (cpu_clock_probe), which judges
     * repetitions (common/quiet.h); NULL on the gpu */
    int (*clock_probe)(int threads, double *low_MHz, double *high_MHz);
};

struct csv_record;

/* Starts a row: every field empty, then version, timestamp, host, bench and the device facts;
 * peak_bw_GBs overrides the device's figure unless NaN. */
void device_row_init(struct csv_record *r, const struct device_facts *d, const char *host,
                     const char *bench, double peak_bw_GBs);

#ifdef __cplusplus
}
#endif
#endif
