/* lbm.h: the single-domain LBM backend contract; cpu/lbm_omp.c and gpu/lbm_cuda.cu each define
 * every function (the distributed calls: lbm_dist_backend.h; the model: model/lbm_model.h).
 * Backends never print and never exit: they return nonzero with a message in the caller's buffer.
 * Populations cross the interface unpadded, in double, ordered [d][z][y][x]. */
#ifndef LBM_LBM_H
#define LBM_LBM_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "lbm_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lbm_launch {
    int threads;       /* cpu: OpenMP threads; gpu: threads per block */
    long blocks;       /* gpu grid size; -1 on the cpu */
    double occupancy;  /* gpu; NaN on the cpu */
    size_t pitch;      /* x row pitch in elements, padding and alignment included */
    char binding[128]; /* cpu: cpu_binding with this case's threads; "" where the device's holds */
};

struct lbm_state; /* the backend's own */

int lbm_backend_open(struct device_facts *d, char *err, size_t errlen);
int lbm_kernel_supported(enum lbm_kernel k, char *why, size_t whylen);
/* 0 if this backend can run the case as given (e.g. the GPU kernel's real threads-per-block
 * limit, set by its registers); else why not. Checked for every case before anything runs. */
int lbm_case_supported(const struct lbm_case *c, char *why, size_t whylen);
int lbm_write_allocates(enum lbm_kernel k);
size_t lbm_memory_available(void);

int lbm_alloc(struct lbm_state **s, const struct lbm_case *c, struct lbm_launch *used, char *err,
              size_t errlen);
/* init.h's state, written with the kernel's own partition (first touch); padding poisoned. */
int lbm_init(struct lbm_state *s, char *err, size_t errlen);
int lbm_load(struct lbm_state *s, const double *pdf, char *err, size_t errlen);
/* Runs `steps` updates; *seconds is their total time. Stops early with an error "interrupted"
 * when common/progress.h's interrupt flag is set between two updates (the lattice is then
 * mid-run: the driver drops the case). */
int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen);
int lbm_fetch(struct lbm_state *s, double *pdf, char *err, size_t errlen);
/* Sum of every population (in double), the count of values that are not finite, and a hash of
 * the stored bits that does not depend on how the domain is split (lbm_value_hash, summed). */
int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, uint64_t *hash, char *err,
              size_t errlen);
void lbm_free(struct lbm_state *s);

#ifdef __cplusplus
}
#endif
#endif
