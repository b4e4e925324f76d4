/* lbm.h: the LBM backend interface; cpu/lbm_omp.c and gpu/lbm_cuda.cu each define every function.
 * Backends never print and never exit: they return nonzero with a message in the caller's buffer.
 * Populations cross the interface unpadded, in double, ordered [d][z][y][x]. */
#ifndef LBM_LBM_H
#define LBM_LBM_H

#include <stddef.h>

#include "collision.h"
#include "device.h"
#include "geometry.h"
#include "layout.h"
#include "precision.h"

#ifdef __cplusplus
extern "C" {
#endif

enum lbm_kernel {
    LBM_PULL = 0,    /* two lattices, fused stream-collide, pull (gather), ordinary stores */
    LBM_PULL_NT = 1, /* the same with non-temporal stores (CPU) */
    LBM_KERNEL_COUNT = 2
};

extern const char *const lbm_kernel_names[LBM_KERNEL_COUNT];
extern const char *const lbm_collision_names[LBM_COLLISION_COUNT];

struct lbm_case {
    size_t nx, ny, nz; /* fluid cells per axis */
    size_t pad;        /* elements added to each x row */
    size_t align;      /* row alignment in bytes, 0 for none */
    enum prec prec;
    enum lbm_collision collision;
    enum lbm_kernel kernel;
    enum lbm_geometry geometry;
    double omega;      /* shear relaxation rate, 0 < omega < 2 */
    double lid_ux;     /* cavity lid velocity */
    double force[3];   /* body force per unit volume (channel) */
    int threads;       /* gpu threads per block; 0: backend default */
};

struct lbm_launch {
    int threads;      /* cpu: OpenMP threads; gpu: threads per block */
    long blocks;      /* gpu grid size; -1 on the cpu */
    double occupancy; /* gpu; NaN on the cpu */
    size_t pitch;     /* x row pitch in elements, padding and alignment included */
};

struct lbm_state;

/* What every backend derives from a case before allocating (lbm_model.c). */
struct lbm_setup {
    struct lbm_case c;
    struct lbm_layout l;
    struct lbm_bounds b;
    struct lbm_coll_sp psp;
    struct lbm_coll_dp pdp;
    size_t es; /* bytes per value */
};
int lbm_setup_make(struct lbm_setup *u, const struct lbm_case *c, char *err, size_t errlen);

int lbm_backend_open(struct suite_device *d, char *err, size_t errlen);
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
/* Runs `steps` updates; *seconds is their total time. */
int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen);
int lbm_fetch(struct lbm_state *s, double *pdf, char *err, size_t errlen);
/* Sum of every population (in double) and the count of values that are not finite. */
int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, char *err, size_t errlen);
void lbm_free(struct lbm_state *s);

/* lbm_model.c: parameters and byte table shared by every backend and the reference. */
double lbm_viscosity(double omega);
void lbm_coll_params_dp(const struct lbm_case *c, struct lbm_coll_dp *p);
void lbm_coll_params_sp(const struct lbm_case *c, struct lbm_coll_sp *p);
int lbm_forced(const struct lbm_case *c);
/* Bytes of the two lattices of a case (what a backend allocates, give or take a page). */
size_t lbm_bytes_needed(const struct lbm_case *c);
/* bytes per fluid-cell update: 19 loads + 19 stores; write-allocate adds 19 reads */
void lbm_traffic(size_t esize, int write_allocate, double *prog_bytes, double *dram_bytes);

/* reference.c: plain serial double-precision two-lattice stepper on unpadded arrays. */
int lbm_reference_step(const struct lbm_case *c, double *pdf, int steps);
void lbm_reference_init(const struct lbm_case *c, double *pdf);

#ifdef __cplusplus
}
#endif
#endif
