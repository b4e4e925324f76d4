/* gpu_facts.cu: device name, theoretical bandwidth, L2, ECC, driver for the row. */
#include "gpu_facts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "device.h"
#include "gpu_check.h"
#include "sysinfo.h"

static void read_driver(char *buf, size_t len)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[256];
    int v = 0;
    buf[0] = '\0';
    if (f) {
        if (fgets(line, sizeof line, f)) sysinfo_nvidia_driver(line, buf, len);
        fclose(f);
    }
    if (!buf[0] && cudaDriverGetVersion(&v) == cudaSuccess)
        snprintf(buf, len, "cuda-driver-api %d.%d", v / 1000, (v % 1000) / 10);
}

extern "C" int gpu_facts_get(struct gpu_facts *f, char *err, size_t errlen)
{
    int count = 0, clock_khz = 0, bus_bits = 0, l2 = 0, ecc = 0, dev = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    cudaDeviceProp p;

    memset(f, 0, sizeof *f);
    if (e != cudaSuccess || count == 0) {
        snprintf(err, errlen,
                 "no CUDA device found (%s); the gpu executables need an NVIDIA "
                 "GPU and driver: use the cpu executable here",
                 e != cudaSuccess ? cudaGetErrorString(e) : "device count 0");
        return 1;
    }
    /* the current device: 0, or the one a distributed run chose for this rank */
    if (gpu_check(cudaGetDevice(&dev), "cudaGetDevice", err, errlen) ||
        gpu_check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties", err, errlen) ||
        gpu_check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev),
                  "memory clock", err, errlen) ||
        gpu_check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev),
                  "bus width", err, errlen) ||
        gpu_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev), "L2 size", err,
                  errlen) ||
        gpu_check(cudaDeviceGetAttribute(&ecc, cudaDevAttrEccEnabled, dev), "ECC", err, errlen))
        return 1;
    f->device = dev;
    snprintf(f->name, sizeof f->name, "%.127s", p.name);
    /* double data rate: two transfers per memory clock over the whole bus */
    f->peak_bw_GBs = 2.0 * (double)clock_khz * 1e3 * (double)bus_bits / 8.0 * 1e-9;
    f->l2_bytes = (size_t)l2;
    f->ecc = ecc;
    f->sm_count = p.multiProcessorCount;
    f->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    read_driver(f->driver, sizeof f->driver);
    snprintf(f->compiler, sizeof f->compiler, "nvcc %d.%d.%d + %s", __CUDACC_VER_MAJOR__,
             __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__, LBMR_C_COMPILER);
    snprintf(f->flags, sizeof f->flags, "%s", LBMR_CUDA_FLAGS);
    return 0;
}

extern "C" size_t gpu_memory_free(void)
{
    size_t free_b = 0, total = 0;
    if (cudaMemGetInfo(&free_b, &total) != cudaSuccess) return 0;
    return free_b;
}

extern "C" int gpu_device_facts(struct device_facts *d, char *err, size_t errlen)
{
    struct gpu_facts f;
    if (gpu_facts_get(&f, err, errlen)) return 1;
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "gpu");
    snprintf(d->device, sizeof d->device, "%s", f.name);
    d->peak_bw_GBs = f.peak_bw_GBs;
    d->cache_bytes = f.l2_bytes;
    snprintf(d->ecc, sizeof d->ecc, "%s", f.ecc ? "on" : "off");
    snprintf(d->driver, sizeof d->driver, "%s", f.driver);
    snprintf(d->compiler, sizeof d->compiler, "%s", f.compiler);
    snprintf(d->flags, sizeof d->flags, "%s", f.flags);
    snprintf(d->facts_source, sizeof d->facts_source, "cuda");
    d->cores = -1;
    d->numa_domains = -1;
    d->sm_count = f.sm_count;
    d->max_threads_per_sm = f.max_threads_per_sm;
    d->grid_launch = 1;
    /* rows on 32-byte memory sectors: an unaligned pitch cost 30% (sp) on the H100
     * (data/lbm/padding-h100-2026-11-22) */
    d->row_align = 32;
    /* aa on 128-byte lines: its x-shifted loads and stores met rows 64 bytes off a line at the
     * odd multiples of 16 sp cells, 9-10% slower there (data/lbm/gpu-aa-align-h100-2026-11-23);
     * pull keeps 32, which lost it nothing and cost it no padding */
    d->row_align_inplace = 128;
    /* x splits on 128-byte lines: fluid cell 0 a whole line after the ghost cell, so the 32-cell
     * x shells and the interior's rows start on a line (data/mpi/xfaces-h100-2026-11-23) */
    d->row_align_split_x = d->row_align_split_x_nt = 128;
    /* a cell row's 19 direction rows side by side: pull sp +8.0% on an H200, +6.0% on an H100
     * (data/lbm/gpu-rows-layout-h200-h100-2026-11-27) */
    d->lbm_rows = 1;
    d->out_of_cache_bytes = SYSINFO_CACHE_FACTOR * f.l2_bytes;
    snprintf(d->out_of_cache_why, sizeof d->out_of_cache_why,
             "%d x the GPU's L2 (%.1f MiB) = %.1f MiB", SYSINFO_CACHE_FACTOR,
             f.l2_bytes / 1048576.0, d->out_of_cache_bytes / 1048576.0);
    /* 256^3: 1.2 GiB of sp lattices against an L2 of tens of MiB, the grid of the studies */
    d->default_edge_min = 256;
    return 0;
}

/* an attribute of the current device, 0 where it cannot be read */
static int gpu_attribute(cudaDeviceAttr what)
{
    int dev = 0, v = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&v, what, dev) != cudaSuccess)
        return 0;
    return v;
}

extern "C" int gpu_sm_count(void)
{
    return gpu_attribute(cudaDevAttrMultiProcessorCount);
}

extern "C" double gpu_occupancy(const void *fn, int threads, size_t smem, long blocks)
{
    int per_sm = 0;
    const int sms = gpu_sm_count();
    const int max_threads = gpu_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    if (sms == 0 || max_threads == 0 ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem) != cudaSuccess)
        return NAN;
    double resident = (double)per_sm * sms;
    if ((double)blocks < resident) resident = (double)blocks;
    return resident * threads / ((double)sms * max_threads);
}

extern "C" int gpu_pci_bus_id(char *buf, int len)
{
    int dev;
    return cudaGetDevice(&dev) != cudaSuccess ||
           cudaDeviceGetPCIBusId(buf, len, dev) != cudaSuccess;
}
