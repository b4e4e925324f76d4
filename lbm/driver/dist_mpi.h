/* dist_mpi.h: the MPI runtime of a distributed run, the one place that knows whether MPI exists
 * (dist_mpi.c): the job (dist.h's dist_init, dist_rank, ...), a run's communicator with its
 * messages and reductions, and the node-shared window. Built without MPI, or started without a
 * launcher, the job has one rank and a run's communicator holds only it. */
#ifndef LBM_DIST_MPI_H
#define LBM_DIST_MPI_H

#include <stddef.h>
#include <stdint.h>

/* messages of one exchange at most: a receive and a send per halo (decomp.h) */
#define DIST_MPI_MAX_REQUESTS 36

/* Whether the MPI library moves device (GPU) memory itself; LBMR_MPI_DEVICE_BUFFERS=0 forbids
 * it. 0 without MPI. */
int dist_mpi_takes_device_memory(void);
/* Seconds on a clock shared by the job's ranks (MPI_Wtime), for intervals. */
double dist_mpi_wtime(void);
/* Ends the whole job at once after a failure that leaves other ranks waiting for this one;
 * returns only where there is no started MPI (nothing else to end). */
void dist_mpi_abort(void);
/* Waits for every rank of the job (nothing without a started MPI). */
void dist_mpi_barrier_all(void);

/* A run's ranks: the job's first `nranks` ranks, in the job's order. */
struct dist_comm;
/* Collective over the job: *c is NULL on the ranks beyond the first nranks (they idle in this
 * run). 0, or 1 with err. */
int dist_comm_open(int nranks, struct dist_comm **c, char *err, size_t errlen);
/* Frees the window, the communicators and c; collective over the run (NULL: nothing). */
void dist_comm_close(struct dist_comm *c);
int dist_comm_rank(const struct dist_comm *c);
int dist_comm_size(const struct dist_comm *c);
/* The rank among the run's ranks on this node of the run's rank `peer`, or -1 off this node. */
int dist_comm_node_rank(const struct dist_comm *c, int peer);

/* Reductions over the run's ranks, every rank gets the result. */
void dist_comm_barrier(struct dist_comm *c);
int dist_comm_max_int(struct dist_comm *c, int v);
int dist_comm_or_int(struct dist_comm *c, int v); /* bitwise or */
double dist_comm_max_double(struct dist_comm *c, double v);
void dist_comm_sum_double(struct dist_comm *c, double *v, int n); /* in place */
uint64_t dist_comm_sum_u64(struct dist_comm *c, uint64_t v);      /* modulo 2^64 */

/* Messages of `bytes` bytes (bytes < 2^31) to or from the run's rank peer, matched by tag; each
 * takes request slot `slot` (< DIST_MPI_MAX_REQUESTS) until dist_comm_waitall. 0, or 1 with err
 * (no MPI). */
int dist_comm_irecv(struct dist_comm *c, void *buf, size_t bytes, int peer, int tag, int slot,
                    char *err, size_t errlen);
int dist_comm_isend(struct dist_comm *c, const void *buf, size_t bytes, int peer, int tag, int slot,
                    char *err, size_t errlen);
/* Completes the messages of slots [0, n). */
void dist_comm_waitall(struct dist_comm *c, int n);

/* The node-shared window: `bytes` bytes of host memory per rank of the run on this node, each
 * rank's segment readable and writable by the others (MPI-3 shared memory). Collective over the
 * run's ranks on this node; *mine is this rank's segment. 0, or 1 with err. */
int dist_comm_window(struct dist_comm *c, size_t bytes, void **mine, char *err, size_t errlen);
/* Orders this rank's writes to the window before what it does next (messages included), and
 * the others' writes it has been told of before its reads. */
void dist_comm_window_sync(struct dist_comm *c);
/* Waits for the run's ranks on this node. */
void dist_comm_node_barrier(struct dist_comm *c);
int dist_comm_node_size(const struct dist_comm *c);
/* The segment of the node's rank q and its bytes. */
void *dist_comm_window_segment(struct dist_comm *c, int q, size_t *bytes);

#endif
