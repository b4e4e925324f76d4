/* dist_loop.c: the time loop of a distributed run (dist.h): each update the boundary shells, the
 * halo exchange and the interior, overlapped or in turn, around the backend's box updates. */
#include <stdio.h>

#include "dist_run.h"

/* One update: the shells (overlap) or the whole box, then the exchange with the interior in it;
 * the next lattice becomes the current one. */
static int update(struct dist_run *r, struct lbm_state *s, enum dist_exchange exchange, int overlap,
                  int async, char *err, size_t errlen)
{
    const size_t all_lo[3] = {0, 0, 0}, all_hi[3] = {r->c.nx, r->c.ny, r->c.nz};
    const int inner = r->nbox - 1;
    if (overlap) {
        for (int b = 0; b < inner; b++)
            if (lbm_update_box(s, r->box_lo[b], r->box_hi[b], LBM_QUEUE_EDGE, err, errlen))
                return 1;
    } else if (lbm_update_box(s, all_lo, all_hi, LBM_QUEUE_EDGE, err, errlen)) {
        return 1;
    }
    /* the interior goes between packing and sending: a device backend queues it and the host
     * moves on to wait for the packs; the CPU computes it while the messages travel */
    if (exchange && dist_halo_pack(r, overlap ? DIST_PACK_SHELLS : DIST_PACK_WHOLE, err, errlen))
        return 1;
    if (overlap && async &&
        lbm_update_box(s, r->box_lo[inner], r->box_hi[inner], LBM_QUEUE_INTERIOR, err, errlen))
        return 1;
    if (exchange && dist_halo_send(r, err, errlen)) return 1;
    if (overlap && !async &&
        lbm_update_box(s, r->box_lo[inner], r->box_hi[inner], LBM_QUEUE_INTERIOR, err, errlen))
        return 1;
    if ((exchange && dist_halo_finish(r, err, errlen)) || lbm_queues_join(s, err, errlen)) return 1;
    lbm_swap(s);
    return 0;
}

int dist_step(struct dist_run *r, struct lbm_state *s, int steps, enum dist_exchange exchange,
              int overlap, double *seconds, char *err, size_t errlen)
{
    const int async = lbm_queues_async();
    double t0;
    if (r->nh == 0) /* one rank: exactly the single-domain benchmark */
        return lbm_step(s, steps, seconds, err, errlen);
    if (!dist_have_mpi()) {
        snprintf(err, errlen, "a split domain needs MPI");
        return 1;
    }
    dist_comm_barrier(r->comm);
    t0 = dist_mpi_wtime();
    for (int step = 0; step < steps; step++)
        if (update(r, s, exchange, overlap, async, err, errlen)) goto broken;
    if (lbm_wait(s, LBM_QUEUE_BOTH, err, errlen)) goto broken;
    *seconds = dist_comm_max_double(r->comm, dist_mpi_wtime() - t0);
    return 0;
broken:
    /* the other ranks wait in a collective for this one: nothing to return to */
    fprintf(stderr, "lbm: rank %d: %s; aborting the job\n", dist_rank(), err);
    dist_mpi_abort();
    return 1;
}

int dist_prime(struct dist_run *r, struct lbm_state *s, char *err, size_t errlen)
{
    int rc;
    if (r->nh == 0) return 0;
    lbm_swap(s); /* the halo calls work on the next lattice: make it the current one */
    rc = dist_halo_pack(r, DIST_PACK_PRIME, err, errlen) || dist_halo_send(r, err, errlen) ||
         dist_halo_finish(r, err, errlen) || lbm_wait(s, LBM_QUEUE_BOTH, err, errlen);
    lbm_swap(s);
    return rc;
}
