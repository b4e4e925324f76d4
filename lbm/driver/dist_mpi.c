/* dist_mpi.c: the MPI runtime (dist_mpi.h) and the job's calls of dist.h: every use of MPI, and
 * every LBMR_WITH_MPI of the distributed run, is in this file. Built without MPI, each call is the
 * single-rank case. */
#include "dist_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist.h"

#ifdef LBMR_WITH_MPI
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#endif

static int world_rank = 0, world_size = 1, local_rank = 0, started = 0;
#ifdef LBMR_WITH_MPI
static MPI_Comm node_comm = MPI_COMM_NULL; /* the job's ranks on this node */
#endif

struct dist_comm {
#ifdef LBMR_WITH_MPI
    MPI_Comm comm;
    MPI_Comm node; /* the run's ranks on this node */
    MPI_Win win;   /* the node-shared window, one segment per rank of `node` */
    MPI_Request req[DIST_MPI_MAX_REQUESTS];
#endif
    int rank, size;
};

int dist_have_mpi(void)
{
#ifdef LBMR_WITH_MPI
    return 1;
#else
    return 0;
#endif
}

/* launched by mpirun/mpiexec (Open MPI, MPICH/Hydra, PMIx) or srun */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                       "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

int dist_init(int *argc, char ***argv, char *err, size_t errlen)
{
#ifdef LBMR_WITH_MPI
    int provided;
    if (!launched()) return 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init_thread failed");
        return 1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL,
                        &node_comm);
    MPI_Comm_rank(node_comm, &local_rank);
#else
    (void)argc;
    (void)argv;
    if (launched() && getenv("OMPI_COMM_WORLD_SIZE") && atoi(getenv("OMPI_COMM_WORLD_SIZE")) > 1) {
        snprintf(err, errlen,
                 "started as one of %s ranks, but this build has no MPI (configure "
                 "with MPI installed)",
                 getenv("OMPI_COMM_WORLD_SIZE"));
        return 1;
    }
#endif
    (void)err;
    (void)errlen;
    return 0;
}

void dist_finalize(void)
{
#ifdef LBMR_WITH_MPI
    if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
    if (started) MPI_Finalize();
#endif
    started = 0;
}

int dist_rank(void)
{
    return world_rank;
}

int dist_size(void)
{
    return world_size;
}

int dist_local_rank(void)
{
    return local_rank;
}

int dist_max_int(int v)
{
#ifdef LBMR_WITH_MPI
    if (started) {
        int m;
        MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return m;
    }
#endif
    return v;
}

void dist_node_sum_or(int v, int *sum, int *ranks, unsigned long long *bits, int words)
{
    *sum = v;
    *ranks = 1;
#ifdef LBMR_WITH_MPI
    if (started) {
        MPI_Allreduce(&v, sum, 1, MPI_INT, MPI_SUM, node_comm);
        MPI_Comm_size(node_comm, ranks);
        MPI_Allreduce(MPI_IN_PLACE, bits, words, MPI_UNSIGNED_LONG_LONG, MPI_BOR, node_comm);
    }
#else
    (void)bits;
    (void)words;
#endif
}

