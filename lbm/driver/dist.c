/* dist.c: the distributed LBM run (dist.h): Cartesian split, halo buffers, the exchange and the
 * time loop around the backend's box updates. One code path with or without MPI: without it
 * (or without a launcher) there is one rank and no neighbour. */
#include "dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3q19.h"

#ifdef LBMR_WITH_MPI
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#endif

static int world_rank = 0, world_size = 1, local_rank = 0, started = 0;

/* How a halo travels (--halo): MPI reads and writes the backend's buffers (device: the CPU, or
 * a GPU with CUDA-aware MPI); the backend copies it into the neighbour's receive buffer in host
 * memory that MPI shares between the ranks of a node (node: an MPI-3 shared-memory window,
 * pinned, and a message of 0 bytes says it is there: no copy by the CPU); or MPI sends it
 * between pinned host buffers (host). */
enum { VIA_DEVICE, VIA_NODE, VIA_HOST };

struct halo {
    int dir;        /* d3q19 direction index of the neighbour: c_dir points at it */
    int peer;       /* its rank in the run */
    int node_peer;  /* its rank among the run's ranks on this node, or -1 */
    int via;        /* VIA_* */
    int dirs[5], n; /* the populations sent: those moving towards the neighbour */
    int rdirs[5];   /* those received, in the sender's order: moving away from it */
    long slo[3], shi[3], rlo[3], rhi[3]; /* boxes sent from and received into (ghosts) */
    size_t bytes;
    /* Receive buffers come in pairs, used on alternate updates: a receive is posted before the
     * previous update's copy out of its buffer (queued on the device) has surely run, and with
     * a neighbour ahead by one update its data would otherwise overwrite the buffer under that
     * copy (seen on 4 H200s in a line: wrong states, intermittently) */
    void *sbuf, *rbuf[2];   /* backend memory */
    void *shost, *rhost[2]; /* staging copies in host memory (NULL when MPI takes sbuf/rbuf) */
    void *phost[2];         /* VIA_NODE: the neighbour's rhost[], where this rank's halo goes */
};

