/* dist_run.h: a distributed run's state, shared by the files that implement dist.h (dist.c: the
 * case and the reductions; dist_halo.c: halo paths, buffers and the exchange; dist_loop.c: the
 * update loop). Not for the rest of the driver: dist.h is its interface. */
#ifndef LBM_DIST_RUN_H
#define LBM_DIST_RUN_H

#include "decomp.h"
#include "dist.h"
#include "dist_mpi.h"

/* How a halo travels (--halo): MPI reads and writes the backend's buffers (device: the CPU, or
 * a GPU with CUDA-aware MPI); the backend copies it into the neighbour's receive buffer in host
 * memory that MPI shares between the ranks of a node (node: an MPI-3 shared-memory window,
 * pinned, and a message of 0 bytes says it is there: no copy by the CPU); or MPI sends it
 * between pinned host buffers (host). */
enum { VIA_DEVICE, VIA_NODE, VIA_HOST };

struct halo {
    struct decomp_halo g; /* where it goes, what it carries, from and to which cells */
    int node_peer;        /* the peer's rank among the run's ranks on this node, or -1 */
    int via;              /* VIA_* */
    size_t bytes;
    /* Receive buffers come in pairs, used on alternate updates: a receive is posted before the
     * previous update's copy out of its buffer (queued on the device) has surely run, and with
     * a neighbour ahead by one update its data would otherwise overwrite the buffer under that
     * copy (seen on 4 H200s in a line: wrong states, intermittently); where x faces are
     * updated, the next update's boxes also read an x face's buffer in place beside the
     * exchange after it, whose receive is therefore posted late (dist_halo.c) */
    void *sbuf, *rbuf[2];   /* backend memory */
    void *shost, *rhost[2]; /* staging copies in host memory (NULL when MPI takes sbuf/rbuf) */
    void *phost[2];         /* VIA_NODE: the neighbour's rhost[], where this rank's halo goes */
    int updated;            /* its cells are updated into sbuf (lbm_halo_update), not packed */
    int by_update;          /* every update of its cells writes sbuf (lbm_halo_sent_by_update) */
};

struct dist_run {
    struct dist_comm *comm;
    char *pinned; /* the range of the node's window registered with the backend, or NULL */
    size_t pinned_bytes;
    int vias;     /* bit set of the VIA_* this rank's halos take */
    int vias_all; /* ... and any rank's of the run */
    int rank, size;
    struct lbm_case c; /* the local case */
    struct halo h[DECOMP_MAX_HALOS];
    int nh;
    size_t box_lo[DECOMP_MAX_BOXES][3], box_hi[DECOMP_MAX_BOXES][3]; /* decomp_boxes */
    int nbox;
    int x_update; /* no x shells: the x faces' halos are updated into their buffers */
    int x_split;  /* the run's rank grid splits x (procs[0] > 1) */
    int flip;     /* which receive buffer of each pair this exchange uses */
    struct lbm_state *s;
};

/* What the exchange follows: no update (the exchange before the first), an overlapped update's
 * boundary boxes (the interior comes later), or the whole box */
enum dist_pack { DIST_PACK_PRIME, DIST_PACK_SHELLS, DIST_PACK_WHOLE };
/* dist_halo.c: the exchange of one update, in three parts (dist_loop.c interleaves the interior
 * update with them): post the receives and pack every halo from the next lattice (after the
 * shells the halos marked updated are updated from the current lattice into their buffers
 * instead, as the interior has not run yet; after an update the halos its boxes wrote need
 * nothing); send once packed (the updated halos' receives posted there); wait and unpack into
 * the next lattice's ghost layers, or leave an x face where it arrived for the backend to read
 * (lbm_halo_in_place). */
int dist_halo_pack(struct dist_run *r, enum dist_pack how, char *err, size_t errlen);
int dist_halo_send(struct dist_run *r, char *err, size_t errlen);
int dist_halo_finish(struct dist_run *r, char *err, size_t errlen);
/* frees the halo buffers and unpins the window (before the window itself goes) */
void dist_halo_free(struct dist_run *r);

#endif
