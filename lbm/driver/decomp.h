/* decomp.h: how a distributed run splits its domain: the rank grid, each rank's box, its
 * neighbours (periodic axes wrap), the halos it exchanges with them and the order of its box
 * updates. Pure arithmetic: no MPI, no backend (tests/test_decomp.c checks it on its own). */
#ifndef LBM_DECOMP_H
#define LBM_DECOMP_H

#include <stddef.h>

#include "lbm_model.h"

/* halos of one rank at most: D3Q19 links a cell to 6 faces and 12 edges, no corners */
#define DECOMP_MAX_HALOS 18
/* boxes of one update at most: a boundary shell per axis and side, then the interior */
#define DECOMP_MAX_BOXES 7

/* The default grid of n ranks, procs[0..2] ranks along x, y, z, as Open MPI's MPI_Dims_create
 * makes it: the prime factors of n, largest first, each multiplied onto the axis whose product is
 * smallest so far; the largest product then goes to z and the smallest to x (z and y faces are
 * whole rows, x faces one value per row: slow halos, 1-wide boxes). 0, or 1 for n < 1. */
int decomp_dims(int n, int procs[3]);

/* Ranks are numbered row-major over the grid, x slowest and z fastest (the numbering of MPI's
 * Cartesian topologies): coordinates of a rank, and the rank at coordinates. */
void decomp_coords(int rank, const int procs[3], int coords[3]);
int decomp_rank(const int coords[3], const int procs[3]);

/* Part k of p of an axis of `global` cells: *n cells from *off; the first global % p parts hold
 * one cell more than the others. */
void decomp_split(size_t global, int p, int k, size_t *n, size_t *off);

/* 0 if `whole` (cells per axis) can be split into procs[0..2] on a job of `ranks` ranks (weak:
 * whole is each rank's own box); else 1 and why not, in err. */
int decomp_check(const size_t whole[3], const int procs[3], int weak, int ranks, char *err,
                 size_t errlen);

/* The box of the rank at coords: its cells per axis n[3], and where it sits (place: the global
 * domain, its offset, which sides have a neighbour). periodic[a]: axis a wraps (a single rank
 * along it wraps onto itself and has no neighbour there). weak: each rank's box is `whole`. */
void decomp_place(const size_t whole[3], const int procs[3], const int coords[3],
                  const int periodic[3], int weak, size_t n[3], struct lbm_place *place);

/* One halo: what this rank sends to the neighbour beyond c_dir and receives from it. */
struct decomp_halo {
    int dir;        /* d3q19 direction index of the neighbour: c_dir points at it */
    int peer;       /* its rank (decomp_rank) */
    int dirs[5], n; /* the populations sent: those moving towards the neighbour */
    int rdirs[5];   /* those received, in the sender's order: moving away from it */
    /* boxes sent from (the layer next to the neighbour) and received into (the ghost layer
     * there), in local coordinates: -1 and n name ghost layers */
    long slo[3], shi[3], rlo[3], rhi[3];
};

/* Which x face halo g is: 0 the one at x = 0 (its ghost layer x = -1), 1 at x = nx - 1 (x = nx),
 * -1 for a halo that crosses y or z (a y or z face, an edge): its neighbour lies along x alone */
int decomp_x_side(const struct decomp_halo *g);

/* The halos of the rank at coords whose box is n[3] and place `place` (decomp_place), in d3q19
 * direction order; returns how many (0 without neighbours). */
int decomp_halos(const size_t n[3], const struct lbm_place *place, const int coords[3],
                 const int procs[3], const int periodic[3], struct decomp_halo h[DECOMP_MAX_HALOS]);

/* The update of a box n[3] in pieces, [lo[b], hi[b]): first the shells on the sides with a
 * neighbour (z low, z high, then y, then x; each shell leaves out the ones before it), then the
 * interior, last; returns how many (1: the whole box). The shells are what the halos need, so the
 * interior can run while they travel. z and y shells are one cell thick (whole rows); x shells
 * are xw cells wide (at most what is left): a 1-cell x shell is one value per row, which a GPU
 * runs as one thread per block and a CPU as one cold cache line per population. xw = 0: no x
 * shells, the interior spans whole rows (the x faces' halos are then updated straight into their
 * buffers, lbm_halo_update). */
int decomp_boxes(const size_t n[3], const struct lbm_place *place, size_t xw,
                 size_t lo[DECOMP_MAX_BOXES][3], size_t hi[DECOMP_MAX_BOXES][3]);

#endif