struct dist_run {
#ifdef LBMR_WITH_MPI
    MPI_Comm comm;
    MPI_Comm node; /* the run's ranks on this node */
    MPI_Win win;   /* VIA_NODE receive buffers, one segment per rank of `node` */
#endif
    char *pinned; /* the range of the node's window registered with the backend, or NULL */
    size_t pinned_bytes;
    int vias;     /* bit set of the VIA_* this rank's halos take */
    int vias_all; /* ... and any rank's of the run */
    int rank, size;
    struct lbm_case c; /* the local case */
    struct halo h[18];
    int nh;
    size_t box_lo[7][3], box_hi[7][3]; /* boundary shells, then the interior last */
    int nbox;
    int flip; /* which receive buffer of each pair this exchange uses */
    struct lbm_state *s;
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
    MPI_Comm node;
    if (!launched()) return 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init_thread failed");
        return 1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
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

int dist_dims_create(int n, int procs[3])
{
    procs[0] = procs[1] = procs[2] = 0;
#ifdef LBMR_WITH_MPI
    if (started) {
        /* MPI_Dims_create orders the factors largest first; the largest goes to z: z and y
         * faces are whole rows, x faces one value per row (slow halos, 1-wide boxes) */
        int d[3] = {0, 0, 0};
        if (MPI_Dims_create(n, 3, d) != MPI_SUCCESS) return 1;
        procs[0] = d[2];
        procs[1] = d[1];
        procs[2] = d[0];
        return 0;
    }
#endif
    if (n != 1) return 1;
    procs[0] = procs[1] = procs[2] = 1;
    return 0;
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

/* Whether the MPI library moves device memory itself; LBMR_MPI_DEVICE_BUFFERS=0 forbids it. */
static int mpi_takes_device_memory(void)
{
    const char *env = getenv("LBMR_MPI_DEVICE_BUFFERS");
    if (env && strcmp(env, "0") == 0) return 0;
#if defined(LBMR_WITH_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

/* cells [off, off + n) of an axis of `global` cells split into p parts, part k */
static void split(size_t global, int p, int k, size_t *n, size_t *off)
{
    size_t base = global / (size_t)p, rem = global % (size_t)p, kk = (size_t)k;
    *n = base + (kk < rem);
    *off = kk * base + (kk < rem ? kk : rem);
}

static void plan_halos(struct dist_run *r, const int coords[3], const int procs[3],
                       const int periodic[3])
{
    const long n[3] = {(long)r->c.nx, (long)r->c.ny, (long)r->c.nz};
    r->nh = 0;
    for (int e = 1; e < 19; e++) {
        const int m[3] = {lbm_cx[e], lbm_cy[e], lbm_cz[e]};
        int nc[3], ok = 1;
        struct halo *h = &r->h[r->nh];
        memset(h, 0, sizeof *h);
        for (int a = 0; a < 3; a++) {
            nc[a] = coords[a] + m[a];
            if (m[a] && !r->c.place.neighbor[a][m[a] > 0]) ok = 0;
            if (nc[a] < 0 || nc[a] >= procs[a])
                nc[a] = periodic[a] ? (nc[a] + procs[a]) % procs[a] : -1;
            /* sent from the layer next to the neighbour, received into the ghost layer there */
            h->slo[a] = m[a] > 0 ? n[a] - 1 : 0;
            h->shi[a] = m[a] < 0 ? 1 : n[a];
            h->rlo[a] = m[a] > 0 ? n[a] : (m[a] < 0 ? -1 : 0);
            h->rhi[a] = m[a] > 0 ? n[a] + 1 : (m[a] < 0 ? 0 : n[a]);
        }
        if (!ok) continue;
#ifdef LBMR_WITH_MPI
        MPI_Cart_rank(r->comm, nc, &h->peer);
#endif
        h->dir = e;
        /* the populations moving towards the neighbour: same sign on each of its axes */
        for (int d = 1, nr = 0; d < 19; d++) {
            const int c[3] = {lbm_cx[d], lbm_cy[d], lbm_cz[d]};
            int to = 1, from = 1;
            for (int a = 0; a < 3; a++) {
                to &= !m[a] || c[a] == m[a];
                from &= !m[a] || c[a] == -m[a];
            }
            if (to) h->dirs[h->n++] = d;
            if (from) h->rdirs[nr++] = d;
        }
        r->nh++;
    }
}

static void plan_boxes(struct dist_run *r)
{
    size_t lo[3] = {0, 0, 0}, hi[3] = {r->c.nx, r->c.ny, r->c.nz};
    r->nbox = 0;
    for (int a = 2; a >= 0; a--) {
        for (int side = 0; side < 2; side++) {
            if (!r->c.place.neighbor[a][side] || lo[a] >= hi[a]) continue;
            memcpy(r->box_lo[r->nbox], lo, sizeof lo);
            memcpy(r->box_hi[r->nbox], hi, sizeof hi);
            if (side == 0) {
                r->box_hi[r->nbox][a] = lo[a] + 1;
                lo[a]++;
            } else {
                r->box_lo[r->nbox][a] = hi[a] - 1;
                hi[a]--;
            }
            r->nbox++;
        }
    }
    memcpy(r->box_lo[r->nbox], lo, sizeof lo);
    memcpy(r->box_hi[r->nbox], hi, sizeof hi);
    r->nbox++;
}

int dist_case_begin(const struct lbm_case *whole, const int procs[3], int weak,
                    struct dist_run **run, struct lbm_case *local, char *err, size_t errlen)
{
    const int nranks = procs[0] * procs[1] * procs[2];
    const size_t in[3] = {whole->nx, whole->ny, whole->nz};
    struct lbm_bounds b;
    struct dist_run *r;
    int coords[3] = {0, 0, 0};
    *run = NULL;
    *local = *whole;
    if (nranks > world_size) {
        snprintf(err, errlen, "%dx%dx%d needs %d ranks; the job has %d", procs[0], procs[1],
                 procs[2], nranks, world_size);
        return 1;
    }
    if (!weak &&
        (in[0] < (size_t)procs[0] || in[1] < (size_t)procs[1] || in[2] < (size_t)procs[2])) {
        snprintf(err, errlen,
                 "%zux%zux%zu cannot be split %dx%dx%d: every rank needs a cell per "
                 "axis",
                 in[0], in[1], in[2], procs[0], procs[1], procs[2]);
        return 1;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    lbm_geometry_bounds(whole->geometry, whole->lid_ux, &b);
#ifdef LBMR_WITH_MPI
    r->comm = r->node = MPI_COMM_NULL;
    r->win = MPI_WIN_NULL;
    if (started) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < nranks ? 0 : MPI_UNDEFINED, world_rank, &sub);
        if (sub == MPI_COMM_NULL) {
            free(r);
            return 0; /* idle in this case */
        }
        MPI_Cart_create(sub, 3, procs, b.periodic, 0, &r->comm);
        MPI_Comm_free(&sub);
        MPI_Comm_rank(r->comm, &r->rank);
        MPI_Comm_size(r->comm, &r->size);
        MPI_Cart_coords(r->comm, r->rank, 3, coords);
        MPI_Comm_split_type(r->comm, MPI_COMM_TYPE_SHARED, r->rank, MPI_INFO_NULL, &r->node);
    } else
#endif
    {
        r->rank = 0;
        r->size = 1;
    }
    for (int a = 0; a < 3; a++) {
        size_t n, off, global = weak ? in[a] * (size_t)procs[a] : in[a];
        if (weak) {
            n = in[a];
            off = (size_t)coords[a] * in[a];
        } else {
            split(global, procs[a], coords[a], &n, &off);
        }
        local->place.global[a] = global;
        local->place.offset[a] = off;
        local->place.neighbor[a][0] = procs[a] > 1 && (coords[a] > 0 || b.periodic[a]);
        local->place.neighbor[a][1] = procs[a] > 1 && (coords[a] < procs[a] - 1 || b.periodic[a]);
        if (a == 0)
            local->nx = n;
        else if (a == 1)
            local->ny = n;
        else
            local->nz = n;
    }
    r->c = *local;
    plan_halos(r, coords, procs, b.periodic);
    plan_boxes(r);
    for (int k = 0; k < r->nh; k++)
        r->h[k].node_peer = -1;
#ifdef LBMR_WITH_MPI
    if (r->node != MPI_COMM_NULL) {
        MPI_Group all, node;
        MPI_Comm_group(r->comm, &all);
        MPI_Comm_group(r->node, &node);
        for (int k = 0; k < r->nh; k++) {
            int q;
            MPI_Group_translate_ranks(all, 1, &r->h[k].peer, node, &q);
            r->h[k].node_peer = q == MPI_UNDEFINED ? -1 : q;
        }
        MPI_Group_free(&all);
        MPI_Group_free(&node);
    }
#endif
    *run = r;
    return 0;
}

/* whether MPI can move the backend's own halo buffers (the CPU's, or GPU memory) */
static int device_path_ok(void)
{
    return lbm_buffers_on_host() || mpi_takes_device_memory();
}

int dist_halo_check(int halo, char *err, size_t errlen)
{
    if (halo == DIST_HALO_DEVICE && !device_path_ok()) {
        snprintf(err, errlen,
                 "--halo device: this MPI library does not take GPU memory (built "
                 "without CUDA support); accepted here: auto, node, host");
        return 1;
    }
    return 0;
}

/* The path of each halo: what --halo asks, as far as the peer allows (node needs one on this
 * node; others go through host messages). */
static void choose_paths(struct dist_run *r, int halo)
{
    const int device_ok = device_path_ok();
    r->vias = 0;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        if (halo == DIST_HALO_DEVICE || (halo == DIST_HALO_AUTO && device_ok))
            h->via = VIA_DEVICE;
        else if (halo == DIST_HALO_HOST || h->node_peer < 0)
            h->via = VIA_HOST;
        else
            h->via = VIA_NODE;
        r->vias |= 1 << h->via;
    }
}

#ifdef LBMR_WITH_MPI
#define SEG_ALIGN 4096
#define BUF_ALIGN 256
/* where a segment keeps its receive buffers: offset of the one for data from the neighbour at
 * c_e, for each e and flip (0 where there is none) */
struct seg_header {
    size_t off[19][2];
};

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* VIA_NODE: one shared window over the run's ranks on this node (collective over them, also
 * for ranks without such a halo); each rank's segment holds its receive buffers, and the
 * whole window is pinned for the backend in every rank. */
