/* dist_halo.c: the halos of a distributed run (dist.h, dist_run.h): the path each one takes, its
 * buffers and the node-shared window, and the exchange of one update: pack, send, unpack. */
#include <stdio.h>
#include <string.h>

#include "d3q19.h"
#include "dist_run.h"

/* whether MPI can move the backend's own halo buffers (the CPU's, or GPU memory) */
static int device_path_ok(void)
{
    return lbm_buffers_on_host() || dist_mpi_takes_device_memory();
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

/* alignment of a window segment and of a buffer in it, bytes */
#define SEG_ALIGN 4096
#define BUF_ALIGN 256
/* where a segment keeps its receive buffers: offset of the one for data from the neighbour at
 * c_e, for each e and flip (0 where there is none) */
struct seg_header {
    size_t off[LBM_Q][2];
};

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* the node's segments together: the range [*lo, *hi) the backend pins */
static void window_range(struct dist_comm *c, char **lo, char **hi)
{
    const int nnode = dist_comm_node_size(c);
    *lo = *hi = NULL;
    for (int q = 0; q < nnode; q++) {
        size_t size;
        char *base = dist_comm_window_segment(c, q, &size);
        if (size > 0 && (!*lo || base < *lo)) *lo = base;
        if (size > 0 && (!*hi || base + size > *hi)) *hi = base + size;
    }
}

/* VIA_NODE: one shared window over the run's ranks on this node (collective over them, also
 * for ranks without such a halo); each rank's segment holds its receive buffers, and the
 * whole window is pinned for the backend in every rank. */
static int attach_window(struct dist_run *r, char *err, size_t errlen)
{
    struct seg_header layout, *mine;
    size_t bytes = round_up(sizeof layout, SEG_ALIGN);
    char *lo, *hi;
    void *seg;
    memset(&layout, 0, sizeof layout);
    for (int k = 0; k < r->nh; k++) {
        if (r->h[k].via != VIA_NODE) continue;
        for (int f = 0; f < 2; f++) {
            layout.off[r->h[k].g.dir][f] = bytes;
            bytes += round_up(r->h[k].bytes, BUF_ALIGN);
        }
    }
    bytes = round_up(bytes, SEG_ALIGN);
    if (dist_comm_window(r->comm, bytes, &seg, err, errlen)) return 1;
    mine = seg;
    *mine = layout;
    for (int k = 0; k < r->nh; k++)
        if (r->h[k].via == VIA_NODE)
            for (int f = 0; f < 2; f++)
                r->h[k].rhost[f] = (char *)mine + layout.off[r->h[k].g.dir][f];
    dist_comm_window_sync(r->comm);
    dist_comm_node_barrier(r->comm);
    dist_comm_window_sync(r->comm);
    window_range(r->comm, &lo, &hi);
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        size_t size;
        const struct seg_header *theirs;
        if (h->via != VIA_NODE) continue;
        theirs = dist_comm_window_segment(r->comm, h->node_peer, &size);
        /* the neighbour files this halo under the direction pointing back at this rank */
        for (int f = 0; f < 2; f++)
            h->phost[f] = (char *)theirs + theirs->off[lbm_opp[h->g.dir]][f];
    }
    if (lo && lbm_host_register(lo, (size_t)(hi - lo), LBM_PIN, err, errlen)) return 1;
    r->pinned = lo;
    r->pinned_bytes = lo ? (size_t)(hi - lo) : 0;
    return 0;
}

static int alloc_buffers(struct halo *h, char *err, size_t errlen)
{
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
    return 0;
}

int dist_attach(struct dist_run *r, struct lbm_state *s, int halo, char *err, size_t errlen)
{
    const size_t es = prec_size(r->c.prec);
    r->s = s;
    if (r->nh == 0) return 0;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        h->bytes = (size_t)h->g.n * es;
        for (int a = 0; a < 3; a++)
            h->bytes *= (size_t)(h->g.shi[a] - h->g.slo[a]);
    }
    choose_paths(r, halo);
    /* first: collective, so a rank failing below cannot leave the others waiting in it */
    r->vias_all = dist_comm_or_int(r->comm, r->vias);
    if ((r->vias_all & 1 << VIA_NODE) && attach_window(r, err, errlen)) return 1;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        if (alloc_buffers(h, err, errlen)) return 1;
        /* an x face; not where x faces are updated: that interior box writes them beside the
         * send */
        const int side = h->updated ? -1 : decomp_x_side(&h->g);
        h->by_update = side >= 0 && lbm_halo_sent_by_update(s, side, h->g.dirs, h->sbuf);
    }
    return 0;
}

void dist_halo_free(struct dist_run *r)
{
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
}

const char *dist_halo_used(const struct dist_run *r)
{
    static const char *const names[8] = {"",     "device",      "node",      "device+node",
                                         "host", "device+host", "node+host", "device+node+host"};
    return names[r->vias_all & 7];
}

