/* gpu_facts.h: facts about the CUDA device that go into every gpu row; plain C prototypes, the
 * CUDA calls stay in gpu_facts.cu. */
#ifndef LBMR_GPU_FACTS_H
#define LBMR_GPU_FACTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpu_facts {
    int device;
    char name[128];
    double peak_bw_GBs; /* 2 x memory clock x bus width */
    size_t l2_bytes;
    int ecc; /* 1 on, 0 off */
    int sm_count;
    int max_threads_per_sm;
    char driver[64];    /* kernel-module version, else the CUDA driver API version */
    char compiler[192]; /* nvcc version and host compiler */
    char flags[192];
};

/* Selects device 0 (CUDA_VISIBLE_DEVICES picks another); fails when there is none. */
int gpu_facts_get(struct gpu_facts *f, char *err, size_t errlen);

/* The same facts in the rows' form, for every CUDA backend. */
struct device_facts;
int gpu_device_facts(struct device_facts *d, char *err, size_t errlen);

/* Resident threads at launch of kernel `fn` (a __global__ function's address) with `threads` per
 * block, `smem` bytes of dynamic shared memory a block and `blocks` blocks, over the device's
 * maximum resident threads: bounded by the grid as well as by each multiprocessor's resources.
 * NaN when it cannot be told. */
double gpu_occupancy(const void *fn, int threads, size_t smem, long blocks);

/* The current device's multiprocessors, 0 on error (the error left to the caller). */
int gpu_sm_count(void);

/* Free device memory in bytes, 0 on error. */
size_t gpu_memory_free(void);

/* The current device's PCI bus id ("0000:1A:00.0"), which names it to NVML whatever
 * CUDA_VISIBLE_DEVICES renumbers; nonzero on error. */
int gpu_pci_bus_id(char *buf, int len);

#ifdef __cplusplus
}
#endif
#endif
