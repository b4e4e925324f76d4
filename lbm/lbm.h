/* lbm.h: the LBM backend interface; cpu/lbm_omp.c and gpu/lbm_cuda.cu each define every function.
 * Backends never print and never exit: they return nonzero with a message in the caller's buffer.
 * Populations cross the interface unpadded, in double, ordered [d][z][y][x]. */
#ifndef LBM_LBM_H
#define LBM_LBM_H

#include <stddef.h>
#include <stdint.h>

#include "collision.h"
#include "device.h"
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

extern const char *const lbm_kernel_names[LBM_KERNEL_COUNT];
extern const char *const lbm_collision_names[LBM_COLLISION_COUNT];

/* Where a sub-domain sits in a distributed run (lbm/dist.c); all zero for a whole domain. */
struct lbm_place {
    size_t global[3];   /* cells of the whole domain per axis; 0: the case is the whole domain */
    size_t offset[3];   /* global coordinates of local cell (0, 0, 0) */
    int neighbor[3][2]; /* per axis and side (low, high): 1 where another rank lies beyond */
};

struct lbm_case {
    size_t nx, ny, nz; /* fluid cells per axis (of this rank's sub-domain) */
    size_t pad;        /* elements added to each x row */
    size_t align;      /* row alignment in bytes, 0 for none */
    enum prec prec;
    enum lbm_collision collision;
    enum lbm_kernel kernel;
    enum lbm_geometry geometry;
    double omega;    /* shear relaxation rate, 0 < omega < 2 */
    double lid_ux;   /* cavity lid velocity */
    double force[3]; /* body force per unit volume (channel) */
    int threads;     /* gpu threads per block; cpu OpenMP threads; 0: backend default */
    struct lbm_place place;
};

struct lbm_launch {
    int threads;       /* cpu: OpenMP threads; gpu: threads per block */
    long blocks;       /* gpu grid size; -1 on the cpu */
    double occupancy;  /* gpu; NaN on the cpu */
    size_t pitch;      /* x row pitch in elements, padding and alignment included */
    char binding[128]; /* cpu: cpu_binding with this case's threads; "" where the device's holds */
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

/* Distributed runs (lbm/dist.c). Queue 0 carries the boundary work and the halo, queue 1 the
 * interior (two CUDA streams; on the CPU every call completes before it returns). */
enum { LBM_QUEUE_BOTH = -1, LBM_QUEUE_EDGE = 0, LBM_QUEUE_INTERIOR = 1 };
/* lbm_halo_copy: from the lattice into the buffer (pack) or back (unpack) */
enum lbm_halo_dir { LBM_HALO_PACK = 0, LBM_HALO_UNPACK = 1 };
/* lbm_buffer_alloc: backend memory (device memory on the GPU) or host memory that the backend
 * copies fastest (pinned on the GPU) */
enum lbm_buffer_mem { LBM_BUFFER_BACKEND = 0, LBM_BUFFER_HOST = 1 };
/* lbm_buffer_copy: which way, between backend and host memory */
enum lbm_copy_dir { LBM_COPY_TO_BACKEND = 0, LBM_COPY_TO_HOST = 1 };
/* lbm_host_register: pin or release */
enum lbm_pin { LBM_UNPIN = 0, LBM_PIN = 1 };
/* One update of the local cells in [lo, hi) from the current lattice into the next. */
int lbm_update_box(struct lbm_state *s, const size_t lo[3], const size_t hi[3], int queue,
                   char *err, size_t errlen);
/* Copies populations dirs[0..ndirs) of the cells in [lo, hi) (local coordinates; -1 and n name
 * ghost layers) between the next lattice and buf, ordered [dir][z][y][x]; LBM_HALO_UNPACK writes
 * the lattice. buf is backend memory (lbm_buffer_alloc). */
int lbm_halo_copy(struct lbm_state *s, enum lbm_halo_dir dir, const int *dirs, int ndirs,
                  const long lo[3], const long hi[3], void *buf, int queue, char *err,
                  size_t errlen);
/* Halo buffers (enum lbm_buffer_mem). Copies between them run on queue 0. */
void *lbm_buffer_alloc(size_t bytes, enum lbm_buffer_mem mem);
void lbm_buffer_free(void *p, enum lbm_buffer_mem mem);
int lbm_buffer_copy(struct lbm_state *s, void *dst, const void *src, size_t bytes,
                    enum lbm_copy_dir dir, char *err, size_t errlen);
/* Pins (LBM_PIN) or releases host memory not from lbm_buffer_alloc (MPI's node-shared halo
 * buffers) so that lbm_buffer_copy moves it as fast as its own (CPU: nothing to do). */
int lbm_host_register(void *p, size_t bytes, enum lbm_pin pin, char *err, size_t errlen);
/* 1 when MPI may read and write backend memory itself (the CPU); 0 on the GPU, where dist.c
 * asks the MPI library at run time whether it takes device pointers. */
int lbm_buffers_on_host(void);
/* 1 when update and halo calls only queue the work (the GPU); 0 when they complete it (CPU). */
int lbm_queues_async(void);
/* Waits for a queue (LBM_QUEUE_BOTH: both) to finish; lbm_queues_join orders everything queued so
 * far before anything queued later on either queue. lbm_swap makes the next lattice current. */
int lbm_wait(struct lbm_state *s, int queue, char *err, size_t errlen);
int lbm_queues_join(struct lbm_state *s, char *err, size_t errlen);
void lbm_swap(struct lbm_state *s);
/* Picks this rank's GPU from its node-local rank (CPU: nothing). Before lbm_backend_open. */
int lbm_backend_select(int local_rank, char *err, size_t errlen);

/* lbm_model.c: parameters and byte table shared by every backend and the reference. */
double lbm_viscosity(double omega);
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