/* A VIA_NODE halo is copied straight into the neighbour's buffer and its message carries no
 * data: the neighbour reads the buffer after the message, and the buffer's next writer (two
 * exchanges on) has waited for a message the neighbour sent after its copy out of it had run. */
static char no_data[1];

static void *wire_buffer(const struct halo *h, void *dev, void *host)
{
    return h->via == VIA_DEVICE ? dev : (h->via == VIA_HOST ? host : no_data);
}

static size_t wire_bytes(const struct halo *h)
{
    return h->via == VIA_NODE ? 0 : h->bytes;
}

/* An x face's halo where x faces are updated: the interior box of the update before reads the
 * received face in place beside its exchange, so MPI may write rbuf[f] (VIA_DEVICE: CUDA-aware MPI
 * writes GPU memory itself) only once that box has run, which the boundary queue's wait in
 * dist_halo_send ensures (lbm_queues_join made it wait for the interior queue): its receive is
 * posted there. Every other receive is posted before the pack, as early as can be. */
static int receives_late(const struct halo *h)
{
    return h->updated;
}

/* Post this exchange's receives, the late ones or the others. The neighbour at c_dir sends its
 * own opposite halo: tagged with its direction. */
static int post_receives(struct dist_run *r, int late, char *err, size_t errlen)
{
    const int f = r->flip;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        if (receives_late(h) == late &&
            dist_comm_irecv(r->comm, wire_buffer(h, h->rbuf[f], h->rhost[f]), wire_bytes(h),
                            h->g.peer, lbm_opp[h->g.dir], k, err, errlen))
            return 1;
    }
    return 0;
}

int dist_halo_pack(struct dist_run *r, enum dist_pack how, char *err, size_t errlen)
{
    struct lbm_state *s = r->s;
    const int f = r->flip;
    if (post_receives(r, 0, err, errlen)) return 1;
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        const int written = h->by_update && how != DIST_PACK_PRIME;
        if ((!written && (how == DIST_PACK_SHELLS && h->updated
                              ? lbm_halo_update(s, h->g.dirs, h->g.n, h->g.slo, h->g.shi, h->sbuf,
                                                LBM_QUEUE_EDGE, err, errlen)
                              : lbm_halo_copy(s, LBM_HALO_PACK, h->g.dirs, h->g.n, h->g.slo,
                                              h->g.shi, h->sbuf, LBM_QUEUE_EDGE, err, errlen))) ||
            (h->via != VIA_DEVICE &&
             lbm_buffer_copy(s, h->via == VIA_NODE ? h->phost[f] : h->shost, h->sbuf, h->bytes,
                             LBM_COPY_TO_HOST, err, errlen)))
            return 1;
    }
    return 0;
}

int dist_halo_send(struct dist_run *r, char *err, size_t errlen)
{
    if (lbm_wait(r->s, LBM_QUEUE_EDGE, err, errlen)) return 1;
    if (post_receives(r, 1, err, errlen)) return 1;
    if (r->vias & 1 << VIA_NODE)
        dist_comm_window_sync(r->comm); /* the copies into the neighbours' buffers come first */
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        if (dist_comm_isend(r->comm, wire_buffer(h, h->sbuf, h->shost), wire_bytes(h), h->g.peer,
                            h->g.dir, r->nh + k, err, errlen))
            return 1;
    }
    return 0;
}

int dist_halo_finish(struct dist_run *r, char *err, size_t errlen)
{
    struct lbm_state *s = r->s;
    const int f = r->flip;
    dist_comm_waitall(r->comm, 2 * r->nh);
    if (r->vias & 1 << VIA_NODE) dist_comm_window_sync(r->comm);
    for (int k = 0; k < r->nh; k++) {
        struct halo *h = &r->h[k];
        /* what arrives from the neighbour at c_dir fills the ghost layer on that side, or the
         * backend reads it where it arrived: the next update's boundary boxes, which run before
         * this rank's next send, so before the buffer's next writer (two exchanges on); where x
         * faces are updated, also its interior box beside that send (receives_late) */
        const int side = decomp_x_side(&h->g);
        int taken = 0;
        if ((h->via != VIA_DEVICE && lbm_buffer_copy(s, h->rbuf[f], h->rhost[f], h->bytes,
                                                     LBM_COPY_TO_BACKEND, err, errlen)) ||
            (side >= 0 && lbm_halo_in_place(s, side, h->g.rdirs, h->rbuf[f], LBM_QUEUE_EDGE, &taken,
                                            err, errlen)) ||
            (!taken && lbm_halo_copy(s, LBM_HALO_UNPACK, h->g.rdirs, h->g.n, h->g.rlo, h->g.rhi,
                                     h->rbuf[f], LBM_QUEUE_EDGE, err, errlen)))
            return 1;
    }
    r->flip = !f;
    return 0;
}