static int attach_window(struct dist_run *r, char *err, size_t errlen)
{
    struct seg_header layout, *mine;
    size_t bytes = round_up(sizeof layout, SEG_ALIGN);
    char *lo = NULL, *hi = NULL;
    int nnode;
    memset(&layout, 0, sizeof layout);
    for (int k = 0; k < r->nh; k++) {
        if (r->h[k].via != VIA_NODE) continue;
        for (int f = 0; f < 2; f++) {
            layout.off[r->h[k].dir][f] = bytes;
            bytes += round_up(r->h[k].bytes, BUF_ALIGN);
        }
    }
    bytes = round_up(bytes, SEG_ALIGN);
    if (MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, r->node, &mine, &r->win) !=
        MPI_SUCCESS) {
        snprintf(err, errlen, "cannot allocate %zu bytes of node-shared halo memory", bytes);
        return 1;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, r->win);
    *mine = layout;
    for (int k = 0; k < r->nh; k++)
        if (r->h[k].via == VIA_NODE)
            for (int f = 0; f < 2; f++)
                r->h[k].rhost[f] = (char *)mine + layout.off[r->h[k].dir][f];
    MPI_Win_sync(r->win);
    MPI_Barrier(r->node);
    MPI_Win_sync(r->win);
    MPI_Comm_size(r->node, &nnode);
    for (int q = 0; q < nnode; q++) {
        MPI_Aint size;
        int unit;
        char *base;
        MPI_Win_shared_query(r->win, q, &size, &unit, &base);
        if (size > 0 && (!lo || base < lo)) lo = base;
        if (size > 0 && (!hi || base + size > hi)) hi = base + size;
    }
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        MPI_Aint size;
        int unit;
        const struct seg_header *theirs;
        if (h->via != VIA_NODE) continue;
        MPI_Win_shared_query(r->win, h->node_peer, &size, &unit, &theirs);
        /* the neighbour files this halo under the direction pointing back at this rank */
        for (int f = 0; f < 2; f++)
            h->phost[f] = (char *)theirs + theirs->off[lbm_opp[h->dir]][f];
    }
    if (lo && lbm_host_register(lo, (size_t)(hi - lo), LBM_PIN, err, errlen)) return 1;
    r->pinned = lo;
    r->pinned_bytes = lo ? (size_t)(hi - lo) : 0;
    return 0;
}
#endif

