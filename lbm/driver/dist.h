/* dist.h: distributed runs of the LBM pair over MPI (as Obrecht et al. 2013): a 3D Cartesian split
 * of the domain, one sub-domain per rank, ghost layers exchanged after every update: per face the 5
 * populations that cross it, per edge the 1 (D3Q19 has no corner links). Built without MPI, or
 * started without a launcher, everything here is the single-rank case. */
#ifndef LBM_DIST_H
#define LBM_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "lbm_dist_backend.h"

/* Starts MPI when a launcher (mpirun, srun) started the process; returns 0 or nonzero with err. */
int dist_init(int *argc, char ***argv, char *err, size_t errlen);
void dist_finalize(void);
int dist_rank(void);       /* in the whole job */
int dist_size(void);       /* ranks of the whole job */
int dist_local_rank(void); /* among the ranks of this node */
int dist_have_mpi(void);   /* built with MPI */
/* The balanced split of n ranks, most along z, fewest along x (decomp_dims: the grid Open MPI's
 * MPI_Dims_create makes). */
int dist_dims_create(int n, int procs[3]);
/* The largest value of v over the job's ranks (exit codes, error flags). */
int dist_max_int(int v);
/* Over the job's ranks on this node: *sum of v, and bits[0..words) or-ed (CPU sets);
 * *ranks the node's ranks. Collective over the job. */
void dist_node_sum_or(int v, int *sum, int *ranks, unsigned long long *bits, int words);

struct dist_run;

/* Places this rank's share of `whole` (global dims in nx, ny, nz) split into procs[0..2]: *run
 * is NULL where this rank has no part in it (it waits in dist_case_end). weak: nx, ny, nz are
 * each rank's own box instead. The local case goes to *local. Collective over the job. */
int dist_case_begin(const struct lbm_case *whole, const int procs[3], int weak,
                    struct dist_run **run, struct lbm_case *local, char *err, size_t errlen);
/* How halos travel (--halo): auto = device where MPI takes the backend's memory, else node for
 * neighbours on this node and host for the others. */
enum dist_halo {
    DIST_HALO_AUTO,
    DIST_HALO_DEVICE,
    DIST_HALO_NODE,
    DIST_HALO_HOST,
    DIST_HALO_COUNT
};
/* 0 if this job can send halos that way (after dist_init); else why not, in err. */
int dist_halo_check(int halo, char *err, size_t errlen);
/* 0 when LBMR_X_FACES is unset, "update" or "shells"; else 1 and what is accepted, in err. */
int dist_x_faces_check(char *err, size_t errlen);
/* Halo buffers for an allocated state (after lbm_alloc); collective over the run's ranks. */
int dist_attach(struct dist_run *r, struct lbm_state *s, int halo, char *err, size_t errlen);
/* dist_step with or without the halo exchange (without: the same updates, for timing only) */
enum dist_exchange { DIST_NO_EXCHANGE = 0, DIST_EXCHANGE = 1 };
/* `steps` updates, with the halo exchange or without it; overlap = 1 updates the interior while the
 * boundary layers travel. *seconds: the slowest rank's wall time. Collective over the run's ranks.
 */
int dist_step(struct dist_run *r, struct lbm_state *s, int steps, enum dist_exchange exchange,
              int overlap, double *seconds, char *err, size_t errlen);
/* Fills the current lattice's ghost layers from the neighbours (after lbm_init or lbm_load). */
int dist_prime(struct dist_run *r, struct lbm_state *s, char *err, size_t errlen);
/* Sums over the run's ranks (rank 0 of the run gets them; hashes add modulo 2^64). */
void dist_sum(struct dist_run *r, double *mass, size_t *nonfinite, uint64_t *hash);
/* 1 if any rank of the run set flag (collective). */
int dist_any(struct dist_run *r, int flag);
int dist_run_rank(const struct dist_run *r);   /* this rank within the run */
int dist_neighbours(const struct dist_run *r); /* halo messages this rank sends per update */
/* the paths this rank's halos take: "device", "node", "host" or a mix ("node+host"); "" without
 * neighbours */
const char *dist_halo_used(const struct dist_run *r);
/* how the x faces' halos are made where the run's grid splits x: "update" (updated into their
 * buffers, whole rows after) or "shells" (LBMR_X_FACES, dist.c); "" where it does not */
const char *dist_x_faces_used(const struct dist_run *r);
void dist_case_end(struct dist_run *r); /* frees; collective over the job */
/* The largest v over the run's ranks, and element-wise sums of v[0..n) (NaN anywhere stays NaN):
 * collective over the run's ranks. */
int dist_run_max(struct dist_run *r, int v);
void dist_run_sum(struct dist_run *r, double *v, int n);
double dist_run_max_double(struct dist_run *r, double v);

#endif
