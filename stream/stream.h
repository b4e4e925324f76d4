/* stream.h: the STREAM backend contract; cpu/stream_omp.c and gpu/stream_cuda.cu each give one
 * definition of every function (the kernels and cases they run: model/stream_model.h). Backends
 * never print and never exit: they return nonzero and leave a message in the caller's buffer. */
#ifndef LBMR_STREAM_H
#define LBMR_STREAM_H

#include <stddef.h>

#include "device.h"
#include "stream_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a case actually ran with (defaults resolved), for the row. */
struct stream_launch {
    int threads;       /* cpu: OpenMP threads; gpu: threads per block */
    long blocks;       /* gpu grid; -1 on the cpu */
    double occupancy;  /* gpu: resident warps / maximum warps per multiprocessor; NaN on the cpu */
    int vector_bytes;  /* bytes per access in the kernel's main loop; -1 where not ours (memcpy) */
    int ilp;           /* gpu: accesses in flight per thread; -1 on the cpu */
    char binding[128]; /* cpu: cpu_binding with this case's threads; "" where the device's holds */
};

struct stream_device {
    struct device_facts dev;
    size_t default_bytes;  /* default bytes per array */
    char default_why[160]; /* how the default was chosen, for stderr */
};

/* Opens the backend; fails (message in err) when it cannot run here, e.g. no GPU. */
int stream_backend_open(struct stream_device *d, char *err, size_t errlen);

/* 0 if the kernel can run on this backend; otherwise why not, in why. */
int stream_kernel_supported(enum stream_kernel k, char *why, size_t whylen);

/* 1 if the kernel's ordinary stores read the line first (CPU), else 0; stream_traffic counts the
 * read only where the kernel stores. */
int stream_write_allocates(enum stream_kernel k);

/* Bytes that can be allocated now (host memory or free device memory). */
size_t stream_memory_available(void);

struct stream_arrays;

/* Allocates, initialises sources with non-zero values and poisons destinations, touching memory
 * with the kernel's own partition (first touch). */
int stream_alloc(struct stream_arrays **s, const struct stream_case *c, struct stream_launch *used,
                 char *err, size_t errlen);
/* Runs the kernel `reps` times; seconds[r] is the time of run r. */
int stream_run(struct stream_arrays *s, int reps, double *seconds, char *err, size_t errlen);
/* Checks every destination element against the value its source held; *bad counts mismatches
 * (poison left over counts too). An in-place kernel's one array is not poisoned (it is its own
 * source): where stream_update_check_pass says so, the check runs the kernel once more, untimed,
 * so that the expected values differ from the initial ones. */
int stream_check(struct stream_arrays *s, size_t *bad, double *max_rel_err, char *err,
                 size_t errlen);
void stream_free(struct stream_arrays *s);

#ifdef __cplusplus
}
#endif
#endif