int dist_attach(struct dist_run *r, struct lbm_state *s, int halo, char *err, size_t errlen)
{
    const size_t es = prec_size(r->c.prec);
    r->s = s;
    if (r->nh == 0) return 0;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        h->bytes = (size_t)h->n * es;
        for (int a = 0; a < 3; a++)
            h->bytes *= (size_t)(h->shi[a] - h->slo[a]);
    }
    choose_paths(r, halo);
#ifdef LBMR_WITH_MPI
    /* first: collective, so a rank failing below cannot leave the others waiting in it */
    MPI_Allreduce(&r->vias, &r->vias_all, 1, MPI_INT, MPI_BOR, r->comm);
    if ((r->vias_all & 1 << VIA_NODE) && attach_window(r, err, errlen)) return 1;
#else
    r->vias_all = r->vias;
#endif
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        h->sbuf = lbm_buffer_alloc(h->bytes, LBM_BUFFER_BACKEND);
        h->rbuf[0] = lbm_buffer_alloc(h->bytes, LBM_BUFFER_BACKEND);
        h->rbuf[1] = lbm_buffer_alloc(h->bytes, LBM_BUFFER_BACKEND);
        if (h->via == VIA_HOST) {
            h->shost = lbm_buffer_alloc(h->bytes, LBM_BUFFER_HOST);
            h->rhost[0] = lbm_buffer_alloc(h->bytes, LBM_BUFFER_HOST);
            h->rhost[1] = lbm_buffer_alloc(h->bytes, LBM_BUFFER_HOST);
        }
        if (!h->sbuf || !h->rbuf[0] || !h->rbuf[1] ||
            (h->via == VIA_HOST && (!h->shost || !h->rhost[0] || !h->rhost[1]))) {
            snprintf(err, errlen, "cannot allocate halo buffers of %zu bytes", h->bytes);
            return 1;
        }
    }
    return 0;
}

/* Pack every halo from the next lattice (receives posted first), then send once packed; then
 * (exchange_finish) wait and unpack into the next lattice's ghost layers. A VIA_NODE halo is
 * copied straight into the neighbour's buffer and its message carries no data: the neighbour
 * reads the buffer after the message, and the buffer's next writer (two exchanges on) has
 * waited for a message the neighbour sent after its copy out of it had run. */
#ifdef LBMR_WITH_MPI
static char no_data[1];

static void *wire_buffer(const struct halo *h, void *dev, void *host)
{
    return h->via == VIA_DEVICE ? dev : (h->via == VIA_HOST ? host : no_data);
}

static int wire_bytes(const struct halo *h)
{
    return h->via == VIA_NODE ? 0 : (int)h->bytes;
}