int dist_mpi_takes_device_memory(void)
{
    const char *env = getenv("LBMR_MPI_DEVICE_BUFFERS");
    if (env && strcmp(env, "0") == 0) return 0;
#if defined(LBMR_WITH_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

double dist_mpi_wtime(void)
{
#ifdef LBMR_WITH_MPI
    if (started) return MPI_Wtime();
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void dist_mpi_abort(void)
{
#ifdef LBMR_WITH_MPI
    if (started) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
}

void dist_mpi_barrier_all(void)
{
#ifdef LBMR_WITH_MPI
    if (started) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

int dist_comm_open(int nranks, struct dist_comm **c, char *err, size_t errlen)
{
    struct dist_comm *x = calloc(1, sizeof *x);
    *c = NULL;
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    x->rank = 0;
    x->size = 1;
#ifdef LBMR_WITH_MPI
    x->comm = x->node = MPI_COMM_NULL;
    x->win = MPI_WIN_NULL;
    if (started) {
        /* ordered by the job's ranks: rank k of the run is rank k of the job */
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < nranks ? 0 : MPI_UNDEFINED, world_rank,
                       &x->comm);
        if (x->comm == MPI_COMM_NULL) {
            free(x);
            return 0; /* idle in this run */
        }
        MPI_Comm_rank(x->comm, &x->rank);
        MPI_Comm_size(x->comm, &x->size);
        MPI_Comm_split_type(x->comm, MPI_COMM_TYPE_SHARED, x->rank, MPI_INFO_NULL, &x->node);
    }
#else
    (void)nranks;
#endif
    *c = x;
    return 0;
}

void dist_comm_close(struct dist_comm *c)
{
    if (!c) return;
#ifdef LBMR_WITH_MPI
    if (c->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(c->win);
        MPI_Win_free(&c->win);
    }
    if (c->node != MPI_COMM_NULL) MPI_Comm_free(&c->node);
    if (c->comm != MPI_COMM_NULL) MPI_Comm_free(&c->comm);
#endif
    free(c);
}

int dist_comm_rank(const struct dist_comm *c)
{
    return c->rank;
}

int dist_comm_size(const struct dist_comm *c)
{
    return c->size;
}

int dist_comm_node_rank(const struct dist_comm *c, int peer)
{
    int q = -1;
#ifdef LBMR_WITH_MPI
    if (c->node != MPI_COMM_NULL) {
        MPI_Group all, node;
        MPI_Comm_group(c->comm, &all);
        MPI_Comm_group(c->node, &node);
        MPI_Group_translate_ranks(all, 1, &peer, node, &q);
        if (q == MPI_UNDEFINED) q = -1;
        MPI_Group_free(&all);
        MPI_Group_free(&node);
    }
#else
    (void)c;
    (void)peer;
#endif
    return q;
}

void dist_comm_barrier(struct dist_comm *c)
{
#ifdef LBMR_WITH_MPI
    if (c->comm != MPI_COMM_NULL) MPI_Barrier(c->comm);
#else
    (void)c;
#endif
}

#ifdef LBMR_WITH_MPI
/* In place over the run's ranks; a run without a communicator (one rank) keeps its own value. */
static void reduce(struct dist_comm *c, void *v, int n, MPI_Datatype type, MPI_Op op)
{
    if (c->comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, v, n, type, op, c->comm);
}
#define DIST_REDUCE(c, v, n, type, op) reduce(c, v, n, type, op)
#else
#define DIST_REDUCE(c, v, n, type, op) ((void)(c), (void)(v), (void)(n))
#endif

int dist_comm_max_int(struct dist_comm *c, int v)
{
    DIST_REDUCE(c, &v, 1, MPI_INT, MPI_MAX);
    return v;
}

int dist_comm_or_int(struct dist_comm *c, int v)
{
    DIST_REDUCE(c, &v, 1, MPI_INT, MPI_BOR);
    return v;
}

double dist_comm_max_double(struct dist_comm *c, double v)
{
    DIST_REDUCE(c, &v, 1, MPI_DOUBLE, MPI_MAX);
    return v;
}

void dist_comm_sum_double(struct dist_comm *c, double *v, int n)
{
    DIST_REDUCE(c, v, n, MPI_DOUBLE, MPI_SUM);
}

uint64_t dist_comm_sum_u64(struct dist_comm *c, uint64_t v)
{
    unsigned long long x = v; /* MPI's 64-bit unsigned type */
    DIST_REDUCE(c, &x, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
    return (uint64_t)x;
}

int dist_comm_irecv(struct dist_comm *c, void *buf, size_t bytes, int peer, int tag, int slot,
                    char *err, size_t errlen)
{
#ifdef LBMR_WITH_MPI
    (void)err;
    (void)errlen;
    MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, c->comm, &c->req[slot]);
    return 0;
#else
    (void)c, (void)buf, (void)bytes, (void)peer, (void)tag, (void)slot;
    snprintf(err, errlen, "a message between ranks needs MPI (this build has none)");
    return 1;
#endif
}

int dist_comm_isend(struct dist_comm *c, const void *buf, size_t bytes, int peer, int tag, int slot,
                    char *err, size_t errlen)
{
#ifdef LBMR_WITH_MPI
    (void)err;
    (void)errlen;
    MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, c->comm, &c->req[slot]);
    return 0;
#else
    (void)c, (void)buf, (void)bytes, (void)peer, (void)tag, (void)slot;
    snprintf(err, errlen, "a message between ranks needs MPI (this build has none)");
    return 1;
#endif
}

void dist_comm_waitall(struct dist_comm *c, int n)
{
#ifdef LBMR_WITH_MPI
    MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
#else
    (void)c;
    (void)n;
#endif
}

int dist_comm_window(struct dist_comm *c, size_t bytes, void **mine, char *err, size_t errlen)
{
#ifdef LBMR_WITH_MPI
    if (MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, c->node, mine, &c->win) !=
        MPI_SUCCESS) {
        snprintf(err, errlen, "cannot allocate %zu bytes of node-shared halo memory", bytes);
        return 1;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win);
    return 0;
#else
    (void)c;
    *mine = NULL;
    snprintf(err, errlen,
             "cannot share %zu bytes of halo memory on the node: this build has no MPI", bytes);
    return 1;
#endif
}

void dist_comm_window_sync(struct dist_comm *c)
{
#ifdef LBMR_WITH_MPI
    MPI_Win_sync(c->win);
#else
    (void)c;
#endif
}

void dist_comm_node_barrier(struct dist_comm *c)
{
#ifdef LBMR_WITH_MPI
    MPI_Barrier(c->node);
#else
    (void)c;
#endif
}

int dist_comm_node_size(const struct dist_comm *c)
{
    int n = 1;
#ifdef LBMR_WITH_MPI
    if (c->node != MPI_COMM_NULL) MPI_Comm_size(c->node, &n);
#else
    (void)c;
#endif
    return n;
}

void *dist_comm_window_segment(struct dist_comm *c, int q, size_t *bytes)
{
#ifdef LBMR_WITH_MPI
    MPI_Aint size;
    int unit;
    void *base;
    MPI_Win_shared_query(c->win, q, &size, &unit, &base);
    *bytes = (size_t)size;
    return base;
#else
    (void)c;
    (void)q;
    *bytes = 0;
    return NULL;
#endif
}
