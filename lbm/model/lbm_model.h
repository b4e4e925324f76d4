/* lbm_model.h: the D3Q19 model every backend computes and every driver describes: kernels, the
 * case, collision parameters, the byte table, the setup a backend derives from a case, the state
 * hash's term and the double-precision reference. Includes nothing above lbm/model/ and common/. */
#ifndef LBM_MODEL_H
#define LBM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "collision.h"
#include "geometry.h"
#include "layout.h"
#include "precision.h"

#ifdef __cplusplus
extern "C" {
#endif

enum lbm_kernel {
    LBM_PULL = 0,     /* two lattices, fused stream-collide, pull (gather), ordinary stores */
    LBM_PULL_NT = 1,  /* the same with non-temporal stores (CPU) */
    LBM_AA = 2,       /* one lattice, in place, AA pattern (Bailey et al. 2009): even steps read and
                         write a cell's own values, odd steps its neighbours'; one rank only */
    LBM_PULL_AOS = 3, /* pull on an array of structures (a cell's 19 values together): the
                        layout step of a CUDA LBM poster's ladder, for comparison; one rank only */
    LBM_KERNEL_COUNT = 4
};
/* Where a SoA lattice keeps its 19 directions (pull_aos has its own array of structures):
 * LBM_SOA 19 arrays, each the whole domain, an odd number of pages apart; LBM_ROWS a cell row's
 * 19 direction rows side by side (layout.h: lbm_layout_interleave) */
enum lbm_order { LBM_SOA = 0, LBM_ROWS = 1, LBM_ORDER_COUNT = 2 };

extern const char *const lbm_order_names[LBM_ORDER_COUNT];
extern const char *const lbm_kernel_names[LBM_KERNEL_COUNT];
extern const char *const lbm_collision_names[LBM_COLLISION_COUNT];

/* Where a sub-domain sits in a distributed run (lbm/driver/dist.c); all zero for a whole domain. */
struct lbm_place {
    size_t global[3];   /* cells of the whole domain per axis; 0: the case is the whole domain */
    size_t offset[3];   /* global coordinates of local cell (0, 0, 0) */
    int neighbor[3][2]; /* per axis and side (low, high): 1 where another rank lies beyond */
    /* 1: the backend's rows read a received x face where it arrived (lbm_x_faces_in_rows), so
     * that a grid split along x alone needs no x ghost layer (setup.c) */
    int x_faces_in_rows;
};

struct lbm_case {
    size_t nx, ny, nz; /* fluid cells per axis (of this rank's sub-domain) */
    size_t pad;        /* elements added to each x row */
    size_t align;      /* row alignment in bytes, 0 for none */
    enum prec prec;
    enum lbm_collision collision;
    enum lbm_kernel kernel;
    enum lbm_geometry geometry;
    enum lbm_order order; /* the SoA kernels' direction order; pull_aos ignores it */
    double omega;         /* shear relaxation rate, 0 < omega < 2 */
    double lid_ux;        /* cavity lid velocity */
    double force[3];      /* body force per unit volume (channel) */
    int threads;          /* gpu threads per block; cpu OpenMP threads; 0: backend default */
    struct lbm_place place;
};

/* What every backend derives from a case before allocating (setup.c). */
struct lbm_setup {
    struct lbm_case c;
    struct lbm_layout l;
    struct lbm_bounds b;
    struct lbm_coll_sp psp;
    struct lbm_coll_dp pdp;
    size_t es; /* bytes per value */
};
int lbm_setup_make(struct lbm_setup *u, const struct lbm_case *c, char *err, size_t errlen);

/* Parameters (params.c), kernel properties (kernels.c), the byte table (bytes.c) and the whole
 * domain (setup.c), shared by every backend, the drivers and the reference. */
double lbm_viscosity(double omega);
/* Its inverse: the rate omega = 1 / (3 nu + 1/2) of lattice viscosity nu */
double lbm_omega_of(double nu);
void lbm_coll_params_dp(const struct lbm_case *c, struct lbm_coll_dp *p);
void lbm_coll_params_sp(const struct lbm_case *c, struct lbm_coll_sp *p);
int lbm_forced(const struct lbm_case *c);
/* The whole domain's cells per axis (the case's own for a single-rank run). */
void lbm_global_dims(const struct lbm_case *c, size_t g[3]);
/* The opposite direction: pairs are neighbours (1-2, ..., 17-18) */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline int
    lbm_opposite(int d)
{
    return d == 0 ? 0 : (d & 1 ? d + 1 : d - 1);
}

/* The slot direction d occupies between updates: its own, or for aa (after an even number of
 * updates) the opposite one */
static inline int lbm_slot(enum lbm_kernel k, int d)
{
    return k == LBM_AA ? lbm_opposite(d) : d;
}

/* 1 when the lattice reads back as populations; aa's only between pairs of updates: after an
 * odd number (odd = 1) 0, with why in err */
int lbm_readable(enum lbm_kernel k, int odd, char *err, size_t errlen);

/* Lattices a kernel keeps: 2, or 1 for the in-place aa */
int lbm_lattices(enum lbm_kernel k);
/* 1 for the kernels that run on one rank only (aa, pull_aos) */
int lbm_single_rank(enum lbm_kernel k);
/* Bytes a kernel's x rows are aligned to without --align: the backend's row_align_inplace for
 * the in-place kernel, its row_align for the others, and on a rank grid split along x (split_x)
 * its row_align_split_x (row_align_split_x_nt for pull_nt) */
struct device_facts;
size_t lbm_row_align_default(const struct device_facts *d, enum lbm_kernel k, int split_x);
/* Bytes of the lattices of a case (what a backend allocates, give or take a page). */
size_t lbm_bytes_needed(const struct lbm_case *c);
/* The default domain's edge: the smallest multiple of 16, at least min_edge, whose cube's one
 * lattice (19 values of es bytes per cell, padding aside) holds at least `bytes`. One lattice
 * because aa keeps only one; the two-lattice kernels then hold twice as much. */
size_t lbm_default_edge(size_t bytes, size_t es, size_t min_edge);
/* bytes per fluid-cell update: 19 loads + 19 stores; write-allocate adds 19 reads */
void lbm_traffic(size_t esize, int write_allocate, double *prog_bytes, double *dram_bytes);

/* The per-value term of lbm_check's hash: global cell (gx, gy, gz) of a gnx x gny x gnz domain,
 * direction d, the stored bits (a float's widened to 64). Order-independent when summed. */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline uint64_t
    lbm_value_hash(int d, size_t gx, size_t gy, size_t gz, size_t gnx, size_t gny, size_t gnz,
                   uint64_t bits)
{
    uint64_t h = ((((uint64_t)d * gnz + gz) * gny + gy) * gnx + gx) * 0x9E3779B97F4A7C15ull ^ bits;
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

/* reference.c: plain serial double-precision two-lattice stepper on unpadded arrays. */
int lbm_reference_step(const struct lbm_case *c, double *pdf, int steps);
void lbm_reference_init(const struct lbm_case *c, double *pdf);

#ifdef __cplusplus
}
#endif
#endif