static int exchange_pack(struct dist_run *r, MPI_Request *req, char *err, size_t errlen)
{
    struct lbm_state *s = r->s;
    const int f = r->flip;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        /* the neighbour at c_dir sends its own opposite halo: tagged with its direction */
        MPI_Irecv(wire_buffer(h, h->rbuf[f], h->rhost[f]), wire_bytes(h), MPI_BYTE, h->peer,
                  lbm_opp[h->dir], r->comm, &req[k]);
    }
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        if (lbm_halo_copy(s, LBM_HALO_PACK, h->dirs, h->n, h->slo, h->shi, h->sbuf, LBM_QUEUE_EDGE,
                          err, errlen) ||
            (h->via != VIA_DEVICE &&
             lbm_buffer_copy(s, h->via == VIA_NODE ? h->phost[f] : h->shost, h->sbuf, h->bytes,
                             LBM_COPY_TO_HOST, err, errlen)))
            return 1;
    }
    return 0;
}

static int exchange_send(struct dist_run *r, MPI_Request *req, char *err, size_t errlen)
{
    if (lbm_wait(r->s, LBM_QUEUE_EDGE, err, errlen)) return 1;
    if (r->vias & 1 << VIA_NODE)
        MPI_Win_sync(r->win); /* the copies into the neighbours' buffers come before the news */
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        MPI_Isend(wire_buffer(h, h->sbuf, h->shost), wire_bytes(h), MPI_BYTE, h->peer, h->dir,
                  r->comm, &req[r->nh + k]);
    }
    return 0;
}

static int exchange_start(struct dist_run *r, MPI_Request *req, char *err, size_t errlen)
{
    return exchange_pack(r, req, err, errlen) || exchange_send(r, req, err, errlen);
}

static int exchange_finish(struct dist_run *r, MPI_Request *req, char *err, size_t errlen)
{
    struct lbm_state *s = r->s;
    const int f = r->flip;
    MPI_Waitall(2 * r->nh, req, MPI_STATUSES_IGNORE);
    if (r->vias & 1 << VIA_NODE) MPI_Win_sync(r->win);
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        /* what arrives from the neighbour at c_dir fills the ghost layer on that side */
        if ((h->via != VIA_DEVICE && lbm_buffer_copy(s, h->rbuf[f], h->rhost[f], h->bytes,
                                                     LBM_COPY_TO_BACKEND, err, errlen)) ||
            lbm_halo_copy(s, LBM_HALO_UNPACK, h->rdirs, h->n, h->rlo, h->rhi, h->rbuf[f],
                          LBM_QUEUE_EDGE, err, errlen))
            return 1;
    }
    r->flip = !f;
    return 0;
}
#endif

int dist_step(struct dist_run *r, struct lbm_state *s, int steps, enum dist_exchange exchange,
              int overlap, double *seconds, char *err, size_t errlen)
{
    if (r->nh == 0) /* one rank: exactly the single-domain benchmark */
        return lbm_step(s, steps, seconds, err, errlen);
#ifdef LBMR_WITH_MPI
    MPI_Request req[36];
    const size_t all_lo[3] = {0, 0, 0}, all_hi[3] = {r->c.nx, r->c.ny, r->c.nz};
    const int inner = r->nbox - 1, async = lbm_queues_async();
    double t0, t;
    MPI_Barrier(r->comm);
    t0 = MPI_Wtime();
    for (int step = 0; step < steps; step++) {
        if (overlap) {
            for (int b = 0; b < inner; b++)
                if (lbm_update_box(s, r->box_lo[b], r->box_hi[b], LBM_QUEUE_EDGE, err, errlen))
                    goto broken;
        } else if (lbm_update_box(s, all_lo, all_hi, LBM_QUEUE_EDGE, err, errlen)) {
            goto broken;
        }
        /* the interior goes between packing and sending: a device backend queues it and the
         * host moves on to wait for the packs; the CPU computes it while the messages travel */
        if (exchange && exchange_pack(r, req, err, errlen)) goto broken;
        if (overlap && async &&
            lbm_update_box(s, r->box_lo[inner], r->box_hi[inner], LBM_QUEUE_INTERIOR, err, errlen))
            goto broken;
        if (exchange && exchange_send(r, req, err, errlen)) goto broken;
        if (overlap && !async &&
            lbm_update_box(s, r->box_lo[inner], r->box_hi[inner], LBM_QUEUE_INTERIOR, err, errlen))
            goto broken;
        if ((exchange && exchange_finish(r, req, err, errlen)) || lbm_queues_join(s, err, errlen))
            goto broken;
        lbm_swap(s);
    }
    if (lbm_wait(s, LBM_QUEUE_BOTH, err, errlen)) goto broken;
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, seconds, 1, MPI_DOUBLE, MPI_MAX, r->comm);
    return 0;
