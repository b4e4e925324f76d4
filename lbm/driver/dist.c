/* dist.c: a distributed LBM case (dist.h): this rank's part of the split (decomp.c), its
 * communicator (dist_mpi.c), and the sums over the run's ranks. The halos are dist_halo.c's, the
 * update loop dist_loop.c's. One code path with or without MPI: without it (or without a launcher)
 * there is one rank and no neighbour. */
#include "dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3q19.h"
#include "dist_run.h"

int dist_dims_create(int n, int procs[3])
{
    return decomp_dims(n, procs);
}

/* LBMR_X_FACES (a study switch) into *asked: 1 "update" (the x faces' halos updated into their
 * buffers beside the interior), 0 "shells" (x shells updated before the exchange and packed), -1
 * unset (the backend's choice for the case's precision, lbm_x_faces_updated) or refused */
static int x_faces_asked(int *asked, char *err, size_t errlen)
{
    const char *v = getenv("LBMR_X_FACES");
    *asked = -1;
    if (!v || !*v) return 0;
    if (strcmp(v, "update") == 0 || strcmp(v, "shells") == 0) {
        *asked = strcmp(v, "update") == 0;
        return 0;
    }
    snprintf(err, errlen, "LBMR_X_FACES=%.40s: accepted are update, shells (or unset)", v);
    return 1;
}

int dist_x_faces_check(char *err, size_t errlen)
{
    int asked;
    return x_faces_asked(&asked, err, errlen);
}

/* the halos and boxes of this rank's part, from its place in the rank grid */
static void plan(struct dist_run *r, const int coords[3], const int procs[3], const int periodic[3])
{
    const size_t n[3] = {r->c.nx, r->c.ny, r->c.nz};
    struct decomp_halo g[DECOMP_MAX_HALOS];
    char err[96];
    int asked;
    r->nh = decomp_halos(n, &r->c.place, coords, procs, periodic, g);
    /* a bad value was refused at start-up (dist_x_faces_check) */
    (void)x_faces_asked(&asked, err, sizeof err);
    r->x_update = asked >= 0 ? asked : lbm_x_faces_updated(r->c.prec);
    r->x_split = procs[0] > 1;
    for (int k = 0; k < r->nh; k++) {
        r->h[k].g = g[k];
        r->h[k].node_peer = dist_comm_node_rank(r->comm, g[k].peer);
        /* a face's halo along x alone: no y or z shell holds its cells */
        r->h[k].updated = r->x_update && decomp_x_side(&g[k]) >= 0;
    }
    r->nbox =
        decomp_boxes(n, &r->c.place, r->x_update ? 0 : lbm_shell_x_cells(), r->box_lo, r->box_hi);
}

int dist_case_begin(const struct lbm_case *whole, const int procs[3], int weak,
                    struct dist_run **run, struct lbm_case *local, char *err, size_t errlen)
{
    const size_t in[3] = {whole->nx, whole->ny, whole->nz};
    size_t n[3];
    struct lbm_bounds b;
    struct dist_run *r;
    int coords[3];
    *run = NULL;
    *local = *whole;
    if (decomp_check(in, procs, weak, dist_size(), err, errlen)) return 1;
    r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    if (dist_comm_open(procs[0] * procs[1] * procs[2], &r->comm, err, errlen)) {
        free(r);
        return 1;
    }
    if (!r->comm) { /* idle in this case */
        free(r);
        return 0;
    }
    r->rank = dist_comm_rank(r->comm);
    r->size = dist_comm_size(r->comm);
    decomp_coords(r->rank, procs, coords);
    lbm_geometry_bounds(whole->geometry, whole->lid_ux, &b);
    decomp_place(in, procs, coords, b.periodic, weak, n, &local->place);
    local->place.x_faces_in_rows = lbm_x_faces_in_rows(whole->kernel);
    local->nx = n[0];
    local->ny = n[1];
    local->nz = n[2];
    r->c = *local;
    plan(r, coords, procs, b.periodic);
    *run = r;
    return 0;
}

void dist_case_end(struct dist_run *r)
{
    if (r) {
        dist_halo_free(r);
        dist_comm_close(r->comm);
        free(r);
    }
    dist_mpi_barrier_all();
}

void dist_sum(struct dist_run *r, double *mass, size_t *nonfinite, uint64_t *hash)
{
    if (r->size > 1) {
        dist_comm_sum_double(r->comm, mass, 1);
        *nonfinite = (size_t)dist_comm_sum_u64(r->comm, *nonfinite);
        *hash = dist_comm_sum_u64(r->comm, *hash);
    }
}

int dist_any(struct dist_run *r, int flag)
{
    return r->size > 1 ? dist_comm_max_int(r->comm, flag) : flag;
}

const char *dist_x_faces_used(const struct dist_run *r)
{
    return !r->x_split ? "" : r->x_update ? "update" : "shells";
}

int dist_run_rank(const struct dist_run *r)
{
    return r->rank;
}

int dist_neighbours(const struct dist_run *r)
{
    return r->nh;
}

int dist_run_max(struct dist_run *r, int v)
{
    return dist_any(r, v); /* dist_any is the maximum of the flags */
}

void dist_run_sum(struct dist_run *r, double *v, int n)
{
    if (r->size > 1) dist_comm_sum_double(r->comm, v, n);
}

double dist_run_max_double(struct dist_run *r, double v)
{
    return r->size > 1 ? dist_comm_max_double(r->comm, v) : v;
}