broken:
    /* the other ranks wait in a collective for this one: nothing to return to */
    fprintf(stderr, "lbm: rank %d: %s; aborting the job\n", world_rank, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
#else
    (void)exchange;
    (void)overlap;
    snprintf(err, errlen, "a split domain needs MPI");
    return 1;
#endif
}

int dist_prime(struct dist_run *r, struct lbm_state *s, char *err, size_t errlen)
{
    int rc = 0;
#ifdef LBMR_WITH_MPI
    MPI_Request req[36];
    if (r->nh == 0) return 0;
    lbm_swap(s); /* the halo calls work on the next lattice: make it the current one */
    rc = exchange_start(r, req, err, errlen) || exchange_finish(r, req, err, errlen) ||
         lbm_wait(s, LBM_QUEUE_BOTH, err, errlen);
    lbm_swap(s);
#else
    (void)r;
    (void)s;
    (void)err;
    (void)errlen;
#endif
    return rc;
}

void dist_sum(struct dist_run *r, double *mass, size_t *nonfinite, uint64_t *hash)
{
#ifdef LBMR_WITH_MPI
    if (r->size > 1) {
        double m = *mass;
        unsigned long long bad = *nonfinite, h = *hash, bad_all, h_all;
        MPI_Allreduce(&m, mass, 1, MPI_DOUBLE, MPI_SUM, r->comm);
        MPI_Allreduce(&bad, &bad_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, r->comm);
        MPI_Allreduce(&h, &h_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, r->comm);
        *nonfinite = (size_t)bad_all;
        *hash = h_all;
    }
#else
    (void)r;
    (void)mass;
    (void)nonfinite;
    (void)hash;
#endif
}

int dist_any(struct dist_run *r, int flag)
{
#ifdef LBMR_WITH_MPI
    if (r->size > 1) {
        int any;
        MPI_Allreduce(&flag, &any, 1, MPI_INT, MPI_MAX, r->comm);
        return any;
    }
#else
    (void)r;
#endif
    return flag;
}

int dist_run_rank(const struct dist_run *r)
{
    return r->rank;
}

int dist_neighbours(const struct dist_run *r)
{
    return r->nh;
}

const char *dist_halo_used(const struct dist_run *r)
{
    static const char *const names[8] = {"",     "device",      "node",      "device+node",
                                         "host", "device+host", "node+host", "device+node+host"};
    return names[r->vias_all & 7];
}

void dist_case_end(struct dist_run *r)
{
    if (r) {
        for (int k = 0; k < r->nh; k++) {
            lbm_buffer_free(r->h[k].sbuf, LBM_BUFFER_BACKEND);
            lbm_buffer_free(r->h[k].rbuf[0], LBM_BUFFER_BACKEND);
            lbm_buffer_free(r->h[k].rbuf[1], LBM_BUFFER_BACKEND);
            if (r->h[k].via == VIA_HOST) {
                lbm_buffer_free(r->h[k].shost, LBM_BUFFER_HOST);
                lbm_buffer_free(r->h[k].rhost[0], LBM_BUFFER_HOST);
                lbm_buffer_free(r->h[k].rhost[1], LBM_BUFFER_HOST);
            }
        }
        if (r->pinned) lbm_host_register(r->pinned, r->pinned_bytes, LBM_UNPIN, NULL, 0);
#ifdef LBMR_WITH_MPI
        if (r->win != MPI_WIN_NULL) {
            MPI_Win_unlock_all(r->win);
            MPI_Win_free(&r->win);
        }
        if (r->node != MPI_COMM_NULL) MPI_Comm_free(&r->node);
        if (r->comm != MPI_COMM_NULL) MPI_Comm_free(&r->comm);
#endif
        free(r);
    }
#ifdef LBMR_WITH_MPI
    if (started) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

int dist_run_max(struct dist_run *r, int v)
{
    return dist_any(r, v); /* dist_any is the maximum of the flags */
}

void dist_run_sum(struct dist_run *r, double *v, int n)
{
#ifdef LBMR_WITH_MPI
    if (r->size > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, r->comm);
#else
    (void)r;
    (void)v;
    (void)n;
#endif
}
